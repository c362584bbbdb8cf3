"""The demo study's experiment.html as a researcher wrote it, run by jsPsych 8.3.0 itself in Chromium (its unpkg
tags answered from static/vendor, every other host blocked, no studyhive runtime): it runs to its debrief, and the
rows jsPsych recorded become the columns, codebook and report studyhive exports for such a study. Then the same
page run by studyhive for a participant (issue #24's "Done when"): a reload and 30 s offline in the middle, and at
the end the stored rows are jsPsych.data's, one for one."""

import csv
import io
import json
import time
from pathlib import Path

import pandas as pd
import pytest
from playwright.sync_api import expect

from analysis.jspsych_data import Codebook, flat_row
from analysis.reports.jspsych_study import jspsych_report
from analysis.safe_csv import rows_csv
from tests.test_jspsych_browser import OFFLINE_S, experiment_frame, rows_arrive, session, start, stored_rows

ROOT = Path(__file__).resolve().parent.parent
STUDY = ROOT / "studies" / "visual-search"
VENDOR = ROOT / "static" / "vendor"
CDN = {
    "https://unpkg.com/jspsych@8.3.0": "jspsych.js",
    "https://unpkg.com/@jspsych/plugin-html-button-response@2.1.0": "plugin-html-button-response.js",
    "https://unpkg.com/@jspsych/plugin-instructions@2.1.0": "plugin-instructions.js",
    "https://unpkg.com/@jspsych/plugin-survey-html-form@2.1.0": "plugin-survey-html-form.js",
    "https://unpkg.com/jspsych@8.3.0/css/jspsych.css": "jspsych.css",
}
ORIGIN = "http://study.test/"


def run_demo(page):
    """The experiment through to its debrief, answering "T present" on every display; jsPsych's rows."""
    blocked, errors = [], []

    def serve(route):
        url = route.request.url
        if url in CDN:
            kind = "text/css" if url.endswith(".css") else "text/javascript"
            route.fulfill(path=str(VENDOR / CDN[url]), content_type=kind)
        elif url.startswith(ORIGIN):
            route.fulfill(path=str(STUDY / url.removeprefix(ORIGIN)))
        else:
            blocked.append(url)
            route.abort()

    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route("**/*", serve)
    page.goto(ORIGIN + "experiment.html")
    read_instructions(page)
    search(page, 16)
    debrief = answer_question(page)
    rows = page.evaluate("jsPsych.data.get().values()")
    assert not blocked and not errors, (blocked, errors)
    return debrief, rows


# The demo's answers, on its page opened on its own or in studyhive's frame (a Page or a FrameLocator).


def read_instructions(target):
    target.locator("#jspsych-instructions-next").click()
    target.locator("#jspsych-instructions-next").click()


def search(target, n):
    """Answer the next n displays "T present", each once its picture is drawn (decode() fails on a picture that did
    not load), and wait for it to go."""
    for _ in range(n):
        display = target.locator("img.search-display")
        assert display.evaluate("img => img.decode().then(() => img.naturalWidth)") > 0
        target.get_by_role("button", name="T present").click()
        display.wait_for(state="detached")


def answer_question(target):
    """Answer the last question (with a formula for the export to neutralise); the debrief's text."""
    target.locator("input[name=strategy]").fill('=HYPERLINK("x") then left to right')
    target.locator("#jspsych-survey-html-form-next").click()
    return target.get_by_text("You answered").inner_text()


def test_the_demo_runs_unchanged_and_its_rows_export_and_analyse(page, tmp_path):
    debrief, rows = run_demo(page)
    search = [r for r in rows if r["task"] == "search"]
    assert len(search) == 16 and len(rows) == 1 + 32 + 1  # instructions, fixation + search each, the question
    # timeline variables and on_finish's fields are in the rows; half the displays hold a T
    assert sorted({(r["set_size"], r["target_present"]) for r in search}) == [
        (4, False),
        (4, True),
        (12, False),
        (12, True),
    ]
    assert all(r["answered_present"] and r["correct"] == r["target_present"] for r in search)
    assert "You answered 50% of the 16 pictures correctly" in debrief

    flat = [flat_row(r) for r in rows]
    entries = {e["column"]: e for e in Codebook().extend(flat).entries()}
    assert (entries["set_size"]["type"], entries["set_size"]["levels"]) == ("integer", "[4,12]")
    assert (entries["correct"]["type"], entries["correct"]["levels"], entries["correct"]["missing"]) == (
        "boolean",
        "[false,true]",
        18,  # the instructions, fixations and question have no correct
    )
    assert entries["response"]["type"] == "mixed"  # button indices, then the form's object as JSON text
    assert entries["rt"]["levels"] is None and entries["response.strategy"]["missing"] == 33
    text = "".join(rows_csv(list(entries), flat))
    answer = [r for r in csv.DictReader(io.StringIO(text)) if r["task"] == "strategy"][0]
    assert answer["response.strategy"] == '\'=HYPERLINK("x") then left to right'
    assert json.loads(answer["response"])["glasses"] == "no"

    trials = pd.DataFrame([{"participant_id": 1, "created_at": "2026-01-01T00:00:00+00:00", **f} for f in flat])
    report = jspsych_report(pd.DataFrame({"participant_id": [1], "status": ["completed"]}), trials)
    accuracy = report.tables["accuracy"].set_index("trial_type")
    assert accuracy.loc["html-button-response", "n_trials"] == 16
    assert accuracy.loc["html-button-response", "accuracy"] == 0.5
    assert {p.name for p in report.write(tmp_path)} >= {"rt_by_trial_type.png", "accuracy_by_participant.png"}


@pytest.mark.any_db  # nothing here depends on the backend: test_jspsych_browser's reload and offline run on both
def test_the_demo_through_studyhive_survives_a_reload_and_30s_offline(page, live_server):
    """The demo study as synced from studies/ (its unpkg packages from the fake registry) for a participant: entry
    link, consent, the experiment in its frame, 30 s offline in the second round of displays, a reload after the
    13th display, to the debrief, Continue and completion. Offline comes before the reload: the frame's origin is
    opaque, so Chromium caches its pictures for that page load only (a reloaded page fetches them again), and the
    demo does not preload them; in the second round each picture was loaded in the first."""
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    token = start(page, live_server, "visual-search")
    frame = page.frame_locator("#studyhive-experiment")
    read_instructions(frame)
    search(frame, 8)
    frame.locator("img.search-display").wait_for()  # the ninth display: its fixation's row is the 18th
    assert len(rows_arrive(page, token, 18)) == 18
    page.context.set_offline(True)
    search(frame, 4)
    expect(page.locator("#studyhive-notice")).to_contain_text("Connection lost")
    time.sleep(OFFLINE_S)  # wall time: the page's fixations run on timers a faked clock would race
    assert len(stored_rows(token)) == 18  # the eight rows recorded offline wait on this device
    page.context.set_offline(False)
    search(frame, 1)  # the 13th display, then reload at once: its row may still be queued
    page.reload()
    search(frame, 3)  # the instructions and 13 displays were replayed, with their fixations
    debrief = answer_question(frame)
    assert "You answered 50% of the 16 pictures correctly" in debrief  # the replayed rows are in jsPsych.data
    frame.get_by_role("button", name="Done").click()
    expect(page.get_by_role("button", name="Continue")).to_be_visible()

    data = experiment_frame(page).evaluate("jsPsych.data.get().values()")
    rows = rows_arrive(page, token, len(data))
    assert len(rows) == 35 and rows == json.loads(json.dumps(data))  # one for one, in order, none twice
    assert [r["trial_index"] for r in rows] == list(range(35))
    # the seeded shuffle drew the same order again after the reload: each of the 8 pictures once per round
    shown = [r["stimulus"] for r in rows if r["task"] == "search"]
    assert len(set(shown[:8])) == len(set(shown[8:])) == 8
    assert not errors, errors
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/results")
    assert session(token).status == "completed"
