"""Researchers' jsPsych experiments for the tests (issue #24): written as a researcher writes them, their script tags
pointing at unpkg, synced against the fake npm registry (jsPsych 8.3.0 and its button plugin from node_modules)."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from server.db import db, dispose_engines
from server.studies.definitions import sync_studies
from tests.conftest import make_app
from tests.fake_npm_registry import FakeRegistry

STUDY_TOML = """title = "{title}"
task_type = "jspsych"
consent = "<p>Do you agree to take part?</p>"
min_width = 0
min_height = 0
flow = ["consent", "task"]

[task]
min_rows = {min_rows}
resume = "{resume}"
"""

HEAD = """<!DOCTYPE html>
<html>
<head>
  <title>My experiment</title>
  <script src="https://unpkg.com/jspsych@8.3.0"></script>
  <script src="https://unpkg.com/@jspsych/plugin-html-button-response@2"></script>
  <link href="https://unpkg.com/jspsych@8.3.0/css/jspsych.css" rel="stylesheet">
</head>
<body></body>
"""

# Timeline variables in a random order, a field added by on_finish, a debrief computed from jsPsych.data, and the
# experiment's own on_finish: what the jsPsych tutorial does.
EXPERIMENT = (
    HEAD
    + """<script>
  var ownRows = 0;
  var jsPsych = initJsPsych({
    on_data_update: function () { ownRows += 1; },
    on_finish: function () { document.body.setAttribute("data-own-finish", "yes"); },
  });
  var words = [{word: "cyan", answer: 0}, {word: "green", answer: 1}, {word: "blue", answer: 0},
               {word: "pink", answer: 1}, {word: "grey", answer: 0}, {word: "gold", answer: 1}];
  var trial = {
    type: jsPsychHtmlButtonResponse,
    stimulus: function () { return "<p class='word'>" + jsPsych.evaluateTimelineVariable("word") + "</p>"; },
    choices: ["left", "right"],
    data: {task: "word", word: jsPsych.timelineVariable("word"), answer: jsPsych.timelineVariable("answer")},
    on_finish: function (data) { data.correct = data.response === data.answer; },
  };
  var debrief = {
    type: jsPsychHtmlButtonResponse,
    stimulus: function () {
      var n = jsPsych.data.get().filter({task: "word"}).count();
      return "<p id='debrief'>You answered " + n + " words.</p>";
    },
    choices: ["Done"],
  };
  var welcome = {type: jsPsychHtmlButtonResponse, stimulus: "<p>Welcome</p>", choices: ["Begin"]};
  jsPsych.run([welcome, {timeline: [trial], timeline_variables: words, randomize_order: true}, debrief]);
</script>
</html>
"""
)

# jsPsych 7 as its tutorial writes it: a version range, keyboard responses, jsPsych.randomization.shuffle at the top
# level (before run: the seed must already be set), on_finish adding a field, and endExperiment in a trial's
# on_finish once four words are answered.
EXPERIMENT7 = """<!DOCTYPE html>
<html>
<head>
  <script src="https://unpkg.com/jspsych@^7.3"></script>
  <script src="https://unpkg.com/@jspsych/plugin-html-keyboard-response@1.1.3"></script>
  <link href="https://unpkg.com/jspsych@7.3.4/css/jspsych.css" rel="stylesheet">
</head>
<body></body>
<script>
  var jsPsych = initJsPsych({on_finish: function () { document.body.setAttribute("data-own-finish", "yes"); }});
  var words = jsPsych.randomization.shuffle(["oak", "elm", "ash", "yew", "fir", "box"]);
  var timeline = [{type: jsPsychHtmlKeyboardResponse, stimulus: "<p>Press a key to begin</p>"}];
  words.forEach(function (word, i) {
    timeline.push({
      type: jsPsychHtmlKeyboardResponse,
      stimulus: "<p class='word'>" + word + "</p>",
      choices: ["f", "j"],
      data: {task: "word", word: word},
      on_finish: function (data) {
        data.correct = data.response === "f";
        if (i === 3) jsPsych.endExperiment("<p id='ended'>Thank you</p>");
      },
    });
  });
  jsPsych.run(timeline);
</script>
</html>
"""

# jsPsych 8's abortExperiment in a trial's on_finish: the timeline ends there, and that counts as finished.
ABORTING = (
    HEAD
    + """<script>
  var jsPsych = initJsPsych();
  jsPsych.run([
    {type: jsPsychHtmlButtonResponse, stimulus: "<p>Welcome</p>", choices: ["Begin"],
     on_finish: function () { jsPsych.abortExperiment("<p id='aborted'>Stopped early</p>"); }},
    {type: jsPsychHtmlButtonResponse, stimulus: "<p>Never shown</p>", choices: ["No"]},
  ]);
</script>
</html>
"""
)

# Researcher script that tries to act as a logged-in researcher: read a researcher page, the page around it, and
# the studyhive origin's storage and cookies.
SNOOP = (
    HEAD
    + """<script>
  var jsPsych = initJsPsych();
  var report = {};
  try { report.parent = String(parent.document.body.innerHTML.length); } catch (e) { report.parent = "blocked"; }
  try { report.cookie = document.cookie || "none"; } catch (e) { report.cookie = "blocked"; }
  try { report.storage = String(localStorage.length); } catch (e) { report.storage = "blocked"; }
  fetch("/researcher/", {credentials: "include"})
    .then(function (r) { return r.text(); })
    .then(function (text) { report.fetch = text.slice(0, 200); })
    .catch(function () { report.fetch = "blocked"; })
    .then(function () { document.body.setAttribute("data-report", JSON.stringify(report)); });
  jsPsych.run([{type: jsPsychHtmlButtonResponse, stimulus: "<p>Hello</p>", choices: ["OK"]}]);
</script>
</html>
"""
)


def write_study(studies: Path, slug: str, html: str = EXPERIMENT, min_rows: int = 8, resume: str = "replay") -> Path:
    folder = studies / slug
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "study.toml").write_text(STUDY_TOML.format(title=slug, min_rows=min_rows, resume=resume))
    (folder / "experiment.html").write_text(html)
    return folder


# The packages the fake registry serves unless a test names others (packing the big ones takes seconds).
FOLDERS = (
    "jspsych",
    "@jspsych/plugin-html-button-response",
    "jspsych7",
    "jspsych70",
    "plugin-html-keyboard-response-1",
)


@contextmanager
def jspsych_app(tmp_path: Path, *, folders: tuple[str, ...] = FOLDERS, **studies: str | tuple):
    """An app whose studies are the given slug → experiment HTML, or (HTML, min_rows[, resume]), synced against a
    fake npm registry serving the node_modules `folders` (tests/fake_npm_registry.py FOLDERS)."""
    for slug, given in studies.items():
        write_study(tmp_path / "studies", slug, *(given if isinstance(given, tuple) else (given,)))
    registry = FakeRegistry(folders=folders)
    app = make_app(tmp_path, STUDIES_DIR=str(tmp_path / "studies"), NPM_REGISTRY_URL=registry.url)
    try:
        with app.app_context():
            db.drop_all()
            db.create_all()
            sync_studies(Path(app.config["STUDIES_DIR"]))
            yield app
            db.session.remove()
            db.drop_all()
            dispose_engines()
    finally:
        registry.close()


# A jsPsych 5 tag: sync refuses it by the version the registry resolves (jspsych5_registry serves one).
JSPSYCH5 = '<script src="https://unpkg.com/jspsych@5"></script>'


def jspsych5_registry() -> FakeRegistry:
    """A fake registry with jsPsych 8 and its button plugin, and a jsPsych 5 that sync must refuse by its version."""
    fake = FakeRegistry(folders=("jspsych", "@jspsych/plugin-html-button-response"))
    fake.add("jspsych", "5.0.3", {"jspsych.js": "var jsPsych = (function() {})();"}, tag=None)
    return fake
