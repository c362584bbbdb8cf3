"""`flask data purge-identifiers SLUG [--older-than 30d] [--apply] [--by USER]`: retention of participants' platform
ids (docs/operations.md, "Data protection")."""

from __future__ import annotations

from datetime import timedelta

import click
from flask.cli import AppGroup

from ..participation.sessions import purge_identifiers
from .common import BY, by_researcher, study_or_fail
from .sessions import Age

data_cli = AppGroup("data", help="Data protection: retention of participants' identifiers.")


@data_cli.command(
    "purge-identifiers",
    help="Null the raw Prolific ids (PROLIFIC_PID, STUDY_ID, SESSION_ID) of study SLUG's sessions that started more "
    "than --older-than ago and reduce their User-Agent to browser and OS, and those of their settled Prolific "
    "submissions and paid bonus batches; their keyed hashes stay, so returning participants and Prolific sync still "
    "find them. A dry run unless --apply; refused while a bonus batch is not paid or a submission awaits review; "
    "submissions not settled yet keep their ids.",
)
@click.argument("slug")
@click.option(
    "--older-than", "older_than", type=Age(bare=None), default="30d", show_default=True, help="e.g. 30d, 12h, 0"
)
@click.option("--apply", "apply", is_flag=True, help="purge (without it: only print what would be purged)")
@BY
def purge_identifiers_command(slug, older_than: timedelta, apply, username):
    study = study_or_fail(slug)
    researcher_id = by_researcher(username)
    try:
        report = purge_identifiers(study, older_than, researcher_id, "cli", apply=apply)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--older-than") from None
    days = older_than.total_seconds() / 86400
    per_status = "".join(f"\n  {status}: {n}" for status, n in report.counts.items())
    if apply and report.refusals:
        raise click.ClickException(
            f"nothing purged from {slug}: " + "; ".join(report.refusals) + ' (docs/operations.md, "Data protection")'
        )
    if apply and not report.anything:
        click.echo(f"{slug}: sessions older than {days:g} days: nothing to purge")
    else:
        verb = "purged" if report.applied else "would purge"
        click.echo(f"{slug}: sessions older than {days:g} days: {verb} the identifiers of {report.total}{per_status}")
    if report.prolific_note:
        click.echo(f"Prolific: {report.prolific_note}")
    if not apply:
        for refusal in report.refusals:
            click.echo(f"refused for now: {refusal}")
        if not report.refusals and report.anything:
            click.echo("dry run: nothing written; --apply purges")
