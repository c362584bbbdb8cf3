"""Errors of a researcher's own jsPsych experiment (issue #36 row 2), through the API: the page's report is validated
and stored on the session (the first stands, a fatal one replaces a non-fatal one), the session is flagged
experiment_error, `POST /end` takes outcome experiment_error once a fatal error is recorded (with the study's
Prolific code), and the researcher sees the error in the participants list, on the participant page and in
participants.csv."""

from __future__ import annotations

import csv
import io
import uuid

import pytest
from frictionless import Package

from server.db import db
from server.models import ParticipantSession
from server.web.openapi import ERROR_EXAMPLE
from tests.helpers import PROLIFIC, enter
from tests.jspsych_study import EXPERIMENT, STUDY_TOML, jspsych_app

CODED = 'platform = "prolific"\n' + STUDY_TOML + '\n[prolific.codes]\ncompleted = "C1OWNDONE"\n'


@pytest.fixture
def app(tmp_path):
    for slug, codes in (("coded", 'experiment_error = "C1OWNERR"\n'), ("uncoded", "")):
        folder = tmp_path / "studies" / slug
        folder.mkdir(parents=True)
        (folder / "study.toml").write_text(CODED.format(title=slug, min_rows=2, resume="replay") + codes)
        (folder / "experiment.html").write_text(EXPERIMENT)
    with jspsych_app(tmp_path, own=(EXPERIMENT, 2)) as app:
        yield app


def report(client, token, **fields):
    return client.post(f"/api/sessions/{token}/experiment-error", json=fields)


def error_of(token) -> tuple[dict | None, str | None]:
    db.session.rollback()
    person = db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()
    return person.experiment_error, person.flag


def end(client, token):
    return client.post(f"/api/sessions/{token}/end", json={"outcome": "experiment_error"})


def test_the_first_error_stands_unless_a_fatal_one_follows(client):
    token = enter(client, slug="own")
    first = {"message": "ReferenceError: chart is not defined", "stack": None, "trial_index": 2, "fatal": False}
    assert report(client, token, **first).get_json() == {"recorded": True}
    stored, flag = error_of(token)
    assert {k: stored[k] for k in first} == first and stored["at"].startswith("20") and flag == "experiment_error"
    later = report(client, token, message="another", stack=None, trial_index=3, fatal=False)
    assert later.status_code == 200 and later.get_json() == {"recorded": False}
    assert report(client, token, **ERROR_EXAMPLE).get_json() == {"recorded": True}  # the documented example
    assert (
        report(client, token, message="after the fatal one", trial_index=5, fatal=True).get_json()["recorded"] is False
    )
    stored, _ = error_of(token)
    assert {k: stored[k] for k in ERROR_EXAMPLE} == ERROR_EXAMPLE


MALFORMED = [
    ({"message": "x", "fatal": True, "extra": 1}, "extra"),
    ({"fatal": True}, "message"),
    ({"message": "", "fatal": True}, "message"),
    ({"message": "x" * 1001, "fatal": True}, "message"),
    ({"message": "half an emoji \ud83d", "fatal": True}, "message"),
    ({"message": "nul \x00", "fatal": True}, "message"),
    ({"message": "x", "stack": "s" * 8001, "fatal": True}, "stack"),
    ({"message": "x", "stack": 12, "fatal": True}, "stack"),
    ({"message": "x", "trial_index": -1, "fatal": True}, "trial_index"),
    ({"message": "x", "trial_index": "3", "fatal": True}, "trial_index"),
    ({"message": "x", "trial_index": True, "fatal": True}, "trial_index"),
    ({"message": "x", "trial_index": 2**40, "fatal": True}, "trial_index"),
    ({"message": "x"}, "fatal"),
    ({"message": "x", "fatal": "yes"}, "fatal"),
]


def test_a_malformed_report_is_refused_and_stores_nothing(client):
    token = enter(client, slug="own")
    for fields, field in MALFORMED:
        refused = report(client, token, **fields)
        assert refused.status_code == 400 and refused.get_json()["field"] == field, fields
    assert error_of(token) == (None, None)


def test_a_report_needs_consent_and_an_open_session(client):
    early = enter(client, slug="own", consent=False)
    refused = report(client, early, message="x", fatal=True)
    assert (refused.status_code, refused.get_json()["error"]) == (409, "out_of_order")
    token = enter(client, slug="own")
    for i in range(2):
        row = {"trial_id": str(uuid.uuid4()), "row": {"trial_type": "html-button-response", "trial_index": i}}
        assert client.post(f"/api/sessions/{token}/rows", json=row).status_code == 201
    assert client.post(f"/api/sessions/{token}/timeline-finished", json={}).status_code == 200
    assert client.post(f"/api/sessions/{token}/complete", json={}).status_code == 200
    refused = report(client, token, message="x", fatal=False)
    assert (refused.status_code, refused.get_json()["error"]) == (409, "session_ended")


def test_end_with_experiment_error_needs_a_recorded_fatal_error(client):
    token = enter(client, slug="own")
    refused = end(client, token)
    assert (refused.status_code, refused.get_json()["error"]) == (409, "no_experiment_error")
    report(client, token, message="a late error", trial_index=1, fatal=False)
    assert end(client, token).get_json()["error"] == "no_experiment_error"
    report(client, token, message="TypeError: x is null", trial_index=1, fatal=True)
    ended = end(client, token)
    assert ended.get_json() == {"status": "abandoned", "outcome": "experiment_error", "redirect_url": None}
    assert end(client, token).get_json()["outcome"] == "experiment_error"  # a repeat answers the same
    db.session.rollback()
    person = db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()
    assert (person.status, person.outcome, person.flag) == ("abandoned", "experiment_error", "experiment_error")


@pytest.mark.parametrize(
    "slug, url", [("coded", "https://app.prolific.com/submissions/complete?cc=C1OWNERR"), ("uncoded", None)]
)
def test_on_prolific_the_end_after_an_error_answers_its_code(client, slug, url):
    token = enter(client, slug=slug, **PROLIFIC)
    report(client, token, message="Error: boom", fatal=True)
    assert end(client, token).get_json() == {"status": "abandoned", "outcome": "experiment_error", "redirect_url": url}


def test_a_refused_completion_keeps_the_error_flag_and_a_later_one_too(client):
    token = enter(client, slug="own")
    report(client, token, message="a harmless error", trial_index=0, fatal=False)
    assert client.post(f"/api/sessions/{token}/timeline-finished", json={}).status_code == 200
    assert client.post(f"/api/sessions/{token}/complete", json={}).get_json()["error"] == "too_few_rows"
    assert error_of(token)[1] == "experiment_error"
    for i in range(2):
        row = {"trial_id": str(uuid.uuid4()), "row": {"trial_type": "html-button-response", "trial_index": i}}
        client.post(f"/api/sessions/{token}/rows", json=row)
    assert client.post(f"/api/sessions/{token}/complete", json={}).status_code == 200
    assert error_of(token)[1] == "experiment_error"


def test_the_researcher_sees_the_error_listed_on_the_participant_page_and_exported(client, auth):
    token = enter(client, slug="own")
    report(client, token, message='=HYPERLINK("x") broke', stack="Error\n  at on_load", trial_index=3, fatal=True)
    end(client, token)
    quiet = enter(client, slug="own")
    db.session.rollback()
    ids = {t: db.session.scalars(db.select(ParticipantSession.id).filter_by(token=t)).one() for t in (token, quiet)}

    auth.login()
    listing = client.get("/researcher/studies/own/participants").get_data(as_text=True)
    assert '<td class="session-flag flag">experiment_error</td>' in listing
    page = client.get(f"/researcher/studies/own/participants/{ids[token]}").get_data(as_text=True)
    assert 'id="experiment-error-trial">3<' in page and "=HYPERLINK(&#34;x&#34;) broke</pre>" in page
    assert "The experiment stopped on an error of its own code" in page and "at on_load" in page
    page = client.get(f"/researcher/studies/own/participants/{ids[quiet]}").get_data(as_text=True)
    assert 'id="experiment-error"' not in page

    exported = client.get("/researcher/studies/own/participants.csv")
    rows = {int(r["participant_id"]): r for r in csv.DictReader(io.StringIO(exported.get_data(as_text=True)))}
    errored = rows[ids[token]]
    assert errored["experiment_error"] == '\'=HYPERLINK("x") broke'  # formula-safe, as every cell
    assert (errored["experiment_error_trial_index"], errored["experiment_error_fatal"]) == ("3", "True")
    assert errored["experiment_error_at"].startswith("20") and errored["outcome"] == "experiment_error"
    assert rows[ids[quiet]]["experiment_error"] == "" and rows[ids[quiet]]["experiment_error_fatal"] == ""


def test_a_data_package_with_an_error_is_valid(client, runner, tmp_path):
    token = enter(client, slug="own")
    report(client, token, message="TypeError: x is null", stack="at on_load", trial_index=1, fatal=True)
    result = runner.invoke(args=["export", "own", "--package", str(tmp_path / "package"), "--license", "CC0-1.0"])
    assert result.exit_code == 0, result.output
    validation = Package(str(tmp_path / "package" / "datapackage.json")).validate()
    assert validation.valid, validation.flatten(["rowNumber", "fieldName", "type", "note"])
    with open(tmp_path / "package" / "data" / "participants.csv", newline="") as fh:
        (person,) = csv.DictReader(fh)
    assert (person["experiment_error"], person["experiment_error_trial_index"]) == ("TypeError: x is null", "1")
