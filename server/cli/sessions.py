"""`flask sessions …`: housekeeping of participant sessions. `purge-previews` deletes researchers' preview sessions
(docs/researchers.md, "Preview"); `flask studies sync` runs it too."""

from __future__ import annotations

import re
from datetime import timedelta

import click
from flask import current_app

from ..participation.sessions import MAX_PURGE_AGE, purge_previews

AGE = re.compile(r"^(\d+(?:\.\d+)?)([smhd]?)$")
UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}


class Age(click.ParamType):
    """A duration such as 24h, 90m, 7d or 0, at most MAX_PURGE_AGE. A bare number other than 0 is in `bare` units
    (hours for purge-previews, as it always was); with `bare=None` it is refused, for commands whose mistake cannot
    be undone (30 meant as days would purge after 30 hours)."""

    name = "age"

    def __init__(self, bare: str | None = "h"):
        self.bare = bare

    def convert(self, value, param, ctx):
        if isinstance(value, timedelta):
            return value
        match = AGE.match(str(value).strip())
        if match is None:
            self.fail(f"{value!r} is not an age such as 24h, 90m, 7d or 0", param, ctx)
        number, unit = match.groups()
        if not unit:
            if self.bare is None and float(number) != 0:
                self.fail(f"{value!r}: give the unit, e.g. {number}d or {number}h", param, ctx)
            unit = self.bare or "h"  # 0 is 0 in any unit
        try:
            age = timedelta(**{UNITS[unit]: float(number)})
        except OverflowError:
            age = None
        if age is None or age > MAX_PURGE_AGE:
            self.fail(f"{value!r}: at most {MAX_PURGE_AGE.days} days", param, ctx)
        return age


@click.group("sessions", help="Housekeeping of participant sessions.")
def sessions_cli():
    pass


@sessions_cli.command(
    "purge-previews",
    help="Delete researchers' preview sessions (with their trials and survey answers) unseen for longer than "
    "--older-than (default: the PREVIEW_MAX_AGE_HOURS setting). Participants' sessions are never touched.",
)
@click.option("--older-than", "older_than", type=Age(), help="e.g. 24h, 90m, 7d; 0 deletes every preview")
@click.option("--dry-run", is_flag=True, help="only count the preview sessions that would be deleted")
def purge_previews_command(older_than, dry_run):
    report_purge(older_than, dry_run)


def report_purge(older_than: timedelta | None = None, dry_run: bool = False) -> None:
    """Purge (or with `dry_run` count) the old previews and print how many, per study."""
    if older_than is None:
        older_than = timedelta(hours=current_app.config["PREVIEW_MAX_AGE_HOURS"])
    counts = purge_previews(older_than, dry_run)
    verb = "would delete" if dry_run else "deleted"
    total = sum(counts.values())
    detail = "".join(f"\n  {slug}: {n}" for slug, n in counts.items())
    hours = older_than.total_seconds() / 3600
    click.echo(f"previews unseen for {hours:g} h: {verb} {total} session(s){detail}")
