"""Between-subjects conditions: study.toml's `[[conditions]]` and their balanced assignment at entry.

    abandon_after_minutes = 60      # a started session unseen this long no longer holds its condition's slot
    [[conditions]]
    name = "bars"                   # stored in participant_sessions.condition, exported as `condition`
    quota = 100                     # optional: at most this many completed + active sessions
    [conditions.task]               # optional: overrides of the study's [task] parameters for this condition
    variants = 2

Entries of a study with conditions are serialised by a lock on its `studies` row, held until the new session is
committed (SELECT … FOR UPDATE on PostgreSQL; on SQLite, which has no row locks, a no-op UPDATE takes the database's
one writer lock). Inside the lock the entry counts each condition's completed and active sessions and takes the
least filled one (ties at random), so counts stay balanced to ±1 however many participants arrive at once, and the
check for an existing session of the same PROLIFIC_PID cannot race. No retries, no sleeping: waiting is the
database's. Studies without conditions take no lock: the unique (study, PROLIFIC_PID) key settles racing entries."""

from __future__ import annotations

import re
import secrets
from datetime import timedelta
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from ..db import db, utcnow
from ..exceptions import ConfigError
from ..models import PLACE_REOPENED, ParticipantSession, ProlificSubmission, Study, analysable
from ..schema import SchemaError, Table, matching, problem

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
DEFAULT_ABANDON_MINUTES = 60
MAX_ABANDON_MINUTES = 60 * 24 * 30
FIXED_TASK = (
    "an own experiment's conditions cannot change [task]: sync prepares its one page for all of them; the page "
    "learns the session's condition from DataPipe's condition assignment (docs/own-experiments.md, \"Conditions\")"
)
ConditionName = matching(NAME.pattern, "an id (letters, digits, _ . -; at most 64)")


class Condition(Table):
    name: ConditionName = Field(description=("stored in participant_sessions.condition, exported as `condition`"))
    quota: int | None = Field(None, ge=1, description="at most this many completed + active sessions; none: no limit")
    task: dict[str, Any] = Field(
        {}, description="this condition's changes to the study's `[task]` table (none for an own jsPsych experiment)"
    )


def _names_differ(conditions: list[Condition]) -> list[Condition]:
    seen = {}
    for n, condition in enumerate(conditions, 1):
        if condition.name in seen:
            raise problem(f"condition {n}'s name {condition.name!r} repeats condition {seen[condition.name]}'s")
        seen[condition.name] = n
    return conditions


Conditions = Annotated[list[Condition], Field(min_length=1), AfterValidator(_names_differ)]
AbandonMinutes = Annotated[int, Field(ge=1, le=MAX_ABANDON_MINUTES)]


def config(
    conditions: list[Condition] | None, abandon_after_minutes: int | None, task, params: dict[str, Any]
) -> dict[str, Any]:
    """The study file's validated `conditions` and `abandon_after_minutes` as config keys (none when the file has
    neither, so the config, and with it the study's version, of a study without conditions stays as it was). Each
    condition's task parameters are the study's `params` changed by its `[conditions.task]`; SchemaError lists the
    problems of all of them."""
    out = {} if abandon_after_minutes is None else {"abandon_after_minutes": abandon_after_minutes}
    if conditions is None:
        return out
    parsed, errors = [], []
    for n, condition in enumerate(conditions, 1):
        if condition.task and not task.condition_params:
            errors.append(f"conditions[{n}].task: {FIXED_TASK}")
            continue
        try:
            task_params = task.parse_params({**params, **condition.task}) if condition.task else params
        except SchemaError as exc:
            errors += exc.within(f"conditions[{n}].").errors
            continue
        except ConfigError as exc:  # a task type's own check beyond its table's schema
            errors.append(f"conditions[{n}]: {exc}")
            continue
        parsed.append({"name": condition.name, "quota": condition.quota, "task": task_params})
    if errors:
        raise SchemaError(errors)
    out["conditions"] = parsed
    return out


def variants(config: dict[str, Any]) -> list[tuple[str | None, dict[str, Any]]]:
    """(condition, task parameters) a new session may get: each condition's, or (None, the study's own)."""
    return [(c["name"], c["task"]) for c in config.get("conditions", ())] or [(None, config["task"])]


def all_task_params(config: dict[str, Any]) -> list[dict[str, Any]]:
    """Every parameter set the study's sessions may run with (their stimuli must all be stored)."""
    return [config["task"], *(c["task"] for c in config.get("conditions", ()) if c["task"] != config["task"])]


def lock_study(study: Study) -> None:
    """Hold the study's row lock until the transaction ends: entries of one study queue here."""
    if db.session.get_bind().dialect.name == "sqlite":
        # No row locks in SQLite: a write takes its single writer lock (pysqlite begins the transaction here). A
        # crowd of entries queues for it, so wait longer than pysqlite's default 5 s before giving up.
        db.session.execute(db.text("PRAGMA busy_timeout = 60000"))
        table = Study.__table__
        db.session.execute(db.update(table).where(table.c.id == study.id).values(updated_at=table.c.updated_at))
    else:
        db.session.execute(db.select(Study.id).where(Study.id == study.id).with_for_update())


def occupancy(study: Study) -> dict[str, int]:
    """Sessions holding each condition's slot: completed ones, and started ones seen within the abandon timeout,
    except those whose Prolific place was offered to someone else (returned, timed out or rejected, as the last
    `flask prolific sync` read): the newcomer takes their slot. Abandoned sessions hold none, and neither do
    researchers' previews or sessions of the study's other stage: quotas count the current stage, so putting a
    study live starts them afresh."""
    minutes = study.config.get("abandon_after_minutes", DEFAULT_ABANDON_MINUTES)
    cutoff = utcnow() - timedelta(minutes=minutes)
    PS = ParticipantSession
    reopened = (
        db.select(ProlificSubmission.id)
        .where(ProlificSubmission.session_id == PS.id, ProlificSubmission.status.in_(PLACE_REOPENED))
        .exists()
    )
    rows = db.session.execute(
        db.select(PS.condition, db.func.count())
        .where(
            PS.study_id == study.id,
            analysable(study.stage),
            PS.condition.is_not(None),
            ~reopened,
            (PS.status == "completed") | ((PS.status == "started") & (PS.last_seen_at >= cutoff)),
        )
        .group_by(PS.condition)
    )
    counts = {c["name"]: 0 for c in study.config.get("conditions", ())}
    counts.update({name: n for name, n in rows if name in counts})
    return counts


class StudyFull(Exception):
    """Every condition has reached its quota: the study takes no one new until a slot frees (a completion does not
    free one; a session unseen for `abandon_after_minutes` does, and so does one that ended early or whose Prolific
    place reopened)."""


def assign(study: Study) -> str | None:
    """The condition for a new session: the least filled with room left (call with the study locked). None for a
    study without conditions; StudyFull when every condition has reached its quota."""
    conditions = study.config.get("conditions")
    if not conditions:
        return None
    counts = occupancy(study)
    open_ = [c["name"] for c in conditions if c["quota"] is None or counts[c["name"]] < c["quota"]]
    if not open_:
        raise StudyFull(study.slug)
    fewest = min(counts[name] for name in open_)
    return secrets.choice([name for name in open_ if counts[name] == fewest])
