"""Endings of a researcher's own jsPsych experiment that mean what they say (issue #36 row 3), through the API and
the command line: an experiment that ends itself early (endExperiment / abortExperiment) is not a completion by
default; study.toml's [[task.endings]] say which endings mean which outcome, each with its own Prolific code; the
ending is validated and stored, exported, and an ended-early session is never approved automatically."""

from __future__ import annotations

import csv
import uuid
from pathlib import Path

import pytest

from server.db import db
from server.models import ParticipantSession, ProlificSubmission, Study
from server.prolific import reviews
from server.prolific.settings import COMPLETE_URL
from server.studies.definitions import StudyFileError, sync_studies
from server.web.openapi import PATHS
from tests.helpers import enter
from tests.jspsych_study import EXPERIMENT, jspsych_app, write_study

RETURN = "<p>You did not agree. Please RETURN this study in Prolific.</p>"
# A Prolific study whose experiment has consent of its own and an attention check: its endings mean outcomes.
RULES = """
[[task.endings]]
outcome = "no_consent"
message_contains = "return this study"

[[task.endings]]
outcome = "completed"
last_row = {task = "debrief", done = true}

[[task.endings]]
outcome = "failed_attention_check"
ended = "either"
last_row = {"response.check" = "wrong"}

[prolific]
[prolific.codes]
completed = "C1DONE"
no_consent = "C1NOCONS"
ended_early = "C1EARLY"
"""


@pytest.fixture
def app(tmp_path):
    folder = write_study(tmp_path / "studies", "rules", EXPERIMENT, min_rows=2)
    toml = (folder / "study.toml").read_text().replace("flow = ", 'platform = "prolific"\nflow = ')
    (folder / "study.toml").write_text(toml + RULES)
    with jspsych_app(tmp_path, own=(EXPERIMENT, 2)) as app:
        yield app


def post_rows(client, token, *rows):
    for row in rows:
        body = {"trial_id": str(uuid.uuid4()), "row": {"trial_type": "html-button-response", **row}}
        assert client.post(f"/api/sessions/{token}/rows", json=body).status_code == 201


def finish(client, token, **ending):
    return client.post(f"/api/sessions/{token}/timeline-finished", json=ending)


def session(token) -> ParticipantSession:
    db.session.rollback()
    return db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()


def prolific_entry(n: int) -> dict[str, str]:
    return {"PROLIFIC_PID": f"5f1a2b3c4d5e6f7a8b9c0d{n:02d}", "STUDY_ID": "study-abc", "SESSION_ID": f"sess-{n}"}


def test_an_early_end_is_not_a_completion_by_default(client):
    token = enter(client, slug="own")
    post_rows(client, token, {"rt": 500}, {"rt": 600}, {"rt": 700})
    assert finish(client, token, ended_early=True, message=RETURN).get_json() == {"timeline_finished": True}
    answer = client.post(f"/api/sessions/{token}/complete", json={})
    assert answer.status_code == 200
    assert answer.get_json() == {"status": "abandoned", "outcome": "ended_early", "redirect_url": None}
    person = session(token)
    assert (person.status, person.outcome, person.completed_at) == ("abandoned", "ended_early", None)
    assert person.ending == {"ended_early": True, "message": RETURN}
    # Continue clicked twice (or a retry): answered as the first time
    assert client.post(f"/api/sessions/{token}/complete", json={}).get_json() == answer.get_json()

    natural = enter(client, slug="own")
    post_rows(client, natural, {"rt": 500}, {"rt": 600})
    assert finish(client, natural).status_code == 200  # the body the page sent before: {}
    done = client.post(f"/api/sessions/{natural}/complete", json={}).get_json()
    assert (done["status"], done["outcome"]) == ("completed", "completed")
    assert session(natural).ending == {"ended_early": False, "message": None}


def test_the_studys_endings_give_their_outcomes_and_prolific_codes(client):
    def run(n, rows, **ending):
        token = enter(client, slug="rules", **prolific_entry(n))
        post_rows(client, token, *rows)
        assert finish(client, token, **ending).status_code == 200
        return token, client.post(f"/api/sessions/{token}/complete", json={})

    words = [{"task": "word", "rt": 500}, {"task": "word", "rt": 600}]
    # declined the experiment's own consent: no_consent, with its code; its one row is enough
    token, answer = run(1, [{"consented": False}], ended_early=True, message=RETURN)
    assert answer.get_json() == {
        "status": "abandoned",
        "outcome": "no_consent",
        "redirect_url": COMPLETE_URL.format(code="C1NOCONS"),
    }
    assert session(token).status == "abandoned"
    # endExperiment after the debrief: completed, by the last row's values
    token, answer = run(2, [*words, {"task": "debrief", "done": True}], ended_early=True, message="<p>Thanks</p>")
    assert answer.get_json()["outcome"] == "completed" and session(token).status == "completed"
    assert answer.get_json()["redirect_url"] == COMPLETE_URL.format(code="C1DONE")
    # ... but a rule's completion needs min_rows like any other
    token, answer = run(3, [{"task": "debrief", "done": True}], ended_early=True, message="<p>Thanks</p>")
    assert answer.status_code == 409 and answer.get_json()["error"] == "too_few_rows"
    assert (session(token).status, session(token).flag) == ("started", "too_few_rows")
    # the last row decides: done is 1, not true, so this early end matches no rule: ended_early, its own code
    token, answer = run(4, [*words, {"task": "debrief", "done": 1}], ended_early=True, message="<p>Thanks</p>")
    assert answer.get_json() == {
        "status": "abandoned",
        "outcome": "ended_early",
        "redirect_url": COMPLETE_URL.format(code="C1EARLY"),
    }
    # a nested response value, on a natural end (ended = "either"): a failed attention check, status completed
    token, answer = run(5, [*words, {"response": {"check": "wrong"}}])
    assert answer.get_json()["outcome"] == "failed_attention_check" and session(token).status == "completed"
    # a natural end no rule names completes, as before
    token, answer = run(6, [*words, {"response": {"check": "right"}}])
    assert answer.get_json()["outcome"] == "completed"
    # no_consent's rule looks at early ends only (its default): a natural end whose text is irrelevant completes
    token, answer = run(7, [*words, {"task": "debrief", "done": False}])
    assert answer.get_json()["outcome"] == "completed"


def test_the_documented_ending_example_is_stored(client):
    body = PATHS["/api/sessions/{token}/timeline-finished"]["post"]["requestBody"]["content"]
    example = body["application/json"]["example"]
    token = enter(client, slug="own")
    assert finish(client, token, **example).status_code == 200 and session(token).ending == example


@pytest.mark.parametrize(
    "body, field",
    [
        ({"ended_early": True, "extra": 1}, "extra"),
        ({"ended_early": "yes"}, "ended_early"),
        ({"ended_early": 1}, "ended_early"),
        ({"ended_early": True, "message": ["a"]}, "message"),
        ({"ended_early": True, "message": "x" * 4001}, "message"),
        ({"ended_early": True, "message": "a\x00b"}, "message"),
        ({"ended_early": True, "message": "a\x1bb"}, "message"),
        ({"ended_early": False, "message": "natural ends have none"}, "message"),
    ],
    ids=["unknown field", "text", "number", "list", "too long", "NUL", "escape", "message without early end"],
)
def test_the_finished_signal_is_validated_and_nothing_partial_stored(client, body, field):
    token = enter(client, slug="own")
    refused = finish(client, token, **body)
    assert refused.status_code == 400 and refused.get_json()["field"] == field
    assert (session(token).timeline_finished_at, session(token).ending) == (None, None)


def test_a_lone_surrogate_is_refused_and_the_first_ending_stands(client):
    token = enter(client, slug="own")
    body = '{"ended_early": true, "message": "half an emoji \\ud83d"}'
    refused = client.post(f"/api/sessions/{token}/timeline-finished", data=body, content_type="application/json")
    assert refused.status_code == 400 and refused.get_json()["field"] == "message"
    assert session(token).ending is None
    head = "<p>Line one</p>\n\t<p>Line two 🎉</p>"
    lines = head + "x" * (4000 - len(head))  # at the limit
    assert finish(client, token, ended_early=True, message=lines).status_code == 200
    assert finish(client, token).status_code == 200  # a second report (another tab) changes nothing
    assert session(token).ending == {"ended_early": True, "message": lines}


@pytest.mark.parametrize(
    "rule, message",
    [
        ('outcome = "finished"\nmessage_contains = "x"', 'task.endings[1].outcome: expected one of "completed"'),
        ('outcome = "no_consent"', "task.endings[1]: an ending needs a condition: message_contains, last_row or both"),
        ('outcome = "no_consent"\nmessage_contains = ""', "task.endings[1].message_contains: expected"),
        ('outcome = "no_consent"\nlast_row = {}', "task.endings[1].last_row: expected at least 1 item"),
        (
            'outcome = "no_consent"\nended = "naturally"\nmessage_contains = "x"',
            "task.endings[1]: message_contains needs an early end",
        ),
        ('outcome = "experiment_error"\nlast_row = {a = 1}', "task.endings[1].outcome: expected one of"),
    ],
    ids=["unknown outcome", "no condition", "empty message", "empty last_row", "message on natural end", "error"],
)
def test_sync_refuses_an_unclear_ending_rule(app, rule, message):
    folder = Path(app.config["STUDIES_DIR"]) / "own"
    toml = folder / "study.toml"
    toml.write_text(toml.read_text() + f"\n[[task.endings]]\n{rule}\n")
    with pytest.raises(StudyFileError) as raised:
        sync_studies(folder.parent)
    assert message in str(raised.value)


def test_export_and_approval_treat_an_early_end_as_not_completed(app, client, runner, tmp_path):
    early = enter(client, slug="rules", **prolific_entry(1))
    post_rows(client, early, {"rt": 500}, {"rt": 600})
    finish(client, early, ended_early=True, message='=HYPERLINK("http://x")')
    client.post(f"/api/sessions/{early}/complete", json={})
    done = enter(client, slug="rules", **prolific_entry(2))
    post_rows(client, done, {"rt": 500}, {"rt": 600})
    finish(client, done)
    client.post(f"/api/sessions/{done}/complete", json={})

    out = tmp_path / "export"
    exported = runner.invoke(args=["export", "rules", "--out", str(out), "--stage", "pilot"])
    assert exported.exit_code == 0, exported.output
    rows = {r["participant_id"]: r for r in csv.DictReader((out / "participants.csv").open(encoding="utf-8"))}
    first, second = rows[str(session(early).id)], rows[str(session(done).id)]
    # (booleans as the CSV writer writes them: True, or JSON's true once issue #36 row 9 lands)
    assert (first["status"], first["outcome"], first["ended_early"].lower()) == ("abandoned", "ended_early", "true")
    assert first["end_message"] == '\'=HYPERLINK("http://x")'  # formula-safe
    assert (second["status"], second["outcome"], second["ended_early"].lower(), second["end_message"]) == (
        "completed",
        "completed",
        "false",
        "",
    )
    codebook = (out / "codebook.csv").read_text(encoding="utf-8")
    assert "participants.csv,ended_early,boolean" in codebook and "participants.csv,end_message" in codebook

    people = [session(early), session(done)]  # read before adding: session() rolls back
    study = db.session.scalars(db.select(Study).filter_by(slug="rules")).one()
    for n, person in enumerate(people):
        db.session.add(
            ProlificSubmission(
                study_id=study.id,
                submission_id=f"sub{n}",
                participant_id=person.prolific_pid,
                session_id=person.id,
                status="AWAITING REVIEW",
            )
        )
    db.session.commit()
    plan = reviews.approval_plan(study)
    assert [row.session_id for row in plan.approve] == [people[1].id]
    assert plan.skipped == {"session abandoned with outcome ended_early, not completed": [people[0].prolific_pid]}
