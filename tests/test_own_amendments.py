"""Fields a researcher's jsPsych experiment adds to rows it had recorded (POST /row-amendments; runtime.js watchData):
set on the stored rows from first_trial_id to trial_id (jsPsych.data.addProperties after the first rows: every row the
page holds; addDataToLastTrial: the last), as jsPsych changes the rows it holds. Through the API: what changes and
what does not, a repeat, each refusal writing nothing, the platform ids stored as markers, a formula kept out of the
CSV, the trials' rt_ms following a changed rt. tests/test_own_amendments_browser.py runs experiments that call both in
Chromium (jsPsych 6 and 8), reloads included."""

from __future__ import annotations

import csv
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.db import db
from server.models import Trial
from server.web.openapi import PATHS
from tests.helpers import enter
from tests.jspsych_study import EXPERIMENT, jspsych_app
from tests.test_fuzz_api import FUZZ, json_values, junk, odd_text
from tests.test_jspsych_browser import stored_rows
from tests.test_openapi import check_answer, doc  # noqa: F401 (doc: the fixture check_answer reads)

PID = "5f0a1b2c3d4e5f6a7b8c9d0e"


@pytest.fixture
def app(tmp_path):
    with jspsych_app(tmp_path, own=(EXPERIMENT, 1)) as app:
        yield app


def post_rows(client, token, *rows):
    for n, row in enumerate(rows):
        response = client.post(f"/api/sessions/{token}/rows", json={"trial_id": row_id(token, n), "row": row})
        assert response.status_code == 201, response.get_json()


def row_id(token, n):
    return f"{token[:8]}-row-{n:03d}"


def amend(client, token, n, properties, first=None, **extra):
    """Amend the rows `first`…`n` (the row `n` alone without `first`)."""
    body = {"trial_id": row_id(token, n), "properties": properties, **extra}
    if first is not None:
        body["first_trial_id"] = row_id(token, first)
    return client.post(f"/api/sessions/{token}/row-amendments", json=body)


def rows_as_stored():
    db.session.rollback()
    return [tuple(r) for r in db.session.execute(db.select(Trial.response, Trial.rt_ms).order_by(Trial.trial_index))]


def test_properties_reach_the_named_rows_and_no_other_and_a_repeat_changes_nothing(client):
    token = enter(client, slug="own")
    post_rows(client, token, {"trial_index": 0, "rt": 500}, {"trial_index": 1, "rt": 610}, {"trial_index": 2})

    late = amend(client, token, 1, {"subject": "p-17", "trial_index": 9}, first=0)
    assert late.status_code == 200 and late.get_json() == {"amended": 2}
    # as jsPsych's addToAll: each field set, one the row held overwritten; the row after the named one untouched
    assert stored_rows(token) == [
        {"trial_index": 9, "rt": 500, "subject": "p-17"},
        {"trial_index": 9, "rt": 610, "subject": "p-17"},
        {"trial_index": 2},
    ]
    again = amend(client, token, 1, {"subject": "p-17", "trial_index": 9}, first=0)
    assert again.status_code == 200 and again.get_json() == {"amended": 0}

    last = amend(client, token, 2, {"checked": True, "rt": 1234.6})  # addDataToLastTrial: that row alone
    assert last.status_code == 200 and last.get_json() == {"amended": 1}
    assert rows_as_stored() == [
        ({"trial_index": 9, "rt": 500, "subject": "p-17"}, 500),
        ({"trial_index": 9, "rt": 610, "subject": "p-17"}, 610),
        ({"trial_index": 2, "checked": True, "rt": 1234.6}, 1235),  # rt_ms follows the row's rt, as a saved row's
    ]
    assert client.get(f"/api/sessions/{token}/rows").get_json()["rows"][2]["row"]["checked"] is True
    # A page that restarted after a reload (resume = "restart") holds only its own rows: the rows before stay.
    assert amend(client, token, 2, {"block": 2}, first=1).get_json() == {"amended": 2}
    assert [row.get("block") for row in stored_rows(token)] == [None, 2, 2]


def test_every_refusal_changes_nothing(client, app):
    early = enter(client, slug="own", consent=False)
    refused = amend(client, early, 0, {"a": 1}, first=0)
    assert refused.status_code == 409 and refused.get_json()["error"] == "out_of_order"

    token = enter(client, slug="own")
    post_rows(client, token, {"trial_index": 0, "text": "x" * 40_000}, {"trial_index": 1})
    before = rows_as_stored()
    for properties, status, error, field in (
        (None, 400, "invalid_field", "properties"),
        ([1, 2], 400, "invalid_field", "properties"),
        ("subject", 400, "invalid_field", "properties"),
        ({"big": "y" * 70_000}, 413, "row_too_large", "properties"),
        # small by itself, but the first row would pass the study's row limit (64 KB) with it: neither row changes
        ({"more": "z" * 30_000}, 413, "row_too_large", "properties"),
        ({"n": 2**60}, 422, "invalid_response", "properties.n"),
        ({"t": "a\x00b"}, 422, "invalid_response", "properties.t"),
    ):
        answer = amend(client, token, 1, properties, first=0)
        assert (answer.status_code, answer.get_json()["error"]) == (status, error), properties
        assert answer.get_json()["field"] == field, properties
    for body, field in (
        ({"trial_id": "short", "properties": {}}, "trial_id"),
        ({"trial_id": row_id(token, 1), "first_trial_id": "short", "properties": {}}, "first_trial_id"),
        ({"trial_id": row_id(token, 1), "first_trial_id": 0, "properties": {}}, "first_trial_id"),
        ({"trial_id": row_id(token, 1), "properties": {}, "earlier": True}, "earlier"),
    ):
        answer = client.post(f"/api/sessions/{token}/row-amendments", json=body)
        assert answer.status_code == 400 and answer.get_json()["field"] == field, body
    nan = client.post(
        f"/api/sessions/{token}/row-amendments",
        data=f'{{"trial_id": "{row_id(token, 1)}", "properties": {{"x": NaN}}}}',
        content_type="application/json",
    )
    assert nan.status_code == 422 and nan.get_json()["field"] == "properties"
    unknown = amend(client, token, 7, {"a": 1})
    assert (unknown.status_code, unknown.get_json()["error"], unknown.get_json()["field"]) == (
        409,
        "row_not_stored",
        "trial_id",
    )
    unknown_first = amend(client, token, 1, {"a": 1}, first=7)
    assert (unknown_first.status_code, unknown_first.get_json()["field"]) == (409, "first_trial_id")
    reversed_ = amend(client, token, 0, {"a": 1}, first=1)
    assert reversed_.status_code == 422 and reversed_.get_json()["error"] == "rows_reversed"
    assert rows_as_stored() == before

    ended = client.post(f"/api/sessions/{token}/end", json={"outcome": "incompatible_device"})
    assert ended.status_code == 200, ended.get_json()
    after_end = amend(client, token, 1, {"a": 1}, first=0)
    assert after_end.status_code == 409 and after_end.get_json()["error"] == "session_ended"
    assert rows_as_stored() == before


def test_a_withdrawn_session_s_rows_stay_deleted(client, runner):
    token = enter(client, slug="own", PROLIFIC_PID=PID)
    post_rows(client, token, {"trial_index": 0})
    result = runner.invoke(args=["participants", "withdraw", "own", PID, "--reason", "asked by email"])
    assert result.exit_code == 0, result.output
    answer = amend(client, token, 0, {"a": 1}, first=0)
    assert answer.status_code == 410 and answer.get_json()["error"] == "session_withdrawn"
    assert stored_rows(token) == []


def test_the_platform_ids_are_stored_as_markers_and_no_formula_reaches_the_csv(client, runner, tmp_path):
    token = enter(client, slug="own", PROLIFIC_PID=PID)
    post_rows(client, token, {"trial_index": 0}, {"trial_index": 1})
    answer = amend(client, token, 1, {"subject": PID, "note": '=HYPERLINK("http://x")'}, first=0)
    assert answer.status_code == 200 and answer.get_json() == {"amended": 2}
    assert [row["subject"] for row in stored_rows(token)] == ["[PROLIFIC_PID]"] * 2
    assert PID not in str(stored_rows(token))
    client.post(f"/api/sessions/{token}/end", json={"outcome": "incompatible_device"})
    result = runner.invoke(args=["export", "own", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    with open(tmp_path / "out" / "trials.csv", newline="", encoding="utf-8") as fh:
        exported = list(csv.DictReader(fh))
    assert [row["subject"] for row in exported] == [exported[0]["participant_code"]] * 2
    assert {row["note"] for row in exported} == {'\'=HYPERLINK("http://x")'}


def test_the_documented_example_is_taken_and_answered_as_documented(client, doc):  # noqa: F811
    token = enter(client, slug="own")
    example = PATHS["/api/sessions/{token}/row-amendments"]["post"]["requestBody"]["content"]["application/json"]
    body = example["example"]
    stored = client.post(f"/api/sessions/{token}/rows", json={"trial_id": body["trial_id"], "row": {"trial_index": 0}})
    assert stored.status_code == 201
    answer = client.post(f"/api/sessions/{token}/row-amendments", json=body)
    check_answer(doc, "/api/sessions/{token}/row-amendments", "post", answer)
    assert answer.status_code == 200 and stored_rows(token) == [{"trial_index": 0, **body["properties"]}]


@FUZZ
@given(
    properties=st.dictionaries(odd_text | st.text(max_size=10), json_values, max_size=4) | junk,
    first=st.sampled_from([None, "row 0", "row 1"]) | junk,
)
def test_no_change_answers_a_5xx_and_a_refused_one_changes_nothing(client, properties, first):
    token = enter(client, slug="own")
    post_rows(client, token, {"trial_index": 0, "rt": 500}, {"trial_index": 1})
    before = stored_rows(token)
    body = {"trial_id": row_id(token, 1), "properties": properties}
    if first is not None:
        stored = {"row 0": row_id(token, 0), "row 1": row_id(token, 1)}
        body["first_trial_id"] = stored.get(first, first) if isinstance(first, str) else first
    data = json.dumps(body, allow_nan=True)
    answer = client.post(f"/api/sessions/{token}/row-amendments", data=data, content_type="application/json")
    assert answer.status_code < 500 and answer.is_json, answer.data
    if answer.status_code == 200:
        rows = stored_rows(token)
        changed = rows[:2] if first == "row 0" else rows[1:2]
        assert all(row[key] == value for row in changed for key, value in properties.items())
        json.dumps(rows, allow_nan=False)  # every reader's JSON
    else:
        assert set(answer.get_json()) >= {"error", "message"} and stored_rows(token) == before
