"""Researcher accounts and pages: hashed passwords, login and logout (the URL-map walk is in test_access.py)."""

import time

import pytest

from server.config import default_config
from server.db import db
from server.models import Researcher
from server.researchers.auth import create_researcher


def test_create_researcher_cli_hashes_the_password(runner):
    result = runner.invoke(args=["researcher", "create", "grace"], input="s3cret-pass\ns3cret-pass\n")
    assert result.exit_code == 0, result.output
    stored = db.session.scalars(db.select(Researcher)).one()
    assert stored.username == "grace" and "s3cret-pass" not in stored.password_hash
    assert stored.password_hash.startswith("scrypt:") and stored.is_admin  # the first account is the admin
    assert runner.invoke(args=["researcher", "create", "hopper", "--password", "long-enough"]).exit_code == 0
    assert not db.session.scalars(db.select(Researcher).filter_by(username="hopper")).one().is_admin
    again = runner.invoke(args=["researcher", "create", "grace", "--password", "another-pass"])
    assert again.exit_code != 0 and "exists already" in again.output
    short = runner.invoke(args=["researcher", "create", "hopper", "--password", "short"])
    assert short.exit_code != 0 and "at least 8" in short.output


def test_login_logout_and_protected_pages(client, auth):
    assert client.get("/researcher/").status_code == 302
    assert auth.login(password="wrong").status_code == 401
    response = auth.login()
    assert response.status_code == 302 and response.headers["Location"] == "/researcher/"
    page = client.get("/researcher/").get_data(as_text=True)
    assert "study3" in page and "trials.csv" in page
    auth.logout()
    assert client.get("/researcher/").status_code == 302


def test_login_does_not_redirect_off_site(client, auth):
    response = client.post(
        "/researcher/login?next=//evil.example/x", data={"username": "ada", "password": "correct horse"}
    )
    assert response.headers["Location"] == "/researcher/"


def test_login_with_a_line_break_in_next_answers_the_safe_redirect(client, auth):
    for target in ("/researcher/%0d%0aSet-Cookie:%20x=1", "/researcher/%0aX", "/%09/evil.example", "/\\evil.example"):
        response = client.post(
            f"/researcher/login?next={target}", data={"username": "ada", "password": "correct horse"}
        )
        assert (response.status_code, response.headers["Location"]) == (302, "/researcher/"), target
    assert client.get("/researcher/").status_code == 200  # logged in all the same
    kept = client.post(
        "/researcher/login?next=/researcher/tokens", data={"username": "ada", "password": "correct horse"}
    )
    assert kept.headers["Location"] == "/researcher/tokens"


PARTICIPANTS = "/researcher/studies/study3/participants.csv"


def copied_cookie(client, app):
    """Another client holding a copy of `client`'s session cookie (a second browser, or a stolen cookie)."""
    thief = app.test_client()
    thief.set_cookie("session", client.get_cookie("session").value)
    return thief


def test_logout_ends_every_copy_of_the_session(app, client, auth):
    auth.login()
    thief = copied_cookie(client, app)
    assert thief.get(PARTICIPANTS).status_code == 200
    auth.logout()
    assert thief.get(PARTICIPANTS).status_code == 302  # to the login page: the copy is no session any more
    auth.login()  # a new login is a new session
    assert client.get(PARTICIPANTS).status_code == 200 and thief.get(PARTICIPANTS).status_code == 302


def test_account_commands_end_every_session_of_the_account(app, client, auth, runner):
    create_researcher("bob", "bob-password")
    bob = app.test_client()
    bob.post("/researcher/login", data={"username": "bob", "password": "bob-password"})

    def logged_in(c):
        return c.get("/researcher/").status_code == 200

    auth.login()
    assert runner.invoke(args=["researcher", "admin", "ada", "--off"]).output == (
        "ada is no longer an admin; every session of theirs has ended\n"
    )
    assert not logged_in(client) and logged_in(bob)  # only that account's sessions

    auth.login()
    result = runner.invoke(args=["researcher", "password", "ada"], input="new-password\nnew-password\n")
    assert result.exit_code == 0 and "new password for ada; every session of theirs has ended" in result.output
    assert not logged_in(client)
    assert auth.login().status_code == 401  # the old password is gone
    assert auth.login(password="new-password").status_code == 302 and logged_in(client)
    short = runner.invoke(args=["researcher", "password", "ada", "--password", "short"])
    assert short.exit_code == 1 and "at least 8 characters" in short.output

    token = runner.invoke(args=["researcher", "token", "create", "ada", "script"]).stdout.strip()
    bearer = {"Authorization": f"Bearer {token}"}
    runner.invoke(args=["researcher", "admin", "ada"])
    assert app.test_client().get(PARTICIPANTS, headers=bearer).status_code == 200
    result = runner.invoke(args=["researcher", "disable", "ada"])
    assert result.output == "ada disabled: every session has ended, no login, API tokens refused\n"
    assert not logged_in(client)
    assert auth.login(password="new-password").status_code == 401  # the right password, a disabled account
    assert app.test_client().get(PARTICIPANTS, headers=bearer).status_code == 401
    assert "ada (disabled)\t" in runner.invoke(args=["researcher", "list"]).output
    assert runner.invoke(args=["researcher", "disable", "ada"]).output == "ada was already disabled\n"
    assert runner.invoke(args=["researcher", "enable", "ada"]).output == "ada may log in again\n"
    assert auth.login(password="new-password").status_code == 302 and logged_in(client)
    assert app.test_client().get(PARTICIPANTS, headers=bearer).status_code == 200
    missing = runner.invoke(args=["researcher", "disable", "nobody"])
    assert missing.exit_code == 1 and "no researcher named 'nobody'" in missing.output


def test_an_idle_session_ends_after_the_configured_time(app, client, auth):
    app.config["RESEARCHER_IDLE_HOURS"] = 0.5
    auth.login()
    with client.session_transaction() as cookie:
        cookie["seen"] -= 29 * 60  # 29 minutes without a request
    assert client.get("/researcher/").status_code == 200  # and that request counts as one
    with client.session_transaction() as cookie:
        assert time.time() - cookie["seen"] < 60
        cookie["seen"] -= 31 * 60
    assert client.get("/researcher/").status_code == 302
    assert client.get("/researcher/").status_code == 302  # the cookie is gone, not just refused once


def test_a_request_within_a_minute_does_not_rewrite_the_cookie(app, client, auth):
    """Only a stale last-seen time is renewed: a response that sets the cookie again would overwrite what a request
    beside it stored there (a flash message after a form's POST)."""
    auth.login()
    client.get("/researcher/")  # the first page after logging in (it may show a message stored in the cookie)
    assert "Set-Cookie" not in client.get("/researcher/").headers
    with client.session_transaction() as cookie:
        cookie["seen"] -= 61
    assert "Set-Cookie" in client.get("/researcher/").headers


def test_idle_hours_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("STUDYHIVE_RESEARCHER_IDLE_HOURS", "0.25")
    assert default_config()["RESEARCHER_IDLE_HOURS"] == 0.25
    monkeypatch.setenv("STUDYHIVE_RESEARCHER_IDLE_HOURS", "0")
    with pytest.raises(ValueError, match="STUDYHIVE_RESEARCHER_IDLE_HOURS='0'"):
        default_config()


def test_the_front_page_leads_researchers_to_their_login(client, auth):
    page = client.get("/")
    assert page.status_code == 200 and 'href="/researcher/login"' in page.get_data(as_text=True)
    auth.login()
    assert 'href="/researcher/">your studies' in client.get("/").get_data(as_text=True)


def test_a_request_without_the_cookie_sets_none_and_logging_out_clears_it(client, auth):
    """Participants carry no cookie: their entry and page set none, and vary by it as every page that reads it does
    (server/web/guards.py ResearcherCookies). A researcher's logout still clears theirs."""
    entry = client.get("/study/study3")
    page = client.get(entry.headers["Location"])
    for response in (entry, page):
        assert "Set-Cookie" not in response.headers and "Cookie" in response.headers["Vary"]
    auth.login()
    logout = auth.logout()
    assert "session=;" in logout.headers["Set-Cookie"] and "Cookie" in logout.headers["Vary"]
