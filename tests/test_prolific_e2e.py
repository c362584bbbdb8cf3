"""A Prolific study run from the first entry to the bonus payment against the fake Prolific: 50 participants for 35
places in two conditions; 10 return and 5 time out, and once synced their condition slots take the 15 Prolific sends
instead; 3 fail the catch sketch and are sent on with that code; the 32 others are approved in one bulk call; one
rejection is refused for its short message, then sent; and a bonus batch whose run is killed between create and pay
is paid exactly once."""

from __future__ import annotations

import csv
import signal

import pytest

from server.db import db
from server.models import BonusBatch, ParticipantSession, StudyEvent
from server.studies import conditions
from server.studies.definitions import get_study
from tests.prolific_study import (
    CODES,
    PROLIFIC_STUDY,
    QUOTAS,
    SLUG,
    answer,
    code_of,
    complete,
    enter,
    flask_process,
    pid,
    prolific_app,
)

REASON = (
    "You named the attention-check sketch, a plain and complete umbrella, as something else, so we cannot use "
    "your answers; the instructions asked for careful answers."
)


@pytest.fixture
def app(tmp_path):
    with prolific_app(tmp_path) as (app, fake):
        app.extensions["fake_prolific"] = fake
        yield app


@pytest.fixture
def fake(app):
    return app.extensions["fake_prolific"]


def by_condition():
    db.session.rollback()
    return conditions.occupancy(get_study(SLUG))


def test_a_prolific_study_from_entry_to_payment(app, client, runner, fake, tmp_path):
    places = sum(QUOTAS.values())
    joined = {}  # PROLIFIC_PID -> (submission id = SESSION_ID, session token)

    def arrive(n):
        participant = pid(n)
        submission = fake.join(PROLIFIC_STUDY, participant)
        joined[participant] = (submission, enter(client, participant, submission))
        assert joined[participant][1] is not None, f"{participant} was turned away"

    for n in range(places):
        arrive(n)
    assert by_condition() == QUOTAS
    leavers = [pid(n) for n in range(15)]
    for n, participant in enumerate(leavers):  # they answered a sketch or two, then left Prolific's study
        answer(client, joined[participant][1], trials=1 + n % 2)
        fake.set_status(joined[participant][0], "RETURNED" if n < 10 else "TIMED-OUT")
    with pytest.raises(conditions.StudyFull):  # until studyhive knows, their slots are taken
        conditions.assign(get_study(SLUG))

    result = runner.invoke(args=["prolific", "sync", SLUG])
    assert result.exit_code == 0, result.output
    assert "15 session(s) returned or timed out" in result.output and "warning" not in result.output
    assert sum(by_condition().values()) == places - 15
    for n in range(places, places + 15):  # Prolific sends others in their place: each finds a slot
        arrive(n)
    assert by_condition() == QUOTAS
    abandoned = db.session.scalars(db.select(ParticipantSession.prolific_pid).filter_by(status="abandoned")).all()
    assert sorted(abandoned) == leavers
    assert enter(client, leavers[0], joined[leavers[0]][0]) == joined[leavers[0]][1]  # no second session

    # The 35 who stayed finish; 3 of them fail the catch sketch and are sent on with that code.
    stayed = [p for p in joined if p not in leavers]
    careless = stayed[:3]
    for participant in stayed:
        submission, token = joined[participant]
        answer(client, token, fail_catch=participant in careless)
        finished = complete(client, token)
        expected = "failed_attention_check" if participant in careless else "completed"
        assert (finished["outcome"], code_of(finished["redirect_url"])) == (expected, CODES[expected])
        fake.submit(submission, code_of(finished["redirect_url"]))
    assert runner.invoke(args=["prolific", "sync", SLUG]).exit_code == 0

    # Approval: a dry run sends nothing, then one bulk call approves the 32.
    dry = runner.invoke(args=["prolific", "approve", SLUG])
    assert dry.exit_code == 0, dry.output
    assert "would approve 32 submission(s)" in dry.output and "outcome failed_attention_check: 3" in dry.output
    assert fake.calls("POST", r"submissions/bulk-approve/") == []
    done = runner.invoke(args=["prolific", "approve", SLUG, "--yes"])
    assert done.exit_code == 0, done.output
    (call,) = fake.calls("POST", r"submissions/bulk-approve/")
    approved = [p for p in stayed if p not in careless]
    assert sorted(call[2]["submission_ids"]) == sorted(joined[p][0] for p in approved)
    assert {fake.submissions[joined[p][0]]["status"] for p in approved} == {"APPROVED"}

    # A rejection with a short message is refused before anything is sent; with a proper one it is sent.
    before = len(fake.requests)
    short = runner.invoke(
        args=[
            "prolific",
            "reject",
            SLUG,
            careless[0],
            "--category",
            "FAILED_CHECK",
            "--message",
            "Failed the attention check.",
            "--yes",
        ]
    )
    assert short.exit_code != 0 and "at least 100" in short.output
    assert len(fake.requests) == before
    sent = runner.invoke(
        args=["prolific", "reject", SLUG, careless[0], "--category", "FAILED_CHECK", "--message", REASON, "--yes"]
    )
    assert sent.exit_code == 0, sent.output
    (rejection,) = fake.calls("POST", rf"submissions/{joined[careless[0]][0]}/transition/")
    assert rejection[2] == {"action": "REJECT", "message": REASON, "rejection_category": "FAILED_CHECK"}
    assert fake.submissions[joined[careless[0]][0]]["status"] == "REJECTED"

    # Bonuses: the run is killed between creating the batch and paying it; the next run pays it, once.
    bonus_file = tmp_path / "bonuses.csv"
    with open(bonus_file, "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["prolific_pid", "amount"])
        writer.writerows([p, f"{0.25 + (n % 4) * 0.5:.2f}"] for n, p in enumerate(approved))
    db.session.commit()
    stuck = fake.fault("GET", r"submissions/[0-9a-f]{24}/", kind="hang")  # the first pre-pay read hangs
    process = flask_process(app, fake, "prolific", "bonus", SLUG, str(bonus_file), "--yes")
    assert stuck.reached.wait(60), process.communicate(timeout=10)[0]
    process.send_signal(signal.SIGKILL)
    process.wait(30)
    stuck.release.set()
    assert len(fake.batches) == 1 and fake.calls("POST", r"bulk-bonus-payments/.*/pay/") == []
    db.session.rollback()
    assert db.session.scalars(db.select(BonusBatch.status)).one() == "created"

    rerun = runner.invoke(args=["prolific", "bonus", SLUG, str(bonus_file), "--yes"])
    assert rerun.exit_code == 0, rerun.output
    assert "carrying on with batch" in rerun.output
    again = runner.invoke(args=["prolific", "bonus", SLUG, str(bonus_file), "--yes"])
    assert again.exit_code != 0 and "were paid" in again.output
    assert len(fake.batches) == 1 and [b["paid"] for b in fake.batches.values()] == [1]
    assert fake.payments() == {p: [25 + (n % 4) * 50] for n, p in enumerate(approved)}

    # The audit log has each Prolific action with who and when.
    events = db.session.scalars(db.select(StudyEvent).order_by(StudyEvent.id)).all()
    results = [(e.action, e.detail.get("result")) for e in events if e.action != "prolific_sync"]
    assert results == [
        ("prolific_approve", "accepted"),
        ("prolific_reject", "accepted"),
        ("prolific_bonus_create", "created"),
        ("prolific_bonus_pay", "paid"),
    ]
    assert all(e.detail["via"] == "cli" and "os_user" in e.detail and e.created_at for e in events)
