"""The participant API's operations (server/web/api.py) on the cached Core path: state for the page, environment,
survey and trial saves, the results summary, completion and early ends. Each works on one autocommit connection and
the session's cached facts (server/participation/trialstore.py says why), and answers bad input with an APIError.

Idempotence rests on the database's unique keys, not on checks in Python, so concurrent repeats (two tabs, a
double click, a retry racing its original) still store one row."""

from __future__ import annotations

import hashlib
from typing import Any

from sqlalchemy import bindparam

from .. import i18n, identifiers
from ..db import db, utcnow
from ..exceptions import APIError, ResponseError
from ..models import ParticipantSession, SurveyResponse, Trial, analysable, bump_generation, bumped_with
from ..prolific import settings as prolific_settings
from ..studies.surveys import revision, shown, validate_answers
from ..tasktype.contract import TaskType
from ..tasktype.registry import registry
from . import bodies, links, trialstore
from .sessions import well_formed

SCREEN_FIELDS = ("screen_width", "screen_height", "window_width", "window_height")
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
# the outcome's Prolific completion code is the study's. Nothing else about the person: END that also forgets.
END_DECLINED = END.values(identifiers_purged_at=bindparam("now"), **dict.fromkeys(identifiers.PERSONAL_COLUMNS))
# Each end with the bump of its study's data generation, one PostgreSQL statement each (_end_session).
WITH_BUMP = {end: bumped_with(end.returning(PS.study_id)) for end in (COMPLETE, END, END_DECLINED)}
AMEND_ROW = (
    db.update(Trial)
    .where(Trial.id == bindparam("row_id"))
    .values(response=bindparam("new_response"), rt_ms=bindparam("new_rt_ms"))
)
RECORD_DIVERGENCE = (
    db.update(PS)
    .where(PS.id == bindparam("session_id"), trialstore.OPEN, PS.replay_divergence.is_(None))
    .values(replay_divergence=bindparam("divergence"), last_seen_at=bindparam("now"))
)
# The page of a plan-less task says its timeline finished (completion needs it) and how: naturally, or early
# (endExperiment / abortExperiment) with the end message, which the study's [[task.endings]] may look for. The first
# report stands.
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
# A session whose timeline finished before its page said how (migration 0014) ended naturally, as far as is known.
NATURAL_END = {"ended_early": False, "message": None}
# Outcomes that complete a session; any other a plan-less page's ending gives ends it as POST /end does (abandoned).
COMPLETING = ("completed", "failed_attention_check")
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
    study = trialstore.session_study(connection, session)
    standing = trialstore.standing(connection, session.id)
    status, outcome = standing.status, standing.outcome
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
        "surveys_done": sorted(standing.surveys_done),
        "surveys": surveys,
        "plan": [
            {**item, "stimulus_url": links.stimulus_path(study.slug, item["stimulus_id"])} for item in session.plan
        ],
        "stored_indexes": standing.stored_indexes,
    }


def save_environment(connection, session: trialstore.SessionFacts, raw: bytes) -> None:
    sizes = bodies.parse(bodies.Environment, raw).valid()
    values = {f"new_{key}": getattr(sizes, key) for key in SCREEN_FIELDS}
    if not trialstore.changed(connection, SAVE_ENVIRONMENT, {**values, "session_id": session.id, "now": utcnow()}):
        raise not_open(connection, session)


def save_survey(connection, session: trialstore.SessionFacts, name: str, raw: bytes) -> None:
    parsed = bodies.parse(bodies.SurveyAnswers, raw)
    config = trialstore.session_study(connection, session).config
    if name not in config["surveys"]:
        raise APIError(404, "unknown_survey", f"this study has no survey named {name!r}")
    if name != "consent":
        require_consent(connection, session, f"the survey {name!r}")
    try:
        with i18n.language(config.get("language")):
            answers = validate_answers(name, parsed.valid().answers)
    except ResponseError as exc:
        raise APIError(422, "invalid_answer", str(exc), field=exc.field) from None
    # Every survey's row names its form (the one INSERT statement per table that insert_unless_stored caches has it).
    row = {
        "session_id": session.id,
        "name": name,
        "answers": answers,
        "revision": revision(name),
        "created_at": utcnow(),
    }
    if name == "consent":
        stored = _store_consent(connection, session, row)
    else:
        stored = trialstore.insert_unless_stored(connection, SurveyResponse.__table__, row)
    # Not stored: a repeat (retry, second tab), where the first answer stands, or the session has ended.
    if not stored and name not in trialstore.surveys_done(connection, session.id):
        raise not_open(connection, session)
    if name == "consent":
        session.consented = True


def _store_consent(connection, session: trialstore.SessionFacts, row: dict[str, Any]) -> bool:
    """Store the consent answer and, at once with it, the SHA-256 of the consent HTML the page showed (its UTF-8
    bytes) and its language on the session; a repeat changes neither."""
    sha256 = hashlib.sha256(
        trialstore.consent_html(connection, session.study_id, session.study_version).encode()
    ).hexdigest()
    consent = {"consent_sha256": sha256, "consent_language": CONSENT_LANGUAGE}
    return trialstore.insert_unless_stored_setting(connection, SurveyResponse.__table__, row, consent)


def save_trial(connection, session: trialstore.SessionFacts, raw: bytes) -> tuple[int, dict[str, Any]]:
    """Validate and store one trial on an autocommit connection (trialstore.autocommit). Returns (HTTP status,
    body): 201 stored, 200 repeat; 409 when it cannot be stored: index taken, trial id used for another trial, the
    session has ended, or consent not given yet (410 once withdrawn). The hot path: cached session, consent and
    study, one INSERT."""
    study = trialstore.session_study(connection, session)
    task = registry().get(study.task_type)
    context = {"plan": session.plan, "task": task, "params": study.config["task"]}
    parsed = bodies.parse(bodies.Trial, raw, context)
    require_consent(connection, session, "a trial")
    trial = parsed.valid()
    index, trial_id = trial.trial_index, trial.trial_id
    planned = session.plan[index]
    stimulus_id, params = trialstore.stimulus(connection, session.study_id, planned["stimulus_id"])
    row = {
        "session_id": session.id,
        "trial_index": index,
        "client_trial_id": trial_id,
        "stimulus_id": stimulus_id,
        "practice": planned["practice"],
        "response": trial.response,
        "score": task.score(params, trial.response),
        "presented": planned.get("presented"),
        "rt_ms": None if trial.rt_ms is None else round(trial.rt_ms),
        "client_time": trial.client_time,
        "events": trial.events,
        "created_at": utcnow(),
    }
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


def plan_less(connection, session: trialstore.SessionFacts) -> tuple[trialstore.StudyFacts, TaskType]:
    """The session's study and task type, whose page must record rows of its own (`TaskType.page_ends`: a
    researcher's jsPsych experiment)."""
    study = trialstore.session_study(connection, session)
    task = registry().get(study.task_type)
    if task is None or not task.page_ends:
        raise APIError(404, "no_rows", "this study's trials follow a plan: send them to /trials")
    return study, task


def save_row(connection, session: trialstore.SessionFacts, raw: bytes) -> tuple[int, dict[str, Any]]:
    """Store one row a plan-less task's page recorded: 201 stored, 200 a repeat of its trial_id (the first stands);
    its trial_index is drawn by the server (trialstore.PLAN_LESS_INDEX), as the page's own restarts after a reload."""
    study, task = plan_less(connection, session)
    parsed = bodies.parse(bodies.Row, raw, {"task": task, "params": study.config["task"]})
    require_consent(connection, session, "a row")
    row = parsed.valid()
    # The raw ids an experiment recorded (getURLVariable) are kept only with the session: the consent's promise.
    response = identifiers.mark(row.row, session.platform_ids)
    record = {
        "session_id": session.id,
        "client_trial_id": row.trial_id,
        "stimulus_id": None,
        "practice": False,
        "response": response,
        "score": {},
        "presented": row.replay and row.replay.model_dump(),  # a plan-less row has no plan to copy what was shown from
        "rt_ms": row_rt_ms(response),
        "client_time": row.client_time,
        "events": row.events,
        "created_at": utcnow(),
    }
    if trialstore.insert_row_unless_stored(connection, record):
        trialstore.touch(connection, session)
        return 201, {"stored": True}
    if trialstore.index_of_trial_id(connection, session.id, row.trial_id) is not None:
        return 200, {"stored": True, "duplicate": True}
    raise not_open(connection, session)


def row_rt_ms(row: dict[str, Any]) -> int | None:
    """A plan-less row's `rt` as the trials' rt_ms column holds it: whole milliseconds, None unless a number within
    MAX_RT_MS."""
    rt = row.get("rt")
    numeric = isinstance(rt, (int, float)) and not isinstance(rt, bool) and 0 <= rt <= bodies.MAX_RT_MS
    return round(rt) if numeric else None


def amend_rows(connection, session: trialstore.SessionFacts, raw: bytes) -> dict[str, Any]:
    """Set the fields an experiment added to rows it had recorded (bodies.RowAmendment: a late addProperties,
    addDataToLastTrial, a change through the data collection) on the stored rows it names: from `first_trial_id`
    (without one, only the row `trial_id`) to `trial_id`, in the order the session stored them. Each row changed must
    still pass the one check of a posted row (bodies.checked_row), or nothing changes. A repeat changes nothing and
    answers the same way (`amended`: how many rows changed now). The session must be OPEN: its row is locked while
    the rows change (PostgreSQL), so no end or withdrawal slips in between."""
    study, task = plan_less(connection, session)
    params = study.config["task"]
    parsed = bodies.parse(bodies.RowAmendment, raw, {"task": task, "params": params})
    require_consent(connection, session, "an amendment of rows")
    amendment = parsed.valid()
    properties = identifiers.mark(amendment.properties, session.platform_ids)
    changes = []
    with db.engine.begin() as transaction:
        if transaction.scalar(db.select(PS.id).where(PS.id == session.id, trialstore.OPEN).with_for_update()) is None:
            raise not_open(connection, session)
        mine = Trial.session_id == session.id
        last = _stored_index(transaction, mine, amendment.trial_id, "trial_id")
        first = (
            last
            if amendment.first_trial_id is None
            else _stored_index(transaction, mine, amendment.first_trial_id, "first_trial_id")
        )
        if first > last:
            raise APIError(
                422, "rows_reversed", "first_trial_id names a row stored after trial_id's", field="first_trial_id"
            )
        chosen = Trial.trial_index.between(first, last)
        for row_id, response in transaction.execute(db.select(Trial.id, Trial.response).where(mine, chosen)):
            amended = {**response, **properties}
            if amended != response:
                checked = bodies.checked_row(amended, task, params, "properties")
                changes.append({"row_id": row_id, "new_response": checked, "new_rt_ms": row_rt_ms(checked)})
        if changes:
            transaction.execute(AMEND_ROW, changes)
    return {"amended": len(changes)}


def _stored_index(transaction, mine, trial_id: str, field: str) -> int:
    """The trial_index of the session's row `trial_id` (`mine`: the session's rows), or 409 row_not_stored."""
    index = transaction.scalar(db.select(Trial.trial_index).where(mine, Trial.client_trial_id == trial_id))
    if index is None:
        raise APIError(409, "row_not_stored", f"no row with trial_id {trial_id!r} is stored", field=field)
    return index


def rows(connection, session: trialstore.SessionFacts) -> dict[str, Any]:
    """A plan-less session's stored rows in order, for the page to replay after a reload."""
    plan_less(connection, session)
    return {
        "rows": [
            {"trial_id": trial_id, "row": row, "replay": replay}
            for trial_id, row, replay in trialstore.stored_rows(connection, session.id)
        ],
    }


def record_divergence(connection, session: trialstore.SessionFacts, raw: bytes) -> dict[str, Any]:
    """Record that a replay after a reload computed other data for a stored row than the row holds (runtime.js): the
    row's jsPsych `trial_index` and the `fields` that differed. The first one stands (`recorded` false after it)."""
    diverged = bodies.parse(bodies.ReplayDiverged, raw).valid()
    require_consent(connection, session, "a replay's divergence")
    plan_less(connection, session)
    now = utcnow()
    divergence = {
        "trial_index": diverged.trial_index,
        "fields": identifiers.mark(diverged.fields, session.platform_ids),
        "recorded_at": now.isoformat(),
    }
    if trialstore.changed(
        connection, RECORD_DIVERGENCE, {"session_id": session.id, "divergence": divergence, "now": now}
    ):
        return {"recorded": True}
    status, outcome = trialstore.status(connection, session.id)
    if not trialstore.is_open(status, outcome):
        raise session_ended(status)
    return {"recorded": False}


def finish_timeline(connection, session: trialstore.SessionFacts, raw: bytes) -> dict[str, Any]:
    """Record the page's "timeline finished" (jsPsych's timeline ended, or endExperiment/abortExperiment) and how
    (`ended_early`, `message`: the session's `ending`)."""
    parsed = bodies.parse(bodies.TimelineEnding, raw)
    require_consent(connection, session, "the end of the timeline")
    plan_less(connection, session)
    # What the page reports is the experiment's text: a raw Prolific id in it is kept as its marker, as in rows.
    ending = identifiers.mark(parsed.valid().model_dump(), session.platform_ids)
    if not trialstore.changed(
        connection, FINISH_TIMELINE, {"session_id": session.id, "now": utcnow(), "ending": ending}
    ):
        status, outcome = trialstore.status(connection, session.id)
        if not trialstore.is_open(status, outcome):
            raise session_ended(status)
    return {"timeline_finished": True}


def record_error(connection, session: trialstore.SessionFacts, raw: bytes) -> dict[str, Any]:
    """Record an error of a plan-less task's own code (its page's `studyhive:error`: an exception that rejected
    jsPsych.run() is fatal, one caught by window.onerror or unhandledrejection is not) with the time, and flag the
    session `experiment_error`. `recorded` is False when an earlier error stands."""
    parsed = bodies.parse(bodies.ExperimentError, raw)
    require_consent(connection, session, "an experiment error")
    plan_less(connection, session)
    error = parsed.valid().model_dump()
    now = utcnow()
    error = {**identifiers.mark(error, session.platform_ids), "at": now.isoformat()}
    values = {"session_id": session.id, "error": error, "now": now}
    if trialstore.changed(connection, RECORD_ERROR[error["fatal"]], values):
        return {"recorded": True}
    status, outcome = trialstore.status(connection, session.id)
    if not trialstore.is_open(status, outcome):
        raise session_ended(status)
    return {"recorded": False}


def _own_outcome(connection, session: trialstore.SessionFacts, study: trialstore.StudyFacts, task: TaskType) -> str:
    """The outcome of a plan-less session whose page said its timeline finished: what its ending means
    (task.ending_outcome: the study's [[task.endings]], else a natural end completes and an early one is
    ended_early). One that completes needs the study's minimum of rows (_check_rows)."""
    finished, ending = trialstore.first(connection, ENDING, {"id": session.id})
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
        trialstore.changed(connection, FLAG_TOO_FEW_ROWS, {"session_id": session.id})
        raise APIError(
            409, "too_few_rows", f"{stored} row(s) stored, the study needs {needed}", stored=stored, needed=needed
        )
    # Rows still queued offline may arrive after a refused completion: the completion that follows stands unflagged.
    trialstore.changed(connection, CLEAR_TOO_FEW_ROWS, {"session_id": session.id})


def summary(connection, study_id: int, session_id: int) -> dict[str, Any]:
    """A participant's own result against everyone who completed the study in the participant's stage (the results
    page and the "score" step of the API), by the study's task type."""
    by_person: dict[int, list] = {}
    for person, score in trialstore.rows(connection, COHORT_SCORES, {"study_id": study_id, "session_id": session_id}):
        by_person.setdefault(person, []).append(score)
    own = by_person.pop(session_id, [])
    study = trialstore.study_facts(connection, study_id)
    with i18n.language(study.config.get("language")):  # its lines are shown to the participant
        return registry().get(study.task_type).summarise(own, list(by_person.values()))


def complete(connection, session: trialstore.SessionFacts) -> dict[str, Any]:
    """Mark the session completed once the server holds every planned trial and every survey of the flow. A repeat
    (reload, second tab) answers as the first completion did. A researcher's preview, which may have jumped past
    trials and surveys, completes without them (never a participant's session: `preview` is fixed at entry)."""
    standing = trialstore.standing(connection, session.id)
    status, outcome = standing.status, standing.outcome
    if status == "completed":
        return _completed(connection, session, outcome)
    if status == "abandoned" and outcome and trialstore.scalar(connection, TIMELINE_FINISHED, {"id": session.id}):
        return _ended(connection, session)  # a plan-less page's ending that did not complete: answered as before
    if not trialstore.is_open(status, outcome):
        raise session_ended(status)
    if "consent" in standing.surveys_done:
        session.consented = True
    require_consent(connection, session, "completion")
    stored = set(standing.stored_indexes)
    missing = [i for i in range(len(session.plan)) if i not in stored]
    if missing and not session.preview:
        raise APIError(409, "trials_missing", f"{len(missing)} planned trial(s) are not stored yet", missing=missing)
    study = trialstore.session_study(connection, session)
    missing_surveys = [name for name in study.config["surveys"] if name not in standing.surveys_done]
    if missing_surveys and not session.preview:
        raise APIError(
            409, "surveys_missing", f"not answered yet: {', '.join(missing_surveys)}", missing_surveys=missing_surveys
        )
    task = registry().get(study.task_type)
    ending = _own_outcome(connection, session, study, task) if task.page_ends else "completed"
    if ending not in COMPLETING:  # ends as POST /end does: the session is abandoned, its condition slot free
        if not _end_session(connection, END, session, ending):
            return complete(connection, session)  # another request ended the session meanwhile
        return _ended(connection, session)
    keys = task.attention_checks()
    failures = trialstore.attention_check_failures(connection, session.id, keys) if keys else 0
    failed = ending == "failed_attention_check" or failures >= prolific_settings.attention_check_failures(study.config)
    outcome = "failed_attention_check" if failed else "completed"
    if not _end_session(connection, COMPLETE, session, outcome):
        return complete(connection, session)  # another request ended the session meanwhile: answer as it stands
    return _completed(connection, session, outcome)


def _end_session(connection, statement, session: trialstore.SessionFacts, outcome: str) -> bool:
    """Run COMPLETE or END (END_DECLINED for a declined consent, which forgets the person) and, if it ended the
    session, bump the study's data generation (a stored result of the study is stale from then on) at once with it:
    on PostgreSQL in one statement on the autocommit `connection` (models.bumped_with), on SQLite in a transaction
    of the ORM's engine (the autocommit connection would commit the two apart). Once per session, so the trial saves
    stay one statement each. A preview's end changes nothing an analysis reads, so it bumps nothing. True if it
    ended it."""
    if outcome == "no_consent":
        statement = END_DECLINED
    values = {"session_id": session.id, "now": utcnow(), "outcome": outcome}
    if session.preview:
        return trialstore.changed(connection, statement, values) == 1
    if connection.dialect.name == "postgresql":
        return trialstore.changed(connection, WITH_BUMP[statement], values) == 1
    with db.engine.begin() as transaction:
        ended = trialstore.changed(transaction, statement, values)
        if ended:
            bump_generation(session.study_id, transaction)
    return bool(ended)


def _completed(connection, session: trialstore.SessionFacts, outcome: str) -> dict[str, Any]:
    study = trialstore.session_study(connection, session)
    url = session.platform == "prolific" and prolific_settings.completion_url(study.config, outcome)
    if url:
        return {"status": "completed", "outcome": outcome, "redirect_url": url}
    return {"status": "completed", "outcome": outcome, "results_url": links.results_path(study.slug, session.token)}


def end(connection, session: trialstore.SessionFacts, raw: bytes) -> dict[str, Any]:
    """Record that the session ends early (`outcome`: no_consent, incompatible_device, or experiment_error once a
    fatal error of the experiment's code is recorded): it is abandoned, its condition slot is free again, and a
    Prolific participant is sent on with that outcome's completion code when the study has one (redirect_url; None:
    the page asks them to return the study)."""
    outcome = bodies.parse(bodies.EndEarly, raw).valid().outcome
    status = trialstore.status(connection, session.id)[0]
    if status in ("completed", "excluded", "withdrawn"):
        raise session_ended(status)
    if outcome == "no_consent" and trialstore.consented(connection, session):
        raise APIError(409, "consent_given", "consent was given in this session", field="outcome")
    if outcome == "experiment_error" and not trialstore.scalar(connection, FATAL_ERROR, {"id": session.id}):
        raise APIError(
            409,
            "no_experiment_error",
            "no error that stopped the experiment is recorded for this session",
            field="outcome",
        )
    _end_session(connection, END, session, outcome)
    return _ended(connection, session)


def _ended(connection, session: trialstore.SessionFacts) -> dict[str, Any]:
    """The answer for a session that ended early: its status and outcome, and the outcome's Prolific completion URL
    when the study has a code for it (None: the page asks the participant to return the study)."""
    status, recorded = trialstore.status(connection, session.id)
    study = trialstore.session_study(connection, session)
    url = session.platform == "prolific" and recorded and prolific_settings.completion_url(study.config, recorded)
    return {"status": status, "outcome": recorded, "redirect_url": url or None}
