"""Each HIVE demo study in headless Chromium, start to finish: consent, the optional demographics, the method
explained, the preview, understanding three times, 10 trials (with a reload after the fourth; the method description
reopened from the trial screen, as HIVE allows at any time), the score, the tradeoff and feedback. Every trial is
stored exactly once, with the order the options were shown in, and the export has one row per trial."""

import csv
from pathlib import Path

import pytest
from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession, Stimulus, SurveyResponse, Trial
from server.studies.definitions import sync_studies

STUDIES = ("hive-agreement", "hive-distinction", "hive-output-prediction", "hive-prototree")


def stored(slug):
    db.session.rollback()  # read what the server thread committed
    return db.session.scalars(
        db.select(Trial)
        .join(ParticipantSession)
        .where(ParticipantSession.study.has(slug=slug))
        .order_by(Trial.trial_index)
    ).all()


def understanding(page, value):
    expect(page.get_by_role("heading", name="Your understanding")).to_be_visible()
    page.locator(f"input[name=understanding][value='{value}']").check()
    page.get_by_role("button", name="Continue").click()


def reopen_description(page):
    """The method description opens over the trial and closes back to it (issue #23 row 12)."""
    dialog = page.locator("dialog.sh-hive-description")
    expect(dialog).to_be_hidden()
    page.get_by_role("button", name="How the model works").click()
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading", name="How the model decides")).to_be_visible()
    dialog.get_by_role("button", name="Back to the task").click()
    expect(dialog).to_be_hidden()


def answer_trial(page, slug, index):
    """Answer trial `index`; returns what the page should send."""
    submit = page.locator("form.sh-hive button[type=submit]")
    expect(submit).to_be_enabled()  # every image has loaded
    expect(page.get_by_role("button", name="How the model works")).to_be_visible()  # on every trial screen
    if index in (0, 7):
        reopen_description(page)
    if slug == "hive-agreement":
        ratings = page.locator("fieldset[data-name^=similarity-]")
        values = [(index + m) % 4 + 1 for m in range(ratings.count())]
        for m, value in enumerate(values):
            page.locator(f"input[name=similarity-{m}][value='{value}']").check()
        confidence = index % 4 + 1
        page.locator(f"input[name=confidence][value='{confidence}']").check()
        expected = {"confidence": confidence, **({"similarity": values} if values else {})}
    elif slug == "hive-prototree":
        root = ("present", "absent")[index % 2]
        second = ("present", "absent")[(index // 2) % 2]
        page.locator(f"input[name=node-root][value={root}]").check()
        other = "absent" if root == "present" else "present"
        expect(page.locator(f".sh-hive-node[data-node={root}]")).to_be_visible()
        expect(page.locator(f".sh-hive-node[data-node={other}]")).to_be_hidden()  # only the branch taken is asked
        page.locator(f"input[name=node-{root}][value={second}]").check()
        expect(page.locator(".sh-hive-reached")).to_have_count(1)
        page.locator("input[name=confidence][value='3']").check()
        expected = {"decisions": [root, second], "confidence": 3}
    else:
        position = index % 4
        submit.click()  # nothing picked yet: the page asks, and nothing is sent
        expect(page.locator("form.sh-hive .sh-error")).to_contain_text("pick one")
        card = page.locator(".sh-hive-card input[name=choice]").nth(position)
        key = card.get_attribute("value")
        card.check()
        page.locator("input[name=confidence][value='5']").check()
        expected = {"choice": key, "confidence": 5}
    submit.dblclick()  # a double click still records one answer
    return expected


def start(page, live_server, slug):
    """From the study link to the first understanding question: consent, demographics, the method, the preview."""
    page.goto(f"{live_server}/study/{slug}")
    page.get_by_role("button", name="I agree").click()
    expect(page.get_by_role("heading", name="About you")).to_be_visible()
    page.locator("input[name=ml_experience][value='2']").check()  # gender and race/ethnicity left out: optional
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", name="How the model decides")).to_be_visible()
    page.get_by_role("button", name="Next >").click()
    page.get_by_role("button", name="Next >").click()
    expect(page.get_by_role("heading", name="Example 1 of 2")).to_be_visible()
    expect(page.locator(".sh-hive-preview")).to_contain_text("correct")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", name="Example 2 of 2")).to_be_visible()
    expect(page.locator(".sh-hive-preview")).to_contain_text("wrong")
    page.get_by_role("button", name="Continue").click()


@pytest.mark.parametrize("slug", STUDIES)
def test_hive_study_end_to_end(app, live_server, page, runner, tmp_path, slug):
    start(page, live_server, slug)
    understanding(page, 2)
    expected = []
    for index in range(10):
        expected.append(answer_trial(page, slug, index))
        if index < 9:
            expect(page.locator("form.sh-hive")).to_have_count(1)
        if index == 3:
            # Reload mid-task: the page resumes at the first trial not stored, skipping what is done.
            page.wait_for_function(
                "() => Object.keys(localStorage).every((k) => JSON.parse(localStorage.getItem(k) || '[]').length === 0)"
            )
            assert len(stored(slug)) == 4
            page.reload()
            page.get_by_role("button", name="Continue").click()  # "Welcome back"

    understanding(page, 3)
    expect(page.get_by_role("heading", name="Your score")).to_be_visible()
    expect(page.locator(".sh-score")).to_contain_text("of 10 correctly")
    page.get_by_role("button", name="Continue").click()
    understanding(page, 4)
    expect(page.get_by_role("heading", name="Explanations or accuracy?")).to_be_visible()
    for name, value in (("low_risk", "65"), ("medium_risk", "70"), ("high_risk", "90")):
        page.locator(f"input[name={name}]").fill(value)
    page.locator("textarea[name=reason]").fill("Safety matters more when the stakes are high.")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", name="Feedback")).to_be_visible()
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/results", timeout=30_000)

    trials = stored(slug)
    assert [t.trial_index for t in trials] == list(range(10))  # exactly once each
    assert [t.response for t in trials] == expected
    session = db.session.scalars(db.select(ParticipantSession).where(ParticipantSession.status == "completed")).one()
    for trial, planned in zip(trials, session.plan):
        assert trial.presented == planned["presented"]
        assert [o["key"] for o in planned["options"]] == trial.presented["options"]
    surveys = {
        s.name: s.answers for s in db.session.scalars(db.select(SurveyResponse).filter_by(session_id=session.id))
    }
    assert surveys["hive_demographics"] == {"ml_experience": 2}
    assert [surveys[f"hive_understanding_{n}"]["understanding"] for n in (1, 2, 3)] == [2, 3, 4]
    assert surveys["hive_tradeoff"]["high_risk"] == 90

    result = runner.invoke(args=["export", slug, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    with open(tmp_path / "trials.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 10
    for row, trial in zip(rows, trials):
        cands = {k: c["candidate"] for k, c in db.session.get(Stimulus, trial.stimulus_id).params["candidates"].items()}
        shown = [cands[k] for k in trial.presented["options"]]
        assert [int(row[f"option_{p}"]) for p in range(1, len(shown) + 1)] == shown
        assert row["correct"] in ("0", "1")


def test_distinction_asks_similarity_ratings_and_output_prediction_in_one_trial(app, live_server, page, tmp_path):
    """A ProtoPNet distinction study with both study.toml options: each trial rates every option's matches and asks
    which option the model chose, and the server stores that one answer (issue #23 row 12)."""
    folder = tmp_path / "studies" / "hive-distinction-both"
    folder.mkdir(parents=True)
    toml = (Path(__file__).parents[1] / "studies" / "hive-distinction" / "study.toml").read_text()
    options = "similarity_ratings = true\noutput_prediction = true\nshow_labels = false"
    (folder / "study.toml").write_text(
        toml.replace('method = "gradcam"', 'method = "protopnet"').replace("show_labels = false", options, 1)
    )
    sync_studies(folder.parent)
    slug = "hive-distinction-both"
    start(page, live_server, slug)
    understanding(page, 2)
    reopen_description(page)
    cards = page.locator(".sh-hive-card")
    expect(cards).to_have_count(4)
    keys = [cards.nth(i).locator("input[name=choice]").get_attribute("value") for i in range(4)]
    ratings = {}
    for i, key in enumerate(keys):
        scales = cards.nth(i).locator("fieldset[data-name^=similarity-]")
        assert scales.count() >= 1
        ratings[key] = [(i + m) % 4 + 1 for m in range(scales.count())]
    cards.nth(1).locator("input[name=choice]").check()
    page.locator("input[name=confidence][value='4']").check()
    submit = page.locator("form.sh-hive button[type=submit]")
    submit.click()
    expect(page.locator("form.sh-hive .sh-error")).to_contain_text("rate the similarity of every match")
    for i, key in enumerate(keys):
        for m, value in enumerate(ratings[key]):
            # rating a match leaves the picked option as it is: the scales are outside the card's label
            cards.nth(i).locator(f"input[name=similarity-{i}-{m}][value='{value}']").check()
    expect(cards.nth(1).locator("input[name=choice]")).to_be_checked()
    submit.click()
    expect(page.locator("form.sh-hive .sh-error")).to_contain_text("which option the model chose")
    page.locator("input[name=predicted]").nth(2).check()
    page.locator("input[name=predicted_confidence][value='2']").check()
    submit.click()
    expect(page.locator("form.sh-hive")).to_have_count(1)  # the next trial
    page.wait_for_function(
        "() => Object.keys(localStorage).every((k) => JSON.parse(localStorage.getItem(k) || '[]').length === 0)"
    )
    (trial,) = stored(slug)
    assert trial.response == {
        "choice": keys[1],
        "confidence": 4,
        "predicted": keys[2],
        "predicted_confidence": 2,
        "similarity": ratings,
    }
