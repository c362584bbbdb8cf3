"""The served OpenAPI document (server/web/openapi.py) against the app: the same routes, valid schemas, and examples
that both the schemas and the server accept, answered with documented statuses and bodies."""

from __future__ import annotations

import re

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from server.web.openapi import DOCUMENTED_BLUEPRINTS
from tests.helpers import PROLIFIC, answer_surveys, enter, trial_body

METHODS = {"get", "put", "post", "delete", "patch"}


@pytest.fixture
def doc(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200 and response.is_json
    return response.get_json()


def validator(doc, *pointer: str) -> Draft202012Validator:
    """A validator for the schema at a JSON pointer into the document (its #/components refs resolve in it)."""
    registry = Registry().with_resource("urn:doc", Resource.from_contents(doc, default_specification=DRAFT202012))
    escaped = "/".join(p.replace("~", "~0").replace("/", "~1") for p in pointer)
    return Draft202012Validator({"$ref": f"urn:doc#/{escaped}"}, registry=registry)


def test_document_is_openapi_3_1_with_valid_schemas(doc):
    assert doc["openapi"].startswith("3.1") and doc["info"]["title"]
    for schema in doc["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)


def test_every_participant_route_is_documented_and_every_documented_route_exists(app, doc):
    served = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint.split(".")[0] in DOCUMENTED_BLUEPRINTS:
            path = re.sub(r"<(?:[a-z]+(?:\([^)]*\))?:)?([a-z_]+)>", r"{\1}", rule.rule)
            served |= {(path, m.lower()) for m in rule.methods - {"HEAD", "OPTIONS"}}
    documented = {(path, m) for path, item in doc["paths"].items() for m in item if m in METHODS}
    assert documented == served
    for path, method in documented:
        operation = doc["paths"][path][method]
        names = {p["name"] for p in operation.get("parameters", []) if p["in"] == "path"}
        assert names == set(re.findall(r"{(\w+)}", path)), path


def test_examples_validate_and_the_server_accepts_them(client, doc):
    token = enter(client, **PROLIFIC)
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    # /end ends the session, after which nothing is stored: its example goes last.
    for path, item in sorted(doc["paths"].items(), key=lambda entry: entry[0].endswith("/end")):
        for method, operation in item.items():
            media = operation.get("requestBody", {}).get("content", {}).get("application/json")
            # A jsPsych study's: tests/test_jspsych_run.py, tests/test_own_replay.py, tests/test_own_errors.py and
            # tests/test_own_endings.py send those.
            if not media or path.endswith(
                ("/rows", "/row-amendments", "/replay-diverged", "/experiment-error", "/timeline-finished")
            ):
                continue
            pointer = ("paths", path, method, "requestBody", "content", "application/json", "schema")
            validator(doc, *pointer).validate(media["example"])
            body = dict(media["example"])
            if path.endswith("/trials"):  # plans are drawn at random: use the stimulus this one plans first
                body.update(trial_index=0, stimulus_id=plan[0]["stimulus_id"])
            url = path.replace("{token}", token).replace("{name}", "consent")
            response = client.open(url, method=method.upper(), json=body)
            check_answer(doc, path, method, response)
            assert response.status_code in (200, 201), (path, response.get_json())


def check_answer(doc, path, method, response):
    """The status is documented for this operation, and a JSON body validates against its schema."""
    status = str(response.status_code)
    responses = doc["paths"][path][method]["responses"]
    assert status in responses, f"{method.upper()} {path} answered undocumented {status}"
    if "application/json" in responses[status].get("content", {}):
        pointer = ("paths", path, method, "responses", status, "content", "application/json", "schema")
        validator(doc, *pointer).validate(response.get_json())


def test_a_whole_session_gets_only_documented_answers(client, doc):
    token = enter(client, **PROLIFIC)
    api = "/api/sessions/{token}"
    calls = [
        ("get", api, None),
        ("post", api + "/complete", {}),
        ("get", api + "/summary", None),
        ("put", api + "/environment", {"screen_width": "wide"}),
        ("post", api + "/trials", {"trial_index": 0}),
        ("put", api + "/surveys/{name}", {"answers": {"age": 3}}),
    ]
    for method, path, body in calls:
        check_answer(
            doc,
            path,
            method,
            client.open(path.format(token=token, name="demographics"), method=method.upper(), json=body),
        )
    answer_surveys(client, token)
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    first = trial_body(plan[0])
    for body in (first, first, {**first, "trial_id": "another-id-123"}):  # 201, repeat 200, index taken 409
        check_answer(doc, api + "/trials", "post", client.post(f"/api/sessions/{token}/trials", json=body))
    for item in plan[1:]:
        client.post(f"/api/sessions/{token}/trials", json=trial_body(item))
    complete = client.post(f"/api/sessions/{token}/complete", json={})
    assert complete.status_code == 200
    check_answer(doc, api + "/complete", "post", complete)
    check_answer(doc, api, "get", client.get("/api/sessions/not-a-session"))
