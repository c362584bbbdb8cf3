"""`flask studies …`: load study files into the database, list them, open, pause or close a study."""
from __future__ import annotations

from pathlib import Path

import click
from flask import current_app

from ..db import db
from ..models import Study
from ..studies import StudyFileError, set_status, sync_studies
from .common import BY, by_researcher, study_or_fail


@click.group("studies", help="Load and list study definitions.")
def studies_cli():
    pass


@studies_cli.command("sync", help="Load or update every studies/<slug>/study.toml into the database.")
def sync_command():
    try:
        report = sync_studies(Path(current_app.config["STUDIES_DIR"]))
    except StudyFileError as exc:
        raise click.ClickException(str(exc)) from None
    for slug, outcome in report:
        click.echo(f"{slug}: {outcome}")


@studies_cli.command("list", help="List the studies in the database.")
def list_command():
    for study in db.session.scalars(db.select(Study).order_by(Study.slug)):
        click.echo(f"{study.slug}\t{study.task_type}\tversion {study.version}\t{study.status}\t{study.title}")


def _status_command(status: str, verb: str):
    @studies_cli.command(verb, help=f"Set a study's status to {status!r} (logged in study_events).")
    @click.argument("slug")
    @BY
    def command(slug, username):
        study = study_or_fail(slug)
        changed = set_status(study, status, by_researcher(username), via="cli")
        click.echo(f"{slug}: {status}" if changed else f"{slug} is {status} already")
    return command


for _status, _verb in (("open", "open"), ("paused", "pause"), ("closed", "close")):
    _status_command(_status, _verb)
