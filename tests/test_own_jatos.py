"""An experiment written for JATOS (issue #37, point 4): its <script src="…jatos.js"> tag — a file JATOS serves
itself, never in the study's folder — is synced and served as studyhive's own `jatos` object
(server/tasks/jspsych/static/jatos.js), wherever the tag names it. The calls themselves run in the page:
tests/test_own_jatos_browser.py."""

from __future__ import annotations

import re

import pytest

from server.studies.definitions import get_study
from tests.jspsych_study import jspsych_app, write_study

PAGE = """<!DOCTYPE html>
<html>
<head>
  <script src="{src}" integrity="sha384-JATOSJATOSJATOS" crossorigin="anonymous"></script>
  <script src="https://unpkg.com/jspsych@8.3.0"></script>
  <script src="https://unpkg.com/@jspsych/plugin-html-button-response@2"></script>
</head>
<body></body>
<script>
  jatos.onLoad(function () {{
    var jsPsych = initJsPsych({{on_finish: function () {{ jatos.submitResultData("", jatos.startNextComponent); }}}});
    jsPsych.run([{{type: jsPsychHtmlButtonResponse, stimulus: "<p>Hello</p>", choices: ["OK"]}}]);
  }});
</script>
</html>
"""
SOURCES = {
    "beside": "jatos.js",  # JATOS's own examples: beside the page, where JATOS answers it
    "assets": "/assets/javascripts/jatos.js",  # as JATOS serves it
    "elsewhere": "https://jatos.example.org/assets/javascripts/jatos.js",
    "copied": "lib/jatos.js",  # a copy of JATOS's file in the study folder: it would call a JATOS server
}


# The tag's replacement and the file served: nothing here depends on the database backend (CI time).
pytestmark = pytest.mark.any_db


@pytest.fixture
def app(tmp_path):
    copied = tmp_path / "studies" / "copied" / "lib"
    copied.mkdir(parents=True)
    (copied / "jatos.js").write_text("var jatos = {}; // JATOS's own, calling its server")
    given = write_study(tmp_path / "studies", "given", PAGE.format(src="jatos.js"), 1)
    with (given / "study.toml").open("a") as toml:
        toml.write("[task.jatos]\ncomponent_input = {title = \"<Ünï 'code'>\"}\nbatch_input = {}\n")
    pages = {slug: (PAGE.format(src=src), 1) for slug, src in SOURCES.items()}
    with jspsych_app(tmp_path, folders=("jspsych", "@jspsych/plugin-html-button-response"), **pages) as app:
        yield app


def test_a_jatos_tag_loads_studyhives_jatos_object(app):
    client = app.test_client()
    for slug, src in SOURCES.items():
        page = client.get(f"/study/{slug}/x/1/experiment.html")
        assert page.status_code == 200, slug  # synced: the tag is not a missing study file or an unknown host
        html = page.get_data(as_text=True)
        tags = re.findall(r"<script[^>]*jatos\.js[^>]*>", html)
        assert tags == ['<script src="/tasks/jspsych/jatos.js" crossorigin="anonymous">'], (slug, src)
    shim = client.get("/tasks/jspsych/jatos.js")
    assert shim.status_code == 200 and shim.mimetype == "text/javascript"
    assert b"window.jatos =" in shim.data and b"studyhive:jatos-end" in shim.data


def test_the_json_inputs_study_toml_gives_are_on_the_tag_and_only_those(app):
    """[task.jatos]'s inputs other than JATOS's default {} are the tag's data attribute, as JSON, escaped for HTML;
    a study without them keeps its tag (and so its version) as before."""
    html = app.test_client().get("/study/given/x/1/experiment.html").get_data(as_text=True)
    tags = re.findall(r"<script[^>]*jatos\.js[^>]*>", html)
    assert tags == [
        '<script src="/tasks/jspsych/jatos.js" crossorigin="anonymous" '
        'data-studyhive-jatos="{&quot;component_input&quot;:{&quot;title&quot;:'
        '&quot;&lt;Ünï &#x27;code&#x27;&gt;&quot;}}">'
    ]


def test_a_study_without_json_inputs_keeps_the_configuration_it_had(app):
    """No [task.jatos] (or only JATOS's defaults): the stored [task] has no `jatos` key, so the configuration's hash,
    which versions the study, is what it was before studyhive answered JATOS's inputs."""
    with app.app_context():
        assert "jatos" not in get_study("beside").config["task"]
        assert get_study("given").config["task"]["jatos"]["component_input"] == {"title": "<Ünï 'code'>"}
