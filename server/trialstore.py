"""The trial save's hot path: one INSERT that ignores repeats, and per-process caches of the rows every save needs.

A save is the one request participants make by the thousand (docs/operations.md has the figures). What it reads
besides the session never changes: a study's task type is fixed per (study, version), and a stimulus's id and
parameters are fixed once a trial points at it (`flask stimuli import --replace` refuses stimuli with trials,
`flask studies sync` only adds stimuli). So each worker process looks them up once."""
from __future__ import annotations

from datetime import timedelta, timezone
from typing import Any

from flask import current_app
from sqlalchemy.dialects import postgresql, sqlite

from .db import db, utcnow
from .models import ParticipantSession, Stimulus, Study, Trial

# `last_seen_at` is refreshed at most this often by trial saves, so a save rarely writes the session row too;
# abandonment is measured in minutes (study.toml `abandon_after_minutes`).
LAST_SEEN_RESOLUTION = timedelta(seconds=60)
INSERTS = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}


def _cache() -> dict:
    # Kept on the app, not the module: tests run many apps (databases) in one process.
    return current_app.extensions.setdefault("studyhive.trialstore", {})


def task_type(session: ParticipantSession) -> str:
    key = ("task_type", session.study_id, session.study_version)
    cache = _cache()
    if key not in cache:
        cache[key] = db.session.scalar(db.select(Study.task_type).filter_by(id=session.study_id))
    return cache[key]


def stimulus(study_id: int, key: str) -> tuple[int, dict[str, Any]]:
    """(stimulus row id, params) of a study's stimulus; the key comes from a session's plan, so it exists."""
    cache_key = ("stimulus", study_id, key)
    cache = _cache()
    if cache_key not in cache:
        row = db.session.execute(db.select(Stimulus.id, Stimulus.params).filter_by(study_id=study_id, key=key)).one()
        cache[cache_key] = (row.id, row.params)
    return cache[cache_key]


def insert_unless_stored(row: dict[str, Any]):
    """INSERT … ON CONFLICT DO NOTHING RETURNING id: a row back means stored now, none means a repeat or a taken
    index (both unique keys of `trials` count as conflicts). Core, not the ORM: nothing to track afterwards."""
    insert = INSERTS[db.session.get_bind().dialect.name]
    return insert(Trial.__table__).values(row).on_conflict_do_nothing().returning(Trial.__table__.c.id)


def touch(session: ParticipantSession) -> None:
    """Mark the session as seen now, unless that was already recorded within LAST_SEEN_RESOLUTION."""
    now = utcnow()
    seen = session.last_seen_at
    if seen.tzinfo is None:  # SQLite hands back naive UTC
        seen = seen.replace(tzinfo=timezone.utc)
    if now - seen >= LAST_SEEN_RESOLUTION:
        session.last_seen_at = now
