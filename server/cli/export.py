"""`flask export <slug> --out DIR [--stage pilot|live|all]`: participants.csv, trials.csv, events.csv and
codebook.csv of a study."""

from __future__ import annotations

from pathlib import Path

import click

from ..models import STAGES
from ..results.export import write_export
from .common import study_or_fail


@click.command("export", help="Write participants.csv, trials.csv, events.csv and codebook.csv of a study to a folder.")
@click.argument("slug")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--stage",
    type=click.Choice([*STAGES, "all"]),
    default="all",
    show_default=True,
    help="only the sessions that started in this stage (the `stage` column says which); researchers' previews never",
)
def export_command(slug, out_dir, stage):
    written = write_export(study_or_fail(slug), out_dir, stage)
    click.echo("\n".join(f"{path}: {n} rows" for path, n in written))
