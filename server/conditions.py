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
from typing import Any

from .db import db, utcnow
from .models import PLACE_REOPENED, ParticipantSession, ProlificSubmission, Study
from .exceptions import ConfigError

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
DEFAULT_ABANDON_MINUTES = 60


def parse(raw: dict[str, Any], task, params: dict[str, Any]) -> dict[str, Any]:
    """The study file's `conditions` and `abandon_after_minutes` as config keys (none when the file has neither, so
    the config, and with it the study's version, of a study without conditions stays as it was). Raises
    ConfigError naming the key."""
    out = {}
    if "abandon_after_minutes" in raw:
        minutes = raw["abandon_after_minutes"]
        if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= 60 * 24 * 30:
            raise ConfigError("abandon_after_minutes must be a whole number of minutes (1–43200)")
        out["abandon_after_minutes"] = minutes
    if "conditions" not in raw:
        return out
    conditions = raw["conditions"]
    if not isinstance(conditions, list) or not conditions or not all(isinstance(c, dict) for c in conditions):
        raise ConfigError("conditions must be a list of tables ([[conditions]] with a name each)")
    parsed, seen = [], set()
    for n, condition in enumerate(conditions, 1):
        unknown = set(condition) - {"name", "quota", "task"}
        if unknown:
            raise ConfigError(f"conditions #{n}: unknown key(s): {', '.join(sorted(unknown))}")
        name = condition.get("name")
        if not isinstance(name, str) or not NAME.match(name) or name in seen:
            raise ConfigError(f"conditions #{n}: name must be a unique id (letters, digits, _ . -; at most 64)")
        seen.add(name)
        quota = condition.get("quota")
        if quota is not None and (isinstance(quota, bool) or not isinstance(quota, int) or quota < 1):
            raise ConfigError(f"conditions #{n} ({name}): quota must be a positive whole number")
        overrides = condition.get("task", {})
        if not isinstance(overrides, dict):
            raise ConfigError(f"conditions #{n} ({name}): task must be a table of task parameters")
        try:
            task_params = task.parse_params({**params, **overrides}) if overrides else params
        except ConfigError as exc:
            raise ConfigError(f"conditions #{n} ({name}): {exc}") from None
        parsed.append({"name": name, "quota": quota, "task": task_params})
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
    `flask prolific sync` read): the newcomer takes their slot. Abandoned sessions hold none."""
    minutes = study.config.get("abandon_after_minutes", DEFAULT_ABANDON_MINUTES)
    cutoff = utcnow() - timedelta(minutes=minutes)
    PS = ParticipantSession
    reopened = db.select(ProlificSubmission.id).where(ProlificSubmission.session_id == PS.id,
                                                      ProlificSubmission.status.in_(PLACE_REOPENED)).exists()
    rows = db.session.execute(
        db.select(PS.condition, db.func.count())
        .where(PS.study_id == study.id, PS.condition.is_not(None), ~reopened,
               (PS.status == "completed") | ((PS.status == "started") & (PS.last_seen_at >= cutoff)))
        .group_by(PS.condition))
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
