"""Small helpers shared by the tests: entering a study and answering its trials through the JSON API."""
from __future__ import annotations

import uuid

PROLIFIC = {"PROLIFIC_PID": "5f1a2b3c4d5e6f7a8b9c0d1e", "STUDY_ID": "study-abc", "SESSION_ID": "sess-xyz"}


def enter(client, slug="study3", **params) -> str:
    """Open the entry link; return the session token from the redirect."""
    response = client.get(f"/study/{slug}", query_string=params)
    assert response.status_code == 303, response.data
    return response.headers["Location"].rsplit("/", 1)[1]


def trial_body(item, percent=50.0, trial_id=None, **extra):
    return {"trial_id": trial_id or str(uuid.uuid4()), "trial_index": item["index"],
            "stimulus_id": item["stimulus_id"], "response": {"percent": percent}, "rt_ms": 1234,
            "client_time": "2026-11-22T12:00:00+00:00", **extra}


DEMOGRAPHICS = {"gender": "female", "age": 30, "education": "doctorate", "nationality": "Chilean"}


def answer_surveys(client, token, **answers):
    """Answer consent and every survey of the session's flow (demographics with DEMOGRAPHICS unless given)."""
    state = client.get(f"/api/sessions/{token}").get_json()
    for name in ["consent", *state["surveys"]]:
        body = {"agreed": True} if name == "consent" else answers.get(name, DEMOGRAPHICS)
        response = client.put(f"/api/sessions/{token}/surveys/{name}", json={"answers": body})
        assert response.status_code == 200, response.get_json()


def answer_all(client, token, percent_for=lambda item: 50.0):
    """Answer the surveys and every planned trial (so that /complete succeeds)."""
    answer_surveys(client, token)
    state = client.get(f"/api/sessions/{token}").get_json()
    for item in state["plan"]:
        response = client.post(f"/api/sessions/{token}/trials", json=trial_body(item, percent_for(item)))
        assert response.status_code == 201, response.get_json()
    return state
