"""In Chromium: a researcher's jsPsych experiment that reads the entry link's variables (issue #36, row 4;
docs/own-experiments.md, "URL variables and identifiers"). It records PROLIFIC_PID, STUDY_ID and a variable of its own
with jsPsych.data.addProperties, as published experiments do; the stored rows hold markers for the raw ids, a reload
replays them with the raw ids back in place (jsPsych.data equals what the experiment recorded), and the export writes
the participant's code where the experiment recorded the PROLIFIC_PID, identifiers.csv the raw id.
tests/test_own_url_variables.py covers the rest (bounds, withdrawal, the purge, the data package) through the API."""

from __future__ import annotations

import csv
import json
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.jspsych_study import HEAD, jspsych_app
from tests.test_jspsych_browser import experiment_frame, rows_arrive, session, stored_rows

SLUG = "urlvars"
PID, STUDY, SUBMISSION = "5f0a1b2c3d4e5f6a7b8c9d0e", "65aa1b2c3d4e5f6a7b8c9d01", "66bb1b2c3d4e5f6a7b8c9d02"

# What published experiments do with the URL's ids: addProperties at the top, and the id in a trial's own data.
URL_EXPERIMENT = (
    HEAD
    + """<script>
  var jsPsych = initJsPsych();
  var pid = jsPsych.data.getURLVariable("PROLIFIC_PID");
  jsPsych.data.addProperties({
    subject: pid, study: jsPsych.data.getURLVariable("STUDY_ID"), group: jsPsych.data.getURLVariable("group"),
  });
  function word(text) {
    return {type: jsPsychHtmlButtonResponse, stimulus: "<p class='word'>" + text + "</p>", choices: ["Next"],
            data: {note: "seen by " + pid}};
  }
  var debrief = {
    type: jsPsychHtmlButtonResponse,
    stimulus: function () {
      var subjects = jsPsych.data.get().values().map(function (row) { return row.subject; });
      return "<p id='debrief'>" + subjects.join(",") + "</p>";
    },
    choices: ["Done"],
  };
  jsPsych.run([{type: jsPsychHtmlButtonResponse, stimulus: "<p>Welcome</p>", choices: ["Begin"]},
               word("oak"), word("elm"), debrief]);
</script>
</html>
"""
)


@pytest.fixture
def app(tmp_path):
    with jspsych_app(tmp_path, **{SLUG: (URL_EXPERIMENT, 4)}) as app:
        yield app


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_experiment_reads_the_link_s_variables_and_rows_keep_the_consent_s_promise(page, live_server, app, tmp_path):
    link = urlencode({"PROLIFIC_PID": PID, "STUDY_ID": STUDY, "SESSION_ID": SUBMISSION, "group": "b c"})
    page.goto(f"{live_server}/study/{SLUG}?{link}")
    page.get_by_role("button", name="I agree").click()
    page.get_by_role("button", name="Start").click()
    page.wait_for_url("**/experiment")
    token = page.url.split("/s/", 1)[1].split("/", 1)[0]
    frame = page.frame_locator("#studyhive-experiment")
    frame.get_by_role("button", name="Begin").click()
    frame.locator(".word", has_text="oak").wait_for()
    frame.get_by_role("button", name="Next").click()
    frame.locator(".word", has_text="elm").wait_for()
    stored = rows_arrive(page, token, 2)
    assert [(r["subject"], r["study"], r["group"]) for r in stored] == [("[PROLIFIC_PID]", "[STUDY_ID]", "b c")] * 2
    assert stored[1]["note"] == "seen by [PROLIFIC_PID]"
    assert token not in experiment_frame(page).url

    page.reload()  # the two rows are replayed with the raw ids back in place
    frame.get_by_role("button", name="Next").click()
    expect(frame.locator("#debrief")).to_have_text(",".join([PID] * 3))
    frame.get_by_role("button", name="Done").click()
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    data = experiment_frame(page).evaluate("jsPsych.data.get().values()")
    rows = stored_rows(token)
    assert PID not in json.dumps(rows) and STUDY not in json.dumps(rows)
    as_recorded = json.dumps(rows).replace("[PROLIFIC_PID]", PID).replace("[STUDY_ID]", STUDY)
    assert len(rows) == 4 and json.loads(as_recorded) == json.loads(json.dumps(data))
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/results")
    assert session(token).status == "completed"

    out = tmp_path / "out"
    result = app.test_cli_runner().invoke(args=["export", SLUG, "--out", str(out), "--include-identifiers"])
    assert result.exit_code == 0, result.output
    (ids,) = read_csv(out / "identifiers.csv")
    assert ids["prolific_pid"] == PID
    trials = read_csv(out / "trials.csv")
    assert {(r["subject"], r["participant_code"]) for r in trials} == {(ids["participant_code"],) * 2}
    assert trials[1]["note"] == f"seen by {ids['participant_code']}"
