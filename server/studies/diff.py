"""What changed between two kept versions of a study (`flask studies diff SLUG V1 V2` and the dashboard's versions
page): the configuration's keys, the stimuli, and how many sessions entered under each.

- Keys: both configurations flattened to dotted paths (`task.n_trials`, `task.statements[2].text`, a list item by
  its position), each path whose value differs, was added or was removed, with its old and new value.
- Stimuli: versions do not keep a stimulus list. A type that generates its stimuli (GeneratedStimuli) draws them from
  the version's `[task]` parameters (and its conditions'), so each version's set is generated anew and compared. An
  imported stimulus set belongs to the study, not to a version (`flask stimuli import` adds to it at any time), so
  for those types the stimuli compared are the ones drawn into the plans of the sessions that entered under each
  version (previews left out, like the session counts). A type without stimuli (a jsPsych experiment: its files'
  hashes are keys of the configuration) has none.
- Sessions: the analysable sessions (models.analysable(None): both stages, never a preview) per version."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..db import db
from ..exceptions import ConfigError
from ..models import ParticipantSession, Study, StudyVersion, analysable
from ..tasktype.contract import GeneratedStimuli, ImportedStimuli
from ..tasktype.registry import registry
from .conditions import all_task_params
from .versions import get_version, session_counts, versions

# Migration 0007 started study_versions with each study's version of then; sync had overwritten the ones before.
LOST = "versions synced before study versions were kept (migration 0007) cannot be recovered"


class UnknownVersion(LookupError):
    """A version number the study does not keep; the message lists those it does."""


class Absent:
    """The value of a key one version does not have."""

    def __repr__(self) -> str:
        return "(absent)"


ABSENT = Absent()


@dataclass(frozen=True)
class KeyChange:
    path: str
    old: Any  # ABSENT: added in the newer version
    new: Any  # ABSENT: removed


@dataclass(frozen=True)
class StimulusChange:
    source: str  # how each version's stimuli were found (the module docstring's cases)
    added: list[str] | None  # None: the stimuli cannot be compared (the reason is `source`)
    removed: list[str] | None


@dataclass(frozen=True)
class VersionDiff:
    old: int
    new: int
    keys: list[KeyChange]
    stimuli: StimulusChange
    sessions: dict[int, int]  # version → analysable sessions that entered under it


def kept_version(study: Study, number: int) -> StudyVersion:
    """Version `number` of the study, or UnknownVersion naming the versions kept."""
    version = get_version(study, number)
    if version is None:
        kept = [v.version for v in versions(study)[0]]
        lost = f"; {LOST}" if kept and number < kept[0] else ""
        raise UnknownVersion(
            f"{study.slug} has no kept version {number} (kept: {', '.join(map(str, kept)) or 'none'}){lost}"
        )
    return version


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """Dotted path → value of every leaf; an empty table or list is a leaf of its own."""
    if isinstance(value, dict) and value:
        items = ((f"{prefix}.{k}" if prefix else str(k), v) for k, v in value.items())
    elif isinstance(value, list) and value:
        items = ((f"{prefix}[{i}]", v) for i, v in enumerate(value))
    else:
        return {prefix: value}
    return {path: leaf for key, v in items for path, leaf in flatten(v, key).items()}


def key_changes(old: dict[str, Any], new: dict[str, Any]) -> list[KeyChange]:
    before, after = flatten(old), flatten(new)
    return [
        KeyChange(path, before.get(path, ABSENT), after.get(path, ABSENT))
        for path in sorted(before.keys() | after.keys())
        if before.get(path, ABSENT) != after.get(path, ABSENT)
        # 1 and 1.0, or 1 and true, are equal in Python but not in the file
        or type(before.get(path, ABSENT)) is not type(after.get(path, ABSENT))
    ]


def _generated(task: GeneratedStimuli, config: dict[str, Any]) -> set[str]:
    return {spec.key for params in all_task_params(config) for spec in task.stimuli(params)}


def _planned(version: StudyVersion) -> set[str]:
    plans = db.session.scalars(
        db.select(ParticipantSession.plan).where(ParticipantSession.study_version_id == version.id, analysable(None))
    )
    return {item["stimulus_id"] for plan in plans for item in plan}


def stimulus_change(study: Study, old: StudyVersion, new: StudyVersion) -> StimulusChange:
    task = registry().get(study.task_type)
    if task is None:
        return StimulusChange(f"the task type {study.task_type!r} is not installed", None, None)
    if old.config.get("task_type") != new.config.get("task_type"):
        return StimulusChange("the versions have different task types", None, None)
    if isinstance(task, GeneratedStimuli):
        source = "generated from each version's [task] parameters"
        try:
            before, after = _generated(task, old.config), _generated(task, new.config)
        except (ConfigError, KeyError, TypeError, ValueError) as exc:  # parameters of an older release of the type
            return StimulusChange(f"{source}, which failed: {exc}", None, None)
    elif isinstance(task, ImportedStimuli):
        source = "in the plans of the sessions that entered under each version (imported stimuli are not versioned)"
        before, after = _planned(old), _planned(new)
    else:
        return StimulusChange(f"the task type {study.task_type!r} has no stimuli", None, None)
    return StimulusChange(source, sorted(after - before), sorted(before - after))


def sessions_per_version(study: Study, kept: list[StudyVersion]) -> dict[int, int]:
    counts = session_counts(study)
    return {v.version: counts.get(v.id, 0) for v in kept}


def all_kept(study: Study) -> list[StudyVersion]:
    return db.session.scalars(db.select(StudyVersion).filter_by(study_id=study.id).order_by(StudyVersion.version)).all()


def diff(study: Study, old_number: int, new_number: int) -> VersionDiff:
    """What changed from version `old_number` to `new_number` (UnknownVersion if one is not kept)."""
    old, new = kept_version(study, old_number), kept_version(study, new_number)
    return VersionDiff(
        old.version,
        new.version,
        key_changes(old.config, new.config),
        stimulus_change(study, old, new),
        sessions_per_version(study, [old, new]),
    )
