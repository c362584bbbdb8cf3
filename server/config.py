"""Configuration: one class for running, one for tests (CTFd's pattern); the environment picks the database."""
import os
import secrets
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def database_url(url: str) -> str:
    """Normalise a DATABASE_URL so every PostgreSQL spelling uses the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def secret_key(instance_path: Path) -> str:
    """SECRET_KEY from the environment, else one generated once and kept in instance/ (so sessions survive restarts)."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = instance_path / "secret_key"
    if not path.exists():
        instance_path.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
    return path.read_text().strip()


def default_config(instance_path: Path) -> dict:
    db = os.environ.get("DATABASE_URL") or f"sqlite:///{instance_path / 'studyhive.sqlite'}"
    return {
        "SQLALCHEMY_DATABASE_URI": database_url(db),
        "STUDIES_DIR": os.environ.get("STUDYHIVE_STUDIES_DIR", str(PROJECT_ROOT / "studies")),
        # Researcher uploads (prediction files, manifests) can be large; participant bodies have their own limit.
        "MAX_CONTENT_LENGTH": 64 * 1024 * 1024,
        "PARTICIPANT_MAX_BODY": 64 * 1024,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": os.environ.get("STUDYHIVE_SECURE_COOKIES", "") == "1",
        # Reverse proxies in front of the app that append to X-Forwarded-For (docker-compose.yml: 1, nginx); 0 trusts
        # no forwarded header, which is right only when clients reach the app directly (server/web/security.py).
        "PROXIES": int(os.environ.get("STUDYHIVE_PROXIES") or 0),
        "SQLALCHEMY_ENGINE_OPTIONS": engine_options(db),
        # Prolific's researcher API (server/prolific/): the token only ever comes from the environment, is never
        # stored in the database, and no message prints it.
        "PROLIFIC_API_TOKEN": os.environ.get("PROLIFIC_API_TOKEN", ""),
        "PROLIFIC_API_URL": os.environ.get("PROLIFIC_API_URL", "https://api.prolific.com/api/v1/"),
        "PROLIFIC_API_TIMEOUT": float(os.environ.get("PROLIFIC_API_TIMEOUT", 30)),  # seconds to wait for an answer
        "PROLIFIC_API_ATTEMPTS": 6,  # tries of a call that is safe to repeat (429, 5xx, time-outs)
        "PROLIFIC_API_BACKOFF": 1.0,  # first wait between tries, seconds; doubling up to 30 s
        # A pay call of unknown outcome is taken as unpaid (and paid again) only this long after it was sent.
        "PROLIFIC_PAY_SETTLE_SECONDS": 900,
    }


def engine_options(url: str) -> dict:
    """One pooled PostgreSQL connection per app-server thread (granian's blocking threads, deploy/granian.sh; or
    gunicorn's, gunicorn.conf.py), so a request never waits for a connection; the participant API's autocommit pool (server/db.py) gets the same options, so the server holds at most
    workers × 2 × (threads + 2); docs/operations.md."""
    if not database_url(url).startswith("postgresql"):
        return {}
    threads = os.environ.get("GRANIAN_BLOCKING_THREADS") or os.environ.get("GUNICORN_THREADS") or 4
    return {"pool_size": int(threads), "max_overflow": 2}
