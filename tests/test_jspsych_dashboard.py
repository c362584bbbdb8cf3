"""The researcher dashboard for a researcher's own jsPsych experiment (issue #24): its sessions' plans are empty, so
"timeline finished" is the page's signal, not "at least one row"; the participants list and page count
rows (not "N of 0 trials") and show a session's flag (too_few_rows: the timeline finished short of min_rows)."""

from __future__ import annotations

import re
import uuid

import pytest

from server.db import db
from server.models import ParticipantSession
from tests.helpers import enter
from tests.jspsych_study import EXPERIMENT, jspsych_app


@pytest.fixture
def app(tmp_path):
    with jspsych_app(tmp_path, own=(EXPERIMENT, 3)) as app:
        yield app


def post_rows(client, token, n):
    for i in range(n):
        row = {"trial_type": "html-button-response", "trial_index": i, "rt": 600}
        body = {"trial_id": str(uuid.uuid4()), "row": row}
        assert client.post(f"/api/sessions/{token}/rows", json=body).status_code == 201


def session_id(token) -> int:
    db.session.rollback()
    return db.session.scalars(db.select(ParticipantSession.id).filter_by(token=token)).one()


def cell(html: str, step: str) -> int:
    return int(re.search(rf'data-step="{step}">(\d+)<', html).group(1))


def test_finished_is_the_timeline_signal_and_the_flag_is_shown(client, auth):
    started = enter(client, slug="own")  # rows stored, timeline still running
    post_rows(client, started, 2)
    short = enter(client, slug="own")  # timeline finished with 1 row of the 3 needed: flagged, not completed
    post_rows(client, short, 1)
    assert client.post(f"/api/sessions/{short}/timeline-finished", json={}).status_code == 200
    assert client.post(f"/api/sessions/{short}/complete", json={}).get_json()["error"] == "too_few_rows"
    done = enter(client, slug="own")
    post_rows(client, done, 3)
    assert client.post(f"/api/sessions/{done}/timeline-finished", json={}).status_code == 200
    assert client.post(f"/api/sessions/{done}/complete", json={}).status_code == 200

    auth.login()
    html = client.get("/researcher/studies/own/").get_data(as_text=True)
    steps = ("entered", "consented", "first row", "timeline finished", "completed")  # issue #36 row 14
    assert [cell(html, s) for s in steps] == [3, 3, 3, 2, 1]
    assert "timeline finished: the experiment said its timeline finished" in html

    listing = client.get("/researcher/studies/own/participants").get_data(as_text=True)
    table_rows = {
        int(m.group(1)): m.group(0) for m in re.finditer(r'participants/(\d+)">\d+</a>.*?</tr>', listing, re.S)
    }
    assert "<th>Rows</th>" in listing and " / 0<" not in listing
    assert '<td class="num">2</td>' in table_rows[session_id(started)]
    assert '<td class="session-flag flag">too_few_rows</td>' in table_rows[session_id(short)]
    assert '<td class="session-flag"></td>' in table_rows[session_id(done)]
    assert '<td class="session-flag"></td>' in table_rows[session_id(started)]

    page = client.get(f"/researcher/studies/own/participants/{session_id(short)}").get_data(as_text=True)
    assert '<span id="stored">1 rows stored</span>' in page and "of 0 trials" not in page
    assert '<strong class="flag" id="session-flag">too_few_rows</strong>' in page and "timeline finished 20" in page
    page = client.get(f"/researcher/studies/own/participants/{session_id(started)}").get_data(as_text=True)
    assert '<span id="stored">2 rows stored</span>' in page and "timeline not finished" in page
    assert 'id="session-flag"' not in page


def test_a_flagged_session_that_completes_once_its_rows_arrive_loses_the_flag(client):
    """Rows still queued offline may arrive after a refused completion: the later completion stands, unflagged."""
    late = enter(client, slug="own")
    post_rows(client, late, 1)
    assert client.post(f"/api/sessions/{late}/timeline-finished", json={}).status_code == 200
    assert client.post(f"/api/sessions/{late}/complete", json={}).get_json()["error"] == "too_few_rows"
    assert db.session.get(ParticipantSession, session_id(late)).flag == "too_few_rows"
    post_rows(client, late, 2)
    assert client.post(f"/api/sessions/{late}/complete", json={}).status_code == 200
    person = db.session.get(ParticipantSession, session_id(late))
    assert (person.status, person.flag) == ("completed", None)
