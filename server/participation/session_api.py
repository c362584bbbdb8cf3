"""The participant API's operations (server/web/api.py) on the cached Core path: state for the page, environment,
survey and trial saves, the results summary, completion and early ends. Each works on one autocommit connection and
the session's cached facts (server/participation/trialstore.py says why), and answers bad input with an APIError.

Idempotence rests on the database's unique keys, not on checks in Python, so concurrent repeats (two tabs, a
double click, a retry racing its original) still store one row."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam

from .. import i18n, identifiers
from ..db import db, utcnow
from ..exceptions import APIError, ResponseError
from ..models import ParticipantSession, StudyVersion, SurveyResponse, Trial, analysable, bump_generation
from ..prolific import settings as prolific_settings
from ..studies.surveys import shown, validate_answers
from ..tasktype import jsonvalue
from ..tasktype.contract import TaskType
from ..tasktype.events import validate_events
from ..tasktype.jsonvalue import MAX_SAFE_INTEGER, storable
from ..tasktype.registry import registry
from . import links, trialstore
from .sessions import well_formed

# `events`: the trial's interaction records (server/tasktype/events.py), stored in the same INSERT.
TRIAL_FIELDS = {"trial_id", "trial_index", "stimulus_id", "response", "rt_ms", "client_time", "events"}
# Printable ASCII: a page's crypto.randomUUID() and any id a script makes up, never a control character (PostgreSQL
# refuses NUL in text).
TRIAL_ID = re.compile(r"^[\x21-\x7e]{8,64}$")
MAX_RT_MS = 24 * 3600 * 1000
SCREEN_FIELDS = ("screen_width", "screen_height", "window_width", "window_height")
# Outcomes the page reports before the task ends: the participant declined consent or failed the browser check, or
# a researcher's own experiment stopped on an error of its code (taken only once that error is recorded).
EARLY_OUTCOMES = ("no_consent", "incompatible_device", "experiment_error")
# Built once (server/participation/trialstore.py says why). Only the first completion is recorded: a repeat or a second
# tab leaves completed_at as it was. A session that Prolific's sync marked abandoned (timed out) and then finishes after
# all completes; one that ended otherwise (excluded, or ended early by the participant) changes no more.
PS = ParticipantSession
SAVE_ENVIRONMENT = (
    db.update(PS)
    .where(PS.id == bindparam("session_id"), trialstore.OPEN)
    .values(last_seen_at=bindparam("now"), **{key: bindparam(f"new_{key}") for key in SCREEN_FIELDS})
)
COMPLETE = (
    db.update(PS)
    .where(PS.id == bindparam("session_id"), trialstore.OPEN)
    .values(status="completed", completed_at=bindparam("now"), outcome=bindparam("outcome"))
)
# The first outcome reported stands; ending frees the session's condition slot at once (conditions.occupancy).
END = (
    db.update(PS)
    .where(PS.id == bindparam("session_id"), trialstore.OPEN)
    .values(status="abandoned", outcome=bindparam("outcome"), last_seen_at=bindparam("now"))
)
# A participant who declines consent leaves only what that outcome needs: the status and outcome the funnel counts,
# the times, and the keyed hash of the PROLIFIC_PID (their participant_code; a returning participant is recognised);
# the outcome's Prolific completion code is the study's. Nothing else about the person, in END's transaction.
FORGET_DECLINED = (
    db.update(PS)
    .where(PS.id == bindparam("session_id"))
    .values(identifiers_purged_at=bindparam("now"), **dict.fromkeys(identifiers.PERSONAL_COLUMNS))
)
# A plan-less row (server/tasks/jspsych): the page's id for it, the row as jsPsych recorded it, the device's time, its
# interaction records, and where the page's randomness stood (`replay`, given back for a replay after a reload).
ROW_FIELDS = {"trial_id", "row", "client_time", "events", "replay"}
# A replay that diverged (runtime.js): the replayed row's jsPsych trial_index and the data fields that differed, each
# a column name of the row (a row's keys are exported as trials.csv headers).
MAX_DIVERGED_FIELDS = 50
MAX_FIELD_NAME = 200
RECORD_DIVERGENCE = (
    db.update(PS)
    .where(PS.id == bindparam("session_id"), trialstore.OPEN, PS.replay_divergence.is_(None))
    .values(replay_divergence=bindparam("divergence"), last_seen_at=bindparam("now"))
)
# The page of a plan-less task says its timeline finished (completion needs it) and how: naturally, or early
# (endExperiment / abortExperiment) with the end message, which the study's [[task.endings]] may look for. The first
# report stands. host.js cuts a longer message to END_MESSAGE_MAX characters.
FINISH_TIMELINE = (
    db.update(PS)
    .where(PS.id == bindparam("session_id"), trialstore.OPEN, PS.timeline_finished_at.is_(None))
    .values(timeline_finished_at=bindparam("now"), last_seen_at=bindparam("now"), ending=bindparam("ending"))
)
TIMELINE_FINISHED = db.select(PS.timeline_finished_at.is_not(None)).where(PS.id == bindparam("id"))
# The session's flag for the researchers. An experiment's error outranks too_few_rows: a refused completion does not
# hide it, and a later completion clears only too_few_rows.
FLAG_TOO_FEW_ROWS = (
    db.update(PS)
    .where(PS.id == bindparam("session_id"), db.or_(PS.flag.is_(None), PS.flag != "experiment_error"))
    .values(flag="too_few_rows")
)
CLEAR_TOO_FEW_ROWS = db.update(PS).where(PS.id == bindparam("session_id"), PS.flag == "too_few_rows").values(flag=None)
# The error that stopped (fatal) or disturbed a plan-less task's own code, as its page reported it. The first error
# stands, except that a fatal one replaces a non-fatal one: the error that stranded the participant is the one kept.
ERROR_FIELDS = {"message", "stack", "trial_index", "fatal"}
MAX_ERROR_MESSAGE = 1000  # characters; the page trims longer ones (runtime.js)
MAX_ERROR_STACK = 8000
_RECORD_ERROR = (
    db.update(PS)
    .where(PS.id == bindparam("session_id"), trialstore.OPEN)
    .values(experiment_error=bindparam("error"), flag="experiment_error", last_seen_at=bindparam("now"))
)
RECORD_ERROR = {
    False: _RECORD_ERROR.where(PS.experiment_error.is_(None)),
    True: _RECORD_ERROR.where(
        db.or_(PS.experiment_error.is_(None), db.not_(PS.experiment_error["fatal"].as_boolean()))
    ),
}
FATAL_ERROR = db.select(PS.experiment_error["fatal"].as_boolean()).where(PS.id == bindparam("id"))
ENDING = db.select(PS.timeline_finished_at.is_not(None), PS.ending).where(PS.id == bindparam("id"))
ENDING_FIELDS = {"ended_early", "message"}
END_MESSAGE_MAX = 4000
# A session whose timeline finished before its page said how (migration 0014) ended naturally, as far as is known.
NATURAL_END = {"ended_early": False, "message": None}
# Outcomes that complete a session; any other a plan-less page's ending gives ends it as POST /end does (abandoned).
COMPLETING = ("completed", "failed_attention_check")
# The consent page as a session is shown it (consent_html), and what its acceptance records.
VERSION_CONSENT = db.select(StudyVersion.config["consent"].as_string()).where(
    StudyVersion.study_id == bindparam("study_id"), StudyVersion.version == bindparam("version")
)
RECORD_CONSENT = (
    db.update(PS)
    .where(PS.id == bindparam("session_id"))
    .values(consent_sha256=bindparam("sha256"), consent_language=bindparam("language"))
)
# The participant pages are in English only (their <html lang="en">); a study's language once they are translated.
CONSENT_LANGUAGE = "en"
# Test-trial scores of the asking session (which may still be running, or be a preview) and of the study's completed
# sessions that count (models.analysable) in the stage the asking one started in: a pilot participant is compared
# with the pilot, a live one with the live cohort only.
ASKER = db.aliased(PS)
COHORT_SCORES = (
    db.select(Trial.session_id, Trial.score)
    .join(PS, PS.id == Trial.session_id)
    .where(
        PS.study_id == bindparam("study_id"),
        Trial.practice.is_(False),
        (
            (PS.status == "completed")
            & analysable("all")
            & (PS.stage == db.select(ASKER.stage).where(ASKER.id == bindparam("session_id")).scalar_subquery())
        )
        | (PS.id == bindparam("session_id")),
    )
)


def unknown_session() -> APIError:
    return APIError(404, "unknown_session", "no session has this token")


def session_ended(status: str) -> APIError:
    """Why a session that is not OPEN takes nothing, by its `status` read after a write stored nothing: a withdrawn
    one says so (410, its data is gone), any other has ended."""
    if status == "withdrawn":
        return APIError(
            410,
            "session_withdrawn",
            "this session was withdrawn: its answers were deleted at the participant's request and nothing more is "
            "stored",
        )
    return APIError(
        409,
        "session_ended",
        "this session has ended (completed, ended early, or excluded by the researchers): nothing more is stored",
    )


def not_open(connection, session: trialstore.SessionFacts) -> APIError:
    """session_ended for a session whose write just stored nothing: its status is read only then, so a save that
    stores costs no extra round trip."""
    return session_ended(trialstore.status(connection, session.id)[0])


def require_consent(connection, session: trialstore.SessionFacts, what: str) -> None:
    """Before consent only the environment, consent itself and an early end are taken (the flow starts with
    consent: server/studies/definitions.py)."""
    if trialstore.consented(connection, session):
        return
    status, outcome = trialstore.status(connection, session.id)
    if not trialstore.is_open(status, outcome):
        raise session_ended(status)  # say so rather than ask for a consent that could no longer be given
    raise APIError(
        409, "out_of_order", f"{what} is taken only after consent; send the consent survey first", expected="consent"
    )


def lookup(connection, token: str) -> trialstore.SessionFacts:
    """The session with this token (404 if there is none), usually from this worker's cache. The participant API
    works on these facts and Core statements on an autocommit connection (server/participation/trialstore.py says
    why)."""
    session = trialstore.session_facts(connection, token) if well_formed(token) else None
    if session is None:
        raise unknown_session()
    return session


def state(connection, session: trialstore.SessionFacts) -> dict[str, Any]:
    study = trialstore.study_facts(connection, session.study_id)
    status, outcome = trialstore.status(connection, session.id)
    with i18n.language(study.config.get("language")):
        surveys = {name: shown(name) for name in study.config["surveys"] if name != "consent"}
    return {
        "token": session.token,
        "status": status,
        "platform": session.platform,
        "preview": session.preview,
        "accepts_answers": trialstore.is_open(status, outcome),
        "study": {"slug": study.slug, "version": session.study_version},
        "flow": study.config["flow"],
        "surveys_done": sorted(trialstore.surveys_done(connection, session.id)),
        "surveys": surveys,
        "plan": [
            {**item, "stimulus_url": links.stimulus_path(study.slug, item["stimulus_id"])} for item in session.plan
        ],
        "stored_indexes": trialstore.stored_indexes(connection, session.id),
    }


def save_environment(connection, session: trialstore.SessionFacts, body: dict[str, Any]) -> None:
    sizes = {}
    for key in SCREEN_FIELDS:
        value = body.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 100_000:
            raise APIError(400, "invalid_field", f"{key} must be a positive integer", field=key)
        sizes[f"new_{key}"] = value
    if not connection.execute(SAVE_ENVIRONMENT, {**sizes, "session_id": session.id, "now": utcnow()}).rowcount:
        raise not_open(connection, session)


def save_survey(connection, session: trialstore.SessionFacts, name: str, body: dict[str, Any]) -> None:
    if name not in trialstore.study_facts(connection, session.study_id).config["surveys"]:
        raise APIError(404, "unknown_survey", f"this study has no survey named {name!r}")
    if name != "consent":
        require_consent(connection, session, f"the survey {name!r}")
    try:
        with i18n.language(trialstore.study_facts(connection, session.study_id).config.get("language")):
            answers = validate_answers(name, body.get("answers"))
    except ResponseError as exc:
        raise APIError(422, "invalid_answer", str(exc), field=exc.field) from None
    row = {"session_id": session.id, "name": name, "answers": answers, "created_at": utcnow()}
    if name == "consent":
        stored = _store_consent(connection, session, row)
    else:
        stored = trialstore.insert_unless_stored(connection, SurveyResponse.__table__, row)
    # Not stored: a repeat (retry, second tab), where the first answer stands, or the session has ended.
    if not stored and name not in trialstore.surveys_done(connection, session.id):
        raise not_open(connection, session)
    if name == "consent":
        session.consented = True


def consent_html(connection, study_id: int, version: int) -> str:
    """The consent page's HTML as a session that entered under study `version` is shown it (the participant page's
    `consent_html`): that version's, else (a version synced before versions were kept) the study's current one."""
    kept = connection.scalar(VERSION_CONSENT, {"study_id": study_id, "version": version})
    return kept if kept is not None else trialstore.study_facts(connection, study_id).config["consent"]


def _store_consent(connection, session: trialstore.SessionFacts, row: dict[str, Any]) -> bool:
    """Store the consent answer and, with it in one transaction, the SHA-256 of the consent HTML the page showed
    (its UTF-8 bytes) and its language; a repeat changes neither. Once per session, so the transaction's extra
    round trips cost the trial saves nothing."""
    sha256 = hashlib.sha256(consent_html(connection, session.study_id, session.study_version).encode()).hexdigest()
    with db.engine.begin() as transaction:
        stored = trialstore.insert_unless_stored(transaction, SurveyResponse.__table__, row)
        if stored:
            transaction.execute(
                RECORD_CONSENT, {"session_id": session.id, "sha256": sha256, "language": CONSENT_LANGUAGE}
            )
    return stored


def save_trial(connection, session: trialstore.SessionFacts, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Validate and store one trial on an autocommit connection (trialstore.autocommit). Returns (HTTP status,
    body): 201 stored, 200 repeat; 409 when it cannot be stored: index taken, trial id used for another trial, the
    session has ended, or consent not given yet (410 once withdrawn). The hot path: cached session, consent and
    study, one INSERT."""
    require_consent(connection, session, "a trial")
    row = _trial_row(connection, session, body)
    index, trial_id = row["trial_index"], row["client_trial_id"]
    if trialstore.insert_unless_stored(connection, Trial.__table__, row):
        trialstore.touch(connection, session)
        return 201, {"stored": True, "trial_index": index}
    stored_at = trialstore.index_of_trial_id(connection, session.id, trial_id)
    if stored_at == index:
        return 200, {"stored": True, "trial_index": index, "duplicate": True}
    if stored_at is not None:
        return 409, {
            "error": "trial_id_reused",
            "trial_index": index,
            "stored_index": stored_at,
            "message": f"trial_id {trial_id!r} is already stored for trial {stored_at}; "
            "each trial needs its own trial_id",
        }
    if trialstore.stored_trial_id(connection, session.id, index) is not None:
        return 409, {
            "error": "trial_index_taken",
            "trial_index": index,
            "message": f"trial {index} is already stored under another trial_id; the first answer stands",
        }
    raise not_open(connection, session)


def _known_fields(body: dict[str, Any], fields: set[str]) -> None:
    """Nothing, if every field of the body is one of `fields`; else the APIError naming the first other one."""
    unknown = set(body) - fields
    if unknown:
        raise APIError(
            400, "unknown_field", f"unknown field(s): {', '.join(sorted(unknown))}", field=sorted(unknown)[0]
        )


def _known_fields_and_trial_id(body: dict[str, Any], fields: set[str]) -> str:
    """The body's trial_id, once every field is one of `fields` and the id is well formed (else the APIError)."""
    _known_fields(body, fields)
    trial_id = body.get("trial_id")
    if not isinstance(trial_id, str) or not TRIAL_ID.match(trial_id):
        raise APIError(
            400, "invalid_field", "trial_id must be a string of 8–64 printable ASCII characters", field="trial_id"
        )
    return trial_id


def _trial_row(connection, session: trialstore.SessionFacts, body: dict[str, Any]) -> dict[str, Any]:
    """The `trials` row for a trial body, or an APIError naming the first field that is wrong."""
    trial_id = _known_fields_and_trial_id(body, TRIAL_FIELDS)
    index = body.get("trial_index")
    if isinstance(index, bool) or not isinstance(index, int):
        raise APIError(400, "invalid_field", "trial_index must be an integer", field="trial_index")
    if not 0 <= index < len(session.plan):
        raise APIError(
            422,
            "index_out_of_plan",
            f"trial_index {index} is outside this session's plan (0–{len(session.plan) - 1})",
            field="trial_index",
        )
    planned = session.plan[index]
    if body.get("stimulus_id") != planned["stimulus_id"]:
        raise APIError(
            422, "stimulus_mismatch", f"trial {index} shows stimulus {planned['stimulus_id']!r}", field="stimulus_id"
        )
    rt_ms = body.get("rt_ms")
    if rt_ms is not None and (
        isinstance(rt_ms, bool) or not isinstance(rt_ms, (int, float)) or not 0 <= rt_ms <= MAX_RT_MS
    ):
        raise APIError(400, "invalid_field", "rt_ms must be a number of milliseconds (0–86,400,000)", field="rt_ms")
    client_time = _parse_time(body.get("client_time"))
    events = validate_events(body.get("events"))
    study = trialstore.study_facts(connection, session.study_id)
    task = registry().get(study.task_type)
    try:
        response = task.validate_response(body.get("response"), study.config["task"], planned)
        jsonvalue.check(response, "response")  # what is stored, as every reader will meet it
    except ResponseError as exc:
        raise APIError(422, "invalid_response", str(exc), field=exc.field) from None
    stimulus_id, params = trialstore.stimulus(connection, session.study_id, planned["stimulus_id"])
    return {
        "session_id": session.id,
        "trial_index": index,
        "client_trial_id": trial_id,
        "stimulus_id": stimulus_id,
        "practice": planned["practice"],
        "response": response,
        "score": task.score(params, response),
        "presented": planned.get("presented"),
        "rt_ms": None if rt_ms is None else round(rt_ms),
        "client_time": client_time,
        "events": events,
        "created_at": utcnow(),
    }


def plan_less(connection, session: trialstore.SessionFacts) -> tuple[trialstore.StudyFacts, TaskType]:
    """The session's study and task type, whose page must record rows of its own (`TaskType.page_ends`: a
    researcher's jsPsych experiment)."""
    study = trialstore.study_facts(connection, session.study_id)
    task = registry().get(study.task_type)
    if task is None or not task.page_ends:
        raise APIError(404, "no_rows", "this study's trials follow a plan: send them to /trials")
    return study, task


def row_too_large(limit: int) -> APIError:
    return APIError(413, "row_too_large", f"a row may hold at most {limit // 1024} KB of JSON", field="row")


def save_row(connection, session: trialstore.SessionFacts, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Store one row a plan-less task's page recorded: 201 stored, 200 a repeat of its trial_id (the first stands);
    its trial_index is drawn by the server (trialstore.PLAN_LESS_INDEX), as the page's own restarts after a reload."""
    require_consent(connection, session, "a row")
    study, task = plan_less(connection, session)
    trial_id = _known_fields_and_trial_id(body, ROW_FIELDS)
    params = study.config["task"]
    row = body.get("row")
    limit = task.row_limit(params)
    try:
        # NaN and Infinity parse (Python's json) but PostgreSQL refuses them in JSON: a 422, not a failed INSERT.
        size = len(json.dumps(row, separators=(",", ":"), allow_nan=False).encode())
    except ValueError:
        raise APIError(422, "invalid_response", "a row must not hold NaN or Infinity", field="row") from None
    if size > limit:
        raise row_too_large(limit)
    try:
        response = task.validate_response(row, params, {})
        jsonvalue.check(response, "row")  # what is stored, as every reader will meet it
    except ResponseError as exc:
        raise APIError(422, "invalid_response", str(exc), field=exc.field) from None
    # The raw ids an experiment recorded (getURLVariable) are kept only with the session: the consent's promise.
    response = identifiers.mark(response, session.platform_ids)
    events = validate_events(body.get("events"))
    replay = _replay_position(body.get("replay"))
    rt = response.get("rt")
    numeric = isinstance(rt, (int, float)) and not isinstance(rt, bool) and 0 <= rt <= MAX_RT_MS
    record = {
        "session_id": session.id,
        "client_trial_id": trial_id,
        "stimulus_id": None,
        "practice": False,
        "response": response,
        "score": {},
        "presented": replay,  # a plan-less row has no plan to copy what was shown from
        "rt_ms": round(rt) if numeric else None,
        "client_time": _parse_time(body.get("client_time")),
        "events": events,
        "created_at": utcnow(),
    }
    if trialstore.insert_row_unless_stored(connection, record):
        trialstore.touch(connection, session)
        return 201, {"stored": True}
    if trialstore.index_of_trial_id(connection, session.id, trial_id) is not None:
        return 200, {"stored": True, "duplicate": True}
    raise not_open(connection, session)


def _replay_position(value: Any) -> dict[str, int] | None:
    """A row's `replay` ({"draws": n}: runtime.js's count of Math.random draws when the row's trial ended), or None."""
    if value is None:
        return None
    draws = value.get("draws") if isinstance(value, dict) and set(value) == {"draws"} else None
    if isinstance(draws, bool) or not isinstance(draws, int) or not 0 <= draws <= MAX_SAFE_INTEGER:
        raise APIError(
            400, "invalid_field", 'replay must be {"draws": n}, n a non-negative safe integer', field="replay"
        )
    return {"draws": draws}


def rows(connection, session: trialstore.SessionFacts) -> dict[str, Any]:
    """A plan-less session's stored rows in order, for the page to replay after a reload."""
    plan_less(connection, session)
    return {
        "rows": [
            {"trial_id": trial_id, "row": row, "replay": replay}
            for trial_id, row, replay in trialstore.stored_rows(connection, session.id)
        ],
    }


def record_divergence(connection, session: trialstore.SessionFacts, body: dict[str, Any]) -> dict[str, Any]:
    """Record that a replay after a reload computed other data for a stored row than the row holds (runtime.js): the
    row's jsPsych `trial_index` and the `fields` that differed. The first one stands (`recorded` false after it)."""
    _known_fields(body, {"trial_index", "fields"})
    index = body.get("trial_index")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= MAX_SAFE_INTEGER:
        raise APIError(400, "invalid_field", "trial_index must be a non-negative integer", field="trial_index")
    fields = body.get("fields")
    if (
        not isinstance(fields, list)
        or not 0 < len(fields) <= MAX_DIVERGED_FIELDS
        or not all(isinstance(f, str) and 0 < len(f) <= MAX_FIELD_NAME and f.isprintable() for f in fields)
    ):
        raise APIError(
            400,
            "invalid_field",
            f"fields must be a list of 1–{MAX_DIVERGED_FIELDS} field names of 1–{MAX_FIELD_NAME} characters",
            field="fields",
        )
    require_consent(connection, session, "a replay's divergence")
    plan_less(connection, session)
    now = utcnow()
    divergence = {
        "trial_index": index,
        "fields": identifiers.mark(fields, session.platform_ids),
        "recorded_at": now.isoformat(),
    }
    if connection.execute(RECORD_DIVERGENCE, {"session_id": session.id, "divergence": divergence, "now": now}).rowcount:
        return {"recorded": True}
    status, outcome = trialstore.status(connection, session.id)
    if not trialstore.is_open(status, outcome):
        raise session_ended(status)
    return {"recorded": False}


def finish_timeline(connection, session: trialstore.SessionFacts, body: dict[str, Any]) -> dict[str, Any]:
    """Record the page's "timeline finished" (jsPsych's timeline ended, or endExperiment/abortExperiment) and how
    (`ended_early`, `message`: the session's `ending`)."""
    require_consent(connection, session, "the end of the timeline")
    plan_less(connection, session)
    # What the page reports is the experiment's text: a raw Prolific id in it is kept as its marker, as in rows.
    ending = identifiers.mark(_ending(body), session.platform_ids)
    if not connection.execute(FINISH_TIMELINE, {"session_id": session.id, "now": utcnow(), "ending": ending}).rowcount:
        status, outcome = trialstore.status(connection, session.id)
        if not trialstore.is_open(status, outcome):
            raise session_ended(status)
    return {"timeline_finished": True}


def record_error(connection, session: trialstore.SessionFacts, body: dict[str, Any]) -> dict[str, Any]:
    """Record an error of a plan-less task's own code (its page's `studyhive:error`: an exception that rejected
    jsPsych.run() is fatal, one caught by window.onerror or unhandledrejection is not) with the time, and flag the
    session `experiment_error`. `recorded` is False when an earlier error stands."""
    require_consent(connection, session, "an experiment error")
    plan_less(connection, session)
    _known_fields(body, ERROR_FIELDS)
    error = {
        "message": _error_text(body, "message", MAX_ERROR_MESSAGE, required=True),
        "stack": _error_text(body, "stack", MAX_ERROR_STACK, required=False),
        "trial_index": body.get("trial_index"),
        "fatal": body.get("fatal"),
    }
    index = error["trial_index"]
    if index is not None and (isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 2**31):
        raise APIError(400, "invalid_field", "trial_index must be null or a non-negative integer", field="trial_index")
    if not isinstance(error["fatal"], bool):
        raise APIError(400, "invalid_field", "fatal must be true or false", field="fatal")
    now = utcnow()
    error = {**identifiers.mark(error, session.platform_ids), "at": now.isoformat()}
    values = {"session_id": session.id, "error": error, "now": now}
    if connection.execute(RECORD_ERROR[error["fatal"]], values).rowcount:
        return {"recorded": True}
    status, outcome = trialstore.status(connection, session.id)
    if not trialstore.is_open(status, outcome):
        raise session_ended(status)
    return {"recorded": False}


def _error_text(body: dict[str, Any], field: str, limit: int, required: bool) -> str | None:
    value = body.get(field)
    if value is None and not required:
        return None
    if not (isinstance(value, str) and 0 < len(value) <= limit and storable(value)):
        raise APIError(
            400,
            "invalid_field",
            f"{field} must be {'' if required else 'null or '}a text of 1–{limit} characters, without NUL or lone "
            "surrogates",
            field=field,
        )
    return value


def _ending(body: dict[str, Any]) -> dict[str, Any]:
    """The `ending` a /timeline-finished body reports: {} or {"ended_early": false} for the natural end,
    {"ended_early": true, "message": …} for endExperiment / abortExperiment (its message: null or text as a
    textarea's answer may be, at most END_MESSAGE_MAX characters)."""
    _known_fields(body, ENDING_FIELDS)
    early = body.get("ended_early", False)
    if not isinstance(early, bool):
        raise APIError(400, "invalid_field", "ended_early must be true or false", field="ended_early")
    message = body.get("message")
    if message is not None and not early:
        raise APIError(
            400, "invalid_field", "an end message comes only with an early end (ended_early true)", field="message"
        )
    if message is not None and not (isinstance(message, str) and len(message) <= END_MESSAGE_MAX and _text(message)):
        raise APIError(
            400,
            "invalid_field",
            f"message must be null or text of at most {END_MESSAGE_MAX} characters, without control characters "
            "(line breaks and tabs aside) or lone surrogates",
            field="message",
        )
    return {"ended_early": early, "message": message}


def _text(value: str) -> bool:
    """Text as a participant's longest answers may be (server/studies/surveys.py): no NUL or other control
    character but line breaks and tabs, no lone surrogate."""
    return storable(value) and not any(unicodedata.category(c) == "Cc" and c not in "\n\r\t" for c in value)


def _own_outcome(connection, session: trialstore.SessionFacts, study: trialstore.StudyFacts, task: TaskType) -> str:
    """The outcome of a plan-less session whose page said its timeline finished: what its ending means
    (task.ending_outcome: the study's [[task.endings]], else a natural end completes and an early one is
    ended_early). One that completes needs the study's minimum of rows (_check_rows)."""
    finished, ending = connection.execute(ENDING, {"id": session.id}).one()
    if not finished:
        raise APIError(409, "timeline_not_finished", "the experiment has not said that its timeline finished")
    last_row = trialstore.last_row(connection, session.id)
    outcome = task.ending_outcome(study.config["task"], ending or NATURAL_END, last_row)
    if outcome in COMPLETING:
        _check_rows(connection, session, study, task)
    return outcome


def _check_rows(connection, session: trialstore.SessionFacts, study: trialstore.StudyFacts, task: TaskType):
    """A plan-less session completes once it holds the study's minimum of rows; a finished one with fewer is
    flagged for the researchers (never completed, so never auto-approved)."""
    stored = trialstore.row_count(connection, session.id)
    needed = task.min_rows(study.config["task"])
    if stored < needed:
        connection.execute(FLAG_TOO_FEW_ROWS, {"session_id": session.id})
        raise APIError(
            409, "too_few_rows", f"{stored} row(s) stored, the study needs {needed}", stored=stored, needed=needed
        )
    # Rows still queued offline may arrive after a refused completion: the completion that follows stands unflagged.
    connection.execute(CLEAR_TOO_FEW_ROWS, {"session_id": session.id})


def _parse_time(value: Any) -> datetime | None:
    """An ISO 8601 timestamp as UTC (none given: UTC). A wrong device clock is kept; a time outside the years
    2–9998 is refused, as 0001-01-01T00:00+14:00 (1 BC in UTC) could be stored but not read back, and a day's
    margin keeps every stored time readable in any database session's time zone."""
    if value is None:
        return None
    try:
        if not (value.isascii() and value.isprintable()):  # fromisoformat lets a trailing NUL through
            raise ValueError(value)
        parsed = datetime.fromisoformat(value)
        parsed = parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)
        if not 1 < parsed.year < 9999:
            raise ValueError(value)
        return parsed
    except (AttributeError, ValueError, OverflowError):
        raise APIError(
            400,
            "invalid_field",
            "client_time must be an ISO 8601 timestamp within the years 2–9998",
            field="client_time",
        ) from None


def summary(connection, study_id: int, session_id: int) -> dict[str, Any]:
    """A participant's own result against everyone who completed the study in the participant's stage (the results
    page and the "score" step of the API), by the study's task type."""
    by_person: dict[int, list] = {}
    for person, score in connection.execute(COHORT_SCORES, {"study_id": study_id, "session_id": session_id}):
        by_person.setdefault(person, []).append(score)
    own = by_person.pop(session_id, [])
    study = trialstore.study_facts(connection, study_id)
    with i18n.language(study.config.get("language")):  # its lines are shown to the participant
        return registry().get(study.task_type).summarise(own, list(by_person.values()))


def complete(connection, session: trialstore.SessionFacts) -> dict[str, Any]:
    """Mark the session completed once the server holds every planned trial and every survey of the flow. A repeat
    (reload, second tab) answers as the first completion did. A researcher's preview, which may have jumped past
    trials and surveys, completes without them (never a participant's session: `preview` is fixed at entry)."""
    status, outcome = trialstore.status(connection, session.id)
    if status == "completed":
        return _completed(connection, session, outcome)
    if status == "abandoned" and outcome and connection.scalar(TIMELINE_FINISHED, {"id": session.id}):
        return _ended(connection, session)  # a plan-less page's ending that did not complete: answered as before
    if not trialstore.is_open(status, outcome):
        raise session_ended(status)
    require_consent(connection, session, "completion")
    stored = set(trialstore.stored_indexes(connection, session.id))
    missing = [i for i in range(len(session.plan)) if i not in stored]
    if missing and not session.preview:
        raise APIError(409, "trials_missing", f"{len(missing)} planned trial(s) are not stored yet", missing=missing)
    study = trialstore.study_facts(connection, session.study_id)
    done = trialstore.surveys_done(connection, session.id)
    missing_surveys = [name for name in study.config["surveys"] if name not in done]
    if missing_surveys and not session.preview:
        raise APIError(
            409, "surveys_missing", f"not answered yet: {', '.join(missing_surveys)}", missing_surveys=missing_surveys
        )
    task = registry().get(study.task_type)
    ending = _own_outcome(connection, session, study, task) if task.page_ends else "completed"
    if ending not in COMPLETING:  # ends as POST /end does: the session is abandoned, its condition slot free
        if not _end_session(END, session, ending):
            return complete(connection, session)  # another request ended the session meanwhile
        return _ended(connection, session)
    keys = task.attention_checks()
    failures = trialstore.attention_check_failures(connection, session.id, keys) if keys else 0
    failed = ending == "failed_attention_check" or failures >= prolific_settings.attention_check_failures(study.config)
    outcome = "failed_attention_check" if failed else "completed"
    if not _end_session(COMPLETE, session, outcome):
        return complete(connection, session)  # another request ended the session meanwhile: answer as it stands
    return _completed(connection, session, outcome)


def _end_session(statement, session: trialstore.SessionFacts, outcome: str) -> bool:
    """Run COMPLETE or END and, if it ended the session, bump the study's data generation (a stored result of the
    study is stale from then on) in the same transaction, on the ORM's engine: the autocommit connection would
    commit the two apart. Once per session, so the trial saves stay one statement each. A preview's end changes
    nothing an analysis reads, so it bumps nothing. A declined consent forgets the person (FORGET_DECLINED) in the
    same transaction. True if it ended it."""
    now = utcnow()
    with db.engine.begin() as transaction:
        ended = transaction.execute(statement, {"session_id": session.id, "now": now, "outcome": outcome}).rowcount
        if ended and outcome == "no_consent":
            transaction.execute(FORGET_DECLINED, {"session_id": session.id, "now": now})
        if ended and not session.preview:
            bump_generation(session.study_id, transaction)
    return bool(ended)


def _completed(connection, session: trialstore.SessionFacts, outcome: str) -> dict[str, Any]:
    study = trialstore.study_facts(connection, session.study_id)
    url = session.platform == "prolific" and prolific_settings.completion_url(study.config, outcome)
    if url:
        return {"status": "completed", "outcome": outcome, "redirect_url": url}
    return {"status": "completed", "outcome": outcome, "results_url": links.results_path(study.slug, session.token)}


def end(connection, session: trialstore.SessionFacts, body: dict[str, Any]) -> dict[str, Any]:
    """Record that the session ends early (`outcome`: no_consent, incompatible_device, or experiment_error once a
    fatal error of the experiment's code is recorded): it is abandoned, its condition slot is free again, and a
    Prolific participant is sent on with that outcome's completion code when the study has one (redirect_url; None:
    the page asks them to return the study)."""
    _known_fields(body, {"outcome"})
    outcome = body.get("outcome")
    if outcome not in EARLY_OUTCOMES:
        raise APIError(400, "invalid_field", f"outcome must be one of {', '.join(EARLY_OUTCOMES)}", field="outcome")
    status = trialstore.status(connection, session.id)[0]
    if status in ("completed", "excluded", "withdrawn"):
        raise session_ended(status)
    if outcome == "no_consent" and trialstore.consented(connection, session):
        raise APIError(409, "consent_given", "consent was given in this session", field="outcome")
    if outcome == "experiment_error" and not connection.scalar(FATAL_ERROR, {"id": session.id}):
        raise APIError(
            409,
            "no_experiment_error",
            "no error that stopped the experiment is recorded for this session",
            field="outcome",
        )
    _end_session(END, session, outcome)
    return _ended(connection, session)


def _ended(connection, session: trialstore.SessionFacts) -> dict[str, Any]:
    """The answer for a session that ended early: its status and outcome, and the outcome's Prolific completion URL
    when the study has a code for it (None: the page asks the participant to return the study)."""
    status, recorded = trialstore.status(connection, session.id)
    study = trialstore.study_facts(connection, session.study_id)
    url = session.platform == "prolific" and recorded and prolific_settings.completion_url(study.config, recorded)
    return {"status": status, "outcome": recorded, "redirect_url": url or None}
