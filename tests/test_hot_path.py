"""server/web/hot_path.py: a participant API request whose operation succeeds (a save that stores, the state, the
screen size, a survey, the completion) is answered before Flask's request handling, exactly as its view would answer
it; everything else is the view's. The refusal tests (test_participant_refusals.py, test_bad_input.py) run
through the same WSGI stack, so every refusal they check is the view's answer after the hot path handed it on."""

import gzip
import io
import json

import pytest
from werkzeug.test import Client

from server.db import db
from server.exceptions import ConfigError
from server.models import ParticipantSession, Trial
from server.participation import sessions, trialstore
from server.web.hot_path import HotPath
from tests.conftest import BACKEND
from tests.helpers import DEMOGRAPHICS, PROLIFIC, enter, trial_body


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
    assert isinstance(app.wsgi_app, HotPath)
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


def flow(client, token, plan):
    """A participant's API requests after the entry and the page, in order, with what each answers."""
    api = f"/api/sessions/{token}"
    yield "state", client.get(api, headers={"Accept-Encoding": "gzip"})
    yield "state, no gzip", client.get(api)
    screen = {"screen_width": 1920, "screen_height": 1080, "window_width": 1536, "window_height": 864}
    yield "screen size", client.put(f"{api}/environment", json=screen)
    yield "consent", client.put(f"{api}/surveys/consent", json={"answers": {"agreed": True}})
    yield "demographics", client.put(f"{api}/surveys/demographics", json={"answers": DEMOGRAPHICS})
    for item in plan:
        yield "save", client.post(f"{api}/trials", json=trial_body(item))
    yield "completion", client.post(f"{api}/complete")


def test_every_successful_api_request_skips_flask_and_answers_as_the_view_does(app, client, hooks):
    """Two participants take study3, one through the hot path and one through Flask alone: every answer is the same
    (status, headers, body, but for the participant's own token), and Flask saw none of the first's."""
    flask_only = Client(app.wsgi_app.wsgi_app)
    hot_token = enter(client, "study3", consent=False, PROLIFIC_PID="a" * 24)
    viewed_token = enter(client, "study3", consent=False, PROLIFIC_PID="b" * 24)
    before = len(hooks)
    hot = list(flow(client, hot_token, client.get(f"/api/sessions/{hot_token}").get_json()["plan"]))
    assert len(hooks) == before  # Flask saw none of them
    viewed = list(flow(flask_only, viewed_token, client.get(f"/api/sessions/{viewed_token}").get_json()["plan"]))
    assert len(hooks) == before + len(viewed)

    def seen(response, token):
        body = gzip.decompress(response.data) if response.headers.get("Content-Encoding") == "gzip" else response.data
        return json.loads(body.decode().replace(token, "TOKEN"))

    gzipped = [name for name, response in hot if response.headers.get("Content-Encoding") == "gzip"]
    assert gzipped == ["state"]  # the state is the one answer long enough, and only when gzip is accepted
    for (name, fast), (_, view) in zip(hot, viewed, strict=True):
        assert (name, fast.status) == (name, view.status)
        assert fast.status_code in (200, 201)
        fast_body, view_body = seen(fast, hot_token), seen(view, viewed_token)
        if name.startswith("state"):  # each session has a plan of its own
            fast_body.pop("plan"), view_body.pop("plan")
        else:
            assert fast.data.replace(hot_token.encode(), b"TOKEN") == view.data.replace(viewed_token.encode(), b"TOKEN")
        assert fast_body == view_body
        differs = {"Content-Length"} if name.startswith("state") else set()
        assert {(k, v) for k, v in fast.headers.items() if k not in differs} == {
            (k, v) for k, v in view.headers.items() if k not in differs
        }
    # The same state read both ways is the same bytes, compressed or not.
    for headers in ({"Accept-Encoding": "gzip"}, {}):
        fast = client.get(f"/api/sessions/{hot_token}", headers=headers)
        view = flask_only.get(f"/api/sessions/{hot_token}", headers=headers)
        assert (fast.data, sorted(fast.headers.items())) == (view.data, sorted(view.headers.items()))
    assert stored(hot_token) == stored(viewed_token) == len(hot) - 6


def test_refused_and_unmatched_api_requests_are_the_views(app, client, hooks):
    token = enter(client, "study3", consent=False, **PROLIFIC)
    api = f"/api/sessions/{token}"
    before = len(hooks)
    demographics = client.put(f"{api}/surveys/demographics", json={"answers": DEMOGRAPHICS})
    assert (demographics.status_code, demographics.get_json()["error"]) == (409, "out_of_order")
    unknown_survey = client.put(f"{api}/surveys/nosuch", json={"answers": {}})
    assert (unknown_survey.status_code, unknown_survey.get_json()["error"]) == (404, "unknown_survey")
    early = client.post(f"{api}/complete")
    assert early.status_code == 409
    bad_screen = client.put(f"{api}/environment", json={"screen_width": "wide"})
    assert bad_screen.status_code == 400
    unknown = client.get("/api/sessions/no-such-token")
    assert (unknown.status_code, unknown.get_json()["error"]) == (404, "unknown_session")
    ranged = client.get(api, headers={"Range": "bytes=0-10"})  # its compression is the view's to decide
    head = client.head(api)
    assert (ranged.status_code, head.status_code) == (200, 200)
    assert len(hooks) == before + 7  # each went to Flask
    assert client.get(api).get_json()["surveys_done"] == []


def test_a_prolific_entry_skips_flask_and_answers_as_the_view_does(app, client, hooks):
    """A Prolific link's entry that sends the participant to their page is answered before Flask exactly as the view
    answers it (a new session, and the same session again for the same PROLIFIC_PID); a link without one, a query
    Werkzeug would decode otherwise, a cookie and an entry that shows a message are the view's."""
    flask_only = Client(app.wsgi_app.wsgi_app)
    link = {**PROLIFIC, "PROLIFIC_PID": "a" * 24}
    before = len(hooks)
    fast = client.get("/study/study3", query_string=link, headers={"User-Agent": "Firefox/140"})
    assert len(hooks) == before  # Flask never saw it
    view = flask_only.get("/study/study3", query_string={**link, "PROLIFIC_PID": "b" * 24})
    assert len(hooks) == before + 1
    assert fast.status == view.status == "303 SEE OTHER"
    tokens = [response.headers["Location"].rsplit("/", 1)[1] for response in (fast, view)]
    assert fast.data.replace(tokens[0].encode(), b"T") == view.data.replace(tokens[1].encode(), b"T")
    assert {(k, v.replace(tokens[0], "T")) for k, v in fast.headers.items()} == {
        (k, v.replace(tokens[1], "T")) for k, v in view.headers.items()
    }
    again = client.get("/study/study3", query_string=link)
    assert again.headers["Location"] == fast.headers["Location"] and len(hooks) == before + 1
    session = db.session.scalars(db.select(ParticipantSession).filter_by(token=tokens[0])).one()
    assert (session.prolific_pid, session.user_agent, session.platform) == ("a" * 24, "Firefox/140", "prolific")
    for request, status in [
        (dict(), 303),  # no PROLIFIC_PID: a direct link, a new session each time
        (dict(query_string="PROLIFIC_PID=%61" + "a" * 23), 303),  # percent-encoded: the same participant
        (dict(query_string={**link, "PROLIFIC_PID": "not valid!"}), 400),
        (dict(path="/study/nosuch", query_string=link), 404),
        ("cookie", 303),
    ]:
        before = len(hooks)
        if request == "cookie":
            client.set_cookie("other", "1")
            assert client.get("/study/study3", query_string=link).status_code == status
            client.delete_cookie("other")
        else:
            assert client.get(**{"path": "/study/study3", **request}).status_code == status
        assert len(hooks) == before + 1, request  # it went to Flask
    db.session.execute(db.update(ParticipantSession).filter_by(token=tokens[0]).values(status="completed"))
    db.session.commit()
    before = len(hooks)
    completed = client.get("/study/study3", query_string=link)
    assert completed.status_code == 200 and b"Already completed" in completed.data and len(hooks) == before + 1
    assert db.session.scalar(db.select(db.func.count()).select_from(ParticipantSession)) == 3


def test_an_entry_whose_study_cannot_start_is_the_views_and_logged_once(app, client, hooks, monkeypatch, caplog):
    def cannot(*args, **kwargs):
        raise ConfigError("no sketches imported yet")

    monkeypatch.setattr(sessions, "find_or_create", cannot)
    before = len(hooks)
    response = client.get("/study/study3", query_string=PROLIFIC)
    assert response.status_code == 503 and len(hooks) == before + 1
    warned = [r.getMessage() for r in caplog.records if "cannot start a session" in r.getMessage()]
    assert warned == ["study study3 cannot start a session: no sketches imported yet"]


def test_the_kept_study_page_skips_flask_and_answers_as_the_view_does(app, client, hooks):
    """The study page of a participant's session is the worker's kept page, answered before Flask exactly as the view
    answers it (status, headers, body but for the token), compressed or not; the first page a worker renders, a
    request with a cookie, a Range, and a session that ended are the view's."""
    flask_only = Client(app.wsgi_app.wsgi_app)
    tokens = [enter(client, "study3", consent=False, PROLIFIC_PID=pid * 24) for pid in "abc"]
    pages = [f"/study/study3/s/{token}" for token in tokens]
    before = len(hooks)
    first = client.get(pages[0])  # renders the page this worker keeps
    assert first.status_code == 200 and len(hooks) == before + 1
    for headers in ({"Accept-Encoding": "gzip"}, {}):
        before = len(hooks)
        fast = client.get(pages[1], headers=headers)
        assert len(hooks) == before  # Flask never saw it
        view = flask_only.get(pages[2], headers=headers)
        assert len(hooks) == before + 1
        assert fast.status_code == view.status_code == 200
        assert fast.headers.get("Content-Encoding") == view.headers.get("Content-Encoding")
        differs = {"Content-Length"} if headers else set()  # each token compresses in its own way
        assert {(k, v) for k, v in fast.headers.items() if k not in differs} == {
            (k, v) for k, v in view.headers.items() if k not in differs
        }
        assert fast.headers["Vary"] == "Accept-Encoding, Cookie"
        page = gzip.decompress(fast.data) if headers else fast.data
        assert tokens[1] in page.decode() and tokens[2] not in page.decode()
        assert page.replace(tokens[1].encode(), b"T") == (gzip.decompress(view.data) if headers else view.data).replace(
            tokens[2].encode(), b"T"
        )
    for request, status in [
        ("cookie", 200),
        (dict(headers={"Range": "bytes=0-10"}), 200),
        (dict(path=pages[1].replace("study3", "sketch-demo")), 404),
        (dict(path=pages[1] + "x"), 404),
    ]:
        before = len(hooks)
        if request == "cookie":
            client.set_cookie("other", "1")
            assert client.get(pages[1]).status_code == status
            client.delete_cookie("other")
        else:
            assert client.get(**{"path": pages[1], **request}).status_code == status
        assert len(hooks) == before + 1, request  # it went to Flask
    db.session.execute(db.update(ParticipantSession).filter_by(token=tokens[1]).values(status="completed"))
    db.session.commit()
    before = len(hooks)
    ended = client.get(pages[1])
    assert ended.status_code == 200 and b"Already completed" in ended.data and len(hooks) == before + 1


@pytest.mark.skipif(
    BACKEND != "postgresql", reason="psycopg's prepared statements (server/participation/trialstore.py)"
)
def test_a_connection_postgresql_dropped_leaves_the_pool(app, client):
    """The saves' INSERT goes to psycopg directly, through a cursor kept with the pooled connection. A pooled
    connection whose server process is gone must leave the pool, as it would have through SQLAlchemy: the hot path's
    save fails on it, and the view, which answers what the hot path did not store, gets a new connection, with a
    cursor of its own. Left in the pool, the view would get the dead one back (the only one) and answer 500."""
    token, plan = started(client)
    first = trial_body(plan[0])
    assert client.post(f"/api/sessions/{token}/trials", json=first).status_code == 201

    def backend():
        with trialstore.autocommit() as connection:  # the one kept connection: the saves ran one at a time
            return connection.exec_driver_sql("SELECT pg_backend_pid()").scalar()

    def cursor():
        with trialstore.autocommit() as connection:
            kept = connection.connection.info["studyhive.cursor"]
            assert kept.connection is connection.connection.driver_connection
            return kept

    kept = cursor()
    assert client.post(f"/api/sessions/{token}/trials", json=first).status_code == 200  # a repeat, the same cursor
    assert cursor() is kept
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
    assert cursor() is not kept
