"""`flask studies check PATH` (issue #37, point 5): what `flask studies sync` would do with one study, nothing written:
the study file's validation, for an own jsPsych experiment its jsPsych version, every tag and how it resolves, its
inline scripts, the files published, the JATOS calls and the warnings; for a built-in task type its parameters. Exit 0
when sync would succeed, 1 with sync's own message otherwise."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.db import db
from server.studies.definitions import get_study
from server.tasks.jspsych.check import JATOS_SERVED
from tests.conftest import ROOT
from tests.jspsych_study import HEAD, JSPSYCH5, jspsych5_registry, write_study

PAGE = (
    HEAD.replace("<body></body>", '<body><img src="img/logo.png"></body>').replace(
        "</head>", '  <link rel="preconnect" href="https://unpkg.com">\n  <script src="js/lab.js"></script>\n</head>'
    )
    + """<script>
  var jsPsych = initJsPsych();
  var order = crypto.getRandomValues(new Uint32Array(1))[0] % 2;
  jsPsych.run([{type: jsPsychHtmlButtonResponse, stimulus: "<b onclick='go()'>Go</b><b onclick='to(" + order + ")'>",
    choices: ["OK"], on_finish: function () { document.querySelector("form").submit(); }}]);
</script>
</html>
"""
)
LAB_JS = """var started = Date.now();
jatos.onLoad(function () {}); jatos.abortStudy; var trials = jatos.componentJsonInput.trials || 10;
function save(rows) { jatos.submitResultData(rows); fetch("https://example.org/save.php", {method: "POST"}); }
function next() { jsPsych.data.addProperties({part: 2}); window.location.href = "part2.html"; }
// from https://stackoverflow.com/q/1 (a comment: no request); var old = Date.now();
/* window.location.href = "https://example.net/done"; fetch("/x"); '<b onclick="f(' + i + ')">' */
var help = '<a href="https://help.example.net/line" target="_blank">Help</a>'; // a link, said as one
function rt() { return Date.now() - started; }
var cue = "https://lab.github.io/task/img/cue.png"; // the lab's Pages site (served for a tag, not for code)
var thanks = {type: jsPsychHtmlKeyboardResponse, stimulus: "Thank you", choices: `NO_KEYS`}; // nothing ends it
var fixation = {type: jsPsychHtmlKeyboardResponse, stimulus: "+", choices: "NO_KEYS", trial_duration: 500};
function paid() { window.location.replace("https://app.prolific.co/submissions/complete?cc=C1A2B3"); }
function group() { return jsPsychPipe.getCondition("abc123"); }
var assigning = "https://pipe.jspsych.org/api/condition/"; // DataPipe's: answered in the frame, not another host
var solver = new Worker("js/solver.js");
var saved = window.indexedDB.open("progress");
"""


@pytest.fixture(scope="module")
def registry():
    fake = jspsych5_registry()
    yield fake
    fake.close()


@pytest.fixture
def probe(app, tmp_path, registry):
    """A new own experiment, "probe", not synced: packages from unpkg, a preconnect link, a local script and image,
    an inline script; the code calls jatos, reads the clock and crypto, submits a form, names an inline handler,
    posts to another host, adds properties to jsPsych's data in a function (no warning) and moves to another page."""
    app.config["NPM_REGISTRY_URL"] = registry.url
    folder = write_study(tmp_path / "studies", "probe", PAGE)
    (folder / "js").mkdir()
    (folder / "js" / "lab.js").write_text(LAB_JS)
    (folder / "img").mkdir()
    (folder / "img" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\nlogo")
    return folder


def row_counts() -> dict[str, int]:
    return {t.name: db.session.scalar(db.select(db.func.count()).select_from(t)) for t in db.metadata.sorted_tables}


def test_check_reports_what_sync_would_do_and_writes_nothing(runner, probe, registry):
    before = row_counts()
    asked = len(registry.requests)

    result = runner.invoke(args=["studies", "check", str(probe)])

    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:3] == [
        f"{probe / 'study.toml'}: valid",
        "task type: jspsych (Own jsPsych experiment)",
        "experiment: experiment.html, jsPsych 8.3.0 (major 8)",
    ]
    tags = lines[lines.index("tags:") + 1 : lines.index("inline scripts: 1")]
    assert tags[:3] == [
        '  line 5: <script src="https://unpkg.com/jspsych@8.3.0">: npm jspsych@8.3.0 dist/index.browser.min.js',
        '  line 6: <script src="https://unpkg.com/@jspsych/plugin-html-button-response@2">: '
        "npm @jspsych/plugin-html-button-response@2.1.0 dist/index.browser.min.js",
        '  line 7: <link href="https://unpkg.com/jspsych@8.3.0/css/jspsych.css" rel="stylesheet">: '
        "npm jspsych@8.3.0 css/jspsych.css",
    ]
    assert tags[3] == (
        '  line 8: <link rel="preconnect" href="https://unpkg.com">: removed (a connection to a host the page no '
        "longer loads from)"
    )
    assert tags[4:6] == [
        '  line 9: <script src="js/lab.js">: study file js/lab.js',
        '  line 11: <img src="img/logo.png">: study file img/logo.png',
    ]
    assert tags[6].startswith("  line 12: <script>: inline, allowed by its hash 'sha256-") and len(tags) == 7
    assert "packages pinned: 2" in lines
    assert any(line.startswith("  jspsych@8.3.0 (registry) sha512-") for line in lines)
    assert lines[lines.index("study files published: 2") + 1 :][:2] == ["  img/logo.png", "  js/lab.js"]
    assert (
        "JATOS calls: jatos.componentJsonInput, jatos.onLoad, jatos.submitResultData (answered by studyhive's jatos "
        "object); refused: jatos.abortStudy" in lines
    )
    assert (
        "JATOS inputs study.toml's [task.jatos] does not give: jatos.componentJsonInput (each reads {}, JATOS's "
        'default; docs/own-experiments.md, "Experiments written for JATOS")' in lines
    )
    warnings = lines[lines.index("warnings: 16") + 1 :][:16]
    assert [line.split(": ", 1)[0] for line in warnings] == [
        "  experiment.html:14",  # crypto.getRandomValues
        "  experiment.html:15",  # onclick= put together as it runs (not the one written out whole before it)
        "  experiment.html:16",  # .submit()
        "  js/lab.js:1",  # Date.now(), also line 8 (not line 5's, in a comment)
        "  js/lab.js:3",  # fetch()
        "  js/lab.js:3",  # https://example.org
        "  js/lab.js:4",  # window.location.href = (not addProperties: studyhive stores what it adds to earlier rows)
        "  js/lab.js:7",  # a link (not line 5's and 6's addresses, in comments)
        "  js/lab.js:9",  # lab.github.io
        "  js/lab.js:10",  # a trial nothing ends (not line 11's, which its trial_duration ends)
        "  js/lab.js:12",  # Prolific's completion link (not as another host)
        "  js/lab.js:12",  # location.replace(
        "  js/lab.js:13",  # DataPipe's condition assignment, called
        "  js/lab.js:14",  # and its URL (not as another host)
        "  js/lab.js:15",  # a Web Worker, under resume = "replay"
        "  js/lab.js:16",  # IndexedDB
    ]
    assert "crypto.getRandomValues" in warnings[0] and 'resume = "replay"' in warnings[0]
    assert "onclick= is an inline event handler whose code the script puts together as it runs" in warnings[1]
    assert "form.submit()" in warnings[2]
    assert warnings[3].startswith("  js/lab.js:1: Date.now() (also line 8): resume")
    assert "fetch()" in warnings[4]
    assert "example.org: a host studyhive cannot serve" in warnings[5]
    assert "window.location.href: sends the experiment's frame to another address" in warnings[6]
    assert "another page of the study never runs" in warnings[6]
    assert "links to other hosts: help.example.net: the experiment's frame opens no other window" in warnings[7]
    assert "lab.github.io: a Pages site the frame's policy blocks every request to, and this URL" in warnings[8]
    assert "`NO_KEYS`: a keyboard-response trial that takes no key and has no trial_duration" in warnings[9]
    assert warnings[10] == (
        "  js/lab.js:12: Prolific's completion link (code C1A2B3): studyhive's Continue button sends a participant who "
        'completed to Prolific itself, with study.toml\'s code: completion_code = "C1A2B3" (or [prolific.codes] '
        'completed = "C1A2B3"), which this link\'s redirect never reaches'
    )
    assert (
        warnings[12]
        == warnings[13].replace(":14:", ":13:")
        == (
            "  js/lab.js:13: DataPipe's condition assignment: studyhive answers it with the number of the session's "
            'condition in study.toml\'s [[conditions]] (0 for the first; docs/own-experiments.md, "Conditions"); in a '
            "study without [[conditions]] it stops the experiment as a fatal error"
        )
    )
    assert "new Worker(): it runs" in warnings[14] and 'use resume = "restart" if trials depend on it' in warnings[14]
    assert warnings[15].startswith("  js/lab.js:16: indexedDB.open(): the experiment's sandboxed frame has no origin")
    assert not any("addProperties" in line for line in lines)
    assert lines[-1] == "sync would create the study (version 1)"
    # it asked the registry as sync does, and stored nothing: no study, no asset, no row of any table
    assert len(registry.requests) > asked
    db.session.expire_all()
    assert row_counts() == before and get_study("probe") is None


def test_check_by_slug_of_a_synced_study_and_an_edited_one(app, runner):
    """A slug names studies/<slug>; check compares with the stored version and changes nothing of it."""
    result = runner.invoke(args=["studies", "check", "visual-search"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "sync would leave the study unchanged (version 1)"
    assert "warnings: none" in result.output.splitlines()
    assert "JATOS calls: none" in result.output.splitlines()

    study3 = runner.invoke(args=["studies", "check", "study3"])
    assert study3.exit_code == 0, study3.output
    lines = study3.output.splitlines()
    assert lines[1] == "task type: ratio-estimation (Ratio estimation on bar charts (Cleveland–McGill position–length))"
    assert "[task], validated:" in lines and "  trials_per_type = 5" in lines
    assert lines[-1] == "sync would leave the study unchanged (version 1)"


def test_an_edited_study_would_get_a_new_version_and_keeps_its_own(app, runner, tmp_path):
    folder = tmp_path / "studies" / "study3"
    folder.mkdir(parents=True)
    original = (Path(app.config["STUDIES_DIR"]) / "study3" / "study.toml").read_text()
    (folder / "study.toml").write_text(original.replace("trials_per_type = 5", "trials_per_type = 4"))
    before = row_counts()

    result = runner.invoke(args=["studies", "check", str(folder)])

    assert result.exit_code == 0, result.output
    assert "  trials_per_type = 4" in result.output.splitlines()
    assert result.output.splitlines()[-1] == "sync would update the study to version 2"
    db.session.expire_all()
    assert row_counts() == before and get_study("study3").version == 1


def test_check_fails_with_syncs_own_message(runner, probe, app):
    """Refused tags: exit 1 with the messages sync prints for them, every one of them in page order (a researcher
    fixes them all after one sync), and nothing written."""
    page = probe / "experiment.html"
    jquery = '<script src="https://lab.example.org/jquery.js"></script>'
    page.write_text(
        page.read_text()
        .replace('<script src="https://unpkg.com/jspsych@8.3.0"></script>', JSPSYCH5)
        .replace('<script src="js/lab.js"></script>', jquery)
    )
    before = row_counts()

    result = runner.invoke(args=["studies", "check", str(probe)])

    assert result.exit_code == 1, result.output
    sync_says = [
        f"{probe / 'study.toml'}: experiment.html: {JSPSYCH5.removesuffix('</script>')}: "
        "jsPsych 5 and older are not supported (this tag loads jspsych@5.0.3)",
        f"{probe / 'study.toml'}: experiment.html: {jquery.removesuffix('</script>')}: lab.example.org is not an npm "
        "CDN or a library host studyhive can serve; put the file in the study folder",
    ]
    assert result.output.splitlines() == [f"Error: {sync_says[0]}", sync_says[1]]
    db.session.expire_all()
    assert row_counts() == before

    app.config["STUDIES_DIR"] = str(probe.parent)
    synced = runner.invoke(args=["studies", "sync", "probe"])
    assert synced.exit_code == 1 and set(sync_says) <= set(synced.output.splitlines())


@pytest.mark.parametrize(
    "given, message",
    [
        ("no-such-study", "no-such-study is neither a study folder (with a study.toml) nor a study in "),
        ("{probe}/js", "js is neither a study folder (with a study.toml) nor a study in "),
    ],
)
def test_check_of_something_that_is_no_study(runner, probe, given, message):
    result = runner.invoke(args=["studies", "check", given.format(probe=probe)])
    assert result.exit_code == 1 and message in result.output, result.output


def test_an_invalid_study_file_lists_its_problems(runner, probe):
    toml = probe / "study.toml"
    toml.write_text(toml.read_text().replace("min_rows = 8", "min_rows = -1\ncolour = 2"))

    result = runner.invoke(args=["studies", "check", str(probe)])

    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"Error: {toml}: task.min_rows: expected at least 0, got -1",
        f"{toml}: task.colour: unknown key",
    ]


def test_check_knows_the_calls_studyhives_jatos_object_answers():
    """check's list of answered JATOS calls is the object jatos.js defines (its last object literal's keys)."""
    script = (ROOT / "server" / "tasks" / "jspsych" / "static" / "jatos.js").read_text(encoding="utf-8")
    literal = script[script.rindex("window.jatos = refusing(") :]
    keys = set(re.findall(r"^\s{6}(\w+)(?:[:,(]| \()", literal, re.M))
    assert keys == JATOS_SERVED
