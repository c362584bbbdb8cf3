"""Replay after a reload of a researcher's jsPsych experiment (issue #36, rows 1 and 5), through the API: each row
keeps where the page's randomness stood (`replay`) and gives it back for the replay; a replay that diverged is
recorded on the session once (the first stands), refused when malformed, and shown on the participant page and in
participants.csv. The browser side is tests/test_own_replay_browser.py."""

from __future__ import annotations

import csv
import io
import uuid

import pytest

from server.db import db
from server.models import ParticipantSession, Trial
from server.results.export import snapshot_csv
from server.studies.definitions import get_study
from server.web.openapi import PATHS
from tests.helpers import enter
from tests.jspsych_study import EXPERIMENT, jspsych_app


@pytest.fixture
def app(tmp_path):
    with jspsych_app(tmp_path, own=(EXPERIMENT, 1)) as app:
        yield app


def post_row(client, token, **body):
    row = {"trial_type": "html-button-response", "trial_index": 0, "rt": 500}
    return client.post(f"/api/sessions/{token}/rows", json={"trial_id": str(uuid.uuid4()), "row": row, **body})


def diverged(client, token, body):
    return client.post(f"/api/sessions/{token}/replay-diverged", json=body)


def the_session(token) -> ParticipantSession:
    db.session.rollback()
    return db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()


def test_a_rows_replay_position_is_kept_and_given_back(client):
    token = enter(client, slug="own")
    assert post_row(client, token, replay={"draws": 17}).status_code == 201
    assert post_row(client, token).status_code == 201  # a page from before positions were recorded
    for bad in ({"draws": -1}, {"draws": 2**53}, {"draws": 1.5}, {"draws": True}, {"draws": 3, "x": 1}, [3], "3"):
        refused = post_row(client, token, replay=bad)
        assert refused.status_code == 400 and refused.get_json()["field"] == "replay", bad
    rows = client.get(f"/api/sessions/{token}/rows").get_json()["rows"]
    assert [r["replay"] for r in rows] == [{"draws": 17}, None]
    db.session.rollback()
    assert db.session.scalar(db.select(db.func.count()).select_from(Trial)) == 2  # nothing of the refused ones


def test_the_first_divergence_is_recorded_and_bad_ones_are_refused(client):
    token = enter(client, slug="own", consent=False)
    early = diverged(client, token, {"trial_index": 2, "fields": ["condition"]})
    assert early.status_code == 409 and early.get_json()["error"] == "out_of_order"
    token = enter(client, slug="own")
    for bad in (
        {"trial_index": 2},
        {"trial_index": -1, "fields": ["x"]},
        {"trial_index": "2", "fields": ["x"]},
        {"trial_index": 2, "fields": []},
        {"trial_index": 2, "fields": "condition"},
        {"trial_index": 2, "fields": ["x"] * 51},
        {"trial_index": 2, "fields": ["x" * 201]},
        {"trial_index": 2, "fields": ["\ud800"]},  # a lone surrogate: no database or export could hold it
        {"trial_index": 2, "fields": ["a\x00b"]},
        {"trial_index": 2, "fields": ["x"], "extra": 1},
    ):
        refused = diverged(client, token, bad)
        assert refused.status_code == 400, bad
    assert the_session(token).replay_divergence is None
    first = diverged(client, token, {"trial_index": 2, "fields": ["condition", "=HYPERLINK(1)"]})
    assert first.status_code == 200 and first.get_json() == {"recorded": True}
    later = diverged(client, token, {"trial_index": 5, "fields": ["word"]})
    assert later.status_code == 200 and later.get_json() == {"recorded": False}
    example = PATHS["/api/sessions/{token}/replay-diverged"]["post"]["requestBody"]["content"]["application/json"]
    assert diverged(client, token, example["example"]).get_json() == {"recorded": False}
    stored = the_session(token).replay_divergence
    assert stored["trial_index"] == 2 and stored["fields"] == ["condition", "=HYPERLINK(1)"]
    assert stored["recorded_at"].startswith("20")
    post_row(client, token)
    client.post(f"/api/sessions/{token}/timeline-finished", json={})
    assert client.post(f"/api/sessions/{token}/complete", json={}).status_code == 200
    ended = diverged(client, token, {"trial_index": 3, "fields": ["word"]})
    assert ended.status_code == 409 and ended.get_json()["error"] == "session_ended"


def test_the_participant_page_and_participants_csv_show_a_divergence(client, auth):
    token = enter(client, slug="own")
    other = enter(client, slug="own")
    diverged(client, token, {"trial_index": 4, "fields": ["condition"]})
    auth.login()
    page = client.get(f"/researcher/studies/own/participants/{the_session(token).id}").get_data(as_text=True)
    assert 'id="replay-divergence"' in page and "trial_index 4" in page and "(condition)" in page
    page = client.get(f"/researcher/studies/own/participants/{the_session(other).id}").get_data(as_text=True)
    assert 'id="replay-divergence"' not in page
    cells = {
        int(r["participant_id"]): r["replay_divergence"]
        for r in csv.DictReader(io.StringIO("".join(snapshot_csv(get_study("own"), "participants.csv"))))
    }
    assert cells[the_session(other).id] == ""
    assert (
        '"trial_index": 4' in cells[the_session(token).id] and '"fields": ["condition"]' in cells[the_session(token).id]
    )
