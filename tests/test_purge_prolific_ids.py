"""Raw Prolific ids once a study is settled, and a declined consent (issue #38, points 5 and 6; docs/operations.md,
"Data protection"). An own jsPsych experiment on Prolific, against the fake Prolific: participants who complete and
are approved (and paid a bonus) or rejected, who return, who never reach studyhive, and one still taking part. After
`flask data purge-identifiers --apply` no raw PROLIFIC_PID or SESSION_ID the test fed in is left in any column of any
table (the rows the experiment recorded, the audit log, Prolific's submissions and the bonus rows included), except
the unsettled participant's submission, which keeps them until it is settled; later syncs match by the keyed hashes
and write none again. A participant who declines consent leaves their keyed code and the outcome, nothing else."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from server import identifiers
from server.db import db, dispose_engines
from server.models import BonusBatch, BonusBatchRow, ParticipantSession, ProlificSubmission
from server.prolific.submissions import reconciliation
from server.studies.definitions import get_study, sync_studies
from tests.conftest import make_app
from tests.fake_npm_registry import FakeRegistry
from tests.fake_prolific import FakeProlific
from tests.jspsych_study import EXPERIMENT, write_study
from tests.prolific_study import CODES, PROLIFIC_STUDY, pid, prolific_app
from tests.prolific_study import SLUG as SKETCH
from tests.test_own_url_variables import anywhere, recorded

SLUG = "ownprolific"
REASON = (
    "Your answers came faster than anyone can read the words shown, and every choice was the same button, so we "
    "cannot use this submission."
)
UA = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.71 "
    "Safari/537.36"
)
PROLIFIC_TABLES = f"""
[prolific]
study_id = "{PROLIFIC_STUDY}"
max_bonus = 2.50
[prolific.codes]
""" + "".join(f'{outcome} = "{code}"\n' for outcome, code in CODES.items())


@contextmanager
def own_prolific_app(tmp_path: Path):
    """An own jsPsych experiment (one row completes it) recruiting on the fake Prolific."""
    fake = FakeProlific().start()
    fake.add_study(PROLIFIC_STUDY, 10, CODES)
    registry = FakeRegistry(folders=("jspsych", "@jspsych/plugin-html-button-response"))
    toml = write_study(tmp_path / "studies", SLUG, EXPERIMENT, 1) / "study.toml"
    text = toml.read_text().replace('task_type = "jspsych"', 'task_type = "jspsych"\nplatform = "prolific"', 1)
    toml.write_text(text + PROLIFIC_TABLES)
    app = make_app(
        tmp_path,
        STUDIES_DIR=str(tmp_path / "studies"),
        NPM_REGISTRY_URL=registry.url,
        PROLIFIC_API_URL=fake.url,
        PROLIFIC_API_TOKEN=fake.token,
        PROLIFIC_API_BACKOFF=0.01,
        PROLIFIC_API_TIMEOUT=5.0,
        PROLIFIC_PAY_SETTLE_SECONDS=0,
    )
    try:
        with app.app_context():
            db.drop_all()
            db.create_all()
            sync_studies(Path(app.config["STUDIES_DIR"]))
            yield app, fake
            db.session.remove()
            db.drop_all()
            dispose_engines()
    finally:
        registry.close()
        fake.stop()


@pytest.fixture
def app(tmp_path):
    with own_prolific_app(tmp_path) as (app, fake):
        app.extensions["fake_prolific"] = fake
        yield app


@pytest.fixture
def fake(app):
    return app.extensions["fake_prolific"]


def enter(client, participant: str, submission: str) -> str:
    """Open the study URL as Prolific sends the participant, and consent; the session token."""
    response = client.get(
        f"/study/{SLUG}",
        query_string={"PROLIFIC_PID": participant, "STUDY_ID": PROLIFIC_STUDY, "SESSION_ID": submission},
        headers={"User-Agent": UA},
    )
    assert response.status_code == 303, response.data
    token = response.headers["Location"].rsplit("/", 1)[1]
    agree = client.put(f"/api/sessions/{token}/surveys/consent", json={"answers": {"agreed": True}})
    assert agree.status_code == 200, agree.get_json()
    return token


def take_part(client, fake, participant: str) -> str:
    """Join on Prolific, enter, record a row holding the raw ids (as an experiment that saves the URL's ids does),
    finish and submit the completion code; the submission id."""
    submission = fake.join(PROLIFIC_STUDY, participant)
    token = enter(client, participant, submission)
    row = {
        **recorded(0),
        "subject": participant,
        "submission": submission,
        "note": f"{participant} in {submission}",
        "nested": {"deep": [{f"seen_{participant}": submission}]},
    }
    saved = client.post(f"/api/sessions/{token}/rows", json={"trial_id": f"row-{token[:8]}-0000", "row": row})
    assert saved.status_code == 201, saved.get_json()
    ending = {"ended_early": False, "message": None}
    assert client.post(f"/api/sessions/{token}/timeline-finished", json=ending).status_code == 200
    done = client.post(f"/api/sessions/{token}/complete", json={})
    assert done.status_code == 200, done.get_json()
    fake.submit(submission, parse_qs(urlsplit(done.get_json()["redirect_url"]).query)["cc"][0])
    return submission


def prolific(runner, *args):
    result = runner.invoke(args=["prolific", *args])
    assert result.exit_code == 0, result.output
    return result


def purge(runner):
    result = runner.invoke(args=["data", "purge-identifiers", SLUG, "--older-than", "0", "--apply"])
    assert result.exit_code == 0, result.output
    return result.output


def matched() -> dict[str, tuple[int | None, str]]:
    """Each stored submission by its keyed hash: (its session, its status)."""
    db.session.rollback()
    return {row.pid_hmac: (row.session_id, row.status) for row in db.session.scalars(db.select(ProlificSubmission))}


def test_purge_leaves_no_raw_prolific_id_anywhere_and_later_syncs_write_none(client, fake, runner, tmp_path):
    approved, rejected, returned, never, active = (pid(n) for n in range(1, 6))
    submissions = {approved: take_part(client, fake, approved), rejected: take_part(client, fake, rejected)}
    submissions[returned] = fake.join(PROLIFIC_STUDY, returned)
    enter(client, returned, submissions[returned])
    fake.set_status(submissions[returned], "RETURNED")
    submissions[never] = fake.join(PROLIFIC_STUDY, never)  # a broken study URL: never reached studyhive
    fake.set_status(submissions[never], "RETURNED")
    submissions[active] = fake.join(PROLIFIC_STUDY, active)
    enter(client, active, submissions[active])
    prolific(runner, "sync", SLUG)
    prolific(runner, "reject", SLUG, rejected, "--category", "LOW_EFFORT", "--message", REASON, "--yes")
    prolific(runner, "approve", SLUG, "--yes")
    bonuses = tmp_path / "bonuses.csv"
    bonuses.write_text(f"participant_id,amount\n{approved},1.25\n")
    prolific(runner, "bonus", SLUG, str(bonuses), "--yes")
    prolific(runner, "sync", SLUG)
    assert fake.payments() == {approved: [125]}
    db.session.rollback()
    assert dict(db.session.execute(db.select(ProlificSubmission.participant_id, ProlificSubmission.status)).all()) == {
        approved: "APPROVED",
        rejected: "REJECTED",
        returned: "RETURNED",
        never: "RETURNED",
        active: "ACTIVE",
    }
    settled_ids = [id_ for p in (approved, rejected, returned, never) for id_ in (p, submissions[p])]
    assert anywhere(*settled_ids)  # the raw ids are held before the purge

    output = purge(runner)
    assert anywhere(*settled_ids) == []
    assert "purged the identifiers of 4" in output, output  # the four sessions (the one that never came has none)
    assert "the raw ids of 4 settled Prolific submission(s) and of 1 bonus batch(es) go" in output
    assert "1 Prolific submission(s) not settled (ACTIVE 1) keep their raw ids: purge again once" in output
    # the participant still taking part keeps the ids their approval will need, in Prolific's record only
    assert sorted(anywhere(active, submissions[active])) == [
        ("prolific_submissions", "participant_id"),
        ("prolific_submissions", "submission_id"),
    ]
    db.session.rollback()
    (row,) = db.session.scalars(db.select(BonusBatchRow)).all()
    assert (row.participant_id, row.amount_cents) == (identifiers.pid_hmac(approved), 125)
    assert db.session.scalars(db.select(BonusBatch.identifiers_purged_at)).one() is not None

    # Prolific's records are matched by the keyed hashes: nothing raw is written again, every session found
    sessions = {p: _session_id(p) for p in (approved, rejected, returned, active)}
    prolific(runner, "sync", SLUG)
    assert anywhere(*settled_ids) == []
    assert matched() == {
        identifiers.pid_hmac(approved): (sessions[approved], "APPROVED"),
        identifiers.pid_hmac(rejected): (sessions[rejected], "REJECTED"),
        identifiers.pid_hmac(returned): (sessions[returned], "RETURNED"),
        identifiers.pid_hmac(never): (None, "RETURNED"),
        identifiers.pid_hmac(active): (sessions[active], "ACTIVE"),
    }
    # the paid file again is refused as paid; a new bonus for the purged participant because their payments can no
    # longer be checked on Prolific
    again = runner.invoke(args=["prolific", "bonus", SLUG, str(bonuses), "--yes"])
    assert again.exit_code != 0 and "these rows were paid on" in again.output, again.output
    more = tmp_path / "more.csv"
    more.write_text(f"participant_id,amount\n{approved},0.50\n")
    again = runner.invoke(args=["prolific", "bonus", SLUG, str(more), "--yes"])
    assert again.exit_code != 0 and "their Prolific ids were purged" in again.output, again.output

    fake.set_status(submissions[active], "RETURNED")  # settled: the next purge takes its ids too
    prolific(runner, "sync", SLUG)
    output = purge(runner)
    assert "the raw ids of 1 settled Prolific submission(s)" in output and "not settled" not in output, output
    everything = settled_ids + [active, submissions[active]]
    assert anywhere(*everything) == []
    prolific(runner, "sync", SLUG)
    assert anywhere(*everything) == [] and len(matched()) == 5


def _session_id(participant: str) -> int:
    db.session.rollback()
    return db.session.scalars(
        db.select(ParticipantSession.id).where(identifiers.MATCHES), identifiers.match_values(participant)
    ).one()


# ------------------------------------------------------------------------------------------- declined consent


@pytest.fixture
def sketch(tmp_path):
    with prolific_app(tmp_path) as (app, fake):
        yield app, fake


@pytest.mark.db
def test_a_declined_consent_keeps_its_code_and_outcome_and_nothing_else(sketch):
    app, fake = sketch
    client = app.test_client()
    declining, taking_part = pid(1), pid(2)
    tokens, raw = {}, {}
    for n, participant in enumerate((declining, taking_part)):
        submission = fake.join(PROLIFIC_STUDY, participant)
        user_agent = f"{UA} tester/{n}"
        raw[participant] = (participant, submission, user_agent)
        response = client.get(
            f"/study/{SKETCH}",
            query_string={"PROLIFIC_PID": participant, "STUDY_ID": PROLIFIC_STUDY, "SESSION_ID": submission},
            headers={"User-Agent": user_agent},
        )
        assert response.status_code == 303, response.data
        tokens[participant] = token = response.headers["Location"].rsplit("/", 1)[1]
        sizes = {"screen_width": 1917, "screen_height": 1079, "window_width": 1611, "window_height": 941}
        assert client.put(f"/api/sessions/{token}/environment", json=sizes).status_code == 200

    ended = client.post(f"/api/sessions/{tokens[declining]}/end", json={"outcome": "no_consent"})
    assert ended.status_code == 200, ended.get_json()
    assert ended.get_json()["redirect_url"].endswith(f"cc={CODES['no_consent']}")  # its Prolific code

    assert anywhere(*raw[declining]) == []
    db.session.rollback()
    gone, staying = (db.session.scalars(db.select(ParticipantSession).filter_by(token=tokens[p])).one() for p in tokens)
    assert (gone.status, gone.outcome, gone.pid_hmac) == ("abandoned", "no_consent", identifiers.pid_hmac(declining))
    assert (gone.screen_width, gone.screen_height, gone.window_width, gone.window_height) == (None,) * 4
    assert (gone.prolific_study_id, gone.user_agent, gone.url_variables) == (None, None, None)
    assert gone.identifiers_purged_at is not None  # nothing left for the purge to do
    # the participant taking part keeps what the study needs of her until the purge
    assert (staying.prolific_pid, staying.user_agent, staying.screen_width) == (taking_part, raw[taking_part][2], 1917)

    # the funnel still counts the session, with its outcome; the same PROLIFIC_PID coming back finds it
    assert reconciliation(get_study(SKETCH))["outcomes"] == {"no_consent": 1}
    back = client.get(f"/study/{SKETCH}", query_string={"PROLIFIC_PID": declining, "STUDY_ID": PROLIFIC_STUDY})
    assert back.status_code < 500
    db.session.rollback()
    assert db.session.scalar(db.select(db.func.count()).select_from(ParticipantSession)) == 2
    assert anywhere(*raw[declining]) == []
