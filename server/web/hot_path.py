"""The participant API's frequent requests, and the study's page, answered before Flask's request handling.

A participant makes 37 requests (docs/operations.md, "The participant API"): the entry and the page, then 35 to the
participant API, 30 of them saves. Flask's request context, URL routing, session interface and before/after hooks
cost such a request more CPU than its operation does. This WSGI layer runs the operation of each request
server/web/api.py lists in `HOT` (the state, the screen size, a survey, a save, the completion) and, when it
succeeds, answers as the view would: the same operation, the app's JSON provider's compact text, the compression of
static_files (`gzipped`; a 200 varies by Accept-Encoding) and `security.headers`. Everything else goes to Flask
unchanged, the body read here put back: another URL or method, a body without a length or over the limit or not
JSON, a refusal, an error, another status (a save's repeat). So no refusal has a second implementation, and every
answer but a success is the view's. The view runs the operation again: each in `HOT` answers a second run as the
first (api.Hot says why). Without a cookie (a researcher's would be read by Flask's session interface), the entry
by a Prolific link and the study's page are answered here too, when they send the participant to their page
(`participant.entry`: a rerun finds the session its PROLIFIC_PID already has) and when the page is the worker's kept
page (`participant.kept_page`, which only reads).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qsl

from flask import Flask
from werkzeug.datastructures import MultiDict
from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.utils import redirect

from ..participation import session_api, sessions, trialstore
from . import security
from .api import HOT, PREFIX, Hot
from .participant import ENDED, entry, kept_page
from .static_files import gzip_accepted, gzipped

# By method: each of HOT's URLs as a pattern (the token and the URL's values its named groups), with its key.
ROUTES: dict[str, list[tuple[re.Pattern, tuple[str, str]]]] = {}
for key in HOT:
    ROUTES.setdefault(key[0], []).append((re.compile(re.escape(PREFIX) + "(?P<token>[^/]+)" + key[1]), key))
# The entry and the study's page (participant.enter's and participant.run's URLs).
ENTRY = re.compile("/study/(?P<slug>[^/]+)")
PAGE = re.compile("/study/(?P<slug>[^/]+)/s/(?P<token>[^/]+)")
# A query string or mount point read alike by Werkzeug and urllib (nothing percent-encoded, no "+"); a Prolific link's
# ids are such.
PLAIN = re.compile("[A-Za-z0-9/._~=&-]*")
HTML = "text/html; charset=utf-8"


def is_json(content_type: str) -> bool:
    """Werkzeug's `Request.is_json` for a Content-Type header's value."""
    mimetype = content_type.partition(";")[0].strip().lower()
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


class HotPath:
    """WSGI middleware: `app.wsgi_app = HotPath(app, app.wsgi_app)`."""

    def __init__(self, app: Flask, wsgi_app: Callable):
        self.app, self.wsgi_app = app, wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        # A Range header changes how the view's answer is compressed (static_files.compress): the view answers it.
        found = None if "HTTP_RANGE" in environ else self._route(environ)
        if found:
            values, hot = found
            raw = self._body(environ) if hot.body else None
            if raw is not None or not hot.body:
                answered = self._answered(hot, values, raw, environ)
                if answered is not None:
                    start_response(*answered[:2])
                    return [answered[2]]
                if raw is not None:
                    environ["wsgi.input"] = io.BytesIO(raw)
        elif environ["REQUEST_METHOD"] == "GET" and not ("HTTP_RANGE" in environ or "HTTP_COOKIE" in environ):
            path = environ.get("PATH_INFO", "")
            page, entered = PAGE.fullmatch(path), ENTRY.fullmatch(path)
            answered = (page and self._page(page["slug"], page["token"], environ)) or (
                entered and self._entry(entered["slug"], environ)
            )
            if answered:
                start_response(*answered[:2])
                return [answered[2]]
        return self.wsgi_app(environ, start_response)

    @staticmethod
    def _route(environ: dict[str, Any]) -> tuple[dict[str, str], Hot] | None:
        """The URL's values and its entry of HOT (looked up now, as its view does), or None for any other request."""
        path = environ.get("PATH_INFO", "")
        for pattern, key in ROUTES.get(environ["REQUEST_METHOD"], ()):
            found = pattern.fullmatch(path)
            if found:
                return found.groupdict(), HOT[key]
        return None

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

    def _answered(
        self, hot: Hot, values: dict[str, str], raw: bytes | None, environ: dict[str, Any]
    ) -> tuple[str, list[tuple[str, str]], bytes] | None:
        """(status line, headers, body) as the view answers when the operation succeeds now, else None (Flask
        answers)."""
        token = values.pop("token")
        answered = self._attempt(self._operation, hot, token, raw, values)
        if answered is None or answered[0] != hot.answers:
            return None
        status, payload = answered
        # What jsonify and the after-request hooks give it: the JSON provider's compact text and a newline.
        body = (self.app.json.dumps(payload, separators=(",", ":")) + "\n").encode()
        return self._response(status, self.app.json.mimetype, body, environ)

    @staticmethod
    def _operation(hot: Hot, token: str, raw: bytes | None, values: dict[str, str]) -> tuple[int, dict]:
        with trialstore.autocommit() as connection:
            return hot.run(connection, session_api.lookup(connection, token), raw, **values)

    @staticmethod
    def _page_of(slug: str, token: str, script_root: str) -> str | None:
        with trialstore.autocommit() as connection:
            return kept_page(connection, slug, token, script_root)

    def _attempt(self, operation: Callable, *args) -> Any:
        """`operation(*args)` in the app's context, or None where it raises (a refusal or a failure): the view then
        answers it, and logs a failure, as it always did."""
        with self.app.app_context():
            try:
                return operation(*args)
            except Exception:
                return None

    def _entry(self, slug: str, environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]], bytes] | None:
        """A Prolific link's entry as participant.enter answers when it sends the participant to their page (a new
        session, or the one their PROLIFIC_PID has), else None (Flask answers: entry wrote nothing then, or will find
        the session it wrote)."""
        query, script_root = environ.get("QUERY_STRING", ""), environ.get("SCRIPT_NAME", "")
        if not (PLAIN.fullmatch(query) and PLAIN.fullmatch(script_root)):
            return None
        args = MultiDict(parse_qsl(query, keep_blank_values=True))
        if "PROLIFIC_PID" not in args:  # a link without one would get a second session from the view
            return None
        entered = self._attempt(entry, slug, args, environ.get("HTTP_USER_AGENT", ""))
        if not isinstance(entered, sessions.Entered) or entered.status in ENDED:
            return None
        # participant._resume's redirect, url_for's URL of the page (a slug and a token need no quoting).
        answer = redirect(f"{script_root.rstrip('/')}/study/{slug}/s/{entered.token}", 303)
        location = [("Location", answer.headers["Location"])]
        return self._response(303, answer.content_type, answer.get_data(), environ, ("Cookie",), location)

    def _page(self, slug: str, token: str, environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]], bytes] | None:
        """The study page as participant.run answers it with the worker's kept page, else None (Flask answers)."""
        script_root = environ.get("SCRIPT_NAME", "")
        if not PLAIN.fullmatch(script_root):  # Werkzeug decodes it first
            return None
        html = self._attempt(self._page_of, slug, token, script_root.rstrip("/"))
        if html is None:
            return None
        # Flask's session interface reads the (absent) researcher cookie of a page request: `Vary: Cookie`.
        return self._response(200, HTML, html.encode(), environ, vary=("Cookie",))

    def _response(
        self,
        status: int,
        content_type: str,
        body: bytes,
        environ: dict[str, Any],
        vary: tuple[str, ...] = (),
        extra: list[tuple[str, str]] | None = None,
    ) -> tuple[str, list[tuple[str, str]], bytes]:
        """(status line, headers, body) as Flask's response and the after-request hooks give them:
        static_files.compress's (only a 200 is compressed), then security.set_headers's; `extra`: the view's own."""
        headers = [("Content-Type", content_type), *(extra or ())]
        if status == 200:
            compressed = gzipped(body, gzip_accepted(environ.get("HTTP_ACCEPT_ENCODING")))
            vary = ("Accept-Encoding", *vary)
            if compressed is not None:
                body = compressed
                headers.append(("Content-Encoding", "gzip"))
        if vary:
            headers.insert(1, ("Vary", ", ".join(vary)))
        headers.insert(1, ("Content-Length", str(len(body))))
        status_line = f"{status} {HTTP_STATUS_CODES[status].upper()}"  # as Werkzeug words it: "201 CREATED"
        return status_line, [*headers, *security.headers(self.app.config)], body
