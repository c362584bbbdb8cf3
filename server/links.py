"""`flask links`: what to paste into Prolific or LabInTheWild for each study, and how researchers log in."""
from __future__ import annotations

import click

from .db import db
from .models import Researcher, Study

PROLIFIC_QUERY = "PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}"


@click.command("links", help="Print the participant links of every study and the researcher login.")
@click.option("--base-url", default="http://127.0.0.1:5000", show_default=True)
def links_command(base_url):
    base = base_url.rstrip("/")
    studies = db.session.scalars(db.select(Study).order_by(Study.slug)).all()
    if not studies:
        click.echo("No studies loaded: run `flask studies sync`.")
    for study in studies:
        click.echo(f"\n{study.slug} — {study.title} [{study.task_type}, {study.status}]")
        click.echo(f"  try it / LabInTheWild:  {base}/study/{study.slug}")
        click.echo(f"  Prolific study URL:     {base}/study/{study.slug}?{PROLIFIC_QUERY}")
        if study.config.get("completion_url"):
            click.echo(f"  Prolific completion:    {study.config['completion_url']}")
    click.echo(f"\nResearchers: {base}/researcher/")
    if db.session.scalar(db.select(db.func.count(Researcher.id))) == 0:
        click.echo("  No researcher account yet. Create one with:\n"
                   "    .venv/bin/flask --app server researcher create YOUR_NAME")


def init_app(app):
    app.cli.add_command(links_command)
