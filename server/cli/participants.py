"""`flask participants exclude|reinstate`: leave a session out of every analysis, or take it back in (audited)."""

from __future__ import annotations

import click
from flask.cli import AppGroup

from ..db import db
from ..models import ParticipantSession, Study
from ..researchers.exclusion import ExclusionError, exclude, reinstate
from .common import BY, by_researcher, study_or_fail

participants_cli = AppGroup(
    "participants", help="Exclude a participant's session from every analysis, or reinstate it."
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
