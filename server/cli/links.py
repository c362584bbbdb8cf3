"""`flask links`: the participant links of every study (or of one) and the researcher login; `--preview` prints a
study's signed, expiring preview link instead (docs/researchers.md, "Preview")."""

from __future__ import annotations

import click

from ..db import db
from ..models import Researcher, Study
from ..participation.links import preview_link, study_links
from .common import study_or_fail


@click.command(
    "links",
    help="Print the participant links of every study (or of SLUG) and the researcher login; with --preview, "
    "SLUG's signed preview link (valid for PREVIEW_LINK_HOURS).",
)
@click.argument("slug", required=False)
@click.option("--base-url", default="http://127.0.0.1:5000", show_default=True)
@click.option("--preview", is_flag=True, help="print a preview link: it runs the study with a researcher bar")
@click.option("--condition", help="the condition the preview runs in (default: the study file's first)")
def links_command(slug, base_url, preview, condition):
    base = base_url.rstrip("/")
    if preview or condition:
        if not slug:
            raise click.UsageError("--preview needs the study's SLUG")
        if not preview:
            raise click.UsageError("--condition goes with --preview")
        try:
            path, expires = preview_link(study_or_fail(slug), condition)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from None
        click.echo(base + path)
        click.echo(
            f"valid until {expires:%Y-%m-%d %H:%M} UTC; its sessions are previews: never counted, exported or analysed"
        )
        return
    studies = [study_or_fail(slug)] if slug else db.session.scalars(db.select(Study).order_by(Study.slug)).all()
    if not studies:
        click.echo("No studies loaded: run `flask studies sync`.")
    for study in studies:
        click.echo(f"\n{study.slug} — {study.title} [{study.task_type}, {study.status}]")
        for what, text in study_links(study, base):
            click.echo(f"  {what + ':':<26}{text}")
    click.echo(f"\nResearchers: {base}/researcher/")
    if db.session.scalar(db.select(db.func.count(Researcher.id))) == 0:
        click.echo(
            "  No researcher account yet. Create one with:\n"
            "    .venv/bin/flask --app server researcher create YOUR_NAME"
        )
