"""Every kind of bad participant input gets a 4xx JSON error naming the problem, and writes nothing."""

import json
import uuid

import pytest
from sqlalchemy import func

from server.db import db
from server.models import ParticipantSession, SurveyResponse, Trial
from tests.helpers import DEMOGRAPHICS, PROLIFIC, enter, trial_body


@pytest.fixture
def session(client):
    return start(client, "study3", **PROLIFIC)


def start(client, slug, **params):
    """A session that has given consent (enter does), and its plan."""
    token = enter(client, slug, **params)
    return token, client.get(f"/api/sessions/{token}").get_json()["plan"]


def snapshot():
    return tuple(
        db.session.scalar(db.select(func.count()).select_from(m)) for m in (ParticipantSession, Trial, SurveyResponse)
    )


def post(client, token, body, **kwargs):
    return client.post(f"/api/sessions/{token}/trials", json=body, **kwargs)


@pytest.mark.parametrize(
    "change, status, error, field",
    [
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
    ],
)
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
    for method, url in (
        ("get", "/api/sessions/nope"),
        ("post", "/api/sessions/nope/trials"),
        ("post", "/api/sessions/nope/complete"),
        ("put", "/api/sessions/nope/environment"),
    ):
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
    from server.web import api

    def explode(*args):
        raise RuntimeError("SELECT secret FROM internals")

    # The save both server/web/hot_path.py and the view run
    monkeypatch.setitem(api.HOT, ("POST", "/trials"), api.Hot(explode, 201, body=True))
    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = post(client, token, trial_body(plan[0]))
    assert response.status_code == 500
    assert response.get_json() == {"error": "internal_error", "message": "the server failed; please retry"}


@pytest.mark.parametrize(
    "path", ["/api/sessions//trials", "/api/sessions/{token}//trials", "/api/sessions/{token}/surveys/"]
)
def test_empty_ids_in_api_urls_get_a_json_404(client, session, path):
    token, _ = session
    before = snapshot()
    response = client.post(path.format(token=token), json={})
    assert response.status_code == 404 and response.is_json and response.get_json()["error"]
    assert snapshot() == before


def test_huge_and_non_finite_percents_are_refused(client, session):
    """Integers beyond float range and non-finite floats (JSON as Python reads it) are a 422, not an OverflowError."""
    token, plan = session
    before = snapshot()
    for raw in ("1" + "0" * 400, "-1" + "0" * 400, "1e400", "-1e400", "Infinity", "NaN"):
        body = json.dumps(trial_body(plan[0], percent=0)).replace('"percent": 0', f'"percent": {raw}')
        response = client.post(f"/api/sessions/{token}/trials", data=body, content_type="application/json")
        assert (response.status_code, response.get_json()["field"]) == (422, "response.percent"), raw[:10]
    assert snapshot() == before


def put_survey(client, token, name, answers):
    return client.put(f"/api/sessions/{token}/surveys/{name}", json={"answers": answers})


def test_ages_must_be_whole_numbers_in_ascii_digits(client, session):
    """Only ASCII digits make a whole number: "²" passed str.isdigit() and then int() failed (a 500); "٣٠" was
    read as 30."""
    token, _ = session
    before = snapshot()
    for age in (
        "²",
        "٣٠",
        "３０",
        "--5",
        "+-5",
        "3 0",
        "30\x00",
        "30.0",
        30.0,
        True,
        "1" * 5000,
        "-" + "9" * 5000,
        10**400,
        -(10**400),
    ):
        response = put_survey(client, token, "demographics", {**DEMOGRAPHICS, "age": age})
        assert (response.status_code, response.get_json()["field"]) == (422, "answers.age"), str(age)[:10]
    assert snapshot() == before
    for age in (" 34 ", "034", 34):  # as the form and scripts send them
        assert put_survey(client, token, "demographics", {**DEMOGRAPHICS, "age": age}).status_code == 200


TRADEOFF = {"low_risk": 70, "medium_risk": 80, "high_risk": 90, "reason": "risk"}


def test_blank_long_and_control_character_texts_are_refused(client):
    """A required text of only spaces is missing; text keeps its max_length (longtext too: a 50,000-character
    reason was stored); one-line text has no line breaks; no text holds control characters or lone surrogates."""
    study3, _ = start(client, "study3")
    hive, _ = start(client, "hive-agreement")
    before = snapshot()
    for token, survey, valid, field, value in (
        (study3, "demographics", DEMOGRAPHICS, "nationality", "   "),
        (study3, "demographics", DEMOGRAPHICS, "nationality", "\u3000\t\n"),
        (study3, "demographics", DEMOGRAPHICS, "nationality", "x" * 81),
        (study3, "demographics", DEMOGRAPHICS, "nationality", "Chil\x00ean"),
        (study3, "demographics", DEMOGRAPHICS, "nationality", "Chil\nean"),
        (study3, "demographics", DEMOGRAPHICS, "nationality", "Chil\ud800ean"),
        (study3, "demographics", DEMOGRAPHICS, "gender", " "),
        (hive, "hive_tradeoff", TRADEOFF, "reason", "  \n "),
        (hive, "hive_tradeoff", TRADEOFF, "reason", "x" * 2001),
        (hive, "hive_tradeoff", TRADEOFF, "reason", "x" * 50_000),
        (hive, "hive_tradeoff", TRADEOFF, "reason", "because\x00"),
        (hive, "hive_feedback", {}, "feedback", "y" * 2001),
    ):
        response = put_survey(client, token, survey, {**valid, field: value})
        assert (response.status_code, response.get_json()["field"]) == (422, f"answers.{field}"), (field, value[:10])
    assert snapshot() == before
    reason = "first line\nsecond\tline " + "x" * (2000 - 23)  # a longtext keeps its lines, up to its limit
    assert put_survey(client, hive, "hive_tradeoff", {**TRADEOFF, "reason": f"  {reason}\n"}).status_code == 200
    stored = db.session.scalar(db.select(SurveyResponse.answers).where(SurveyResponse.name == "hive_tradeoff"))
    assert stored["reason"] == reason


def agreement_body(item, response):
    return {
        "trial_id": str(uuid.uuid4()),
        "trial_index": item["index"],
        "stimulus_id": item["stimulus_id"],
        "response": response,
        "rt_ms": 900,
    }


def test_similarity_ratings_must_match_the_matches_shown(client):
    """hive-agreement with ProtoPNet shows each trial's matches and asks one 1–4 rating per match: a list of
    another length (or none) does not describe what was shown."""
    token, plan = start(client, "hive-agreement")
    item = next(i for i in plan if not i["practice"])
    shown = len(item["options"][0]["explanation"])
    assert shown == 2  # the demo's photos have two matches each
    before = snapshot()
    for similarity in ([1] * 10, [1], [], None, [1, 5], [1, True], [1, 2.0], [1, 10**400]):
        response = {"confidence": 2} if similarity is None else {"confidence": 2, "similarity": similarity}
        refused = client.post(f"/api/sessions/{token}/trials", json=agreement_body(item, response))
        assert refused.status_code == 422, (similarity, refused.data)
        assert refused.get_json()["field"] == "response.similarity"
    assert snapshot() == before
    stored = client.post(
        f"/api/sessions/{token}/trials", json=agreement_body(item, {"confidence": 2, "similarity": [4, 1]})
    )
    assert stored.status_code == 201, stored.data


def test_ids_past_the_id_columns_range_are_not_found(client, auth):
    auth.login()
    huge = 2**31  # one past PostgreSQL's integer; SQLite refused to bind larger ones with a 500
    base = f"/researcher/studies/study3/participants/{huge}"
    for response in (
        client.get(base),
        client.get(f"{base}/replay"),
        client.post(f"{base}/withdraw", data={"reason": "x"}),
        client.post(f"{base}/exclude", data={"reason": "x"}),
        client.get(f"/study/study3/x/{10**30}/a.png"),
    ):
        assert response.status_code == 404
