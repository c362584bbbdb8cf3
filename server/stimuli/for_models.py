"""A study's stimuli as files for models: the test people took (images + manifest.csv), or a training set drawn by
the same generator that never holds a test stimulus (`flask stimuli export`, server/cli/stimuli.py)."""

from __future__ import annotations

import csv
import json
import shutil
import tempfile
from pathlib import Path

from tqdm import tqdm

from ..db import db
from ..models import Asset, Stimulus, Study
from ..tasktype.assets import EXTENSIONS
from ..tasktype.contract import ModelAnswers, TaskType, TrainingSet, TrainingSets


class ExportRefused(ValueError):
    """The stimuli cannot be written as asked; nothing was written."""


def model_file(value: tuple[str, bytes] | str) -> tuple[str, bytes]:
    """A task's model input as (extension, bytes); tasks with imported images name the stored asset."""
    if isinstance(value, str):
        asset = db.session.get(Asset, value)
        return EXTENSIONS[asset.mimetype], asset.data
    return value


def export_test(
    task: TaskType, study: Study, out_dir: Path, include_practice: bool, chart_types: tuple[int, ...] = ()
) -> int:
    """The study's test stimuli (and practice ones if asked; of `chart_types` only if given) as model inputs under
    out_dir/images plus out_dir/manifest.csv; the count. Raises ExportRefused for a task type models do not answer,
    or chart types no stimulus has."""
    if not isinstance(task, ModelAnswers):
        raise ExportRefused(f"study {study.slug!r} ({study.task_type}) has no stimuli for models")
    query = db.select(Stimulus).filter_by(study_id=study.id).order_by(Stimulus.key)
    if not include_practice:
        query = query.filter_by(practice=False)
    stimuli = db.session.scalars(query).all()
    if chart_types:  # one per-type network's test (docs/models.md)
        stimuli = [stim for stim in stimuli if stim.params.get("chart_type") in chart_types]
        if not stimuli:
            raise ExportRefused(
                f"study {study.slug!r} has no stimuli of chart type(s) {', '.join(map(str, sorted(chart_types)))}"
            )
    (out_dir / "images").mkdir(parents=True, exist_ok=True)
    with open(out_dir / "manifest.csv", "w", newline="", encoding="utf-8") as fh:
        return write_manifest_rows(fh, task, ((stim.key, stim.params, stim.practice) for stim in stimuli), out_dir)


def test_stimuli(study: Study) -> list[Stimulus]:
    return db.session.scalars(
        db.select(Stimulus).filter_by(study_id=study.id, practice=False).order_by(Stimulus.key)
    ).all()


def write_manifest_rows(fh, task, stimuli, out_dir: Path) -> int:
    """Each (key, params, practice) as a model-input file under out_dir/images and a manifest row; the count."""
    columns = [c.name for c in task.stimulus_columns]
    # Raw, not analysis.safe_csv: model runs and `flask import-predictions` read these ids and values back.
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


def export_training(task: TaskType, study: Study, test: list[Stimulus], out_dir: Path, options: dict) -> TrainingSet:
    """A training set (manifest.csv), its validation set (validation.csv) and sampling.json, written to a fresh
    folder beside out_dir and renamed into place when complete, so a failed export leaves nothing behind. Raises
    ExportRefused, or the task's ConfigError naming a bad option."""
    if out_dir.exists() and any(out_dir.iterdir()):
        raise ExportRefused(f"{out_dir} is not empty: a training set goes into a new folder")
    if not isinstance(task, TrainingSets):
        raise ExportRefused(f"study {study.slug!r} ({study.task_type}) cannot draw training sets")
    drawn = task.training_set([stim.params for stim in test], options)
    test_keys = {stim.key for stim in test}
    leaked = [s.key for s in drawn.training + drawn.validation if s.key in test_keys]
    if leaked:  # the task's promise, checked here too: the test people took never becomes training data
        raise RuntimeError(f"training set holds test stimuli: {', '.join(leaked[:5])}")
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-", dir=out_dir.parent))
    try:
        (staging / "images").mkdir()
        parts = [("manifest.csv", drawn.training, staging), ("validation.csv", drawn.validation, staging)]
        if drawn.test:  # a model-only test of its own, laid out as a test export: test/manifest.csv, test/images/
            (staging / "test" / "images").mkdir(parents=True)
            parts.append(("manifest.csv", drawn.test, staging / "test"))
        for name, specs, folder in parts:
            with open(folder / name, "w", newline="", encoding="utf-8") as fh:
                write_manifest_rows(
                    fh,
                    task,
                    (
                        (s.key, s.params, False)
                        for s in tqdm(specs, desc=name, unit=" images", disable=None, leave=False)
                    ),
                    folder,
                )
        sampling = {"study": study.slug, "task_type": study.task_type, "n_test": len(test), **drawn.sampling}
        (staging / "sampling.json").write_text(json.dumps(sampling, indent=1) + "\n", encoding="utf-8")
        if out_dir.exists():
            out_dir.rmdir()
        staging.rename(out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return drawn
