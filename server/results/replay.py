"""A stored session, trial by trial, for the researchers' replay page: what each trial showed as far as the stored
data tells (the stimulus and the images its plan item names, in the order shown: `TaskType.replay_images`), the
answer, its score and time, and the interaction records the page sent (trials.events)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from analysis.safe_csv import utf8_safe

from .. import identifiers
from ..db import db
from ..models import ParticipantSession, Stimulus, Trial
from ..tasktype.contract import Stimuli
from ..tasktype.registry import registry


@dataclass
class Step:
    trial: Trial
    stimulus_key: str | None
    images: list[tuple[str, str]]  # (caption, URL) in the order the page showed them
    response: dict[str, Any]  # the stored answer, platform ids it holds as markers written as the participant's code
    # Each event with `at`, its place on the trial's timeline in percent (of the response time, or of the last
    # event's time when that is later); None: the page sent no interaction records.
    events: list[dict[str, Any]] | None


def timeline(events: list[dict[str, Any]], rt_ms: int | None) -> list[dict[str, Any]]:
    """The events with `at`: each one's time as a percentage of the trial's span."""
    span = max([rt_ms or 0, *(e.get("t") or 0 for e in events)]) or 1
    return [{**e, "at": round(100 * (e.get("t") or 0) / span, 2)} for e in events]


def steps(person: ParticipantSession, stimulus_url: Callable[[str], str]) -> list[Step]:
    """The session's stored trials in trial order. Images only for planned trials of a task type with stimuli: a
    plan-less row (a researcher's jsPsych experiment) has no stimulus, its page decided what it showed."""
    task = registry().get(person.study.task_type)
    shows_stimuli = isinstance(task, Stimuli)
    rows = db.session.execute(
        db.select(Trial, Stimulus.key)
        .outerjoin(Stimulus, Stimulus.id == Trial.stimulus_id)
        .where(Trial.session_id == person.id)
        .order_by(Trial.trial_index)
    ).all()
    code = identifiers.participant_code(person.pid_hmac, person.prolific_pid, person.token)
    out = []
    for trial, key in rows:
        item = person.plan[trial.trial_index] if 0 <= trial.trial_index < len(person.plan) else None
        planned = shows_stimuli and key is not None and item is not None and item.get("stimulus_id") == key
        images = task.replay_images(item, stimulus_url) if planned else []
        events = None if trial.events is None else timeline(trial.events, trial.rt_ms)
        out.append(Step(trial, key, images, _readable(identifiers.unmark(trial.response, code)), events))
    return out


def _readable(value: Any) -> Any:
    """A stored answer as a page can write it: a lone surrogate in a key or text (stored before the participant API
    refused them, server/tasktype/jsonvalue.py) as its JSON escape, as the export writes it; a page encodes UTF-8."""
    if isinstance(value, str):
        return utf8_safe(value)
    if isinstance(value, list):
        return [_readable(item) for item in value]
    if isinstance(value, dict):
        return {utf8_safe(key): _readable(item) for key, item in value.items()}
    return value
