"""In Chromium: a jsPsych 6 experiment (jsPsych.init, plugins registered in jsPsych.plugins, a local copy of jsPsych
6.3.0 in the study folder as the jsPsych 6 docs set it up) runs unchanged with the guarantees of 7 and 8 (issue #37
point 2): its rows are stored as they end and equal jsPsych.data, a reload resumes by replay (the experiment's
state-changing code runs again, its on_load does not, Math.random draws the same), it completes, endExperiment is an
early end, the link's variables are read with the raw Prolific id never stored, and an error that leaves jsPsych 6
stuck lets the participant end. The jsPsych 6.3.0 files are those of corpus/visual-search (jsPsych's own demo)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.jspsych_study import jspsych_app
from tests.test_jspsych_browser import (
    experiment_frame,
    only_this_server,
    press,
    rows_arrive,
    session,
    start,
    stored_rows,
)
from tests.test_own_errors_browser import recorded_error

JSPSYCH63 = Path(__file__).resolve().parent.parent / "corpus" / "visual-search" / "jspsych-6.3.0"
COPIED = ("jspsych.js", "plugins/jspsych-html-keyboard-response.js", "css/jspsych.css")

HEAD6 = """<!DOCTYPE html>
<html>
<head>
  <script src="jspsych-6.3.0/jspsych.js"></script>
  <script src="jspsych-6.3.0/plugins/jspsych-html-keyboard-response.js"></script>
  <link href="jspsych-6.3.0/css/jspsych.css" rel="stylesheet" type="text/css">
</head>
<body></body>
"""

# The jsPsych 6 tutorial's shape: timeline variables in a random order, the link's PROLIFIC_PID added to every row,
# an on_load that writes into the trial's screen and draws a random number (display code: not run when replayed),
# on_finish scoring the answer and drawing another, a conditional node, and the experiment's own on_finish.
SIX = (
    HEAD6
    + """<script>
  var before = Math.random();
  var loaded = [];
  jsPsych.data.addProperties({subject: jsPsych.data.getURLVariable("PROLIFIC_PID") || "none"});
  var words = [{word: "cyan", key: "f"}, {word: "green", key: "j"}, {word: "blue", key: "f"},
               {word: "pink", key: "j"}, {word: "grey", key: "f"}];
  var trial = {
    type: "html-keyboard-response",
    stimulus: function () { return "<p class='word'>" + jsPsych.timelineVariable("word", true) + "</p>"; },
    choices: ["f", "j"],
    data: {task: "word", word: jsPsych.timelineVariable("word"), key: jsPsych.timelineVariable("key"), before: before},
    on_load: function () { loaded.push(document.querySelector(".word").textContent + " " + Math.random()); },
    on_finish: function (data) {
      data.correct = jsPsych.pluginAPI.compareKeys(data.response, data.key);
      data.late = Math.random();
    },
  };
  var welcome = {type: "html-keyboard-response", stimulus: "<p class='word'>Press a key to begin</p>"};
  var bonus = {
    timeline: [{type: "html-keyboard-response", stimulus: "<p class='word'>All correct!</p>"}],
    conditional_function: function () { return jsPsych.data.get().filter({correct: false}).count() === 0; },
  };
  var debrief = {type: "html-keyboard-response", stimulus: "<p class='word' id='debrief'>Thank you</p>"};
  jsPsych.init({
    timeline: [welcome, {timeline: [trial], timeline_variables: words, randomize_order: true}, bonus, debrief],
    on_finish: function () { document.body.setAttribute("data-own-finish", "yes"); },
  });
</script>
</html>
"""
)

# jsPsych 6's endExperiment in a trial's on_finish: an early end with its message.
ENDING6 = (
    HEAD6
    + """<script>
  jsPsych.init({timeline: [
    {type: "html-keyboard-response", stimulus: "<p class='word'>Welcome</p>",
     on_finish: function () { jsPsych.endExperiment("<p id='ended'>Stopped early</p>"); }},
    {type: "html-keyboard-response", stimulus: "<p class='word'>Never shown</p>"},
  ]});
</script>
</html>
"""
)

# The second trial names a plugin the page never loads: jsPsych 6 throws where it starts that trial and stops there.
STUCK6 = (
    HEAD6
    + """<script>
  jsPsych.init({timeline: [
    {type: "html-keyboard-response", stimulus: "<p class='word'>Welcome</p>"},
    {type: "html-button-response", stimulus: "<p class='word'>Never shown</p>", choices: ["No"]},
  ]});
</script>
</html>
"""
)

# jsPsych 6's call-function trials keeping state, as CALLS8 in tests/test_own_replay_browser.py (6.3.1's plugin file).
CALL_FUNCTION = Path(__file__).resolve().parent.parent / "node_modules/jspsych6/plugins/jspsych-call-function.js"
CALLS6 = (
    HEAD6.replace("</head>", '  <script src="jspsych-6.3.0/plugins/jspsych-call-function.js"></script>\n</head>')
    + """<script>
  var calls = 0, state = {};
  function screen(word) {
    return {type: "html-keyboard-response", stimulus: "<p class='word'>" + word + "</p>",
            on_finish: function (data) { if (state.group) data.group = state.group; data.loaded = !!state.loaded; }};
  }
  jsPsych.init({timeline: [
    screen("Welcome"),
    {type: "call-function", func: function () {
      calls += 1;
      state.group = "g" + Math.floor(Math.random() * 1000000);
      return state.group;
    }},
    {type: "call-function", async: true, func: function (done) {
      setTimeout(function () { state.loaded = true; done("loaded"); }, 20);
    }},
    screen("oak"),
    screen("elm"),
  ]});
</script>
</html>
"""
)

# Written for Pavlovia with jsPsych 6: the plugin's file named as Pavlovia's lib/ holds it, absent here.
PAVLOVIA6 = (
    HEAD6.replace("</head>", '  <script src="lib/vendors/jspsych-pavlovia-3.2.5.js"></script>\n</head>')
    + """<script>
  jsPsych.init({timeline: [
    {type: "pavlovia", command: "init"},
    {type: "html-keyboard-response", stimulus: "<p class='word'>oak</p>"},
    {type: "pavlovia", command: "finish"},
    {type: "html-keyboard-response", stimulus: "<p class='word'>Thank you</p>"},
  ]});
</script>
</html>
"""
)

PID = "5f1e2d3c4b5a69788796a5b4"


def copy_jspsych63(study: Path) -> None:
    """Put the local copy of jsPsych 6.3.0 that HEAD6 loads in the study folder `study`."""
    for name in COPIED:
        copy = study / "jspsych-6.3.0" / name
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(JSPSYCH63 / name, copy)


# jsPsych 6 starts another timeline when the page calls jsPsych.init again: here from the answer to a request the
# first timeline's on_finish makes (yunshiuan/color_concept_rate asks its lab's server for a condition so), after an
# addProperties. The run ends when the second timeline does.
REINIT6 = (
    HEAD6
    + """<script>
  function screen(text) { return {type: "html-keyboard-response", stimulus: "<p class='word'>" + text + "</p>",
                                  data: {part: text}}; }
  jsPsych.init({
    timeline: [screen("Welcome")],
    on_finish: function () {
      var xhr = new XMLHttpRequest();
      xhr.open("POST", "condition.php");
      xhr.onload = function () {
        jsPsych.data.addProperties({group: JSON.parse(xhr.responseText).success ? "b" : "a"});
        jsPsych.init({timeline: [screen("Main"), screen("Last")],
                      on_finish: function () { document.body.setAttribute("data-own-finish", "yes"); }});
      };
      xhr.send("{}");
    },
  });
</script>
</html>
"""
)


@pytest.fixture
def app(tmp_path):
    studies = {
        "reinit6": (REINIT6, 3),
        "six": (SIX, 7),
        "ending6": (ENDING6, 1),
        "stuck6": (STUCK6, 1),
        "calls6": (CALLS6, 5),
        "pavlovia6": (PAVLOVIA6, 4),
    }
    for slug in studies:
        copy_jspsych63(tmp_path / "studies" / slug)
    shutil.copyfile(CALL_FUNCTION, tmp_path / "studies" / "calls6" / "jspsych-6.3.0" / "plugins" / CALL_FUNCTION.name)
    with jspsych_app(tmp_path, **studies) as app:
        yield app


def test_jspsych6_resumes_completes_and_stores_exactly_jspsych_data(page, live_server, app):
    asked = only_this_server(page, live_server)
    token = start(page, live_server, "six", "?" + urlencode({"PROLIFIC_PID": PID}))
    frame = page.frame_locator("#studyhive-experiment")
    frame.locator(".word", has_text="Press a key to begin").wait_for()
    experiment = experiment_frame(page)
    assert experiment.evaluate("jsPsych.version()") == "6.3.0"
    press(page, "f")
    keys = {"cyan": "f", "green": "j", "blue": "f", "pink": "j", "grey": "f"}
    order = []
    for _ in range(3):
        word = frame.locator(".word").text_content()
        order.append(word)
        press(page, keys[word])
    before = rows_arrive(page, token, 4)
    assert len(before) == 4 and all(r["subject"] == "[PROLIFIC_PID]" for r in before)
    assert [r["word"] for r in before[1:]] == order and all(r["correct"] for r in before[1:])
    loaded_before = experiment_frame(page).evaluate("loaded")

    page.reload()
    frame.locator(".word").wait_for()
    # The replayed trials drew what they drew before (on_finish's late), the on_load of none of them ran, and the
    # first word after the replay is the fourth of the same seeded order.
    experiment = experiment_frame(page)
    (shown,) = experiment.evaluate("loaded")
    assert shown.startswith(frame.locator(".word").text_content() + " ")
    for _ in range(2):
        word = frame.locator(".word").text_content()
        order.append(word)
        press(page, keys[word])
    assert sorted(order) == sorted(keys)
    expect(frame.locator(".word")).to_have_text("All correct!")  # the conditional node, on the replayed rows too
    press(page, "f")
    press(page, "f")  # the debrief
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    data = experiment.evaluate("jsPsych.data.get().values()")
    rows = stored_rows(token)
    assert len(rows) == 8 and rows[:4] == before
    assert json.loads(json.dumps(rows).replace("[PROLIFIC_PID]", PID)) == json.loads(json.dumps(data))
    assert len(loaded_before) == 4 and experiment.evaluate("loaded.length") == 2  # the words shown, no replayed one
    assert experiment.evaluate("document.body.getAttribute('data-own-finish')") == "yes"
    person = session(token)
    assert person.experiment_error is None and person.replay_divergence is None
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/results")
    person = session(token)
    assert person.status == "completed" and person.ending == {"ended_early": False, "message": None}
    assert asked == [] and PID not in json.dumps(stored_rows(token))


def test_jspsych6_end_experiment_is_an_early_end(page, live_server, app):
    token = start(page, live_server, "ending6")
    frame = page.frame_locator("#studyhive-experiment")
    frame.locator(".word", has_text="Welcome").wait_for()
    frame.locator(".jspsych-display-element").press("f")
    expect(frame.locator("#ended")).to_have_text("Stopped early")
    page.get_by_role("button", name="Continue").click()
    expect(page.locator("#studyhive-notice")).to_have_text("You can close this page.")
    person = session(token)
    assert (person.status, person.outcome) == ("abandoned", "ended_early")
    assert person.ending == {"ended_early": True, "message": "<p id='ended'>Stopped early</p>"}
    assert stored_rows(token) == json.loads(json.dumps(experiment_frame(page).evaluate("jsPsych.data.get().values()")))


def test_jspsych6_stuck_on_a_trial_lets_the_participant_end(page, live_server, app):
    token = start(page, live_server, "stuck6")
    frame = page.frame_locator("#studyhive-experiment")
    stopped = page.locator("#studyhive-stopped")
    frame.locator(".word", has_text="Welcome").wait_for()
    frame.locator(".jspsych-display-element").press("f")
    expect(stopped).to_contain_text("Something went wrong in this experiment")
    # the fatal error; the same error, uncaught, also reaches the frame as "Script error." (the plugin's script is
    # cross-origin to the sandboxed frame), recorded as a further error, which a fatal one replaces
    error = recorded_error(page, token, 20.0, until=lambda error: error is not None and error["fatal"])
    assert error["fatal"] is True and error["trial_index"] == 1 and "TypeError" in error["message"]
    stopped.get_by_role("button", name="End the study").click()
    expect(stopped).to_contain_text("You can close this page.")
    person = session(token)
    assert (person.status, person.outcome) == ("abandoned", "experiment_error")
    assert len(stored_rows(token)) == 1


def test_jspsych6_replay_runs_call_function_trials_again(page, live_server, app):
    """jsPsych 6's call-function, replayed: its function runs again (the async one until done), so the screens after
    a reload see the state the run had; the stored rows are jsPsych.data's."""
    token = start(page, live_server, "calls6")
    frame = page.frame_locator("#studyhive-experiment")
    frame.locator(".word", has_text="Welcome").wait_for()
    press(page, "f")
    press(page, "f")  # oak
    before = rows_arrive(page, token, 4)
    group = before[1]["value"]
    assert group.startswith("g") and before[2]["value"] == "loaded" and before[3]["group"] == group
    page.reload()
    expect(frame.locator(".word")).to_have_text("elm")
    press(page, "f")
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    experiment = experiment_frame(page)
    rows = rows_arrive(page, token, 5)
    assert rows == json.loads(json.dumps(experiment.evaluate("jsPsych.data.get().values()")))
    assert rows[:4] == before and (rows[4]["group"], rows[4]["loaded"]) == (group, True)
    assert experiment.evaluate("calls") == 1
    person = session(token)
    assert person.experiment_error is None and person.replay_divergence is None


def test_jspsych6_pavlovia_experiment_runs_with_the_plugins_stand_in(page, live_server, app):
    token = start(page, live_server, "pavlovia6")
    frame = page.frame_locator("#studyhive-experiment")
    frame.locator(".word", has_text="oak").wait_for()
    press(page, "f")
    press(page, "f")
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    rows = rows_arrive(page, token, 4)
    assert rows == json.loads(json.dumps(experiment_frame(page).evaluate("jsPsych.data.get().values()")))
    assert [row["trial_type"] for row in rows] == ["pavlovia", "html-keyboard-response"] * 2
    assert session(token).experiment_error is None


def test_jspsych6_init_called_again_runs_the_next_timeline(page, live_server, app):
    """The second timeline runs (no Continue after the first), a reload replays both, every row is stored once, and
    the run completes when the second ends."""
    token = start(page, live_server, "reinit6")
    frame = page.frame_locator("#studyhive-experiment")
    frame.locator(".word", has_text="Welcome").wait_for()
    press(page, "f")
    expect(frame.locator(".word")).to_have_text("Main")
    expect(page.get_by_role("button", name="Continue")).to_be_hidden()
    press(page, "f")
    rows_arrive(page, token, 2)
    page.reload()
    expect(frame.locator(".word")).to_have_text("Last")  # Welcome and Main replayed, across the two inits
    press(page, "f")
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    rows = stored_rows(token)
    assert [(row["part"], row["group"]) for row in rows] == [("Welcome", "b"), ("Main", "b"), ("Last", "b")]
    experiment = experiment_frame(page)
    assert experiment.evaluate("document.body.getAttribute('data-own-finish')") == "yes"
    assert rows[1:] == json.loads(json.dumps(experiment.evaluate("jsPsych.data.get().values()")))  # the second's
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/results")
    person = session(token)
    assert (person.status, person.experiment_error, person.replay_divergence) == ("completed", None, None)
