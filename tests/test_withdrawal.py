"""A participant's withdrawal (issue #26): `flask participants withdraw` by PROLIFIC_PID, participant_code or session
id, its refusals, the tombstone it leaves, exports and analyses without it, every later save refused, the dashboard's
button; the consent hash each session records; and, in headless Chromium, an open tab refused after the withdrawal."""

import csv
import hashlib
import json
import re
import threading
import time

import pytest
from playwright.sync_api import expect

from server import identifiers
from server.db import db
from server.models import ParticipantSession, StudyEvent, SurveyResponse, Trial, current_generation
from server.participation import withdrawal
from tests.conftest import BACKEND
from tests.helpers import DEMOGRAPHICS, PROLIFIC, agree, answer_all, answer_surveys, enter, trial_body
from tests.test_exclusion import fresh, session_of

QUICK_RATIO = ["--keep-outliers", "--n-boot", "50"]


def complete(client, **params) -> ParticipantSession:
    token = enter(client, **params)
    answer_all(client, token)
    assert client.post(f"/api/sessions/{token}/complete").status_code == 200
    return session_of(token)


def rows_of(session_id) -> tuple[int, int]:
    """(trials, survey answers) stored for the session."""
    db.session.rollback()
    count = db.select(db.func.count())
    return (
        db.session.scalar(count.select_from(Trial).where(Trial.session_id == session_id)),
        db.session.scalar(count.select_from(SurveyResponse).where(SurveyResponse.session_id == session_id)),
    )


def events():
    db.session.rollback()
    return db.session.scalars(db.select(StudyEvent).order_by(StudyEvent.id)).all()


def withdraw(runner, participant, *extra, slug="study3"):
    return runner.invoke(args=["participants", "withdraw", slug, participant, *extra])


def test_cli_withdraws_by_pid_code_or_id_and_leaves_a_tombstone(app, runner, client, auth):
    by_pid, by_code, by_id = complete(client, **PROLIFIC), complete(client), complete(client)
    assert rows_of(by_pid.id)[0] > 0
    generation = current_generation(by_pid.study_id)

    result = withdraw(runner, PROLIFIC["PROLIFIC_PID"], "--reason", "asked by email", "--by", "ada")
    assert result.exit_code == 0 and f"participant {by_pid.id} withdrawn" in result.output, result.output
    s = fresh(by_pid.id)
    assert (s.status, s.outcome, s.condition, s.stage) == ("withdrawn", "completed", by_pid.condition, "live")
    assert s.withdrawn_at is not None and s.started_at and s.completed_at
    assert (s.prolific_pid, s.prolific_study_id, s.prolific_session_id, s.user_agent) == (None, None, None, None)
    assert (s.screen_width, s.window_height, s.plan) == (None, None, [])
    assert s.pid_hmac == identifiers.pid_hmac(PROLIFIC["PROLIFIC_PID"])  # still recognised
    assert s.consent_sha256 and s.consent_language == "en"
    assert rows_of(s.id) == (0, 0)
    assert rows_of(by_code.id)[0] > 0 and current_generation(s.study_id) == generation + 1
    [event] = events()
    assert event.action == "participant_withdrawn" and event.researcher_id is not None
    assert event.detail["participant_id"] == s.id and event.detail["reason"] == "asked by email"
    assert (event.detail["via"], event.detail["previous_status"]) == ("cli", "completed")

    code = identifiers.participant_code(None, None, by_code.token)
    assert withdraw(runner, code.upper(), "--reason", "request").exit_code == 0
    assert withdraw(runner, str(by_id.id), "--reason", "request").exit_code == 0
    assert fresh(by_code.id).status == fresh(by_id.id).status == "withdrawn"

    again = withdraw(runner, str(by_id.id), "--reason", "again")
    assert again.exit_code == 0 and "already withdrawn" in again.output
    assert len(events()) == 3 and current_generation(s.study_id) == generation + 3


def test_cli_refuses_bad_input_and_changes_nothing(app, runner, client):
    person = complete(client)
    # A PROLIFIC_PID that is also the other session's id: one string, two participants.
    namesake = complete(client, PROLIFIC_PID=str(person.id))
    cases = [
        ([str(namesake.id)], "--reason"),
        ([str(namesake.id), "--reason", "   "], "a reason is required"),
        (["9999", "--reason", "x"], "has no participant '9999'"),
        (["99999999999999999999", "--reason", "x"], "has no participant"),  # past the id column's range
        (["ffffffffffffffff", "--reason", "x"], "has no participant"),
        ([str(namesake.id), "--reason", "x", "--by", "nobody"], "nobody"),
        ([str(person.id), "--reason", "x"], "more than one participant"),  # by id, and the namesake's PROLIFIC_PID
    ]
    for args, message in cases:
        result = withdraw(runner, *args)
        assert result.exit_code != 0 and message in result.output, (args, result.output)
    result = withdraw(runner, str(namesake.id), "--reason", "x", slug="two4two-demo")
    assert result.exit_code != 0 and "has no participant" in result.output
    assert fresh(person.id).status == fresh(namesake.id).status == "completed" and events() == []
    assert rows_of(person.id)[0] > 0


def test_withdrawn_sessions_leave_exports_and_analyses(app, runner, client, tmp_path):
    people = [complete(client) for _ in range(4)]
    gone = people[1]
    before = json.loads(runner.invoke(args=["analyze", "study3", "--format", "json", *QUICK_RATIO]).stdout)
    assert withdraw(runner, str(gone.id), "--reason", "request").exit_code == 0

    assert runner.invoke(args=["export", "study3", "--out", str(tmp_path)]).exit_code == 0
    for name in ("participants.csv", "trials.csv"):
        with open(tmp_path / name, newline="") as fh:
            ids = {r["participant_id"] for r in csv.DictReader(fh)}
        assert str(gone.id) not in ids and str(people[0].id) in ids, name
    report = json.loads(runner.invoke(args=["analyze", "study3", "--format", "json", *QUICK_RATIO]).stdout)
    assert report["meta"]["counts"]["analysed"] == before["meta"]["counts"]["analysed"] - 1
    assert gone.id not in {r["participant_id"] for r in report["participants"]}


def test_a_withdrawn_session_refuses_every_save_and_a_returning_pid(app, runner, client):
    token = enter(client, **PROLIFIC)
    answer_surveys(client, token)
    state = client.get(f"/api/sessions/{token}").get_json()  # this worker now caches the session
    plan = state["plan"]
    assert client.post(f"/api/sessions/{token}/trials", json=trial_body(plan[0])).status_code == 201
    assert withdraw(runner, str(session_of(token).id), "--reason", "request").exit_code == 0

    api = f"/api/sessions/{token}"
    for method, path, body in [
        ("post", "/trials", trial_body(plan[1])),
        ("post", "/trials", trial_body(plan[0])),  # what was stored before is gone: no "repeat" either
        ("put", "/surveys/consent", {"answers": {"agreed": True}}),
        ("put", "/surveys/demographics", {"answers": DEMOGRAPHICS}),
        ("put", "/environment", {"screen_width": 1, "screen_height": 1, "window_width": 1, "window_height": 1}),
        ("post", "/complete", {}),
        ("post", "/end", {"outcome": "incompatible_device"}),
    ]:
        response = getattr(client, method)(api + path, json=body)
        assert (response.status_code, response.get_json()["error"]) == (410, "session_withdrawn"), path
    state = client.get(api).get_json()
    assert (state["status"], state["accepts_answers"]) == ("withdrawn", False)
    s = session_of(token)
    assert rows_of(s.id) == (0, 0) and s.screen_width is None and s.status == "withdrawn"

    page = client.get(f"/study/study3/s/{token}")
    assert b"You have withdrawn from this study" in page.data
    again = client.get("/study/study3", query_string=PROLIFIC)  # found by the HMAC: not let in again
    assert again.status_code == 200 and b"You have withdrawn from this study" in again.data
    db.session.rollback()
    assert db.session.scalar(db.select(db.func.count()).select_from(ParticipantSession)) == 1


@pytest.mark.skipif(BACKEND != "postgresql", reason="row locks under concurrency: PostgreSQL's")
def test_a_save_racing_the_withdrawal_waits_for_it_and_is_refused(app, client):
    token = enter(client)
    answer_surveys(client, token)
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    s = session_of(token)
    assert withdrawal.withdraw(s.study, s, "request", None, via="cli")  # its transaction still open: the row locked
    answer = {}
    save = threading.Thread(
        target=lambda: answer.update(response=client.post(f"/api/sessions/{token}/trials", json=trial_body(plan[0])))
    )
    save.start()
    waiting = db.text(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
    )
    with db.engine.connect() as watcher:
        while save.is_alive() and not watcher.scalar(waiting):  # the save has read the session as it was
            time.sleep(0.05)
    db.session.commit()
    save.join()
    assert (answer["response"].status_code, answer["response"].get_json()["error"]) == (410, "session_withdrawn")
    assert rows_of(s.id) == (0, 0)


def test_dashboard_withdraws_with_a_reason_and_a_confirmation(app, client, auth):
    s = complete(client)
    page = f"/researcher/studies/study3/participants/{s.id}"
    assert client.post(f"{page}/withdraw", data={"reason": "x", "confirm": "yes"}).status_code == 302  # login first
    auth.login()
    assert b"Delete this participant's answers for good" in client.get(page).data
    response = client.post(f"{page}/withdraw", data={"reason": "asked"}, follow_redirects=True)
    assert b"tick the box" in response.data and fresh(s.id).status == "completed"
    response = client.post(f"{page}/withdraw", data={"reason": " ", "confirm": "yes"}, follow_redirects=True)
    assert b"a reason is required" in response.data and fresh(s.id).status == "completed"
    other = f"/researcher/studies/two4two-demo/participants/{s.id}/withdraw"
    assert client.post(other, data={"reason": "x", "confirm": "yes"}).status_code == 404
    response = client.post(
        f"{page}/withdraw", data={"reason": "asked by email", "confirm": "yes"}, follow_redirects=True
    )
    assert b"their trials and survey answers are deleted" in response.data
    assert b"Withdrawn 20" in response.data and b"/exclude" not in response.data
    assert fresh(s.id).status == "withdrawn" and events()[-1].detail["via"] == "web"
    response = client.post(f"{page}/exclude", data={"reason": "x"}, follow_redirects=True)
    assert b"has withdrawn" in response.data and fresh(s.id).status == "withdrawn"
    study_page = client.get("/researcher/studies/study3/").data.decode()
    assert re.search(r'id="n-withdrawn">Withdrawn: 1\b', study_page)
    assert re.search(r'id="n-started">0<', study_page)
    assert f'participants/{s.id}">' not in client.get("/researcher/studies/study3/participants").data.decode()


def test_consent_records_the_hash_of_the_text_the_page_received(app, client, runner, tmp_path):
    token = enter(client, consent=False)
    page = client.get(f"/study/study3/s/{token}").data.decode()
    config = json.loads(re.search(r'id="studyhive-config">(.*?)</script>', page, re.S).group(1))
    agree(client, token)
    s = session_of(token)
    assert s.consent_sha256 == hashlib.sha256(config["consent_html"].encode()).hexdigest()
    assert s.consent_language == "en"
    agree(client, token)  # a repeat changes nothing
    assert session_of(token).consent_sha256 == s.consent_sha256

    assert runner.invoke(args=["export", "study3", "--out", str(tmp_path)]).exit_code == 0
    with open(tmp_path / "participants.csv", newline="") as fh:
        [row] = list(csv.DictReader(fh))
    assert (row["consent_sha256"], row["consent_language"]) == (s.consent_sha256, "en") and row["consented_at"]
    with open(tmp_path / "codebook.csv", newline="") as fh:
        described = {r["column"] for r in csv.DictReader(fh) if r["file"] == "participants.csv"}
    assert {"consent_sha256", "consent_language", "consented_at"} <= described


def test_an_open_tab_is_refused_after_the_withdrawal(app, client, auth, live_server, page, browser):
    """The researcher withdraws the session from the dashboard in one browser (the form refuses without its
    confirmation) while the participant's tab is open in another: the tab's next answer is refused and says so."""
    token = enter(client)
    answer_surveys(client, token)
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    for item in plan[:5]:  # the practice trials: the page resumes at the first test trial
        assert client.post(f"/api/sessions/{token}/trials", json=trial_body(item)).status_code == 201
    page.goto(f"{live_server}/study/study3/s/{token}")
    page.get_by_role("button", name="Continue").click()  # "Welcome back"
    page.get_by_role("button", name="Start").click()  # "Practice complete"
    expect(page.locator(".sh-ratio-form button")).to_be_enabled()
    researcher = browser.new_context().new_page()
    researcher.goto(f"{live_server}/researcher/login")
    researcher.get_by_label("Username").fill("ada")
    researcher.get_by_label("Password").fill("correct horse")
    researcher.get_by_role("button", name="Log in").click()
    researcher.goto(f"{live_server}/researcher/studies/study3/participants/{session_of(token).id}")
    researcher.get_by_label("Why withdrawn").fill("asked mid-study")
    researcher.get_by_role("button", name="Withdraw").click()  # no confirmation: the form is not sent
    assert researcher.get_by_label("Delete this participant's answers for good").evaluate("e => !e.validity.valid")
    assert session_of(token).status == "started" and rows_of(session_of(token).id) != (0, 0)
    researcher.get_by_label("Delete this participant's answers for good").check()
    researcher.get_by_role("button", name="Withdraw").click()
    expect(researcher.locator("#withdrawal")).to_contain_text("deleted at the participant's request")
    researcher.context.close()
    page.locator("#sh-ratio-input").fill("33")
    page.locator(".sh-ratio-form button").click()
    expect(page.get_by_text("You have withdrawn from this study")).to_be_visible()
    assert rows_of(session_of(token).id) == (0, 0)
    kept = page.evaluate(f"Object.keys(localStorage).filter((key) => key.startsWith('studyhive:{token}:'))")
    assert kept == []  # nothing of the withdrawn answers stays on the device either (no queue, refused, entries)
    page.reload()
    expect(page.get_by_text("You have withdrawn from this study")).to_be_visible()
    assert rows_of(session_of(token).id) == (0, 0)
