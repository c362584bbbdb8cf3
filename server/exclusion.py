"""Excluding a participant's session (failed attention checks, a duplicate person, a broken session) and
reinstating it, from the dashboard or `flask participants exclude|reinstate`. The reason is required and goes to
the audit log with who did it; the session keeps its rows (exports show status and reason) and every analysis leaves
it out. Reinstating restores the status it had before.

An excluded session holds no condition slot (server/conditions.py counts completed and running sessions only), so
the next newcomer takes its condition and a balanced design can be refilled with analysable people. It does not
reopen a Prolific place: the participant did submit; add places on Prolific to recruit a replacement. Reinstating
puts the session back in its slot, which may fill a condition past its quota."""
from __future__ import annotations

import click
from flask import Flask
from flask.cli import AppGroup

from .auth import get_researcher
from .db import db, utcnow
from .models import ParticipantSession, Study
from .prolific import audit
from .studies import get_study


class ExclusionError(ValueError):
    """The request cannot be done as asked (no reason, already excluded, not excluded); nothing was written."""


def _reason(reason: str | None) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ExclusionError("a reason is required")
    return reason


def exclude(study: Study, session: ParticipantSession, reason: str | None, researcher_id: int | None,
            via: str) -> None:
    """Mark the session excluded with the reason, and log it (committed with the caller's transaction)."""
    reason = _reason(reason)
    if session.status == "excluded":
        raise ExclusionError(f"participant {session.id} is already excluded ({session.exclusion_reason})")
    session.status_before_exclusion = session.status
    session.status = "excluded"
    session.exclusion_reason = reason
    session.excluded_at = utcnow()
    audit.record(study, "participant_excluded", researcher_id, via, participant_id=session.id, reason=reason,
                 previous_status=session.status_before_exclusion)


def reinstate(study: Study, session: ParticipantSession, reason: str | None, researcher_id: int | None,
              via: str) -> None:
    """Give the session back the status it had before its exclusion, and log it with the reason."""
    reason = _reason(reason)
    if session.status != "excluded":
        raise ExclusionError(f"participant {session.id} is not excluded (status {session.status})")
    restored = session.status_before_exclusion
    audit.record(study, "participant_reinstated", researcher_id, via, participant_id=session.id, reason=reason,
                 excluded_for=session.exclusion_reason, status=restored)
    session.status = restored
    session.status_before_exclusion = session.exclusion_reason = session.excluded_at = None


participants_cli = AppGroup("participants", help="Exclude a participant's session from every analysis, or reinstate it.")
REASON = click.option("--reason", required=True, help="why (required; written to the audit log and the export)")
BY = click.option("--by", "username", help="researcher account to log as the one who did it")


def _target(slug: str, session_id: int) -> tuple[Study, ParticipantSession]:
    study = get_study(slug)
    if study is None:
        raise click.ClickException(f"no study named {slug!r} (see `flask studies list`)")
    session = db.session.get(ParticipantSession, session_id)
    if session is None or session.study_id != study.id:
        raise click.ClickException(f"study {slug!r} has no participant {session_id} (participant_id in "
                                   "participants.csv)")
    return study, session


def _run(action, slug: str, session_id: int, reason: str, username: str | None) -> ParticipantSession:
    study, session = _target(slug, session_id)
    researcher = get_researcher(username) if username else None
    if username and researcher is None:
        raise click.ClickException(f"no researcher named {username!r}")
    try:
        action(study, session, reason, researcher and researcher.id, via="cli")
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


def init_app(app: Flask) -> None:
    app.cli.add_command(participants_cli)
