"""The demo study's experiment.html as a researcher wrote it, run by jsPsych 8.3.0 itself in Chromium (its unpkg
tags answered from static/vendor, every other host blocked, no studyhive runtime): it runs to its debrief, and the
rows jsPsych recorded become the columns, codebook and report studyhive exports for such a study."""

import csv
import io
import json
from pathlib import Path

import pandas as pd

from analysis.jspsych_data import Codebook, flat_row
from analysis.reports.jspsych_study import jspsych_report
from analysis.safe_csv import rows_csv

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
    page.click("#jspsych-instructions-next")
    page.click("#jspsych-instructions-next")
    for _ in range(16):
        page.wait_for_selector("img.search-display")
        page.get_by_role("button", name="T present").click()
    page.fill("input[name=strategy]", '=HYPERLINK("x") then left to right')
    page.click("#jspsych-survey-html-form-next")
    debrief = page.wait_for_selector("text=You answered").inner_text()
    rows = page.evaluate("jsPsych.data.get().values()")
    assert not blocked and not errors, (blocked, errors)
    return debrief, rows


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
