"""Label vocabularies (a task type's TaskType.vocabulary, e.g. sketch recognition's): what a participant may answer,
and how each answer is stored.

A vocabulary is a TSV or CSV file with the columns `label` (what people type and see) and `unique_id` (what is
stored), plus an optional `category`; other columns (e.g. THINGS' `wordnet_id`) are ignored. Labels may repeat
("bat" the animal, "bat" the club); unique ids may not. A repeated label is shown with its category, or with its
unique id where the category does not tell the entries apart, so every entry a participant can pick reads
differently.

The product ships the 1,854 THINGS concepts (server/data/things_labels.tsv, see server/data/ATTRIBUTION.md) as the
default. A study names another file with `vocabulary = "<slug>/labels.tsv"` in its [task] table: the path is
relative to the studies folder (the task parameters do not know which study folder they come from), and must stay
inside it. The file's SHA-256 is kept in the study's parameters, so editing the file versions the study on the next
`flask studies sync`, and a file changed without a sync is refused rather than silently used.

Pages fetch a study's vocabulary from GET /vocabulary/<slug>.json (server/web/files.py, docs/participant-api.md)."""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import current_app

BUILTIN = "things"
BUILTIN_FILE = Path(__file__).resolve().parents[1] / "data" / "things_labels.tsv"
MAX_VOCABULARY_BYTES = 5 * 1024 * 1024
MAX_ID_LENGTH = 128


class VocabularyError(ValueError):
    """A vocabulary file cannot be used; the message names the file, and the row (1 = first data row) and column."""


@dataclass(frozen=True)
class Entry:
    unique_id: str
    label: str
    category: str
    display: str  # the label, with what tells it apart where the label repeats


@dataclass(frozen=True)
class Vocabulary:
    name: str
    sha256: str
    entries: tuple[Entry, ...]

    def __post_init__(self):
        object.__setattr__(self, "by_id", {e.unique_id: e for e in self.entries})

    def __contains__(self, unique_id: object) -> bool:
        return unique_id in self.by_id

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, unique_id: str) -> Entry | None:
        return self.by_id.get(unique_id)

    def as_json(self) -> dict[str, Any]:
        # [id, label, display] triples: a third of the size of objects for 1,854 entries.
        return {
            "name": self.name,
            "sha256": self.sha256,
            "entries": [[e.unique_id, e.label, e.display] for e in self.entries],
        }


def parse(data: bytes, name: str) -> Vocabulary:
    """Parse a vocabulary file's bytes. Raises VocabularyError naming the row and column of the first problems."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise VocabularyError(f"{name}: not UTF-8 text ({exc})") from None
    first_line = text.split("\n", 1)[0]
    dialect = "excel-tab" if "\t" in first_line else "excel"
    reader = csv.DictReader(io.StringIO(text, newline=""), dialect=dialect)
    columns = reader.fieldnames or []
    missing = [c for c in ("label", "unique_id") if c not in columns]
    if missing:
        raise VocabularyError(
            f"{name}: missing column(s) {', '.join(missing)} (a vocabulary has the columns label, "
            f"unique_id and optionally category; this one has: {', '.join(columns) or 'none'})"
        )
    rows, problems, first_row_of = [], [], {}
    for n, row in enumerate(reader, 1):
        unique_id, label = (row.get("unique_id") or "").strip(), (row.get("label") or "").strip()
        category = (row.get("category") or "").strip()
        if not unique_id:
            problems.append(f"row {n}, column unique_id: empty")
        elif len(unique_id) > MAX_ID_LENGTH:
            problems.append(f"row {n}, column unique_id: longer than {MAX_ID_LENGTH} characters")
        elif unique_id in first_row_of:
            problems.append(f"row {n}, column unique_id: {unique_id!r} repeats row {first_row_of[unique_id]}")
        else:
            first_row_of[unique_id] = n
        if not label:
            problems.append(f"row {n}, column label: empty")
        rows.append((unique_id, label, category))
    if not rows:
        problems.append("the file has no rows")
    if problems:
        more = f" … and {len(problems) - 10} more" if len(problems) > 10 else ""
        raise VocabularyError(f"{name}: " + "; ".join(problems[:10]) + more)
    return Vocabulary(name, hashlib.sha256(data).hexdigest(), _with_displays(rows))


def _with_displays(rows: list[tuple[str, str, str]]) -> tuple[Entry, ...]:
    by_label: dict[str, list[int]] = {}
    for i, (_, label, _) in enumerate(rows):
        by_label.setdefault(label.lower(), []).append(i)
    displays = [label for _, label, _ in rows]
    for indexes in by_label.values():
        if len(indexes) == 1:
            continue
        categories = [rows[i][2] for i in indexes]
        for i in indexes:
            unique_id, label, category = rows[i]
            # The category alone when it tells this entry apart from its namesakes; else the unique id with it.
            if category and categories.count(category) == 1:
                displays[i] = f"{label} ({category})"
            else:
                displays[i] = f"{label} ({category + ', ' if category else ''}{unique_id})"
    return tuple(Entry(uid, label, category, display) for (uid, label, category), display in zip(rows, displays))


@lru_cache(maxsize=16)
def _load(path: str, mtime_ns: int, size: int) -> Vocabulary:
    # Keyed by modification time and size too: an edited file is parsed again, an unchanged one once per process.
    file = Path(path)
    name = "things (built in)" if file == BUILTIN_FILE else file.name
    return parse(file.read_bytes(), name)


def load_file(path: Path) -> Vocabulary:
    try:
        stat = path.stat()
    except OSError as exc:
        raise VocabularyError(f"vocabulary file {path} cannot be read: {exc.strerror}") from None
    if not path.is_file():
        raise VocabularyError(f"vocabulary {path} is not a file")
    if stat.st_size > MAX_VOCABULARY_BYTES:
        raise VocabularyError(f"vocabulary file {path} is larger than {MAX_VOCABULARY_BYTES // 2**20} MiB")
    return _load(str(path), stat.st_mtime_ns, stat.st_size)


def resolve(name: str, studies_dir: Path) -> Path:
    """The file a study's `vocabulary` parameter names: "things", or a path relative to the studies folder."""
    if name == BUILTIN:
        return BUILTIN_FILE
    root = Path(studies_dir).resolve()
    path = (root / name).resolve()
    if not path.is_relative_to(root):
        raise VocabularyError(f"vocabulary {name!r} is outside the studies folder")
    return path


def studies_dir() -> Path:
    return Path(current_app.config["STUDIES_DIR"])


def for_params(params: dict[str, Any] | None) -> Vocabulary:
    """The vocabulary of a study's task parameters (as parse_params left them); the built-in one without params.
    Refuses a file that changed since the study was synced: trials must be judged against what the study says."""
    if not params:
        return load_file(BUILTIN_FILE)
    name = params["vocabulary"]
    vocabulary = load_file(BUILTIN_FILE if name == BUILTIN else resolve(name, studies_dir()))
    if vocabulary.sha256 != params["vocabulary_sha256"]:
        raise VocabularyError(
            f"vocabulary {params['vocabulary']!r} changed since the study was last synced; run `flask studies sync`"
        )
    return vocabulary
