"""`flask import-predictions` and `flask import-label-predictions`: models' answers for a study's stimuli (values,
or ranked labels of the task's vocabulary), each file all or nothing."""

from __future__ import annotations

import time
from pathlib import Path

import click

from ..exceptions import ImportRefused
from ..imports.label_predictions import import_label_predictions
from ..imports.predictions import UNITS, import_predictions


@click.command("import-predictions", help="Import a model's predictions (CSV or Parquet) for a study's stimuli.")
@click.argument("slug")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--observer", required=True, help="model name, e.g. vgg19-iid-large")
@click.option("--run", type=int, default=None, help="run number when the file has no run column [0]")
@click.option("--condition", default=None, help="training condition when the file has no condition column ['']")
@click.option(
    "--unit",
    type=click.Choice(tuple(UNITS)),
    help="what the prediction column holds: percent (0–100) or ratio (0–1); stored as percent. Required unless "
    "the file says (the Parquet of `python -m modelruns predict` does); refused when it disagrees with the file",
)
@click.option(
    "--replace",
    is_flag=True,
    help="replace runs of this observer that were imported before; a file of `python -m modelruns predict` "
    "replaces only its chart types of the run (the per-type networks' files merge by chart type)",
)
@click.option(
    "--disable-fk-triggers",
    is_flag=True,
    help="PostgreSQL superusers only: switch off the per-row foreign-key triggers on predictions inside "
    "this import's transaction (the import checks the keys itself); several times faster "
    "(docs/operations.md)",
)
def import_predictions_command(slug, file, observer, run, condition, unit, replace, disable_fk_triggers):
    started = time.perf_counter()
    try:
        importer = import_predictions(slug, file, observer, unit, run, condition, replace, disable_fk_triggers)
    except ImportRefused as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"imported {importer.summary()} in {time.perf_counter() - started:.1f} s")


@click.command(
    "import-label-predictions",
    help="Import a model's ranked labels or class probabilities (CSV or Parquet) for a sketch study.",
)
@click.argument("slug")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--observer", required=True, help="model name, e.g. clip-vit-b32")
@click.option("--run", type=int, default=None, help="run number when the file has no run column [0]")
@click.option("--condition", default=None, help="condition when the file has no condition column ['']")
@click.option(
    "--top-k", type=click.IntRange(min=1), default=None, help="keep the k best-ranked labels per sketch (default: all)"
)
@click.option("--replace", is_flag=True, help="replace runs of this observer that were imported before")
def import_label_predictions_command(slug, file, observer, run, condition, top_k, replace):
    started = time.perf_counter()
    try:
        importer = import_label_predictions(slug, file, observer, run, condition, top_k, replace)
    except ImportRefused as exc:
        raise click.ClickException(str(exc)) from None
    replaced = f", replacing {importer.replaced} earlier run(s)" if importer.replaced else ""
    click.echo(
        f"imported {importer.written:,} ranked labels for {observer} ({importer.runs} run(s)) from "
        f"{importer.rows:,} rows{replaced} in {time.perf_counter() - started:.1f} s"
    )
