"""`flask studies …`: load study files into the database, list them and their versions, open, pause or close a
study; the study file's JSON Schema and key reference."""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path

import click
from flask import current_app

from ..db import db
from ..models import STAGES, Study
from ..studies.definitions import (
    StudyFileError,
    SyncFailed,
    check_study,
    json_schema,
    key_reference,
    set_stage,
    set_status,
    sync_studies,
    with_key_reference,
)
from ..studies.diff import ABSENT, LOST, UnknownVersion, diff, kept_version
from ..studies.versions import versions
from .common import BY, by_researcher, study_or_fail
from .sessions import report_purge


@click.group("studies", help="Load and list study definitions.")
def studies_cli():
    pass


@studies_cli.command(
    "sync",
    help="Load or update every studies/<slug>/study.toml into the database, or those of the SLUGs named; a changed "
    "study file is kept as a new version (`flask studies versions`). Each study syncs on its own: one that fails "
    "keeps the version it had and the others are synced. Then deletes old preview sessions "
    "(`flask sessions purge-previews`).",
)
@click.argument("slugs", nargs=-1, metavar="[SLUG]...")
@BY
def sync_command(slugs, username):
    researcher_id = by_researcher(username)
    failed = None
    try:
        report = sync_studies(Path(current_app.config["STUDIES_DIR"]), researcher_id, via="cli", slugs=slugs)
    except SyncFailed as exc:
        report, failed = exc.report, exc
    except StudyFileError as exc:  # a slug with no study file: nothing was synced
        raise click.ClickException(str(exc)) from None
    for slug, outcome in report:
        click.echo(f"{slug}: {outcome}")
    report_purge()
    if failed:
        total = len(report) + len(failed.failures)
        raise click.ClickException(
            f"{len(failed.failures)} of {total} studies not synced; each keeps the version it had:\n{failed}"
        )


@studies_cli.command(
    "check",
    help="What `flask studies sync` would do with one study, writing nothing: PATH is the study's folder "
    "(studies/<slug>) or its slug. Prints the study file's validation; for an own jsPsych experiment its jsPsych "
    "version, every tag and how it resolves, the inline scripts, the packages and study files published, the JATOS "
    "calls and warnings; for a built-in task type its parameters. Exits 1 with sync's message when sync would fail.",
)
@click.argument("path")
def check_command(path):
    folder = Path(path)
    if folder.name == "study.toml" and folder.is_file():
        folder = folder.parent
    studies_dir = Path(current_app.config["STUDIES_DIR"])
    if not (folder / "study.toml").is_file():  # a slug
        folder = studies_dir / path
    if not (folder / "study.toml").is_file():
        raise click.ClickException(f"{path} is neither a study folder (with a study.toml) nor a study in {studies_dir}")
    try:
        lines = check_study(folder / "study.toml")
    except StudyFileError as exc:
        raise click.ClickException(str(exc)) from None
    for line in lines:
        click.echo(line)


@studies_cli.command("schema", help="Write the JSON Schema of study.toml (for editors) to stdout or --out FILE.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="write it to this file")
def schema_command(out):
    text = json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
    if out:
        out.write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


@studies_cli.command(
    "keys",
    help="Print the Markdown reference of every study.toml key, made from the models; "
    "--update FILE rewrites the reference between FILE's markers (docs/studies.md).",
)
@click.option(
    "--update",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="the Markdown file whose key reference to rewrite",
)
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
        click.echo(
            f"{study.slug}\t{study.task_type}\tversion {study.version}\t{study.status}\t{study.stage}\t{study.title}"
        )


@studies_cli.command(
    "versions",
    help="List a study's kept versions (number, hash, when, by whom, sessions), or "
    "print one version's configuration as JSON with --show N.",
)
@click.argument("slug")
@click.option("--show", "number", type=int, help="print version N's configuration (JSON)")
def versions_command(slug, number):
    study = study_or_fail(slug)
    kept, not_kept = versions(study)
    if number is not None:
        try:
            version = kept_version(study, number)
        except UnknownVersion as exc:
            raise click.ClickException(str(exc)) from None
        click.echo(json.dumps(version.config, indent=2, sort_keys=True, ensure_ascii=False))
        return
    click.echo("version\thash\tsynced (UTC)\tby\tsessions")
    for v in kept:
        # SQLite returns the stored UTC time without its zone
        synced = v.created_at.replace(tzinfo=v.created_at.tzinfo or UTC).astimezone(UTC)
        by = ", ".join(part for part in (v.researcher, v.via, v.os_user and f"os user {v.os_user}") if part)
        click.echo(f"{v.version}\t{v.config_hash[:12]}\t{synced:%Y-%m-%d %H:%M:%S}\t{by}\t{v.sessions}")
    if not_kept:
        click.echo(f"{not_kept} session(s) entered under an earlier version that was not kept; {LOST}")


def shown(value) -> str:
    """A configuration value as JSON, a long one (a consent page) cut."""
    text = "(absent)" if value is ABSENT else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "…"


@studies_cli.command(
    "diff",
    help="What changed from kept version V1 to V2 of a study: the configuration's keys (dotted paths, old → new), "
    "the stimuli added and removed, and the sessions (no previews) that entered under each.",
)
@click.argument("slug")
@click.argument("v1", type=int)
@click.argument("v2", type=int)
def diff_command(slug, v1, v2):
    study = study_or_fail(slug)
    try:
        change = diff(study, v1, v2)
    except UnknownVersion as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{slug}: version {v1} → version {v2}")
    click.echo(f"keys changed: {len(change.keys)}")
    for key in change.keys:
        click.echo(f"  {key.path}: {shown(key.old)} → {shown(key.new)}")
    stimuli = change.stimuli
    if stimuli.added is None:
        click.echo(f"stimuli: not compared: {stimuli.source}")
    else:
        click.echo(f"stimuli: {len(stimuli.added)} added, {len(stimuli.removed)} removed ({stimuli.source})")
        for sign, keys in (("+", stimuli.added), ("-", stimuli.removed)):
            for key in keys:
                click.echo(f"  {sign} {key}")
    click.echo(
        "sessions (previews not counted): "
        + ", ".join(f"version {number}: {n}" for number, n in change.sessions.items())
    )


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


@studies_cli.command(
    "stage",
    help="Put studies in the pilot or live stage (logged in study_events): `flask studies stage SLUG... live`. New "
    "sessions start in the new stage; quotas count the current stage; `flask analyze` reads live by default.",
)
@click.argument("slugs", nargs=-1, required=True, metavar="SLUG...")
@click.argument("stage", type=click.Choice(STAGES))
@BY
def stage_command(slugs, stage, username):
    researcher_id = by_researcher(username)
    studies = [study_or_fail(slug) for slug in slugs]  # every slug checked before anything is written
    for study in studies:
        changed = set_stage(study, stage, researcher_id, via="cli")
        click.echo(f"{study.slug}: {stage}" if changed else f"{study.slug} is {stage} already")
