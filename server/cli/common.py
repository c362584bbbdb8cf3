"""What several commands share: the study or researcher an argument names (or a click error saying there is none),
the --by option, and a report command's --out and --format and how it prints."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import ScriptInfo

from ..models import Researcher, Study
from ..researchers.auth import get_researcher
from ..studies.definitions import get_study

#: `--by NAME`: the researcher account a command's change is logged as (the audit log).
BY = click.option("--by", "username", help="researcher account to log as the one who did it")


def study_or_fail(slug: str) -> Study:
    study = get_study(slug)
    if study is None:
        raise click.ClickException(f"no study named {slug!r} (see `flask studies list`)")
    return study


def researcher_or_fail(username: str) -> Researcher:
    researcher = get_researcher(username)
    if researcher is None:
        raise click.ClickException(f"no researcher named {username!r}")
    return researcher


def by_researcher(username: str | None) -> int | None:
    """The id of the researcher `--by` names (None without --by)."""
    return researcher_or_fail(username).id if username else None


def command_app(ctx: click.Context) -> Flask:
    """The app a command runs in, before it runs (its help and options name what the app's task types declare):
    the current one, else the one `flask` (or a test's runner) loads for it."""
    return current_app._get_current_object() if current_app else ctx.ensure_object(ScriptInfo).load_app()


def report_options(out_help: str):
    """`--out DIR` and `--format text|json` of a command that prints a report (flask analyze, flask hypoml):
    `out_help` says what it writes to the folder."""

    def decorate(command):
        command = click.option(
            "--format",
            "fmt",
            type=click.Choice(["text", "json"]),
            default="text",
            show_default=True,
            help="text: a readable report; json: the same numbers as a dict of tables (records), NaN as null",
        )(command)
        return click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), help=out_help)(
            command
        )

    return decorate


def print_report(
    fmt: str,
    as_json: Callable[[], Any],
    as_text: Callable[[], str],
    out_dir: Path | None,
    write: Callable[[Path], list[Path]],
) -> None:
    """Print a report as `--format` asks and, with `--out`, write its files there and say which (on stderr beside
    JSON, which stdout holds alone)."""
    if fmt == "json":
        click.echo(json.dumps(as_json(), indent=1, ensure_ascii=False, allow_nan=False))
    else:
        click.echo(as_text(), nl=False)
    if out_dir is not None:
        written = write(out_dir)
        click.echo(
            f"wrote {len(written)} files to {out_dir}: {', '.join(p.name for p in written)}", err=(fmt == "json")
        )
