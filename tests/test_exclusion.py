"""Excluding a participant's session: `flask participants exclude|reinstate`, the participant page's buttons, the
audit log, participants.csv, and every analysis leaving excluded sessions out with how many and why — and, in
headless Chromium, dashboard button → export → analyze count."""

import csv
import io
import json
import random
import re

import pytest
from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession, StudyEvent
from server.researchers.exclusion import ExclusionError, exclude
from server.studies.definitions import get_study
from tests.helpers import answer_all, answer_surveys, enter, rate_all

# --keep-outliers: with five constant responders, leaving one out can move the 3×IQR fence and drop another
# participant (random plans), which would blur the one-less count these tests are about.
QUICK_RATIO = ["--keep-outliers", "--n-boot", "50"]


def complete(client, slug="study3", percent=50.0):
    token = enter(client, slug=slug)
    answer_all(client, token, percent_for=lambda item: percent)
    assert client.post(f"/api/sessions/{token}/complete").status_code == 200
    return session_of(token)


def session_of(token) -> ParticipantSession:
    db.session.rollback()
    return db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()


def fresh(session_id) -> ParticipantSession:
    db.session.rollback()
    return db.session.get(ParticipantSession, session_id)


def events():
    db.session.rollback()
    return db.session.scalars(db.select(StudyEvent).order_by(StudyEvent.id)).all()


def participants_csv(text: str) -> dict[str, dict[str, str]]:
    return {r["participant_id"]: r for r in csv.DictReader(io.StringIO(text))}


def test_cli_excludes_and_reinstates_with_a_reason_and_logs_who(app, runner, client, auth):
    s = complete(client)
    result = runner.invoke(
        args=["participants", "exclude", "study3", str(s.id), "--reason", "failed both attention checks", "--by", "ada"]
    )
    assert result.exit_code == 0, result.output
    assert "excluded (was completed)" in result.output
    s = fresh(s.id)
    assert (s.status, s.exclusion_reason, s.status_before_exclusion) == (
        "excluded",
        "failed both attention checks",
        "completed",
    )
    assert s.excluded_at is not None
    [event] = events()
    assert event.action == "participant_excluded" and event.researcher_id is not None
    assert event.detail["reason"] == "failed both attention checks" and event.detail["participant_id"] == s.id
    assert event.detail["via"] == "cli"

    again = runner.invoke(args=["participants", "exclude", "study3", str(s.id), "--reason", "again"])
    assert again.exit_code != 0 and "already excluded" in again.output
    assert len(events()) == 1 and fresh(s.id).exclusion_reason == "failed both attention checks"

    result = runner.invoke(args=["participants", "reinstate", "study3", str(s.id), "--reason", "checked by hand"])
    assert result.exit_code == 0, result.output
    s = fresh(s.id)
    assert (s.status, s.exclusion_reason, s.status_before_exclusion, s.excluded_at) == ("completed", None, None, None)
    assert [e.action for e in events()] == ["participant_excluded", "participant_reinstated"]
    assert events()[1].detail["excluded_for"] == "failed both attention checks"
    not_excluded = runner.invoke(args=["participants", "reinstate", "study3", str(s.id), "--reason", "x"])
    assert not_excluded.exit_code != 0 and "is not excluded" in not_excluded.output


def test_cli_refuses_bad_input_and_writes_nothing(app, runner, client):
    s = complete(client)
    cases = [
        (["participants", "exclude", "study3", str(s.id)], "--reason"),
        (["participants", "exclude", "study3", str(s.id), "--reason", "   "], "a reason is required"),
        (["participants", "exclude", "nope", str(s.id), "--reason", "x"], "no study named 'nope'"),
        (["participants", "exclude", "study3", "9999", "--reason", "x"], "has no participant 9999"),
        (["participants", "exclude", "two4two-demo", str(s.id), "--reason", "x"], f"has no participant {s.id}"),
        (["participants", "exclude", "study3", str(s.id), "--reason", "x", "--by", "nobody"], "nobody"),
    ]
    for args, message in cases:
        result = runner.invoke(args=args)
        assert result.exit_code != 0 and message in result.output, (args, result.output)
    assert fresh(s.id).status == "completed" and events() == []


def test_dashboard_buttons_need_a_reason_and_respect_access(app, client, auth):
    s = complete(client)
    page = f"/researcher/studies/study3/participants/{s.id}"
    assert client.post(f"{page}/exclude", data={"reason": "x"}).status_code == 302  # login first
    auth.login()
    assert b'name="reason" required' in client.get(page).data
    response = client.post(f"{page}/exclude", data={"reason": ""}, follow_redirects=True)
    assert b"a reason is required" in response.data and fresh(s.id).status == "completed"
    response = client.post(
        f"{page}/exclude", data={"reason": "duplicate person (same IP and answers as #1)"}, follow_redirects=True
    )
    assert response.status_code == 200 and b"duplicate person" in response.data
    assert fresh(s.id).status == "excluded"
    assert events()[-1].detail["via"] == "web" and events()[-1].researcher_id is not None
    assert b"Reinstate" in response.data
    assert (
        client.post(f"/researcher/studies/two4two-demo/participants/{s.id}/exclude", data={"reason": "x"}).status_code
        == 404
    )  # the session is not that study's
    assert client.post(f"{page}/reinstate", data={"reason": "mistake"}).status_code == 303
    assert fresh(s.id).status == "completed"


def test_export_keeps_the_row_with_status_and_reason(app, client, runner, tmp_path):
    kept, excluded = complete(client), complete(client)
    runner.invoke(args=["participants", "exclude", "study3", str(excluded.id), "--reason", "broken session"])
    assert runner.invoke(args=["export", "study3", "--out", str(tmp_path)]).exit_code == 0
    rows = participants_csv((tmp_path / "participants.csv").read_text())
    assert rows[str(excluded.id)]["status"] == "excluded"
    assert rows[str(excluded.id)]["exclusion_reason"] == "broken session"
    assert rows[str(excluded.id)]["excluded_at"]
    assert rows[str(kept.id)]["exclusion_reason"] == ""
    codebook = (tmp_path / "codebook.csv").read_text()
    assert "exclusion_reason" in codebook and "excluded_at" in codebook
    with open(tmp_path / "trials.csv", newline="") as fh:  # the excluded session's trials stay in the export
        assert str(excluded.id) in {r["participant_id"] for r in csv.DictReader(fh)}


def test_ratio_analysis_leaves_excluded_sessions_out_and_says_why(app, client, runner):
    people = [complete(client, percent=p) for p in (40.0, 45.0, 50.0, 55.0, 60.0)]
    before = json.loads(runner.invoke(args=["analyze", "study3", "--format", "json", *QUICK_RATIO]).stdout)
    assert before["meta"]["counts"]["session_excluded"] == 0
    runner.invoke(args=["participants", "exclude", "study3", str(people[0].id), "--reason", "failed attention"])
    result = runner.invoke(args=["analyze", "study3", "--format", "json", *QUICK_RATIO])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["meta"]["counts"]["session_excluded"] == 1
    assert report["meta"]["counts"]["analysed"] == before["meta"]["counts"]["analysed"] - 1
    assert report["meta"]["exclusion_reasons"] == {"failed attention": 1}
    row = next(r for r in report["participants"] if r["participant_id"] == people[0].id)
    assert row["analysed"] is False and row["reason"] == "session marked excluded: failed attention"
    text = runner.invoke(args=["analyze", "study3", *QUICK_RATIO]).output
    assert re.search(r"session marked excluded\s+1", text)


def test_rating_analysis_leaves_excluded_sessions_out_and_says_why(app, client, runner):
    ids = []
    for rating in (2, 4, 6, 7):
        token = enter(client, slug="two4two-demo")
        answer_surveys(client, token)
        rate_all(client, token, rating)
        assert client.post(f"/api/sessions/{token}/complete").status_code == 200
        ids.append(session_of(token).id)
    for i, reason in ((ids[0], "straight-lined every statement"), (ids[1], "straight-lined every statement")):
        excluded = runner.invoke(args=["participants", "exclude", "two4two-demo", str(i), "--reason", reason])
        assert excluded.exit_code == 0
    result = runner.invoke(args=["analyze", "two4two-demo", "--format", "json", "--n-boot", "50"])
    assert result.exit_code == 0, result.output
    meta = json.loads(result.stdout)["meta"]
    assert meta["n_participants"] == 2 and meta["recruited"] == 4
    assert meta["session_excluded"] == 2
    assert meta["exclusion_reasons"] == {"straight-lined every statement": 2}
    text = runner.invoke(args=["analyze", "two4two-demo", "--n-boot", "50"]).output
    assert "2 session(s) excluded by the researchers, not analysed: straight-lined every statement (2)" in text


def test_exclude_in_the_browser_then_export_and_analyze(app, client, auth, runner, live_server, page, tmp_path):
    people = [complete(client, percent=p) for p in (40.0, 45.0, 50.0, 55.0, 60.0)]
    target = people[2]
    page.goto(f"{live_server}/researcher/studies/study3/participants/{target.id}")
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill("correct horse")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name=f"Participant {target.id}")).to_be_visible()
    page.get_by_role("button", name="Exclude").click()  # the browser refuses an empty reason: nothing is sent
    assert fresh(target.id).status == "completed"
    page.get_by_label("Reason").fill("same person as another session")
    page.get_by_role("button", name="Exclude").click()
    expect(page.locator("#exclusion-reason")).to_have_text("same person as another session")
    expect(page.get_by_role("button", name="Reinstate")).to_be_visible()

    page.goto(f"{live_server}/researcher/studies/study3/")
    expect(page.locator("#events")).to_contain_text("participant_excluded")
    expect(page.locator("#events")).to_contain_text("same person as another session")
    with page.expect_download() as info:
        page.get_by_role("link", name="participants.csv").click()
    path = tmp_path / "participants.csv"
    info.value.save_as(path)
    row = participants_csv(path.read_text())[str(target.id)]
    assert (row["status"], row["exclusion_reason"]) == ("excluded", "same person as another session")

    result = runner.invoke(args=["analyze", "study3", "--format", "json", *QUICK_RATIO])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["meta"]["counts"]["session_excluded"] == 1
    assert report["meta"]["exclusion_reasons"] == {"same person as another session": 1}


def test_hive_analysis_leaves_excluded_sessions_out_and_says_why(app, client, runner):
    from tests.test_hive import answer_everything

    rng = random.Random(3)
    tokens = [
        answer_everything(
            client,
            "hive-distinction",
            lambda item: {"choice": rng.choice(item["presented"]["options"]), "confidence": 3},
        )
        for _ in range(4)
    ]
    excluded = session_of(tokens[0]).id
    assert (
        runner.invoke(
            args=[
                "participants",
                "exclude",
                "hive-distinction",
                str(excluded),
                "--reason",
                "a colleague testing the link",
            ]
        ).exit_code
        == 0
    )
    data = json.loads(runner.invoke(args=["analyze", "hive-distinction", "--format", "json"]).output)
    assert {r["condition"]: r for r in data["accuracy"]}["all"]["n"] == 3
    assert data["meta"]["session_excluded"] == 1 and data["meta"]["n_participants"] == 3
    assert data["meta"]["exclusion_reasons"] == {"a colleague testing the link": 1}
    assert excluded not in {r["participant_id"] for r in data["per_participant"]}
    text = runner.invoke(args=["analyze", "hive-distinction"]).output
    assert "1 session(s) excluded by the researchers, not analysed: a colleague testing the link (1)" in text


def test_an_exclusion_sees_a_withdrawal_committed_after_the_row_was_loaded(app, client):
    session = complete(client)
    with db.engine.begin() as other:  # another request withdraws meanwhile (participation/withdrawal.py)
        other.execute(
            db.update(ParticipantSession).where(ParticipantSession.id == session.id).values(status="withdrawn")
        )
    with pytest.raises(ExclusionError, match="has withdrawn"):
        exclude(get_study("study3"), session, "a duplicate", None, "cli")
    assert fresh(session.id).status == "withdrawn"
