"""`python -m modelruns predict`: a trained run's answers to an export, as the file `flask import-predictions` reads.

The Parquet file has the importer's columns: stimulus_id, prediction (a ratio 0–1), run (the run's training seed)
and condition (the training condition, e.g. IID or COV-14). The file's key-value metadata under "studyhive.modelrun"
holds the unit ("ratio", so the importer needs no --unit), the chart types the file answers, and the run manifest
(run.json as it is); `flask import-predictions` keeps them with the run (`--observer` takes the name, printed here).

A run trained on some chart types only (the papers' one network per chart type: `flask stimuli export --training …
--chart-type 4`) answers only the stimuli of its types in a whole-test export; the importer merges the five
per-type files of one run by chart type (docs/models.md)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import torch

from .architectures import build
from .data import read_images
from .train import MAX_SEED, RunError, pick_device

METADATA_KEY = b"studyhive.modelrun"  # server/imports/predictions.py reads it (MODELRUN_METADATA)


def load_run(run_dir: Path, device: torch.device) -> tuple[dict[str, Any], torch.nn.Module]:
    manifest_path, weights = run_dir / "run.json", run_dir / "model.pt"
    if not manifest_path.is_file() or not weights.is_file():
        raise RunError(f"{run_dir}: not a trained run (needs run.json and model.pt from `python -m modelruns train`)")
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    if manifest.get("status") != "complete":
        raise RunError(
            f"{run_dir}: training has not finished (status {manifest.get('status')!r}); "
            "finish it with `python -m modelruns train … --resume`"
        )
    model = build(manifest["arch"])
    model.load_state_dict(torch.load(weights, map_location="cpu", weights_only=True))
    return manifest, model.to(device).eval()


def predict(
    run_dir: Path, stimuli: Path, out: Path, device_name: str = "auto", run: int | None = None, batch_size: int = 256
) -> dict[str, Any]:
    """Write `out` (Parquet); return a summary (observer, condition, run, rows, chart types, skipped (other types'
    stimuli), clipped, MAE if labelled)."""
    device = pick_device(device_name)
    manifest, model = load_run(run_dir, device)
    run = manifest["seed"] if run is None else run
    if not 0 <= run <= MAX_SEED:
        raise RunError(f"--run must be 0–{MAX_SEED:,}")
    manifest_csv = stimuli / "manifest.csv"
    labelled = manifest_csv.is_file() and "true_percent" in manifest_csv.open(encoding="utf-8").readline()
    images = read_images(manifest_csv, labels=labelled)
    known = sorted(manifest.get("chart_types") or range(1, 6))
    ours = np.isin(images.chart_type, known)
    if not ours.any():
        raise RunError(
            f"{manifest_csv}: no stimulus of the chart type(s) the run was trained on "
            f"({', '.join(map(str, known))}); export a test that has them"
        )
    # The papers test each per-type network on its own type: the other types' stimuli are left to their networks.
    images = dataclasses.replace(
        images,
        ids=[key for key, keep in zip(images.ids, ours) if keep],
        ink=images.ink[ours],
        ratio=None if images.ratio is None else images.ratio[ours],
        chart_type=images.chart_type[ours],
    )
    raw = np.empty(len(images), dtype=np.float64)
    with torch.no_grad():
        for start in range(0, len(images), batch_size):
            x = torch.from_numpy(images.ink[start : start + batch_size]).to(device)
            t = torch.from_numpy(images.chart_type[start : start + batch_size]).to(device)
            raw[start : start + batch_size] = model(x, t).double().cpu().numpy()
    # A regressor can answer a little outside 0–1; the answer is a ratio, as a person's is a percent in 0–100.
    prediction = np.clip(raw, 0.0, 1.0)
    summary: dict[str, Any] = {
        "observer": manifest["observer"],
        "condition": manifest.get("condition", ""),
        "run": run,
        "unit": "ratio",
        "rows": len(images),
        "chart_types": known,
        "skipped": int(np.count_nonzero(~ours)),
        "clipped": int(np.count_nonzero(prediction != raw)),
        "stimuli": str(stimuli),
        "stimuli_hash": images.digest,
    }
    if images.ratio is not None:
        summary["mae"] = float(np.mean(np.abs(prediction - images.ratio)))
    table = pa.table(
        {
            "stimulus_id": pa.array(images.ids, pa.string()),
            "prediction": prediction,
            "run": pa.array(np.full(len(images), run, dtype=np.int64)),
            "condition": pa.array([summary["condition"]] * len(images), pa.string()),
        }
    )
    meta = {**summary, "run_manifest": manifest}
    table = table.replace_schema_metadata({METADATA_KEY: json.dumps(meta).encode()})
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    pq.write_table(table, tmp)
    tmp.replace(out)
    return summary


def read_metadata(path: Path) -> dict[str, Any]:
    """The run's metadata stored in a predictions file by `predict`."""
    return json.loads(pq.read_schema(path).metadata[METADATA_KEY])
