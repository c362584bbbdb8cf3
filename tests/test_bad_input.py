"""Every kind of bad participant input gets a 4xx JSON error naming the problem, and writes nothing."""
import json

import pytest
from sqlalchemy import func

from server.db import db
from server.models import ParticipantSession, SurveyResponse, Trial
from tests.helpers import PROLIFIC, enter, trial_body


@pytest.fixture
def session(client):
    token = enter(client, **PROLIFIC)
    return token, client.get(f"/api/sessions/{token}").get_json()["plan"]


def snapshot():
    return tuple(db.session.scalar(db.select(func.count()).select_from(m))
                 for m in (ParticipantSession, Trial, SurveyResponse))


def post(client, token, body, **kwargs):
    return client.post(f"/api/sessions/{token}/trials", json=body, **kwargs)


@pytest.mark.parametrize("change, status, error, field", [
    ({"response": {"percent": 101}}, 422, "invalid_response", "response.percent"),
    ({"response": {"percent": -0.5}}, 422, "invalid_response", "response.percent"),
    ({"response": {"percent": "50"}}, 422, "invalid_response", "response.percent"),
    ({"response": {"percent": True}}, 422, "invalid_response", "response.percent"),
    ({"response": {}}, 422, "invalid_response", "response.percent"),
    ({"response": {"percent": 5, "extra": 1}}, 422, "invalid_response", "response"),
    ({"response": [50]}, 422, "invalid_response", "response"),
    ({"trial_index": 30}, 422, "index_out_of_plan", "trial_index"),
    ({"trial_index": -1}, 422, "index_out_of_plan", "trial_index"),
    ({"trial_index": "3"}, 400, "invalid_field", "trial_index"),
    ({"trial_index": None}, 400, "invalid_field", "trial_index"),
    ({"stimulus_id": "t1-s10-t56-v0x"}, 422, "stimulus_mismatch", "stimulus_id"),
    ({"trial_id": "short"}, 400, "invalid_field", "trial_id"),
    ({"trial_id": 12345678}, 400, "invalid_field", "trial_id"),
    ({"rt_ms": -1}, 400, "invalid_field", "rt_ms"),
    ({"rt_ms": "fast"}, 400, "invalid_field", "rt_ms"),
    ({"client_time": "yesterday"}, 400, "invalid_field", "client_time"),
    ({"is_admin": True}, 400, "unknown_field", "is_admin"),
])
def test_invalid_trial_fields_are_refused(client, session, change, status, error, field):
    token, plan = session
    before = snapshot()
    response = post(client, token, {**trial_body(plan[0]), **change})
    assert response.status_code == status
    body = response.get_json()
    assert (body["error"], body["field"]) == (error, field)
    assert body["message"]
    assert snapshot() == before


@pytest.mark.parametrize("missing", ["trial_id", "trial_index", "stimulus_id", "response"])
def test_missing_trial_fields_are_refused(client, session, missing):
    token, plan = session
    body = trial_body(plan[0])
    del body[missing]
    response = post(client, token, body)
    assert 400 <= response.status_code < 500 and response.get_json()["error"]
    assert snapshot()[1] == 0


def test_malformed_json_and_wrong_content_type(client, session):
    token, _ = session
    url = f"/api/sessions/{token}/trials"
    bad_json = client.post(url, data="{not json", content_type="application/json")
    assert bad_json.status_code == 400 and bad_json.get_json()["error"] == "malformed_json"
    as_list = client.post(url, data="[1, 2]", content_type="application/json")
    assert as_list.status_code == 400 and as_list.get_json()["error"] == "malformed_json"
    as_form = client.post(url, data={"trial_index": "1"})
    assert as_form.status_code == 415 and as_form.get_json()["error"] == "unsupported_media_type"
    assert snapshot()[1] == 0


def test_oversized_body_is_refused(client, session):
    token, plan = session
    body = trial_body(plan[0])
    body["response"] = {"percent": 5, "padding": "x" * 70_000}
    response = client.post(f"/api/sessions/{token}/trials", data=json.dumps(body), content_type="application/json")
    assert response.status_code == 413 and response.get_json()["error"] == "request_entity_too_large"
    assert snapshot()[1] == 0


def test_unknown_token_and_unknown_routes_answer_json(client):
    for method, url in (("get", "/api/sessions/nope"), ("post", "/api/sessions/nope/trials"),
                        ("post", "/api/sessions/nope/complete"), ("put", "/api/sessions/nope/environment")):
        response = getattr(client, method)(url, json={})
        assert response.status_code == 404 and response.get_json()["error"] == "unknown_session"
    response = client.delete(f"/api/sessions/{enter(client)}/trials")
    assert response.status_code == 405 and response.get_json()["error"] == "method_not_allowed"


def test_unknown_survey_and_bad_environment(client, session):
    token, _ = session
    before = snapshot()
    assert client.put(f"/api/sessions/{token}/surveys/tradeoff", json={"answers": {}}).status_code == 404
    env = client.put(f"/api/sessions/{token}/environment", json={"screen_width": "wide"})
    assert env.status_code == 400 and env.get_json()["field"] == "screen_width"
    assert snapshot() == before


def test_bad_entry_links(client):
    assert client.get("/study/nope").status_code == 404
    placeholder = client.get("/study/study3", query_string={"PROLIFIC_PID": "{{%PROLIFIC_PID%}}"})
    assert placeholder.status_code == 400 and b"PROLIFIC_PID" in placeholder.data
    assert client.get("/study/study3/s/not-a-token").status_code == 404
    assert client.get("/stimuli/study3/t9-s1-t2-v0.svg").status_code == 404
    assert client.get("/stimuli/study3/t1-s10-t56-v0%00").status_code == 404
    assert snapshot() == (0, 0, 0)


def test_server_errors_reveal_nothing(app, client, session, monkeypatch):
    token, plan = session
    from server import session_api

    def explode(*args):
        raise RuntimeError("SELECT secret FROM internals")
    monkeypatch.setattr(session_api, "save_trial", explode)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = post(client, token, trial_body(plan[0]))
    assert response.status_code == 500
    assert response.get_json() == {"error": "internal_error", "message": "the server failed; please retry"}


@pytest.mark.parametrize("path", ["/api/sessions//trials", "/api/sessions/{token}//trials",
                                  "/api/sessions/{token}/surveys/"])
def test_empty_ids_in_api_urls_get_a_json_404(client, session, path):
    token, _ = session
    before = snapshot()
    response = client.post(path.format(token=token), json={})
    assert response.status_code == 404 and response.is_json and response.get_json()["error"]
    assert snapshot() == before
