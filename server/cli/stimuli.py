"""`flask stimuli export|import`: a study's stimuli as files for models, and imported stimuli from GPU runs."""

from __future__ import annotations

from pathlib import Path

import click
from click.core import ParameterSource

from ..db import db
from ..exceptions import ConfigError, ImportRefused
from ..stimuli.for_models import ExportRefused, export_test, export_training, test_stimuli
from ..stimuli.manifests import import_manifest
from ..studies.definitions import get_study
from ..tasktype.registry import registry
from .common import study_or_fail


@click.group("stimuli", help="Stimulus files: import them from GPU runs, export them for models.")
def stimuli_cli():
    pass


@stimuli_cli.command(
    "export",
    help="Write a study's test stimuli as model inputs plus manifest.csv; with "
    "--training, a training set for models drawn by the same generator instead "
    "(docs/models.md).",
)
@click.argument("slug")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path))
@click.option("--include-practice", is_flag=True, help="also write the practice stimuli")
@click.option(
    "--training",
    "n_training",
    type=int,
    default=None,
    help="write N labelled training images instead of the test, none of them in the test's ratio bins",
)
@click.option("--regime", help="with --training: the ratio-sampling regime, IID, COV, ADV or OOD")
@click.option(
    "--bins",
    "n_bins",
    type=int,
    default=None,
    help="with --training: how many training ratio bins (Study II's downsampling) [half the candidates]",
)
@click.option("--seed", type=int, default=0, show_default=True, help="with --training: seed of the sampling")
@click.option(
    "--validation",
    "n_validation",
    type=int,
    default=None,
    help="with --training: validation images, from bins held out of every training set [N/3]",
)
@click.option(
    "--random-test",
    "n_random_test",
    type=int,
    default=None,
    help="with --training: keep out the paper's 19 random test bins instead of the study's test, and write M "
    "labelled images from them to OUT/test for a model-only evaluation (the paper: 20,000; docs/models.md)",
)
@click.option(
    "--chart-type",
    "chart_types",
    type=int,
    multiple=True,
    help="only these chart types (repeat the option), for the training set or the test: the papers' one network "
    "per chart type [all]",
)
def export_command(
    slug, out_dir, include_practice, n_training, regime, n_bins, seed, n_validation, n_random_test, chart_types
):
    study = get_study(slug)
    task = study and registry().get(study.task_type)
    if task is None:
        raise click.ClickException(f"no study named {slug!r} with a known task type (see `flask studies list`)")
    if n_training is not None:
        if include_practice:
            raise click.UsageError("--include-practice is for the test export, not with --training")
        test = test_stimuli(study)
        try:
            drawn = export_training(
                task,
                study,
                test,
                out_dir,
                {
                    "n": n_training,
                    "regime": regime,
                    "bins": n_bins,
                    "seed": seed,
                    "chart_types": chart_types,
                    "validation": n_training // 3 if n_validation is None else n_validation,
                    "random_test": n_random_test,
                },
            )
        except (ExportRefused, ConfigError) as exc:
            raise click.ClickException(str(exc)) from None
        distance = drawn.sampling.get("training_test_distance", {})
        test = f" and {len(drawn.test)} random-bins test images (test/)" if drawn.test else ""
        click.echo(
            f"{len(drawn.training)} training and {len(drawn.validation)} validation images{test} written to "
            f"{out_dir} (manifest.csv, validation.csv, images/, sampling.json): "
            f"{drawn.sampling.get('condition', '')}"
            + (f", training–test distance {distance['stimuli']:.4f}" if "stimuli" in distance else "")
        )
        return
    seed_given = click.get_current_context().get_parameter_source("seed") is ParameterSource.COMMANDLINE
    given = [
        flag
        for flag, value in (
            ("--regime", regime),
            ("--bins", n_bins),
            ("--validation", n_validation),
            ("--random-test", n_random_test),
            ("--seed", seed if seed_given else None),
        )
        if value not in (None, ())
    ]
    if given:
        raise click.UsageError(f"{', '.join(given)}: only with --training N")
    try:
        n = export_test(task, study, out_dir, include_practice, chart_types)
    except ExportRefused as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{n} stimuli written to {out_dir} (manifest.csv, images/)")


@stimuli_cli.command("import", help="Import a study's stimuli from a manifest (CSV or JSON) and a folder of images.")
@click.argument("slug")
@click.argument("manifest", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--images",
    "images_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="folder the manifest's file names are relative to",
)
@click.option("--replace", is_flag=True, help="replace stimuli whose content changed (only if no trials use them)")
def import_command(slug, manifest, images_dir, replace):
    study = study_or_fail(slug)
    try:
        counts = import_manifest(study, manifest, images_dir, replace)
    except ImportRefused as exc:
        db.session.rollback()
        raise click.ClickException(f"{manifest}: {exc}") from None
    click.echo(
        f"{slug}: {counts['rows']} rows — {counts['new']} new, {counts['replaced']} replaced, "
        f"{counts['unchanged']} unchanged stimuli; "
        f"{counts['files']} distinct images ({counts['files_added']} new)"
    )
