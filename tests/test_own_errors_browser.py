"""In Chromium: a researcher's jsPsych experiment whose own code fails never strands the participant, and a row JSON
cannot write never jams the page's queue (issue #36 rows 2 and 11).

- An error that rejects jsPsych.run() (an on_load that touches a missing element) shows a message and a button that
  ends the session with outcome experiment_error; an uncaught error while the experiment goes on is recorded without
  interrupting it; an error before run() is reached stops it too. The error, its trial and fatal-ness are stored.
- A row with a BigInt or a circular object, recorded by jsPsych or posted by the frame itself, is refused on its own
  (kept in the page's refused list) while every other row is stored and the session completes.
- A burst of rows behind a 1 MB row is stored in order, each row costing the same few bytes of localStorage writes
  whatever the queue's length; a queue stored by the previous sync.js (one array) is taken over and sent first."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.jspsych_study import HEAD, jspsych_app, write_study
from tests.test_jspsych_browser import recorded_error, rows_arrive, session, start, stored_rows

# Trial 1 throws while it waits for its answer (an uncaught error: recorded, the experiment goes on); trial 2's
# on_load writes into an element that is not there, which rejects run().
FAILING = (
    HEAD
    + """<script>
  var jsPsych = initJsPsych();
  jsPsych.run([
    {type: jsPsychHtmlButtonResponse, stimulus: "<p>Welcome</p>", choices: ["Begin"]},
    {type: jsPsychHtmlButtonResponse, stimulus: "<p>Second</p>", choices: ["Next"],
     on_load: function () { setTimeout(function () { throw new Error("a slip the experiment survives"); }, 0); }},
    {type: jsPsychHtmlButtonResponse, stimulus: "<p>Third</p>", choices: ["Never"],
     on_load: function () { document.getElementById("chart").textContent = "drawn"; }},
  ]);
</script>
</html>
"""
)

# A typo before run(): the experiment never starts.
BROKEN = (
    HEAD
    + """<script>
  var jsPsych = initJsPsych();
  var timeline = [{type: jsPsychHtmlButtonResponse, stimulus: "<p>Hello</p>", choices: ["OK"]}];
  timeline.push(undefinedTrial);
  jsPsych.run(timeline);
</script>
</html>
"""
)

# Rows 1 and 2 hold what JSON cannot write (jsPsych records them, runtime.js posts them); before the fourth trial the
# frame posts rows itself, two bad ones around a good one. postMessage copies BigInt and circular objects fine.
BAD_ROWS = (
    HEAD
    + """<script>
  var jsPsych = initJsPsych();
  var loop = {name: "loop"};
  loop.self = loop;
  function screen(text, extra) {
    return Object.assign({type: jsPsychHtmlButtonResponse, stimulus: "<p>" + text + "</p>", choices: [text]}, extra);
  }
  jsPsych.run([
    screen("one"),
    screen("two", {on_finish: function (data) { data.big = 12345678901234567890n; }}),
    screen("three", {on_finish: function (data) { data.loop = loop; }}),
    screen("four", {on_start: function () {
      parent.postMessage({type: "studyhive:row", row: {direct: 1n}}, "*");
      parent.postMessage({type: "studyhive:row", row: {direct: "fine"}}, "*");
      parent.postMessage({type: "studyhive:row", row: loop}, "*");
    }}),
    screen("done"),
  ]);
</script>
</html>
"""
)

BURST_ROWS = 300
# The first trial's on_finish posts a 1 MB row and then BURST_ROWS small ones at once, as a frame can.
BURST = (
    HEAD
    + """<script>
  var jsPsych = initJsPsych();
  jsPsych.run([{type: jsPsychHtmlButtonResponse, stimulus: "<p>Go</p>", choices: ["Send"], on_finish: function () {
    parent.postMessage({type: "studyhive:row", row: {big: "x".repeat(1000000)}}, "*");
    for (var n = 0; n < BURST_ROWS; n += 1) parent.postMessage({type: "studyhive:row", row: {n: n}}, "*");
  }}]);
</script>
</html>
""".replace("BURST_ROWS", str(BURST_ROWS))
)

# Counts what the page writes to localStorage (characters of keys and values), in every frame of the page.
COUNT_WRITES = """
window.studyhiveWritten = 0;
const setItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (key, value) {
  window.studyhiveWritten += String(key).length + String(value).length;
  return setItem.call(this, key, value);
};
"""


# Written for JATOS: the timeline built in jatos.onLoad, after the page has loaded, from a function the page never
# defines: run() is never called.
NEVER_STARTED = """<!DOCTYPE html>
<html>
<head>
  <script src="jatos.js"></script>
  <script src="https://unpkg.com/jspsych@8.3.0"></script>
  <script src="https://unpkg.com/@jspsych/plugin-html-button-response@2"></script>
</head>
<body></body>
<script>
  jatos.onLoad(function () { initJsPsych().run(timelineBuilder()); });
</script>
</html>
"""


# jsPsych's initialize-microphone does what this script does: the trial waits for the stream the browser gives.
MICROPHONE = (
    HEAD.replace("</head>", '  <script src="mic.js"></script>\n</head>')
    + """<script>
  var jsPsych = initJsPsych();
  jsPsych.run([
    {type: jsPsychHtmlButtonResponse, stimulus: "<p>Welcome</p>", choices: ["Begin"]},
    {type: jsPsychHtmlButtonResponse, stimulus: "<p id='asking'>Allow the microphone</p>", choices: [],
     on_load: function () { withMicrophone(function () { jsPsych.finishTrial({allowed: true}); }); }},
  ]);
</script>
</html>
"""
)
MIC_JS = "function withMicrophone(then) { navigator.mediaDevices.getUserMedia({audio: true}).then(then); }"


# A promise the experiment's own script file rejects while the experiment goes on. Served without CORS, the file
# would be another origin's to the frame (whose origin is opaque): Chromium fires no unhandledrejection for it.
SCRIPT_FILE = (
    HEAD.replace("</head>", '  <script src="lab.js"></script>\n</head>')
    + """<script>
  var jsPsych = initJsPsych();
  jsPsych.run([
    {type: jsPsychHtmlButtonResponse, stimulus: "<p>Welcome</p>", choices: ["Begin"], on_load: later},
    {type: jsPsychHtmlButtonResponse, stimulus: "<p>Second</p>", choices: ["Next"]},
  ]);
</script>
</html>
"""
)
LAB_JS = "function later() { Promise.resolve().then(function () { throw new Error('rejected in lab.js'); }); }"


# A loader that adds the experiment's scripts as it runs (jsPsychMaker's): start.js (which calls initJsPsych, found
# at sync in the study's files) adds boot.js, whose promise rejects before the timeline starts. The runtime gives
# such scripts crossorigin, so the frame sees the rejection and the participant can end.
LOADER = (
    HEAD
    + """<script>
  var loader = document.createElement("script");
  loader.src = "js/start.js";
  document.head.appendChild(loader);
</script>
</html>
"""
)
LOADER_FILES = {
    "js/start.js": 'var jsPsych = initJsPsych();\nvar boot = document.createElement("script");\n'
    'boot.setAttribute("src", "js/boot.js");\ndocument.head.appendChild(boot);',
    "js/boot.js": "new Promise(function (ready) { ready(settings.word); }).then(function (word) {\n"
    '  jsPsych.run([{type: jsPsychHtmlButtonResponse, stimulus: word, choices: ["Next"]}]);\n});',
}


# A request to another host that the experiment's code never catches (the frame's policy refuses it): its rejection
# is recorded, as any the experiment leaves unhandled, whatever the runtime does around fetch.
LOST_FETCH = (
    HEAD
    + """<script>
  var jsPsych = initJsPsych();
  fetch("https://example.org/save", {method: "PUT"});
  jsPsych.run([{type: jsPsychHtmlButtonResponse, stimulus: "<p>Welcome</p>", choices: ["Next"]}]);
</script>
</html>
"""
)


# initJsPsych's own on_finish failing after the last trial: jsPsych 7 by a throw (a helper never defined), 8 by a
# rejected promise (a save to the lab's server, which the frame refuses).
FINISH7 = """<!DOCTYPE html>
<html>
<head>
  <script src="https://unpkg.com/jspsych@^7.3"></script>
  <script src="https://unpkg.com/@jspsych/plugin-html-keyboard-response@1.1.3"></script>
</head>
<body></body>
<script>
  var jsPsych = initJsPsych({on_finish: function () { saveToLabServer(jsPsych.data.get().csv()); }});
  jsPsych.run([{type: jsPsychHtmlKeyboardResponse, stimulus: "<p class='word'>Press a key</p>"}]);
</script>
</html>
"""
FINISH8 = (
    HEAD
    + """<script>
  var jsPsych = initJsPsych({on_finish: function () {
    return fetch("https://data.example.org/save.php", {method: "POST", body: jsPsych.data.get().csv()});
  }});
  jsPsych.run([{type: jsPsychHtmlButtonResponse, stimulus: "<p>Last</p>", choices: ["Done"]}]);
</script>
</html>
"""
)


@pytest.fixture
def app(tmp_path):
    write_study(tmp_path / "studies", "lostfetch", LOST_FETCH, 1)
    write_study(tmp_path / "studies", "finish7", FINISH7, 1)
    write_study(tmp_path / "studies", "finish8", FINISH8, 1)
    loader = write_study(tmp_path / "studies", "loader", LOADER, 1)
    for name, text in LOADER_FILES.items():
        (loader / name).parent.mkdir(parents=True, exist_ok=True)
        (loader / name).write_text(text)
    microphone = write_study(tmp_path / "studies", "microphone", MICROPHONE, 1)
    (microphone / "mic.js").write_text(MIC_JS)
    script_file = write_study(tmp_path / "studies", "scriptfile", SCRIPT_FILE, 2)
    (script_file / "lab.js").write_text(LAB_JS)
    # the old-format queue's two rows, the big one, the burst and the trial's own row
    burst = write_study(tmp_path / "studies", "burst", BURST, BURST_ROWS + 4, "restart")
    with open(burst / "study.toml", "a") as toml:
        toml.write("row_limit_kb = 1024\n")  # [task]'s: a 1 MB row is within this study's limit
    studies = {"failing": (FAILING, 1), "broken": (BROKEN, 1), "bad": (BAD_ROWS, 4), "unstarted": (NEVER_STARTED, 1)}
    with jspsych_app(tmp_path, **studies) as app:
        yield app


def test_an_error_in_the_experiments_code_lets_the_participant_end(page, live_server, app):
    token = start(page, live_server, "failing")
    frame = page.frame_locator("#studyhive-experiment")
    stopped = page.locator("#studyhive-stopped")
    frame.get_by_role("button", name="Begin").click()
    error = recorded_error(page, token)
    assert error["fatal"] is False and "a slip the experiment survives" in error["message"]
    assert error["trial_index"] == 1 and stopped.is_hidden()  # recorded; the participant goes on
    frame.get_by_role("button", name="Next").click()
    expect(stopped).to_contain_text("Something went wrong in this experiment")
    stopped.get_by_role("button", name="End the study").click()
    expect(stopped).to_contain_text("You can close this page.")
    person = session(token)
    assert (person.status, person.outcome, person.flag) == ("abandoned", "experiment_error", "experiment_error")
    error = person.experiment_error
    assert error["fatal"] is True and error["trial_index"] == 2 and "TypeError" in error["message"]
    assert "on_load" in error["stack"] or "experiment.html" in error["stack"]
    assert len(stored_rows(token)) == 2  # the rows before it, stored before the session ended

    token = start(page, live_server, "broken")
    expect(stopped).to_contain_text("Something went wrong in this experiment")
    error = recorded_error(page, token)
    assert error["fatal"] is True and error["trial_index"] is None and "undefinedTrial" in error["message"]


def test_an_error_that_leaves_run_uncalled_after_the_load_lets_the_participant_end(page, live_server, app):
    """Thrown after the page's load (in jatos.onLoad), it is recorded as not fatal, as an error jsPsych survives;
    when run() has still not come 20 s later (runtime.js NEVER_STARTED_MS), it is fatal: End the study."""
    token = start(page, live_server, "unstarted")
    stopped = page.locator("#studyhive-stopped")
    error = recorded_error(page, token)
    assert error["fatal"] is False and "timelineBuilder" in error["message"] and stopped.is_hidden()
    expect(stopped).to_be_visible(timeout=40_000)
    expect(stopped).to_contain_text("Something went wrong in this experiment")
    error = recorded_error(page, token, until=lambda error: error["fatal"])
    assert error["fatal"] is True and "timelineBuilder" in error["message"] and error["trial_index"] is None
    stopped.get_by_role("button", name="End the study").click()
    expect(stopped).to_contain_text("You can close this page.")
    assert (session(token).status, session(token).outcome) == ("abandoned", "experiment_error")


def test_what_the_experiments_own_script_file_throws_is_recorded_with_its_message(page, live_server, app):
    """Its tag says crossorigin (sync), so the browser shows the runtime the error rather than hiding it."""
    token = start(page, live_server, "scriptfile")
    frame = page.frame_locator("#studyhive-experiment")
    error = recorded_error(page, token)
    assert error is not None and error["message"] == "Error: rejected in lab.js" and error["fatal"] is False
    assert "lab.js" in error["stack"] and error["trial_index"] == 0
    frame.get_by_role("button", name="Begin").click()
    frame.get_by_role("button", name="Next").click()
    expect(page.get_by_role("button", name="Continue")).to_be_visible()


def test_an_experiment_asking_for_the_microphone_lets_the_participant_end(page, live_server, app):
    """The sandboxed frame is never given a microphone or camera, and a trial waiting for one would wait for ever: the
    request is a fatal error at once (runtime.js), and sync said so of the script that makes it."""
    token = start(page, live_server, "microphone")
    frame = page.frame_locator("#studyhive-experiment")
    stopped = page.locator("#studyhive-stopped")
    frame.get_by_role("button", name="Begin").click()
    expect(frame.locator("#asking")).to_be_visible()
    expect(stopped).to_contain_text("Something went wrong in this experiment")
    error = recorded_error(page, token)
    assert error["fatal"] is True and error["trial_index"] == 1
    assert error["message"].startswith("NotAllowedError: navigator.mediaDevices.getUserMedia(): studyhive's frame")
    stopped.get_by_role("button", name="End the study").click()
    expect(stopped).to_contain_text("You can close this page.")
    assert (session(token).outcome, len(stored_rows(token))) == ("experiment_error", 1)


def test_rows_json_cannot_write_are_refused_on_their_own(page, live_server, app):
    token = start(page, live_server, "bad")
    frame = page.frame_locator("#studyhive-experiment")
    for text in ("one", "two"):
        frame.get_by_role("button", name=text).click()
    expect(page.locator("#studyhive-notice")).to_contain_text("Some data could not be saved")  # reported
    for text in ("three", "four", "done"):
        frame.get_by_role("button", name=text).click()
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    rows = stored_rows(token)
    assert [r.get("stimulus", r.get("direct")) for r in rows] == ["<p>one</p>", "fine", "<p>four</p>", "<p>done</p>"]
    refused = page.evaluate("sync.refused")
    assert [r["status"] for r in refused] == [0, 0, 0, 0]
    assert [r["error"]["error"] for r in refused] == ["not_json"] * 4
    kept = [r["body"]["row"] for r in refused]
    assert kept[0]["big"] == "12345678901234567890" and kept[1]["loop"] == {"name": "loop", "self": "[circular]"}
    assert kept[2] == {"direct": "1"} and kept[3] == {"name": "loop", "self": "[circular]"}
    stored = page.evaluate("JSON.parse(localStorage.getItem(`studyhive:${config.token}:rows-refused`))")
    assert stored["length"] == 4
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/results")
    assert session(token).status == "completed"


def test_a_burst_behind_a_big_row_costs_the_same_per_row_and_an_old_queue_is_taken_over(page, live_server, app):
    page.add_init_script(COUNT_WRITES)
    token = start(page, live_server, "burst")
    old = [{"trial_id": f"old-format-{i}", "row": {"old": i}} for i in range(2)]
    page.evaluate("(old) => localStorage.setItem(`studyhive:${config.token}:rows-queue`, JSON.stringify(old))", old)
    page.reload()
    assert len(rows_arrive(page, token, 2)) == 2
    page.evaluate("window.studyhiveWritten = 0")
    page.frame_locator("#studyhive-experiment").get_by_role("button", name="Send").click()
    expect(page.get_by_role("button", name="Continue")).to_be_visible(timeout=60_000)
    rows = stored_rows(token)
    assert rows[:2] == [{"old": 0}, {"old": 1}] and len(rows[2]["big"]) == 1_000_000
    assert [r["n"] for r in rows[3:-1]] == list(range(BURST_ROWS)) and rows[-1]["trial_type"] == "html-button-response"
    # Each row is written once (its row, trial_id and client_time: about 110 characters besides the row) with a
    # small index beside it, under keys of about 70 characters: the whole queue is never rewritten.
    rows_json = sum(len(json.dumps(r, separators=(",", ":"))) for r in rows[2:])
    written = page.evaluate("window.studyhiveWritten")
    assert written < rows_json + 600 * (BURST_ROWS + 2), (written, rows_json)
    assert page.evaluate("Object.keys(localStorage).filter((key) => key.includes(':rows-'))") == []
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/results")
    assert session(token).status == "completed"


def test_an_error_in_a_script_the_page_adds_is_seen_and_lets_the_participant_end(page, live_server, app):
    token = start(page, live_server, "loader")
    stopped = page.locator("#studyhive-stopped")
    error = recorded_error(page, token, timeout=30.0, until=lambda error: error is not None and error["fatal"])
    assert error["fatal"] is True and "settings is not defined" in error["message"]
    expect(stopped).to_contain_text("Something went wrong in this experiment")
    stopped.get_by_role("button", name="End the study").click()
    expect(stopped).to_contain_text("You can close this page.")
    assert (session(token).outcome, stored_rows(token)) == ("experiment_error", [])


def test_a_failed_request_the_experiment_leaves_unhandled_is_recorded(page, live_server, app):
    token = start(page, live_server, "lostfetch")
    error = recorded_error(page, token)
    assert error is not None and "Failed to fetch" in error["message"] and error["fatal"] is False
    page.frame_locator("#studyhive-experiment").get_by_role("button", name="Next").click()
    expect(page.get_by_role("button", name="Continue")).to_be_visible()


@pytest.mark.parametrize(("slug", "message"), [("finish7", "saveToLabServer is not defined"), ("finish8", "fetch")])
def test_an_error_in_the_experiments_own_on_finish_ends_the_run_and_is_recorded(page, live_server, app, slug, message):
    """After the last trial every row is stored: the error is recorded, not fatal, and Continue completes."""
    token = start(page, live_server, slug)
    frame = page.frame_locator("#studyhive-experiment")
    if slug == "finish7":
        frame.locator(".jspsych-display-element").press("f")
    else:
        frame.get_by_role("button", name="Done").click()
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    error = recorded_error(page, token)
    assert error is not None and message in error["message"] and error["fatal"] is False
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/results")
    assert (session(token).status, len(stored_rows(token))) == ("completed", 1)
