"""Response headers every page gets, CSRF protection for the researcher forms (Flask-WTF), the login rate limit
(Flask-Limiter) and, behind a reverse proxy, trusting its X-Forwarded-* headers (ProxyFix).

The rate limit counts failed logins per client address in memory: each gunicorn worker process counts on its
own, so with W workers an address gets at most W × the limit (docs/researchers.md). STUDYHIVE_RATELIMIT_STORAGE
(a Flask-Limiter storage URI such as redis://host:6379, which needs the redis package) makes the count shared;
STUDYHIVE_LOGIN_RATE_LIMIT changes the limit.
"""
import os

from flask import current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect
from werkzeug.middleware.proxy_fix import ProxyFix

csrf = CSRFProtect()
limiter = Limiter(get_remote_address)

# Scripts only from our own origin; jsPsych plugins set inline style attributes, so styles allow 'unsafe-inline'.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")

# Failed researcher logins allowed per client address; a correct password is refused too once it is reached.
LOGIN_RATE_LIMIT = "10 per minute;50 per day"


def login_rate_limit() -> str:
    return current_app.config.get("LOGIN_RATE_LIMIT") or os.environ.get("STUDYHIVE_LOGIN_RATE_LIMIT") or LOGIN_RATE_LIMIT


def set_headers(response):
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    # Session tokens are in page URLs: never send them to another site in a Referer.
    response.headers.setdefault("Referrer-Policy", "same-origin")
    if current_app.config.get("SESSION_COOKIE_SECURE"):  # served over TLS: browsers should never try plain HTTP
        response.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    return response


def init_app(app):
    from .api import bp as api_bp

    csrf.init_app(app)
    # The participant API is reached by token in the URL, not by cookie, so cross-site forgery has nothing to ride on.
    csrf.exempt(api_bp)
    app.config.setdefault("RATELIMIT_STORAGE_URI", os.environ.get("STUDYHIVE_RATELIMIT_STORAGE", "memory://"))
    limiter.init_app(app)
    app.after_request(set_headers)
    # Behind one reverse proxy (nginx, Caddy, a load balancer) the client address (for the login rate limit) and
    # the scheme come from its X-Forwarded-For/-Proto; without a proxy these headers must not be trusted.
    if app.config.get("PROXY_FIX", os.environ.get("STUDYHIVE_PROXY_FIX") == "1"):
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)
