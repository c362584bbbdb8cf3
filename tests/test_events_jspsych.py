"""Interaction records of a researcher's jsPsych experiment (issue #25 item 4): each row may carry `events` (jsPsych's
own interaction data and visibility changes, from runtime.js), checked as a planned trial's are, stored with the
row, and exported in events.csv under the row's saved_seq."""

from __future__ import annotations

import csv
import uuid

import pytest
from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession, Trial
from tests.helpers import enter
from tests.jspsych_study import EXPERIMENT, jspsych_app
from tests.test_events_browser import emulate_visibility
from tests.test_jspsych_browser import answer, experiment_frame, rows_arrive, start

EVENTS = [
    {"t": 120, "type": "blur", "target": None, "value": None},
    {"t": 125, "type": "hidden", "target": None, "value": None},
    {"t": 2125, "type": "visible", "target": None, "value": None},
    {"t": 2130, "type": "focus", "target": None, "value": None},
]


@pytest.fixture
def app(tmp_path):
    with jspsych_app(tmp_path, own=EXPERIMENT) as app:
        yield app


def post_row(client, token, n, **extra):
    body = {"trial_id": str(uuid.uuid4()), "row": {"trial_type": "html-button-response", "trial_index": n, "rt": 900}}
    return client.post(f"/api/sessions/{token}/rows", json={**body, **extra})


def stored(token):
    db.session.rollback()
    query = db.select(Trial.trial_index, Trial.events).join(ParticipantSession).where(ParticipantSession.token == token)
    return db.session.execute(query.order_by(Trial.trial_index)).all()


def test_rows_carry_events_checked_stored_and_exported(client, runner, tmp_path):
    token = enter(client, slug="own")
    assert post_row(client, token, 0, events=EVENTS).status_code == 201
    assert post_row(client, token, 1).status_code == 201  # a runtime from before interaction records
    refused = post_row(client, token, 2, events=[{"t": 5, "type": "fullscreenexit"}])  # jsPsych's name, not ours
    assert refused.status_code == 422 and refused.get_json()["index"] == 0
    too_many = post_row(client, token, 2, events=[{"t": 5, "type": "focus"}] * 501)
    assert too_many.status_code == 413 and too_many.get_json()["error"] == "events_too_large"
    (first, events), (second, none) = stored(token)
    assert events == EVENTS and none is None

    assert runner.invoke(args=["export", "own", "--out", str(tmp_path)]).exit_code == 0
    with open(tmp_path / "events.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["trial_index"], r["stimulus_id"], r["type"], r["t_ms"]) for r in rows] == [
        (str(first), "", e["type"], str(e["t"])) for e in EVENTS
    ]
    with open(tmp_path / "trials.csv", newline="") as fh:
        assert str(first) in [t["saved_seq"] for t in csv.DictReader(fh)]


def test_a_row_at_its_limit_still_takes_events_at_theirs(client):
    """The body allowance of /rows covers the events cap, so a full row with full events is not cut off as too big."""
    token = enter(client, slug="own")
    events = [{"t": i, "type": "input", "target": "response", "value": "x" * 150} for i in range(75)]
    row = {"trial_type": "survey-text", "text": "y" * 60_000}
    body = {"trial_id": str(uuid.uuid4()), "row": row, "events": events}
    response = client.post(f"/api/sessions/{token}/rows", json=body)
    assert response.status_code == 201, response.get_json()
    assert len(stored(token)[0].events) == 75


def test_the_runtime_sends_jspsych_interaction_data_and_visibility_with_each_row(page, live_server):
    """In Chromium: a tab switch during a word of the experiment reaches that row's events, jsPsych's own blur and
    focus (renamed) among them; visibility is emulated as in tests/test_events_browser.py (Playwright keeps pages
    visible)."""
    token = start(page, live_server, "own")
    frame = page.frame_locator("#studyhive-experiment")
    frame.get_by_role("button", name="Begin").click()
    expect(frame.locator(".word")).to_be_visible()
    page.context.new_cdp_session(page).send("Emulation.setFocusEmulationEnabled", {"enabled": False})
    experiment = experiment_frame(page)
    other = page.context.new_page()
    other.bring_to_front()
    emulate_visibility(experiment, "hidden")
    page.bring_to_front()
    experiment.evaluate("window.focus()")  # bringing the tab back focuses the page; the frame had the focus
    emulate_visibility(experiment, "visible")
    other.close()
    answer(frame, "left")
    rows = rows_arrive(page, token, 2)
    db.session.rollback()
    begin, word = db.session.scalars(
        db.select(Trial.events).join(ParticipantSession).where(ParticipantSession.token == token).order_by(Trial.id)
    ).all()[:2]
    types = [e["type"] for e in word]
    assert {"blur", "focus", "hidden", "visible"} <= set(types), word
    assert types.index("hidden") < types.index("visible") and begin is not None and len(rows) == 2
    assert all(e["t"] >= 0 and e["target"] is None for e in word)
