"""Errors as JSON for the participant API: `{"error": code, "message": ..., "field"?: ...}`, always 4xx for bad input.
No stack trace or SQL ever reaches a response."""

from __future__ import annotations

from flask import jsonify, request
from werkzeug.exceptions import HTTPException

from ..exceptions import APIError

API_PREFIX = "/api/"
#: The import names of requirements-analysis.txt's packages: a worker installed for serving only (docs/operations.md,
#: "What a serving worker loads") lacks them, and the researcher pages that compute (plans, figures) import them.
ANALYSIS_PACKAGES = frozenset({"pandas", "scipy", "numpy", "pingouin", "matplotlib", "PIL", "pyarrow", "tqdm"})


def api_error(exc: APIError):
    return jsonify({"error": exc.code, "message": exc.message, **exc.extra}), exc.status


def _wants_json() -> bool:
    return request.path.startswith(API_PREFIX)


def init_app(app):
    app.register_error_handler(APIError, api_error)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if _wants_json():
            code = (exc.name or "error").lower().replace(" ", "_")
            return api_error(APIError(exc.code or 500, code, exc.description or exc.name))
        return exc

    @app.errorhandler(ModuleNotFoundError)
    def analysis_not_installed(exc: ModuleNotFoundError):
        if (exc.name or "").partition(".")[0] not in ANALYSIS_PACKAGES:
            return unexpected(exc)
        app.logger.error("%s %s needs the analysis packages: %s", request.method, request.path, exc)
        message = (
            "this page needs studyhive's analysis packages, which this server was installed without: "
            "pip install -r requirements-analysis.txt"
        )
        if _wants_json():
            return api_error(APIError(503, "analysis_not_installed", message))
        return message[0].upper() + message[1:], 503

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        # Log the full trace for the operator; the client learns only that it was our fault.
        app.logger.exception("unhandled error on %s %s", request.method, request.path)
        if _wants_json():
            return api_error(APIError(500, "internal_error", "the server failed; please retry"))
        return "Internal server error", 500
