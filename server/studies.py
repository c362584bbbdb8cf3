"""Study definitions: `studies/<slug>/study.toml`, loaded into the database by `flask studies sync`.

A study's version counts the edits of its file; each is kept (server/study_versions.py), and every session records
the version it ran under."""
from __future__ import annotations

import hashlib
import json
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from . import conditions, study_versions
from .db import db
from .exceptions import ConfigError
from .manifests import import_manifest
from .models import STUDY_STATUSES, Stimulus, Study, StudyEvent
from .prolific import settings as prolific_settings
from .registry import registry
from .surveys import SURVEYS

PLATFORMS = ("prolific", "labinthewild", "direct")
SLUG = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
KEYS = {"title", "task_type", "platform", "completion_code", "completion_url", "consent", "instructions",
        "flow", "min_width", "min_height", "task", "demo_stimuli", "conditions", "abandon_after_minutes", "prolific"}
DEFAULT_FLOW = ["consent", "demographics", "instructions", "task"]
# Steps every task understands; tasks add their own (TaskType.steps) and surveys add theirs (SURVEYS).
GENERIC_STEPS = ("consent", "instructions", "task", "score")


class StudyFileError(ValueError):
    """A study file is invalid; the message names the file and the key."""

    def __init__(self, path: Path, message: str):
        super().__init__(f"{path}: {message}")


def load_study_file(path: Path) -> dict[str, Any]:
    """Parse and validate one study file; return the normalised config. Raises StudyFileError naming the key."""
    slug = path.parent.name
    if not SLUG.match(slug):
        raise StudyFileError(path, f"folder name {slug!r} is not a valid study slug (a-z, 0-9, - and _)")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise StudyFileError(path, f"not valid TOML: {exc}") from None
    unknown = set(raw) - KEYS
    if unknown:
        raise StudyFileError(path, f"unknown key(s): {', '.join(sorted(unknown))}")
    for key in ("title", "task_type", "consent"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise StudyFileError(path, f"'{key}' is required (text)")
    task = registry().get(raw["task_type"])
    if task is None:
        raise StudyFileError(path, f"task_type {raw['task_type']!r} is not registered "
                                   f"(known: {', '.join(registry().ids())})")
    platform = raw.get("platform", "direct")
    if platform not in PLATFORMS:
        raise StudyFileError(path, f"platform must be one of {', '.join(PLATFORMS)}")
    try:
        prolific = prolific_settings.parse(raw)
    except ConfigError as exc:
        raise StudyFileError(path, str(exc)) from None
    completed_code = prolific.get("prolific", {}).get("codes", {}).get("completed")
    if completed_code and raw.get("completion_code") not in (None, completed_code):
        raise StudyFileError(path, "completion_code and [prolific.codes] completed differ: give one of them")
    completed_code = completed_code or raw.get("completion_code")
    if platform == "prolific" and not (completed_code or raw.get("completion_url")):
        raise StudyFileError(path, "a Prolific study needs completion_code ([prolific.codes] completed) "
                                   "or completion_url")
    flow = raw.get("flow", DEFAULT_FLOW)
    known = (*GENERIC_STEPS, *task.steps, *(s for s in SURVEYS if s != "consent"))
    if not isinstance(flow, list) or not all(isinstance(step, str) for step in flow):
        raise StudyFileError(path, "flow must be a list of step names")
    unknown_steps = [step for step in flow if step not in known]
    if unknown_steps:
        raise StudyFileError(path, f"unknown flow step(s): {', '.join(unknown_steps)} (known: {', '.join(known)})")
    if flow.count("task") != 1 or (flow[:1] != ["consent"]) or len(set(flow)) != len(flow):
        raise StudyFileError(path, "flow must start with 'consent', contain 'task' once, and repeat no step")
    instructions = raw.get("instructions", [])
    if not isinstance(instructions, list) or not all(isinstance(p, str) for p in instructions):
        raise StudyFileError(path, "instructions must be a list of HTML pages (strings)")
    if not isinstance(raw.get("demo_stimuli", False), bool) or (raw.get("demo_stimuli") and not task.manifest_required):
        raise StudyFileError(path, "demo_stimuli must be true or false, and only for task types with imported stimuli")
    try:
        params = task.parse_params(raw.get("task", {}))
        between_subjects = conditions.parse(raw, task, params)
    except ConfigError as exc:
        raise StudyFileError(path, str(exc)) from None
    completion_url = raw.get("completion_url") or (
        prolific_settings.COMPLETE_URL.format(code=completed_code) if completed_code else None)
    return {
        "slug": slug, "title": raw["title"].strip(), "task_type": raw["task_type"], "platform": platform,
        "completion_url": completion_url, "consent": raw["consent"], "instructions": instructions,
        "flow": flow, "surveys": [step for step in flow if step in SURVEYS], "min_width": int(raw.get("min_width", 1280)),
        "min_height": int(raw.get("min_height", 720)), "task": params,
        "demo_stimuli": raw.get("demo_stimuli", False), **between_subjects, **prolific,
    }


def config_hash(config: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()


def sync_studies(studies_dir: Path, researcher_id: int | None = None, via: str = "cli") -> list[tuple[str, str]]:
    """Load every studies/<slug>/study.toml. All files are validated before anything is written, then all are
    written in one transaction; a new or changed configuration is kept as a version, synced by `researcher_id` and
    `via` (as the audit log records them). Returns (slug, what happened) pairs."""
    configs = [load_study_file(path) for path in sorted(Path(studies_dir).glob("*/study.toml"))]
    report = []
    for config in configs:
        digest = config_hash(config)
        study = db.session.scalars(db.select(Study).filter_by(slug=config["slug"])).first()
        if study is None:
            study = Study(slug=config["slug"], title=config["title"], task_type=config["task_type"],
                          config=config, config_hash=digest, version=1)
            db.session.add(study)
            db.session.flush()
            study_versions.record(study, researcher_id, via)
            outcome = "created (version 1)"
        elif study.config_hash != digest:
            study.version += 1
            study.title, study.task_type, study.config, study.config_hash = (
                config["title"], config["task_type"], config, digest)
            study_versions.record(study, researcher_id, via)
            outcome = f"updated (version {study.version})"
        else:
            outcome = f"unchanged (version {study.version})"
        linked = config.get("prolific", {}).get("study_id")
        if linked and study.prolific_study_id != linked:  # the file names the Prolific study: it wins
            study.prolific_study_id = linked
            outcome += f", linked to Prolific study {linked}"
        added = _sync_stimuli(study)
        report.append((study.slug, outcome + (f", {added} new stimuli" if added else "")))
    db.session.commit()
    for i, (slug, outcome) in enumerate(report):
        added = _import_demo_stimuli(get_study(slug))
        if added:
            report[i] = (slug, f"{outcome}, {added} demo stimuli generated")
    return report


def _import_demo_stimuli(study: Study) -> int:
    """Generate and import a demo study's stimuli the first time it is synced (it holds none yet)."""
    if not study.config.get("demo_stimuli") or db.session.scalar(
            db.select(db.func.count(Stimulus.id)).filter_by(study_id=study.id)):
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        manifest = registry().get(study.task_type).generate_demo(study.config["task"], Path(tmp))
        return import_manifest(study, manifest, manifest.parent)["new"]


def _sync_stimuli(study: Study) -> int:
    """Add the task's stimuli the study does not have yet. Existing ones are kept: stored trials point at them."""
    task = registry().get(study.task_type)
    have = set(db.session.scalars(db.select(Stimulus.key).filter_by(study_id=study.id)))
    new = []
    for params in conditions.all_task_params(study.config):  # a condition's parameters may add stimuli
        for s in task.stimuli(params):
            if s.key not in have:
                have.add(s.key)
                new.append({"study_id": study.id, "key": s.key, "practice": s.practice, "params": s.params})
    if new:
        db.session.execute(db.insert(Stimulus), new)
    return len(new)


def get_study(slug: str) -> Study | None:
    if not SLUG.match(slug):  # e.g. a NUL byte from a mangled link, which PostgreSQL would refuse
        return None
    return db.session.scalars(db.select(Study).filter_by(slug=slug)).first()


def set_status(study: Study, status: str, researcher_id: int | None = None, via: str = "web") -> bool:
    """Open, pause or close a study and log who did it and when in study_events. False if it had that status.

    Paused and closed studies turn new entries away (the participant page says so); running sessions finish."""
    if status not in STUDY_STATUSES:
        raise ValueError(f"status must be one of {', '.join(STUDY_STATUSES)}")
    if study.status == status:
        return False
    db.session.add(StudyEvent(study_id=study.id, researcher_id=researcher_id, action=status,
                              detail={"from": study.status, "via": via}))
    study.status = status
    db.session.commit()
    return True
