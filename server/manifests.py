"""Importing stimuli from a manifest (CSV or JSON) plus a folder of image files, all or nothing.

The whole manifest is checked before anything is written: every problem is collected as "row N, column C: …"
(N counts data rows from 1), and one problem means nothing is imported. Files are stored as content-addressed
assets, so re-importing the same image costs nothing."""
from __future__ import annotations

import csv
import json
from pathlib import Path

from .assets import asset_id, sniff
from .assets import store as store_assets
from .db import db
from .models import Stimulus, Study, Trial
from .tasks import registry
from .tasks.base import ManifestError, StimulusSpec

MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_REPORTED = 20


class ImportRefused(Exception):
    """The manifest cannot be imported; `problems` lists every reason found."""

    def __init__(self, problems: list[str]):
        shown = problems[:MAX_REPORTED]
        more = f"\n  … and {len(problems) - MAX_REPORTED} more" if len(problems) > MAX_REPORTED else ""
        super().__init__("nothing imported:\n  " + "\n  ".join(shown) + more)
        self.problems = problems


class ManifestFiles:
    """Resolves a manifest's file names inside the images folder and keeps the bytes until the import commits."""

    def __init__(self, root: Path):
        self.root = root.resolve()
        self.pending: dict[str, tuple[str, bytes]] = {}

    def image(self, column: str, name: str) -> str:
        """Read image `name` (relative to the folder); return its asset id. Raises ManifestError."""
        if not name:
            raise ManifestError(column, "a file name is required")
        path = (self.root / name).resolve()
        if not path.is_relative_to(self.root):
            raise ManifestError(column, f"{name!r} is outside the images folder")
        if not path.is_file():
            raise ManifestError(column, f"file {name!r} not found in {self.root}")
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ManifestError(column, f"file {name!r} is larger than {MAX_FILE_BYTES // 2**20} MiB")
        data = path.read_bytes()
        mimetype = sniff(data)
        if mimetype is None:
            raise ManifestError(column, f"file {name!r} is not a PNG, JPEG, GIF, WebP or SVG image")
        sha = asset_id(data)
        self.pending[sha] = (mimetype, data)
        return sha


def write_manifest(path: Path, rows: list[dict[str, object]]) -> Path:
    """Write `rows` as a CSV manifest (header from the first row); used by the demo generators."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return path


def read_manifest(path: Path) -> list[dict[str, str]]:
    """Rows of a CSV (with header) or JSON (a list of flat objects) manifest, every value as text."""
    try:
        if path.suffix.lower() == ".json":
            rows = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
                raise ImportRefused(["the JSON manifest must be a list of objects, one per stimulus"])
            for n, row in enumerate(rows, 1):
                nested = [k for k, v in row.items() if isinstance(v, (dict, list))]
                if nested:
                    raise ImportRefused([f"row {n}, column {nested[0]}: values must be plain, not nested"])
            return [{k: "" if v is None else str(v) for k, v in row.items()} for row in rows]
        with open(path, newline="", encoding="utf-8-sig") as fh:
            return [{k: (v or "").strip() for k, v in row.items()} for row in csv.DictReader(fh)]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, csv.Error) as exc:
        raise ImportRefused([f"cannot read {path.name}: {exc}"]) from None


def import_manifest(study: Study, manifest: Path, images: Path, replace: bool = False) -> dict[str, int]:
    """Check the whole manifest, then store its assets and stimuli in the current transaction and commit."""
    task = registry().get(study.task_type)
    if task is None or not task.manifest_required:
        raise ImportRefused([f"task type {study.task_type!r} generates its own stimuli; nothing to import"])
    if not images.is_dir():
        raise ImportRefused([f"images folder {images} does not exist"])
    rows = read_manifest(manifest)
    if not rows:
        raise ImportRefused(["the manifest has no rows"])
    columns = set(rows[0])
    problems = [f"missing column {c!r}" for c in task.manifest_required if c not in columns]
    allowed = set(task.manifest_required) | set(task.manifest_optional)
    problems += [f"unknown column {c!r} (allowed: {', '.join(sorted(allowed))})" for c in sorted(columns - allowed)]
    if problems:
        raise ImportRefused(problems)

    files = ManifestFiles(images)
    specs: dict[str, tuple[int, StimulusSpec]] = {}
    for n, row in enumerate(rows, 1):
        try:
            spec = task.stimulus_from_manifest({c: row.get(c, "") for c in allowed}, files, study.config["task"])
        except ManifestError as exc:
            problems.append(f"row {n}, column {exc.column}: {exc}")
            continue
        if spec.key in specs:
            problems.append(f"row {n}: stimulus id {spec.key!r} repeats row {specs[spec.key][0]}")
        else:
            specs[spec.key] = (n, spec)
    existing = {s.key: s for s in db.session.scalars(db.select(Stimulus).filter_by(study_id=study.id))}
    used = set(db.session.scalars(db.select(Trial.stimulus_id).join(Stimulus)
                                  .where(Stimulus.study_id == study.id).distinct()))
    for key, (n, spec) in specs.items():
        old = existing.get(key)
        if old is not None and old.params != spec.params:
            if not replace:
                problems.append(f"row {n}: stimulus {key!r} exists with other content (use --replace)")
            elif old.id in used:
                problems.append(f"row {n}: stimulus {key!r} has stored trials and cannot be replaced")
    if problems:
        raise ImportRefused(problems)

    added = store_assets(files.pending)
    new = changed = 0
    for key, (_, spec) in specs.items():
        old = existing.get(key)
        if old is None:
            db.session.add(Stimulus(study_id=study.id, key=key, practice=spec.practice, params=spec.params))
            new += 1
        elif old.params != spec.params:
            old.params, old.practice = spec.params, spec.practice
            changed += 1
    db.session.commit()
    return {"rows": len(rows), "new": new, "replaced": changed, "unchanged": len(specs) - new - changed,
            "files": len(files.pending), "files_added": added}
