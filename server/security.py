"""Response headers every page gets, and CSRF protection for the researcher forms (Flask-WTF)."""
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()

# Scripts only from our own origin; jsPsych plugins set inline style attributes, so styles allow 'unsafe-inline'.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")


def set_headers(response):
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    # Session tokens are in page URLs: never send them to another site in a Referer.
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


def init_app(app):
    from .api import bp as api_bp

    csrf.init_app(app)
    # The participant API is reached by token in the URL, not by cookie, so cross-site forgery has nothing to ride on.
    csrf.exempt(api_bp)
    app.after_request(set_headers)
