"""Researcher accounts and pages: hashed passwords, login and logout (the URL-map walk is in test_access.py)."""

from server.db import db
from server.models import Researcher


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
