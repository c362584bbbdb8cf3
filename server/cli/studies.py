"""`flask studies …`: load study files into the database, list them, open, pause or close a study; the study
file's JSON Schema and key reference."""
from __future__ import annotations

import json
from pathlib import Path

import click
from flask import current_app

from ..db import db
from ..models import Study
from ..studies import StudyFileError, json_schema, key_reference, set_status, sync_studies, with_key_reference
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


@studies_cli.command("schema", help="Write the JSON Schema of study.toml (for editors) to stdout or --out FILE.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="write it to this file")
def schema_command(out):
    text = json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
    if out:
        out.write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


@studies_cli.command("keys", help="Print the Markdown reference of every study.toml key, made from the models; "
                                  "--update FILE rewrites the reference between FILE's markers (docs/studies.md).")
@click.option("--update", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="the Markdown file whose key reference to rewrite")
def keys_command(update):
    if not update:
        click.echo(key_reference())
        return
    try:
        update.write_text(with_key_reference(update.read_text(encoding="utf-8")), encoding="utf-8")
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None


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
