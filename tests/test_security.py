"""Researcher-side hardening: CSRF on every form, the login rate limit, cookie flags, security headers, request
size limits, no stack trace or SQL in any answer, and exports read in one snapshot."""

import re
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError

from server.config import default_config
from server.db import db, dispose_engines, snapshot
from server.models import ParticipantSession, Study, StudyEvent
from server.researchers.auth import create_researcher
from server.studies.definitions import sync_studies
from tests.conftest import make_app
from tests.helpers import enter


@pytest.fixture
def fresh_app(tmp_path):
    """An app built with extra config (CSRF on, a small rate limit…), its database set up like the `app` fixture.
    No app context stays pushed, so each request gets its own `g` (Flask-WTF caches the CSRF token there)."""
    made = []

    def build(**config):
        app = make_app(tmp_path, **config)
        with app.app_context():
            db.drop_all()
            db.create_all()
            sync_studies(Path(app.config["STUDIES_DIR"]))
            create_researcher("ada", "correct horse")
        made.append(app)
        return app

    yield build
    for app in made:
        with app.app_context():
            db.drop_all()
            dispose_engines()


def study_status(app) -> str:
    with app.app_context():
        return db.session.scalars(db.select(Study.status).filter_by(slug="study3")).one()


def csrf_token(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def test_csrf_is_enforced_on_every_researcher_form(fresh_app):
    app = fresh_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    assert client.post("/researcher/login", data={"username": "ada", "password": "correct horse"}).status_code == 400
    token = csrf_token(client.get("/researcher/login").get_data(as_text=True))
    assert (
        client.post(
            "/researcher/login", data={"username": "ada", "password": "correct horse", "csrf_token": token}
        ).status_code
        == 302
    )
    page = client.get("/researcher/studies/study3/").get_data(as_text=True)
    forms = re.findall(r"<form[^>]*method=\"post\".*?</form>", page, re.S)
    assert len(forms) >= 3 and all("csrf_token" in f for f in forms)  # logout, pause, close
    for url, data in (
        ("/researcher/studies/study3/status", {"status": "closed"}),
        ("/researcher/tokens", {"name": "t"}),
        ("/researcher/tokens/revoke", {"name": "t"}),
        ("/researcher/logout", {}),
    ):
        assert client.post(url, data=data).status_code == 400, url  # forged: no token
    assert study_status(app) == "open"
    token = csrf_token(page)  # the login started a new session, with a new CSRF token
    response = client.post("/researcher/studies/study3/status", data={"status": "paused", "csrf_token": token})
    assert response.status_code == 303, response.get_data(as_text=True)
    assert study_status(app) == "paused"
    # The participant API is token-in-URL, not cookie, authenticated: exempt, and it works without a CSRF token.
    assert client.get("/study/study3").status_code == 200  # paused: the polite page


def test_login_is_rate_limited_after_failed_attempts(fresh_app):
    app = fresh_app(LOGIN_RATE_LIMIT="3 per minute")
    client = app.test_client()
    assert client.post("/researcher/login", data={"username": "ada", "password": "correct horse"}).status_code == 302
    for _ in range(3):  # successes do not count; failures do
        assert client.post("/researcher/login", data={"username": "ada", "password": "guess"}).status_code == 401
    refused = client.post("/researcher/login", data={"username": "ada", "password": "correct horse"})
    assert refused.status_code == 429  # even the right password, until the window passes
    assert "Traceback" not in refused.get_data(as_text=True)
    assert client.get("/researcher/login").status_code == 200  # the page itself still loads


def test_rate_limit_is_per_client_address_behind_a_proxy(fresh_app):
    app = fresh_app(LOGIN_RATE_LIMIT="2 per minute", PROXIES=1)
    client = app.test_client()
    bad = {"username": "ada", "password": "guess"}
    for _ in range(2):
        client.post("/researcher/login", data=bad, headers={"X-Forwarded-For": "198.51.100.7"})
    assert client.post("/researcher/login", data=bad, headers={"X-Forwarded-For": "198.51.100.7"}).status_code == 429
    assert client.post("/researcher/login", data=bad, headers={"X-Forwarded-For": "203.0.113.9"}).status_code == 401


def test_session_cookie_flags(fresh_app, monkeypatch):
    app = fresh_app(SESSION_COOKIE_SECURE=True)
    client = app.test_client()
    response = client.post("/researcher/login", data={"username": "ada", "password": "correct horse"})
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" in cookie
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")
    monkeypatch.setenv("STUDYHIVE_SECURE_COOKIES", "1")
    assert default_config()["SESSION_COOKIE_SECURE"] is True
    monkeypatch.setenv("STUDYHIVE_SECURE_COOKIES", "")
    assert default_config()["SESSION_COOKIE_SECURE"] is False


def test_pages_allow_only_our_own_scripts(app, client, auth):
    token = enter(client)
    auth.login()
    for url in (
        "/researcher/login",
        "/researcher/",
        "/researcher/studies/study3/",
        "/researcher/tokens",
        "/researcher/studies/study3/participants",
        f"/study/study3/s/{token}",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        csp = response.headers["Content-Security-Policy"]
        script_src = re.search(r"script-src ([^;]*)", csp).group(1)
        assert script_src.strip() == "'self'", csp
        assert "frame-ancestors 'none'" in csp and response.headers["X-Content-Type-Options"] == "nosniff"
        html = response.get_data(as_text=True)
        # Every <script> is a file from our origin (static/ or a task package's files) or a JSON data block (never
        # run); no inline handlers.
        for tag in re.findall(r"<script[^>]*>", html):
            assert re.search(r'src="/(static|tasks)/', tag) or 'type="application/json"' in tag, (url, tag)
        assert not re.search(r"\son[a-z]+=\"", html), url


def test_request_size_limits(app, client, auth):
    big = client.post("/researcher/login", data={"username": "ada", "password": "x" * 1_000_000})
    assert big.status_code == 413
    token = enter(client)
    huge = client.post(f"/api/sessions/{token}/trials", data="{" + " " * 100_000 + "}", content_type="application/json")
    assert huge.status_code == 413 and huge.get_json()["error"]


def test_no_stack_trace_or_sql_in_any_response(tmp_path):
    app = make_app(tmp_path)

    def fail():
        raise OperationalError("SELECT password_hash FROM researchers WHERE id = 1", {}, Exception("boom"))

    app.add_url_rule("/boom", "boom", fail)
    app.add_url_rule("/api/sessions/<token>/boom", "api_boom", lambda token: fail())
    client = app.test_client()
    for url in ("/boom", "/api/sessions/abc/boom"):
        response = client.get(url)
        assert response.status_code == 500
        body = response.get_data(as_text=True)
        assert "Traceback" not in body and "SELECT" not in body and "password_hash" not in body, body
    assert client.get("/api/sessions/abc/boom").get_json()["error"] == "internal_error"


def test_a_snapshot_does_not_see_later_commits(app):
    """Reads inside server.db.snapshot see one moment: a session committed meanwhile by another connection is
    invisible until the snapshot ends (export and analysis both read through it)."""
    if db.engine.dialect.name == "sqlite":
        pytest.skip("SQLite's rollback journal blocks the concurrent writer instead; the PostgreSQL pass runs this")
    study_id = db.session.scalars(db.select(Study.id).filter_by(slug="study3")).one()
    count = db.select(db.func.count()).select_from(ParticipantSession)
    with snapshot():
        before = db.session.scalar(count)
        with db.engine.begin() as other:
            other.execute(
                db.insert(ParticipantSession).values(
                    study_id=study_id, token="t" * 20, platform="direct", study_version=1, status="started", plan=[]
                )
            )
        assert db.session.scalar(count) == before
    assert db.session.scalar(count) == before + 1


def test_status_changes_are_logged_with_who(app, client, auth, runner):
    auth.login()
    assert client.post("/researcher/studies/study3/status", data={"status": "paused"}).status_code == 303
    assert runner.invoke(args=["studies", "close", "study3"]).exit_code == 0
    events = db.session.scalars(db.select(StudyEvent).order_by(StudyEvent.id)).all()
    assert [(e.action, e.detail["from"], e.detail["via"]) for e in events] == [
        ("paused", "open", "web"),
        ("closed", "paused", "cli"),
    ]
    assert events[0].researcher_id is not None and events[1].researcher_id is None
