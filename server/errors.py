"""Errors as JSON for the participant API: `{"error": code, "message": ..., "field"?: ...}`, always 4xx for bad input.
No stack trace or SQL ever reaches a response."""
from __future__ import annotations

from flask import jsonify, request
from werkzeug.exceptions import HTTPException


class APIError(Exception):
    def __init__(self, status: int, code: str, message: str, **extra):
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra

    def response(self):
        body = {"error": self.code, "message": self.message, **self.extra}
        return jsonify(body), self.status


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def init_app(app):
    app.register_error_handler(APIError, lambda exc: exc.response())

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if _wants_json():
            code = (exc.name or "error").lower().replace(" ", "_")
            return APIError(exc.code or 500, code, exc.description or exc.name).response()
        return exc

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        # Log the full trace for the operator; the client learns only that it was our fault.
        app.logger.exception("unhandled error on %s %s", request.method, request.path)
        if _wants_json():
            return APIError(500, "internal_error", "the server failed; please retry").response()
        return "Internal server error", 500
