"""The participant API's saves (a planned trial, an experiment's row) stored before Flask's request handling.

Thirty of a participant's ~37 requests are saves (docs/operations.md, "The participant API"), and Flask's request
context, URL routing, session interface and before/after hooks cost a save more CPU than storing it does. This WSGI
layer answers a save that stores (201) itself, with the operation its Flask view runs (server/web/api.py `SAVES`) and
the response that view gives (the app's JSON provider, `security.headers`). Everything else goes to Flask unchanged,
the body read here put back: a body without a length or over the limit, another content type, a repeat, a refusal,
an error. So no refusal has a second implementation, and every answer but "stored" is the view's own. The view runs
the operation again: it stored nothing the first time (a save stores only when it answers 201), or, had it failed
after storing, the view answers a repeat (the database's unique keys keep one row).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask

from ..participation import session_api, trialstore
from . import security
from .api import PREFIX, SAVES

SAVE_URL = re.compile(re.escape(PREFIX) + r"(?P<token>[^/]+)/(?P<kind>" + "|".join(SAVES) + ")")
STORED = 201
STORED_STATUS = "201 CREATED"  # as Werkzeug words it


def is_json(content_type: str) -> bool:
    """Werkzeug's `Request.is_json` for a Content-Type header's value."""
    mimetype = content_type.partition(";")[0].strip().lower()
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


class HotSaves:
    """WSGI middleware: `app.wsgi_app = HotSaves(app, app.wsgi_app)`."""

    def __init__(self, app: Flask, wsgi_app: Callable):
        self.app, self.wsgi_app = app, wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        found = environ["REQUEST_METHOD"] == "POST" and SAVE_URL.fullmatch(environ.get("PATH_INFO", ""))
        raw = self._body(environ) if found else None
        if raw is not None:
            stored = self._stored(found["token"], found["kind"], raw)
            if stored is not None:
                body, headers = stored
                start_response(STORED_STATUS, headers)
                return [body]
            environ["wsgi.input"] = io.BytesIO(raw)
        return self.wsgi_app(environ, start_response)

    def _body(self, environ: dict[str, Any]) -> bytes | None:
        """The body when it is JSON with a length within PARTICIPANT_MAX_BODY (api.body_bytes's rules), else None:
        left unread for Flask, which answers the rest."""
        length = environ.get("CONTENT_LENGTH", "")
        if not (length.isascii() and length.isdigit() and is_json(environ.get("CONTENT_TYPE", ""))):
            return None
        length = int(length)
        if length > self.app.config["PARTICIPANT_MAX_BODY"]:
            return None
        return environ["wsgi.input"].read(length)

    def _stored(self, token: str, kind: str, raw: bytes) -> tuple[bytes, list[tuple[str, str]]] | None:
        """The view's response (body, headers) when the save stores now, else None (nothing was stored: Flask
        answers)."""
        with self.app.app_context():
            try:
                with trialstore.autocommit() as connection:
                    status, payload = SAVES[kind](connection, session_api.lookup(connection, token), raw)
            except Exception:  # a refusal or a failure: the view answers it (and logs a failure) as it always did
                return None
            if status != STORED:
                return None
            # What jsonify and the after-request hooks give a 201 (compression takes only 200s): the JSON provider's
            # compact text and a newline, then security.set_headers's.
            body = (self.app.json.dumps(payload, separators=(",", ":")) + "\n").encode()
            return body, [
                ("Content-Type", self.app.json.mimetype),
                ("Content-Length", str(len(body))),
                *security.headers(self.app.config),
            ]
