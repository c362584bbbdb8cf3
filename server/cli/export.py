"""`flask export <slug> --out DIR [--stage pilot|live|all] [--include-identifiers [--by USER]]`: participants.csv,
trials.csv, events.csv and codebook.csv of a study, pseudonymous; identifiers.csv (raw Prolific ids, full
User-Agents) only when asked for, audited."""

from __future__ import annotations

from pathlib import Path

import click

from ..db import db
from ..models import STAGES
from ..prolific import audit
from ..results.export import write_export
from .common import BY, by_researcher, study_or_fail


@click.command(
    "export",
    help="Write participants.csv, trials.csv, events.csv and codebook.csv of a study to a folder; participants are "
    "named by their pseudonymous participant_code. --include-identifiers adds identifiers.csv (raw Prolific ids, "
    "full User-Agents), recorded in the study's audit log.",
)
@click.argument("slug")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--stage",
    type=click.Choice([*STAGES, "all"]),
    default="all",
    show_default=True,
    help="only the sessions that started in this stage (the `stage` column says which); researchers' previews never",
)
@click.option(
    "--include-identifiers",
    is_flag=True,
    help="also write identifiers.csv: participant_code → PROLIFIC_PID, STUDY_ID, SESSION_ID, full User-Agent "
    "(audited; keep it apart from the data you share)",
)
@BY
def export_command(slug, out_dir, stage, include_identifiers, username):
    study = study_or_fail(slug)
    researcher_id = by_researcher(username)
    if include_identifiers:  # logged before anything is written: a failed write may still have exposed some
        audit.record(study, "identifiers_exported", researcher_id, "cli", stage=stage, out=str(out_dir))
        db.session.commit()
    written = write_export(study, out_dir, stage, with_identifiers=include_identifiers)
    click.echo("\n".join(f"{path}: {n} rows" for path, n in written))
