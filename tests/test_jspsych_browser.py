"""In Chromium: a researcher's jsPsych experiment run unchanged (issue #24). A participant goes through studyhive's
own consent page, then the experiment in its sandboxed frame; a reload in the middle and a stretch offline lose and
duplicate nothing: at the end the stored rows equal jsPsych.data one for one (the replayed ones included), the
experiment's own on_finish and debrief run, and Continue completes the session. Researcher script in the frame can
read neither a researcher page nor the page around it."""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession, Trial
from server.researchers.auth import create_researcher
from tests.jspsych_study import ABORTING, EXPERIMENT, EXPERIMENT7, HEAD, SNOOP, jspsych_app

OFFLINE_S = 30  # the "30 s offline": long enough for sync.js's retries to back off several times


def stay_offline(page, seconds: float = OFFLINE_S) -> None:
    """`seconds` of the page's time pass offline at once: its clock (Playwright's, installed before the page loaded,
    running at the real pace until now) runs every timer due in them (sync.js's retries backing off), so the test
    does not wait them out."""
    page.clock.run_for(int(seconds * 1000))


@pytest.fixture
def app(tmp_path):
    studies = {
        "own7": (EXPERIMENT7, 5),
        "again": (EXPERIMENT, 8, "restart"),
        "once": (EXPERIMENT, 8, "none"),
        "abort": (ABORTING, 1),
        "guarded": (GUARDED, 1),
    }
    with jspsych_app(tmp_path, own=EXPERIMENT, snoop=SNOOP, **studies) as app:
        yield app


# An experiment that guards its page against a participant leaving mid-task (kennethrioja/bl_tova does).
GUARDED = (
    HEAD
    + """<script>
  var jsPsych = initJsPsych();
  window.onbeforeunload = function () { return "Your answers will be lost."; };
  jsPsych.run([{type: jsPsychHtmlButtonResponse, stimulus: "<p>Welcome</p>", choices: ["Begin"]}]);
</script>
</html>
"""
)


def stored_rows(token):
    db.session.rollback()
    return list(
        db.session.scalars(
            db.select(Trial.response)
            .join(ParticipantSession)
            .where(ParticipantSession.token == token)
            .order_by(Trial.trial_index)
        )
    )


def rows_arrive(page, token, n, timeout=20.0):
    """The stored rows once there are n (the page sends them in the background), or those there are after `timeout`
    seconds: a generous bound, as a loaded CI machine can take seconds, and the wait ends when they are there."""
    deadline = time.monotonic() + timeout
    while len(rows := stored_rows(token)) < n and time.monotonic() < deadline:
        between_polls(page)
    return rows


def recorded_error(page, token, timeout=5.0, until=lambda error: error is not None):
    """The session's recorded error once `until` holds for it (the page posts it in the background), or as it is
    after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not until(error := session(token).experiment_error) and time.monotonic() < deadline:
        between_polls(page)
    return error


def between_polls(page):
    """A short wait in which the page goes on: Playwright's, not time.sleep. Playwright's sync API runs a page.route
    handler (only_this_server's) only while the test is inside one of its calls, so a request the page makes after
    the test's last call waits, unsent, through any time.sleep (CI once found 3 of 4 rows stored after 20 s)."""
    page.wait_for_timeout(50)


def session(token):
    db.session.rollback()
    return db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()


def start(page, live_server, slug, query=""):
    """Enter through studyhive's own page (browser check, consent) up to the experiment's page; the token."""
    page.goto(f"{live_server}/study/{slug}{query}")
    page.get_by_role("button", name="I agree").click()
    page.get_by_role("button", name="Start").click()
    page.wait_for_url("**/experiment")
    return page.url.split("/s/", 1)[1].split("/", 1)[0]


def experiment_frame(page):
    return next(f for f in page.frames if "/x/1/experiment.html" in f.url)


def answer(frame, button):
    """Answer the word on screen and wait for the next screen (each word is shown once, and none is part of another
    screen's text)."""
    word = frame.locator(".word").text_content()
    frame.get_by_role("button", name=button).click()
    expect(frame.locator("#jspsych-content")).not_to_contain_text(word)


def test_reload_and_offline_lose_and_duplicate_nothing(page, live_server, app):
    page.clock.install()
    token = start(page, live_server, "own")
    frame = page.frame_locator("#studyhive-experiment")
    frame.get_by_role("button", name="Begin").click()
    answer(frame, "left")
    answer(frame, "left")
    assert len(rows_arrive(page, token, 3)) == 3
    page.context.set_offline(True)
    answer(frame, "right")
    answer(frame, "right")
    expect(page.locator("#studyhive-notice")).to_contain_text("Connection lost")
    stay_offline(page)
    assert len(stored_rows(token)) == 3  # the two answered offline wait on this device
    page.context.set_offline(False)
    answer(frame, "left")  # the fifth word, then reload at once: it may still be queued
    page.reload()
    frame = page.frame_locator("#studyhive-experiment")
    answer(frame, "left")  # the sixth word: the first five were replayed
    expect(frame.locator("#debrief")).to_have_text("You answered 6 words.")
    frame.get_by_role("button", name="Done").click()
    expect(page.get_by_role("button", name="Continue")).to_be_visible()

    experiment = experiment_frame(page)
    data = experiment.evaluate("jsPsych.data.get().values()")
    rows = stored_rows(token)
    assert len(rows) == 8 and rows == json.loads(json.dumps(data))  # one for one, in order, none twice
    assert [r["trial_index"] for r in rows] == list(range(8))
    assert experiment.evaluate("document.body.getAttribute('data-own-finish')") == "yes"
    # the replayed words came in the order the seeded shuffle drew before the reload
    assert len({r["word"] for r in rows if r.get("task") == "word"}) == 6
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/results")
    assert session(token).status == "completed"


def test_researcher_script_cannot_read_researcher_pages(page, live_server, app):
    create_researcher("ada", "correct horse")
    page.goto(f"{live_server}/researcher/login")
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill("correct horse")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/researcher/**")
    start(page, live_server, "snoop")
    experiment = page.frame_locator("#studyhive-experiment")
    report = experiment.locator("body[data-report]")
    expect(report).to_have_count(1)
    found = json.loads(report.get_attribute("data-report"))
    # storage: the runtime's in-memory localStorage of the frame, empty: nothing of studyhive's page's own
    assert found == {"parent": "blocked", "cookie": "blocked", "storage": "0", "fetch": "blocked"}
    # opened on its own, the page is still sandboxed by its Content-Security-Policy
    page.goto(f"{live_server}/study/snoop/x/1/experiment.html")
    expect(page.locator("body[data-report]")).to_have_count(1)
    found = json.loads(page.locator("body").get_attribute("data-report"))
    assert found["fetch"] == "blocked" and found["cookie"] == "blocked"


def press(page, key):
    """Answer the word on screen by key and wait for the next screen."""
    frame = page.frame_locator("#studyhive-experiment")
    word = frame.locator(".word").text_content()
    frame.locator(".jspsych-display-element").press(key)
    expect(frame.locator("#jspsych-content")).not_to_contain_text(word)


def only_this_server(page, live_server):
    """Refuse every request to another host; the list of those asked for."""
    asked = []
    page.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(live_server)
            else (asked.append(route.request.url), route.abort())[1]
        ),
    )
    return asked


def test_jspsych7_from_a_cdn_resumes_and_ends_early_beside_jspsych8(page, live_server, app):
    """Only this server is reached (the CDN tags were pinned at sync); the jsPsych 8 study runs on the same server."""
    asked = only_this_server(page, live_server)
    token = start(page, live_server, "own7")
    frame = page.frame_locator("#studyhive-experiment")
    frame.locator("p", has_text="Press a key to begin").wait_for()
    frame.locator(".jspsych-display-element").press("f")
    press(page, "f")
    press(page, "j")
    page.reload()
    press(page, "f")  # the third word: the welcome and two words were replayed, in the seeded order
    press(page, "j")  # the fourth: its on_finish calls endExperiment
    expect(frame.locator("#ended")).to_have_text("Thank you")
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    experiment = experiment_frame(page)
    assert experiment.evaluate("jsPsych.version()").startswith("7.")
    data = experiment.evaluate("jsPsych.data.get().values()")
    rows = stored_rows(token)
    assert len(rows) == 5 and rows == json.loads(json.dumps(data))
    assert [r["correct"] for r in rows[1:]] == [True, False, True, False]
    assert experiment.evaluate("document.body.getAttribute('data-own-finish')") == "yes"
    # endExperiment is an early end: not a completion unless study.toml's [[task.endings]] say so (issue #36)
    page.get_by_role("button", name="Continue").click()
    expect(page.locator("#studyhive-notice")).to_have_text("You can close this page.")
    person = session(token)
    assert (person.status, person.outcome) == ("abandoned", "ended_early") and asked == []
    assert person.ending == {"ended_early": True, "message": "<p id='ended'>Thank you</p>"}

    other = start(page, live_server, "own")  # jsPsych 8 on the same server
    page.frame_locator("#studyhive-experiment").get_by_role("button", name="Begin").click()
    assert experiment_frame(page).evaluate("jsPsych.version()").startswith("8.")
    assert len(rows_arrive(page, other, 1)) == 1 and asked == []


def test_restart_starts_over_and_none_does_not_continue(page, live_server, app):
    token = start(page, live_server, "again")
    frame = page.frame_locator("#studyhive-experiment")
    frame.get_by_role("button", name="Begin").click()
    answer(frame, "left")
    rows_arrive(page, token, 2)
    page.reload()
    frame.get_by_role("button", name="Begin").click()  # from the start; what was stored stays
    answer(frame, "left")
    assert experiment_frame(page).evaluate("jsPsych.data.get().count()") == 2 and len(rows_arrive(page, token, 4)) == 4

    token = start(page, live_server, "once")
    frame.get_by_role("button", name="Begin").click()
    rows_arrive(page, token, 1)
    page.reload()
    expect(page.locator("#studyhive-notice")).to_contain_text("cannot be continued")
    expect(frame.locator("#jspsych-content")).to_have_count(0)  # run() waits for rows that never come
    assert len(stored_rows(token)) == 1


def test_abort_experiment_finishes_the_timeline_early(page, live_server, app):
    token = start(page, live_server, "abort")
    frame = page.frame_locator("#studyhive-experiment")
    frame.get_by_role("button", name="Begin").click()
    expect(frame.locator("#aborted")).to_have_text("Stopped early")
    page.get_by_role("button", name="Continue").click()
    expect(page.locator("#studyhive-notice")).to_have_text("You can close this page.")
    expect(page.get_by_role("button", name="Continue")).to_be_hidden()
    person = session(token)
    assert len(stored_rows(token)) == 1 and (person.status, person.outcome) == ("abandoned", "ended_early")
    assert person.ending == {"ended_early": True, "message": "<p id='aborted'>Stopped early</p>"}


def test_continue_leaves_without_the_experiments_leave_page_prompt(page, live_server, app):
    """The experiment's own onbeforeunload does not stop the participant at Continue: its frame is gone before
    studyhive's page leaves (a "Leave site?" prompt here, dismissed, left them before a disabled button)."""
    prompts = []
    page.on("dialog", lambda dialog: (prompts.append(dialog.type), dialog.dismiss()))
    token = start(page, live_server, "guarded")
    page.frame_locator("#studyhive-experiment").get_by_role("button", name="Begin").click()
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url(lambda url: not url.endswith("/experiment"))
    assert prompts == [] and session(token).status == "completed"
