"""`flask stimuli export`: the images and manifest of a study's test stimuli, so models take exactly the test that
people took."""
from __future__ import annotations

import csv
from pathlib import Path

import click

from .db import db
from .manifests import ImportRefused, import_manifest
from .models import Asset, Stimulus
from .studies import get_study
from .tasks import registry


EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp",
              "image/svg+xml": "svg"}


def model_file(value: tuple[str, bytes] | str) -> tuple[str, bytes]:
    """A task's model input as (extension, bytes); tasks with imported images name the stored asset."""
    if isinstance(value, str):
        asset = db.session.get(Asset, value)
        return EXTENSIONS[asset.mimetype], asset.data
    return value


@click.group("stimuli", help="Stimulus files: import them from GPU runs, export them for models.")
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
            ext, data = model_file(task.model_input(stim.key, stim.params))
            path = images / f"{stim.key}.{ext}"
            path.write_bytes(data)
            writer.writerow([stim.key, *(stim.params.get(c) for c in columns), stim.practice,
                             path.relative_to(out_dir).as_posix()])
            n += 1
    click.echo(f"{n} stimuli written to {out_dir} (manifest.csv, images/)")


@stimuli_cli.command("import", help="Import a study's stimuli from a manifest (CSV or JSON) and a folder of images.")
@click.argument("slug")
@click.argument("manifest", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--images", "images_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="folder the manifest's file names are relative to")
@click.option("--replace", is_flag=True, help="replace stimuli whose content changed (only if no trials use them)")
def import_command(slug, manifest, images_dir, replace):
    study = get_study(slug)
    if study is None:
        raise click.ClickException(f"no study named {slug!r} (see `flask studies list`)")
    try:
        counts = import_manifest(study, manifest, images_dir, replace)
    except ImportRefused as exc:
        db.session.rollback()
        raise click.ClickException(f"{manifest}: {exc}") from None
    click.echo(f"{slug}: {counts['rows']} rows — {counts['new']} new, {counts['replaced']} replaced, "
               f"{counts['unchanged']} unchanged stimuli; {counts['files']} distinct images ({counts['files_added']} new)")


def init_app(app):
    app.cli.add_command(stimuli_cli)
