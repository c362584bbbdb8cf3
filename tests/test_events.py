"""Interaction records (issue #25 item 4; docs/participant-api.md "Interaction records"): a trial's `events` are
checked and stored with it in one INSERT, refused whole when malformed (422) or over the caps (413) with nothing
stored, optional for pages that send none, and exported one row each as events.csv, formula-safe."""

from __future__ import annotations

import csv
import json

import pytest

from server.db import db
from server.models import ParticipantSession, Trial
from server.tasktype.events import EVENT_TYPES, MAX_BYTES, MAX_EVENTS
from tests.helpers import enter, trial_body

VISIT = [
    {"t": 0, "type": "resize", "target": None, "value": "1280x720"},
    {"t": 900, "type": "input", "target": "percent", "value": "4"},
    {"t": 1000, "type": "input", "target": "percent", "value": "42"},
    {"t": 1500, "type": "hidden", "target": None, "value": None},
    {"t": 4500, "type": "visible"},  # target and value may be left out: stored as null
]


def plan(client, token):
    return client.get(f"/api/sessions/{token}").get_json()["plan"]


def save(client, token, item, events, **extra):
    return client.post(f"/api/sessions/{token}/trials", json=trial_body(item, events=events, **extra))


def stored_events(token):
    db.session.rollback()
    return db.session.scalars(
        db.select(Trial.events).join(ParticipantSession).where(ParticipantSession.token == token).order_by(Trial.id)
    ).all()


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_events_are_stored_with_the_trial_and_old_pages_need_none(client):
    token = enter(client)
    items = plan(client, token)
    assert save(client, token, items[0], VISIT).status_code == 201
    assert save(client, token, items[1], []).status_code == 201  # recorded, nothing happened
    assert client.post(f"/api/sessions/{token}/trials", json=trial_body(items[2])).status_code == 201  # no field
    first, empty, none = stored_events(token)
    assert first[:4] == VISIT[:4] and first[4] == {"t": 4500, "type": "visible", "target": None, "value": None}
    assert (empty, none) == ([], None)
    db.session.rollback()
    # The page sent none: SQL NULL, not JSON null, so "not recorded" is told apart from "recorded nothing".
    unrecorded = db.select(db.func.count()).where(Trial.events.is_(None))
    assert db.session.scalar(unrecorded) == 1


@pytest.mark.parametrize(
    ("events", "index", "words"),
    [
        ([{"t": 1, "type": "hidden"}, {"t": -1, "type": "visible"}], 1, "t must be"),
        ([{"t": 1.5, "type": "hidden"}], 0, "t must be"),
        ([{"t": True, "type": "hidden"}], 0, "t must be"),
        ([{"t": 86_400_001, "type": "hidden"}], 0, "t must be"),
        ([{"t": 1, "type": "scroll"}], 0, "type must be one of"),
        ([{"t": 1, "type": "input", "target": "x" * 65}], 0, "target must be"),
        ([{"t": 1, "type": "input", "target": "a\nb"}], 0, "target must be"),
        ([{"t": 1, "type": "input", "value": 42}], 0, "value must be"),
        ([{"t": 1, "type": "input", "value": "x" * 201}], 0, "value must be"),
        ([{"t": 1, "type": "input", "value": "a\x00b"}], 0, "value must be"),
        ([{"t": 1, "type": "input", "value": "a\ud800b"}], 0, "value must be"),  # UTF-8 cannot write it
        ([{"t": 1, "type": "hidden", "extra": 1}], 0, "unknown key"),
        (["hidden"], 0, "must be an object"),
    ],
)
def test_a_malformed_event_is_named_and_nothing_is_stored(client, events, index, words):
    token = enter(client)
    response = save(client, token, plan(client, token)[0], events)
    body = response.get_json()
    assert response.status_code == 422 and body["error"] == "invalid_events", body
    assert body["index"] == index and f"events[{index}]" in body["message"] and words in body["message"]
    assert stored_events(token) == []


def test_events_must_be_a_list(client):
    token = enter(client)
    response = save(client, token, plan(client, token)[0], {"t": 1, "type": "hidden"})
    assert response.status_code == 422 and response.get_json()["error"] == "invalid_events"
    assert stored_events(token) == []


def test_events_over_the_caps_are_refused_whole(client):
    token = enter(client)
    item = plan(client, token)[0]
    at_cap = [{"t": i, "type": "focus"} for i in range(MAX_EVENTS)]
    too_many = [*at_cap, {"t": MAX_EVENTS, "type": "focus"}]
    response = save(client, token, item, too_many)
    assert response.status_code == 413 and response.get_json()["error"] == "events_too_large"
    # 100 events of about 190 bytes each: within the count, over the bytes.
    long = [{"t": i, "type": "input", "target": "guess1", "value": "x" * 150} for i in range(100)]
    assert len(json.dumps(long, separators=(",", ":"))) > MAX_BYTES
    response = save(client, token, item, long)
    assert response.status_code == 413 and "KB" in response.get_json()["message"]
    # A lone surrogate does not hide the bytes from the cap (it cannot be encoded as UTF-8 to count them).
    assert save(client, token, item, [{**e, "value": e["value"] + "\ud800"} for e in long]).status_code == 413
    assert stored_events(token) == []
    # Exactly at the count cap (and within the bytes), ending the way a page trims: stored.
    trimmed = [*at_cap[:-1], {"t": 499, "type": "truncated", "target": None, "value": "12"}]
    assert len(json.dumps(trimmed, separators=(",", ":"))) <= MAX_BYTES
    assert save(client, token, item, trimmed).status_code == 201
    assert len(stored_events(token)[0]) == MAX_EVENTS


def test_a_repeat_keeps_the_first_events(client):
    token = enter(client)
    item = plan(client, token)[0]
    body = trial_body(item, events=VISIT[:2])
    assert client.post(f"/api/sessions/{token}/trials", json=body).status_code == 201
    repeat = client.post(f"/api/sessions/{token}/trials", json={**body, "events": VISIT})
    assert repeat.status_code == 200 and repeat.get_json()["duplicate"] is True
    assert stored_events(token) == [VISIT[:2]]


def test_events_csv_has_one_row_per_event_formula_safe_and_described(client, runner, tmp_path):
    token = enter(client)
    items = plan(client, token)
    formula = [{"t": 10, "type": "key", "target": "=cmd", "value": "=HYPERLINK(1)"}]
    assert save(client, token, items[0], VISIT).status_code == 201
    assert save(client, token, items[1], formula).status_code == 201
    assert client.post(f"/api/sessions/{token}/trials", json=trial_body(items[2])).status_code == 201
    result = runner.invoke(args=["export", "study3", "--out", str(tmp_path)])
    assert result.exit_code == 0 and "events.csv: 6 rows" in result.output, result.output
    rows = read_csv(tmp_path / "events.csv")
    session_id = str(db.session.scalar(db.select(ParticipantSession.id).filter_by(token=token)))
    assert list(rows[0]) == [
        "participant_id",
        "participant_code",
        "stage",
        "trial_index",
        "stimulus_id",
        "event_index",
        "t_ms",
        "type",
        "target",
        "value",
    ]
    first = [r for r in rows if r["trial_index"] == str(items[0]["index"])]
    assert [(r["event_index"], r["t_ms"], r["type"], r["target"], r["value"]) for r in first] == [
        ("0", "0", "resize", "", "1280x720"),
        ("1", "900", "input", "percent", "4"),
        ("2", "1000", "input", "percent", "42"),
        ("3", "1500", "hidden", "", ""),
        ("4", "4500", "visible", "", ""),
    ]
    assert {(r["participant_id"], r["stimulus_id"]) for r in first} == {(session_id, items[0]["stimulus_id"])}
    assert {r["stage"] for r in rows} == {db.session.scalar(db.select(ParticipantSession.stage))}
    (key,) = [r for r in rows if r["type"] == "key"]
    assert (key["target"], key["value"]) == ("'=cmd", "'=HYPERLINK(1)")
    book = {r["column"]: r for r in read_csv(tmp_path / "codebook.csv") if r["file"] == "events.csv"}
    assert list(book) == list(rows[0])
    assert all(EVENT_TYPES[i] in book["type"]["description"] for i in range(len(EVENT_TYPES)))
    assert "leading '" in book["value"]["description"] and "leading '" not in book["t_ms"]["description"]


def test_preview_sessions_are_left_out_of_events_csv(client, runner, tmp_path):
    token = enter(client)
    item = plan(client, token)[0]
    assert save(client, token, item, VISIT).status_code == 201
    db.session.execute(db.update(ParticipantSession).values(preview=True))
    db.session.commit()
    assert runner.invoke(args=["export", "study3", "--out", str(tmp_path)]).exit_code == 0
    assert read_csv(tmp_path / "events.csv") == []


def test_the_dashboard_offers_events_csv(client, auth, runner, tmp_path):
    token = enter(client)
    assert save(client, token, plan(client, token)[0], VISIT).status_code == 201
    assert runner.invoke(args=["export", "study3", "--out", str(tmp_path)]).exit_code == 0
    auth.login()
    assert "events.csv" in client.get("/researcher/studies/study3/").get_data(as_text=True)
    download = client.get("/researcher/studies/study3/events.csv")
    assert download.status_code == 200
    assert download.get_data(as_text=True) == (tmp_path / "events.csv").read_text(encoding="utf-8")
