"""Participant sessions: entry (a new session in its condition, with its plan, or the one a PROLIFIC_PID already
has: Core statements on an autocommit connection, in the ORM's transaction only for a study with conditions, which
takes its row lock) and finding a session by token for the pages around a researcher's experiment and the results.
The participant API's requests and the study's page go through the cached Core path (server/participation/
trialstore.py).

Idempotence rests on the database's unique keys, not on checks in Python, so concurrent repeats (two tabs, a
double click, a retry racing its original) still store one row."""

from __future__ import annotations

import json
import random
import re
import secrets
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, NamedTuple

from sqlalchemy import Connection, bindparam

from .. import identifiers
from ..db import db, utcnow
from ..models import (
    BonusBatch,
    BonusBatchRow,
    ParticipantSession,
    ProlificSubmission,
    Stimulus,
    Study,
    StudyEvent,
    SurveyResponse,
    Trial,
    analysable,
)
from ..prolific import audit
from ..studies import conditions
from ..studies import versions as study_versions
from ..studies.definitions import SLUG
from ..tasktype.contract import GeneratedStimuli, ImportedStimuli, StimulusSpec
from ..tasktype.registry import registry
from . import trialstore

PS = ParticipantSession
TOKEN = re.compile(r"^[A-Za-z0-9_-]+$")


class Entered(NamedTuple):
    """A participant's session as entry answers with it: where to send them (its token) and whether they may go on
    (its status); its stage and condition."""

    token: str
    status: str
    stage: str
    condition: str | None
    facts: trialstore.SessionFacts | None = None  # a session just inserted: what the participant API keeps of it


class UnknownJump(ValueError):
    """A preview asked to start at a step or trial its study and plan do not have (nothing was written)."""


def jumps(study: Study, plan: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Where a preview of this plan may start (the researcher bar's "Jump to", `?jump=` of a preview link): each step
    of the study's flow, then each trial of the plan; (value, label) pairs."""
    options = [(f"step-{step}", f"step: {step}") for step in study.config["flow"]]
    return options + [
        (f"trial-{item['index']}", f"trial {item['index']}" + (" (practice)" if item.get("practice") else ""))
        for item in plan
    ]


def find_or_create(
    study: Study,
    prolific: dict[str, str] | None,
    user_agent: str | None,
    preview: bool = False,
    condition: str | None = None,
    url_variables: dict[str, str] | None = None,
    jump: str = "",
) -> Entered:
    """A new session, in the least filled condition; for a PROLIFIC_PID that already has one (a racing first
    entry), that one. A study with conditions assigns them under its row lock (server/studies/conditions.py); the plans
    are drawn before, one per condition, so entries hold the lock only for a count and an insert. A study without
    conditions needs no transaction: the session is one INSERT on an autocommit connection (trialstore.autocommit).
    `study`: its ORM row or the row entry reads (study_at_entry), alike in what is read. `url_variables`:
    the entry link's other query parameters, kept for a researcher's experiment (its raw ids marked: identifiers.mark).

    A researcher's preview (`preview`, opened from a signed preview link) is always a new session, never a Prolific
    one, and takes no condition slot: it runs in `condition` (one of the study's; None: the first in the study
    file), takes no lock and is never refused for a full study. `jump`, where the preview is to start, must be one of
    its :func:`jumps`: UnknownJump otherwise, before anything is written."""
    task = registry().get(study.task_type)
    if preview:
        variants = dict(conditions.variants(study.config))
        chosen = condition if condition is not None else next(iter(variants))
        values = _new_session(study, None, user_agent, chosen, _draw_plan(study, task, variants[chosen]), preview=True)
        if jump and jump not in dict(jumps(study, values["plan"])):
            trials = [item["index"] for item in values["plan"]]
            where = f"trial-{min(trials)} to trial-{max(trials)}, " if trials else "(it has no trials of its own) "
            raise UnknownJump(
                f"This preview has no {jump}: jump to a trial {where}or a step of its flow "
                f"({', '.join(study.config['flow'])})."
            )
        with trialstore.autocommit() as connection:
            return _add(connection, values)
    plans = {name: _draw_plan(study, task, params) for name, params in conditions.variants(study.config)}
    if prolific:  # the key before the lock: its first use writes it on a connection of its own
        identifiers.key()
    if not study.config.get("conditions"):
        values = _new_session(study, prolific, user_agent, None, plans[None], url_variables=url_variables)
        with trialstore.autocommit() as connection:
            # A PROLIFIC_PID that has a session already (a return, or two first entries racing) stores nothing: that
            # session it is.
            return _add(connection, values) or by_prolific_pid(connection, study.id, prolific["PROLIFIC_PID"])
    conditions.lock_study(study)
    existing = prolific and by_prolific_pid(db.session.connection(), study.id, prolific["PROLIFIC_PID"])
    if existing:
        db.session.commit()  # release the lock
        return existing
    try:
        condition = conditions.assign(study)
    except conditions.StudyFull:
        db.session.rollback()  # release the lock
        raise
    values = _new_session(study, prolific, user_agent, condition, plans[condition], url_variables=url_variables)
    entered = _add(db.session.connection(), values, remember=False)
    if entered is None:
        # Two first entries of the same PROLIFIC_PID raced: the other one won, use its session.
        db.session.rollback()
        return by_prolific_pid(db.session.connection(), study.id, prolific["PROLIFIC_PID"])
    db.session.commit()
    trialstore.remember(entered.facts)
    return entered


# A new session's row, one INSERT built once per dialect, with the version it enters under; one that a unique key
# refuses (its PROLIFIC_PID has a session in the study) stores nothing and answers no row. Not the ORM's unit of work:
# its flush of a new object cost an entry several times this statement (docs/operations.md, "The save path at five
# times psiTurk").
NEW_SESSION = {
    dialect: insert(ParticipantSession.__table__)
    .values(study_version_id=study_versions.CURRENT_ID)
    .on_conflict_do_nothing()
    .returning(PS.id)
    for dialect, insert in trialstore.INSERTS.items()
}


def _new_session(
    study: Study,
    prolific: dict[str, str] | None,
    user_agent: str | None,
    condition: str | None,
    plan: list,
    preview: bool = False,
    url_variables: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The new session's column values: `status` too, which the table's default would set (entry answers with it),
    and the times, whose defaults SQLAlchemy would compute in Python before the INSERT (so that it runs as a prepared
    statement: trialstore.PreparedStatement)."""
    now = utcnow()
    return {
        "study_id": study.id,
        "token": secrets.token_urlsafe(24),
        "study_version": study.version,
        "condition": condition,
        "status": "started",
        "platform": "prolific"
        if prolific
        else ("labinthewild" if study.config["platform"] == "labinthewild" else "direct"),
        "prolific_pid": prolific and prolific["PROLIFIC_PID"],
        "pid_hmac": prolific and identifiers.pid_hmac(prolific["PROLIFIC_PID"]),
        "prolific_study_id": prolific and prolific.get("STUDY_ID"),
        "prolific_session_id": prolific and prolific.get("SESSION_ID"),
        "user_agent": (user_agent or "")[:512],
        "stage": study.stage,
        "preview": preview,
        "plan": [item.as_json() for item in plan],
        "url_variables": identifiers.mark(url_variables, prolific or {}) if url_variables else None,
        "started_at": now,
        "last_seen_at": now,
    }


def _add(connection: Connection, values: dict[str, Any], remember: bool = True) -> Entered | None:
    """Insert the session on `connection` (the caller commits, where it is in a transaction); None if a unique key
    already holds such a session (its PROLIFIC_PID's, in this study). `remember`: put its facts in this worker's cache
    now (trialstore.remember), which its page and first API requests would otherwise read back (a caller in a
    transaction does so once it committed)."""
    # The facts before the INSERT: code that runs after a wait for the database runs slower (docs/operations.md,
    # "The save path at five times psiTurk, tenth round").
    facts = _facts(values)
    statement = NEW_SESSION[connection.dialect.name]
    parameters = {**values, "version_of_study": values["study_id"], "version": values["study_version"]}
    row = trialstore.first(connection, statement, parameters)
    if row is None:
        return None
    facts.id = row.id
    if remember:
        trialstore.remember(facts)
    return Entered(values["token"], values["status"], values["stage"], values["condition"], facts)


def _facts(values: dict[str, Any]) -> trialstore.SessionFacts:
    """The facts the participant API keeps of a session about to be inserted (`values`), as it would read them back
    but for the id (0 until then)."""
    return trialstore.SessionFacts(
        0,
        values["token"],
        values["study_id"],
        values["study_version"],
        values["platform"],
        json.loads(json.dumps(values["plan"])),  # as stored: a plan item's tuples read back as lists
        values["last_seen_at"],
        False,
        values["preview"],
        values["condition"],
        {
            "PROLIFIC_PID": values["prolific_pid"],
            "STUDY_ID": values["prolific_study_id"],
            "SESSION_ID": values["prolific_session_id"],
        },
    )


def _draw_plan(study: Study, task, params: dict[str, Any]) -> list:
    rng = random.Random(secrets.randbits(64))
    if isinstance(task, ImportedStimuli):  # the plan draws from what the study holds
        stored = db.session.scalars(db.select(Stimulus).filter_by(study_id=study.id).order_by(Stimulus.key))
        stimuli = [StimulusSpec(s.key, s.params, s.practice) for s in stored]
        return task.build_plan_from(params, stimuli, rng)
    if isinstance(task, GeneratedStimuli):
        return task.build_plan(params, rng)
    return []  # no fixed plan: the task's page decides its trials (server/tasktype/contract.py)


# What a participant's entry reads of its study (definitions.get_study's attributes, for those), all of it as it is
# now: one statement on the participant API's autocommit connection, rather than the ORM's load of the row in a
# transaction (a BEGIN and a COMMIT more).
STUDY_AT_ENTRY = db.select(
    Study.id, Study.slug, Study.status, Study.stage, Study.version, Study.task_type, Study.config, Study.title
).where(Study.slug == bindparam("slug"))


def study_at_entry(connection: Connection, slug: str):
    """The study's row as entry reads it (STUDY_AT_ENTRY), on `connection`; None if there is none."""
    if not SLUG.match(slug):  # e.g. a NUL byte from a mangled link, which PostgreSQL would refuse
        return None
    return trialstore.first(connection, STUDY_AT_ENTRY, {"slug": slug})


BY_PROLIFIC_PID = db.select(PS.token, PS.status, PS.stage, PS.condition).where(
    PS.study_id == bindparam("study_id"), identifiers.MATCHES
)


def by_prolific_pid(connection: Connection, study_id: int, pid: str) -> Entered | None:
    """The study's session of this PROLIFIC_PID, found by its HMAC (so also once its raw ids were purged, and a
    withdrawn participant's tombstone, server/participation/withdrawal.py)."""
    row = trialstore.first(connection, BY_PROLIFIC_PID, {"study_id": study_id, **identifiers.match_values(pid)})
    return None if row is None else Entered(*row)


def well_formed(token: str) -> bool:
    # Tokens are URL-safe base64; anything else (a NUL byte, which PostgreSQL refuses in text) cannot be one.
    return bool(token) and len(token) <= 64 and TOKEN.match(token) is not None


def by_token(token: str) -> ParticipantSession | None:
    if not well_formed(token):
        return None
    return db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).first()


def purge_previews(older_than: timedelta, dry_run: bool = False) -> dict[str, int]:
    """Delete researchers' preview sessions unseen for `older_than` (last_seen_at), with their trials and survey
    answers, in one transaction; a participant's session is never touched (`preview` is set only by a preview link
    and never changes). Each study that lost some gets a `previews_purged` entry in its audit log. Returns how many
    per study slug; `dry_run` counts and deletes nothing."""
    found = db.session.execute(
        db.select(PS.id, PS.study_id, Study.slug)
        .join(Study, Study.id == PS.study_id)
        .where(PS.preview.is_(True), PS.last_seen_at < utcnow() - older_than)
    ).all()
    per_study = Counter(slug for _, _, slug in found)
    if not dry_run and found:
        ids = [session_id for session_id, _, _ in found]
        # Explicit deletes rather than the foreign keys' ON DELETE CASCADE, which SQLite applies only when asked to.
        db.session.execute(db.delete(Trial).where(Trial.session_id.in_(ids)))
        db.session.execute(db.delete(SurveyResponse).where(SurveyResponse.session_id.in_(ids)))
        db.session.execute(db.delete(PS).where(PS.id.in_(ids), PS.preview.is_(True)))
        study_ids = {slug: study_id for _, study_id, slug in found}
        for slug, n in per_study.items():
            db.session.add(StudyEvent(study_id=study_ids[slug], action="previews_purged", detail={"n": n}))
        db.session.commit()
    return dict(sorted(per_study.items()))


MAX_PURGE_AGE = timedelta(days=36500)  # a century: longer is a typo, and soon past what a date can hold
# Bonus batches not settled: paying or about to (server/prolific/bonuses.py); a void batch was never paid.
UNSETTLED_BONUS = ("creating", "created", "paying")
# Prolific submissions nothing more happens to: their raw ids may go. Any other status (RESERVED, ACTIVE, TIMED-OUT,
# which Prolific still lets a researcher approve, AWAITING REVIEW) keeps them for the approval or rejection to come.
SETTLED_SUBMISSIONS = ("APPROVED", "REJECTED", "RETURNED", "SCREENED OUT")


@dataclass
class IdentifierPurge:
    """What purge_identifiers found (and with `applied`, purged): sessions per status, Prolific submissions whose raw
    ids go, paid bonus batches whose rows' ids go, submissions that keep theirs for now (per status), and why it may
    not run at all."""

    counts: dict[str, int]
    refusals: list[str]
    submissions: int = 0
    bonus_batches: int = 0
    kept: dict[str, int] = field(default_factory=dict)
    applied: bool = False

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def anything(self) -> bool:
        return bool(self.total or self.submissions or self.bonus_batches)

    @property
    def prolific_note(self) -> str | None:
        """What it does to Prolific's record, and what it leaves for now, in a sentence (None: nothing)."""
        parts = []
        if self.submissions or self.bonus_batches:
            parts.append(
                f"the raw ids of {self.submissions} settled Prolific submission(s) and of {self.bonus_batches} "
                "bonus batch(es) go, their keyed hashes stay"
            )
        if self.kept:
            statuses = ", ".join(f"{status} {n}" for status, n in self.kept.items())
            parts.append(
                f"{sum(self.kept.values())} Prolific submission(s) not settled ({statuses}) keep their raw ids: purge "
                "again once Prolific shows them approved, rejected or returned"
            )
        return "; ".join(parts) or None


def purge_refusals(study: Study) -> list[str]:
    """Why the study's raw Prolific ids must stay for now: bonuses and approvals are paid to PROLIFIC_PIDs, and a
    pending one may need a researcher to look a participant up on Prolific."""
    refusals = [
        f"bonus batch {batch_id} ({source}) is {status}, not paid: run the same `flask prolific bonus` again to "
        "finish it"
        for batch_id, source, status in db.session.execute(
            db.select(BonusBatch.id, BonusBatch.source, BonusBatch.status)
            .where(BonusBatch.study_id == study.id, BonusBatch.status.in_(UNSETTLED_BONUS))
            .order_by(BonusBatch.id)
        )
    ]
    waiting = db.session.scalar(
        db.select(db.func.count()).where(
            ProlificSubmission.study_id == study.id, ProlificSubmission.status == "AWAITING REVIEW"
        )
    )
    if waiting:
        refusals.append(
            f"{waiting} Prolific submission(s) are AWAITING REVIEW at the last sync: approve or reject them "
            "(`flask prolific approve|reject`) and sync again"
        )
    return refusals


def purge_identifiers(
    study: Study, older_than: timedelta, researcher_id: int | None, via: str, apply: bool = False
) -> IdentifierPurge:
    """Null the raw platform ids (PROLIFIC_PID, STUDY_ID, SESSION_ID) of the study's sessions that started more than
    `older_than` ago, and reduce their User-Agent to what exports show (identifiers.reduced_user_agent), after
    storing the PID's HMAC where an older session has none: returning participants and Prolific sync still find them.
    The same for Prolific's record: settled submissions (SETTLED_SUBMISSIONS) of those sessions, of sessions purged
    before, and of none that started as long ago keep only the HMACs of their ids; the others are left, counted in
    `kept`. Every paid bonus batch's rows keep their PROLIFIC_PIDs' HMACs instead; a void batch (never paid) goes.
    `apply` False (a dry run), or any refusal (purge_refusals): counts only, nothing written. Applied: one
    transaction, an `identifiers_purged` audit entry; what was purged before is not counted again. ValueError for an
    age below 0 or over MAX_PURGE_AGE."""
    if not timedelta(0) <= older_than <= MAX_PURGE_AGE:
        raise ValueError(f"the age must be from 0 to {MAX_PURGE_AGE.days} days")
    PSub = ProlificSubmission
    cutoff = utcnow() - older_than
    due = db.select(PS.id, PS.status, PS.pid_hmac, PS.prolific_pid, PS.user_agent).where(
        PS.study_id == study.id,
        analysable("all"),
        PS.identifiers_purged_at.is_(None),
        PS.started_at < cutoff,
    )
    found = db.session.execute(due.order_by(PS.id)).all()
    submissions = db.session.execute(
        db.select(PSub.id, PSub.status, PSub.submission_id, PSub.participant_id, PSub.submission_hmac, PSub.pid_hmac)
        .outerjoin(PS, PS.id == PSub.session_id)
        .where(
            PSub.study_id == study.id,
            PSub.submission_id.is_not(None),
            db.case(
                (PS.id.is_(None), db.func.coalesce(PSub.started_at, PSub.read_at) < cutoff),
                else_=PS.identifiers_purged_at.is_not(None) | (PS.started_at < cutoff),
            ),
        )
        .order_by(PSub.id)
    ).all()
    settled = [row for row in submissions if row.status in SETTLED_SUBMISSIONS]
    batches = db.session.execute(
        db.select(BonusBatch.id, BonusBatch.status).where(
            BonusBatch.study_id == study.id,
            (BonusBatch.status == "void")
            | ((BonusBatch.status == "paid") & BonusBatch.identifiers_purged_at.is_(None)),
        )
    ).all()
    report = IdentifierPurge(
        dict(sorted(Counter(row.status for row in found).items())),
        purge_refusals(study),
        len(settled),
        len(batches),
        dict(sorted(Counter(row.status for row in submissions if row.status not in SETTLED_SUBMISSIONS).items())),
    )
    if not apply or report.refusals or not report.anything:
        return report
    now = utcnow()
    if found:
        db.session.execute(
            db.update(PS),
            [
                {
                    "id": row.id,
                    "pid_hmac": identifiers.session_key(row.pid_hmac, row.prolific_pid),
                    "prolific_pid": None,
                    "prolific_study_id": None,
                    "prolific_session_id": None,
                    # the export's form: an export of a purged session shows it as stored
                    "user_agent": identifiers.reduced_user_agent(row.user_agent),
                    "identifiers_purged_at": now,
                }
                for row in found
            ],
        )
    if settled:
        db.session.execute(
            db.update(PSub),
            [
                {
                    "id": row.id,
                    "submission_hmac": row.submission_hmac or identifiers.submission_hmac(row.submission_id),
                    "pid_hmac": row.pid_hmac
                    or (identifiers.pid_hmac(row.participant_id) if row.participant_id else None),
                    "submission_id": None,
                    "participant_id": None,
                }
                for row in settled
            ],
        )
    _purge_bonus_batches(batches, now)
    days = older_than.total_seconds() / 86400
    audit.record(
        study,
        "identifiers_purged",
        researcher_id,
        via,
        n=report.total,
        submissions=report.submissions,
        bonus_batches=report.bonus_batches,
        older_than_days=days,
    )
    db.session.commit()
    report.applied = True
    return report


def _purge_bonus_batches(batches, now) -> None:
    """A paid batch's rows keep their PROLIFIC_PIDs' HMACs (the row's key within its batch); a void batch, which
    Prolific never paid, is deleted with its rows (its creation stays in the audit log; the same file creates a new
    one)."""
    void = [batch_id for batch_id, status in batches if status == "void"]
    paid = [batch_id for batch_id, status in batches if status == "paid"]
    if void:  # explicit, as SQLite applies ON DELETE CASCADE only when asked to
        db.session.execute(db.delete(BonusBatchRow).where(BonusBatchRow.batch_id.in_(void)))
        db.session.execute(db.delete(BonusBatch).where(BonusBatch.id.in_(void)))
    if not paid:
        return
    rows = BonusBatchRow.__table__
    pids = db.session.execute(db.select(rows.c.batch_id, rows.c.participant_id).where(rows.c.batch_id.in_(paid))).all()
    if pids:
        db.session.execute(
            db.update(rows)
            .where(rows.c.batch_id == bindparam("b_batch"), rows.c.participant_id == bindparam("b_pid"))
            .values(participant_id=bindparam("b_hmac")),
            [{"b_batch": b, "b_pid": pid, "b_hmac": identifiers.pid_hmac(pid)} for b, pid in pids],
        )
    db.session.execute(db.update(BonusBatch).where(BonusBatch.id.in_(paid)).values(identifiers_purged_at=now))
