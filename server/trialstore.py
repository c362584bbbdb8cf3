"""The participant API's data path: autocommit connections, single-statement writes that ignore repeats, and
per-process caches of the rows every request needs.

Participants make tens of thousands of requests in a study, 30 trial saves each (docs/operations.md has the
figures), so a save costs one round trip to the database and no ORM unit of work. What the requests read besides
their own rows never changes, or changes rarely enough to be re-read every few seconds:

- a session's id, study, platform and plan are fixed when it is created (no code path changes or deletes them),
  so each worker process keeps them by token (least recently used dropped first); its status changes and is read;
- a stimulus's id and parameters are fixed once a trial points at it (`flask stimuli import --replace` refuses
  stimuli with trials, `flask studies sync` only adds stimuli);
- a study's slug, task type and configuration change only with `flask studies sync`; a worker re-reads them after
  STUDY_TTL, so an edit reaches every worker within seconds.
"""
from __future__ import annotations

import functools
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from flask import current_app
from sqlalchemy import Connection, Table, bindparam
from sqlalchemy.dialects import postgresql, sqlite

from .db import AUTOCOMMIT_BIND, db, utcnow
from .models import ParticipantSession, Stimulus, Study, SurveyResponse, Trial

# `last_seen_at` is refreshed at most this often per session by a worker's trial saves, so a save rarely writes
# the session row too; abandonment is measured in minutes (study.toml `abandon_after_minutes`).
LAST_SEEN_RESOLUTION = timedelta(seconds=60)
STUDY_TTL = 5.0  # seconds a worker trusts its copy of a study's slug, task type and configuration
SESSIONS_CACHED = 20_000  # sessions per worker process (a plan is a few kB)
INSERTS = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}

# The participant API's statements, built once: constructing a statement costs more CPU than running it.
PS = ParticipantSession
SESSION_BY_TOKEN = db.select(PS.id, PS.study_id, PS.study_version, PS.platform, PS.plan, PS.last_seen_at).where(
    PS.token == bindparam("token"))
SESSION_STATUS = db.select(PS.status).where(PS.id == bindparam("id"))
TOUCH = db.update(PS).where(PS.id == bindparam("session_id")).values(last_seen_at=bindparam("now"))
STUDY = db.select(Study.slug, Study.task_type, Study.config).where(Study.id == bindparam("id"))
STIMULUS = db.select(Stimulus.id, Stimulus.params).where(Stimulus.study_id == bindparam("study_id"),
                                                         Stimulus.key == bindparam("key"))
STORED_INDEXES = db.select(Trial.trial_index).where(Trial.session_id == bindparam("id")).order_by(Trial.trial_index)
STORED_TRIAL_ID = db.select(Trial.client_trial_id).where(Trial.session_id == bindparam("id"),
                                                         Trial.trial_index == bindparam("index"))
SURVEYS_DONE = db.select(SurveyResponse.name).where(SurveyResponse.session_id == bindparam("id"))


@dataclass
class SessionFacts:
    """What the participant API needs of a session: fixed at creation, except this worker's note of its last
    write of last_seen_at. Its status is not here: it changes, so it is read when needed."""
    id: int
    token: str
    study_id: int
    study_version: int
    platform: str
    plan: list[dict[str, Any]]
    touched_at: datetime


@dataclass(frozen=True)
class StudyFacts:
    slug: str
    task_type: str
    config: dict[str, Any]
    read_at: float


class _Caches:
    """One per app (tests run many apps, each on its own database, in one process)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.sessions: OrderedDict[str, SessionFacts] = OrderedDict()
        self.studies: dict[int, StudyFacts] = {}
        self.stimuli: dict[tuple[int, str], tuple[int, dict[str, Any]]] = {}
        self.statements: dict[tuple[str, str], Any] = {}  # (table, dialect) -> INSERT statement


def _caches() -> _Caches:
    caches = current_app.extensions.get("studyhive.trialstore")
    if caches is None:
        caches = current_app.extensions.setdefault("studyhive.trialstore", _Caches())
    return caches


def autocommit() -> Connection:
    """A pooled connection on which each statement commits by itself: a save is one round trip, no BEGIN/COMMIT."""
    return db.engines[AUTOCOMMIT_BIND].connect()


def session_facts(connection: Connection, token: str) -> SessionFacts | None:
    """The session with this token (None if there is none), from this worker's cache when it has it."""
    caches = _caches()
    facts = caches.sessions.get(token)
    if facts is not None:
        with caches.lock:
            if token in caches.sessions:
                caches.sessions.move_to_end(token)
        return facts
    row = connection.execute(SESSION_BY_TOKEN, {"token": token}).first()
    if row is None:
        return None
    seen = row.last_seen_at
    facts = SessionFacts(row.id, token, row.study_id, row.study_version, row.platform, row.plan,
                         seen.replace(tzinfo=timezone.utc) if seen.tzinfo is None else seen)  # SQLite: naive UTC
    with caches.lock:
        caches.sessions[token] = facts
        while len(caches.sessions) > SESSIONS_CACHED:
            caches.sessions.popitem(last=False)
    return facts


def study_facts(connection: Connection, study_id: int) -> StudyFacts:
    caches = _caches()
    facts = caches.studies.get(study_id)
    if facts is None or time.monotonic() - facts.read_at > STUDY_TTL:
        slug, task_type, config = connection.execute(STUDY, {"id": study_id}).one()
        facts = caches.studies[study_id] = StudyFacts(slug, task_type, config, time.monotonic())
    return facts


def stimulus(connection: Connection, study_id: int, key: str) -> tuple[int, dict[str, Any]]:
    """(stimulus row id, params) of a study's stimulus; the key comes from a session's plan, so it exists."""
    stimuli = _caches().stimuli
    if (study_id, key) not in stimuli:
        row = connection.execute(STIMULUS, {"study_id": study_id, "key": key}).one()
        stimuli[study_id, key] = (row.id, row.params)
    return stimuli[study_id, key]


def insert_unless_stored(connection: Connection, table: Table, row: dict[str, Any]) -> bool:
    """INSERT … ON CONFLICT DO NOTHING: True if stored now, False if a unique key of the table already holds such a
    row (for `trials`: a repeat, or a taken index). The row count says which, so no RETURNING result is read. One
    statement per table and dialect, built once, so SQLAlchemy's compiled cache serves every save."""
    statements = _caches().statements
    key = (table.name, connection.dialect.name)
    if key not in statements:
        # inline(): no RETURNING of the new id; preserve_rowcount: SQLAlchemy reads the count only when asked.
        statements[key] = (INSERTS[key[1]](table).inline().values({c: bindparam(c) for c in row})
                           .on_conflict_do_nothing().execution_options(preserve_rowcount=True))
    return connection.execute(statements[key], row).rowcount == 1


def stored_trial_id(connection: Connection, session_id: int, index: int) -> str | None:
    return connection.scalar(STORED_TRIAL_ID, {"id": session_id, "index": index})


def stored_indexes(connection: Connection, session_id: int) -> list[int]:
    return list(connection.scalars(STORED_INDEXES, {"id": session_id}))


def surveys_done(connection: Connection, session_id: int) -> set[str]:
    return set(connection.scalars(SURVEYS_DONE, {"id": session_id}))


@functools.cache
def _flagged(keys: tuple[str, ...]):
    """Count of a session's trials whose score holds any of `keys` true (one statement per task type's keys)."""
    flagged = db.or_(*(Trial.score[key].as_boolean().is_(True) for key in keys))
    return db.select(db.func.count()).where(Trial.session_id == bindparam("id"), flagged)


def attention_check_failures(connection: Connection, session_id: int, keys: tuple[str, ...]) -> int:
    """Stored trials whose score marks a failed attention check under one of the task type's `keys` (read once,
    at completion)."""
    return connection.scalar(_flagged(keys), {"id": session_id})


def status(connection: Connection, session_id: int) -> str:
    return connection.scalar(SESSION_STATUS, {"id": session_id})


def touch(connection: Connection, facts: SessionFacts) -> None:
    """Mark the session as seen now, unless this worker did so within LAST_SEEN_RESOLUTION."""
    now = utcnow()
    if now - facts.touched_at >= LAST_SEEN_RESOLUTION:
        connection.execute(TOUCH, {"session_id": facts.id, "now": now})
        facts.touched_at = now
