"""Access control, walked over the app's whole URL map: no researcher URL answers without a login, a participant
token reaches only its own session, Prolific ids never reach a participant-facing response, a researcher sees only
the studies granted to them, and API tokens (SHA-256 stored) download exports until revoked."""

import hashlib

import pytest

from server import identifiers
from server.db import db
from server.models import ApiToken, ParticipantSession, Stimulus, Study
from server.researchers.auth import create_researcher, grant
from tests.helpers import DEMOGRAPHICS, answer_all, enter

PID_A = "aaaaaaaaaaaaaaaaaaaaaaaa"
PID_B = "bbbbbbbbbbbbbbbbbbbbbbbb"
METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")


@pytest.fixture
def people(app, client):
    """Participant A (completed) and participant B (just entered), both from Prolific, in study3."""
    token_a = enter(client, PROLIFIC_PID=PID_A, STUDY_ID="s1", SESSION_ID="x1")
    answer_all(client, token_a)
    assert client.post(f"/api/sessions/{token_a}/complete").status_code == 200
    token_b = enter(client, PROLIFIC_PID=PID_B, STUDY_ID="s1", SESSION_ID="x2")
    session_a = db.session.scalars(db.select(ParticipantSession).filter_by(token=token_a)).one()
    return {"a": token_a, "b": token_b, "a_id": session_a.id}


def urls(app, people):
    """(endpoint, methods, URL) for every rule, its arguments filled with real values; participant URLs with B's
    token."""
    key = db.session.scalars(db.select(Stimulus.key).join(Study).where(Study.slug == "study3")).first()
    values = {
        "slug": "study3",
        "token": people["b"],
        "key": key,
        "participant_id": people["a_id"],
        "filename": "studyhive/pages.css",
        "action": "exclude",
        "version": 1,
    }
    adapter = app.url_map.bind("localhost")
    for rule in app.url_map.iter_rules():
        args = {a: values.get(a, "x") for a in rule.arguments}
        if rule.endpoint == "researcher.download":
            args["name"] = "participants.csv"
        elif "name" in rule.arguments:
            args["name"] = "demographics"
        yield rule.endpoint, sorted(set(rule.methods) & set(METHODS)), adapter.build(rule.endpoint, args)


def test_every_researcher_url_refuses_the_logged_out(app, client, people):
    checked = 0
    for endpoint, methods, url in urls(app, people):
        if not url.startswith("/researcher/") or endpoint == "researcher.login":
            continue
        for method in methods:
            response = client.open(url, method=method)
            assert response.status_code in (302, 401), (method, url, response.status_code)
            if response.status_code == 302:
                assert response.headers["Location"].startswith("/researcher/login"), (method, url)
            body = response.get_data(as_text=True)
            assert PID_A not in body and "participant_id" not in body, (method, url)
            checked += 1
    assert checked >= 10  # the walk really found the dashboard's pages, forms and downloads


def test_participant_urls_reach_only_their_own_session_and_never_show_prolific_ids(app, client, people):
    """Every non-researcher URL, called with participant B's token: nothing of A (token, PROLIFIC_PID), and no
    Prolific id at all — not even B's own — in any participant-facing answer."""
    seen = 0
    for _endpoint, methods, url in urls(app, people):
        if url.startswith("/researcher/"):
            continue
        for method in methods:
            kwargs = {"json": {}} if method in ("POST", "PUT", "PATCH") and url.startswith("/api/") else {}
            response = client.open(url, method=method, **kwargs)
            assert response.status_code < 500, (method, url, response.status_code)
            body = response.get_data(as_text=True)
            for secret in (people["a"], PID_A, PID_B):
                assert secret not in body, (method, url, secret)
            seen += 1
    assert seen >= 8
    own = client.get(f"/api/sessions/{people['b']}").get_json()
    assert own["token"] == people["b"] and own["stored_indexes"] == []
    # A's token opens A's session only under A's study: another slug is a 404, like an unknown token.
    assert client.get(f"/study/other/s/{people['a']}").status_code == 404
    assert client.get("/api/sessions/not-a-token").status_code == 404


def login(client, username, password="correct horse"):
    response = client.post("/researcher/login", data={"username": username, "password": password})
    assert response.status_code == 302, response.get_data(as_text=True)


def test_a_researcher_sees_only_granted_studies(app, client, runner, people):
    ada = create_researcher("ada", "correct horse")
    bob = create_researcher("bob", "correct horse")
    assert ada.is_admin and not bob.is_admin  # the first account is the admin
    login(client, "bob")
    assert "study3" not in client.get("/researcher/").get_data(as_text=True)
    for url in (
        "/researcher/studies/study3/",
        "/researcher/studies/study3/participants",
        f"/researcher/studies/study3/participants/{people['a_id']}",
        "/researcher/studies/study3/results",
        "/researcher/studies/study3/progress.png",
        "/researcher/studies/study3/trials.csv",
    ):
        assert client.get(url).status_code == 404, url  # as if the study did not exist
    assert client.post("/researcher/studies/study3/status", data={"status": "closed"}).status_code == 404
    assert db.session.scalars(db.select(Study.status).filter_by(slug="study3")).one() == "open"

    result = runner.invoke(args=["researcher", "grant", "bob", "study3"])
    assert result.exit_code == 0 and "can now see study3" in result.output
    assert "study3" in client.get("/researcher/").get_data(as_text=True)
    page = client.get("/researcher/studies/study3/participants").get_data(as_text=True)
    assert PID_A in page  # researchers do see Prolific ids
    assert runner.invoke(args=["researcher", "revoke", "bob", "study3"]).exit_code == 0
    assert client.get("/researcher/studies/study3/").status_code == 404
    assert runner.invoke(args=["researcher", "admin", "bob"]).exit_code == 0
    assert client.get("/researcher/studies/study3/").status_code == 200
    assert runner.invoke(args=["researcher", "grant", "nobody", "study3"]).exit_code != 0
    assert "no study named" in runner.invoke(args=["researcher", "grant", "bob", "nope"]).output


def test_api_token_downloads_exports_until_revoked(app, client, runner, people):
    create_researcher("ada", "correct horse")
    carl = create_researcher("carl", "correct horse")
    result = runner.invoke(args=["researcher", "token", "create", "ada", "nightly"])
    assert result.exit_code == 0, result.output
    token = result.stdout.strip().splitlines()[0]
    stored = db.session.scalars(db.select(ApiToken)).one()
    assert stored.token_hash == hashlib.sha256(token.encode()).hexdigest() and token not in stored.token_hash

    bearer = {"Authorization": f"Bearer {token}"}
    response = client.get("/researcher/studies/study3/participants.csv", headers=bearer)
    assert response.status_code == 200 and response.mimetype == "text/csv"
    lines = response.get_data(as_text=True).splitlines()
    assert lines[0].startswith("participant_id,") and len(lines) == 3
    assert identifiers.pid_hmac(PID_A)[:16] in lines[1] + lines[2] and PID_A not in lines[1] + lines[2]
    assert db.session.get(ApiToken, stored.id).last_used_at is not None
    # The token opens downloads only, not the pages.
    assert client.get("/researcher/", headers=bearer).status_code == 302
    wrong = client.get("/researcher/studies/study3/trials.csv", headers={"Authorization": "Bearer shk_wrong"})
    assert wrong.status_code == 401 and wrong.get_json()["error"] == "invalid_token"

    # Another researcher's token is bound by that researcher's access.
    carl_token = runner.invoke(args=["researcher", "token", "create", "carl", "ci"]).stdout.strip().splitlines()[0]
    assert (
        client.get(
            "/researcher/studies/study3/trials.csv", headers={"Authorization": f"Bearer {carl_token}"}
        ).status_code
        == 404
    )
    grant(carl, db.session.get(Study, people_study_id()))
    assert (
        client.get(
            "/researcher/studies/study3/trials.csv", headers={"Authorization": f"Bearer {carl_token}"}
        ).status_code
        == 200
    )

    assert runner.invoke(args=["researcher", "token", "revoke", "ada", "nightly"]).exit_code == 0
    assert client.get("/researcher/studies/study3/participants.csv", headers=bearer).status_code == 401
    assert runner.invoke(args=["researcher", "token", "revoke", "ada", "nightly"]).exit_code != 0


def people_study_id():
    return db.session.scalars(db.select(Study.id).filter_by(slug="study3")).one()


def test_tokens_page_creates_shows_once_and_revokes(app, client):
    create_researcher("ada", "correct horse")
    login(client, "ada")
    page = client.post("/researcher/tokens", data={"name": "laptop"}).get_data(as_text=True)
    token = page.split('id="new-token" readonly value="', 1)[1].split('"', 1)[0]
    assert token.startswith("shk_")
    assert token not in client.get("/researcher/tokens").get_data(as_text=True)  # shown once
    assert "has a token named" in client.post("/researcher/tokens", data={"name": "laptop"}).get_data(as_text=True)
    bearer = {"Authorization": f"Bearer {token}"}
    other = app.test_client()  # a script: no session cookie
    assert other.get("/researcher/studies/study3/codebook.csv", headers=bearer).status_code == 200
    assert client.post("/researcher/tokens/revoke", data={"name": "laptop"}).status_code == 303
    assert other.get("/researcher/studies/study3/codebook.csv", headers=bearer).status_code == 401


def test_demographics_are_exported_but_not_echoed_to_participants(app, client, people):
    """The participant API answers a survey with a status, not with anyone's stored answers."""
    body = client.get(f"/api/sessions/{people['b']}").get_data(as_text=True)
    assert DEMOGRAPHICS["nationality"] not in body
