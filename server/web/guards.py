"""Who is asking, on the researcher pages: the logged-in researcher (the signed session cookie holds their id, the
account's session epoch and when they were last seen: server/researchers/auth.py, "Sessions"),
the decorators that guard the pages, API tokens for the export downloads, and per-study access (a study the
researcher may not see answers 404, exactly like one that does not exist)."""

from __future__ import annotations

import time
from functools import wraps

from flask import abort, current_app, g, redirect, request, session, url_for
from flask.sessions import SecureCookieSessionInterface

from ..db import db
from ..models import Researcher, Study
from ..researchers.auth import can_see, session_valid, token_owner
from .api import PREFIX as API_PREFIX

# The page files (server/web/static_files.py) are the same for everyone: opened, the cookie would add a `Vary: Cookie`
# that makes a browser revalidate its year-long copy whenever the cookie changes (a researcher logging in).
NO_COOKIE_PREFIXES = (API_PREFIX, "/static/", "/tasks/", "/favicon.ico")


class ResearcherCookies(SecureCookieSessionInterface):
    """The signed session cookie holds only the logged-in researcher. The participant API and the page files never
    read it, so their requests skip opening it (a serializer and a signature check on each of thousands of trial
    saves). A request without the cookie (a participant's entry and page) gets an empty session without the
    serializer Flask builds first, and an empty session that was not changed is not saved (the `Vary: Cookie` of one
    that was read stays): both were a measurable part of a participant's entry and page (docs/operations.md, "The
    save path at five times psiTurk, eighth round")."""

    def open_session(self, app, request):
        if request.path.startswith(NO_COOKIE_PREFIXES):
            return self.make_null_session(app)
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()  # as Flask's open_session answers a request without the cookie
        return super().open_session(app, request)

    def save_session(self, app, session, response):
        if not session and not session.modified:  # what Flask's save_session does then, without its cookie settings
            if session.accessed:
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)


SEEN_REFRESH_S = 60  # how often a researcher's request renews the session's last-seen time


def start_session(researcher: Researcher) -> None:
    """Log the researcher in: a new cookie (nothing of a previous one kept) of the account's current epoch."""
    session.clear()
    session.update(researcher_id=researcher.id, epoch=researcher.session_epoch, seen=int(time.time()))


def load_researcher():
    """The session's researcher, or None (and the cookie cleared) when the session has ended: logged out, ended by
    a command, the account disabled, or idle for longer than RESEARCHER_IDLE_HOURS."""
    g.researcher = None
    rid = session.get("researcher_id")
    if rid is None:
        return
    researcher = db.session.get(Researcher, rid)
    now = int(time.time())
    idle = now - session.get("seen", 0)  # a cookie from before sessions could end has neither "seen" nor "epoch"
    if not session_valid(researcher, session.get("epoch")) or idle > current_app.config["RESEARCHER_IDLE_HOURS"] * 3600:
        session.clear()
        return
    # A refreshed "seen" rewrites the cookie, and the last response to set it wins: refreshed on every request, a
    # request in flight beside a form's POST (a page's other requests) would put back a cookie without the POST's
    # flash message. Once a minute is enough to time an idle session.
    if now - session.get("seen", 0) >= SEEN_REFRESH_S:
        session["seen"] = now
    g.researcher = researcher


def researcher_from_bearer() -> Researcher | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return token_owner(value.strip())


def study_or_404(slug: str) -> Study:
    """The study named in the URL if the current researcher may see it; 404 otherwise (existence is not revealed)."""
    study = db.session.scalars(db.select(Study).filter_by(slug=slug)).first()
    if study is None or not can_see(g.researcher, study):
        abort(404)
    return study


def login_required(view):
    @wraps(view)
    def wrapper(*args, **kwargs):
        if g.get("researcher") is None:
            return redirect(url_for("researcher.login", next=request.path))
        return view(*args, **kwargs)

    return wrapper


def token_or_login_required(view):
    """For downloads scripts fetch: a logged-in session, or `Authorization: Bearer <token>` (401 if it is wrong)."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        if "Authorization" in request.headers:
            g.researcher = researcher_from_bearer()
            if g.researcher is None:
                return (
                    {"error": "invalid_token", "message": "unknown or revoked API token"},
                    401,
                    {"WWW-Authenticate": 'Bearer realm="studyhive"'},
                )
        elif g.get("researcher") is None:
            return redirect(url_for("researcher.login", next=request.path))
        return view(*args, **kwargs)

    return wrapper


def init_app(app):
    app.session_interface = ResearcherCookies()
    app.before_request(load_researcher)
