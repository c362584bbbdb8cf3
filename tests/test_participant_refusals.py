"""Every participant endpoint refuses bad bodies as main did at 73fd439, before its bodies became schema models
(server/participation/bodies.py): the same HTTP status and error code, bad part by bad part, including bodies with
several bad parts (the first one main checked is named). The expected pairs were recorded by running these cases
against main's hand-written checks; the one case where the answer changed on purpose says so."""

from __future__ import annotations

import pytest

from tests.helpers import DEMOGRAPHICS, PROLIFIC, enter, trial_body
from tests.jspsych_study import EXPERIMENT, jspsych_app

# Raw bodies: sent as bytes with the given Content-Type (None: application/json).
NOT_JSON = ("{not json", None)
A_LIST = ("[1, 2]", None)
A_FORM = ("trial_index=1", "application/x-www-form-urlencoded")
TOO_DEEP = ('{"x": ' + "[" * 70 + "]" * 70 + "}", None)
DEEPER_THAN_THE_PARSER = ('{"x": ' + "[" * 300 + "]" * 300 + "}", None)
HUGE_NUMBER = ('{"x": ' + "1" * 5000 + "}", None)
LATIN1 = (b'{"x": "\xe9"}', None)
UTF16 = ('{"trial_index": 0}'.encode("utf-16"), None)
RAW = (NOT_JSON, A_LIST, A_FORM, TOO_DEEP, DEEPER_THAN_THE_PARSER, HUGE_NUMBER, LATIN1)
RAW_REFUSALS = [(400, "malformed_json"), (400, "malformed_json"), (415, "unsupported_media_type")]
RAW_REFUSALS += [(400, "too_deep"), (400, "too_deep"), (400, "malformed_json"), (400, "malformed_json")]


def send(client, method, url, body):
    if isinstance(body, tuple):
        data, content_type = body
        return client.open(url, method=method, data=data, content_type=content_type or "application/json")
    return client.open(url, method=method, json=body)


def check(client, method, url, cases):
    answers = []
    for body, _, _ in cases:
        response = send(client, method, url, body)
        assert response.is_json, (body, response.data[:200])
        answers.append((response.status_code, response.get_json().get("error")))
    assert answers == [(status, code) for _, status, code in cases]


def trial_cases(plan):
    item, other = plan[0], plan[1]
    valid = trial_body(item)
    valid_events = [{"t": 10, "type": "input", "target": "percent", "value": "42"}, {"t": 20, "type": "hidden"}]
    bad = [
        ({**valid, "is_admin": True}, 400, "unknown_field"),
        ({**valid, "trial_id": "short"}, 400, "invalid_field"),
        ({**valid, "trial_id": 12345678}, 400, "invalid_field"),
        ({**valid, "trial_id": "with space inside"}, 400, "invalid_field"),
        ({**valid, "trial_id": "x" * 65}, 400, "invalid_field"),
        ({**valid, "trial_id": "abcdefgh\u00e9"}, 400, "invalid_field"),
        # The one change: main stored this id (Python's `$` matches before a final line break); the documented
        # pattern, 8–64 printable ASCII characters, refuses it.
        ({**valid, "trial_id": "abcdefgh\n"}, 400, "invalid_field"),
        ({k: v for k, v in valid.items() if k != "trial_id"}, 400, "invalid_field"),
        ({k: v for k, v in valid.items() if k != "trial_index"}, 400, "invalid_field"),
        ({k: v for k, v in valid.items() if k != "stimulus_id"}, 422, "stimulus_mismatch"),
        ({k: v for k, v in valid.items() if k != "response"}, 422, "invalid_response"),
        ({**valid, "trial_index": "0"}, 400, "invalid_field"),
        ({**valid, "trial_index": 0.0}, 400, "invalid_field"),
        ({**valid, "trial_index": True}, 400, "invalid_field"),
        ({**valid, "trial_index": None}, 400, "invalid_field"),
        ({**valid, "trial_index": -1}, 422, "index_out_of_plan"),
        ({**valid, "trial_index": 10**30}, 422, "index_out_of_plan"),
        ({**valid, "trial_index": other["index"]}, 422, "stimulus_mismatch"),
        ({**valid, "stimulus_id": 5}, 422, "stimulus_mismatch"),
        ({**valid, "rt_ms": -1}, 400, "invalid_field"),
        ({**valid, "rt_ms": "fast"}, 400, "invalid_field"),
        ({**valid, "rt_ms": False}, 400, "invalid_field"),
        ({**valid, "rt_ms": 86_400_001}, 400, "invalid_field"),
        ({**valid, "client_time": "yesterday"}, 400, "invalid_field"),
        ({**valid, "client_time": 5}, 400, "invalid_field"),
        ({**valid, "client_time": "0001-01-01T00:00:00+14:00"}, 400, "invalid_field"),
        ({**valid, "client_time": "2026-11-22T12:00:00\x00"}, 400, "invalid_field"),
        ({**valid, "events": {"t": 1}}, 422, "invalid_events"),
        ({**valid, "events": [{"t": 1, "type": "nod"}]}, 422, "invalid_events"),
        ({**valid, "events": [{"t": 1, "type": "hidden"}] * 501}, 413, "events_too_large"),
        ({**valid, "response": {"percent": 101}}, 422, "invalid_response"),
        ({**valid, "response": {"percent": "\ud800"}}, 422, "invalid_response"),
        ({**valid, "response": [50]}, 422, "invalid_response"),
        # several bad parts: main named the first it checked
        ({**valid, "is_admin": 1, "trial_id": 5, "rt_ms": -1}, 400, "unknown_field"),
        ({**valid, "trial_id": 5, "trial_index": -1}, 400, "invalid_field"),
        ({**valid, "trial_index": -1, "rt_ms": -1, "events": 5}, 422, "index_out_of_plan"),
        ({**valid, "stimulus_id": "nope", "rt_ms": -1}, 422, "stimulus_mismatch"),
        ({**valid, "rt_ms": -1, "client_time": "x", "events": 5, "response": 1}, 400, "invalid_field"),
        ({**valid, "client_time": "x", "events": 5, "response": 1}, 400, "invalid_field"),
        ({**valid, "events": 5, "response": 1}, 422, "invalid_events"),
        ({**valid, "events": [{"t": 1, "type": "hidden"}] * 501, "response": 1}, 413, "events_too_large"),
        ({**valid, "trial_id": 5, "response": {"x": [[[[[]]]]] * 3, "y": "[" * 70}}, 400, "invalid_field"),
        ({**valid, "events": valid_events}, 201, None),
    ]
    return bad


def test_trials_refusals(client):
    token = enter(client, **PROLIFIC)
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    url = f"/api/sessions/{token}/trials"
    raw = [(body, status, code) for body, (status, code) in zip(RAW, RAW_REFUSALS, strict=True)]
    check(client, "POST", url, [*raw, (UTF16, 400, "invalid_field"), *trial_cases(plan)])
    # Before consent the body's JSON is checked, then consent, then its fields.
    early = enter(client, consent=False)
    url = f"/api/sessions/{early}/trials"
    check(
        client, "POST", url, [*raw, ({"trial_id": 5}, 409, "out_of_order"), (trial_body(plan[0]), 409, "out_of_order")]
    )


def test_environment_survey_and_end_refusals(client):
    token = enter(client, **PROLIFIC)
    api = f"/api/sessions/{token}"
    raw = [(body, status, code) for body, (status, code) in zip(RAW, RAW_REFUSALS, strict=True)]
    sizes = {"screen_width": 1920, "screen_height": 1080, "window_width": 1536, "window_height": 864}
    check(
        client,
        "PUT",
        api + "/environment",
        [
            *raw,
            ({**sizes, "screen_width": 0}, 400, "invalid_field"),
            ({**sizes, "screen_height": 100_000}, 400, "invalid_field"),
            ({**sizes, "window_width": 1.0}, 400, "invalid_field"),
            ({**sizes, "window_height": True}, 400, "invalid_field"),
            ({**sizes, "window_height": "864"}, 400, "invalid_field"),
            ({k: v for k, v in sizes.items() if k != "screen_height"}, 400, "invalid_field"),
            ({**sizes, "screen_width": 0, "window_height": 0}, 400, "invalid_field"),
            ({**sizes, "anything": "else"}, 200, None),
            ({**sizes, "window_width": 10**30}, 400, "invalid_field"),
        ],
    )
    check(
        client,
        "PUT",
        api + "/surveys/demographics",
        [
            *raw,
            ({}, 422, "invalid_answer"),
            ({"answers": [1]}, 422, "invalid_answer"),
            ({"answers": {**DEMOGRAPHICS, "age": "²"}}, 422, "invalid_answer"),
            ({"answers": {**DEMOGRAPHICS, "nationality": "Chil\ud800ean"}}, 422, "invalid_answer"),
            ({"answers": DEMOGRAPHICS, "extra": 1}, 200, None),
        ],
    )
    check(client, "PUT", api + "/surveys/nope", [*raw, ({"answers": {}}, 404, "unknown_survey")])
    check(
        client,
        "POST",
        api + "/end",
        [
            *raw,
            ({}, 400, "invalid_field"),
            ({"outcome": "bored"}, 400, "invalid_field"),
            ({"outcome": ["no_consent"]}, 400, "invalid_field"),
            ({"outcome": "no_consent", "why": "x"}, 400, "unknown_field"),
            ({"outcome": "no_consent"}, 409, "consent_given"),
            ({"outcome": "experiment_error"}, 409, "no_experiment_error"),
        ],
    )


@pytest.fixture
def own_client(tmp_path):
    with jspsych_app(tmp_path, own=(EXPERIMENT, 1)) as app:
        yield app.test_client()


def nested(depth):
    value = 1
    for _ in range(depth):
        value = [value]
    return value


def row_cases():
    valid = {"trial_id": "row-0001-abcd", "row": {"rt": 812, "trial_index": 0}, "client_time": None}
    return [
        ({**valid, "trial_index": 0}, 400, "unknown_field"),
        ({**valid, "trial_id": "short"}, 400, "invalid_field"),
        ({k: v for k, v in valid.items() if k != "trial_id"}, 400, "invalid_field"),
        ({**valid, "row": None}, 422, "invalid_response"),
        ({**valid, "row": [1]}, 422, "invalid_response"),
        ({**valid, "row": {"x": "\ud800"}}, 422, "invalid_response"),
        (('{"trial_id": "row-0001-abcd", "row": {"x": NaN}}', None), 422, "invalid_response"),
        (('{"trial_id": "row-0001-abcd", "row": {"x": 1e400}}', None), 422, "invalid_response"),
        ({**valid, "row": {"x": "y" * 70_000}}, 413, "row_too_large"),
        ({**valid, "row": {"x": nested(40)}}, 422, "invalid_response"),
        ({**valid, "events": "x"}, 422, "invalid_events"),
        ({**valid, "events": [{"t": -1, "type": "blur"}]}, 422, "invalid_events"),
        ({**valid, "replay": {"draws": -1}}, 400, "invalid_field"),
        ({**valid, "replay": {"draws": 1, "more": 2}}, 400, "invalid_field"),
        ({**valid, "replay": {"draws": 2**53}}, 400, "invalid_field"),
        ({**valid, "replay": 3}, 400, "invalid_field"),
        ({**valid, "client_time": "soon"}, 400, "invalid_field"),
        ({**valid, "client_time": ["2026-11-22"]}, 400, "invalid_field"),
        # several bad parts: main named the first it checked
        ({**valid, "more": 1, "trial_id": 5}, 400, "unknown_field"),
        ({**valid, "trial_id": 5, "row": 5}, 400, "invalid_field"),
        ({**valid, "row": 5, "events": 5, "replay": 5, "client_time": "x"}, 422, "invalid_response"),
        ({**valid, "events": 5, "replay": 5, "client_time": "x"}, 422, "invalid_events"),
        ({**valid, "replay": 5, "client_time": "x"}, 400, "invalid_field"),
        ({**valid, "replay": {"draws": 3}, "events": [{"t": 1, "type": "blur"}]}, 201, None),
    ]


def test_own_experiment_refusals(own_client):
    client = own_client
    token = enter(client, slug="own")
    api = f"/api/sessions/{token}"
    raw = [(body, status, code) for body, (status, code) in zip(RAW, RAW_REFUSALS, strict=True)]
    check(client, "POST", api + "/rows", [*raw, *row_cases()])
    check(
        client,
        "POST",
        api + "/replay-diverged",
        [
            *raw,
            ({"trial_index": 1, "fields": ["rt"], "x": 1}, 400, "unknown_field"),
            ({"fields": ["rt"]}, 400, "invalid_field"),
            ({"trial_index": -1, "fields": ["rt"]}, 400, "invalid_field"),
            ({"trial_index": 2**53, "fields": ["rt"]}, 400, "invalid_field"),
            ({"trial_index": 1}, 400, "invalid_field"),
            ({"trial_index": 1, "fields": []}, 400, "invalid_field"),
            ({"trial_index": 1, "fields": ["x"] * 51}, 400, "invalid_field"),
            ({"trial_index": 1, "fields": [""]}, 400, "invalid_field"),
            ({"trial_index": 1, "fields": ["a\nb"]}, 400, "invalid_field"),
            ({"trial_index": 1, "fields": ["x" * 201]}, 400, "invalid_field"),
            ({"trial_index": 1, "fields": [1]}, 400, "invalid_field"),
            ({"trial_index": -1, "fields": []}, 400, "invalid_field"),
        ],
    )
    check(
        client,
        "POST",
        api + "/experiment-error",
        [
            *raw,
            ({"message": "m", "fatal": False, "x": 1}, 400, "unknown_field"),
            ({"fatal": False}, 400, "invalid_field"),
            ({"message": "", "fatal": False}, 400, "invalid_field"),
            ({"message": "m" * 1001, "fatal": False}, 400, "invalid_field"),
            ({"message": "m\x00", "fatal": False}, 400, "invalid_field"),
            ({"message": "m", "stack": "", "fatal": False}, 400, "invalid_field"),
            ({"message": "m", "stack": "s" * 8001, "fatal": False}, 400, "invalid_field"),
            ({"message": "m", "trial_index": -1, "fatal": False}, 400, "invalid_field"),
            ({"message": "m", "trial_index": 2**31, "fatal": False}, 400, "invalid_field"),
            ({"message": "m", "trial_index": "1", "fatal": False}, 400, "invalid_field"),
            ({"message": "m"}, 400, "invalid_field"),
            ({"message": "m", "fatal": 1}, 400, "invalid_field"),
            ({"message": 5, "stack": 5, "trial_index": -1, "fatal": 1}, 400, "invalid_field"),
        ],
    )
    check(
        client,
        "POST",
        api + "/timeline-finished",
        [
            *raw,
            ({"ended_early": True, "x": 1}, 400, "unknown_field"),
            ({"ended_early": 1}, 400, "invalid_field"),
            ({"ended_early": None}, 400, "invalid_field"),
            ({"message": "bye"}, 400, "invalid_field"),
            ({"ended_early": False, "message": "bye"}, 400, "invalid_field"),
            ({"ended_early": True, "message": 5}, 400, "invalid_field"),
            ({"ended_early": True, "message": "m" * 4001}, 400, "invalid_field"),
            ({"ended_early": True, "message": "a\x07b"}, 400, "invalid_field"),
            ({"ended_early": 1, "message": 5}, 400, "invalid_field"),
        ],
    )
