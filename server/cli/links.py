"""`flask links`: the participant links of every study and the researcher login."""

from __future__ import annotations

import click

from ..db import db
from ..models import Researcher, Study
from ..participation.links import study_links


@click.command("links", help="Print the participant links of every study and the researcher login.")
@click.option("--base-url", default="http://127.0.0.1:5000", show_default=True)
def links_command(base_url):
    base = base_url.rstrip("/")
    studies = db.session.scalars(db.select(Study).order_by(Study.slug)).all()
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
