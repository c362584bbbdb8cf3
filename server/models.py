"""Tables. One row per trial; everything a task type adds lives in JSON columns it owns (response, score, params),
so a new task type needs no migration and a stored type the code no longer knows can still be read and exported."""

import functools
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Connection,
    ForeignKey,
    Integer,
    LargeBinary,
    Sequence,
    String,
    Text,
    UniqueConstraint,
    bindparam,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, mapped_column, relationship
from sqlalchemy.types import DateTime

from .db import db, utcnow

Timestamp = DateTime(timezone=True)

# Study lifecycle and participant-session states. An abandoned session ended without completing (the participant
# declined consent, failed the browser check, or returned or timed out on Prolific): it holds no condition slot. A
# withdrawn one is the tombstone of a participant's withdrawal (server/participation/withdrawal.py): its data deleted.
STUDY_STATUSES = ("open", "paused", "closed")
SESSION_STATUSES = ("started", "completed", "abandoned", "excluded", "withdrawn")
# How a session ended, as the participant's platform is told: on Prolific each outcome has its own completion code.
# A researcher's own jsPsych experiment adds two (issue #36): it ended itself early (endExperiment/abortExperiment) in
# a way its study.toml does not map to another outcome, or its own code failed and the participant could not go on.
OUTCOMES = (
    "completed",
    "failed_attention_check",
    "no_consent",
    "incompatible_device",
    "ended_early",
    "experiment_error",
)
# Prolific submission statuses, and those whose place Prolific offers to someone else: their session holds no
# condition slot (server/studies/conditions.py).
PROLIFIC_STATUSES = (
    "RESERVED",
    "ACTIVE",
    "AWAITING REVIEW",
    "APPROVED",
    "REJECTED",
    "RETURNED",
    "TIMED-OUT",
    "SCREENED OUT",
)
PLACE_REOPENED = ("RETURNED", "TIMED-OUT", "REJECTED")
# A study's data stage: `pilot` while the researchers try it on a few people, `live` once it recruits for the
# paper (`flask studies stage`). Each session keeps the stage it started in.
STAGES = ("pilot", "live")


class Study(db.Model):
    __tablename__ = "studies"
    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(64), unique=True)
    title: Mapped[str] = mapped_column(String(200))
    task_type: Mapped[str] = mapped_column(String(64))
    # The parsed study file as loaded; its hash tells an edited study apart, `version` counts the edits. Every
    # version synced since migration 0007 is kept in study_versions.
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    config_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(default=1)
    status: Mapped[str] = mapped_column(String(16), default="open")
    stage: Mapped[str] = mapped_column(String(8), default="pilot")  # one of STAGES; a new study starts in pilot
    # The linked Prolific study: study.toml `[prolific] study_id`, or `flask prolific link`.
    prolific_study_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow, onupdate=utcnow)


class StudyVersion(db.Model):
    """A study's configuration as a sync stored it: one row per version, added when the parsed file's hash changes
    (server/studies/versions.py). Versions synced before this table existed (migration 0007) are not kept."""

    __tablename__ = "study_versions"
    __table_args__ = (UniqueConstraint("study_id", "version"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"))
    version: Mapped[int]
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    config_hash: Mapped[str] = mapped_column(String(64))
    # Who synced it: the researcher `--by` names, how ("cli"; "migration" for the row migration 0007 copied from
    # the study) and, from the command line, the operating-system user, as the audit log records them.
    researcher_id: Mapped[int | None] = mapped_column(ForeignKey("researchers.id", ondelete="SET NULL"))
    via: Mapped[str] = mapped_column(String(16))
    os_user: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class Stimulus(db.Model):
    __tablename__ = "stimuli"
    __table_args__ = (UniqueConstraint("study_id", "key"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(128))  # the stimulus id people and models see, e.g. t1-s10-t56-v0
    practice: Mapped[bool] = mapped_column(default=False)
    params: Mapped[dict[str, Any]] = mapped_column(JSON)


class ParticipantSession(db.Model):
    __tablename__ = "participant_sessions"
    # A PROLIFIC_PID has at most one session per study; NULL (no external id) may repeat.
    # Likewise its keyed hash (`pid_hmac`), which stays when the raw ids are purged.
    __table_args__ = (UniqueConstraint("study_id", "prolific_pid"), UniqueConstraint("study_id", "pid_hmac"))
    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"))
    token: Mapped[str] = mapped_column(String(64), unique=True)
    platform: Mapped[str] = mapped_column(String(32))
    prolific_pid: Mapped[str | None] = mapped_column(String(64))
    prolific_study_id: Mapped[str | None] = mapped_column(String(64))
    prolific_session_id: Mapped[str | None] = mapped_column(String(64))
    study_version: Mapped[int]
    # The kept version it entered under (None: a session older than study_versions whose version was not kept).
    study_version_id: Mapped[int | None] = mapped_column(ForeignKey("study_versions.id"))
    # Between-subjects condition the session was assigned to (None for studies without conditions).
    condition: Mapped[str | None] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="started")
    outcome: Mapped[str | None] = mapped_column(String(32))  # one of OUTCOMES once the session has ended
    # Set by a researcher's exclusion (server/researchers/exclusion.py); the status it had, so reinstating restores it.
    # Who did it is in the audit log (study_events).
    exclusion_reason: Mapped[str | None] = mapped_column(Text)
    excluded_at: Mapped[datetime | None] = mapped_column(Timestamp)
    status_before_exclusion: Mapped[str | None] = mapped_column(String(16))
    started_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    completed_at: Mapped[datetime | None] = mapped_column(Timestamp)
    user_agent: Mapped[str | None] = mapped_column(String(512))
    screen_width: Mapped[int | None]
    screen_height: Mapped[int | None]
    window_width: Mapped[int | None]
    window_height: Mapped[int | None]
    # When the page of a plan-less task (a researcher's jsPsych experiment) said its timeline finished: completion
    # needs it. `flag`: why a completion was refused ("too_few_rows"), for the researchers to look at.
    timeline_finished_at: Mapped[datetime | None] = mapped_column(Timestamp)
    flag: Mapped[str | None] = mapped_column(String(32))
    # What the page of a plan-less task reported (migration 0014): how its timeline ended, the error that stopped the
    # experiment's code, the first replayed row that differed from the stored one, and the entry link's other query
    # parameters (getURLVariable).
    ending: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    experiment_error: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    replay_divergence: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    url_variables: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # The participant's trial list, fixed at entry so a reload resumes the very same list.
    plan: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    # The study's stage when the session started (one of STAGES), and whether a researcher's preview link opened
    # it: a preview is never counted, exported or analysed (`analysable`), and `flask sessions purge-previews`
    # deletes it.
    stage: Mapped[str] = mapped_column(String(8), default="live")
    preview: Mapped[bool] = mapped_column(default=False)
    # HMAC-SHA256 (hex) of the platform id under the deployment's key (issue #26): how a PROLIFIC_PID is found once
    # `identifiers_purged_at` has nulled the raw ids. NULL without one, and for older sessions until filled.
    pid_hmac: Mapped[str | None] = mapped_column(String(64), index=True)
    identifiers_purged_at: Mapped[datetime | None] = mapped_column(Timestamp)
    # A participant's withdrawal: the data is deleted, the row stays as a tombstone (status "withdrawn").
    withdrawn_at: Mapped[datetime | None] = mapped_column(Timestamp)
    # SHA-256 (hex) of the consent text as the page showed it, and the language it was shown in.
    consent_sha256: Mapped[str | None] = mapped_column(String(64))
    consent_language: Mapped[str | None] = mapped_column(String(16))

    study: Mapped[Study] = relationship()


def analysable(stage: str | None = "live", withdrawn: bool = False):
    """The one rule for which sessions count, as a WHERE clause on participant_sessions: never a researcher's
    preview nor a withdrawn participant's tombstone, and with `stage` ("pilot" or "live") only sessions that started
    in that stage (None or "all": either stage). Exports, analyses, quotas and condition occupancy, the cohort summary
    a participant sees, attention-check outcomes, the dashboard, Prolific sync and approval, and the stored results
    all filter through it; what each view adds on top (completed only, not excluded) is that view's own.
    `withdrawn=True` admits the tombstones too: Prolific's records, where a withdrawn participant's submission still
    has its session, and the dashboard's count of withdrawals."""
    clause = ParticipantSession.preview.is_(False)
    if not withdrawn:
        clause = clause & ParticipantSession.withdrawn_at.is_(None)
    if stage not in (None, "all"):
        if stage not in STAGES:
            raise ValueError(f"stage must be one of {', '.join(STAGES)} or 'all', not {stage!r}")
        clause = clause & (ParticipantSession.stage == stage)
    return clause


def analysable_in(study_id: int, stage: str | None = "live"):
    """`analysable(stage)` for one study's sessions: the WHERE clause of the study-wide views (exports, analyses,
    the dashboard)."""
    return (ParticipantSession.study_id == study_id) & analysable(stage)


class DeploymentSecret(db.Model):
    """Per-deployment secrets generated once and shared by every app server (the participant-code key when the
    environment gives none): in the database, never in one container's instance folder."""

    __tablename__ = "deployment_secrets"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class SurveyResponse(db.Model):
    __tablename__ = "survey_responses"
    __table_args__ = (UniqueConstraint("session_id", "name"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("participant_sessions.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    answers: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The survey's form the answers were given under (server/studies/surveys.py `revisions`); None: stored before
    # forms were recorded (migration 0018), so either.
    revision: Mapped[int | None]
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class Trial(db.Model):
    __tablename__ = "trials"
    # Both keys make a save idempotent: a repeat of the same client trial id, or a second answer to the same index.
    __table_args__ = (
        UniqueConstraint("session_id", "trial_index"),
        UniqueConstraint("session_id", "client_trial_id"),
    )
    id: Mapped[int] = mapped_column(BigInteger().with_variant(db.Integer, "sqlite"), primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("participant_sessions.id", ondelete="CASCADE"))
    trial_index: Mapped[int]
    client_trial_id: Mapped[str] = mapped_column(String(64))
    # None for a plan-less row (a researcher's jsPsych experiment): its trial_index is drawn by the server.
    stimulus_id: Mapped[int | None] = mapped_column(ForeignKey("stimuli.id"))
    practice: Mapped[bool]
    response: Mapped[dict[str, Any]] = mapped_column(JSON)
    score: Mapped[dict[str, Any]] = mapped_column(JSON)
    # What the page showed, copied from the session's plan by the server (e.g. options in their shuffled order).
    presented: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    rt_ms: Mapped[int | None]
    client_time: Mapped[datetime | None] = mapped_column(Timestamp)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    # What the page recorded during the trial, sent with its answer (docs/participant-api.md "Interaction
    # records"): a list of {"t": ms since the trial began, "type": …, "target": …, "value": …}; None: none sent,
    # stored as SQL NULL (none_as_null), so `events IS NULL` tells "not recorded" from "recorded nothing" ([]).
    events: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON(none_as_null=True))


# The trial_index of plan-less rows on PostgreSQL (migration 0009; server/participation/trialstore.py says why).
PLAN_LESS_TRIAL_INDEX = Sequence("plan_less_trial_index", data_type=Integer, metadata=db.metadata)


class Asset(db.Model):
    """An imported file (photo, explanation heatmap, sketch), stored once under the SHA-256 of its bytes. Kept in
    the database so an import is all-or-nothing and backups hold everything."""

    __tablename__ = "assets"
    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    mimetype: Mapped[str] = mapped_column(String(64))
    size: Mapped[int]
    data: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class ModelRun(db.Model):
    """One imported set of model predictions: an observer (e.g. vgg19-iid-large), a run, a training condition."""

    __tablename__ = "model_runs"
    __table_args__ = (UniqueConstraint("study_id", "observer", "run", "condition"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"))
    observer: Mapped[str] = mapped_column(String(128))
    run: Mapped[int] = mapped_column(default=0)
    condition: Mapped[str] = mapped_column(String(64), default="")
    unit: Mapped[str] = mapped_column(String(16))  # what the file held: "percent" or "ratio"; stored as percent
    source: Mapped[str | None] = mapped_column(Text)
    n_predictions: Mapped[int] = mapped_column(default=0)
    imported_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    # Per imported file, its "studyhive.modelrun" metadata (unit, chart types, the run manifest) and name; a run
    # merged from per-chart-type files has one entry per file. None for files without it (CSV).
    manifests: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)


class Prediction(db.Model):
    __tablename__ = "predictions"
    run_id: Mapped[int] = mapped_column(ForeignKey("model_runs.id", ondelete="CASCADE"), primary_key=True)
    stimulus_id: Mapped[int] = mapped_column(ForeignKey("stimuli.id"), primary_key=True)
    value: Mapped[float]  # percent, like a human response


class Researcher(db.Model):
    __tablename__ = "researchers"
    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(80), unique=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    # Admins see every study; other researchers only those granted in study_access.
    is_admin: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    # A login's cookie carries the epoch it was made in; raising it (logout, a new password, admin rights taken,
    # the account disabled) ends every session of the account at once (server/researchers/auth.py).
    session_epoch: Mapped[int] = mapped_column(default=0, server_default="0")
    disabled_at: Mapped[datetime | None] = mapped_column(Timestamp)  # set: no login, no session, no API token


class StudyAccess(db.Model):
    __tablename__ = "study_access"
    researcher_id: Mapped[int] = mapped_column(ForeignKey("researchers.id", ondelete="CASCADE"), primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"), primary_key=True)


class ApiToken(db.Model):
    """A researcher's token for scripted exports; only its SHA-256 is stored."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(primary_key=True)
    researcher_id: Mapped[int] = mapped_column(ForeignKey("researchers.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(80))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(Timestamp)


class StudyEvent(db.Model):
    """Audit log of a study's lifecycle (opened, paused, closed…): who and when."""

    __tablename__ = "study_events"
    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"), index=True)
    researcher_id: Mapped[int | None] = mapped_column(ForeignKey("researchers.id", ondelete="SET NULL"))
    action: Mapped[str] = mapped_column(String(32))
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class LabelPrediction(db.Model):
    """A model's ranked label guesses for one sketch (sketch-recognition studies): rank 1 is its top-1 answer, as a
    participant's first guess; `probability` is the class probability when the model gave one."""

    __tablename__ = "label_predictions"
    run_id: Mapped[int] = mapped_column(ForeignKey("model_runs.id", ondelete="CASCADE"), primary_key=True)
    stimulus_id: Mapped[int] = mapped_column(ForeignKey("stimuli.id"), primary_key=True)
    rank: Mapped[int] = mapped_column(primary_key=True)
    label_id: Mapped[str] = mapped_column(String(128))  # a unique id of the study's vocabulary
    probability: Mapped[float | None]


class ProlificSubmission(db.Model):
    """A submission of the study's linked Prolific study as `flask prolific sync` last read it, matched to the
    session by the HMAC of its PROLIFIC_PID (session None: it never reached studyhive). The raw ids are kept until
    `flask data purge-identifiers` nulls them once the submission is settled; the keyed hashes stay, and the sync
    matches Prolific's records by them (server/prolific/submissions.py)."""

    __tablename__ = "prolific_submissions"
    __table_args__ = (UniqueConstraint("study_id", "submission_id"), UniqueConstraint("study_id", "submission_hmac"))
    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"))
    submission_id: Mapped[str | None] = mapped_column(String(64))  # Prolific's id: the study URL's SESSION_ID
    participant_id: Mapped[str | None] = mapped_column(String(64))  # the PROLIFIC_PID
    # identifiers.submission_hmac and identifiers.pid_hmac of the two; NULL only in a row older than them (migration
    # 0016) that no sync or purge has read since.
    submission_hmac: Mapped[str | None] = mapped_column(String(64))
    pid_hmac: Mapped[str | None] = mapped_column(String(64))
    session_id: Mapped[int | None] = mapped_column(
        ForeignKey("participant_sessions.id", ondelete="SET NULL"), index=True
    )
    status: Mapped[str] = mapped_column(String(32))  # Prolific's: ACTIVE, AWAITING REVIEW, RETURNED, …
    study_code: Mapped[str | None] = mapped_column(String(64))  # the completion code the participant gave
    started_at: Mapped[datetime | None] = mapped_column(Timestamp)
    completed_at: Mapped[datetime | None] = mapped_column(Timestamp)
    read_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class BonusBatch(db.Model):
    """A batch of Prolific bonuses (`flask prolific bonus`). Its state is written before every call to Prolific, so
    a batch is paid at most once whatever dies when (server/prolific/bonuses.py); one batch per set of rows."""

    __tablename__ = "bonus_batches"
    __table_args__ = (UniqueConstraint("study_id", "fingerprint"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"))
    fingerprint: Mapped[str] = mapped_column(String(64))  # SHA-256 of its sorted (participant, cents) rows
    source: Mapped[str] = mapped_column(String(256))  # the file or the rule the rows came from
    status: Mapped[str] = mapped_column(String(16), default="creating")  # creating, created, paying, paid, void
    prolific_batch_id: Mapped[str | None] = mapped_column(String(64))
    amount_cents: Mapped[int]
    fees_cents: Mapped[int | None]
    total_cents: Mapped[int | None]
    pay_attempts: Mapped[int] = mapped_column(default=0)
    pay_started_at: Mapped[datetime | None] = mapped_column(Timestamp)  # the last pay call's start
    paid_at: Mapped[datetime | None] = mapped_column(Timestamp)
    researcher_id: Mapped[int | None] = mapped_column(ForeignKey("researchers.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    # When `flask data purge-identifiers` replaced its rows' PROLIFIC_PIDs by their HMACs (a paid batch only).
    identifiers_purged_at: Mapped[datetime | None] = mapped_column(Timestamp)


class BonusBatchRow(db.Model):
    __tablename__ = "bonus_batch_rows"
    batch_id: Mapped[int] = mapped_column(ForeignKey("bonus_batches.id", ondelete="CASCADE"), primary_key=True)
    # The PROLIFIC_PID; once the batch's identifiers are purged (bonus_batches.identifiers_purged_at), its HMAC
    # (identifiers.pid_hmac): the same column, as it is the row's key within the batch.
    participant_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    amount_cents: Mapped[int]
    # The participant's bonus_payments (cents) on Prolific before the batch's first pay call: what a payment of
    # unknown outcome is judged against.
    baseline: Mapped[list[int] | None] = mapped_column(JSON)


class DataGeneration(db.Model):
    """How often the data a study's analysis reads has changed: a counter :func:`bump_generation` raises in the
    same transaction as each such change (a session completing or ending, an exclusion or reinstatement, an import
    of model predictions or stimuli, a sync that changes the study). A stored result computed at an older
    generation is stale. Trial saves do not bump it: an analysis reads completed sessions only, and the save path
    stays one statement. No row: generation 0."""

    __tablename__ = "data_generations"
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"), primary_key=True)
    generation: Mapped[int] = mapped_column(default=0)
    changed_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


_UPSERTS = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}


def bump_generation(study_id: int, connection: Connection | None = None) -> None:
    """Raise the study's data generation by one, in the caller's transaction: the ORM session's, or `connection`'s
    (the participant API's completion opens one for its UPDATE and this). Every change an analysis would see calls
    this; it lives with the models because every area below the results makes such changes. One upsert, so the
    first bump of a study needs no row made beforehand and concurrent bumps never lose a count."""
    dialect = (connection or db.session.get_bind()).dialect.name
    (connection or db.session).execute(_bump(dialect), {"study_id": study_id, "now": utcnow()})


@functools.cache
def _bump(dialect: str, changed=None):
    """bump_generation's statement, built once per dialect: every completion runs it. With `changed`, a statement
    that changes a study's data and RETURNING its `study_id` (PostgreSQL): one statement that runs it and bumps the
    study it returns (a data-modifying WITH), so nothing when it changed nothing; `bumped_with`."""
    table = DataGeneration.__table__
    upsert = _UPSERTS[dialect](table)
    if changed is None:
        insert = upsert.values(study_id=bindparam("study_id"), generation=1, changed_at=bindparam("now"))
    else:
        source = changed.cte("changed")
        # A SELECT list's parameter has no column to take a type from (PostgreSQL would read it as text).
        now = db.cast(bindparam("now"), table.c.changed_at.type)
        insert = upsert.from_select(
            ["study_id", "generation", "changed_at"], db.select(source.c.study_id, db.literal_column("1"), now)
        )
    return insert.on_conflict_do_update(
        index_elements=[table.c.study_id],
        set_={"generation": table.c.generation + 1, "changed_at": insert.excluded.changed_at},
    )


def bumped_with(changed):
    """One PostgreSQL statement (built once per `changed`) that runs `changed`, a statement RETURNING the `study_id`
    of the study whose data it changed, and raises that study's generation as bump_generation does; its row count
    is the bump's, so 1 if `changed` changed a row. It takes `changed`'s parameters and `now`. The participant API's
    end of a session, one round trip on its autocommit connection rather than a transaction of four."""
    return _bump("postgresql", changed)


def current_generation(study_id: int) -> int:
    """The study's data generation now (0 before its first change)."""
    value = db.session.scalar(db.select(DataGeneration.generation).where(DataGeneration.study_id == study_id))
    return value or 0


class Recompute(db.Model):
    """A recompute the results page's button started (server/results/stored.py launch): when, by whom, for which
    stage, and once its process has ended, when and the error it ended with (None: it stored its result). The page
    shows the latest one as running, failed or done."""

    __tablename__ = "recomputes"
    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"), index=True)
    stage: Mapped[str] = mapped_column(String(8))
    researcher_id: Mapped[int | None] = mapped_column(ForeignKey("researchers.id", ondelete="SET NULL"))
    started_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(Timestamp)
    error: Mapped[str | None] = mapped_column(Text)


class StoredResult(db.Model):
    """A study's analysis as `flask analyze SLUG --store` (or the results page's Recompute button) last computed it
    with one set of options: the report's JSON, its HTML, figures and CSV tables, or the problem that stopped it,
    and the data generation it read. The results page and its downloads serve these rows; nothing on a request
    computes an analysis."""

    __tablename__ = "analysis_results"
    __table_args__ = (UniqueConstraint("study_id", "options_key"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"))
    # The options the study's analysis uses, as "name=value;…" (server/results/stored.py options_key), and as JSON.
    options_key: Mapped[str] = mapped_column(String(200))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    generation: Mapped[int]
    computed_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    duration_s: Mapped[float]
    problem: Mapped[str | None] = mapped_column(Text)  # why there is no report (no completed participant, …)
    html: Mapped[str | None] = mapped_column(Text)  # the report's HTML (Report.html), escaped
    figures: Mapped[list[list[str]]] = mapped_column(JSON, default=list)  # [name, base64 PNG] pairs
    outliers: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    table_names: Mapped[list[str]] = mapped_column(JSON, default=list)  # the CSV downloads, in order
    # Large, read only by a download or an API client: loaded when asked for.
    tables: Mapped[dict[str, str]] = mapped_column(JSON, default=dict, deferred=True)  # name -> CSV text
    report: Mapped[dict[str, Any] | None] = mapped_column(JSON, deferred=True)  # Report.json()
