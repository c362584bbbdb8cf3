"""In Chromium: a reload in the middle of a researcher's jsPsych experiment resumes by replay (issue #36, rows 1 and 5).
The replayed trials run the experiment's state-changing code (on_start, on_finish, timeline variables) but never its
display code (on_load, the plugin's trial()), so an on_load that touches the trial's screen cannot strand the
participant; the experiment's own Math.random (before initJsPsych, inside on_load) and jsPsych 7.0's randomize_order
(no randomization.setSeed) draw the same values after the reload; a replay whose timeline computes other data than
the stored rows hold is recorded on the session."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.jspsych_study import FOLDERS, HEAD, jspsych_app
from tests.test_jspsych_browser import answer, experiment_frame, press, rows_arrive, session, start

# Each trial's on_load writes into the element the plugin drew for it, and draws from Math.random; on_start and
# on_finish draw too (on_finish after on_load) and store what they drew.
DRAWING = """
      on_start: function () { drawn.push(Math.random()); },
      on_load: function () { document.getElementById("word" + n).textContent = "word " + n + " " + Math.random(); },
      on_finish: function (data) {
        finished.push(Math.random());
        data.draw = drawn[n - 1];
        data.late = finished[n - 1];
      },
"""

# jsPsych 7.3.4, studyhive's Math.random, one value drawn before initJsPsych.
ON_LOAD7 = (
    """<!DOCTYPE html>
<html>
<head>
  <script src="https://unpkg.com/jspsych@7.3.4"></script>
  <script src="https://unpkg.com/@jspsych/plugin-html-keyboard-response@1.1.3"></script>
</head>
<body></body>
<script>
  var before = Math.random();
  var drawn = [], finished = [];
  var jsPsych = initJsPsych();
  jsPsych.run([1, 2, 3, 4, 5].map(function (n) {
    return {
      type: jsPsychHtmlKeyboardResponse,
      stimulus: "<p class='word' id='word" + n + "'></p>",
      choices: ["f"],
      data: {n: n, before: before},"""
    + DRAWING
    + """    };
  }));
</script>
</html>
"""
)

# jsPsych 8.3.0 with the experiment's own seed (jsPsych.randomization.setSeed), and a condition taken from the clock
# when the page loads, which a reload cannot draw again.
CLOCK8 = (
    HEAD
    + """<script>
  var jsPsych = initJsPsych();
  jsPsych.randomization.setSeed("the experiment's own");
  var condition = "c" + Date.now();
  var drawn = [], finished = [];
  jsPsych.run([1, 2, 3, 4].map(function (n) {
    return {
      type: jsPsychHtmlButtonResponse,
      stimulus: "<p class='word' id='word" + n + "'></p>",
      choices: ["next"],
      data: {n: n, condition: condition},"""
    + DRAWING
    + """    };
  }));
</script>
</html>
"""
)

# jsPsych 7.0.0 (no randomization.setSeed): ten words, five of each kind, in a random order.
RANDOM70 = """<!DOCTYPE html>
<html>
<head>
  <script src="https://unpkg.com/jspsych@7.0.0"></script>
  <script src="https://unpkg.com/@jspsych/plugin-html-keyboard-response@1.1.3"></script>
</head>
<body></body>
<script>
  var jsPsych = initJsPsych();
  var words = ["oak", "elm", "ash", "yew", "fir", "cod", "eel", "ray", "gar", "ide"].map(function (word, i) {
    return {word: word, kind: i < 5 ? "tree" : "fish"};
  });
  jsPsych.run([{
    timeline: [{
      type: jsPsychHtmlKeyboardResponse,
      stimulus: jsPsych.timelineVariable("word"),
      choices: ["f"],
      data: {word: jsPsych.timelineVariable("word"), kind: jsPsych.timelineVariable("kind")},
      on_load: function () { document.querySelector("#jspsych-html-keyboard-response-stimulus").className = "word"; },
    }],
    timeline_variables: words,
    randomize_order: true,
  }]);
</script>
</html>
"""


# State kept by call-function trials (jsPsych 8): a group drawn and a flag an async function sets, which the later
# screens' on_finish record; `calls` counts the function's runs in this page load.
CALLS8 = (
    HEAD.replace("</head>", '  <script src="https://unpkg.com/@jspsych/plugin-call-function@2.1.0"></script>\n</head>')
    + """<script>
  var calls = 0, state = {};
  var jsPsych = initJsPsych();
  function screen(word) {
    return {type: jsPsychHtmlButtonResponse, stimulus: "<p class='word'>" + word + "</p>", choices: ["next"],
            on_finish: function (data) { if (state.group) data.group = state.group; data.loaded = !!state.loaded; }};
  }
  jsPsych.run([
    screen("Welcome"),
    {type: jsPsychCallFunction, func: function () {
      calls += 1;
      state.group = "g" + Math.floor(Math.random() * 1000000);
      return state.group;
    }},
    {type: jsPsychCallFunction, async: true, func: function (done) {
      setTimeout(function () { state.loaded = true; done("loaded"); }, 20);
    }},
    screen("oak"),
    screen("elm"),
  ]);
</script>
</html>
"""
)


# The experiment's own on_data_update writes what this page load knows into each row (the time it loaded), as
# experiments write jsPsych's interaction data: replayed after a reload, it writes the new page load's value again.
UPDATED8 = (
    HEAD
    + """<script>
  var loadedAt = Date.now() + "-" + performance.now();
  var jsPsych = initJsPsych({on_data_update: function (data) { data.loaded_at = loadedAt; }});
  jsPsych.run(["oak", "elm", "ash"].map(function (word) {
    return {type: jsPsychHtmlButtonResponse, stimulus: "<p class='word'>" + word + "</p>", choices: ["next"]};
  }));
</script>
</html>
"""
)


@pytest.fixture
def app(tmp_path):
    studies = {"onload7": (ON_LOAD7, 5), "clock8": (CLOCK8, 4), "random70": (RANDOM70, 10), "calls8": (CALLS8, 5)}
    studies["updated8"] = (UPDATED8, 3)
    with jspsych_app(tmp_path, folders=(*FOLDERS, "plugin-call-function-2"), **studies) as app:
        yield app


def finish_and_compare(page, token, n):
    """The host offers Continue, and the stored rows are jsPsych.data's, one for one; the rows."""
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    experiment = experiment_frame(page)
    rows = rows_arrive(page, token, n)
    assert len(rows) == n and rows == json.loads(json.dumps(experiment.evaluate("jsPsych.data.get().values()")))
    return experiment, rows


def test_jspsych7_on_load_is_not_replayed_and_own_randomness_is_drawn_again(page, live_server, app):
    token = start(page, live_server, "onload7")
    press(page, "f")
    press(page, "f")
    rows_arrive(page, token, 2)
    page.reload()
    for _ in range(3):  # the third trial comes first: the two stored ones were replayed
        press(page, "f")
    experiment, rows = finish_and_compare(page, token, 5)
    assert [r["n"] for r in rows] == [1, 2, 3, 4, 5]
    # Math.random before initJsPsych, and each on_start's draw in the replay, are what they were before the reload,
    # although the replay skipped the on_load draws in between.
    assert {r["before"] for r in rows} == {experiment.evaluate("before")}
    assert experiment.evaluate("drawn") == [r["draw"] for r in rows]
    assert experiment.evaluate("finished") == [r["late"] for r in rows]
    assert session(token).replay_divergence is None


def test_jspsych8_replay_skips_on_load_and_records_a_divergence(page, live_server, app):
    token = start(page, live_server, "clock8")
    frame = page.frame_locator("#studyhive-experiment")
    answer(frame, "next")
    answer(frame, "next")
    rows_arrive(page, token, 2)
    page.reload()
    answer(frame, "next")
    answer(frame, "next")
    experiment, rows = finish_and_compare(page, token, 4)
    assert [r["n"] for r in rows] == [1, 2, 3, 4]
    # the experiment's own generator, drawn again as before the reload
    assert experiment.evaluate("drawn") == [r["draw"] for r in rows]
    assert experiment.evaluate("finished") == [r["late"] for r in rows]
    diverged = session(token).replay_divergence
    assert diverged["trial_index"] == 0 and diverged["fields"] == ["condition"]
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/results")


def test_jspsych70_randomize_order_resumes_with_the_same_order(page, live_server, app):
    token = start(page, live_server, "random70")
    for _ in range(3):
        press(page, "f")
    rows_arrive(page, token, 3)
    page.reload()
    for _ in range(7):
        press(page, "f")
    experiment, rows = finish_and_compare(page, token, 10)
    assert experiment.evaluate("jsPsych.version()") == "7.0.0"
    # each word once (five trees, five fishes), the replayed three where they were before
    assert sorted(r["word"] for r in rows) == sorted(experiment.evaluate("words.map(function (w) { return w.word; })"))
    assert session(token).replay_divergence is None


def test_jspsych8_replay_runs_call_function_trials_again(page, live_server, app):
    """A call-function trial shows nothing and keeps the experiment's state: replayed, its function runs again (the
    async one until it calls done), so the screens after a reload see the state the run had; its stored row stands."""
    token = start(page, live_server, "calls8")
    frame = page.frame_locator("#studyhive-experiment")
    answer(frame, "next")  # Welcome; then the two call-function trials run by themselves
    answer(frame, "next")  # oak
    before = rows_arrive(page, token, 4)
    group = before[1]["value"]
    assert group.startswith("g") and before[2]["value"] == "loaded" and before[3]["group"] == group
    page.reload()
    expect(frame.locator(".word")).to_have_text("elm")
    answer(frame, "next")
    experiment, rows = finish_and_compare(page, token, 5)
    assert rows[:4] == before
    assert (rows[4]["group"], rows[4]["loaded"]) == (group, True)
    assert experiment.evaluate("calls") == 1  # in this page load: the replay's run, drawing the same group
    assert session(token).replay_divergence is None


def test_a_replayed_row_stays_the_stored_one_whatever_on_data_update_writes_again(page, live_server, app):
    token = start(page, live_server, "updated8")
    frame = page.frame_locator("#studyhive-experiment")
    answer(frame, "next")
    answer(frame, "next")
    before = rows_arrive(page, token, 2)
    page.reload()
    expect(frame.locator(".word")).to_have_text("ash")
    answer(frame, "next")
    experiment, rows = finish_and_compare(page, token, 3)  # jsPsych.data holds the stored rows
    assert rows[:2] == before and rows[2]["loaded_at"] == experiment.evaluate("loadedAt") != before[0]["loaded_at"]
    assert session(token).replay_divergence is None
