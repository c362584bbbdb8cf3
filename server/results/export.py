"""Tidy exports: participants.csv, trials.csv, events.csv and codebook.csv, written by `flask export` and served to
researchers; with identifiers (an audited choice of the caller) also identifiers.csv.

The files are pseudonymous: a participant is named by `participant_code` (server/identifiers.py) beside studyhive's
numeric `participant_id`, which says nothing about the person; the raw platform ids (PROLIFIC_PID, STUDY_ID,
SESSION_ID) and the full User-Agent appear only in identifiers.csv, and participants.csv has the User-Agent reduced
to browser and OS families with their major versions.

Every task type's files are made the same way, its hooks (server/tasktype/contract.py) saying what is its own: the
generic trials.csv cells it fills (`generic_trial_cells`), the cells a stored trial adds (`trial_cells`) and their
codebook entries (`describe_trials`), the columns it adds to participants.csv (`session_columns`). A type whose page
records rows of its own (a researcher's jsPsych experiment) has no fixed trial columns: trials.csv holds a few
generic columns and then every column the rows hold (analysis.jspsych_data: nested values as JSON text and booleans
as true/false, as jsPsych's own .csv() writes them, and a survey's response object also as one column per question),
and the codebook gives each one's inferred type, levels and missing count, read in a first pass over the rows.

Rows stream from the database (no whole-table lists), and each export reads one snapshot (server.db.snapshot) so the
files agree with each other and with the analysis. They are written by analysis.safe_csv, the writer of every CSV
people open in a spreadsheet: text a spreadsheet would run as a formula gets a leading ' (the codebook says so)."""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from analysis.safe_csv import rows_csv

from .. import identifiers
from ..db import db, snapshot
from ..models import ParticipantSession, ProlificSubmission, Stimulus, Study, SurveyResponse, Trial, analysable_in
from ..studies.surveys import SURVEYS, stored_value
from ..tasktype.contract import Column, StoredTrial, TaskType
from ..tasktype.events import EVENT_TYPES
from ..tasktype.registry import registry
from . import quality

VERSION_NOTE = (
    "version of the study file the session ran under (`flask studies versions <slug> --show N` prints "
    "that version's configuration)"
)
STAGE_NOTE = (
    "the study's stage when the session started: pilot (trying the study out) or live (`flask studies stage`; "
    'docs/researchers.md "Stages"); researchers\' previews are never exported'
)
CODE = Column(
    "participant_code",
    "the participant's pseudonymous code: 16 hex digits of a keyed hash (HMAC-SHA256) of their Prolific id, or of "
    "the session without one; the same person has the same code in every study of this deployment, and only the "
    "deployment's key links it back to a Prolific id",
    "text",
)
STUDY_CODE = Column(
    "participant_code",
    "the participant's pseudonymous code in this study: 16 hex digits of a keyed hash (HMAC-SHA256) of their Prolific "
    "id, or of the session without one, and of the study; the same person has another code in every other study, "
    "and only the deployment's key links it back to a Prolific id",
    "text",
)
PARTICIPANT_COLUMNS = (
    Column("participant_id", "studyhive's number for the session (one participant, one study)", "integer"),
    CODE,
    Column("stage", STAGE_NOTE, "text"),
    Column("platform", "prolific, labinthewild or direct", "text"),
    Column(
        "status",
        "started, completed, abandoned (ended early: declined consent, failed the browser check, or "
        "returned or timed out on Prolific) or excluded",
        "text",
    ),
    Column(
        "outcome",
        "how the session ended, each with its own Prolific completion code: completed, "
        "failed_attention_check, no_consent, incompatible_device, or for a researcher's own jsPsych experiment "
        "ended_early (it ended itself early in a way study.toml's [[task.endings]] do not map to another outcome) "
        "or experiment_error (empty while running)",
        "text",
    ),
    Column(
        "exclusion_reason",
        "why a researcher excluded the session (status excluded; empty otherwise); who did "
        "it is in the study's audit log",
        "text",
    ),
    Column("excluded_at", "when it was excluded, UTC ISO 8601", "datetime"),
    Column(
        "prolific_status",
        "the Prolific submission's status at the last `flask prolific sync` (AWAITING REVIEW, "
        "APPROVED, RETURNED, …; empty if none was read)",
        "text",
    ),
    Column("study_version", VERSION_NOTE, "integer"),
    Column("condition", "between-subjects condition assigned at entry (empty without conditions)", "text"),
    Column("started_at", "entry time, UTC ISO 8601", "datetime"),
    Column(
        "consented_at",
        "when the participant gave consent, UTC ISO 8601 (empty if the study asks none or it was not given)",
        "datetime",
    ),
    Column(
        "consent_sha256",
        "SHA-256 (hex) of the consent page's HTML as the participant was shown it (its UTF-8 bytes: the study file's "
        "`consent` of the version the session entered under), recorded when consent was given",
        "text",
    ),
    Column("consent_language", "the language the consent page was shown in (en)", "text"),
    Column("completed_at", "completion time, UTC ISO 8601 (empty if not completed)", "datetime"),
    Column("duration_s", "completed_at − started_at in seconds"),
    Column("n_trials", "stored trials (practice included)", "integer"),
    Column(
        "user_agent",
        'the browser at entry, reduced to browser and OS with their major versions ("Chrome 120 / Windows 10"; '
        "Other: not recognised); the full User-Agent is in identifiers.csv only",
        "text",
    ),
    Column("screen_width", "screen width, CSS px", "integer"),
    Column("screen_height", "screen height, CSS px", "integer"),
    Column("window_width", "browser window width at the browser check, CSS px", "integer"),
    Column("window_height", "browser window height at the browser check, CSS px", "integer"),
)
TRIAL_COLUMNS = (
    Column("participant_id", "see participants.csv", "integer"),
    Column("participant_code", "see participants.csv", "text"),
    Column("study_version", VERSION_NOTE, "integer"),
    Column("stage", "see participants.csv", "text"),
    Column("trial_index", "position in the participant's trial list, from 0 (practice first)", "integer"),
    Column("practice", "true for practice trials (with feedback), false for test trials", "boolean"),
    Column("stimulus_id", "the stimulus shown; the same id names the image given to models", "text"),
    Column("rt_ms", "time from display to answer, milliseconds, measured in the browser", "integer"),
    Column(
        "client_time",
        "when the browser finished the trial, UTC ISO 8601 (a time outside years 1–9999 in UTC, "
        "stored before the server refused such times, as the database holds it)",
        "datetime",
    ),
    Column("created_at", "when the server stored the trial, UTC ISO 8601", "datetime"),
)

# events.csv: one row per interaction record of a trial (server/tasktype/events.py), in the order the page recorded
# them. A trial whose page sent none (trials.events NULL) has no rows here, nor does one that recorded nothing.
EVENT_COLUMNS = (
    *TRIAL_COLUMNS[:2],
    Column("stage", "the study's stage when the session started: pilot or live", "text"),
    Column(
        "trial_index",
        "the trial's trial_index in trials.csv (for a researcher's jsPsych experiment: its saved_seq)",
        "integer",
    ),
    next(c for c in TRIAL_COLUMNS if c.name == "stimulus_id"),  # by name: the columns before it grow
    Column("event_index", "position of the event in the trial's record, from 0", "integer"),
    Column(
        "t_ms",
        "milliseconds from the start of the trial (before its stimulus loaded, so it can exceed rt_ms) to the event",
        "integer",
    ),
    Column(
        "type",
        f'what happened: {", ".join(EVENT_TYPES)} (docs/participant-api.md, "Interaction records"); time away '
        "from the tab is the sum of visible.t_ms − hidden.t_ms over a trial's hidden→visible pairs, a last hidden "
        "without a visible counting until rt_ms",
        "text",
    ),
    Column("target", "which field the event concerns (percent, rating, guess1, …), empty for window events", "text"),
    Column(
        "value",
        "the field's new value, the key's name (key), the picked label's id (pick), the window's size (resize), "
        "or how many events the page dropped (truncated)",
        "text",
    ),
)

# identifiers.csv: what links a participant_code to a person, written only when the caller asks for it (audited).
IDENTIFIER_COLUMNS = (
    Column("participant_code", "see participants.csv", "text"),
    Column("participant_id", "see participants.csv", "integer"),
    Column("prolific_pid", "PROLIFIC_PID from the entry link (Prolific only; empty once purged)", "text"),
    Column("prolific_study_id", "STUDY_ID from the entry link (empty once purged)", "text"),
    Column("prolific_session_id", "SESSION_ID from the entry link (empty once purged)", "text"),
    Column(
        "user_agent",
        "the browser's full User-Agent at entry (once purged, only the reduced form participants.csv shows)",
        "text",
    ),
    Column("identifiers_purged_at", "when `flask data purge-identifiers` nulled the ids, UTC ISO 8601", "datetime"),
)

# Columns written for a study whose task type the code no longer knows: its JSON, unflattened but not lost.
RAW_COLUMNS = (
    Column("stimulus_params", "the stimulus parameters as stored, JSON", "json"),
    Column("response", "the response as stored, JSON", "json"),
    Column("score", "the score as stored, JSON", "json"),
    Column("presented", "what the page showed (e.g. option order) as stored, JSON", "json"),
)

# Every generic trials.csv column, by name: a task type's `generic_trial_cells` pick theirs.
GENERIC_TRIAL_COLUMNS = {
    c.name: c
    for c in (
        *TRIAL_COLUMNS,
        Column(
            "saved_seq",
            "the server's sequence number of the stored row: a participant's rows were saved in this order "
            "(increasing, not consecutive); the page's own trial_index is its own column and may repeat after a "
            "reload",
            "integer",
        ),
    )
}
# A row's own cell named like a generic one (an experiment's on_finish adding participant_id) gets this prefix.
CLASH_PREFIX = "jspsych_"
CODEBOOK_HEADER = ["file", "column", "type", "levels", "missing", "description"]

# Codebook types whose cells are never text; every other column's entry says how formula-like text is written.
NOT_TEXT = ("integer", "number", "scale", "boolean", "datetime")
FORMULA_NOTE = (
    " Text starting with =, +, -, @, a tab or a carriage return that is not a number is written with a "
    "leading ' so that spreadsheets do not run it as a formula."
)


def iso_utc(value: datetime | None) -> str | None:
    if value is None:
        return None
    if value.tzinfo is None:  # SQLite drops the zone; everything is stored in UTC
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat()


def _stored_iso(text: str | None) -> str | None:
    """A timestamp read as the database's text, as iso_utc writes it; the text itself when Python cannot hold the time
    (BC or after 9999 in UTC: the browser's client_time was taken as given before the server refused such times,
    and psycopg cannot load those values at all)."""
    if text is None:
        return None
    try:
        return iso_utc(datetime.fromisoformat(text))
    except (ValueError, OverflowError):
        return text


# What a session's participant_code is made from (identifiers.participant_code's arguments).
CODE_SOURCES = (ParticipantSession.pid_hmac, ParticipantSession.prolific_pid, ParticipantSession.token)


def _coder(study: Study, study_codes: bool) -> Callable[[str | None, str | None, str], str]:
    """identifiers.participant_code computed once per session of an export (its rows come session by session);
    `study_codes`: the study's own codes (a data package's), else the deployment's."""
    return functools.lru_cache(maxsize=64)(
        functools.partial(identifiers.participant_code, study_id=study.id if study_codes else None)
    )


def _user_agent(s: ParticipantSession) -> str | None:
    # A purged session stores the reduced form already (server/participation/sessions.py purge_identifiers).
    return s.user_agent if s.identifiers_purged_at else identifiers.reduced_user_agent(s.user_agent)


def survey_column(survey: str, field: str) -> str:
    """Demographics keep their plain names (age, gender…); other surveys' fields are prefixed (consent_agreed)."""
    return field if survey == "demographics" else f"{survey}_{field}"


def survey_columns(study: Study) -> tuple[Column, ...]:
    """Each survey's fields, then for a survey whose questions changed (`revisions`) the form its answers were given
    under."""
    return tuple(
        column
        for name in study.config["surveys"]
        for column in (
            *(Column(survey_column(name, f["name"]), f["label"], f["type"]) for f in SURVEYS[name]["fields"]),
            *([_revision_column(name)] if "revisions" in SURVEYS[name] else []),
        )
    )


def _revision_column(name: str) -> Column:
    forms = "; ".join(f"{n} {text}" for n, text in enumerate(SURVEYS[name]["revisions"], start=1))
    return Column(
        revision_column(name),
        f"the form of the {name} questions the answers were given under: {forms}; empty if not answered, or "
        "answered before the form was recorded (under any of them)",
        "integer",
    )


def revision_column(survey: str) -> str:
    """participants.csv's column of the form survey `survey`'s answers were given under (a survey with `revisions`)."""
    return f"{survey}_revision"


def participant_columns(study: Study, study_codes: bool = False) -> tuple[Column, ...]:
    """participants.csv's columns: the generic ones, the task type's own (`session_columns`), the data-quality flags
    (server/results/quality.py), then the surveys'. `study_codes`: participant_code is the study's own (`_coder`)."""
    generic = tuple(STUDY_CODE if study_codes and c is CODE else c for c in PARTICIPANT_COLUMNS)
    task = registry().get(study.task_type)
    own = task.session_columns if task else ()
    return generic + own + quality.columns(study) + survey_columns(study)


def trial_columns(study: Study, session_id: int | None = None, stage: str | None = None, study_codes: bool = False):
    """trials.csv's columns: the generic ones the task type fills, then its own (`describe_trials`: for a type
    whose columns come from its rows, those of the study's rows of `stage`, or of one session's: the participant
    page). `study_codes`: the codes a row's markers are written as (`_coder`), which a column's name may hold."""
    return columns_of(study, trial_entries(study, session_id, stage, study_codes))


def trial_entries(
    study: Study, session_id: int | None = None, stage: str | None = None, study_codes: bool = False
) -> list[dict[str, Any]]:
    """The codebook entries of the task type's own trials.csv columns (`TaskType.describe_trials`), each row's
    cells read again when it asks for them; the raw JSON columns of a type the code no longer knows."""
    task = registry().get(study.task_type)
    if task is None:
        return [{"column": c.name, "type": c.dtype, "description": c.description} for c in RAW_COLUMNS]
    cells = functools.partial(_own_cells, study, task, session_id, stage, study_codes)
    return task.describe_trials(cells, _unclash(task, task.column_descriptions(study.config["task"])))


def columns_of(study: Study, entries: list[dict[str, Any]]) -> tuple[Column, ...]:
    """trials.csv's columns: the generic ones the study's task type fills, then those of `entries`."""
    task = registry().get(study.task_type) or TaskType
    generic = tuple(GENERIC_TRIAL_COLUMNS[name] for name in _shown(task))
    return generic + tuple(Column(e["column"], e["description"], e["type"]) for e in entries)


def _shown(task: TaskType | type[TaskType]) -> tuple[str, ...]:
    return tuple(name for name in task.generic_trial_cells if name not in task.hidden_trial_cells)


def _asked_for(study: Study, session_id: int | None, stage: str | None):
    """The sessions a trial export reads: the study's analysable ones of `stage`, or the one session asked for by
    id (a researcher's participant page or a preview's own row), whatever its stage or kind."""
    if session_id is None:
        return analysable_in(study.id, stage)
    return (ParticipantSession.study_id == study.id) & (ParticipantSession.id == session_id)


def _trial_query(study: Study, session_id: int | None, stage: str | None):
    """The stored trials of the study's sessions asked for (`_asked_for`) with their stimuli (none for a type whose
    rows name none), in each session's order. client_time is read as text: rows stored before the server checked it
    may hold times psycopg cannot load."""
    query = (
        db.select(
            Trial.session_id,
            Trial.trial_index,
            Trial.practice,
            Trial.response,
            Trial.score,
            Trial.presented,
            Trial.rt_ms,
            db.cast(Trial.client_time, db.String).label("client_time"),
            Trial.created_at,
            *CODE_SOURCES,
            ParticipantSession.study_version,
            ParticipantSession.stage,
            Stimulus.key,
            Stimulus.params,
        )
        .join(ParticipantSession, ParticipantSession.id == Trial.session_id)
        .outerjoin(Stimulus, Stimulus.id == Trial.stimulus_id)
        .where(_asked_for(study, session_id, stage))
        .order_by(Trial.session_id, Trial.trial_index)
        .execution_options(yield_per=2000)
    )
    return query if session_id is None else query.where(Trial.session_id == session_id)


def _unclash(task: TaskType, columns: dict[str, Any]) -> dict[str, Any]:
    """A type's own cells (or descriptions) by name, one named like a generic cell of its rows prefixed."""
    names = task.generic_trial_cells
    return {(CLASH_PREFIX + k if k in names else k): v for k, v in columns.items()}


def _cells(task: TaskType | None, r, participant_code: str) -> dict[str, Any]:
    """The cells a stored trial adds after the generic ones: its task type's, or its JSON as stored."""
    if task is None:
        return {
            "stimulus_params": json.dumps(r.params),
            "response": json.dumps(r.response),
            "score": json.dumps(r.score),
            "presented": json.dumps(r.presented),
        }
    trial = StoredTrial(participant_code, r.params, r.response, r.score, r.presented)
    return _unclash(task, task.trial_cells(trial))


def _own_cells(
    study: Study, task: TaskType, session_id: int | None, stage: str | None, study_codes: bool
) -> Iterator[dict[str, Any]]:
    """Every asked-for trial's own cells (`_cells`), for a codebook that profiles them."""
    code = _coder(study, study_codes)
    for r in db.session.execute(_trial_query(study, session_id, stage)):
        yield _cells(task, r, code(r.pid_hmac, r.prolific_pid, r.token))


def participant_rows(study: Study, stage: str | None = None, study_codes: bool = False) -> Iterator[dict[str, Any]]:
    """participants.csv's rows: the study's sessions of `stage` (None or "all": both), never a preview;
    `study_codes`: the study's own participant codes (`_coder`)."""
    code = _coder(study, study_codes)
    counts = dict(
        db.session.execute(
            db.select(Trial.session_id, db.func.count())
            .join(ParticipantSession)
            .where(analysable_in(study.id, stage))
            .group_by(Trial.session_id)
        ).all()
    )
    answers: dict[int, dict[str, Any]] = {}
    for session_id, name, values, form, created_at in db.session.execute(
        db.select(
            SurveyResponse.session_id,
            SurveyResponse.name,
            SurveyResponse.answers,
            SurveyResponse.revision,
            SurveyResponse.created_at,
        )
        .join(ParticipantSession)
        .where(analysable_in(study.id, stage))
    ):
        person = answers.setdefault(session_id, {})
        person.update({survey_column(name, k): stored_value(name, k, v) for k, v in values.items()})
        if "revisions" in SURVEYS.get(name, {}):  # None (stored before forms were recorded) kept as such
            person[revision_column(name)] = form
        if name == "consent":  # stored only when given (server/studies/surveys.py)
            person["consented_at"] = iso_utc(created_at)
    prolific_status = dict(
        db.session.execute(
            db.select(ProlificSubmission.session_id, ProlificSubmission.status)
            .where(ProlificSubmission.study_id == study.id, ProlificSubmission.session_id.is_not(None))
            .order_by(ProlificSubmission.started_at.nulls_first(), ProlificSubmission.id)
        ).all()
    )  # the latest wins
    per = quality.per_session(study, stage)
    none = quality.empty(study)
    task = registry().get(study.task_type)
    dated = [c.name for c in task.session_columns if c.dtype == "datetime"] if task else []
    for s in db.session.scalars(
        db.select(ParticipantSession).where(analysable_in(study.id, stage)).order_by(ParticipantSession.id)
    ):
        duration = (s.completed_at - s.started_at).total_seconds() if s.completed_at else None
        yield {
            "participant_id": s.id,
            "participant_code": code(s.pid_hmac, s.prolific_pid, s.token),
            "stage": s.stage,
            "platform": s.platform,
            "status": s.status,
            "outcome": s.outcome,
            "exclusion_reason": s.exclusion_reason,
            "excluded_at": iso_utc(s.excluded_at),
            "prolific_status": prolific_status.get(s.id),
            "study_version": s.study_version,
            "condition": s.condition,
            "started_at": iso_utc(s.started_at),
            "consent_sha256": s.consent_sha256,
            "consent_language": s.consent_language,
            "completed_at": iso_utc(s.completed_at),
            "duration_s": duration,
            "n_trials": counts.get(s.id, 0),
            "user_agent": _user_agent(s),
            "screen_width": s.screen_width,
            "screen_height": s.screen_height,
            "window_width": s.window_width,
            "window_height": s.window_height,
            **_session_cells(task, s, dated),
            **quality.cells(study, per.get(s.id, none)),
            **answers.get(s.id, {}),
        }


def _session_cells(task: TaskType | None, s: ParticipantSession, dated: list[str]) -> dict[str, Any]:
    """The task type's participants.csv cells of a session, its datetime ones as iso_utc writes them."""
    cells = task.session_cells(s) if task else {}
    return cells | {name: _stored_iso(cells[name]) for name in dated if name in cells}


def trial_rows(
    study: Study, session_id: int | None = None, stage: str | None = None, study_codes: bool = False
) -> Iterator[dict[str, Any]]:
    """Every trial of the study's sessions of `stage` (None or "all": both; never a preview), or of one of its
    sessions (the dashboard's participant page), as an export row: the generic cells its task type fills
    (`generic_trial_cells`), then its own (`trial_cells`); `study_codes`: the study's own participant codes
    (`_coder`)."""
    task = registry().get(study.task_type)
    names = (task or TaskType).generic_trial_cells
    code = _coder(study, study_codes)
    for r in db.session.execute(_trial_query(study, session_id, stage)):
        participant_code = code(r.pid_hmac, r.prolific_pid, r.token)
        generic = {
            "participant_id": r.session_id,
            "participant_code": participant_code,
            "study_version": r.study_version,
            "stage": r.stage,
            "trial_index": r.trial_index,
            "saved_seq": r.trial_index,
            "practice": r.practice,
            "stimulus_id": r.key,
            "rt_ms": r.rt_ms,
            "client_time": _stored_iso(r.client_time),
            "created_at": iso_utc(r.created_at),
        }
        yield {name: generic[name] for name in names} | _cells(task, r, participant_code)


def event_rows(study: Study, stage: str | None = None, study_codes: bool = False) -> Iterator[dict[str, Any]]:
    """Every interaction record of the trials of the study's sessions of `stage` (None or "all": both), one row
    each; previews never (models.analysable); `study_codes`: the study's own participant codes (`_coder`)."""
    query = (
        db.select(
            Trial.session_id, *CODE_SOURCES, Trial.trial_index, Trial.events, ParticipantSession.stage, Stimulus.key
        )
        .join(ParticipantSession, ParticipantSession.id == Trial.session_id)
        .outerjoin(Stimulus, Stimulus.id == Trial.stimulus_id)  # a jsPsych experiment's rows name no stimulus
        .where(analysable_in(study.id, stage), Trial.events.is_not(None))
        .order_by(Trial.session_id, Trial.trial_index)
        .execution_options(yield_per=2000)
    )
    code = _coder(study, study_codes)
    for session_id, hmac, pid, token, trial_index, events, stage, key in db.session.execute(query):
        for n, event in enumerate(events):
            yield {
                "participant_id": session_id,
                "participant_code": code(hmac, pid, token),
                "stage": stage,
                "trial_index": trial_index,
                "stimulus_id": key,
                "event_index": n,
                "t_ms": event["t"],
                "type": event["type"],
                "target": event["target"],
                "value": event["value"],
            }


def identifier_rows(study: Study, stage: str | None = None) -> Iterator[dict[str, Any]]:
    """identifiers.csv's rows: each session of `stage` (None or "all": both; never a preview) with its raw ids."""
    for s in db.session.scalars(
        db.select(ParticipantSession).where(analysable_in(study.id, stage)).order_by(ParticipantSession.id)
    ):
        yield {
            "participant_code": identifiers.participant_code(s.pid_hmac, s.prolific_pid, s.token),
            "participant_id": s.id,
            "prolific_pid": s.prolific_pid,
            "prolific_study_id": s.prolific_study_id,
            "prolific_session_id": s.prolific_session_id,
            "user_agent": s.user_agent,
            "identifiers_purged_at": iso_utc(s.identifiers_purged_at),
        }


def _entry(file: str, c: Column) -> dict[str, Any]:
    return {
        "file": file,
        "column": c.name,
        "type": c.dtype,
        "description": c.description + ("" if c.dtype in NOT_TEXT else FORMULA_NOTE),
    }


def codebook_rows(
    study: Study,
    entries: list[dict[str, Any]],
    with_identifiers: bool = False,
    study_codes: bool = False,
) -> Iterator[dict[str, Any]]:
    """The codebook; `entries` (trial_entries') describe the task type's own trial columns, with levels and
    missing counts where its type inferred them; `with_identifiers`: identifiers.csv's columns too; `study_codes`:
    participant_code is the study's own."""
    for c in participant_columns(study, study_codes):
        yield _entry("participants.csv", c)
    inferred = {e["column"]: e for e in entries}
    for c in columns_of(study, entries):
        e = inferred.get(c.name, {})
        yield {**_entry("trials.csv", c), "levels": e.get("levels"), "missing": e.get("missing")}
    for c in EVENT_COLUMNS:
        yield _entry("events.csv", c)
    if with_identifiers:
        for c in IDENTIFIER_COLUMNS:
            yield _entry(IDENTIFIERS, c)


ExportFile = Callable[[], tuple[list[str], Iterator[dict[str, Any]]]]
IDENTIFIERS = "identifiers.csv"


def export_files(
    study: Study, stage: str | None = None, with_identifiers: bool = False, study_codes: bool = False
) -> dict[str, ExportFile]:
    """file name → a function giving (header, rows) of that export file of the sessions of `stage` (None or "all":
    both), called inside the caller's snapshot; identifiers.csv only `with_identifiers` (the caller audits that).
    `study_codes`: participants are named by the study's own codes (a data package; never with identifiers.csv,
    which links the deployment's codes). The task type's trial columns are described once (`trial_entries`: a
    type whose columns come from its rows reads them for it), by the first file that needs them."""
    if with_identifiers and study_codes:
        raise ValueError("identifiers.csv links the deployment's participant codes, not a study's own")
    task = registry().get(study.task_type)
    entries = functools.cache(lambda: trial_entries(study, stage=stage, study_codes=study_codes))

    def trials():
        rows = trial_rows(study, stage=stage, study_codes=study_codes)
        return [c.name for c in columns_of(study, entries())], map(task.csv_cells, rows) if task else rows

    files = {
        "participants.csv": lambda: (
            [c.name for c in participant_columns(study)],
            participant_rows(study, stage, study_codes),
        ),
        "trials.csv": trials,
        "events.csv": lambda: ([c.name for c in EVENT_COLUMNS], event_rows(study, stage, study_codes)),
        "codebook.csv": lambda: (CODEBOOK_HEADER, codebook_rows(study, entries(), with_identifiers, study_codes)),
    }
    if with_identifiers:
        files[IDENTIFIERS] = lambda: ([c.name for c in IDENTIFIER_COLUMNS], identifier_rows(study, stage))
    return files


def snapshot_csv(study: Study, name: str, stage: str | None = None) -> Iterator[str]:
    """One export file as CSV chunks (identifiers.csv too: the caller has audited asking for it), read in its own
    snapshot (for a streamed download)."""
    identifiers.key()  # before the snapshot: the key's first use writes it, on a connection of its own
    with snapshot():
        header, rows = export_files(study, stage, with_identifiers=name == IDENTIFIERS)[name]()
        yield from rows_csv(header, rows)


def write_export(
    study: Study, out_dir: Path, stage: str | None = None, with_identifiers: bool = False
) -> list[tuple[Path, int]]:
    """Write every export file of the study's sessions of `stage` (None or "all": both) into `out_dir`, from one
    snapshot; (path, data rows) per file. `with_identifiers`: identifiers.csv too (the caller audits that)."""
    identifiers.key()  # before the snapshot: the key's first use writes it, on a connection of its own
    with snapshot():  # the files describe one moment of a running study
        return write_files(study, out_dir, stage, with_identifiers)


def write_files(
    study: Study, out_dir: Path, stage: str | None = None, with_identifiers: bool = False, study_codes: bool = False
) -> list[tuple[Path, int]]:
    """write_export inside the caller's snapshot (the data package reads more from the same moment, and names
    participants by the study's own codes: `export_files`)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    if not with_identifiers:  # one left by an earlier export with identifiers would make this folder identifying
        (out_dir / IDENTIFIERS).unlink(missing_ok=True)
    written = []
    for name, make in export_files(study, stage, with_identifiers, study_codes).items():
        header, rows = make()
        counter = itertools.count()
        with open(out_dir / name, "w", newline="", encoding="utf-8") as fh:
            fh.writelines(rows_csv(header, (row for row, _ in zip(rows, counter))))
        written.append((out_dir / name, next(counter)))
    return written
