"""Faults participants survive with nothing lost or doubled: an app-server worker killed with SIGKILL mid-run, a
double-clicked Next, and two tabs of one participant. (The network dropping mid-study is in test_e2e_study3.py; a
whole minute offline, PostgreSQL restarting, and 200–1,000 participants are in `make bench-load`.)"""

from __future__ import annotations

import asyncio
import os
import signal
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import expect

from bench.load import client as load_client
from bench.load.setup import Server, verify
from server.db import db
from server.models import ParticipantSession, Trial
from tests.helpers import PROLIFIC
from tests.test_e2e_study3 import COMPLETION, answer, stored


def start(page, url):
    """Open the entry link and go through consent, demographics and the instructions to the first trial."""
    page.context.route("https://app.prolific.com/**", lambda route: route.fulfill(status=200, body="Prolific"))
    page.goto(url)
    page.get_by_role("button", name="I agree").click()
    page.locator("input[name=gender][value=female]").check()
    page.locator("input[name=age]").fill("41")
    page.locator("input[name=education][value=masters]").check()
    page.locator("input[name=nationality]").fill("Kenyan")
    page.get_by_role("button", name="Continue").click()
    for _ in range(2):
        page.get_by_role("button", name="Next >").click()


def entry_url(base, pid=PROLIFIC["PROLIFIC_PID"]):
    return f"{base}/study/study3?PROLIFIC_PID={pid}&STUDY_ID=s&SESSION_ID=x"


def test_participants_survive_a_worker_killed_mid_run(app):
    """The production app server (granian through deploy/granian.sh, 2 workers) on the test database; one worker gets
    SIGKILL while 12 participants save. Their clients retry as sync.js does; every acknowledged trial is stored once
    and all finish, and the server still shuts down (its respawned worker once ignored SIGTERM)."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    with Server(url, workers=2) as server:
        victims = []

        async def kill_a_worker_when_saves_flow(tally):
            while len(tally.acknowledged) < 60:
                await asyncio.sleep(0.05)
            victims.append(server.busiest_worker())
            os.kill(victims[0], signal.SIGKILL)

        async def run():
            tally = load_client.Tally()
            killer = asyncio.create_task(kill_a_worker_when_saves_flow(tally))
            await load_client.crowd(server.base, 12, 0.5, "killed-", tally=tally)
            await killer
            return tally

        # In a thread of its own: the session's Playwright browser may hold this thread's event loop.
        with ThreadPoolExecutor(1) as thread:
            tally = thread.submit(asyncio.run, run()).result()
    check = verify(url, tally)
    assert victims and tally.errors == []  # requests the kill cut off were retried (how many varies)
    assert tally.started == tally.completed == check["completed"] >= 12
    assert len(tally.acknowledged) == 30 * tally.completed
    assert (check["lost"], check["duplicated"]) == (0, 0)


def test_double_clicked_next_stores_one_answer_and_skips_nothing(app, live_server, page):
    start(page, entry_url(live_server))
    for index in range(5):
        answer(page, index, practice=True)
    page.get_by_role("button", name="Start").click()
    for index in range(5, 30):
        expect(page.locator(".sh-ratio-form button")).to_be_enabled()
        page.locator("#sh-ratio-input").fill(str(10 + index))
        page.locator(".sh-ratio-form button").dblclick()
    page.wait_for_url(COMPLETION, timeout=60_000)
    assert [(t.trial_index, t.response["percent"]) for t in stored()] == [(i, 10.0 + i) for i in range(30)]


def test_two_tabs_of_one_participant_keep_the_first_answer(app, live_server, page):
    start(page, entry_url(live_server))
    for index in range(5):
        answer(page, index, practice=True)
    page.get_by_role("button", name="Start").click()
    for index in range(5, 8):
        answer(page, index, practice=False)
    second = page.context.new_page()  # same browser profile: same localStorage, same link
    second.goto(entry_url(live_server))
    second.get_by_role("button", name="Continue").click()  # "Welcome back": resumes at trial 8
    answer(page, 8, practice=False)  # 18 % in the first tab …
    expect(second.locator(".sh-ratio-form button")).to_be_enabled()
    second.locator("#sh-ratio-input").fill("99")  # … then 99 % for the same trial in the second
    second.locator(".sh-ratio-form button").click()
    page.bring_to_front()  # as the participant going back to the first tab: a hidden tab's timers are throttled
    for index in range(9, 30):
        answer(page, index, practice=False)
    page.wait_for_url(COMPLETION, timeout=60_000)
    trials = stored()
    assert [t.trial_index for t in trials] == list(range(30))
    assert trials[8].response["percent"] == 18.0
    assert db.session.scalars(db.select(ParticipantSession)).one().status == "completed"
    assert db.session.scalar(db.select(db.func.count()).select_from(Trial)) == 30
