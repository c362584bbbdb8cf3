"""What several commands share: the study or researcher an argument names (or a click error saying there is none),
and the --by option."""

from __future__ import annotations

import click

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
