"""Reading an export of `flask stimuli export` (test or training set) into tensors, and naming it by a hash.

A manifest has the columns of the export: stimulus_id, chart_type, short_height, tall_height, true_percent, practice,
file (relative to the manifest's folder). Training needs true_percent (the label: ratio = true_percent / 100);
prediction needs stimulus_id, chart_type (1–5: the models answer per chart type) and file. Images are the export's
100×100 8-bit grayscale PNGs, kept as uint8 "ink" (255 − gray: ink is 255, paper 0), so 60,000 images take 600 MB
and the model scales them itself."""

from __future__ import annotations

import csv
import hashlib
import io
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, UnidentifiedImageError
from tqdm import tqdm

SIZE = 100
REQUIRED = ("stimulus_id", "chart_type", "file")


class DataError(ValueError):
    """An export cannot be read; the message names the file, and the row and column where there is one."""


@dataclass
class Images:
    ids: list[str]
    ink: np.ndarray  # (n, 1, 100, 100) uint8
    ratio: np.ndarray | None  # (n,) float32 true ratio, or None when the manifest has no labels
    chart_type: np.ndarray  # (n,) int64, 1–5
    digest: str  # sha256 of the manifest and of every image, in manifest order

    def __len__(self):
        return len(self.ids)


def read_images(manifest: Path, labels: bool) -> Images:
    """Every row of `manifest`; `labels` requires true_percent (0–100) on every row. Raises DataError."""
    if not manifest.is_file():
        raise DataError(f"{manifest}: no such manifest (write one with `flask stimuli export`)")
    raw = manifest.read_bytes()
    digest = hashlib.sha256(raw)
    try:
        rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8"), newline="")))
        header = list(rows[0]) if rows else next(csv.reader(io.StringIO(raw.decode("utf-8"))), [])
    except (UnicodeDecodeError, csv.Error) as exc:
        raise DataError(f"{manifest}: not a readable CSV manifest: {exc}") from None
    needed = REQUIRED + (("true_percent",) if labels else ())
    missing = [c for c in needed if c not in header]
    if missing:
        raise DataError(f"{manifest}: missing column(s) {', '.join(missing)} (the columns of `flask stimuli export`)")
    if not rows:
        raise DataError(f"{manifest}: no rows")
    ink = np.empty((len(rows), 1, SIZE, SIZE), dtype=np.uint8)
    ratio = np.empty(len(rows), dtype=np.float32) if labels else None
    chart_type = np.zeros(len(rows), dtype=np.int64)
    seen: dict[str, int] = {}
    for i, row in enumerate(tqdm(rows, desc=manifest.name, unit=" images", disable=None, leave=False)):
        where = f"{manifest} row {i + 1}"  # row 1 is the first row after the header
        key = row["stimulus_id"] or ""
        if not key:
            raise DataError(f"{where}, column stimulus_id: empty")
        if key in seen:
            raise DataError(f"{where}, column stimulus_id: {key!r} repeats row {seen[key] + 1}")
        seen[key] = i
        path = manifest.parent / (row["file"] or "")
        try:
            data = path.read_bytes()
            with Image.open(io.BytesIO(data)) as image:
                if image.size != (SIZE, SIZE):
                    raise DataError(
                        f"{where}, column file: {row['file']} is {image.size[0]}×{image.size[1]}, not {SIZE}×{SIZE}"
                    )
                gray = np.asarray(image.convert("L"))
        except (OSError, UnidentifiedImageError) as exc:
            raise DataError(f"{where}, column file: cannot read image {row['file']!r}: {exc}") from None
        digest.update(data)
        ink[i, 0] = 255 - gray
        if labels:
            try:
                percent = float(row["true_percent"])
            except (TypeError, ValueError):
                percent = math.nan
            if not 0 <= percent <= 100:
                raise DataError(f"{where}, column true_percent: {row['true_percent']!r} is not a percent 0–100")
            ratio[i] = percent / 100
        if row["chart_type"] not in ("1", "2", "3", "4", "5"):
            raise DataError(f"{where}, column chart_type: {row['chart_type']!r} is not a chart type 1–5")
        chart_type[i] = int(row["chart_type"])
    return Images(list(seen), ink, ratio, chart_type, digest.hexdigest())
