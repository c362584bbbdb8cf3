"""In Chromium: a researcher's own jsPsych experiment that ends itself early (issue #36 row 3). The runtime learns
that abortExperiment ended the run, and with which message; study.toml's [[task.endings]] map that message to
no_consent, so Continue takes the Prolific participant to the study's no_consent code, not the completion code.
(The default, an early end that is not a completion, runs in tests/test_jspsych_browser.py's endExperiment and
abortExperiment tests.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession
from tests.jspsych_study import HEAD, jspsych_app, write_study

DECLINED = "<p id='declined'>You did not agree. Please return this study in Prolific.</p>"
# The experiment's own consent, as a published experiment asks it: declining ends the run with a message.
OWN_CONSENT = (
    HEAD
    + """<script>
  var jsPsych = initJsPsych();
  jsPsych.run([
    {type: jsPsychHtmlButtonResponse, stimulus: "<p>Do you agree to take part?</p>", choices: ["Yes", "No"],
     on_finish: function (data) {
       data.consented = data.response === 0;
       if (!data.consented) jsPsych.abortExperiment(\""""
    + DECLINED
    + """\");
     }},
    {type: jsPsychHtmlButtonResponse, stimulus: "<p>The task</p>", choices: ["Done"]},
  ]);
</script>
</html>
"""
)
RULES = """
[[task.endings]]
outcome = "no_consent"
message_contains = "return this study"

[prolific.codes]
completed = "C1DONE"
no_consent = "C1NOCONS"
"""
ENTRY = "PROLIFIC_PID=5f1a2b3c4d5e6f7a8b9c0d1e&STUDY_ID=study-abc&SESSION_ID=sess-xyz"


@pytest.fixture
def app(tmp_path):
    folder = write_study(tmp_path / "studies", "consent", OWN_CONSENT, min_rows=2)
    toml = (folder / "study.toml").read_text().replace("flow = ", 'platform = "prolific"\nflow = ')
    (folder / "study.toml").write_text(toml + RULES)
    with jspsych_app(tmp_path) as app:
        yield app


def test_declining_the_experiments_own_consent_goes_back_with_the_no_consent_code(page, live_server, app):
    page.route("https://app.prolific.com/**", lambda route: route.fulfill(body="Prolific"))
    page.goto(f"{live_server}/study/consent?{ENTRY}")
    page.get_by_role("button", name="I agree").click()  # studyhive's consent page: the study's own
    page.get_by_role("button", name="Start").click()
    page.wait_for_url("**/experiment")
    token = page.url.split("/s/", 1)[1].split("/", 1)[0]
    frame = page.frame_locator("#studyhive-experiment")
    frame.get_by_role("button", name="No").click()
    expect(frame.locator("#declined")).to_contain_text("Please return this study")
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("https://app.prolific.com/submissions/complete?cc=C1NOCONS")
    db.session.rollback()
    person = db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()
    assert (person.status, person.outcome) == ("abandoned", "no_consent")
    assert person.ending == {"ended_early": True, "message": DECLINED}
