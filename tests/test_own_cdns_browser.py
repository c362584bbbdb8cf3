"""In Chromium: an experiment in the jsPsych documentation's download setup (issue #37, point 3) — jsPsych 7.3.4's
release files and a plugin's beside experiment.html, no CDN — synced unchanged and run to its end."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.jspsych_study import jspsych_app, write_study
from tests.test_jspsych_browser import experiment_frame, press, session, start, stored_rows
from tests.test_own_cdns import JSPSYCH7, KEYBOARD, RELEASE_JS

LOCAL = """<!DOCTYPE html>
<html>
<head>
  <script src="jspsych-7.3.4/dist/jspsych.js"></script>
  <script src="jspsych-7.3.4/dist/plugin-html-keyboard-response.js"></script>
  <link href="jspsych-7.3.4/dist/jspsych.css" rel="stylesheet" type="text/css">
</head>
<body></body>
<script>
  var jsPsych = initJsPsych();
  var timeline = [{type: jsPsychHtmlKeyboardResponse, stimulus: "<p>Press a key to begin</p>"}];
  ["oak", "elm"].forEach(function (word) {
    timeline.push({type: jsPsychHtmlKeyboardResponse, stimulus: "<p class='word'>" + word + "</p>",
                   choices: ["f", "j"], data: {task: "word", word: word}});
  });
  timeline.push({type: jsPsychHtmlKeyboardResponse, stimulus: "<p id='bye'>Thank you</p>", trial_duration: 0});
  jsPsych.run(timeline);
</script>
</html>
"""


@pytest.fixture
def app(tmp_path):
    folder = write_study(tmp_path / "studies", "local", LOCAL, min_rows=4)
    dist = folder / "jspsych-7.3.4" / "dist"
    dist.mkdir(parents=True)
    (dist / "jspsych.js").write_bytes(RELEASE_JS)
    (dist / "plugin-html-keyboard-response.js").write_bytes(KEYBOARD)
    (dist / "jspsych.css").write_bytes((JSPSYCH7 / "css" / "jspsych.css").read_bytes())
    with jspsych_app(tmp_path, folders=("jspsych7",)) as app:
        yield app


def test_a_local_jspsych_copy_runs_to_the_end(page, live_server, app):
    token = start(page, live_server, "local")
    frame = page.frame_locator("#studyhive-experiment")
    frame.locator("p", has_text="Press a key to begin").wait_for()
    frame.locator(".jspsych-display-element").press("f")
    press(page, "f")
    press(page, "j")
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    experiment = experiment_frame(page)
    assert experiment.evaluate("jsPsych.version()") == "7.3.4"
    rows = stored_rows(token)
    assert len(rows) == 4 and rows == json.loads(json.dumps(experiment.evaluate("jsPsych.data.get().values()")))
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/results")
    assert session(token).status == "completed"
