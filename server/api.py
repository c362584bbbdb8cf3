"""Participant JSON API (docs/participant-api.md). A session is reached only through its token."""
from __future__ import annotations

from functools import wraps

from flask import Blueprint, current_app, g, jsonify, request

from . import sessions
from .errors import APIError

bp = Blueprint("api", __name__, url_prefix="/api/sessions/<token>")


@bp.before_request
def limit_body():
    # Participant bodies are small; refuse big ones before reading them (werkzeug raises 413 on access).
    request.max_content_length = current_app.config["PARTICIPANT_MAX_BODY"]


@bp.url_value_preprocessor
def load_session(endpoint, values):
    g.participant = sessions.by_token(values.pop("token"))
    if g.participant is None:
        raise APIError(404, "unknown_session", "no session has this token")


def json_body(view):
    """Require a JSON object body; hand it to the view."""
    @wraps(view)
    def wrapper(*args, **kwargs):
        if not request.is_json:
            raise APIError(415, "unsupported_media_type", "send the body as application/json")
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            raise APIError(400, "malformed_json", "the body must be a JSON object")
        return view(body, *args, **kwargs)
    return wrapper


@bp.get("")
def get_state():
    return jsonify(sessions.state(g.participant))


@bp.get("/summary")
def get_summary():
    return jsonify(sessions.summary(g.participant))


@bp.put("/environment")
@json_body
def put_environment(body):
    sessions.save_environment(g.participant, body)
    return jsonify(ok=True)


@bp.put("/surveys/<name>")
@json_body
def put_survey(body, name):
    sessions.save_survey(g.participant, name, body)
    return jsonify(ok=True, name=name)


@bp.post("/trials")
@json_body
def post_trial(body):
    status, payload = sessions.save_trial(g.participant, body)
    return jsonify(payload), status


@bp.post("/complete")
def post_complete():
    return jsonify(sessions.complete(g.participant))


def init_app(app):
    app.register_blueprint(bp)
