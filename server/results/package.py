"""A study's data as a Frictionless Data Package (`flask export SLUG --package DIR`; docs/researchers.md,
"Publishing a study's data"): what a researcher puts online as it is (OSF, a journal's data policy).

The package is a folder (and with `--zip`, DIR.zip beside it, the folder's files at the zip's root):

- datapackage.json: Frictionless Data Package v1, profile tabular-data-package. One resource per CSV with its Table
  Schema, read from the codebook the export writes (types, descriptions, the codebook's levels) plus the fixed
  answers of the questionnaires (enum, minimum, maximum); `required` where every row has a value; bytes and SHA-256,
  so `frictionless validate` also checks that nothing changed.
- data/: the CSVs as `flask export` writes them (server/results/export.py), whatever their columns, but for
  participant_code: the study's own code (identifiers.participant_code with the study), so that the packages of two
  studies do not link one person as the lab's exports do.
- study/version-N.json: every kept version of the study file's configuration with the time it was synced.
- stimuli/manifest.json: each stimulus's key, parameters and the SHA-256 of its image as shown (and of every stored
  file its parameters name); with `--with-stimuli` the files themselves in stimuli/files/, named by their hash.
- analysis/: what `flask analyze SLUG --out` writes, computed by the same code (run_analysis) with its default options
  and the package's stage; if the data cannot be analysed, README.md says why instead. run_analysis reads its own
  snapshot, just after the CSVs': on a study still recruiting, sessions that arrive in between are in it alone.
- README.md: title, design, dates, n, exclusions, software, how to cite.

The writer is plain JSON and files, and deterministic: the same data give the same bytes except datapackage.json's
`created` (sorted keys, rows in id order, zip entries in name order with a fixed date and mode). Everything is
written into a fresh folder beside DIR and renamed into place when complete: a failed export leaves nothing."""

from __future__ import annotations

import copy
import csv
import hashlib
import importlib.metadata
import json
import platform
import re
import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd
from pandas.api.types import is_bool_dtype, is_float_dtype, is_integer_dtype

from analysis.safe_csv import neutralise

from .. import identifiers
from ..db import db, snapshot
from ..exceptions import AnalysisError
from ..models import Asset, ParticipantSession, Stimulus, Study, analysable_in
from ..studies.conditions import variants
from ..studies.surveys import SURVEYS
from ..studies.versions import get_version, versions
from ..tasktype.assets import EXTENSIONS, asset_id
from ..tasktype.contract import Stimuli
from ..tasktype.registry import registry
from .analyze import AnalysisResult, Options, run_analysis
from .dashboard import withdrawn_count
from .export import FORMULA_NOTE, iso_utc, revision_column, survey_column, write_files

# The licences `--license` offers: SPDX id → (title, text).
LICENSES = {
    "CC-BY-4.0": ("Creative Commons Attribution 4.0", "https://creativecommons.org/licenses/by/4.0/"),
    "CC0-1.0": ("Creative Commons Zero v1.0 Universal", "https://creativecommons.org/publicdomain/zero/1.0/"),
    "CC-BY-SA-4.0": ("Creative Commons Attribution Share Alike 4.0", "https://creativecommons.org/licenses/by-sa/4.0/"),
    "ODC-By-1.0": ("Open Data Commons Attribution License v1.0", "https://opendatacommons.org/licenses/by/1-0/"),
    "PDDL-1.0": (
        "Open Data Commons Public Domain Dedication and License",
        "https://opendatacommons.org/licenses/pddl/",
    ),
}
# Codebook type (export.py's Column.dtype, analysis.jspsych_data's inferred types, questionnaire field types) → Table
# Schema type. JSON text stays a string: a cell may hold any JSON value. Mixed and never-given columns take anything.
FIELD_TYPES = {
    "integer": "integer",
    "scale": "integer",
    "number": "number",
    "boolean": "boolean",
    "datetime": "datetime",
    "text": "string",
    "longtext": "string",
    "choice": "string",
    "json": "string",
}
# codebook.csv's own columns (export.CODEBOOK_HEADER), which the codebook does not describe.
CODEBOOK_FIELDS = {
    "file": ("string", "the CSV file the column is in"),
    "column": ("string", "the column's name"),
    "type": ("string", "the column's type: integer, number, boolean, datetime, text, json, …"),
    "levels": ("string", "the values a column of a researcher's jsPsych experiment took, JSON text (few values only)"),
    "missing": ("integer", "rows without a value (a researcher's jsPsych experiment only)"),
    "description": ("string", "what the column holds"),
}
# The installed distributions whose versions the package names: the web stack and everything the analysis computes with.
KEY_PACKAGES = ("flask", "sqlalchemy", "numpy", "pandas", "scipy", "pingouin", "matplotlib", "pillow", "pyarrow")
NEUTRALISED = (
    "Text cells of the CSV files were neutralised against spreadsheet formulas (studyhive's analysis/safe_csv.py)."
    + FORMULA_NOTE
    + " Numbers, and text that is a number (-3.5), are written as they are. To get a text value as stored, strip "
    "the one leading ' from a cell that starts with ' followed by =, +, -, @, a tab or a carriage return."
)
PROFILE = "tabular-data-package"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest a zip entry can say: the entries' dates carry no information
NAME = re.compile(r"[^a-z0-9._-]+")


class PackageRefused(ValueError):
    """The package cannot be written as asked; nothing was written."""


@dataclass(frozen=True)
class Written:
    folder: Path
    zip: Path | None
    resources: int
    analysed: bool


def write_package(
    study: Study,
    out_dir: Path,
    *,
    stage: str = "all",
    license: str = "CC-BY-4.0",
    with_stimuli: bool = False,
    make_zip: bool = False,
    commit: str = "unknown",
) -> Written:
    """Write the study's data package into the new folder `out_dir` (and out_dir.zip); PackageRefused if it cannot."""
    if license not in LICENSES:
        raise PackageRefused(f"--license: {license!r} is not one of {', '.join(LICENSES)}")
    if out_dir.exists() and (not out_dir.is_dir() or any(out_dir.iterdir())):
        raise PackageRefused(f"{out_dir} exists and is not an empty folder: a package goes into a new folder")
    archive = out_dir.with_name(out_dir.name + ".zip")
    if make_zip and archive.exists():
        raise PackageRefused(f"{archive} exists: remove it or choose another folder")
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-", dir=out_dir.parent))
    try:
        identifiers.key()  # before the snapshot: the key's first use writes it, on a connection of its own
        with snapshot():  # the CSVs, versions, stimuli and counts describe one moment of a running study
            data = write_files(study, staging / "data", stage, study_codes=True)
            kept = _write_versions(study, staging / "study")
            n_stimuli = _write_stimuli(study, staging / "stimuli", with_stimuli)
            facts = _facts(study, stage)
            limits = _survey_constraints(study)
        result, problem = _analysis(study.slug, stage)
        analysis_tables = result.report.write(staging / "analysis") if result else []
        with open(staging / "data" / "codebook.csv", newline="", encoding="utf-8") as fh:
            book = {(e["file"], e["column"]): e for e in csv.DictReader(fh)}
        resources = [_data_resource(staging, path, book, limits) for path, _ in data]
        if result:
            resources += [
                _table_resource(staging, path, result.report.tables[path.stem])
                for path in analysis_tables
                if path.suffix == ".csv"
            ]
        software = _software(commit)
        (staging / "README.md").write_text(
            _readme(study, stage, license, facts, kept, n_stimuli, with_stimuli, problem, software), encoding="utf-8"
        )
        descriptor = _descriptor(study, stage, license, resources, software)
        (staging / "datapackage.json").write_text(_json(descriptor), encoding="utf-8")
        if make_zip:
            _zip(staging, archive)
        if out_dir.exists():
            out_dir.rmdir()
        staging.rename(out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if make_zip and archive.exists() and not out_dir.exists():
            archive.unlink()
        raise
    return Written(out_dir, archive if make_zip else None, len(resources), result is not None)


def _json(value: Any) -> str:
    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n"


#: What a published configuration does not carry: a completion code lets anyone who reads the package claim
#: completion on Prolific while the study (or a reused code) is live, and the Prolific study id leads there.
WITHHELD = "(withheld from the published package)"


def _publishable(config: dict[str, Any]) -> dict[str, Any]:
    """The stored configuration less its completion codes, completion URL and Prolific study id."""
    out = copy.deepcopy(config)
    if out.get("completion_url"):
        out["completion_url"] = WITHHELD
    prolific = out.get("prolific") or {}
    if prolific.get("study_id"):
        prolific["study_id"] = WITHHELD
    prolific["codes"] = dict.fromkeys(prolific.get("codes") or {}, WITHHELD)
    return out


def _write_versions(study: Study, folder: Path) -> list[tuple[int, str, int]]:
    """study/version-N.json per kept version; (version, synced at, sessions) of each."""
    folder.mkdir()
    rows, _ = versions(study)
    kept = []
    for row in rows:
        synced = iso_utc(row.created_at)
        stored = get_version(study, row.version)
        (folder / f"version-{row.version}.json").write_text(
            _json(
                {
                    "version": row.version,
                    "synced_at": synced,
                    "config_sha256": row.config_hash,
                    "sessions": row.sessions,
                    "config": _publishable(stored.config),
                }
            ),
            encoding="utf-8",
        )
        kept.append((row.version, synced, row.sessions))
    return kept


def _asset_ids(value: Any) -> Iterator[str]:
    """Every string in stimulus parameters that could name a stored file (a SHA-256 in hex)."""
    if isinstance(value, dict):
        for part in value.values():
            yield from _asset_ids(part)
    elif isinstance(value, list):
        for part in value:
            yield from _asset_ids(part)
    elif isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value):
        yield value


def _write_stimuli(study: Study, folder: Path, with_files: bool) -> int:
    """stimuli/manifest.json (and the files with `with_files`); how many stimuli. A task type without stimuli (a
    researcher's jsPsych experiment) writes none."""
    task = registry().get(study.task_type)
    if not isinstance(task, Stimuli):
        return 0
    folder.mkdir()
    if with_files:
        (folder / "files").mkdir()
    manifest = []
    written: set[str] = set()

    def entry(sha: str, mimetype: str, data: bytes | None = None) -> dict[str, Any]:
        """A file's manifest entry; the file itself written once with `with_files` (a stored one read only then)."""
        name = f"files/{sha}.{EXTENSIONS.get(mimetype, 'bin')}"
        if with_files and sha not in written:
            if data is None:  # read as a column, so the session does not keep every file's bytes
                data = db.session.scalar(db.select(Asset.data).where(Asset.sha256 == sha))
            (folder / name).write_bytes(data)
            written.add(sha)
        return {"sha256": sha, "mimetype": mimetype, **({"file": name} if with_files else {})}

    for stim in db.session.scalars(db.select(Stimulus).filter_by(study_id=study.id).order_by(Stimulus.key)):
        shown = task.render_stimulus(stim.key, stim.params)
        named = sorted(set(_asset_ids(stim.params)) | ({shown} if isinstance(shown, str) else set()))
        assets = {
            a.sha256: a.mimetype
            for a in db.session.execute(db.select(Asset.sha256, Asset.mimetype).where(Asset.sha256.in_(named)))
        }
        if isinstance(shown, str):
            image = entry(shown, assets[shown])
        else:
            mimetype, data = shown
            image = entry(asset_id(data), mimetype, data)
        manifest.append(
            {
                "key": stim.key,
                "practice": stim.practice,
                "params": stim.params,
                "shown": image,
                # the other stored files its parameters name (HIVE's explanations)
                "files": [entry(sha, assets[sha]) for sha in named if sha in assets and sha != shown],
            }
        )
    (folder / "manifest.json").write_text(_json(manifest), encoding="utf-8")
    return len(manifest)


@dataclass(frozen=True)
class Facts:
    """What README.md says of the sessions: counts by status, exclusion reasons, dates, planned trials."""

    by_status: dict[str, int]
    withdrawn: int
    reasons: dict[str, int]
    first_started: str | None
    last_started: str | None
    last_completed: str | None
    planned: tuple[int, int] | None  # fewest and most planned trials


def _facts(study: Study, stage: str) -> Facts:
    PS = ParticipantSession
    where = analysable_in(study.id, stage)
    # Withdrawn sessions are tombstones that exports leave out (`analysable`): counted apart, by their own mark.
    by_status = dict(db.session.execute(db.select(PS.status, db.func.count()).where(where).group_by(PS.status)).all())
    withdrawn = withdrawn_count(study, stage)
    reasons: dict[str, int] = {}
    for reason, count in db.session.execute(
        db.select(PS.exclusion_reason, db.func.count())
        .where(where, PS.status == "excluded")
        .group_by(PS.exclusion_reason)
    ):
        reasons[reason or ""] = reasons.get(reason or "", 0) + count
    first, last, done = db.session.execute(
        db.select(db.func.min(PS.started_at), db.func.max(PS.started_at), db.func.max(PS.completed_at)).where(where)
    ).one()
    lengths = {len(plan) for (plan,) in db.session.execute(db.select(PS.plan).where(where))}
    return Facts(
        by_status={k: by_status[k] for k in sorted(by_status)},
        withdrawn=withdrawn or 0,
        reasons={k: reasons[k] for k in sorted(reasons)},
        first_started=iso_utc(first),
        last_started=iso_utc(last),
        last_completed=iso_utc(done),
        planned=(min(lengths), max(lengths)) if lengths else None,
    )


def _survey_constraints(study: Study) -> dict[str, dict[str, Any]]:
    """participants.csv column → the constraints its questionnaire fixes: the choices offered, the scale's ends, the
    forms of a questionnaire that changed."""
    limits = {}
    for name in study.config["surveys"]:
        for field in SURVEYS[name]["fields"]:
            fixed: dict[str, Any] = {}
            if "choices" in field:
                fixed["enum"] = [neutralise(choice) for choice in field["choices"]]  # as the CSV writes them
            if "min" in field:
                fixed.update(minimum=field["min"], maximum=field["max"])
            limits[survey_column(name, field["name"])] = fixed
        if "revisions" in SURVEYS[name]:
            limits[revision_column(name)] = {"minimum": 1, "maximum": len(SURVEYS[name]["revisions"])}
    return limits


def _analysis(slug: str, stage: str) -> tuple[AnalysisResult | None, str | None]:
    """`flask analyze`'s result with its default options and the package's stage, or why there is none."""
    try:
        return run_analysis(slug, Options(stage=stage)), None
    except AnalysisError as exc:
        return None, str(exc)


def _read_csv(path: Path) -> tuple[list[str], int, dict[str, int]]:
    """A CSV's header, its number of rows and, per column, the rows that have a value."""
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh)
        header = next(reader)
        filled = dict.fromkeys(header, 0)
        rows = 0
        for row in reader:
            rows += 1
            for name, cell in zip(header, row):
                filled[name] += cell != ""
    return header, rows, filled


def _file_facts(root: Path, path: Path) -> dict[str, Any]:
    with open(path, "rb") as fh:  # streamed: a large study's trials.csv need not fit in memory
        digest = hashlib.file_digest(fh, "sha256").hexdigest()
    return {
        "path": path.relative_to(root).as_posix(),
        "profile": "tabular-data-resource",
        "format": "csv",
        "mediatype": "text/csv",
        "encoding": "utf-8",
        "bytes": path.stat().st_size,
        "hash": f"sha256:{digest}",
    }


def _resource_name(path: Path) -> str:
    return NAME.sub("-", path.with_suffix("").as_posix().lower()).strip("-")


def _field(name: str, kind: str, description: str, required: bool, fixed: dict[str, Any]) -> dict[str, Any]:
    field: dict[str, Any] = {"name": name, "type": kind, "description": description}
    constraints = {**fixed, **({"required": True} if required else {})}
    if constraints:
        field["constraints"] = constraints
    return field


def _data_resource(
    root: Path, path: Path, book: dict[tuple[str, str], dict[str, str]], limits: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """An export CSV as a resource: its fields from the codebook's entries (file, column → entry), in the file's own
    order."""
    header, rows, filled = _read_csv(path)
    fields = []
    for name in header:
        entry = book.get((path.name, name))
        if entry is None:  # codebook.csv itself
            kind, description = CODEBOOK_FIELDS.get(name, ("any", ""))
        else:
            kind, description = FIELD_TYPES.get(entry["type"], "any"), entry["description"]
            if entry.get("levels"):
                description += f" Values found: {entry['levels']}."
        fixed = limits.get(name, {}) if path.name == "participants.csv" else {}
        fields.append(_field(name, kind, description, rows > 0 and filled[name] == rows, fixed))
    return {
        "name": _resource_name(path.relative_to(root)),
        **_file_facts(root, path),
        "schema": {"fields": fields, "missingValues": [""]},
    }


def _table_resource(root: Path, path: Path, frame: pd.DataFrame) -> dict[str, Any]:
    """An analysis table as a resource, its field types from the table's column types."""
    _, rows, filled = _read_csv(path)
    fields = []
    for name, dtype in frame.dtypes.items():
        kind = (
            "boolean"
            if is_bool_dtype(dtype)
            else "integer"
            if is_integer_dtype(dtype)
            else "number"
            if is_float_dtype(dtype)
            else "string"
        )
        fields.append(_field(str(name), kind, "see analysis/report.md", rows > 0 and filled[str(name)] == rows, {}))
    return {
        "name": _resource_name(path.relative_to(root)),
        **_file_facts(root, path),
        "schema": {"fields": fields, "missingValues": [""]},
    }


def _software(commit: str) -> dict[str, Any]:
    packages = {}
    for name in KEY_PACKAGES:
        try:
            packages[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            packages[name] = "not installed"
    return {"studyhive_commit": commit, "python": platform.python_version(), "packages": packages}


def _stage_words(stage: str) -> str:
    return "every session, pilot and live" if stage == "all" else f"the sessions that started in the {stage} stage"


def _descriptor(
    study: Study, stage: str, license: str, resources: list[dict[str, Any]], software: dict[str, Any]
) -> dict[str, Any]:
    title, url = LICENSES[license]
    return {
        "profile": PROFILE,
        "name": NAME.sub("-", study.slug.lower()).strip("-") or "study",
        "title": study.title,
        "description": (
            f"Data of the studyhive study {study.slug!r} ({study.task_type}): {_stage_words(stage)}, "
            "with the study's versions, stimuli and analysis. README.md describes them."
        ),
        "created": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "licenses": [{"name": license, "title": title, "path": url}],
        "keywords": ["studyhive", study.task_type],
        "csv_neutralised": True,
        "csv_neutralisation": NEUTRALISED,
        "studyhive": software,
        "resources": resources,
    }


def _readme(
    study: Study,
    stage: str,
    license: str,
    facts: Facts,
    kept: list[tuple[int, str, int]],
    n_stimuli: int,
    with_stimuli: bool,
    problem: str | None,
    software: dict[str, Any],
) -> str:
    task = registry().get(study.task_type)
    conditions = [name for name, _ in variants(study.config) if name]
    if task and task.page_ends:
        trials = "the rows the experiment's own jsPsych timeline records (no fixed plan)"
    elif facts.planned is None:
        trials = "no session yet"
    else:
        low, high = facts.planned
        trials = f"{low}" if low == high else f"{low}–{high}"
        trials += " planned trials per participant (practice included)"
    n = sum(facts.by_status.values()) + facts.withdrawn
    year = (facts.last_started or facts.first_started or "")[:4] or "n.d."
    lines = [
        f"# {study.title}",
        "",
        f"Data package of the studyhive study `{study.slug}`: {_stage_words(stage)}, researchers' previews never.",
        "The CSVs are `flask export`'s; its codebook (data/codebook.csv) describes every column.",
        "",
        "## Design",
        "",
        f"- Task: {task.name if task else study.task_type} (`{study.task_type}`)",
        f"- Conditions (between subjects): {', '.join(conditions) if conditions else 'none'}",
        f"- Trials: {trials}",
        f"- Study versions kept: {', '.join(f'{v} (synced {when}, {s} sessions)' for v, when, s in kept) or 'none'}",
        "",
        "## Dates (UTC)",
        "",
        f"- First session started: {facts.first_started or '–'}",
        f"- Last session started: {facts.last_started or '–'}",
        f"- Last session completed: {facts.last_completed or '–'}",
        "",
        "## Participants",
        "",
        f"Sessions: {n} (every one that entered the study). By status (participants.csv's `status`; started: still "
        "running, or left without ending):",
        "",
        *(f"- {status}: {count}" for status, count in facts.by_status.items()),
        *([f"- withdrawn (data deleted at the participant's request): {facts.withdrawn}"] if facts.withdrawn else []),
        "",
        "## Exclusions",
        "",
        *(
            [f"- {reason or '(no reason given)'}: {count}" for reason, count in facts.reasons.items()]
            or ["No session was excluded by a researcher."]
        ),
        "",
        "The analysis uses completed sessions only; its own rules (outliers) are in analysis/report.md and "
        "analysis/methods.md.",
        "",
        "## Files",
        "",
        "- `datapackage.json`: the Frictionless Data Package descriptor, a Table Schema for every CSV "
        "(`frictionless validate datapackage.json` checks the files against it)",
        "- `data/`: participants.csv, trials.csv, events.csv and codebook.csv as `flask export` writes them, "
        "participants named by codes of this study's own (another study's data name the same person otherwise)",
        "- `study/version-N.json`: every kept version of the study's configuration, with when it was synced "
        "(completion codes, the completion URL and the Prolific study id withheld)",
        *(
            [
                f"- `stimuli/manifest.json`: the {n_stimuli} stimuli, their parameters and the SHA-256 of every file "
                "they show" + ("; the files in `stimuli/files/`, named by their hash" if with_stimuli else "")
            ]
            if isinstance(task, Stimuli)
            else []
        ),
        "- `analysis/`: `flask analyze` outputs (tables as CSV, report.txt, report.md, report.json, methods.md, "
        "figures)"
        if problem is None
        else f"- No analysis: {problem}",
        "",
        "## Spreadsheet formulas",
        "",
        NEUTRALISED,
        "",
        "## Software",
        "",
        f"- studyhive commit: {software['studyhive_commit']}",
        f"- Python {software['python']}",
        *(f"- {name} {version}" for name, version in software["packages"].items()),
        "",
        "## How to cite",
        "",
        f"{study.title} [Data set] ({year}). studyhive study `{study.slug}`. License: {license} "
        f"({LICENSES[license][1]}).",
        "",
        "Add the authors and the DOI the repository gives the package (OSF: Create DOI).",
        "",
    ]
    return "\n".join(lines)


def _zip(folder: Path, archive: Path) -> None:
    """The folder's files at the zip's root, in name order, each with the same date and mode."""
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(path.relative_to(folder).as_posix(), ZIP_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            large = path.stat().st_size >= zipfile.ZIP64_LIMIT  # zip64 decided by the size alone: still deterministic
            with open(path, "rb") as src, zf.open(info, "w", force_zip64=large) as dst:
                shutil.copyfileobj(src, dst)
