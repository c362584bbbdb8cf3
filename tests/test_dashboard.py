"""The researcher dashboard: studies list, study page (funnel, conditions, data quality, links, events), participant
pages, the stored results' figures (tests/test_stored_results.py has the rest), open/pause/close from page and CLI —
and, in headless Chromium, a researcher watching a participant's progress, pausing the study and downloading the
CSV."""

import csv
import io
import re

from playwright.sync_api import expect

from server import identifiers
from server.db import db
from server.models import ParticipantSession, Stimulus, Study, StudyEvent, Trial
from tests.helpers import DEMOGRAPHICS, answer_all, answer_surveys, enter, rate_all, trial_body


def study3():
    db.session.rollback()
    return db.session.scalars(db.select(Study).filter_by(slug="study3")).one()


def cell(html: str, step: str) -> int:
    return int(re.search(rf'data-step="{step}">(\d+)<', html).group(1))


def complete_one(client, **prolific):
    token = enter(client, **prolific)
    answer_all(client, token)
    assert client.post(f"/api/sessions/{token}/complete").status_code == 200
    return token


def test_funnel_counts_each_step(app, client, auth):
    enter(client, consent=False)  # entered only
    token = enter(client)  # consented
    token = enter(client)  # practice done: one test trial stored
    answer_surveys(client, token)
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    first_test = next(item for item in plan if not item["practice"])
    assert client.post(f"/api/sessions/{token}/trials", json=trial_body(first_test)).status_code == 201
    finished = enter(client)  # every trial stored, /complete not called
    answer_all(client, finished)
    complete_one(client)  # redirected
    auth.login()
    html = client.get("/researcher/studies/study3/").get_data(as_text=True)
    assert [cell(html, s) for s in ("entered", "consented", "practice done", "finished", "redirected")] == [
        5,
        4,
        3,
        2,
        1,
    ]
    assert 'id="n-started">5<' in html and 'id="n-completed">1<' in html
    index = client.get("/researcher/").get_data(as_text=True)
    assert "min</td>" in index  # a median duration is shown once someone completed


def test_conditions_quality_flags_and_participant_pages(app, client, auth):
    a = complete_one(client, PROLIFIC_PID="a" * 24)
    b = enter(client, PROLIFIC_PID="b" * 24)
    study = study3()
    sa, sb = (db.session.scalars(db.select(ParticipantSession).filter_by(token=t)).one() for t in (a, b))
    sa.condition, sb.condition = "explained", "plain"
    study.config = {**study.config, "conditions": {"explained": {"quota": 10}, "plain": {"quota": 10}}}
    # two implausibly fast trials; a score key that is a catch-trial flag in other task types is none here: the
    # flags are the ones the task type declares (ratio estimation has no catch trials)
    trials = db.session.scalars(db.select(Trial).filter_by(session_id=sa.id).order_by(Trial.trial_index)).all()
    trials[0].rt_ms, trials[1].rt_ms = 50, 120
    trials[2].score = {**trials[2].score, "catch_failed": True}
    # the same Prolific id in another study: a returning participant
    other = Study(slug="other", title="Other", task_type=study.task_type, config=study.config, config_hash="x")
    db.session.add(other)
    db.session.flush()
    db.session.add(
        ParticipantSession(
            study_id=other.id, token="o" * 20, platform="prolific", prolific_pid="a" * 24, study_version=1, plan=[]
        )
    )
    db.session.commit()

    auth.login()
    html = client.get("/researcher/studies/study3/").get_data(as_text=True)
    conditions = html.split('id="conditions"', 1)[1].split("</table>", 1)[0]
    assert re.search(
        r"explained</td><td class=\"num\">1</td><td class=\"num\">1</td>\s*<td class=\"num\">1 / 10", conditions
    ), conditions
    assert re.search(r"plain</td><td class=\"num\">1</td><td class=\"num\">0</td>", conditions)
    quality = html.split('id="quality"', 1)[1].split("</ul>", 1)[0]
    assert "&lt; 500 ms): <strong>2</strong>" in quality and f"#{sa.id}" in quality
    assert "catch trials" not in quality
    assert "other studies here): <strong>1</strong>" in quality
    # links ready to paste, with Prolific's placeholders and the completion code
    assert "/study/study3?PROLIFIC_PID={{%PROLIFIC_PID%}}&amp;STUDY_ID={{%STUDY_ID%}}" in html
    assert 'value="C3RATIO5"' in html

    listing = client.get("/researcher/studies/study3/participants").get_data(as_text=True)
    assert "a" * 24 in listing and "30 / 30" in listing and "0 / 30" in listing
    person = client.get(f"/researcher/studies/study3/participants/{sa.id}").get_data(as_text=True)
    trials = person[person.index('<table id="trials">') :]
    assert trials.count("<tr") == 31 and "response_percent" in person and 'class="flag"' in person
    assert client.get(f"/researcher/studies/study3/participants/{sa.id + 100}").status_code == 404
    png = client.get("/researcher/studies/study3/progress.png")
    assert png.status_code == 200 and png.data[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_task_types_own_quality_flags_reach_the_study_page_and_the_participant_list(app, client, auth):
    """Sketch recognition declares failed catch trials as an attention-check flag: the participant who names the catch
    sketch wrongly is flagged on the study page and in the list, and completes as failed_attention_check."""
    params = dict(
        db.session.execute(
            db.select(Stimulus.key, Stimulus.params).join(Study).where(Study.slug == "sketch-demo")
        ).all()
    )
    outcomes = []
    for fails in (True, False):
        token = enter(client, "sketch-demo")
        answer_surveys(client, token)
        for item in client.get(f"/api/sessions/{token}").get_json()["plan"]:
            p = params[item["stimulus_id"]]
            guess = "bowl" if p["catch"] and fails else p["concept"]
            body = {**trial_body(item), "response": {"guesses": [{"label_id": guess, "rt_ms": 900}]}}
            assert client.post(f"/api/sessions/{token}/trials", json=body).status_code == 201
        outcomes.append(client.post(f"/api/sessions/{token}/complete").get_json()["outcome"])
    assert outcomes == ["failed_attention_check", "completed"]
    flagged = db.session.scalars(db.select(ParticipantSession.id).filter_by(outcome="failed_attention_check")).one()
    auth.login()
    quality = client.get("/researcher/studies/sketch-demo/").get_data(as_text=True).split('id="quality"', 1)[1]
    line = quality.split("Failed attention checks (catch trials): ", 1)[1].split("</li>", 1)[0]
    assert line.startswith("<strong>1</strong>") and f">#{flagged}</a>" in line
    listing = client.get("/researcher/studies/sketch-demo/participants").get_data(as_text=True)
    assert "<th>Failed checks</th>" in listing and listing.count('<td class="num flag">1</td>') == 1


def test_participant_list_is_paginated(app, client, auth):
    study = study3()
    db.session.execute(
        db.insert(ParticipantSession),
        [
            {"study_id": study.id, "token": f"tok{i:04d}xxxxxxxx", "platform": "direct", "study_version": 1, "plan": []}
            for i in range(120)
        ],
    )
    db.session.commit()
    auth.login()
    first = client.get("/researcher/studies/study3/participants").get_data(as_text=True)
    assert "Page 1 of 3" in first and first.count("participants/") >= 50
    last = client.get("/researcher/studies/study3/participants?page=3").get_data(as_text=True)
    assert "Page 3 of 3" in last and len(re.findall(r"<tr><td><a ", last)) == 20
    assert "Page 3 of 3" in client.get("/researcher/studies/study3/participants?page=99").get_data(as_text=True)


def test_results_page_draws_the_figures_flask_analyze_writes(app, client, auth, runner, tmp_path):
    """The page draws each figure on its own (Report.figures): the same ones `--out` writes, here for
    the rating study, whose figure is not the ratio study's three."""
    for rating in (2, 5, 7):
        token = enter(client, slug="two4two-demo")
        answer_surveys(client, token)
        rate_all(client, token, rating)
        assert client.post(f"/api/sessions/{token}/complete").status_code == 200
    stored = runner.invoke(args=["analyze", "two4two-demo", "--n-boot", "50", "--out", str(tmp_path), "--store"])
    assert stored.exit_code == 0, stored.output
    auth.login()
    html = client.get("/researcher/studies/two4two-demo/results").get_data(as_text=True)
    shown = re.findall(r"<figcaption>([\w.]+)</figcaption>", html)
    assert shown == sorted(p.name for p in tmp_path.glob("*.png")) == ["likert.png"]
    assert html.count('src="data:image/png;base64,') == 1


def test_open_pause_close_from_the_cli(app, client, runner):
    assert runner.invoke(args=["studies", "pause", "study3"]).output.strip() == "study3: paused"
    assert runner.invoke(args=["studies", "pause", "study3"]).output.strip() == "study3 is paused already"
    page = client.get("/study/study3").get_data(as_text=True)
    assert "Not accepting participants" in page
    assert runner.invoke(args=["studies", "open", "study3"]).exit_code == 0
    assert client.get("/study/study3").status_code == 303
    assert runner.invoke(args=["studies", "close", "nope"]).exit_code != 0
    assert runner.invoke(args=["studies", "close", "study3", "--by", "nobody"]).exit_code != 0
    assert [e.action for e in db.session.scalars(db.select(StudyEvent).order_by(StudyEvent.id))] == ["paused", "open"]


def test_a_running_session_finishes_after_a_pause(app, client, auth):
    token = enter(client)
    auth.login()
    client.post("/researcher/studies/study3/status", data={"status": "paused"})
    answer_all(client, token)
    assert client.post(f"/api/sessions/{token}/complete").get_json()["status"] == "completed"


def test_researcher_watches_progress_pauses_and_downloads(app, client, auth, live_server, page, tmp_path):
    page.goto(f"{live_server}/researcher/studies/study3/")
    expect(page).to_have_url(re.compile(r"/researcher/login"))
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill("correct horse")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name=re.compile("study3"))).to_be_visible()
    expect(page.locator("#n-started")).to_have_text("0")

    # A simulated participant works through the JSON API; the researcher reloads and sees each step.
    token = enter(client, PROLIFIC_PID="c" * 24, STUDY_ID="s", SESSION_ID="x")
    answer_surveys(client, token, demographics=DEMOGRAPHICS)
    page.reload()
    expect(page.locator("#n-started")).to_have_text("1")
    expect(page.locator('[data-step="consented"]')).to_have_text("1")
    expect(page.locator('[data-step="finished"]')).to_have_text("0")
    answer_all(client, token)
    assert client.post(f"/api/sessions/{token}/complete").status_code == 200
    page.reload()
    expect(page.locator("#n-completed")).to_have_text("1")
    expect(page.locator('[data-step="redirected"]')).to_have_text("1")
    assert page.locator("img.plot").evaluate("img => img.complete && img.naturalWidth > 0")

    # Pause from the page: a new participant gets the polite page, and the change is logged with who.
    page.get_by_role("button", name="Pause study").click()
    expect(page.locator("#study-status")).to_have_text("paused")
    expect(page.locator("#events")).to_contain_text("open → paused")
    expect(page.locator("#events")).to_contain_text("ada")
    newcomer = page.context.new_page()
    newcomer.goto(f"{live_server}/study/study3")
    expect(newcomer.get_by_role("heading", name="Not accepting participants")).to_be_visible()
    newcomer.close()
    assert study3().status == "paused"

    # Download the CSV the page links to.
    with page.expect_download() as info:
        page.get_by_role("link", name="trials.csv").click()
    path = tmp_path / "trials.csv"
    info.value.save_as(path)
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    assert len(rows) == 30 and {r["participant_code"] for r in rows} == {identifiers.pid_hmac("c" * 24)[:16]}

    page.get_by_role("button", name="Open study").click()
    expect(page.locator("#study-status")).to_have_text("open")


def test_participant_page_shows_the_sessions_survey_answers(app, client, auth):
    """Issue #27: the participant page lists consent and each survey's answers, questions as the participant read
    them; a session that answered none says that."""
    token = enter(client)
    answer_surveys(client, token)
    unanswered = enter(client, consent=False)
    auth.login()
    ids = dict(db.session.execute(db.select(ParticipantSession.token, ParticipantSession.id)).all())
    page = client.get(f"/researcher/studies/study3/participants/{ids[token]}").get_data(as_text=True)
    surveys = page[page.index('<section id="surveys">') : page.index("</section>", page.index('id="surveys"'))]
    for question, answer in (
        ("I agree to take part", "True"),
        ("Gender", "female"),
        ("Age (years)", "30"),
        ("Highest level of education", "doctorate"),
        ("Nationality", "Chilean"),
    ):
        assert f"<td>{question}</td><td>{answer}</td>" in surveys
    assert surveys.index(">consent</th>") < surveys.index(">demographics</th>")
    empty = client.get(f"/researcher/studies/study3/participants/{ids[unanswered]}").get_data(as_text=True)
    assert "No survey answered yet." in empty
