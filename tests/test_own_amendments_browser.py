"""In Chromium: jsPsych 8 and jsPsych 6 experiments that add fields to rows already recorded, as published ones
do (jsPsych.data.addProperties once an id is known, addDataToLastTrial in the next trial's on_start), store exactly
jsPsych.data, a reload in between included: the stored rows get the fields (POST /row-amendments, after the rows
queued before it), a row written but not yet recorded goes out with them, and a replay after the reload sends no
change twice. The API's side: tests/test_own_amendments.py."""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession, Trial
from tests.jspsych_study import HEAD, jspsych_app
from tests.test_jspsych_browser import between_polls, press, rows_arrive, session, start, stored_rows
from tests.test_own_jspsych6_browser import HEAD6, copy_jspsych63

# Each experiment's pages: a screen with one button (jsPsych 8) or answered by a key (jsPsych 6), each its own word.
PLUGINS = {8: ("jsPsychHtmlButtonResponse", 'choices: ["Next"]'), 6: ('"html-keyboard-response"', 'choices: ["f"]')}
SCREEN = """
  function screen(text, extra) {
    return Object.assign({type: PLUGIN, stimulus: "<p class='word'>" + text + "</p>", CHOICES}, extra || {});
  }
"""
RUN8 = "  var jsPsych = initJsPsych();\n  jsPsych.run(timeline);\n"


def experiment(version: int, code: str, start: str) -> str:
    """An experiment page of jsPsych `version` (8 or 6): the `screen` helper, `code` (which defines the timeline), then
    `start`, the script that starts it."""
    plugin, choices = PLUGINS[version]
    script = (SCREEN + code).replace("PLUGIN", plugin).replace("CHOICES", choices)
    return (HEAD if version == 8 else HEAD6) + "<script>\n" + script + start + "</script>\n</html>\n"


# Each way a field reaches rows jsPsych has recorded: addProperties in a trial's on_finish (the rows before it are
# stored; its own is written and goes out with the field), addDataToLastTrial in a trial's on_start (the last row is
# stored) and in its on_finish (its own row, not yet recorded: no change to send), addProperties in an on_start.
LATE = """
  var timeline = [
    screen("Welcome"),
    screen("Your id", {on_finish: function () { jsPsych.data.addProperties({subject: "s-42"}); }}),
    screen("oak", {
      on_start: function () { jsPsych.data.addDataToLastTrial({id_checked: true}); },
      on_finish: function () { jsPsych.data.addDataToLastTrial({own: 1}); },
    }),
    screen("elm", {on_start: function () { jsPsych.data.addProperties({block: 2}); }}),
    screen("Thank you"),
  ];
"""
WORDS = ("Welcome", "Your id", "oak", "elm", "Thank you")

# Changes through the data collection itself: a value assigned to the last row in the next trial's on_start, and
# addToAll in the experiment's own on_finish (after the last row was recorded).
COLLECTION = """
  var timeline = [
    screen("Welcome"),
    screen("Your answer"),
    screen("oak", {on_start: function () { jsPsych.data.get().last(1).values()[0].checked = "yes"; }}),
    screen("Thank you"),
  ];
  function done() { jsPsych.data.get().addToAll({finished: true}); }
"""

# Changes in display code, which a replay skips: the "Your id" screen's on_load marks the row before it and adds a
# field to every row.
ON_LOAD = """
  var timeline = [
    screen("Welcome"),
    screen("Your id", {on_load: function () {
      jsPsych.data.addDataToLastTrial({welcomed: true});
      jsPsych.data.addProperties({subject: "s-7"});
    }}),
    screen("oak"),
    screen("Thank you"),
  ];
"""

# A run that names itself by its page load, and adds that to its rows once it has recorded the first (resume =
# "restart": after a reload the timeline starts again, beside the first run's stored rows).
RESTARTED = """
  var load = String(performance.timeOrigin);
  var timeline = [
    screen("Welcome"),
    screen("Your id", {on_finish: function () { jsPsych.data.addProperties({load: load}); }}),
    screen("Thank you"),
  ];
"""
# The experiment's own on_data_update adds a field to every row, counting the rows so far, as an experiment does
# that tags its rows by block (its own row, being recorded, takes it too).
UPDATING = """
  var timeline = [screen("Welcome"), screen("oak"), screen("Thank you")];
  function tag() { jsPsych.data.addProperties({rows_so_far: jsPsych.data.get().count()}); }
"""
STUDIES = {
    "late8": (experiment(8, LATE, RUN8), 5),
    "late6": (experiment(6, LATE, "  jsPsych.init({timeline: timeline});\n"), 5),
    "collection8": (
        experiment(8, COLLECTION, "  var jsPsych = initJsPsych({on_finish: done});\n  jsPsych.run(timeline);\n"),
        4,
    ),
    "collection6": (experiment(6, COLLECTION, "  jsPsych.init({timeline: timeline, on_finish: done});\n"), 4),
    "onload": (experiment(8, ON_LOAD, RUN8), 4),
    "updating8": (
        experiment(8, UPDATING, "  var jsPsych = initJsPsych({on_data_update: tag});\n  jsPsych.run(timeline);\n"),
        3,
    ),
    "updating6": (experiment(6, UPDATING, "  jsPsych.init({timeline: timeline, on_data_update: tag});\n"), 3),
    "restarted": (experiment(8, RESTARTED, RUN8), 3, "restart"),
}


def stored_ids(token):
    """The session's rows' trial_id, in the order stored."""
    db.session.rollback()
    found = db.select(Trial.client_trial_id).join(ParticipantSession).where(ParticipantSession.token == token)
    return list(db.session.scalars(found.order_by(Trial.trial_index)))


@pytest.fixture
def app(tmp_path):
    for slug in ("late6", "collection6", "updating6"):
        copy_jspsych63(tmp_path / "studies" / slug)
    with jspsych_app(tmp_path, **STUDIES) as app:
        yield app


def advance(page, six: bool):
    """Answer the screen shown (by button in 8, by key in 6) and wait for the next."""
    if six:
        press(page, "f")
        return
    frame = page.frame_locator("#studyhive-experiment")
    word = frame.locator(".word").text_content()
    frame.get_by_role("button", name="Next").click()
    expect(frame.locator("#jspsych-content")).not_to_contain_text(word)


@pytest.mark.parametrize("slug", ["late8", "late6"])
def test_fields_added_to_recorded_rows_are_stored_and_a_reload_sends_none_twice(page, live_server, app, slug):
    six = slug == "late6"
    amendments = []
    page.on(
        "request",
        lambda request: amendments.append(request.post_data_json) if request.url.endswith("/row-amendments") else None,
    )
    token = start(page, live_server, slug)
    frame = page.frame_locator("#studyhive-experiment")
    frame.locator(".word", has_text="Welcome").wait_for()
    for _ in range(3):
        advance(page, six)
    frame.locator(".word", has_text="elm").wait_for()
    # Welcome and "Your id" stored with the subject (the first by a change, the second as it went out), "oak" with
    # its own field and no id_checked: the change of the row before it reached only that row.
    # "elm" has started: its on_start's block reached the three rows stored, after the changes before it
    fields = ("subject", "id_checked", "own", "block")
    wanted = [("s-42", None, None, 2), ("s-42", True, None, 2), ("s-42", None, 1, 2)]
    stored = rows_arrive(page, token, 3)
    deadline = time.monotonic() + 20
    while [tuple(row.get(f) for f in fields) for row in stored] != wanted and time.monotonic() < deadline:
        between_polls(page)
        stored = stored_rows(token)
    assert [tuple(row.get(f) for f in fields) for row in stored] == wanted, stored

    page.reload()  # three rows replayed: their on_finish and on_start run again, and send no change
    frame.locator(".word", has_text="elm").wait_for()
    advance(page, six)
    advance(page, six)  # "Thank you"
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    experiment = next(f for f in page.frames if "/x/1/experiment.html" in f.url)
    data = json.loads(json.dumps(experiment.evaluate("jsPsych.data.get().values()")))
    rows = stored_rows(token)
    assert [row["stimulus"] for row in rows] == [f"<p class='word'>{word}</p>" for word in WORDS]
    assert rows == data
    assert all(row["subject"] == "s-42" and row["block"] == 2 for row in rows)
    # one change each for the id (rows 0–0), the id check (row 1), the block (rows 0–2); none from the replayed
    # trials' on_finish and on_start; "elm", running at the reload, starts again and sends its block again (the rows
    # hold it already: nothing changes); none when the run ends (no row changed otherwise)
    ids = stored_ids(token)
    assert [(ids.index(a["first_trial_id"]), ids.index(a["trial_id"]), a["properties"]) for a in amendments] == [
        (0, 0, {"subject": "s-42"}),
        (1, 1, {"id_checked": True}),
        (0, 2, {"block": 2}),
        (0, 2, {"block": 2}),
    ]
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/results")
    assert session(token).status == "completed"


def test_a_reload_while_saves_wait_replays_the_queued_changes_and_keeps_the_fields_for_later_rows(
    page, live_server, app
):
    token = start(page, live_server, "onload")
    frame = page.frame_locator("#studyhive-experiment")
    frame.locator(".word", has_text="Welcome").wait_for()

    def refuse_saves(route):  # the connection drops for the saves: the rows and the change wait in the queue
        if route.request.method == "POST" and route.request.url.endswith(("/rows", "/row-amendments")):
            route.abort()
        else:
            route.continue_()

    page.route("**/api/sessions/**", refuse_saves)
    advance(page, False)
    advance(page, False)  # "oak" on screen; queued: Welcome's row, the two changes to it, "Your id"'s row
    page.reload()
    frame.locator(".word", has_text="oak").wait_for()
    experiment = next(f for f in page.frames if "/x/1/experiment.html" in f.url)
    # The replay did not run the on_load: the queued changes gave the first row its fields, and the page's kept
    # fields are jsPsych's again for the rows to come.
    replayed = experiment.evaluate("jsPsych.data.get().values()")
    assert [(row.get("welcomed"), row.get("subject")) for row in replayed] == [(True, "s-7"), (None, "s-7")]
    assert stored_rows(token) == []
    page.unroute("**/api/sessions/**")
    page.evaluate("window.dispatchEvent(new Event('online'))")  # back online: the queue is sent at once
    advance(page, False)
    advance(page, False)
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    data = json.loads(json.dumps(experiment.evaluate("jsPsych.data.get().values()")))
    rows = stored_rows(token)
    assert len(rows) == 4 and rows == data and all(row["subject"] == "s-7" for row in rows) and rows[0]["welcomed"]
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/results")
    assert page.evaluate(f"localStorage.getItem('studyhive:{token}:properties')") is None


def run_through(page, live_server, slug: str, screens: int) -> tuple[str, list[dict]]:
    """A participant answers the experiment's `screens` screens (jsPsych 6 when its slug ends in 6) until
    studyhive's Continue shows, once every row and change is stored: (the token, jsPsych.data's rows)."""
    token = start(page, live_server, slug)
    page.frame_locator("#studyhive-experiment").locator(".word", has_text="Welcome").wait_for()
    for _ in range(screens):
        advance(page, slug.endswith("6"))
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    experiment = next(f for f in page.frames if "/x/1/experiment.html" in f.url)
    return token, json.loads(json.dumps(experiment.evaluate("jsPsych.data.get().values()")))


@pytest.mark.parametrize("slug", ["collection8", "collection6"])
def test_changes_through_the_data_collection_are_stored_when_the_run_ends(page, live_server, app, slug):
    token, data = run_through(page, live_server, slug, 4)
    rows = stored_rows(token)
    assert rows == data and len(rows) == 4
    assert [(row.get("checked"), row["finished"]) for row in rows] == [(None, True), ("yes", True)] + [(None, True)] * 2


@pytest.mark.parametrize("slug", ["updating8", "updating6"])
def test_fields_the_experiments_on_data_update_adds_are_stored_with_every_row(page, live_server, app, slug):
    token, data = run_through(page, live_server, slug, 3)
    assert stored_rows(token) == data and [row["rows_so_far"] for row in data] == [3, 3, 3]
    assert session(token).experiment_error is None


def test_a_restarted_run_changes_its_own_rows_and_not_the_first_run_s(page, live_server, app):
    token = start(page, live_server, "restarted")
    frame = page.frame_locator("#studyhive-experiment")
    frame.locator(".word", has_text="Welcome").wait_for()
    advance(page, False)
    advance(page, False)  # "Thank you" on screen: the first run's two rows stored with its load
    first = rows_arrive(page, token, 2)
    page.reload()
    frame.locator(".word", has_text="Welcome").wait_for()
    for _ in range(3):
        advance(page, False)
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    experiment = next(f for f in page.frames if "/x/1/experiment.html" in f.url)
    second = json.loads(json.dumps(experiment.evaluate("jsPsych.data.get().values()")))
    rows = stored_rows(token)
    assert rows == first + second and len(rows) == 5
    loads = [row["load"] for row in rows]
    assert loads[:2] == [first[0]["load"]] * 2 and loads[2:] == [second[0]["load"]] * 3 and loads[0] != loads[2]
