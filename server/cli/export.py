"""`flask export <slug> --out DIR`: participants.csv, trials.csv and codebook.csv of a study."""

from __future__ import annotations

from pathlib import Path

import click

from ..results.export import write_export
from .common import study_or_fail


@click.command("export", help="Write participants.csv, trials.csv and codebook.csv of a study to a folder.")
@click.argument("slug")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path))
def export_command(slug, out_dir):
    written = write_export(study_or_fail(slug), out_dir)
    click.echo("\n".join(f"{path}: {n} rows" for path, n in written))
