"""In Chromium: experiments written for other hosts run unchanged (issue #37, point 4). One written for JATOS, in
its most common pattern — jsPsych started in jatos.onLoad, its data submitted in on_finish with
jatos.startNextComponent as the callback — stores every row once, equal to jsPsych.data, and completes the session;
jatos.endStudy(false, message) is an early end with that message; a JATOS call studyhive does not make is a console
error and the session's (non-fatal) experiment error. One that posts its data to its own server script at the end
(fetch, XMLHttpRequest, sendBeacon) is answered as saved, offline too, and nothing leaves the frame."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.jspsych_study import HEAD, jspsych_app, write_study
from tests.test_jspsych_browser import (
    answer,
    experiment_frame,
    recorded_error,
    rows_arrive,
    session,
    start,
    stored_rows,
)

# JATOS's own jsPsych example: everything inside jatos.onLoad, the result data submitted at the end with
# startNextComponent (the last component: the study ends) as its success callback.
JATOS = """<!DOCTYPE html>
<html>
<head>
  <script src="/assets/javascripts/jatos.js"></script>
  <script src="https://unpkg.com/jspsych@8.3.0"></script>
  <script src="https://unpkg.com/@jspsych/plugin-html-button-response@2"></script>
</head>
<body></body>
<script>
  var jsPsych;
  jatos.onLoad(() => {
    jsPsych = initJsPsych({
      on_finish: () => jatos.submitResultData(jsPsych.data.get().json(), jatos.startNextComponent),
    });
    jsPsych.data.addProperties({
      worker: jatos.workerId,
      result: jatos.studyResultId,
      group: jatos.urlQueryParameters.group,
      shared: [jatos.studySessionData, jatos.batchSession.getAll(), jatos.batchSession.get("n") === undefined],
      inputs: [jatos.studyInput, jatos.componentJsonInput, jatos.batchInput],
      same: [jatos.studyJsonInput === jatos.studyInput, jatos.componentInput === jatos.componentJsonInput],
      member: "member " + jatos.groupMemberId,  // a JATOS value studyhive has none of: undefined, not a function
    });
    jatos.addAbortButton();
    // refused calls JATOS answers with a promise: rejected, so the code after them goes on
    window.uploaded = jatos.uploadResultFile(new Blob(["x"]), "x.txt").then(() => "resolved", (e) => e.message);
    jatos.setStudySessionData({n: 1}).done(() => { window.stored = true; }).fail((e) => { window.failed = e.message; });
    jsPsych.run(["cyan", "gold", "pink"].map((word) => ({
      type: jsPsychHtmlButtonResponse, stimulus: "<p class='word'>" + word + "</p>", choices: ["next"],
    })));
  });
</script>
</html>
"""

# jsPsych 7 and the experiment's own consent question: "n" ends the study unsuccessfully, as JATOS experiments do.
DECLINING = """<!DOCTYPE html>
<html>
<head>
  <script src="jatos.js"></script>
  <script src="https://unpkg.com/jspsych@7.3.4"></script>
  <script src="https://unpkg.com/@jspsych/plugin-html-keyboard-response@1.1.3"></script>
</head>
<body></body>
<script>
  var jsPsych;
  jatos.onLoad(function () {
    jsPsych = initJsPsych({on_finish: function () { return jatos.submitResultData(jsPsych.data.get().json()); }});
    jsPsych.data.addProperties({inputs: [jatos.studyJsonInput, jatos.componentInput, jatos.batchJsonInput]});
    jsPsych.run([
      {type: jsPsychHtmlKeyboardResponse, stimulus: "<p id='consent'>Do you consent? (y/n)</p>", choices: ["y", "n"],
       on_finish: function (data) { if (data.response === "n") jatos.endStudy(false, "no consent given"); }},
      {type: jsPsychHtmlKeyboardResponse, stimulus: "<p id='never'>Never shown</p>"},
    ]);
  });
</script>
</html>
"""

# The end before the timeline starts: a participant the link does not qualify ends the study in jatos.onLoad.
INELIGIBLE = DECLINING.replace(
    "jatos.onLoad(function () {",
    "jatos.onLoad(function () {\n"
    "    if (!jatos.urlQueryParameters.group) jatos.endStudyAndRedirect('https://x.org', false, 'no group');",
)

# Data saved to the experiment's own server script at the end, three ways, each answer recorded on the page.
SAVING = (
    HEAD
    + """<script>
  var jsPsych = initJsPsych({
    on_finish: function () {
      var data = jsPsych.data.get().json();
      var answers = {};
      return fetch("save_data.php", {method: "POST", headers: {"Content-Type": "application/json"}, body: data})
        .then(function (response) { answers.fetch = response.status; return response.json(); })
        .then(function (body) {
          answers.body = body;
          return new Promise(function (resolve) {
            var xhr = new XMLHttpRequest();
            xhr.open("POST", "php/save.php");
            xhr.setRequestHeader("X-Requested-With", "XMLHttpRequest");
            xhr.onload = function () { answers.xhr = [xhr.status, xhr.responseText]; resolve(); };
            xhr.send("filedata=" + encodeURIComponent(data));
          });
        })
        .then(function () {
          answers.beacon = navigator.sendBeacon("/save", data);
          document.body.setAttribute("data-saved", JSON.stringify(answers));
        });
    },
  });
  jsPsych.run([{type: jsPsychHtmlButtonResponse, stimulus: "<p>Saving at the end</p>", choices: ["Done"]}]);
</script>
</html>
"""
)


# The JATOS template that loads its own scripts from JavaScript (added <script> elements, which DOMContentLoaded does
# not wait for) and builds the timeline from them in jatos.onLoad: JATOS calls it once they are there.
LOADING = """<!DOCTYPE html>
<html>
<head>
  <script src="jatos.js"></script>
  <script src="https://unpkg.com/jspsych@8.3.0"></script>
  <script src="https://unpkg.com/@jspsych/plugin-html-button-response@2"></script>
</head>
<body></body>
<script>
  ["js/words.js", "js/timeline.js"].forEach(function (src) {
    var script = document.createElement("script");
    script.src = src;
    script.async = false;
    document.head.appendChild(script);
  });
  jatos.onLoad(function () {
    var jsPsych = initJsPsych({on_finish: function () { jatos.endStudy(true); }});
    jsPsych.run(timelineBuilder(WORDS));
  });
</script>
</html>
"""
LOADED = {
    "loading/js/words.js": 'var WORDS = ["ash", "yew"];\n',
    "loading/js/timeline.js": (
        "function timelineBuilder(words) {\n  return words.map(function (word) {\n"
        '    return {type: jsPsychHtmlButtonResponse, stimulus: "<p class=\'word\'>" + word + "</p>", '
        'choices: ["next"]};\n  });\n}\n'
    ),
}

# Written for Pavlovia: its plugin's init and finish trials around the task (the plugin's file, in lib/ on Pavlovia,
# is not in the study folder, as in published repositories).
PAVLOVIA8 = """<!DOCTYPE html>
<html>
<head>
  <script src="https://unpkg.com/jspsych@8.3.0"></script>
  <script src="https://unpkg.com/@jspsych/plugin-html-button-response@2"></script>
  <script src="lib/jspsych-7-pavlovia-2022.1.1.js"></script>
</head>
<body></body>
<script>
  var jsPsych = initJsPsych();
  jsPsych.run([
    {type: jsPsychPavlovia, command: "init"},
    {type: jsPsychHtmlButtonResponse, stimulus: "<p class='word'>oak</p>", choices: ["next"]},
    {type: jsPsychPavlovia, command: "finish", participantId: "p1"},
    {type: jsPsychHtmlButtonResponse, stimulus: "<p class='word'>Thank you</p>", choices: ["next"]},
  ]);
</script>
</html>
"""

# What is new here runs in the page (jatos.js, runtime.js); the rows and endings it stores go through the same
# server paths as tests/test_jspsych_browser.py's, which run on both backends (CI time).
pytestmark = pytest.mark.any_db


# jsPsych's DataPipe, as @jspsych-contrib/plugin-pipe calls it: the data saved to the OSF through pipe.jspsych.org
# (answered as saved, in the frame), then the condition DataPipe would count out on its server (answered with the
# session's condition where the study has [[conditions]], by fetch and by XMLHttpRequest; refused, fatal, without).
DATAPIPE = (
    HEAD
    + """<script>
  var jsPsych = initJsPsych();
  function pipe(path, body) {
    return fetch("https://pipe.jspsych.org/api/" + path + "/", {method: "POST", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", Accept: "*/*"}}).then(function (r) { return r.json(); });
  }
  jsPsych.run([
    {type: jsPsychHtmlButtonResponse, stimulus: "<p>Saving</p>", choices: ["Save"], on_finish: function () {
      return pipe("data", {experimentID: "abc123", filename: "p1.csv", data: jsPsych.data.get().csv()})
        .then(function (answer) { document.body.setAttribute("data-piped", JSON.stringify(answer)); });
    }},
    {type: jsPsychHtmlButtonResponse, stimulus: "<p id='assign'>Assigning</p>", choices: ["Condition"],
     on_finish: function () {
       pipe("condition", {experimentID: "abc123"}).then(function (answer) {
         var xhr = new XMLHttpRequest();
         xhr.open("POST", "https://pipe.jspsych.org/api/condition/");
         xhr.onload = function () {
           document.body.setAttribute("data-condition", JSON.stringify([answer, JSON.parse(xhr.responseText)]));
         };
         xhr.send(JSON.stringify({experimentID: "abc123"}));
       });
     }},
  ]);
</script>
</html>
"""
)


# study.toml's [task.jatos] for the JATOS study: the inputs its GUI would give (markup and quotes in a value).
JATOS_INPUTS = """
[task.jatos]
study_input = {greeting = "<b>Hello</b> & \\"welcome\\"", words = ["cyan", "gold"]}
component_input = [1, 2.5, "x"]
"""


CONDITIONS = ("x", "y", "z")


@pytest.fixture
def app(tmp_path):
    folder = write_study(tmp_path / "studies", "jatos", JATOS, 3)
    with (folder / "study.toml").open("a") as toml:
        toml.write(JATOS_INPUTS)
    folder = write_study(tmp_path / "studies", "assigning", DATAPIPE, 2)
    with (folder / "study.toml").open("a") as toml:
        toml.write("".join(f'[[conditions]]\nname = "{name}"\n' for name in CONDITIONS))
    studies = {
        "declining": (DECLINING, 2),
        "ineligible": (INELIGIBLE, 2),
        "saving": (SAVING, 1),
        "datapipe": (DATAPIPE, 2),
        "loading": (LOADING, 2),
        "pavlovia8": (PAVLOVIA8, 4),
    }
    for name, text in LOADED.items():
        (tmp_path / "studies" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "studies" / name).write_text(text)
    with jspsych_app(tmp_path, **studies) as app:
        yield app


def test_a_jatos_experiment_stores_every_row_once_and_completes(page, live_server, app):
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    token = start(page, live_server, "jatos", "?group=b")
    frame = page.frame_locator("#studyhive-experiment")
    for _ in range(3):
        answer(frame, "next")
    expect(page.get_by_role("button", name="Continue")).to_be_visible()  # startNextComponent ended the run

    data = experiment_frame(page).evaluate("jsPsych.data.get().values()")
    rows = stored_rows(token)
    assert len(rows) == 3 and rows == json.loads(json.dumps(data))  # once each: submitResultData stores nothing
    first = rows[0]
    assert first["group"] == "b" and first["shared"] == [{}, {}, True]
    greeting = {"greeting": '<b>Hello</b> & "welcome"', "words": ["cyan", "gold"]}
    assert first["inputs"] == [greeting, [1, 2.5, "x"], {}] and first["same"] == [True, True]  # [task.jatos]
    assert first["worker"] == first["result"] and len(first["worker"]) == 16 and token not in first["worker"]
    assert first["member"] == "member undefined"
    refused = "jatos.addAbortButton is not available on studyhive"
    assert any(refused in text for text in errors)
    frame_window = experiment_frame(page)
    assert frame_window.evaluate("window.uploaded").startswith("jatos.uploadResultFile is not available on studyhive")
    assert frame_window.evaluate("[window.stored, window.failed]") == [
        None,
        'jatos.setStudySessionData is not available on studyhive (docs/own-experiments.md: "written for JATOS")',
    ]
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/results")
    person = session(token)
    assert (person.status, person.ending) == ("completed", {"ended_early": False, "message": None})
    # the session keeps the first refusal to arrive of those the page reports at once (the value read, the calls)
    kept = person.experiment_error
    assert "jatos.groupMemberId is not available on studyhive" in " ".join(errors)
    refusal = re.compile(
        r"jatos\.(groupMemberId|addAbortButton|uploadResultFile|setStudySessionData) is not available on studyhive"
    )
    assert kept["fatal"] is False and refusal.search(kept["message"])


def test_jatos_end_study_unsuccessful_is_an_early_end_with_its_message(page, live_server, app):
    token = start(page, live_server, "declining")
    frame = page.frame_locator("#studyhive-experiment")
    frame.locator("#consent").wait_for()
    frame.locator(".jspsych-display-element").press("n")
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    expect(frame.locator("#never")).to_have_count(0)
    data = experiment_frame(page).evaluate("jsPsych.data.get().values()")
    assert stored_rows(token) == json.loads(json.dumps(data)) and len(data) == 1
    assert data[0]["inputs"] == [{}, {}, {}]  # no [task.jatos]: JATOS's defaults
    page.get_by_role("button", name="Continue").click()
    expect(page.locator("#studyhive-notice")).to_have_text("You can close this page.")
    person = session(token)
    assert (person.status, person.outcome) == ("abandoned", "ended_early")
    assert person.ending == {"ended_early": True, "message": "no consent given"}

    token = start(page, live_server, "ineligible")  # ended before jsPsych.run(): the timeline never starts
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    expect(frame.locator("#consent")).to_have_count(0)
    assert session(token).ending == {"ended_early": True, "message": "no group"} and stored_rows(token) == []


def requests_to(page, part: str) -> list[str]:
    """The URLs, containing `part`, of the requests the page and its frames make from now on."""
    asked = []
    page.on("request", lambda request: part in request.url and asked.append(request.url))
    return asked


def test_data_posted_to_its_own_server_script_is_answered_and_the_run_completes(page, live_server, app):
    posted = requests_to(page, "save")
    token = start(page, live_server, "saving")
    frame = page.frame_locator("#studyhive-experiment")
    frame.locator("p", has_text="Saving at the end").wait_for()
    page.context.set_offline(True)  # answered in the frame: no server script, no connection needed
    frame.get_by_role("button", name="Done").click()
    saved = frame.locator("body[data-saved]")
    expect(saved).to_have_count(1)
    assert json.loads(saved.get_attribute("data-saved")) == {
        "fetch": 200,
        "body": {"ok": True, "success": True, "status": "success"},
        "xhr": [200, '{"ok":true,"success":true,"status":"success"}'],
        "beacon": True,
    }
    assert posted == []
    page.context.set_offline(False)
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/results")
    assert session(token).status == "completed" and len(stored_rows(token)) == 1


def test_datapipe_saves_are_answered_and_its_condition_assignment_is_refused(page, live_server, app):
    asked = requests_to(page, "pipe.jspsych.org")
    token = start(page, live_server, "datapipe")
    frame = page.frame_locator("#studyhive-experiment")
    frame.get_by_role("button", name="Save").click()
    piped = frame.locator("body[data-piped]")
    expect(piped).to_have_count(1)
    assert json.loads(piped.get_attribute("data-piped"))["success"] is True
    frame.get_by_role("button", name="Condition").click()
    stopped = page.locator("#studyhive-stopped")
    expect(stopped).to_contain_text("Something went wrong in this experiment")
    error = recorded_error(page, token)
    assert error["fatal"] is True and "this study has no [[conditions]]" in error["message"]
    assert asked == [] and len(rows_arrive(page, token, 2)) == 2  # nothing left the frame; every row is stored


def test_datapipe_condition_assignment_is_the_sessions_condition(page, live_server, app):
    """Three participants of a study with three [[conditions]] get one each (balanced), and DataPipe's condition
    assignment answers each with its number (0 for the first), by fetch and XMLHttpRequest alike, after a reload too."""
    asked = requests_to(page, "pipe.jspsych.org")
    numbers = {}
    for _ in CONDITIONS:
        token = start(page, live_server, "assigning")
        frame = page.frame_locator("#studyhive-experiment")
        frame.get_by_role("button", name="Save").click()
        frame.get_by_role("button", name="Condition").click()
        assigned = frame.locator("body[data-condition]")
        expect(assigned).to_have_count(1)
        number = CONDITIONS.index(session(token).condition)
        assert json.loads(assigned.get_attribute("data-condition")) == [{"condition": number}] * 2
        page.reload()  # the replay runs the trial's on_finish again: asked again, answered the same
        expect(assigned).to_have_count(1)
        assert json.loads(assigned.get_attribute("data-condition")) == [{"condition": number}] * 2
        expect(page.get_by_role("button", name="Continue")).to_be_visible()
        assert recorded_error(page, token, timeout=0) is None and len(stored_rows(token)) == 2
        numbers[token] = number
    assert sorted(numbers.values()) == [0, 1, 2] and asked == []


def test_jatos_on_load_waits_for_the_scripts_the_page_adds(page, live_server, app):
    token = start(page, live_server, "loading")
    frame = page.frame_locator("#studyhive-experiment")
    answer(frame, "next")
    answer(frame, "next")
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    assert [row["stimulus"] for row in stored_rows(token)] == ["<p class='word'>ash</p>", "<p class='word'>yew</p>"]
    assert session(token).experiment_error is None


def test_a_pavlovia_experiment_runs_with_the_plugins_stand_in(page, live_server, app):
    """Pavlovia's plugin would open a session on pavlovia.org and upload the data at finish: studyhive's stand-in
    ends both trials at once, recording the plugin's rows; every row is stored once and the run completes."""
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    token = start(page, live_server, "pavlovia8")
    frame = page.frame_locator("#studyhive-experiment")
    answer(frame, "next")
    answer(frame, "next")
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    data = experiment_frame(page).evaluate("jsPsych.data.get().values()")
    rows = stored_rows(token)
    assert rows == json.loads(json.dumps(data))
    assert [row["trial_type"] for row in rows] == [
        "pavlovia",
        "html-button-response",
        "pavlovia",
        "html-button-response",
    ]
    assert session(token).experiment_error is None and errors == []
