"""server/web/hot_path.py: a save that stores is answered before Flask's request handling, exactly as its view would
answer it; everything else is the view's. The refusal tests (test_participant_refusals.py, test_bad_input.py) run
through the same WSGI stack, so every refusal they check is the view's answer after the hot path handed it on."""

import io
import json

import pytest
from werkzeug.test import Client

from server.db import AUTOCOMMIT_BIND, db
from server.models import ParticipantSession, Trial
from server.web.hot_path import HotSaves
from tests.conftest import BACKEND
from tests.helpers import PROLIFIC, enter, trial_body


@pytest.fixture
def hooks(app):
    """How many requests reached Flask's request handling (its before-request hooks)."""
    seen = []
    app.before_request(lambda: seen.append(1))
    return seen


def started(client):
    token = enter(client, "study3", **PROLIFIC)
    return token, client.get(f"/api/sessions/{token}").get_json()["plan"]


def stored(token):
    session_id = db.session.scalar(db.select(ParticipantSession.id).filter_by(token=token))
    return db.session.scalar(db.select(db.func.count()).select_from(Trial).filter_by(session_id=session_id))


def test_a_stored_save_skips_flask_and_answers_as_the_view_does(app, client, hooks):
    token, plan = started(client)
    assert isinstance(app.wsgi_app, HotSaves)
    flask_only = Client(app.wsgi_app.wsgi_app)  # the same app without the hot path: the view answers
    before = len(hooks)
    fast = client.post(f"/api/sessions/{token}/trials", json=trial_body(plan[0]))
    assert len(hooks) == before  # Flask never saw it
    viewed = flask_only.post(f"/api/sessions/{token}/trials", json=trial_body(plan[1]))
    assert len(hooks) == before + 1
    assert (fast.status, viewed.status) == ("201 CREATED", "201 CREATED")
    assert fast.data == b'{"stored":true,"trial_index":0}\n'
    assert viewed.data == b'{"stored":true,"trial_index":1}\n'
    assert sorted(fast.headers.items()) == sorted(viewed.headers.items())
    assert stored(token) == 2


def test_a_repeat_a_refusal_and_a_body_without_length_are_the_views(app, client, hooks):
    token, plan = started(client)
    body = trial_body(plan[0])
    assert client.post(f"/api/sessions/{token}/trials", json=body).status_code == 201
    before = len(hooks)
    repeat = client.post(f"/api/sessions/{token}/trials", json=body)
    assert (repeat.status_code, repeat.get_json()["duplicate"]) == (200, True)
    refused = client.post(f"/api/sessions/{token}/trials", json={**trial_body(plan[1]), "response": {"percent": 101}})
    assert (refused.status_code, refused.get_json()["error"]) == (422, "invalid_response")
    unknown = client.post("/api/sessions/no-such-token/trials", json=trial_body(plan[1]))
    assert (unknown.status_code, unknown.get_json()["error"]) == (404, "unknown_session")
    wrong_type = client.post(f"/api/sessions/{token}/trials", data=b"{}", content_type="text/plain")
    assert wrong_type.status_code == 415
    # Chunked, as granian hands it on (no Content-Length, the server ends the stream): the view reads it within the
    # limit (api.body_bytes) and stores it.
    chunked = client.post(
        f"/api/sessions/{token}/trials",
        input_stream=io.BytesIO(json.dumps(trial_body(plan[1])).encode()),
        headers={"Transfer-Encoding": "chunked", "Content-Type": "application/json"},
        environ_overrides={"wsgi.input_terminated": True, "CONTENT_LENGTH": ""},
    )
    assert chunked.status_code == 201
    assert len(hooks) == before + 5  # each went to Flask
    assert stored(token) == 2


@pytest.mark.skipif(
    BACKEND != "postgresql", reason="psycopg's prepared statements (server/participation/trialstore.py)"
)
def test_a_connection_postgresql_dropped_leaves_the_pool(app, client):
    """The saves' INSERT goes to psycopg directly. A pooled connection whose server process is gone must leave the
    pool, as it would have through SQLAlchemy: the hot path's save fails on it, and the view, which answers what
    the hot path did not store, gets a new connection. Left in the pool, the view would get the dead one back (the
    only one) and answer 500."""
    token, plan = started(client)
    first = trial_body(plan[0])
    assert client.post(f"/api/sessions/{token}/trials", json=first).status_code == 201
    engine = db.engines[AUTOCOMMIT_BIND]

    def backend():
        with engine.connect() as connection:  # the pool's one connection: the saves ran one at a time
            return connection.exec_driver_sql("SELECT pg_backend_pid()").scalar()

    dropped = backend()
    with db.engine.connect() as admin:
        assert admin.exec_driver_sql(f"SELECT pg_terminate_backend({dropped})").scalar()
    app.config["PROPAGATE_EXCEPTIONS"] = False
    # A repeat: everything it needs is cached, so the INSERT is the first statement on the dropped connection.
    repeat = client.post(f"/api/sessions/{token}/trials", json=first)
    assert (repeat.status_code, repeat.get_json().get("duplicate")) == (200, True)
    assert backend() != dropped
    assert client.post(f"/api/sessions/{token}/trials", json=trial_body(plan[1])).status_code == 201
    assert stored(token) == 2
