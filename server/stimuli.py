"""`flask stimuli export`: the images and manifest of a study's test stimuli, so models take exactly the test that
people took."""
from __future__ import annotations

import csv
from pathlib import Path

import click

from .db import db
from .models import Stimulus
from .studies import get_study
from .tasks import registry


@click.group("stimuli", help="Stimulus files for model runs.")
def stimuli_cli():
    pass


@stimuli_cli.command("export", help="Write a study's test stimuli as model inputs plus manifest.csv.")
@click.argument("slug")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path))
@click.option("--include-practice", is_flag=True, help="also write the practice stimuli")
def export_command(slug, out_dir, include_practice):
    study = get_study(slug)
    task = study and registry().get(study.task_type)
    if task is None:
        raise click.ClickException(f"no study named {slug!r} with a known task type (see `flask studies list`)")
    query = db.select(Stimulus).filter_by(study_id=study.id).order_by(Stimulus.key)
    if not include_practice:
        query = query.filter_by(practice=False)
    images = out_dir / "images"
    images.mkdir(parents=True, exist_ok=True)
    columns = [c.name for c in task.stimulus_columns]
    n = 0
    with open(out_dir / "manifest.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["stimulus_id", *columns, "practice", "file"])
        for stim in db.session.scalars(query):
            ext, data = task.model_input(stim.key, stim.params)
            path = images / f"{stim.key}.{ext}"
            path.write_bytes(data)
            writer.writerow([stim.key, *(stim.params.get(c) for c in columns), stim.practice,
                             path.relative_to(out_dir).as_posix()])
            n += 1
    click.echo(f"{n} stimuli written to {out_dir} (manifest.csv, images/)")


def init_app(app):
    app.cli.add_command(stimuli_cli)
