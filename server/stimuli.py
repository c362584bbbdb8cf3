"""`flask stimuli export`: the images and manifest of a study's test stimuli, so models take exactly the test that
people took."""
from __future__ import annotations

import csv
import json
import shutil
import tempfile
from pathlib import Path

import click
from click.core import ParameterSource
from tqdm import tqdm

from .db import db
from .manifests import ImportRefused, import_manifest
from .models import Asset, Stimulus
from .studies import get_study
from .tasks import registry
from .tasks.base import ConfigError


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


@stimuli_cli.command("export", help="Write a study's test stimuli as model inputs plus manifest.csv; with "
                                    "--training, a training set for models drawn by the same generator instead "
                                    "(docs/models.md).")
@click.argument("slug")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path))
@click.option("--include-practice", is_flag=True, help="also write the practice stimuli")
@click.option("--training", "n_training", type=int, default=None,
              help="write N labelled training images instead of the test, none of them in the test's ratio bins")
@click.option("--regime", help="with --training: the ratio-sampling regime, IID, COV, ADV or OOD")
@click.option("--bins", "n_bins", type=int, default=None,
              help="with --training: how many training ratio bins (Study II's downsampling) [half the candidates]")
@click.option("--seed", type=int, default=0, show_default=True, help="with --training: seed of the sampling")
@click.option("--validation", "n_validation", type=int, default=None,
              help="with --training: validation images, from bins held out of every training set [N/3]")
@click.option("--chart-type", "chart_types", type=int, multiple=True,
              help="with --training: only these chart types (repeat the option) [all]")
def export_command(slug, out_dir, include_practice, n_training, regime, n_bins, seed, n_validation, chart_types):
    study = get_study(slug)
    task = study and registry().get(study.task_type)
    if task is None:
        raise click.ClickException(f"no study named {slug!r} with a known task type (see `flask studies list`)")
    query = db.select(Stimulus).filter_by(study_id=study.id).order_by(Stimulus.key)
    if n_training is not None:
        if include_practice:
            raise click.UsageError("--include-practice is for the test export, not with --training")
        _export_training(task, study, db.session.scalars(query.filter_by(practice=False)).all(), out_dir, {
            "n": n_training, "regime": regime, "bins": n_bins, "seed": seed, "chart_types": chart_types,
            "validation": n_training // 3 if n_validation is None else n_validation})
        return
    seed_given = click.get_current_context().get_parameter_source("seed") is ParameterSource.COMMANDLINE
    given = [flag for flag, value in (("--regime", regime), ("--bins", n_bins), ("--validation", n_validation),
                                      ("--chart-type", chart_types), ("--seed", seed if seed_given else None))
             if value not in (None, ())]
    if given:
        raise click.UsageError(f"{', '.join(given)}: only with --training N")
    if not include_practice:
        query = query.filter_by(practice=False)
    images = out_dir / "images"
    images.mkdir(parents=True, exist_ok=True)
    with open(out_dir / "manifest.csv", "w", newline="", encoding="utf-8") as fh:
        n = _write_manifest(fh, task, ((stim.key, stim.params, stim.practice) for stim in db.session.scalars(query)),
                            out_dir)
    click.echo(f"{n} stimuli written to {out_dir} (manifest.csv, images/)")


def _write_manifest(fh, task, stimuli, out_dir: Path) -> int:
    """Each (key, params, practice) as a model-input file under out_dir/images and a manifest row; the count."""
    columns = [c.name for c in task.stimulus_columns]
    writer = csv.writer(fh, lineterminator="\n")
    writer.writerow(["stimulus_id", *columns, "practice", "file"])
    n = 0
    for key, params, practice in stimuli:
        ext, data = model_file(task.model_input(key, params))
        path = out_dir / "images" / f"{key}.{ext}"
        path.write_bytes(data)
        writer.writerow([key, *(params.get(c) for c in columns), practice, path.relative_to(out_dir).as_posix()])
        n += 1
    return n


def _export_training(task, study, test: list[Stimulus], out_dir: Path, options: dict) -> None:
    """A training set (manifest.csv), its validation set (validation.csv) and sampling.json, written to a fresh
    folder beside out_dir and renamed into place when complete, so a failed export leaves nothing behind."""
    if out_dir.exists() and any(out_dir.iterdir()):
        raise click.ClickException(f"{out_dir} is not empty: a training set goes into a new folder")
    try:
        drawn = task.training_set([stim.params for stim in test], options)
    except NotImplementedError:
        raise click.ClickException(f"study {study.slug!r} ({study.task_type}) cannot draw training sets") from None
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None
    test_keys = {stim.key for stim in test}
    leaked = [s.key for s in drawn.training + drawn.validation if s.key in test_keys]
    if leaked:  # the task's promise, checked here too: the test people took never becomes training data
        raise RuntimeError(f"training set holds test stimuli: {', '.join(leaked[:5])}")
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-", dir=out_dir.parent))
    try:
        (staging / "images").mkdir()
        for name, specs in (("manifest.csv", drawn.training), ("validation.csv", drawn.validation)):
            with open(staging / name, "w", newline="", encoding="utf-8") as fh:
                _write_manifest(fh, task, ((s.key, s.params, False) for s in tqdm(
                    specs, desc=name, unit=" images", disable=None, leave=False)), staging)
        sampling = {"study": study.slug, "task_type": study.task_type, "n_test": len(test), **drawn.sampling}
        (staging / "sampling.json").write_text(json.dumps(sampling, indent=1) + "\n", encoding="utf-8")
        if out_dir.exists():
            out_dir.rmdir()
        staging.rename(out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    distance = drawn.sampling.get("training_test_distance", {})
    click.echo(f"{len(drawn.training)} training and {len(drawn.validation)} validation images written to {out_dir} "
               f"(manifest.csv, validation.csv, images/, sampling.json): {drawn.sampling.get('condition', '')}"
               + (f", training–test distance {distance['stimuli']:.4f}" if "stimuli" in distance else ""))


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
