"""The participant page has one HTML escaper (static/studyhive/escape.js), and every task plugin shows its text
parameters as text: a `prompt`, `button_label`, label or statement holding `<b>` markup appears as written, with no
<b> element. Only the study keys documented as HTML (`consent`, `instructions`) are inserted as markup."""

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import ROOT
from tests.helpers import enter

SCRIPTS = [*ROOT.glob("static/studyhive/*.js"), *ROOT.glob("server/tasks/*/static/*.js")]
DEFINITION = re.compile(r"\bfunction\s+escapeHtml\b|\bescapeHtml\s*=")


def test_one_escaping_helper():
    """One definition, and no escaper written out under another name (a replace over the characters &<>"')."""
    defining = [path.relative_to(ROOT).as_posix() for path in SCRIPTS if DEFINITION.search(path.read_text())]
    assert defining == ["static/studyhive/escape.js"]
    escaping = [path.relative_to(ROOT).as_posix() for path in SCRIPTS if "[&<>\"']" in path.read_text()]
    assert escaping == ["static/studyhive/escape.js"]


# slug -> the task's plugin and trial parameters whose text carries markup (and what else the plugin needs to draw).
MARKUP = "<b>bold</b>"
PLUGINS = {
    "study3": (
        "jsPsychRatioEstimate",
        {
            "stimulus_url": "",
            "prompt": MARKUP + " prompt",
            "button_label": MARKUP + " next",
            "practice": False,
            "true_percent": None,
        },
    ),
    "sketch-demo": (
        "jsPsychSketchRecognition",
        {
            "stimulus_url": "",
            "vocabulary_url": "/vocabulary/sketch-demo.json",
            "prompt": MARKUP + " prompt",
            "button_label": MARKUP + " next",
            "max_guesses": 3,
            "max_suggestions": 8,
        },
    ),
    "hive-distinction": (
        "jsPsychHive",
        {
            "mode": "choice",
            "question": "",
            "photo_url": "",
            "options": [{"key": "a", "explanation": [], "label": MARKUP + " label"}],
            "similarity_ratings": False,
            "nodes": None,
            "path_url": None,
            "button_label": MARKUP + " next",
        },
    ),
    "two4two-demo": (
        "jsPsychHypothesisRating",
        {
            "image_base": "/none/",
            "grid": [["a"]],
            "column_labels": [MARKUP + " column"],
            "statement": MARKUP + " statement",
            "question": MARKUP + " question",
            "scale_labels": [MARKUP + " low", MARKUP + " high"],
            "button_label": MARKUP + " next",
            "max_cell": 160,
        },
    ),
}


def marked(value):
    """The strings with markup anywhere in `value` (trial parameters)."""
    if isinstance(value, str):
        if MARKUP in value:
            yield value
    elif isinstance(value, dict | list):
        for item in value.values() if isinstance(value, dict) else value:
            yield from marked(item)


@pytest.mark.parametrize("slug", list(PLUGINS))
def test_plugin_text_is_shown_as_text(app, client, live_server, page, slug):
    plugin, params = PLUGINS[slug]
    page.goto(f"{live_server}/study/{slug}/s/{enter(client, slug, consent=False)}")
    # The consent is the study's HTML, drawn as markup (its <h2> is a heading).
    expect(page.get_by_role("heading", name="Consent to take part")).to_be_visible()
    drawn = page.evaluate(
        """([plugin, params]) => {
        const box = document.createElement("div");
        new window[plugin](jsPsych).trial(box, params);
        return {bold: box.querySelectorAll("b").length, text: box.textContent};
    }""",
        [plugin, params],
    )
    texts = list(marked(params))
    assert len(texts) >= 2
    assert drawn["bold"] == 0
    assert all(text in drawn["text"] for text in texts), (texts, drawn["text"])
