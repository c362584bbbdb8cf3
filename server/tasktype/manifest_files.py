"""Stimulus manifest files, shared by the task packages and the importer (server/stimuli/manifests.py): resolving a
manifest's image names to assets, and reading and writing manifests (the demo generators write theirs)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from ..exceptions import ImportRefused, ManifestError
from .assets import asset_id, sniff

MAX_FILE_BYTES = 20 * 1024 * 1024


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
        # Raw, not analysis.safe_csv: `flask stimuli import` reads the manifest back as written.
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
                raise ImportRefused.listing(["the JSON manifest must be a list of objects, one per stimulus"])
            for n, row in enumerate(rows, 1):
                nested = [k for k, v in row.items() if isinstance(v, (dict, list))]
                if nested:
                    raise ImportRefused.listing([f"row {n}, column {nested[0]}: values must be plain, not nested"])
            return [{k: "" if v is None else str(v) for k, v in row.items()} for row in rows]
        with open(path, newline="", encoding="utf-8-sig") as fh:
            return [{k: (v or "").strip() for k, v in row.items()} for row in csv.DictReader(fh)]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, csv.Error) as exc:
        raise ImportRefused.listing([f"cannot read {path.name}: {exc}"]) from None
