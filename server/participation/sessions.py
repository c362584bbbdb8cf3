"""Participant sessions through the ORM: entry (a new session in its condition, with its plan, or the one a
PROLIFIC_PID already has) and finding a session by token for the participant pages. The participant API's requests
go through server/participation/session_api.py instead: the cached Core path.

Idempotence rests on the database's unique keys, not on checks in Python, so concurrent repeats (two tabs, a
double click, a retry racing its original) still store one row."""

from __future__ import annotations

import random
import re
import secrets
from typing import Any

from sqlalchemy.exc import IntegrityError

from ..db import db
from ..models import ParticipantSession, Stimulus, Study
from ..studies import conditions
from ..studies import versions as study_versions
from ..tasktype.contract import GeneratedStimuli, ImportedStimuli, StimulusSpec
from ..tasktype.registry import registry

TOKEN = re.compile(r"^[A-Za-z0-9_-]+$")


def find_or_create(study: Study, prolific: dict[str, str] | None, user_agent: str | None) -> ParticipantSession:
    """A new session, in the least filled condition; for a PROLIFIC_PID that already has one (a racing first
    entry), that one. A study with conditions assigns them under its row lock (server/studies/conditions.py); the plans
    are drawn before, one per condition, so entries hold the lock only for a count and an insert."""
    task = registry().get(study.task_type)
    plans = {name: _draw_plan(study, task, params) for name, params in conditions.variants(study.config)}
    condition = None
    if study.config.get("conditions"):
        conditions.lock_study(study)
        existing = prolific and by_prolific_pid(study, prolific["PROLIFIC_PID"])
        if existing:
            db.session.commit()  # release the lock
            return existing
        try:
            condition = conditions.assign(study)
        except conditions.StudyFull:
            db.session.rollback()  # release the lock
            raise
    session = ParticipantSession(
        study_id=study.id,
        token=secrets.token_urlsafe(24),
        study_version=study.version,
        study_version_id=study_versions.current_id(study),
        condition=condition,
        platform="prolific"
        if prolific
        else ("labinthewild" if study.config["platform"] == "labinthewild" else "direct"),
        prolific_pid=prolific and prolific["PROLIFIC_PID"],
        prolific_study_id=prolific and prolific.get("STUDY_ID"),
        prolific_session_id=prolific and prolific.get("SESSION_ID"),
        user_agent=(user_agent or "")[:512],
        plan=[item.as_json() for item in plans[condition]],
    )
    try:
        db.session.add(session)
        db.session.commit()
    except IntegrityError:
        # Two first entries of the same PROLIFIC_PID raced (a study without conditions takes no lock): the other
        # one won, use its session.
        db.session.rollback()
        return by_prolific_pid(study, prolific["PROLIFIC_PID"])
    return session


def _draw_plan(study: Study, task, params: dict[str, Any]) -> list:
    rng = random.Random(secrets.randbits(64))
    if isinstance(task, ImportedStimuli):  # the plan draws from what the study holds
        stored = db.session.scalars(db.select(Stimulus).filter_by(study_id=study.id).order_by(Stimulus.key))
        stimuli = [StimulusSpec(s.key, s.params, s.practice) for s in stored]
        return task.build_plan_from(params, stimuli, rng)
    if isinstance(task, GeneratedStimuli):
        return task.build_plan(params, rng)
    return []  # no fixed plan: the task's page decides its trials (server/tasktype/contract.py)


def by_prolific_pid(study: Study, pid: str) -> ParticipantSession | None:
    return db.session.scalars(db.select(ParticipantSession).filter_by(study_id=study.id, prolific_pid=pid)).first()


def well_formed(token: str) -> bool:
    # Tokens are URL-safe base64; anything else (a NUL byte, which PostgreSQL refuses in text) cannot be one.
    return bool(token) and len(token) <= 64 and TOKEN.match(token) is not None


def by_token(token: str) -> ParticipantSession | None:
    if not well_formed(token):
        return None
    return db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).first()
