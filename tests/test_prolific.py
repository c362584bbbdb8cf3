"""Prolific from the study file to the bonus (server/prolific/), against the fake Prolific: the `[prolific]` table,
outcomes and their completion codes, sync and what the dashboard shows of it, approval, rejection, and bonus
batches that are paid once whatever fails when (tests/test_prolific_e2e.py runs a whole study)."""

from __future__ import annotations

import csv
import signal
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from server import identifiers
from server.db import db
from server.models import (
    BonusBatch,
    BonusBatchRow,
    ParticipantSession,
    ProlificSubmission,
    StudyEvent,
    current_generation,
)
from server.prolific import bonuses, reviews
from server.studies import conditions
from server.studies.definitions import StudyFileError, get_study, load_study_file
from tests.prolific_study import (
    CODES,
    PROLIFIC_STUDY,
    SLUG,
    TABLES,
    answer,
    code_of,
    complete,
    enter,
    flask_process,
    pid,
    prolific_app,
    write_study,
)

PAY = r"bulk-bonus-payments/.*/pay/"
REASON = "x" * 60 + " — you gave the same answer to every sketch, which the instructions asked you not to do."


@pytest.fixture
def app(tmp_path):
    with prolific_app(tmp_path, PROLIFIC_PAY_SETTLE_SECONDS=0) as (app, fake):
        app.extensions["fake_prolific"] = fake
        yield app


@pytest.fixture
def fake(app):
    return app.extensions["fake_prolific"]


def arrive(client, fake, n):
    """Participant n joins on Prolific and enters; (PROLIFIC_PID, submission id, token)."""
    submission = fake.join(PROLIFIC_STUDY, pid(n))
    return pid(n), submission, enter(client, pid(n), submission)


def finish(client, fake, n, fail_catch=False):
    participant, submission, token = arrive(client, fake, n)
    answer(client, token, fail_catch=fail_catch)
    fake.submit(submission, code_of(complete(client, token)["redirect_url"]))
    return participant, submission, token


def code(participant: str) -> str:
    return identifiers.pid_hmac(participant)[: identifiers.CODE_HEX_DIGITS]


def invoke(runner, *args):
    return runner.invoke(args=["prolific", *args])


# ------------------------------------------------------------------------------------------- study file


@pytest.mark.parametrize(
    "tables, message",
    [
        (
            TABLES.replace("max_bonus = 2.50", "max_bonus = -1"),
            "prolific.max_bonus: expected a positive amount up to 1000000 with at most 2 decimals, got -1",
        ),
        (
            TABLES.replace("max_bonus = 2.50", "max_bonus = 1.234"),
            "prolific.max_bonus: expected a positive amount up to 1000000 with at most 2 decimals, got 1.234",
        ),
        (TABLES.replace("max_bonus = 2.50", "bonus_max = 2.50"), "prolific.bonus_max: unknown key"),
        (
            TABLES.replace("no_consent =", "no_concent ="),
            'prolific.codes.no_concent: unknown key (did you mean "no_consent"?)',
        ),
        (
            TABLES.replace('"C1DEV1CE"', '"C1 DEV"'),
            'prolific.codes.incompatible_device: expected a completion code (letters and digits), got "C1 DEV"',
        ),
        (
            TABLES.replace(f'study_id = "{PROLIFIC_STUDY}"', 'study_id = "{{%STUDY_ID%}}"'),
            'prolific.study_id: expected the Prolific study\'s id (letters and digits), got "{{%STUDY_ID%}}"',
        ),
        (
            TABLES.replace("max_bonus = 2.50", "attention_check_failures = 0"),
            "prolific.attention_check_failures: expected at least 1, got 0",
        ),
    ],
)
def test_the_prolific_table_is_checked(tmp_path, app, tables, message):
    with pytest.raises(StudyFileError) as caught:
        load_study_file(write_study(tmp_path / "other", tables))
    assert message in str(caught.value) and "psketch/study.toml" in str(caught.value)


def test_codes_make_the_completion_url_and_the_study_is_linked(app, tmp_path):
    study = get_study(SLUG)
    assert study.prolific_study_id == PROLIFIC_STUDY
    assert code_of(study.config["completion_url"]) == CODES["completed"]
    path = write_study(tmp_path / "clash")
    text = path.read_text()
    path.write_text(text.replace("flow =", f'completion_code = "{CODES["completed"]}"\nflow =', 1))
    assert load_study_file(path)["completion_url"] == study.config["completion_url"]  # the same code twice is fine
    path.write_text(text.replace("flow =", 'completion_code = "OTHER"\nflow =', 1))
    with pytest.raises(StudyFileError, match="completion_code and \\[prolific.codes\\] completed differ"):
        load_study_file(path)


def test_link_sets_the_prolific_study_unless_the_file_names_one(app, runner):
    refused = invoke(runner, "link", SLUG, "60aaaaaaaaaaaaaaaaaaaaaa")
    assert refused.exit_code != 0 and "study.toml links it to Prolific study" in refused.output
    study = get_study(SLUG)
    study.config = {k: v for k, v in study.config.items() if k != "prolific"}
    study.prolific_study_id = None
    db.session.commit()
    assert "not linked" in invoke(runner, "sync", SLUG).output
    assert invoke(runner, "link", SLUG, "not a valid id!").exit_code != 0
    linked = invoke(runner, "link", SLUG, "60aaaaaaaaaaaaaaaaaaaaaa")
    assert linked.exit_code == 0 and get_study(SLUG).prolific_study_id == "60aaaaaaaaaaaaaaaaaaaaaa"
    assert db.session.scalars(db.select(StudyEvent.action)).all() == ["prolific_link"]


# ------------------------------------------------------------------------------------------- outcomes


@pytest.mark.parametrize("outcome", ["no_consent", "incompatible_device"])
def test_an_early_end_frees_the_slot_and_answers_its_code(app, client, fake, outcome):
    participant, submission, token = arrive(client, fake, 1)
    held = conditions.occupancy(get_study(SLUG))
    ended = client.post(f"/api/sessions/{token}/end", json={"outcome": outcome})
    assert ended.status_code == 200, ended.get_json()
    assert ended.get_json() == {
        "status": "abandoned",
        "outcome": outcome,
        "redirect_url": f"https://app.prolific.com/submissions/complete?cc={CODES[outcome]}",
    }
    db.session.rollback()
    assert sum(conditions.occupancy(get_study(SLUG)).values()) == sum(held.values()) - 1
    other = "incompatible_device" if outcome == "no_consent" else "no_consent"
    repeat = client.post(f"/api/sessions/{token}/end", json={"outcome": other})  # the first outcome stands
    assert repeat.status_code == 200 and repeat.get_json()["outcome"] == outcome


def test_early_ends_are_refused_when_they_cannot_be_true(app, client, fake):
    _, _, token = arrive(client, fake, 1)
    for body, code in (({"outcome": "bored"}, "invalid_field"), ({"outcome": "no_consent", "x": 1}, "unknown_field")):
        response = client.post(f"/api/sessions/{token}/end", json=body)
        assert (response.status_code, response.get_json()["error"]) == (400, code)
    answer(client, token)
    refused = client.post(f"/api/sessions/{token}/end", json={"outcome": "no_consent"})
    assert (refused.status_code, refused.get_json()["error"]) == (409, "consent_given")
    complete(client, token)
    refused = client.post(f"/api/sessions/{token}/end", json={"outcome": "incompatible_device"})
    assert (refused.status_code, refused.get_json()["error"]) == (409, "session_ended")
    session = db.session.scalars(db.select(ParticipantSession)).one()
    assert (session.status, session.outcome) == ("completed", "completed")


def test_without_a_code_or_off_prolific_there_is_no_redirect(app, client, fake):
    study = get_study(SLUG)
    study.config = {**study.config, "prolific": {**study.config["prolific"], "codes": {}}}
    db.session.commit()
    _, _, token = arrive(client, fake, 1)
    assert client.post(f"/api/sessions/{token}/end", json={"outcome": "no_consent"}).get_json()["redirect_url"] is None
    direct = client.get(f"/study/{SLUG}").headers["Location"].rsplit("/", 1)[1]
    answer(client, direct, fail_catch=True)
    finished = complete(client, direct)
    assert finished["outcome"] == "failed_attention_check" and "redirect_url" not in finished


def test_attention_check_failures_sets_how_many_failed_catch_trials_count(app, client, fake):
    study = get_study(SLUG)
    study.config = {**study.config, "prolific": {**study.config["prolific"], "attention_check_failures": 2}}
    db.session.commit()
    _, _, token = arrive(client, fake, 1)
    answer(client, token, fail_catch=True)  # one catch sketch, failed: not enough
    assert code_of(complete(client, token)["redirect_url"]) == CODES["completed"]


def test_the_export_has_outcomes_and_prolific_statuses(app, client, fake, runner, tmp_path):
    finish(client, fake, 1, fail_catch=True)
    _, submission, token = arrive(client, fake, 2)
    client.post(f"/api/sessions/{token}/end", json={"outcome": "incompatible_device"})
    fake.set_status(submission, "RETURNED")
    assert invoke(runner, "sync", SLUG).exit_code == 0
    assert runner.invoke(args=["export", SLUG, "--out", str(tmp_path / "out")]).exit_code == 0
    with open(tmp_path / "out" / "participants.csv", newline="") as fh:
        rows = {r["participant_code"]: r for r in csv.DictReader(fh)}
    assert [rows[code(pid(n))][c] for n in (1, 2) for c in ("status", "outcome", "prolific_status")] == [
        "completed",
        "failed_attention_check",
        "AWAITING REVIEW",
        "abandoned",
        "incompatible_device",
        "RETURNED",
    ]
    codebook = (tmp_path / "out" / "codebook.csv").read_text()
    assert "participants.csv,outcome," in codebook and "participants.csv,prolific_status," in codebook


def test_a_sync_that_abandons_sessions_bumps_the_data_generation(app, client, fake, runner):
    """A returned participant's started session becomes abandoned: the sessions an analysis reads changed, so a
    stored result is stale (tests/test_stored_results.py); a sync that changes no session leaves it current."""
    _, submission, _ = arrive(client, fake, 1)

    def generation():
        db.session.rollback()
        return current_generation(get_study(SLUG).id)

    before = generation()
    assert invoke(runner, "sync", SLUG).exit_code == 0
    assert generation() == before
    fake.set_status(submission, "RETURNED")
    assert invoke(runner, "sync", SLUG).exit_code == 0
    assert generation() == before + 1
    assert invoke(runner, "sync", SLUG).exit_code == 0
    assert generation() == before + 1


# ------------------------------------------------------------------------------------------- sync and dashboard


def test_sync_reports_what_does_not_add_up_and_the_dashboard_shows_it(app, client, fake, runner, auth):
    finish(client, fake, 1)
    returned_after_completing = finish(client, fake, 2)
    fake.set_status(returned_after_completing[1], "RETURNED")
    arrive(client, fake, 3)
    fake.join(PROLIFIC_STUDY, pid(4))  # never reached studyhive: a broken study URL
    client.get(
        f"/study/{SLUG}",
        query_string={"PROLIFIC_PID": pid(5), "STUDY_ID": PROLIFIC_STUDY, "SESSION_ID": "not-on-prolific"},
    )  # entered, never on Prolific
    fake.studies[PROLIFIC_STUDY]["completion_codes"] = [{"code": CODES["completed"], "code_type": "COMPLETED"}]
    result = invoke(runner, "sync", SLUG)
    assert result.exit_code == 0, result.output
    assert f"read 4 submission(s) of Prolific study {PROLIFIC_STUDY} (ACTIVE, 35 places)" in result.output
    assert "1 AWAITING REVIEW" in result.output
    assert "warning: completion code C1FA1LAC (failed_attention_check) is not one of" in result.output
    for line in (
        "sessions with no submission: 1",
        "submissions with no session (they never reached studyhive: check the study URL): 1",
        "not AWAITING REVIEW or APPROVED: 1",
    ):
        assert line in result.output
    session = db.session.scalars(db.select(ParticipantSession).filter_by(prolific_pid=pid(2))).one()
    assert session.status == "completed"  # the data stay completed; the place reopened, so the slot is free
    assert sum(conditions.occupancy(get_study(SLUG)).values()) == 3  # 1, 3 and 5

    auth.login()
    page = client.get(f"/researcher/studies/{SLUG}/").get_data(as_text=True)
    assert 'id="prolific"' in page and PROLIFIC_STUDY in page
    assert 'id="n-no-submission">1<' in page and 'id="n-no-session">1<' in page and 'id="n-unexpected">1<' in page
    assert f"<code>{pid(4)}</code> (ACTIVE)" in page and 'data-status="RETURNED">1<' in page
    fake.set_status(returned_after_completing[1], "APPROVED")
    synced = client.post(f"/researcher/studies/{SLUG}/prolific/sync", follow_redirects=True).get_data(as_text=True)
    assert "Read 4 submission(s) from Prolific" in synced and 'id="n-unexpected">0<' in synced
    assert "prolific_sync" in synced and "ada" in synced  # the audit log names who synced


def test_the_sync_button_says_what_went_wrong(app, client, fake, auth):
    auth.login()
    app.config["PROLIFIC_API_TOKEN"] = ""
    page = client.post(f"/researcher/studies/{SLUG}/prolific/sync", follow_redirects=True).get_data(as_text=True)
    assert "Prolific sync failed: no Prolific API token: set PROLIFIC_API_TOKEN" in page
    app.config["PROLIFIC_API_TOKEN"] = "tok-n0t-r1ght-7x"
    page = client.post(f"/researcher/studies/{SLUG}/prolific/sync", follow_redirects=True).get_data(as_text=True)
    assert "refused the API token (401)" in page and "tok-n0t-r1ght-7x" not in page


def test_sync_counts_a_submission_listed_on_two_pages_once(app, fake, runner):
    """Issue #38.3: a submission joins at the top of the list while it is paged: the last of page 1 is the first of
    page 2."""
    for n in range(25):
        fake.join(PROLIFIC_STUDY, pid(n))

    def newcomer(page):
        if page == 1:
            fake.join(PROLIFIC_STUDY, pid(99), first=True)

    fake.between_pages = newcomer
    result = invoke(runner, "sync", SLUG)
    assert result.exit_code == 0, result.output
    assert "read 25 submission(s)" in result.output and ": 25 ACTIVE" in result.output
    assert len(fake.calls("GET", r"submissions/")) == 2


def test_outcomes_sent_to_prolific_leave_out_direct_visits(app, client, fake, auth):
    finish(client, fake, 1)
    direct = client.get(f"/study/{SLUG}").headers["Location"].rsplit("/", 1)[1]  # no PROLIFIC_PID: never sent
    answer(client, direct, fail_catch=True)
    assert complete(client, direct)["outcome"] == "failed_attention_check"
    auth.login()
    page = client.get(f"/researcher/studies/{SLUG}/").get_data(as_text=True)
    sent = page[page.index("Outcomes sent to Prolific") :].split("</p>")[0]
    assert 'data-outcome="completed">1<' in sent and "failed_attention_check" not in sent


def test_a_participant_who_took_the_study_again_counts_by_the_latest_submission(app, client, fake, runner):
    participant, first, token = arrive(client, fake, 1)
    fake.set_status(first, "RETURNED")
    second = fake.join(PROLIFIC_STUDY, participant)  # back on Prolific: a new submission, the same session
    assert enter(client, participant, second) == token
    result = invoke(runner, "sync", SLUG)
    assert "1 submission(s) have another id than the SESSION_ID" in result.output
    assert db.session.scalars(db.select(ParticipantSession.status)).one() == "started"


# ------------------------------------------------------------------------------------------- approve and reject


def test_approval_skips_excluded_and_unfinished_sessions_and_calls_in_chunks(app, client, fake, runner, monkeypatch):
    done = [finish(client, fake, n) for n in range(5)]
    db.session.scalars(db.select(ParticipantSession).filter_by(prolific_pid=done[0][0])).one().status = "excluded"
    db.session.commit()
    _, unfinished, _ = arrive(client, fake, 9)
    fake.submit(unfinished, CODES["completed"])  # typed the code without finishing
    monkeypatch.setattr(reviews, "BULK_APPROVE_MAX", 3)
    dry = invoke(runner, "approve", SLUG)
    assert "would approve 4 submission(s)" in dry.output and "session excluded: 1" in dry.output
    assert "session started, not completed: 1" in dry.output and "--yes" in dry.output
    assert fake.calls("POST", r"submissions/bulk-approve/") == []
    assert invoke(runner, "approve", SLUG, "--yes").exit_code == 0
    calls = fake.calls("POST", r"submissions/bulk-approve/")
    assert [len(c[2]["submission_ids"]) for c in calls] == [3, 1]
    assert {fake.submissions[s]["status"] for _, s, _ in done[1:]} == {"APPROVED"}
    assert fake.submissions[done[0][1]]["status"] == "AWAITING REVIEW"
    assert "nothing to approve" in invoke(runner, "approve", SLUG, "--yes").output


def test_approvals_that_do_not_take_effect_are_reported(app, client, fake, runner):
    """Issue #38.4: Prolific accepts a bulk approval and fails some of it, asynchronously."""
    done = [finish(client, fake, n) for n in range(4)]
    fake.failing_approvals = {done[1][1], done[2][1]}
    assert invoke(runner, "approve", SLUG, "--yes").exit_code == 0
    synced = invoke(runner, "sync", SLUG)
    assert "2 approvals you sent have not taken effect" in synced.output and "2 APPROVED" in synced.output
    fake.failing_approvals = set()
    again = invoke(runner, "approve", SLUG, "--yes")
    assert "approval of 2 submission(s) sent" in again.output
    assert "not taken effect" not in invoke(runner, "sync", SLUG).output


def test_a_rejection_prolific_carried_out_despite_an_error_is_already_done(app, client, fake, runner):
    """Issue #38.4: Prolific rejects, and answers 500 to every try."""
    participant, submission, _ = finish(client, fake, 1)
    tries = app.config["PROLIFIC_API_ATTEMPTS"]
    fake.fault("POST", r"submissions/.*/transition/", status=500, after=True, times=tries)
    args = ("reject", SLUG, participant, "--category", "LOW_EFFORT", "--message", REASON, "--yes")
    failed = invoke(runner, *args)
    assert failed.exit_code != 0 and "answered 500" in failed.output
    assert fake.submissions[submission]["status"] == "REJECTED"
    rerun = invoke(runner, *args)
    assert rerun.exit_code == 0, rerun.output
    assert f"submission {submission} is already rejected on Prolific: nothing sent" in rerun.output
    assert len(fake.calls("POST", r"submissions/.*/transition/")) == tries


def test_a_withdrawn_participant_who_completed_gets_guidance_not_a_silent_rejection(app, client, fake, runner):
    """Issue #38.4: the participant completed, then withdrew (their data deleted); their submission awaits review."""
    participant, submission, _ = finish(client, fake, 1)
    assert runner.invoke(args=["participants", "withdraw", SLUG, participant, "--reason", "asked"]).exit_code == 0
    planned = invoke(runner, "approve", SLUG)
    assert "withdrawn after completing the study (outcome completed" in planned.output
    assert "approve it on Prolific's site" in planned.output and "not completed" not in planned.output
    args = ("reject", SLUG, participant, "--category", "LOW_EFFORT", "--message", REASON, "--yes")
    refused = invoke(runner, *args)
    assert refused.exit_code != 0 and "withdrawing is their right, not a reason to reject" in refused.output
    assert "--despite-withdrawal" in refused.output and fake.calls("POST", r"submissions/.*/transition/") == []
    rejected = invoke(runner, *args, "--despite-withdrawal")
    assert rejected.exit_code == 0 and f"submission {submission} is REJECTED" in rejected.output
    event = db.session.scalars(db.select(StudyEvent).filter_by(action="prolific_reject")).one()
    assert event.detail["despite_withdrawal"] is True


def test_rejection_is_checked_locally_then_sent_once(app, client, fake, runner):
    participant, submission, _ = finish(client, fake, 1)
    short = invoke(runner, "reject", SLUG, participant, "--category", "LOW_EFFORT", "--message", "Too fast.", "--yes")
    assert short.exit_code != 0 and "9 characters; Prolific requires at least 100" in short.output
    assert fake.requests == []  # refused before anything was called
    unknown = invoke(runner, "reject", SLUG, pid(7), "--category", "LOW_EFFORT", "--message", REASON, "--yes")
    assert unknown.exit_code != 0 and "has no submission" in unknown.output
    declined = runner.invoke(
        args=["prolific", "reject", SLUG, participant, "--category", "LOW_EFFORT", "--message", REASON], input="n\n"
    )
    assert declined.exit_code != 0 and fake.calls("POST", r"submissions/.*/transition/") == []
    sent = invoke(runner, "reject", SLUG, participant, "--category", "LOW_EFFORT", "--message", REASON, "--yes")
    assert sent.exit_code == 0 and f"submission {submission} is REJECTED" in sent.output
    again = invoke(runner, "reject", SLUG, participant, "--category", "LOW_EFFORT", "--message", REASON, "--yes")
    assert again.exit_code == 0 and "is already rejected on Prolific: nothing sent" in again.output
    assert len(fake.calls("POST", r"submissions/.*/transition/")) == 1
    assert sum(conditions.occupancy(get_study(SLUG)).values()) == 0  # Prolific reopens a rejected place


# ------------------------------------------------------------------------------------------- bonuses


def bonus_file(path: Path, rows, header=("prolific_pid", "amount")) -> Path:
    with open(path, "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)
    return path


@pytest.fixture
def paid_three(app, client, fake, tmp_path):
    """Three finished participants and a file giving them 1.00, 0.50 and 2.50."""
    people = [finish(client, fake, n)[0] for n in range(3)]
    return people, bonus_file(tmp_path / "b.csv", zip(people, ("1.00", "0.50", "2.50")))


def test_every_bad_row_is_named_and_nothing_is_sent(app, client, fake, runner, tmp_path, paid_three):
    people, _ = paid_three
    path = bonus_file(
        tmp_path / "bad.csv",
        [
            (people[0], "1.00"),
            (pid(9), "1.00"),
            (people[1], "-0.50"),
            (people[2], "2.51"),
            (people[0], "0.10"),
            ("17", "1"),
            ("", "1"),
            (people[1], "1.001"),
            (people[2], "lots"),
        ],
        header=("participant_id", "amount"),
    )
    result = invoke(runner, "bonus", SLUG, str(path), "--yes")
    assert result.exit_code != 0
    for problem in (
        f"row 2, column participant_id: {pid(9)} did not take part in Prolific study {PROLIFIC_STUDY}",
        "row 3, column amount: -0.50 is not a bonus",
        "row 4, column amount: 2.51 is over the cap of 2.50",
        f"row 5, column participant_id: {people[0]} is on row 1 already",
        "row 6, column participant_id: 17 did not take part",
        "numeric participant ids",
        "row 7, column participant_id: empty",
        "row 8, column amount: '1.001' is not an amount with at most 2 decimals",
        "row 9, column amount: 'lots' is not an amount",
    ):
        assert problem in result.output
    no_ids = bonus_file(tmp_path / "h.csv", [(people[0], "1.00")], header=("pid", "amount"))
    assert "must name participant_id (or prolific_pid) and amount" in invoke(runner, "bonus", SLUG, str(no_ids)).output
    assert (
        fake.calls("POST", r"submissions/bonus-payments/") == []
        and db.session.scalars(db.select(BonusBatch)).all() == []
    )


def test_a_bonus_file_is_paid_once_and_refused_after(app, fake, runner, paid_three):
    people, path = paid_three
    dry = invoke(runner, "bonus", SLUG, str(path))
    assert "3 bonus(es) from file b.csv: 4.00 in all, the largest 2.50" in dry.output and "dry run" in dry.output
    assert fake.batches == {} and db.session.scalars(db.select(BonusBatch)).all() == []
    paid = invoke(runner, "bonus", SLUG, str(path), "--yes")
    assert paid.exit_code == 0, paid.output
    assert "paid: Prolific batch" in paid.output and "4.00 + fees 1.33" in paid.output
    again = invoke(runner, "bonus", SLUG, str(path), "--yes")
    assert again.exit_code != 0 and "were paid on" in again.output
    assert "--yes would refuse them" in invoke(runner, "bonus", SLUG, str(path)).output
    assert fake.payments() == {people[0]: [100], people[1]: [50], people[2]: [250]}
    assert "\tpaid\t" in invoke(runner, "batches", SLUG).output


def test_a_5xx_after_paying_is_resolved_by_reading_and_not_paid_again(app, fake, runner, paid_three):
    people, path = paid_three
    fake.fault("POST", PAY, status=502, after=True)
    failed = invoke(runner, "bonus", SLUG, str(path), "--yes")
    assert failed.exit_code != 0 and "is not known: run the same command again" in failed.output
    assert db.session.scalars(db.select(BonusBatch.status)).one() == "paying"
    rerun = invoke(runner, "bonus", SLUG, str(path), "--yes")
    assert rerun.exit_code == 0, rerun.output
    assert "every participant shows the bonus" in rerun.output
    assert len(fake.calls("POST", PAY)) == 1 and fake.payments() == {
        people[0]: [100],
        people[1]: [50],
        people[2]: [250],
    }


def test_a_5xx_before_paying_is_paid_after_reading_once_the_call_has_settled(app, fake, runner, paid_three):
    people, path = paid_three
    fake.submissions[next(s for s, v in fake.submissions.items() if v["participant_id"] == people[0])][
        "bonus_payments"
    ].append(100)  # an earlier bonus of the same amount, paid by hand
    fake.fault("POST", PAY, status=500)
    assert invoke(runner, "bonus", SLUG, str(path), "--yes").exit_code != 0
    app.config["PROLIFIC_PAY_SETTLE_SECONDS"] = 900
    waiting = invoke(runner, "bonus", SLUG, str(path), "--yes")
    assert waiting.exit_code != 0 and "may still be processing it: nothing sent" in waiting.output
    app.config["PROLIFIC_PAY_SETTLE_SECONDS"] = 0
    unproven = invoke(runner, "bonus", SLUG, str(path), "--yes")
    assert unproven.exit_code != 0 and "no proof that the batch was not paid" in unproven.output
    assert fake.calls("POST", PAY) == []  # the failed call never reached the fake's API
    rerun = invoke(runner, "bonus", SLUG, str(path), "--yes", "--pay-again", "1")
    assert rerun.exit_code == 0, rerun.output
    assert "you chose to pay batch #1 again" in rerun.output and len(fake.batches) == 1
    assert [b["paid"] for b in fake.batches.values()] == [1]
    assert fake.payments() == {people[0]: [100, 100], people[1]: [50], people[2]: [250]}


def test_a_batch_some_participants_show_stops_for_the_researcher(app, fake, runner, paid_three):
    people, path = paid_three
    fake.fault("POST", PAY, status=500)
    invoke(runner, "bonus", SLUG, str(path), "--yes")
    fake.submissions[next(s for s, v in fake.submissions.items() if v["participant_id"] == people[1])][
        "bonus_payments"
    ].append(50)
    stopped = invoke(runner, "bonus", SLUG, str(path), "--yes")
    assert stopped.exit_code != 0 and "1 of 3 participants show" in stopped.output
    assert fake.calls("POST", PAY) == [] and db.session.scalars(db.select(BonusBatch.status)).one() == "paying"


def test_a_run_killed_after_prolific_paid_is_not_paid_again(app, fake, runner, paid_three):
    people, path = paid_three
    db.session.commit()
    stuck = fake.fault("POST", PAY, kind="hang", after=True)  # Prolific pays, the answer never comes
    process = flask_process(app, fake, "prolific", "bonus", SLUG, str(path), "--yes")
    assert stuck.reached.wait(60), process.communicate(timeout=10)[0]
    process.send_signal(signal.SIGKILL)
    process.wait(30)
    stuck.release.set()
    rerun = invoke(runner, "bonus", SLUG, str(path), "--yes")
    assert rerun.exit_code == 0, rerun.output
    assert "was paid; not paying again" in rerun.output
    assert [b["paid"] for b in fake.batches.values()] == [1] and len(fake.calls("POST", PAY)) == 1


class Clock:
    """The time the bonus code and the fake Prolific both see, moved on by the test."""

    def __init__(self, monkeypatch, fake):
        self.now = datetime(2026, 11, 28, 10, 0, 0, 400000, tzinfo=UTC)
        monkeypatch.setattr(bonuses, "utcnow", lambda: self.now)
        fake.clock = lambda: self.now.timestamp()

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch, fake):
    return Clock(monkeypatch, fake)


def test_a_payment_shown_later_than_the_settle_window_is_not_paid_again(app, fake, runner, paid_three, clock):
    """Issue #38.1: Prolific paid, lost the answer and lists the payment 45 s later; the window is 20 s."""
    people, path = paid_three
    app.config["PROLIFIC_PAY_SETTLE_SECONDS"] = 20
    fake.payment_delay = 45
    fake.fault("POST", PAY, status=502, after=True)
    assert invoke(runner, "bonus", SLUG, str(path), "--yes").exit_code != 0
    clock.advance(22)
    second = invoke(runner, "bonus", SLUG, str(path), "--yes")
    assert second.exit_code != 0 and "bonus is not shown yet on any participant" in second.output
    assert "nothing sent" in second.output and "--pay-again 1" in second.output
    assert "paying Prolific batch" not in second.output and len(fake.calls("POST", PAY)) == 1
    clock.advance(30)  # Prolific lists it now
    third = invoke(runner, "bonus", SLUG, str(path), "--yes")
    assert third.exit_code == 0 and "every participant shows the bonus" in third.output
    assert len(fake.calls("POST", PAY)) == 1
    assert fake.payments() == {people[0]: [100], people[1]: [50], people[2]: [250]}
    checked = invoke(runner, "batches", SLUG, "--check")
    assert checked.exit_code == 0 and "no participant was paid more than the batches say" in checked.output


def test_paying_again_is_an_audited_choice_and_the_check_flags_a_double_payment(
    app, fake, runner, paid_three, clock, auth
):
    """Issue #38.1: the researcher pays again after checking too early; once Prolific lists both payments, the
    reconciliation flags every participant."""
    people, path = paid_three
    app.config["PROLIFIC_PAY_SETTLE_SECONDS"] = 20
    fake.payment_delay = 45
    fake.fault("POST", PAY, status=502, after=True)
    invoke(runner, "bonus", SLUG, str(path), "--yes")
    clock.advance(22)
    wrong = invoke(runner, "bonus", SLUG, str(path), "--yes", "--pay-again", "7")
    assert wrong.exit_code != 0 and "these rows have batch #1, paying: nothing sent" in wrong.output
    again = invoke(runner, "bonus", SLUG, str(path), "--yes", "--pay-again", "1", "--by", "ada")
    assert again.exit_code == 0, again.output
    assert "you chose to pay batch #1 again" in again.output and "paid: Prolific batch" in again.output
    assert len(fake.calls("POST", PAY)) == 2 and "\tpaid\t" in invoke(runner, "batches", SLUG).output
    assert "\t2 pay call(s)\t" in invoke(runner, "batches", SLUG).output
    chosen = db.session.scalars(db.select(StudyEvent).filter_by(action="prolific_bonus_pay_again")).one()
    assert chosen.researcher_id is not None and chosen.detail["batch"] == 1 and "os_user" in chosen.detail
    assert invoke(runner, "batches", SLUG, "--check").exit_code == 0  # neither payment is listed yet
    clock.advance(60)
    checked = invoke(runner, "batches", SLUG, "--check")
    assert checked.exit_code != 0, checked.output
    assert f"overpaid: {people[0]} shows 2 × 1.00 since batch #1 was paid; batch(es) #1 pay it 1 time(s)" in (
        checked.output
    )
    assert "3 participant(s) were paid more than the batches say" in checked.output
    assert (
        db.session.scalars(db.select(StudyEvent.detail).filter_by(action="prolific_bonus_check")).all()[-1]["overpaid"]
        == 3
    )


def pay_and_purge(runner, path: Path) -> None:
    """Approve the submissions awaiting review, pay the file's bonuses, purge the study's identifiers."""
    assert invoke(runner, "approve", SLUG, "--yes").exit_code == 0
    assert invoke(runner, "bonus", SLUG, str(path), "--yes").exit_code == 0  # its sync reads them APPROVED
    purged = runner.invoke(args=["data", "purge-identifiers", SLUG, "--older-than", "0", "--apply"])
    assert purged.exit_code == 0 and "of 1 bonus batch(es) go" in purged.output, purged.output
    db.session.rollback()


def submission_of(fake, participant: str) -> dict:
    (submission,) = (s for s in fake.submissions.values() if s["participant_id"] == participant)
    return submission


def test_the_check_of_a_purged_batch_flags_a_second_payment_by_code_and_the_batch_is_not_paid_again(
    app, fake, runner, paid_three
):
    """Issues #38.1 and #38.5: once `flask data purge-identifiers` has left only the HMACs of the paid batch's
    PROLIFIC_PIDs and of its settled submissions' ids, the check finds each participant's payments on Prolific by the
    HMAC, flags one paid the same bonus again by hand (by their participant code, printing no raw id), and the same
    rows, --pay-again included, are refused as paid."""
    people, path = paid_three
    pay_and_purge(runner, path)
    assert db.session.scalars(db.select(ProlificSubmission.participant_id)).all() == [None] * 3
    assert set(db.session.scalars(db.select(BonusBatchRow.participant_id))) == {identifiers.pid_hmac(p) for p in people}

    checked = invoke(runner, "batches", SLUG, "--check")
    assert checked.exit_code == 0 and "no participant was paid more than the batches say" in checked.output
    submission_of(fake, people[0])["bonus_payments"].append(100)  # the same 1.00 again, paid by hand on Prolific's site
    checked = invoke(runner, "batches", SLUG, "--check")
    assert checked.exit_code != 0, checked.output
    assert (
        f"overpaid: participant {code(people[0])} shows 2 × 1.00 since batch #1 was paid; batch(es) #1 pay it 1 time(s)"
    ) in checked.output
    assert "1 participant(s) were paid more than the batches say" in checked.output
    assert not [raw for raw in [*people, identifiers.pid_hmac(people[0])] if raw in checked.output]

    for args in ((), ("--yes",), ("--yes", "--pay-again", "1")):
        again = invoke(runner, "bonus", SLUG, str(path), *args)
        assert again.exit_code != 0, again.output
        assert "these rows were paid on" in again.output and "as Prolific batch" in again.output, again.output
    assert len(fake.calls("POST", PAY)) == 1 and fake.payments()[people[1]] == [50]


def test_the_check_counts_a_participant_in_a_purged_batch_and_a_later_one_as_one(app, fake, runner, paid_three):
    """A participant whose submission was not settled at the purge (timed out) keeps their raw id there, and a later
    batch names them by it; the check counts both batches' payments to them as one participant's, by the HMAC."""
    people, path = paid_three
    fake.set_status(submission_of(fake, people[2])["id"], "TIMED-OUT")
    pay_and_purge(runner, path)
    assert db.session.scalars(db.select(ProlificSubmission.participant_id)).all().count(people[2]) == 1
    second = invoke(runner, "bonus", SLUG, str(bonus_file(path.parent / "c.csv", [(people[2], "2.50")])), "--yes")
    assert second.exit_code == 0, second.output
    assert fake.payments()[people[2]] == [250, 250]
    checked = invoke(runner, "batches", SLUG, "--check")
    assert checked.exit_code == 0 and "no participant was paid more than the batches say" in checked.output
    submission_of(fake, people[2])["bonus_payments"].append(250)  # once more by hand
    checked = invoke(runner, "batches", SLUG, "--check")
    assert checked.exit_code != 0 and "1 participant(s) were paid more" in checked.output, checked.output
    assert (
        f"overpaid: participant {code(people[2])} shows 3 × 2.50 since batch #1 was paid; batch(es) #1, #2 pay it "
        "2 time(s)"
    ) in checked.output


def test_run_again_after_gives_the_exact_second(app, fake, runner, paid_three, clock):
    """Issue #38.2: the pay call starts at 10:00:00.4 and the window is 20 s: 10:00:21, not 10:00."""
    _, path = paid_three
    app.config["PROLIFIC_PAY_SETTLE_SECONDS"] = 20
    fake.fault("POST", PAY, status=500)
    invoke(runner, "bonus", SLUG, str(path), "--yes")
    clock.advance(5)
    early = invoke(runner, "bonus", SLUG, str(path), "--yes", "--pay-again", "1")
    assert early.exit_code != 0 and "Run again after 2026-11-28 10:00:21 UTC" in early.output
    clock.now = datetime(2026, 11, 28, 10, 0, 21, tzinfo=UTC)  # as told
    on_time = invoke(runner, "bonus", SLUG, str(path), "--yes", "--pay-again", "1")
    assert on_time.exit_code == 0, on_time.output
    assert len(fake.calls("POST", PAY)) == 1  # the first call failed before it reached the API


def test_a_bonus_per_correct_answer(app, client, fake, runner):
    good = finish(client, fake, 1)[0]
    careless = finish(client, fake, 2, fail_catch=True)[0]  # not paid: the outcome is not `completed`
    result = invoke(runner, "bonus", SLUG, "--per-correct", "0.20", "--yes")
    assert result.exit_code == 0, result.output
    assert "1 bonus(es) from 0.20 per correct answer: 0.60 in all" in result.output  # 3 sketches named right
    assert fake.payments() == {good: [60]} and careless not in fake.payments()
    capped = invoke(runner, "bonus", SLUG, "--per-correct", "1.00", "--max-amount", "2.00")
    assert capped.exit_code != 0 and f"participant {good}: 3.00 is over the cap of 2.00" in capped.output
    assert "give FILE.csv or --per-correct" in invoke(runner, "bonus", SLUG).output
    study = get_study(SLUG)
    study.task_type = "ratio-estimation"
    db.session.commit()
    assert "has no correct answers" in invoke(runner, "bonus", SLUG, "--per-correct", "0.20").output


def test_submissions_are_stored_with_their_session(app, client, fake, runner):
    participant, submission, _ = finish(client, fake, 1)
    invoke(runner, "sync", SLUG)
    row = db.session.scalars(db.select(ProlificSubmission)).one()
    session = db.session.scalars(db.select(ParticipantSession)).one()
    assert (row.submission_id, row.participant_id, row.session_id, row.status, row.study_code) == (
        submission,
        participant,
        session.id,
        "AWAITING REVIEW",
        CODES["completed"],
    )
    assert row.read_at is not None and row.started_at is not None
