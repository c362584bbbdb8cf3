"""Tidy exports: participants.csv, trials.csv and codebook.csv, written by `flask export` and served to researchers.

A task type with stored rows of its own (PlanLessRows: a researcher's jsPsych experiment) has no fixed trial columns:
trials.csv holds a few generic columns and then every column the rows hold (analysis.jspsych_data: nested values as
JSON text, as jsPsych's own .csv() writes them, and a survey's response object also as one column per question),
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

from sqlalchemy.orm import defer

from analysis.jspsych_data import Codebook, flat_row
from analysis.safe_csv import rows_csv

from ..db import db, snapshot
from ..models import ParticipantSession, ProlificSubmission, Stimulus, Study, SurveyResponse, Trial
from ..studies.surveys import SURVEYS
from ..tasktype.contract import Column, PlanLessRows
from ..tasktype.registry import registry

VERSION_NOTE = (
    "version of the study file the session ran under (`flask studies versions <slug> --show N` prints "
    "that version's configuration)"
)
PARTICIPANT_COLUMNS = (
    Column("participant_id", "studyhive's id for the session (one participant, one study)", "integer"),
    Column("platform", "prolific, labinthewild or direct", "text"),
    Column("prolific_pid", "PROLIFIC_PID from the entry link (Prolific only)", "text"),
    Column("prolific_study_id", "STUDY_ID from the entry link", "text"),
    Column("prolific_session_id", "SESSION_ID from the entry link", "text"),
    Column(
        "status",
        "started, completed, abandoned (ended early: declined consent, failed the browser check, or "
        "returned or timed out on Prolific) or excluded",
        "text",
    ),
    Column(
        "outcome",
        "how the session ended, each with its own Prolific completion code: completed, "
        "failed_attention_check, no_consent or incompatible_device (empty while running)",
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
    Column("completed_at", "completion time, UTC ISO 8601 (empty if not completed)", "datetime"),
    Column("duration_s", "completed_at − started_at in seconds"),
    Column("n_trials", "stored trials (practice included)", "integer"),
    Column("user_agent", "browser user agent at entry", "text"),
    Column("screen_width", "screen width, CSS px", "integer"),
    Column("screen_height", "screen height, CSS px", "integer"),
    Column("window_width", "browser window width at the browser check, CSS px", "integer"),
    Column("window_height", "browser window height at the browser check, CSS px", "integer"),
)

TRIAL_COLUMNS = (
    Column("participant_id", "see participants.csv", "integer"),
    Column("prolific_pid", "PROLIFIC_PID of the participant (Prolific only)", "text"),
    Column("study_version", VERSION_NOTE, "integer"),
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

# Columns written for a study whose task type the code no longer knows: its JSON, unflattened but not lost.
RAW_COLUMNS = (
    Column("stimulus_params", "the stimulus parameters as stored, JSON", "json"),
    Column("response", "the response as stored, JSON", "json"),
    Column("score", "the score as stored, JSON", "json"),
    Column("presented", "what the page showed (e.g. option order) as stored, JSON", "json"),
)

# The generic columns of a study whose rows are its page's own (PlanLessRows), before the rows' columns.
DATA_ROW_COLUMNS = (
    *TRIAL_COLUMNS[:3],
    Column(
        "saved_seq",
        "the server's sequence number of the stored row: a participant's rows were saved in this order (increasing, "
        "not consecutive); the page's own trial_index is its own column and may repeat after a reload",
        "integer",
    ),
    TRIAL_COLUMNS[-2],
    TRIAL_COLUMNS[-1],
)
# A row's own column named like a generic one (an experiment's on_finish adding participant_id) gets this prefix.
CLASH_PREFIX = "jspsych_"
# Kept in each such row but not a column (jsPsych's own rt is): the dashboard's fast-trial flag reads it.
HIDDEN = ("rt_ms",)
CODEBOOK_HEADER = ["file", "column", "type", "levels", "missing", "description"]

# Codebook types whose cells are never text; every other column's entry says how formula-like text is written.
NOT_TEXT = ("integer", "number", "scale", "boolean", "datetime")
FORMULA_NOTE = (
    " Text starting with =, +, -, @, a tab or a carriage return that is not a number is written with a "
    "leading ' so that spreadsheets do not run it as a formula."
)


def _iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    if value.tzinfo is None:  # SQLite drops the zone; everything is stored in UTC
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat()


def _stored_iso(text: str | None) -> str | None:
    """A timestamp read as the database's text, as _iso writes it; the text itself when Python cannot hold the time
    (BC or after 9999 in UTC: the browser's client_time was taken as given before the server refused such times,
    and psycopg cannot load those values at all)."""
    if text is None:
        return None
    try:
        return _iso(datetime.fromisoformat(text))
    except (ValueError, OverflowError):
        return text


def _survey_column(survey: str, field: str) -> str:
    """Demographics keep their plain names (age, gender…); other surveys' fields are prefixed (consent_agreed)."""
    return field if survey == "demographics" else f"{survey}_{field}"


def survey_columns(study: Study) -> tuple[Column, ...]:
    return tuple(
        Column(_survey_column(name, f["name"]), f["label"], f["type"])
        for name in study.config["surveys"]
        for f in SURVEYS[name]["fields"]
    )


def trial_columns(study: Study, session_id: int | None = None) -> tuple[Column, ...]:
    """trials.csv's columns; for a PlanLessRows study, those its rows hold (one session's: the participant page)."""
    task = registry().get(study.task_type)
    if isinstance(task, PlanLessRows):
        return data_columns(data_codebook(study, task, session_id))
    return TRIAL_COLUMNS + (task.trial_columns if task else RAW_COLUMNS)


def _data_row_query(study: Study, session_id: int | None):
    """The stored rows of a PlanLessRows study (they name no stimulus), in the order each participant's were saved."""
    query = (
        db.select(
            Trial.session_id,
            Trial.trial_index,
            Trial.response,
            Trial.rt_ms,
            db.cast(Trial.client_time, db.String).label("client_time"),
            Trial.created_at,
            ParticipantSession.prolific_pid,
            ParticipantSession.study_version,
        )
        .join(ParticipantSession, ParticipantSession.id == Trial.session_id)
        .where(ParticipantSession.study_id == study.id)
        .order_by(Trial.session_id, Trial.trial_index)
        .execution_options(yield_per=2000)
    )
    return query if session_id is None else query.where(Trial.session_id == session_id)


def _unclash(columns: dict[str, Any]) -> dict[str, Any]:
    names = {c.name for c in DATA_ROW_COLUMNS} | set(HIDDEN)
    return {(CLASH_PREFIX + k if k in names else k): v for k, v in columns.items()}


def _data_cells(response: dict[str, Any]) -> dict[str, Any]:
    return _unclash(flat_row(response))


def data_codebook(study: Study, task: PlanLessRows, session_id: int | None = None) -> list[dict[str, Any]]:
    """The codebook entries of a PlanLessRows study's own columns (analysis.jspsych_data.Codebook.entries), read from
    its rows (or one session's), with the descriptions the study gives."""
    book = Codebook().extend(_data_cells(r.response) for r in db.session.execute(_data_row_query(study, session_id)))
    return book.entries(_unclash(task.column_descriptions(study.config["task"])))


def data_columns(entries: list[dict[str, Any]]) -> tuple[Column, ...]:
    """trials.csv's columns for a PlanLessRows study: the generic ones, then those data_codebook found."""
    return DATA_ROW_COLUMNS + tuple(Column(e["column"], e["description"], e["type"]) for e in entries)


def _data_rows(study: Study, session_id: int | None) -> Iterator[dict[str, Any]]:
    for r in db.session.execute(_data_row_query(study, session_id)):
        yield {
            "participant_id": r.session_id,
            "prolific_pid": r.prolific_pid,
            "study_version": r.study_version,
            "saved_seq": r.trial_index,
            "rt_ms": r.rt_ms,
            "client_time": _stored_iso(r.client_time),
            "created_at": _iso(r.created_at),
            **_data_cells(r.response),
        }


def participant_rows(study: Study) -> Iterator[dict[str, Any]]:
    counts = dict(
        db.session.execute(
            db.select(Trial.session_id, db.func.count())
            .join(ParticipantSession)
            .where(ParticipantSession.study_id == study.id)
            .group_by(Trial.session_id)
        ).all()
    )
    answers: dict[int, dict[str, Any]] = {}
    for session_id, name, values, created_at in db.session.execute(
        db.select(SurveyResponse.session_id, SurveyResponse.name, SurveyResponse.answers, SurveyResponse.created_at)
        .join(ParticipantSession)
        .where(ParticipantSession.study_id == study.id)
    ):
        person = answers.setdefault(session_id, {})
        person.update({_survey_column(name, k): v for k, v in values.items()})
        if name == "consent":  # stored only when given (server/studies/surveys.py)
            person["consented_at"] = _iso(created_at)
    prolific_status = dict(
        db.session.execute(
            db.select(ProlificSubmission.session_id, ProlificSubmission.status)
            .where(ProlificSubmission.study_id == study.id, ProlificSubmission.session_id.is_not(None))
            .order_by(ProlificSubmission.started_at.nulls_first(), ProlificSubmission.id)
        ).all()
    )  # the latest wins
    for s in db.session.scalars(
        db.select(ParticipantSession).filter_by(study_id=study.id).order_by(ParticipantSession.id)
    ):
        duration = (s.completed_at - s.started_at).total_seconds() if s.completed_at else None
        yield {
            "participant_id": s.id,
            "platform": s.platform,
            "prolific_pid": s.prolific_pid,
            "prolific_study_id": s.prolific_study_id,
            "prolific_session_id": s.prolific_session_id,
            "status": s.status,
            "outcome": s.outcome,
            "exclusion_reason": s.exclusion_reason,
            "excluded_at": _iso(s.excluded_at),
            "prolific_status": prolific_status.get(s.id),
            "study_version": s.study_version,
            "condition": s.condition,
            "started_at": _iso(s.started_at),
            "completed_at": _iso(s.completed_at),
            "duration_s": duration,
            "n_trials": counts.get(s.id, 0),
            "user_agent": s.user_agent,
            "screen_width": s.screen_width,
            "screen_height": s.screen_height,
            "window_width": s.window_width,
            "window_height": s.window_height,
            **answers.get(s.id, {}),
        }


def trial_rows(study: Study, session_id: int | None = None) -> Iterator[dict[str, Any]]:
    """Every trial of the study (or of one of its sessions: the dashboard's participant page) as an export row."""
    task = registry().get(study.task_type)
    if isinstance(task, PlanLessRows):
        yield from _data_rows(study, session_id)
        return
    # client_time is read as text: rows stored before the server checked it may hold times psycopg cannot load.
    query = (
        db.select(
            Trial,
            db.cast(Trial.client_time, db.String),
            ParticipantSession.prolific_pid,
            ParticipantSession.study_version,
            Stimulus.key,
            Stimulus.params,
        )
        .options(defer(Trial.client_time))
        .join(ParticipantSession, ParticipantSession.id == Trial.session_id)
        .join(Stimulus, Stimulus.id == Trial.stimulus_id)
        .where(ParticipantSession.study_id == study.id)
        .order_by(Trial.session_id, Trial.trial_index)
        .execution_options(yield_per=2000)
    )
    if session_id is not None:
        query = query.where(Trial.session_id == session_id)
    for trial, client_time, pid, version, key, params in db.session.execute(query):
        row = {
            "participant_id": trial.session_id,
            "prolific_pid": pid,
            "study_version": version,
            "trial_index": trial.trial_index,
            "practice": trial.practice,
            "stimulus_id": key,
            "rt_ms": trial.rt_ms,
            "client_time": _stored_iso(client_time),
            "created_at": _iso(trial.created_at),
        }
        if task:
            row.update(task.trial_row(params, trial.response, trial.score, trial.presented))
        else:
            row.update(
                stimulus_params=json.dumps(params),
                response=json.dumps(trial.response),
                score=json.dumps(trial.score),
                presented=json.dumps(trial.presented),
            )
        yield row


def _entry(file: str, c: Column) -> dict[str, Any]:
    return {
        "file": file,
        "column": c.name,
        "type": c.dtype,
        "description": c.description + ("" if c.dtype in NOT_TEXT else FORMULA_NOTE),
    }


def codebook_rows(study: Study, data_entries: list[dict[str, Any]] | None = None) -> Iterator[dict[str, Any]]:
    """The codebook; `data_entries` (data_codebook's) describe a PlanLessRows study's own trial columns."""
    for c in PARTICIPANT_COLUMNS + survey_columns(study):
        yield _entry("participants.csv", c)
    if data_entries is None:
        for c in trial_columns(study):
            yield _entry("trials.csv", c)
        return
    inferred = {e["column"]: e for e in data_entries}
    for c in data_columns(data_entries):
        e = inferred.get(c.name, {})
        yield {**_entry("trials.csv", c), "levels": e.get("levels"), "missing": e.get("missing")}


ExportFile = Callable[[], tuple[list[str], Iterator[dict[str, Any]]]]


def export_files(study: Study) -> dict[str, ExportFile]:
    """file name → a function giving (header, rows) of that export file, called inside the caller's snapshot. The
    data columns of a PlanLessRows study are read once, by the first file that needs them."""
    task = registry().get(study.task_type)
    entries = functools.cache(lambda: data_codebook(study, task) if isinstance(task, PlanLessRows) else None)

    def trials():
        columns = trial_columns(study) if entries() is None else data_columns(entries())
        return [c.name for c in columns], trial_rows(study)

    return {
        "participants.csv": lambda: (
            [c.name for c in PARTICIPANT_COLUMNS + survey_columns(study)],
            participant_rows(study),
        ),
        "trials.csv": trials,
        "codebook.csv": lambda: (CODEBOOK_HEADER, codebook_rows(study, entries())),
    }


def snapshot_csv(study: Study, name: str) -> Iterator[str]:
    """One export file as CSV chunks, read in its own snapshot (for a streamed download)."""
    with snapshot():
        header, rows = export_files(study)[name]()
        yield from rows_csv(header, rows)


def write_export(study: Study, out_dir: Path) -> list[tuple[Path, int]]:
    """Write every export file of the study into `out_dir`, from one snapshot; (path, data rows) per file."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    with snapshot():  # the three files describe one moment of a running study
        for name, make in export_files(study).items():
            header, rows = make()
            counter = itertools.count()
            with open(out_dir / name, "w", newline="", encoding="utf-8") as fh:
                fh.writelines(rows_csv(header, (row for row, _ in zip(rows, counter))))
            written.append((out_dir / name, next(counter)))
    return written
