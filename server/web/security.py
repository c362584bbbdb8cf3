"""Response headers every page gets, CSRF protection for the researcher forms (Flask-WTF), the login rate limit
(the `limits` package) and, behind reverse proxies (the PROXIES setting), trusting their X-Forwarded-For/-Proto
(ProxyFix).

The rate limit (the LOGIN_RATE_LIMIT setting) counts failed logins per client address in memory: each worker process
counts on its own, so with W workers an address gets at most W × the limit (docs/researchers.md).
RATELIMIT_STORAGE_URI (a `limits` storage URI such as redis://host:6379, which needs the redis package) makes the
count shared (server/config.py). Only the login view asks: `limits` directly rather than
Flask-Limiter, whose hooks run on every request, participants' trial saves included (docs/operations.md).
"""

from flask import current_app, request
from flask_wtf.csrf import CSRFProtect
from limits import parse_many, storage, strategies
from werkzeug.middleware.proxy_fix import ProxyFix

from .api import bp as api_bp

csrf = CSRFProtect()

# Scripts only from our own origin; jsPsych plugins set inline style attributes, so styles allow 'unsafe-inline'.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)

# A researcher's experiment page (server/web/participant.py, experiment_file): `sandbox allow-scripts` gives it an
# opaque origin even when opened on its own, so its script can neither read studyhive's pages nor send their cookies;
# its inline scripts and event handlers run by the hashes taken at sync (experiment_csp), and only our page may frame
# it.
# base-uri 'self': the page's <base href="/study-files/…/"> (experiment.py) is what resolves the relative URLs its
# script computes ("img/a.png") to the study's files; 'none' would drop it and those files would 404.
# allow-forms: without it a form's submit event never fires, and survey-html-form and survey-text end their trials on
# it; form-action 'none' keeps a submit from going anywhere (no plugin lets one navigate), so no form carries what
# the page knows to another host or to studyhive.
# allow-modals: alert(), confirm() and prompt() are how hand-written plugins and survey code say an answer is missing
# or wrong; without it the browser drops them silently and the participant is left stuck without the message. A
# dialog shows the experiment's text in the browser's own box (Chromium says "An embedded page … says") and reaches
# no host and no origin.
# 'unsafe-eval', for every experiment: SurveyJS's knockout UI (@jspsych/plugin-survey 1.x and 2.x) compiles its
# bindings with `new Function`, and other libraries do the same. The threat: a string someone else controls, run as
# code. Here it could only do what the experiment's own script already does, in the same frame: no origin (no
# cookies, storage or studyhive page to read), no host but studyhive to reach (default-src 'self', form-action
# 'none', no popups or top navigation in the sandbox), no session token to name (the frame gets no referrer), and
# nothing to send but this participant's own rows through the page around it, which the participant can send
# anyway. The strings that reach this frame are the researcher's (trusted as the experiment's author) and this
# participant's own answers; no other participant's data is ever in it. Allowing eval only where sync recognises a
# package that needs it would rest on guessing from code (jsPsych 7's own bundle names `Function(` in a fallback it
# never runs; others eval through setTimeout strings) and would leave a blank frame whenever the guess misses, for no
# protection the sandbox does not already give.
# worker-src data:: the frame's opaque origin cannot start a worker from a study file's URL, so runtime.js starts it
# from a data: URL that loads that file; a worker runs under this same policy, and eval already allows such code.
EXPERIMENT_CSP = (
    "sandbox allow-scripts allow-forms allow-modals; default-src 'self'; script-src 'self' 'unsafe-eval' {hashes}; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' data: blob:; "
    "worker-src 'self' data:; font-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'none'; "
    "frame-ancestors 'self'"
)


def experiment_csp(script_hashes: list[str], handler_hashes: list[str] | None = None) -> str:
    """The experiment page's policy: its inline scripts run by their hashes, and with 'unsafe-hashes' its inline
    event handlers (onclick=…) by theirs, as sync found them written out in its markup and in the HTML its scripts
    write: that code is the researcher's, as the scripts are, and any other handler stays refused."""
    sources = [*script_hashes, *(["'unsafe-hashes'", *handler_hashes] if handler_hashes else [])]
    return EXPERIMENT_CSP.format(hashes=" ".join(sources))


class LoginLimit:
    """Failed logins per client address in fixed windows (Flask-Limiter's default strategy)."""

    def __init__(self, storage_uri: str):
        self.limiter = strategies.FixedWindowRateLimiter(storage.storage_from_string(storage_uri))

    def _limits(self):
        return parse_many(current_app.config["LOGIN_RATE_LIMIT"])

    def exhausted(self) -> bool:
        return not all(self.limiter.test(limit, "login", request.remote_addr) for limit in self._limits())

    def failed(self) -> None:
        for limit in self._limits():
            self.limiter.hit(limit, "login", request.remote_addr)


def login_limit() -> LoginLimit:
    return current_app.extensions["studyhive.login_limit"]


def headers(config) -> list[tuple[str, str]]:
    """The headers every response gets unless it sets its own (set_headers; server/web/hot_path.py adds them to the
    saves it answers)."""
    return [
        ("Content-Security-Policy", CSP),
        ("X-Content-Type-Options", "nosniff"),
        # Session tokens are in page URLs: never send them to another site in a Referer.
        ("Referrer-Policy", "same-origin"),
        # Served over TLS: browsers should never try plain HTTP.
        *([("Strict-Transport-Security", "max-age=31536000")] if config["SESSION_COOKIE_SECURE"] else []),
    ]


def set_headers(response):
    for name, value in headers(current_app.config):
        response.headers.setdefault(name, value)
    return response


def init_app(app):
    csrf.init_app(app)
    # The participant API is reached by token in the URL, not by cookie, so cross-site forgery has nothing to ride on.
    csrf.exempt(api_bp)
    app.extensions["studyhive.login_limit"] = LoginLimit(app.config["RATELIMIT_STORAGE_URI"])
    app.after_request(set_headers)
    # Behind N reverse proxies (PROXIES) the client address, which the login rate limit counts by, is the one the
    # N-th proxy from the app appended to X-Forwarded-For: without this every client has the proxy's address and 10
    # wrong passwords from anyone lock out every researcher. The scheme comes from the nearest proxy's
    # X-Forwarded-Proto, which nginx sets (deploy/nginx-proxy.conf). X-Forwarded-Host is never trusted: nginx passes
    # a client's own through unchanged, and it sends the Host header as it is.
    proxies = app.config["PROXIES"]
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=1, x_host=0)
