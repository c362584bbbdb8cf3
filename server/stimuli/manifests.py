"""Importing stimuli from a manifest (CSV or JSON) plus a folder of image files, all or nothing.

The whole manifest is checked before anything is written: every problem is collected as "row N, column C: …"
(N counts data rows from 1), and one problem means nothing is imported. Files are stored as content-addressed
assets, so re-importing the same image costs nothing."""

from __future__ import annotations

from pathlib import Path

from ..db import db
from ..exceptions import ImportRefused, ManifestError
from ..models import Stimulus, Study, Trial, bump_generation
from ..tasktype.assets import store as store_assets
from ..tasktype.contract import GeneratedStimuli, ImportedStimuli, StimulusSpec
from ..tasktype.manifest_files import ManifestFiles, read_manifest
from ..tasktype.registry import registry


def import_manifest(study: Study, manifest: Path, images: Path, replace: bool = False) -> dict[str, int]:
    """Check the whole manifest, then store its assets and stimuli in the current transaction and commit."""
    task = registry().get(study.task_type)
    if not isinstance(task, ImportedStimuli):
        why = "generates its own stimuli" if isinstance(task, GeneratedStimuli) else "has no stimuli to import"
        raise ImportRefused.listing([f"task type {study.task_type!r} {why}; nothing to import"])
    if not images.is_dir():
        raise ImportRefused.listing([f"images folder {images} does not exist"])
    rows = read_manifest(manifest)
    if not rows:
        raise ImportRefused.listing(["the manifest has no rows"])
    columns = set(rows[0])
    problems = [f"missing column {c!r}" for c in task.manifest_required if c not in columns]
    allowed = set(task.manifest_required) | set(task.manifest_optional)
    problems += [f"unknown column {c!r} (allowed: {', '.join(sorted(allowed))})" for c in sorted(columns - allowed)]
    if problems:
        raise ImportRefused.listing(problems)

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
    used = set(
        db.session.scalars(db.select(Trial.stimulus_id).join(Stimulus).where(Stimulus.study_id == study.id).distinct())
    )
    for key, (n, spec) in specs.items():
        old = existing.get(key)
        if old is not None and old.params != spec.params:
            if not replace:
                problems.append(f"row {n}: stimulus {key!r} exists with other content (use --replace)")
            elif old.id in used:
                problems.append(f"row {n}: stimulus {key!r} has stored trials and cannot be replaced")
    if problems:
        raise ImportRefused.listing(problems)

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
    if new or changed:  # analyses read the stimuli's parameters (the true values): a stored result is stale
        bump_generation(study.id)
    db.session.commit()
    return {
        "rows": len(rows),
        "new": new,
        "replaced": changed,
        "unchanged": len(specs) - new - changed,
        "files": len(files.pending),
        "files_added": added,
    }
