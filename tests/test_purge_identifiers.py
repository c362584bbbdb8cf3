"""`flask data purge-identifiers` against the fake Prolific (issue #26; docs/operations.md, "Data protection"): a dry
run by default; applied, the raw ids are nulled (the HMAC stored first where an older session has none) and the
User-Agent reduced, while the returning participant still resumes and the sync still matches; refused while a bonus
batch is unpaid or a submission awaits review; a repeat is harmless. tests/test_purge_prolific_ids.py reads every
table after it. tests/test_identifiers_browser.py drives the
dashboard's button."""

from __future__ import annotations

import csv

import pytest

from server import identifiers
from server.db import db
from server.models import BonusBatch, ParticipantSession, ProlificSubmission, StudyEvent
from server.studies.definitions import get_study
from tests.prolific_study import PROLIFIC_STUDY, SLUG, answer, code_of, complete, pid, prolific_app
from tests.prolific_study import enter as prolific_enter
from tests.test_identifiers import age, session_of

CHROME = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.71 "
    "Safari/537.36"
)


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def finish(client, fake, participant: str) -> tuple[str, str]:
    """The participant joins on Prolific, takes the study and submits; (submission id, token)."""
    submission = fake.join(PROLIFIC_STUDY, participant)
    token = prolific_enter(client, participant, submission)
    answer(client, token)
    fake.submit(submission, code_of(complete(client, token)["redirect_url"]))
    return submission, token


@pytest.fixture
def app(tmp_path):
    with prolific_app(tmp_path, PROLIFIC_PAY_SETTLE_SECONDS=0) as (app, fake):
        app.extensions["fake_prolific"] = fake
        yield app


@pytest.fixture
def fake(app):
    return app.extensions["fake_prolific"]


def purge(runner, *args):
    return runner.invoke(args=["data", "purge-identifiers", SLUG, *args])


def held(participant_id: int) -> tuple:
    db.session.rollback()
    s = db.session.get(ParticipantSession, participant_id)
    return s.prolific_pid, s.prolific_study_id, s.prolific_session_id, s.identifiers_purged_at is not None


def test_purge_dry_run_apply_repeat_and_what_still_matches(client, fake, runner, tmp_path):
    old, recent = pid(1), pid(2)
    submission, _ = finish(client, fake, old)
    prolific_enter(client, recent, fake.join(PROLIFIC_STUDY, recent))
    fake.set_status(submission, "APPROVED")
    assert runner.invoke(args=["prolific", "sync", SLUG]).exit_code == 0
    age(old, 40)
    s_old, s_recent = session_of(old), session_of(recent)
    s_old.user_agent = CHROME
    s_old.pid_hmac = None  # an older session: the purge stores its hash first
    # submissions older than their hashes (migration 0016): the purge stores the settled one's, the sync the other's
    db.session.execute(db.update(ProlificSubmission).values(submission_hmac=None, pid_hmac=None))
    db.session.commit()
    old_id, recent_id = s_old.id, s_recent.id

    dry = purge(runner)
    assert dry.exit_code == 0, dry.output
    assert "would purge the identifiers of 1\n  completed: 1" in dry.output and "--apply purges" in dry.output
    assert held(old_id)[0] == old and held(old_id)[3] is False  # nothing written

    applied = purge(runner, "--apply")
    assert applied.exit_code == 0, applied.output
    assert "purged the identifiers of 1" in applied.output
    assert held(old_id) == (None, None, None, True) and held(recent_id)[0] == recent
    purged = db.session.get(ParticipantSession, old_id)
    assert purged.pid_hmac == identifiers.pid_hmac(old) and purged.user_agent == "Chrome 120 / Windows 10"
    (event,) = db.session.scalars(db.select(StudyEvent).filter_by(action="identifiers_purged")).all()
    assert (event.detail["n"], event.detail["older_than_days"], event.detail["via"]) == (1, 30, "cli")

    # the returning participant resumes their session; the sync still matches their (settled, so purged) submission
    # by its keyed hash; a bonus by rule can no longer be checked against Prolific's record of them, so none is sent
    back = client.get(f"/study/{SLUG}", query_string={"PROLIFIC_PID": old, "STUDY_ID": PROLIFIC_STUDY})
    assert "You have already completed this study" in back.get_data(as_text=True)
    assert db.session.scalar(db.select(db.func.count()).select_from(ParticipantSession)) == 2
    assert runner.invoke(args=["prolific", "sync", SLUG]).exit_code == 0
    assert {(row.participant_id, row.pid_hmac): row.session_id for row in submissions()} == {
        (None, identifiers.pid_hmac(old)): old_id,
        (recent, identifiers.pid_hmac(recent)): recent_id,  # ACTIVE: not settled, and its session not purged
    }
    bonus = runner.invoke(args=["prolific", "bonus", SLUG, "--per-correct", "0.20", "--yes"])
    assert bonus.exit_code != 0 and "their Prolific ids were purged" in bonus.output, bonus.output
    assert fake.payments() == {}
    out = tmp_path / "out"
    assert runner.invoke(args=["export", SLUG, "--out", str(out), "--include-identifiers"]).exit_code == 0
    rows = {r["participant_id"]: r for r in read_csv(out / "identifiers.csv")}
    assert rows[str(old_id)]["participant_code"] == identifiers.pid_hmac(old)[:16]
    assert rows[str(old_id)]["prolific_pid"] == ""
    assert rows[str(old_id)]["user_agent"] == "Chrome 120 / Windows 10" and rows[str(old_id)]["identifiers_purged_at"]

    again = purge(runner, "--apply", "--older-than", "0")  # repeat: the purged one is not counted again
    assert again.exit_code == 0 and "purged the identifiers of 1\n" in again.output  # only the recent one
    assert "1 Prolific submission(s) not settled (ACTIVE 1) keep their raw ids" in again.output  # theirs, for now
    assert "nothing to purge" in purge(runner, "--apply", "--older-than", "0").output
    assert db.session.scalar(db.select(db.func.count()).where(StudyEvent.action == "identifiers_purged")) == 2


def submissions():
    db.session.rollback()
    return db.session.scalars(db.select(ProlificSubmission)).all()


def test_purge_is_refused_while_a_bonus_or_an_approval_is_pending(client, fake, runner):
    participant = pid(1)
    submission, _ = finish(client, fake, participant)
    assert runner.invoke(args=["prolific", "sync", SLUG]).exit_code == 0
    age(participant, 40)
    session_id = session_of(participant).id

    waiting = purge(runner, "--apply")
    assert waiting.exit_code != 0 and "1 Prolific submission(s) are AWAITING REVIEW" in waiting.output
    assert "nothing purged" in waiting.output and held(session_id)[0] == participant
    assert "refused for now: 1 Prolific submission(s)" in purge(runner).output  # the dry run says so too

    fake.set_status(submission, "APPROVED")
    assert runner.invoke(args=["prolific", "sync", SLUG]).exit_code == 0
    study = get_study(SLUG)
    db.session.add(
        BonusBatch(study_id=study.id, fingerprint="f" * 64, source="file b.csv", status="paying", amount_cents=100)
    )
    db.session.commit()
    unpaid = purge(runner, "--apply")
    assert unpaid.exit_code != 0 and "bonus batch" in unpaid.output and "is paying, not paid" in unpaid.output
    assert held(session_id)[0] == participant
    assert db.session.scalar(db.select(db.func.count()).where(StudyEvent.action == "identifiers_purged")) == 0

    db.session.execute(db.update(BonusBatch).values(status="paid"))
    db.session.commit()
    assert purge(runner, "--apply").exit_code == 0 and held(session_id)[0] is None
    assert "no study named 'nope'" in runner.invoke(args=["data", "purge-identifiers", "nope"]).output
    assert "is not an age" in purge(runner, "--older-than", "soon").output
    assert "at most 36500 days" in purge(runner, "--older-than", "99999999d").output
    assert "at most 36500 days" in purge(runner, "--older-than", "1000000000d").output  # past what a timedelta holds
    assert "give the unit, e.g. 30d or 30h" in purge(runner, "--older-than", "30").output  # never hours by surprise


def test_the_study_page_purge_refuses_an_age_that_is_no_number_of_days(client, fake, auth):
    participant = pid(1)
    fake.join(PROLIFIC_STUDY, participant)
    prolific_enter(client, participant, "s1")
    auth.login()
    for bad, message in (
        ("x", "the age must be a number of days"),
        ("nan", "the age must be a number of days"),
        ("1e300", "the age must be a number of days"),
        ("-1", "the age must be from 0 to 36500 days"),
        ("40000", "the age must be from 0 to 36500 days"),
    ):
        answer = client.post(f"/researcher/studies/{SLUG}/identifiers/purge", data={"older_than_days": bad})
        assert answer.status_code == 303, bad
        page = client.get(f"/researcher/studies/{SLUG}/").get_data(as_text=True)
        assert f"Nothing purged: {message}." in page, bad
    assert session_of(participant).prolific_pid == participant
    assert db.session.scalar(db.select(db.func.count()).where(StudyEvent.action == "identifiers_purged")) == 0
