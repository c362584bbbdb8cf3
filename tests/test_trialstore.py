"""The participant API's per-process caches (server/participation/trialstore.py): what they keep, when they let go."""

from datetime import timedelta

import pytest
from flask.testing import FlaskClient
from sqlalchemy import bindparam
from sqlalchemy.exc import IntegrityError

from server.db import db, utcnow
from server.models import DataGeneration, ParticipantSession, Study, Trial
from server.participation import session_api, sessions, trialstore
from tests.helpers import PROLIFIC, enter, trial_body


def plan_of(client: FlaskClient, token: str) -> list[dict]:
    return client.get(f"/api/sessions/{token}").get_json()["plan"]


def last_seen(token: str):
    db.session.rollback()  # a fresh read: the API wrote on its own connection
    return db.session.scalars(db.select(ParticipantSession.last_seen_at).filter_by(token=token)).one()


def test_study_edit_reaches_running_sessions_once_the_cached_copy_expires(app, client, monkeypatch):
    token = enter(client, **PROLIFIC)
    assert client.put(f"/api/sessions/{token}/surveys/consent", json={"answers": {"agreed": True}}).status_code == 200
    study = db.session.scalars(db.select(Study).filter_by(slug="study3")).one()
    study.config = {**study.config, "surveys": ["consent"]}  # as `flask studies sync` would write an edit
    db.session.commit()
    monkeypatch.setattr(trialstore, "STUDY_TTL", 0.0)
    answer = client.put(f"/api/sessions/{token}/surveys/demographics", json={"answers": {}})
    assert (answer.status_code, answer.get_json()["error"]) == (404, "unknown_survey")


def test_a_session_entered_after_an_edit_is_served_the_edited_study_at_once(app, client):
    first = enter(client, **PROLIFIC)
    assert "demographics" in client.get(f"/api/sessions/{first}").get_json()["surveys"]  # the study now cached
    study = db.session.scalars(db.select(Study).filter_by(slug="study3")).one()
    study.config = {**study.config, "surveys": ["consent"]}  # as `flask studies sync` would write an edit
    study.version += 1
    db.session.commit()
    second = enter(client)
    assert client.get(f"/api/sessions/{second}").get_json()["surveys"] == {}  # within STUDY_TTL, yet the new one
    assert client.put(f"/api/sessions/{second}/surveys/consent", json={"answers": {"agreed": True}}).status_code == 200
    answer = client.put(f"/api/sessions/{second}/surveys/demographics", json={"answers": {}})
    assert (answer.status_code, answer.get_json()["error"]) == (404, "unknown_survey")


def test_a_save_writes_last_seen_at_only_when_this_worker_has_not_for_a_while(app, client, monkeypatch):
    token = enter(client)
    plan = plan_of(client, token)
    entered = last_seen(token)
    assert client.post(f"/api/sessions/{token}/trials", json=trial_body(plan[0])).status_code == 201
    assert last_seen(token) == entered  # seen at entry a moment ago: the save writes only the trial
    monkeypatch.setattr(trialstore, "LAST_SEEN_RESOLUTION", timedelta(0))
    before = utcnow()
    assert client.post(f"/api/sessions/{token}/trials", json=trial_body(plan[1])).status_code == 201
    seen = last_seen(token)
    assert (seen if seen.tzinfo else seen.replace(tzinfo=before.tzinfo)) >= before


def test_evicted_sessions_are_read_again_and_saves_still_land(app, client, monkeypatch):
    monkeypatch.setattr(trialstore, "SESSIONS_CACHED", 2)
    tokens = [enter(client) for _ in range(3)]
    plans = {token: plan_of(client, token) for token in tokens}
    for item in range(2):
        for token in tokens:
            response = client.post(f"/api/sessions/{token}/trials", json=trial_body(plans[token][item]))
            assert response.status_code == 201
    cached = app.extensions["studyhive.trialstore"].sessions
    assert len(cached) == 2 and set(cached) <= set(tokens)
    assert db.session.scalar(db.select(db.func.count()).select_from(Trial)) == 6


def test_unknown_tokens_are_not_remembered(app, client):
    assert client.post("/api/sessions/no-such-token/trials", json={}).status_code == 404
    assert "no-such-token" not in app.extensions["studyhive.trialstore"].sessions


def test_the_api_pool_is_in_autocommit_and_the_orm_keeps_transactions(app, client):
    # The participant API's connections come from their own pool, in autocommit from the start (server/db.py);
    # a save is committed when it is answered, while the ORM's session still works in transactions.
    def autocommits(connection) -> bool:
        driver = connection.connection.driver_connection
        # psycopg: .autocommit; Python 3.11's sqlite3: no transaction handling at all is isolation_level None
        return driver.autocommit if connection.dialect.name == "postgresql" else driver.isolation_level is None

    with trialstore.autocommit() as connection:
        assert autocommits(connection)
    assert not autocommits(db.session.connection())
    db.session.rollback()
    token = enter(client)
    assert client.post(f"/api/sessions/{token}/trials", json=trial_body(plan_of(client, token)[0])).status_code == 201
    with db.engine.connect() as other:  # another connection sees the trial at once
        assert other.scalar(db.select(db.func.count()).select_from(Trial)) == 1


def test_prepared_statements_answer_as_sqlalchemy_does(app, client):
    # On PostgreSQL the participant API's statements go to psycopg directly (trialstore.PreparedStatement): the same
    # rows, named alike, as SQLAlchemy's execution of the same statement; its own values (OPEN's statuses, a SET of
    # NULL) sent with the caller's. On SQLite both are SQLAlchemy's.
    token = enter(client, **PROLIFIC)
    assert client.put(f"/api/sessions/{token}/surveys/consent", json={"answers": {"agreed": True}}).status_code == 200
    plan = plan_of(client, token)
    for item in plan[:2]:
        assert client.post(f"/api/sessions/{token}/trials", json=trial_body(item)).status_code == 201
    db.session.rollback()
    session = db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()
    reads = [
        (trialstore.SESSION_BY_TOKEN, {"token": token}),
        (trialstore.SESSION_STATUS, {"id": session.id}),
        (trialstore.STANDING, {"id": session.id}),
        (trialstore.STORED_ROWS, {"id": session.id}),
        (trialstore.STUDY, {"id": session.study_id}),
        (sessions.STUDY_AT_ENTRY, {"slug": "study3"}),
        (trialstore.SESSION_STATUS, {"id": -1}),
    ]
    with trialstore.autocommit() as connection:
        for statement, values in reads:
            direct, through_sqlalchemy = (
                trialstore.rows(connection, statement, values),
                connection.execute(statement, values).all(),
            )
            # In the same order but for STANDING's UNION ALL, whose order no clause fixes.
            assert sorted(repr(tuple(row)) for row in direct) == sorted(repr(tuple(row)) for row in through_sqlalchemy)
            assert sorted(map(repr, (row._asdict() for row in direct))) == sorted(
                map(repr, (row._asdict() for row in through_sqlalchemy))
            )
        assert trialstore.scalar(connection, trialstore.SESSION_STATUS, {"id": -1}) is None
        assert trialstore.standing(connection, session.id) == trialstore.Standing(
            "started", None, frozenset({"consent"}), [plan[0]["index"], plan[1]["index"]]
        )
        assert trialstore.standing(connection, -1) == trialstore.Standing(trialstore.PURGED, None, frozenset(), [])
        # A SET flag = 'too_few_rows' and a SET flag = NULL: values of the statement, not the caller's.
        flag = db.select(ParticipantSession.flag).where(ParticipantSession.id == session.id)
        assert trialstore.changed(connection, session_api.FLAG_TOO_FEW_ROWS, {"session_id": session.id}) == 1
        assert connection.scalar(flag) == "too_few_rows"
        assert trialstore.changed(connection, session_api.CLEAR_TOO_FEW_ROWS, {"session_id": session.id}) == 1
        assert connection.scalar(flag) is None
        assert trialstore.changed(connection, session_api.CLEAR_TOO_FEW_ROWS, {"session_id": session.id}) == 0


def test_a_taken_key_raises_sqlalchemys_error_and_the_connection_goes_on(app, client):
    # Callers catch SQLAlchemy's errors (an IntegrityError for a taken key): the direct path raises those, not the
    # driver's own, and the autocommit connection takes the next statement.
    enter(client)
    db.session.rollback()
    study_id = db.session.scalars(db.select(Study.id).filter_by(slug="study3")).one()
    db.session.rollback()
    table = DataGeneration.__table__
    insert = db.insert(table).values(
        study_id=bindparam("study_id"), generation=bindparam("generation"), changed_at=bindparam("now")
    )
    values = {"study_id": study_id, "generation": 7, "now": utcnow()}
    with trialstore.autocommit() as connection:
        connection.execute(db.delete(table).where(table.c.study_id == study_id))  # a sync may have bumped it
        assert trialstore.changed(connection, insert, values) == 1
        prepared = app.extensions["studyhive.trialstore"].statements[insert, connection.dialect.name]
        assert prepared.direct == (connection.dialect.name == "postgresql")
        with pytest.raises(IntegrityError):
            trialstore.changed(connection, insert, values)
        generation = db.select(table.c.generation).where(table.c.study_id == bindparam("study_id"))
        assert trialstore.scalar(connection, generation, {"study_id": study_id}) == 7
