"""A researcher previews a study in headless Chromium: the researcher bar jumps to trial 10, shows the row that save
would put in trials.csv, jumps to the last trial and completes; then nothing of it shows in any view a participant
counts in (exports, the analysis, the dashboard, condition occupancy, the cohort summary)."""

from __future__ import annotations

import csv
import random
import re

import pytest
from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession, Trial
from server.studies import conditions
from server.studies.definitions import get_study
from tests.helpers import take_study3_like_people
from tests.test_e2e_study3 import answer
from tests.test_preview import preview_url, studies_app


@pytest.fixture
def app(tmp_path):
    yield from studies_app(tmp_path)


def jump(page, target):
    bar = page.get_by_role("complementary", name="Researcher preview")
    bar.get_by_label("Jump to").select_option(target)
    bar.get_by_role("button", name="Jump").click()
    page.wait_for_url(re.compile(rf"/s/[^/]+#jump={target}$"))
    return page.url.split("#")[0].rsplit("/", 1)[1]


def session(token):
    db.session.rollback()  # read what the server thread committed
    return db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()


def test_a_preview_jumps_to_trial_10_and_leaves_no_trace(app, live_server, page, runner, client, auth, tmp_path):
    page.goto(live_server + preview_url(runner, "cond", "--condition", "full"))
    bar = page.get_by_role("complementary", name="Researcher preview")
    expect(bar).to_contain_text("not counted")
    expect(page.get_by_role("button", name="I agree")).to_be_visible()  # as a participant sees it

    first = jump(page, "trial-10")
    plan = session(first).plan
    expect(page.locator("#sh-ratio-input")).to_be_visible()
    answer(page, 10, practice=False)
    bar.get_by_text("Row that would be stored").click()
    row = bar.locator("table[data-trial-index='10']")
    expect(row).to_contain_text("trials.csv, trial 10")
    expect(row.locator("tr", has_text="stimulus_id")).to_contain_text(plan[10]["stimulus_id"])
    expect(row.locator("tr", has_text="response_percent")).to_contain_text("20")

    last = jump(page, "trial-29")
    assert last != first  # every jump starts a fresh preview session
    answer(page, 29, practice=False)
    page.wait_for_url(f"{live_server}/study/cond/s/{last}/results")
    previews = [session(first), session(last)]
    assert [p.preview for p in previews] == [True, True] and previews[1].status == "completed"
    stored = {
        p.id: sorted(db.session.scalars(db.select(Trial.trial_index).filter_by(session_id=p.id))) for p in previews
    }
    assert stored == {previews[0].id: [10], previews[1].id: [29]}

    # No trace in any view that counts participants: each is checked, then all are reported together (the filter
    # is models.analysable, wired into every view by issue #25's item 1).
    problems = []
    participant = take_study3_like_people(client, random.Random(7), slug="cond")
    cohort = client.get(f"/api/sessions/{participant}/summary").get_json()
    if cohort["cohort_size"] != 0:
        problems.append(f"cohort summary counts {cohort['cohort_size']} other participant(s), not 0")
    db.session.rollback()
    db.session.execute(db.delete(Trial).where(Trial.session_id == session(participant).id))
    db.session.execute(db.delete(ParticipantSession).where(ParticipantSession.token == participant))
    db.session.commit()

    assert runner.invoke(args=["export", "cond", "--out", str(tmp_path / "export")]).exit_code == 0
    for name in ("participants.csv", "trials.csv"):
        with open(tmp_path / "export" / name, newline="") as fh:
            rows = list(csv.DictReader(fh))
        if rows:
            problems.append(f"flask export: {name} has {len(rows)} row(s)")
    analysed = runner.invoke(args=["analyze", "cond", "--format", "json", "--n-boot", "200"])
    if analysed.exit_code == 0 or "no completed participants" not in analysed.output:
        problems.append("flask analyze analysed the previews")
    auth.login()
    dashboard = client.get("/researcher/studies/cond/").get_data(as_text=True)
    for counter in ("n-started", "n-completed"):
        shown = re.search(rf'id="{counter}">(\d+)<', dashboard).group(1)
        if shown != "0":
            problems.append(f"dashboard {counter} shows {shown}")
    occupancy = conditions.occupancy(get_study("cond"))
    if any(occupancy.values()):
        problems.append(f"condition occupancy {occupancy}")
    assert not problems, problems

    # The three previews (the link opened, then two jumps) go; nothing else is left to go.
    assert "deleted 3 session(s)" in runner.invoke(args=["sessions", "purge-previews", "--older-than", "0"]).output
