"""The researcher dashboard for a researcher's own jsPsych experiment (issue #36 row 14): its funnel's steps say what
they count (first row, timeline finished, completed: not "practice done"), and the runs that need a look (ended early,
stranded, stopped by an error in the experiment's code, diverged on replay) are counted on the study page and marked
per participant in the list and on the participant's page."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest

from server.db import db, utcnow
from server.models import ParticipantSession
from tests.helpers import enter
from tests.jspsych_study import EXPERIMENT, jspsych_app


@pytest.fixture
def app(tmp_path):
    with jspsych_app(tmp_path, own=(EXPERIMENT, 2)) as app:
        yield app


def post_rows(client, token, n):
    for i in range(n):
        body = {"trial_id": str(uuid.uuid4()), "row": {"trial_type": "html-button-response", "trial_index": i}}
        assert client.post(f"/api/sessions/{token}/rows", json=body).status_code == 201


def person(token) -> ParticipantSession:
    db.session.rollback()
    return db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()


def change(token, **values):
    db.session.execute(db.update(ParticipantSession).filter_by(token=token).values(**values))
    db.session.commit()


def cell(html: str, attribute: str, name: str) -> int:
    return int(re.search(rf'{attribute}="{name}">(\d+)<', html).group(1))


def test_the_funnel_says_what_it_counts_and_runs_that_need_a_look_are_marked(client, auth):
    long_ago = utcnow() - timedelta(minutes=61)  # the study's abandon_after_minutes: 60 by default
    stranded = enter(client, slug="own")
    post_rows(client, stranded, 2)
    change(stranded, last_seen_at=long_ago)
    running = enter(client, slug="own")  # rows stored, still active: not stranded
    post_rows(client, running, 1)
    early = enter(client, slug="own")
    post_rows(client, early, 2)
    finished = {"ended_early": True, "message": "<p>Please return this study</p>"}
    assert client.post(f"/api/sessions/{early}/timeline-finished", json=finished).status_code == 200
    assert client.post(f"/api/sessions/{early}/complete", json={}).get_json()["outcome"] == "ended_early"
    failed = enter(client, slug="own")  # its code failed before any row (part D2 stores the error)
    change(failed, experiment_error={"message": "TypeError: x is undefined", "trial_index": 0}, last_seen_at=long_ago)
    diverged = enter(client, slug="own")  # completed, but a replayed row differed (part D1 stores it)
    post_rows(client, diverged, 2)
    assert client.post(f"/api/sessions/{diverged}/timeline-finished", json={}).status_code == 200
    assert client.post(f"/api/sessions/{diverged}/complete", json={}).status_code == 200
    change(diverged, replay_divergence={"row": 1})
    enter(client, slug="own", consent=False)

    auth.login()
    html = client.get("/researcher/studies/own/?stage=all").get_data(as_text=True)
    steps = ("entered", "consented", "first row", "timeline finished", "completed")
    assert [cell(html, "data-step", step) for step in steps] == [6, 5, 4, 2, 1]
    assert "practice done" not in html
    runs = ("ended_early", "stranded", "experiment_error", "replay_diverged")
    assert [cell(html, "data-run", run) for run in runs] == [1, 1, 1, 1]
    ids = {token: person(token).id for token in (stranded, running, early, failed, diverged)}
    shown = re.search(r'<li id="run-stranded">.*?</li>', html, re.S).group(0)
    assert f'participants/{ids[stranded]}"' in shown and f'participants/{ids[running]}"' not in shown

    listing = client.get("/researcher/studies/own/participants").get_data(as_text=True)
    marks = {
        int(m.group(1)): m.group(2)
        for m in re.finditer(r'participants/(\d+)">\d+</a>.*?<td class="run-marks[^"]*">(.*?)</td>', listing, re.S)
    }
    assert {sid: re.sub(r"<[^>]+>", "", text) for sid, text in marks.items() if text} == {
        ids[stranded]: "stranded",
        ids[early]: "ended_early",
        ids[failed]: "experiment_error",
        ids[diverged]: "replay_diverged",
    }

    page = client.get(f"/researcher/studies/own/participants/{ids[early]}").get_data(as_text=True)
    assert '<strong class="flag run-mark"' in page and ">ended_early</strong>" in page
    assert "with the message <code>&lt;p&gt;Please return this study&lt;/p&gt;</code>: outcome ended_early" in page
