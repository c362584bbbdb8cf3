"""The server keeps the participant API's order (docs/participant-api.md, "Order"): nothing but the environment,
consent and an early end before consent; nothing at all once the session has ended; a refusal is a 409 that names
what is expected. Also the save path's cost: one statement once consent is known (issue #21)."""

import threading

import psycopg
import pytest
from sqlalchemy import event

from server.db import AUTOCOMMIT_BIND, db
from server.models import ParticipantSession, SurveyResponse, Trial
from server.participation import trialstore
from tests.helpers import DEMOGRAPHICS, PROLIFIC, agree, answer_all, enter, trial_body

SCREEN = {"screen_width": 1920, "screen_height": 1080, "window_width": 1400, "window_height": 900}


def api(token, path=""):
    return f"/api/sessions/{token}{path}"


def plan_of(client, token):
    return client.get(api(token)).get_json()["plan"]


def stored(model):
    db.session.rollback()
    return db.session.scalar(db.select(db.func.count()).select_from(model))


def session_of(token) -> ParticipantSession:
    db.session.rollback()
    return db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()


def statements_sent(monkeypatch, action) -> list[str]:
    """The SQL statements `action` sends to the database (its round trips) from this thread (the suite's own
    threads, dropping an earlier test's database, send theirs meanwhile), asserting that it returns true."""
    statements, thread = [], threading.get_ident()
    if db.engines[AUTOCOMMIT_BIND].dialect.name == "postgresql":
        # The participant API's statements go to psycopg directly (trialstore.PreparedStatement), past SQLAlchemy's
        # events: count what psycopg's cursors send, SQLAlchemy's statements included.
        send = psycopg.Cursor.execute

        def counted(cursor, query, *args, **kwargs):
            if threading.get_ident() == thread:
                statements.append(query if isinstance(query, str) else str(query))
            return send(cursor, query, *args, **kwargs)

        monkeypatch.setattr(psycopg.Cursor, "execute", counted)
        try:
            assert action()
        finally:
            monkeypatch.undo()
        return statements

    def listener(conn, cursor, statement, *rest):
        if threading.get_ident() == thread:
            statements.append(statement)

    for engine in db.engines.values():
        event.listen(engine, "before_cursor_execute", listener)
    try:
        assert action()
    finally:
        for engine in db.engines.values():
            event.remove(engine, "before_cursor_execute", listener)
    return statements


def test_before_consent_only_the_environment_consent_and_an_end_are_taken(client):
    token = enter(client, consent=False)
    plan = plan_of(client, token)
    trial = client.post(api(token, "/trials"), json=trial_body(plan[0]))
    assert trial.status_code == 409
    assert trial.get_json()["error"] == "out_of_order" and trial.get_json()["expected"] == "consent"
    survey = client.put(api(token, "/surveys/demographics"), json={"answers": DEMOGRAPHICS})
    assert survey.status_code == 409 and survey.get_json()["error"] == "out_of_order"
    assert client.post(api(token, "/complete")).get_json()["error"] == "out_of_order"
    assert stored(Trial) == 0 and stored(SurveyResponse) == 0
    assert client.put(api(token, "/environment"), json=SCREEN).status_code == 200
    agree(client, token)
    assert client.post(api(token, "/trials"), json=trial_body(plan[0])).status_code == 201
    assert client.put(api(token, "/surveys/demographics"), json={"answers": DEMOGRAPHICS}).status_code == 200


def test_a_participant_who_declined_never_reaches_the_data(client, runner, tmp_path):
    token = enter(client, consent=False)
    plan = plan_of(client, token)
    assert client.post(api(token, "/end"), json={"outcome": "no_consent"}).status_code == 200
    for method, path, body in [
        ("POST", "/trials", trial_body(plan[0])),
        ("PUT", "/surveys/consent", {"answers": {"agreed": True}}),
        ("PUT", "/surveys/demographics", {"answers": DEMOGRAPHICS}),
        ("PUT", "/environment", SCREEN),
        ("POST", "/complete", None),
    ]:
        response = client.open(api(token, path), method=method, json=body)
        assert response.status_code == 409 and response.get_json()["error"] == "session_ended", (path, response.data)
    assert stored(Trial) == 0 and stored(SurveyResponse) == 0
    assert session_of(token).screen_width is None
    state = client.get(api(token)).get_json()
    assert state["status"] == "abandoned" and state["accepts_answers"] is False
    result = runner.invoke(args=["export", "study3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "trials.csv").read_text().count("\n") == 1  # the header only


def test_a_completed_session_changes_no_more(client):
    token = enter(client, **PROLIFIC)
    client.put(api(token, "/environment"), json=SCREEN)
    state = answer_all(client, token)
    first = client.post(api(token, "/complete")).get_json()
    assert first["status"] == "completed"
    tiny = dict.fromkeys(SCREEN, 1)
    refused = client.put(api(token, "/environment"), json=tiny)
    assert refused.status_code == 409 and refused.get_json()["error"] == "session_ended"
    assert (session_of(token).screen_width, session_of(token).window_height) == (1920, 900)
    # A repeat of a stored trial is still acknowledged (a queue resent after a reload); an answer it lacks is not.
    item = state["plan"][0]
    assert client.post(api(token, "/trials"), json=trial_body(item)).status_code == 409
    again = client.post(api(token, "/complete"))
    assert again.status_code == 200 and again.get_json() == first
    assert client.get(api(token)).get_json()["accepts_answers"] is False


def test_a_repeat_after_the_end_is_acknowledged_as_stored(client):
    token = enter(client)
    plan = plan_of(client, token)
    body = trial_body(plan[0])
    assert client.post(api(token, "/trials"), json=body).status_code == 201
    assert client.post(api(token, "/end"), json={"outcome": "incompatible_device"}).status_code == 200
    repeat = client.post(api(token, "/trials"), json=body)
    assert repeat.status_code == 200 and repeat.get_json()["duplicate"] is True
    assert client.post(api(token, "/trials"), json=trial_body(plan[1])).get_json()["error"] == "session_ended"
    assert stored(Trial) == 1


def test_an_excluded_session_takes_nothing_until_reinstated(client, runner):
    token = enter(client)
    plan = plan_of(client, token)
    session_id = session_of(token).id
    result = runner.invoke(args=["participants", "exclude", "study3", str(session_id), "--reason", "bot answers"])
    assert result.exit_code == 0, result.output
    refused = client.post(api(token, "/trials"), json=trial_body(plan[0]))
    assert refused.status_code == 409 and refused.get_json()["error"] == "session_ended"
    assert client.post(api(token, "/complete")).get_json()["error"] == "session_ended"
    assert stored(Trial) == 0
    result = runner.invoke(args=["participants", "reinstate", "study3", str(session_id), "--reason", "a mistake"])
    assert result.exit_code == 0, result.output
    assert client.post(api(token, "/trials"), json=trial_body(plan[0])).status_code == 201


def test_a_session_prolific_timed_out_still_takes_answers_and_completes(client):
    """Prolific's sync marks a returned or timed-out submission abandoned (no outcome) to free its slot; a
    participant who carries on loses nothing."""
    token = enter(client, **PROLIFIC)
    session = session_of(token)
    session.status = "abandoned"
    db.session.commit()
    answer_all(client, token)
    assert client.post(api(token, "/complete")).get_json()["status"] == "completed"


def test_a_trial_id_reused_for_another_trial_is_named_as_such(client):
    token = enter(client)
    plan = plan_of(client, token)
    assert client.post(api(token, "/trials"), json=trial_body(plan[0], trial_id="same-id-123")).status_code == 201
    reused = client.post(api(token, "/trials"), json=trial_body(plan[2], trial_id="same-id-123"))
    assert reused.status_code == 409
    assert reused.get_json()["error"] == "trial_id_reused" and reused.get_json()["stored_index"] == 0
    assert client.get(api(token)).get_json()["stored_indexes"] == [0]
    taken = client.post(api(token, "/trials"), json=trial_body(plan[0], trial_id="other-id-456"))
    assert taken.status_code == 409 and taken.get_json()["error"] == "trial_index_taken"


@pytest.mark.parametrize(
    "client_time",
    [
        "0001-01-01T00:00:00+14:00",
        "9999-12-31T23:59:59-14:00",
        "2026-13-01",
        "0001-06-01T00:00:00Z",
        "9999-01-01T00:00:00Z",
        "2026-11-22T12:00:00\x00",
        20261122,
        "²⁰²⁶-11-22",
    ],
)
def test_a_client_time_that_could_not_be_stored_and_read_back_is_refused(client, runner, tmp_path, client_time):
    token = enter(client)
    item = plan_of(client, token)[0]
    response = client.post(api(token, "/trials"), json=trial_body(item, client_time=client_time))
    assert response.status_code == 400 and response.get_json()["field"] == "client_time"
    assert stored(Trial) == 0


def test_any_wrong_device_clock_within_storable_years_is_kept_and_exported(client, runner, tmp_path):
    token = enter(client)
    plan = plan_of(client, token)
    for item, client_time in zip(plan, ["0002-01-01T14:00:00+14:00", "1970-01-01T00:00:00", "9998-12-31T12:00:00Z"]):
        assert client.post(api(token, "/trials"), json=trial_body(item, client_time=client_time)).status_code == 201
    result = runner.invoke(args=["export", "study3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "trials.csv").read_text()
    assert "0002-01-01T00:00:00" in text and "1970-01-01T00:00:00" in text and "9998-12-31T12:00:00" in text


@pytest.mark.parametrize("trial_id", ["abcdefgh\x00", "abc\ndefgh", "ünïcödé-id", "short", "x" * 65, 12345678])
def test_a_trial_id_must_be_printable_ascii(client, trial_id):
    token = enter(client)
    response = client.post(api(token, "/trials"), json=trial_body(plan_of(client, token)[0], trial_id=trial_id))
    assert response.status_code == 400 and response.get_json()["field"] == "trial_id"
    assert stored(Trial) == 0


def test_a_save_after_consent_is_one_statement(app, client, monkeypatch):
    """Consent is cached with the session facts (it only goes one way) and the end is checked inside the INSERT,
    so a warm save costs one round trip: the guarantee adds no query to the hot path."""
    monkeypatch.setattr(trialstore, "STUDY_TTL", float("inf"))  # the study's copy is read again every 5 s, by design
    token = enter(client)
    plan = plan_of(client, token)
    assert client.post(api(token, "/trials"), json=trial_body(plan[0])).status_code == 201  # warms the caches
    with trialstore.autocommit() as connection:  # a worker reads each stimulus once, whoever shows it first
        trialstore.stimulus(connection, session_of(token).study_id, plan[1]["stimulus_id"])
    statements = statements_sent(
        monkeypatch, lambda: client.post(api(token, "/trials"), json=trial_body(plan[1])).status_code == 201
    )
    assert len(statements) == 1 and statements[0].lstrip().upper().startswith("INSERT"), statements


def test_consent_given_through_another_worker_is_seen(app, client):
    """A worker that cached the session before consent reads consent again until it sees it."""
    token = enter(client, consent=False)
    plan = plan_of(client, token)
    assert client.post(api(token, "/trials"), json=trial_body(plan[0])).status_code == 409  # cached: no consent
    session = session_of(token)
    db.session.add(SurveyResponse(session_id=session.id, name="consent", answers={"agreed": True}))
    db.session.commit()  # as another worker would store it
    assert client.post(api(token, "/trials"), json=trial_body(plan[0])).status_code == 201


def test_a_new_participants_entry_is_two_statements_and_the_page_one(app, client, monkeypatch):
    """A new Prolific participant's entry reads the study and inserts the session, which finds a PROLIFIC_PID that
    has one already (no look-up before); the worker keeps the new session's facts, so its page reads only the
    status. A returning PROLIFIC_PID still resumes its session."""
    first = enter(client, consent=False, **PROLIFIC)  # the participant-code key, read once per worker
    assert client.get(f"/study/study3/s/{first}").status_code == 200  # the page the worker keeps, rendered once
    link = {**PROLIFIC, "PROLIFIC_PID": "60e2f1c8a9b3d4e5f6a7b8c9"}
    entered = []

    def entry():
        response = client.get("/study/study3", query_string=link)
        entered.append(response.headers.get("Location", ""))
        return response.status_code == 303

    statements = statements_sent(monkeypatch, entry)
    assert len(statements) == 2, statements
    assert statements[1].lstrip().upper().startswith("INSERT"), statements
    token = entered[0].rsplit("/", 1)[1]
    page = statements_sent(monkeypatch, lambda: client.get(entered[0]).status_code == 200)
    assert len(page) == 1 and "status" in page[0], page
    assert client.get("/study/study3", query_string=link).headers["Location"].endswith(token)  # resumes
    assert stored(ParticipantSession) == 2
