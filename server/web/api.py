"""Participant JSON API (docs/participant-api.md). A session is reached only through its token.

Every view works on one autocommit connection and the session's cached facts (server/participation/trialstore.py):
participants make these requests by the thousand, so each costs a few single-statement round trips and no ORM unit of
work. The operations are server/participation/session_api.py's; the researcher bar's row of a preview session
(GET /preview/row) is the export's own code, read through the ORM like an export."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

from flask import Blueprint, current_app, g, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge

from ..db import db
from ..exceptions import APIError
from ..models import Study
from ..participation import bodies, session_api, trialstore
from ..results.export import trial_rows
from ..tasktype.events import MAX_BYTES as EVENTS_MAX_BYTES

PREFIX = "/api/sessions/"  # every participant API URL starts so (guards.ResearcherCookies skips its cookie)
bp = Blueprint("api", __name__, url_prefix=PREFIX + "<token>")
# Bytes of a row's body besides the row: its id, the client time, JSON punctuation, and its events (at their cap).
ROW_ENVELOPE = 4096 + EVENTS_MAX_BYTES


def state(connection, session, raw: bytes | None) -> tuple[int, dict]:
    return 200, session_api.state(connection, session)


def environment(connection, session, raw: bytes) -> tuple[int, dict]:
    session_api.save_environment(connection, session, raw)
    return 200, {"ok": True}


def survey(connection, session, raw: bytes, name: str) -> tuple[int, dict]:
    session_api.save_survey(connection, session, name, raw)
    return 200, {"ok": True, "name": name}


def complete(connection, session, raw: bytes | None) -> tuple[int, dict]:
    return 200, session_api.complete(connection, session)


@dataclass(frozen=True)
class Hot:
    """A request server/web/hot_path.py answers before Flask's request handling when its operation succeeds (answers
    `answers`): `run(connection, session, body, **URL values)` -> (HTTP status, JSON body), which its view below
    runs too. Anything else the operation does (a refusal, a failure, another status) is left to the view, which
    runs it again, so each of these must answer a second run as it did the first: a refusal writes nothing, and a
    repeat of a write answers as the write did. `body`: whether it reads the request's body (JSON within
    PARTICIPANT_MAX_BODY; any other body goes to the view)."""

    run: Callable[..., tuple[int, dict]]
    answers: int
    body: bool


# By method and the URL's part after the token (a regular expression; its named groups are the URL's values): a
# participant's requests but the entry and the page, 35 of their 37 (docs/operations.md, "The participant API").
HOT = {
    ("GET", ""): Hot(state, 200, body=False),
    ("PUT", "/environment"): Hot(environment, 200, body=True),
    ("PUT", "/surveys/(?P<name>[^/]+)"): Hot(survey, 200, body=True),
    ("POST", "/trials"): Hot(session_api.save_trial, 201, body=True),
    ("POST", "/rows"): Hot(session_api.save_row, 201, body=True),
    ("POST", "/complete"): Hot(complete, 200, body=False),
}


@bp.before_request
def limit_body():
    # Participant bodies are small; refuse big ones before reading them (werkzeug raises 413 on access).
    request.max_content_length = current_app.config["PARTICIPANT_MAX_BODY"]


@bp.url_value_preprocessor
def take_token(endpoint, values):
    g.token = values.pop("token")


def body_bytes() -> bytes:
    """The request's raw body, for the participant API's models to validate (server/participation/bodies.py): sent
    as application/json (else a 415) and within the size limit (else a 413, with or without a Content-Length)."""
    if not request.is_json:
        raise APIError(415, "unsupported_media_type", "send the body as application/json")
    limit = request.max_content_length
    if request.content_length is None and limit is not None:
        # werkzeug stops reading a body without Content-Length (chunked) at the limit and hands on what it read, cut:
        # reading one byte more tells a body over the limit from one that fills it.
        request.max_content_length = limit + 1
        if len(request.get_data()) > limit:
            raise RequestEntityTooLarge()
    return request.get_data()


def answer(result: tuple[int, dict]):
    status, payload = result
    return jsonify(payload), status


def with_session(view):
    """Run the view on an autocommit connection with the token's session facts. The session comes first, so an
    unknown token is a 404 whatever the body."""

    @wraps(view)
    def wrapper(**kwargs):
        with trialstore.autocommit() as connection:
            return view(connection, session_api.lookup(connection, g.token), **kwargs)

    return wrapper


@bp.get("")
@with_session
def get_state(connection, session):
    return answer(HOT["GET", ""].run(connection, session, None))


@bp.get("/summary")
@with_session
def get_summary(connection, session):
    return jsonify(session_api.summary(connection, session.study_id, session.id))


@bp.put("/environment")
@with_session
def put_environment(connection, session):
    return answer(HOT["PUT", "/environment"].run(connection, session, body_bytes()))


@bp.put("/surveys/<name>")
@with_session
def put_survey(connection, session, name):
    return answer(HOT["PUT", "/surveys/(?P<name>[^/]+)"].run(connection, session, body_bytes(), name=name))


@bp.post("/trials")
@with_session
def post_trial(connection, session):
    return answer(HOT["POST", "/trials"].run(connection, session, body_bytes()))


def row_sized_body(connection, session, field: str) -> bytes:
    """body_bytes for a body that carries a row (`field`), which may be larger than other participant bodies (the
    study's row_limit_kb): that limit, plus the body's envelope; over it, row_too_large."""
    study, task = session_api.plan_less(connection, session)
    limit = task.row_limit(study.config["task"])
    request.max_content_length = max(request.max_content_length, limit + ROW_ENVELOPE)
    try:
        return body_bytes()
    except RequestEntityTooLarge:
        raise bodies.row_too_large(limit, field) from None


@bp.post("/rows")
@with_session
def post_row(connection, session):
    return answer(HOT["POST", "/rows"].run(connection, session, row_sized_body(connection, session, "row")))


@bp.post("/row-amendments")
@with_session
def post_row_amendment(connection, session):
    raw = row_sized_body(connection, session, "properties")
    return jsonify(session_api.amend_rows(connection, session, raw))


@bp.get("/rows")
@with_session
def get_rows(connection, session):
    return jsonify(session_api.rows(connection, session))


@bp.post("/timeline-finished")
@with_session
def post_timeline_finished(connection, session):
    return jsonify(session_api.finish_timeline(connection, session, body_bytes()))


@bp.post("/replay-diverged")
@with_session
def post_replay_diverged(connection, session):
    return jsonify(session_api.record_divergence(connection, session, body_bytes()))


@bp.post("/experiment-error")
@with_session
def post_experiment_error(connection, session):
    return jsonify(session_api.record_error(connection, session, body_bytes()))


@bp.post("/complete")
@with_session
def post_complete(connection, session):
    return answer(HOT["POST", "/complete"].run(connection, session, None))


@bp.post("/end")
@with_session
def post_end(connection, session):
    return jsonify(session_api.end(connection, session, body_bytes()))


@bp.get("/preview/row")
@with_session
def get_preview_row(connection, session):
    """A preview session's stored trial `trial_index` as trials.csv has it (the researcher bar shows it after each
    save); only a researcher's preview shows its rows."""
    if not session.preview:
        raise APIError(404, "not_a_preview", "only a researcher's preview session shows the rows it stored")
    index = request.args.get("trial_index", type=int)
    if index is None:
        raise APIError(400, "invalid_field", "trial_index must be an integer", field="trial_index")
    study = db.session.get(Study, session.study_id)
    row = next((row for row in trial_rows(study, session_id=session.id) if row["trial_index"] == index), None)
    if row is None:
        raise APIError(404, "not_stored", f"trial {index} of this session is not stored", field="trial_index")
    # The JSON answer sorts its keys: `columns` keeps trials.csv's order.
    return jsonify(trial_index=index, columns=list(row), row=row)
