"""`flask participants exclude|reinstate|withdraw`: leave a session out of every analysis, take it back in, or delete
its data at the participant's request (all audited)."""

from __future__ import annotations

import click
from flask.cli import AppGroup

from ..db import db
from ..models import ParticipantSession, Study
from ..participation import withdrawal
from ..researchers.exclusion import ExclusionError, exclude, reinstate
from .common import BY, by_researcher, study_or_fail

participants_cli = AppGroup(
    "participants",
    help="Exclude a participant's session from every analysis, reinstate it, or withdraw it (its data deleted).",
)
REASON = click.option("--reason", required=True, help="why (required; written to the audit log and the export)")


def _target(slug: str, session_id: int) -> tuple[Study, ParticipantSession]:
    study = study_or_fail(slug)
    session = db.session.get(ParticipantSession, session_id)
    if session is None or session.study_id != study.id:
        raise click.ClickException(
            f"study {slug!r} has no participant {session_id} (participant_id in participants.csv)"
        )
    return study, session


def _run(action, slug: str, session_id: int, reason: str, username: str | None) -> ParticipantSession:
    study, session = _target(slug, session_id)
    researcher_id = by_researcher(username)
    try:
        action(study, session, reason, researcher_id, via="cli")
    except ExclusionError as exc:
        db.session.rollback()
        raise click.ClickException(str(exc)) from None
    db.session.commit()
    return session


@participants_cli.command("exclude", help="Exclude participant SESSION_ID (participant_id) of study SLUG.")
@click.argument("slug")
@click.argument("session_id", type=int)
@REASON
@BY
def exclude_command(slug, session_id, reason, username):
    session = _run(exclude, slug, session_id, reason, username)
    click.echo(f"{slug}: participant {session.id} excluded (was {session.status_before_exclusion}): {reason}")


@participants_cli.command("reinstate", help="Reinstate excluded participant SESSION_ID of study SLUG.")
@click.argument("slug")
@click.argument("session_id", type=int)
@REASON
@BY
def reinstate_command(slug, session_id, reason, username):
    session = _run(reinstate, slug, session_id, reason, username)
    click.echo(f"{slug}: participant {session.id} reinstated ({session.status}): {reason}")


@participants_cli.command(
    "withdraw",
    help="Withdraw a participant of study SLUG at their request: delete the session's trials and survey answers and "
    'keep a tombstone without personal data (docs/researchers.md, "Withdrawal"). PARTICIPANT: a PROLIFIC_PID, a '
    "participant_code or a participant_id (session id).",
)
@click.argument("slug")
@click.argument("participant")
@click.option("--reason", required=True, help="why, e.g. the participant's request (required; the audit log)")
@BY
def withdraw_command(slug, participant, reason, username):
    study = study_or_fail(slug)
    researcher_id = by_researcher(username)
    try:
        session = withdrawal.find(study, participant)
        done = withdrawal.withdraw(study, session, reason, researcher_id, via="cli")
    except withdrawal.WithdrawalError as exc:
        db.session.rollback()
        raise click.ClickException(str(exc)) from None
    db.session.commit()
    if done:
        click.echo(f"{slug}: participant {session.id} withdrawn: trials and survey answers deleted ({reason})")
    else:
        when = session.withdrawn_at.strftime("%Y-%m-%d %H:%M UTC")
        click.echo(f"{slug}: participant {session.id} is already withdrawn (since {when}); nothing changed")
