"""A Prolific participant does study3 in headless Chromium: reloads mid-way, loses the network for a few trials,
and ends with exactly 30 stored trials that match the CSV export and the completion redirect; then a model's
predictions for the same stimuli are imported and `flask analyze` reports both."""

import csv
import json
import math

import pytest
from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession, Trial
from tests.helpers import PROLIFIC

COMPLETION = "https://app.prolific.com/submissions/complete?cc=C3RATIO5"


def stored(pid=PROLIFIC["PROLIFIC_PID"]):
    db.session.rollback()  # read what the server thread committed, not this thread's old snapshot
    return db.session.scalars(
        db.select(Trial)
        .join(ParticipantSession)
        .where(ParticipantSession.prolific_pid == pid)
        .order_by(Trial.trial_index)
    ).all()


def answer(page, index, practice):
    """Answer plan item `index` with 10 + index percent."""
    field = page.locator("#sh-ratio-input")
    expect(page.locator(".sh-ratio-form button")).to_be_enabled()  # the chart has loaded
    field.fill(str(10 + index))
    page.locator(".sh-ratio-form button").click()
    if practice:
        expect(page.locator(".sh-feedback")).to_contain_text("The correct answer was")
        page.get_by_role("button", name="Continue").click()


def test_prolific_participant_completes_study3(app, live_server, page, runner, tmp_path):
    redirected = []
    page.context.route(
        "https://app.prolific.com/**",
        lambda route: (
            redirected.append(route.request.url),
            route.fulfill(status=200, body="Prolific", content_type="text/html"),
        ),
    )
    query = "&".join(f"{k}={v}" for k, v in PROLIFIC.items())
    page.goto(f"{live_server}/study/study3?{query}")

    page.get_by_role("button", name="I agree").click()
    page.locator("input[name=gender][value=female]").check()
    page.locator("input[name=age]").fill("29")
    page.locator("input[name=education][value=masters]").check()
    page.locator("input[name=nationality]").fill("Portuguese")
    page.get_by_role("button", name="Continue").click()
    for heading in ("Your task", "Practice first"):  # the instruction pages of studies/study3/study.toml
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
        page.get_by_role("button", name="Next >").click()

    for index in range(5):
        answer(page, index, practice=True)
    page.get_by_role("button", name="Start").click()
    for index in range(5, 12):
        answer(page, index, practice=False)

    # Reload mid-study: the page resumes at the first trial not yet stored, with the same list.
    page.wait_for_function(
        "() => !localStorage.getItem(Object.keys(localStorage)[0]) || "
        "JSON.parse(localStorage.getItem(Object.keys(localStorage)[0])).length === 0"
    )
    assert [t.trial_index for t in stored()] == list(range(12))
    page.reload()
    page.get_by_role("button", name="Continue").click()  # "Welcome back"
    for index in range(12, 15):
        answer(page, index, practice=False)

    # The network drops for four trials: answers wait in localStorage, nothing is lost or sent twice.
    page.context.set_offline(True)
    for index in range(15, 19):
        answer(page, index, practice=False)
    expect(page.locator("#studyhive-notice")).to_contain_text("Connection lost")
    assert len(stored()) <= 16  # at most the trial that was in flight when the network dropped
    page.context.set_offline(False)
    for index in range(19, 30):
        answer(page, index, practice=False)

    page.wait_for_url(COMPLETION, timeout=60_000)
    assert redirected == [COMPLETION]

    trials = stored()
    assert [t.trial_index for t in trials] == list(range(30))
    assert [t.response["percent"] for t in trials] == [10.0 + i for i in range(30)]
    assert sum(t.practice for t in trials) == 5
    session = db.session.scalars(db.select(ParticipantSession)).one()
    assert session.status == "completed" and session.window_width == 1366

    result = runner.invoke(args=["export", "study3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    with open(tmp_path / "trials.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 30
    assert [(int(r["trial_index"]), float(r["response_percent"]), r["stimulus_id"]) for r in rows] == [
        (t.trial_index, t.response["percent"], plan["stimulus_id"]) for t, plan in zip(trials, session.plan)
    ]
    with open(tmp_path / "participants.csv", newline="") as fh:
        (person,) = csv.DictReader(fh)
    assert (person["status"], person["age"], person["n_trials"]) == ("completed", "29", "30")

    # Issue 3's path on the same data: a model's predictions file for the exported stimuli, imported and analysed.
    # The model is exactly 2 points off everywhere, so its MLAE is log2(2.125) for every chart type.
    assert runner.invoke(args=["stimuli", "export", "study3", "--out", str(tmp_path / "stimuli")]).exit_code == 0
    with open(tmp_path / "stimuli" / "manifest.csv", newline="") as fh:
        manifest = list(csv.DictReader(fh))
    with open(tmp_path / "predictions.csv", "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["stimulus_id", "prediction"])
        writer.writerows((m["stimulus_id"], (float(m["true_percent"]) + 2) / 100) for m in manifest)
    imported = runner.invoke(
        args=[
            "import-predictions",
            "study3",
            str(tmp_path / "predictions.csv"),
            "--observer",
            "cnn-2pp",
            "--unit",
            "ratio",
        ]
    )
    assert imported.exit_code == 0 and f"{len(manifest):,} predictions" in imported.output, imported.output
    report = runner.invoke(args=["analyze", "study3", "--format", "json", "--n-boot", "2000"])
    assert report.exit_code == 0, report.output
    data = json.loads(report.stdout)
    assert data["meta"]["counts"]["analysed"] == 1 and data["meta"]["counts"]["trials_used"] == 25
    model = [row for row in data["mlae"] if row["label"] == "cnn-2pp"]
    assert [row["mlae"] for row in model] == pytest.approx([math.log2(2.125)] * 5)
    human = {row["chart_type"]: row["mlae"] for row in data["mlae"] if row["kind"] == "human"}
    test_rows = [r for r in rows if r["practice"] == "False"]
    # The default estimator is the published rows' pooled one (Cleveland & McGill 1984): the midmean of every
    # judgment's log2(|error| + 1/8), i.e. the mean of the middle half of the sorted values.
    for chart_type in range(1, 6):
        logs = sorted(
            math.log2(abs(float(r["response_percent"]) - float(r["true_percent"])) + 0.125)
            for r in test_rows
            if int(r["chart_type"]) == chart_type
        )
        cut = len(logs) // 4
        middle = logs[cut : len(logs) - cut]
        assert human[chart_type] == pytest.approx(sum(middle) / len(middle))
