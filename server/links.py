"""What to paste into Prolific or LabInTheWild for each study, and how researchers log in: `flask links` and the
study page of the dashboard print the same links (:func:`study_links`)."""
from __future__ import annotations

import click

from .db import db
from .models import Researcher, Study

PROLIFIC_QUERY = "PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}"


def study_links(study: Study, base_url: str) -> list[tuple[str, str]]:
    """(what, text to paste) for a study: its plain link, the Prolific study URL with Prolific's placeholders and,
    when the study has one, the completion URL and code to enter on Prolific."""
    base = base_url.rstrip("/")
    links = [("try it / LabInTheWild", f"{base}/study/{study.slug}"),
             ("Prolific study URL", f"{base}/study/{study.slug}?{PROLIFIC_QUERY}")]
    url = study.config.get("completion_url")
    if url:
        links.append(("Prolific completion URL", url))
        if "cc=" in url:
            links.append(("Prolific completion code", url.rsplit("cc=", 1)[1]))
    return links


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
        click.echo("  No researcher account yet. Create one with:\n"
                   "    .venv/bin/flask --app server researcher create YOUR_NAME")


def init_app(app):
    app.cli.add_command(links_command)
