"""Every setting of the app in one table, SETTINGS: its name, default, environment variable and what it does.

create_app reads them as Flask's tutorial (flaskr) does, each source over the one before:

1. the table's defaults;
2. `instance/config.py` (Flask's instance folder), when there is one and create_app got no test configuration;
3. the environment variables the table names (an empty one counts as unset);
4. create_app(test_config), the tests' and benchmarks' overrides.

A setting whose default depends on the others (the database URL, its pool, the secret key) is computed last, only
when no source set it. Nothing else in server/ reads the environment for a setting or supplies a default where it
reads one: tests/test_settings.py checks both, and that docs/operations.md ("Settings"), generated from this table by
`flask settings docs --write docs/operations.md`, is current. Flask's and its extensions' own settings that are not
here (TESTING, WTF_CSRF_ENABLED, …) keep their defaults and are set the same way.
"""

from __future__ import annotations

import copy
import functools
import os
import secrets
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from .tasks.builtin import PACKAGES

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def database_url(url: str) -> str:
    """Normalise a DATABASE_URL so every PostgreSQL spelling uses the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _sqlite_in_instance(config: Mapping[str, Any], instance_path: Path) -> str:
    return f"sqlite:///{instance_path / 'studyhive.sqlite'}"


def engine_options(config: Mapping[str, Any], instance_path: Path) -> dict:
    """One pooled PostgreSQL connection per app-server thread (granian's blocking threads, deploy/granian.sh; or
    gunicorn's, gunicorn.conf.py), so a request never waits for a connection; the participant API's autocommit pool
    (server/db.py) gets the same options, so the server holds at most workers × 2 × (threads + 2); docs/operations.md.
    The app server's own variables give the thread count: they configure the server, not the app."""
    if make_url(config["SQLALCHEMY_DATABASE_URI"]).get_backend_name() != "postgresql":  # a URL text or object
        return {}
    threads = os.environ.get("GRANIAN_BLOCKING_THREADS") or os.environ.get("GUNICORN_THREADS") or 4
    return {"pool_size": int(threads), "max_overflow": 2}


def secret_key(config: Mapping[str, Any], instance_path: Path) -> str:
    """One generated once and kept in instance/secret_key, so researchers' sessions survive restarts."""
    path = instance_path / "secret_key"
    if not path.exists():
        instance_path.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
    return path.read_text().strip()


def checkout_commit(config: Mapping[str, Any], instance_path: Path) -> str:
    return _git_head()


@functools.cache
def _git_head() -> str:
    """The commit of the code this process loaded: `git rev-parse HEAD` in a checkout, else "unknown". Once per
    process: the code does not change under a running server, and every app the tests create would run git again.
    modelruns/train.py `commit` does the same for training runs (it never imports the server): change both."""
    try:
        done = subprocess.run(
            ["git", "-C", str(PROJECT_ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):  # no git in the image
        return "unknown"
    return done.stdout.strip() if done.returncode == 0 else "unknown"


@dataclass(frozen=True)
class Setting:
    name: str
    default: Any
    doc: str
    env: str | None = None  # the environment variable that sets it
    parse: Callable[[str], Any] = str  # the variable's text → the value
    # Computes the default from the other settings (and the instance folder) once every source has been read.
    derive: Callable[[Mapping[str, Any], Path], Any] | None = None
    shown: str | None = None  # the default as the docs give it, where the value is computed or machine-specific


KIB = 1024
MAX_HOURS = 100_000.0  # about 11 years: longer is a typo, and past it a date soon overflows


def hours(text: str) -> float:
    """A positive, finite number of hours (a preview link's or a preview's lifetime, an idle login), at most
    MAX_HOURS."""
    value = float(text)
    if not 0 < value <= MAX_HOURS:  # also refuses nan
        raise ValueError(f"must be a number of hours above 0 and at most {MAX_HOURS:g}, not {text!r}")
    return value


SETTINGS: tuple[Setting, ...] = (
    # Storage and code
    Setting(
        "SQLALCHEMY_DATABASE_URI",
        None,
        "the database; postgres:// and postgresql:// URLs get the psycopg 3 driver",
        env="DATABASE_URL",
        parse=database_url,
        derive=_sqlite_in_instance,
        shown="SQLite in instance/studyhive.sqlite",
    ),
    Setting(
        "SQLALCHEMY_ENGINE_OPTIONS",
        None,
        "SQLAlchemy's pool options for both engines (server/db.py)",
        derive=engine_options,
        shown="on PostgreSQL `pool_size` = `GRANIAN_BLOCKING_THREADS` or "
        "`GUNICORN_THREADS` (4), `max_overflow` 2; none on SQLite",
    ),
    Setting(
        "SQLALCHEMY_BINDS",
        {},
        "further engines (Flask-SQLAlchemy); server/db.py adds the participant API's autocommit one",
    ),
    Setting(
        "MIGRATIONS_DIR",
        str(PROJECT_ROOT / "migrations"),
        "Alembic's scripts (`flask db …`)",
        shown="migrations/ in the project",
    ),
    Setting(
        "STUDIES_DIR",
        str(PROJECT_ROOT / "studies"),
        "the study files `flask studies sync` loads, and the vocabularies they name",
        env="STUDYHIVE_STUDIES_DIR",
        shown="studies/ in the project",
    ),
    Setting(
        "TASK_PACKAGES",
        PACKAGES,
        "the task packages to register; installed distributions add theirs through the entry point group "
        '`studyhive.task_types` (server/tasktype/registry.py; README, "For developers")',
        shown="the built-in ones, server/tasks/builtin.py",
    ),
    Setting(
        "COMMIT",
        None,
        "the product's commit, written into data packages (`flask export --package`); the Docker image sets it from "
        "its build argument STUDYHIVE_COMMIT",
        env="STUDYHIVE_COMMIT",
        derive=checkout_commit,
        shown="`git rev-parse HEAD` in a checkout, else `unknown`",
    ),
    Setting(
        "NPM_REGISTRY_URL",
        "https://registry.npmjs.org",
        "the npm registry `flask studies sync` fetches the packages of jsPsych experiments from "
        "(docs/own-experiments.md; the tests point it at a fake)",
        env="NPM_REGISTRY_URL",
    ),
    Setting(
        "NPM_REGISTRY_TIMEOUT",
        30.0,
        "seconds to wait for the npm registry's answer",
        env="NPM_REGISTRY_TIMEOUT",
        parse=float,
    ),
    # Researchers' logins and pages
    Setting(
        "SECRET_KEY",
        None,
        "signs researchers' session cookies and CSRF tokens",
        env="SECRET_KEY",
        derive=secret_key,
        shown="generated once, kept in instance/secret_key",
    ),
    Setting(
        "PARTICIPANT_CODE_KEY",
        "",
        "the key of participants' pseudonymous codes and of the stored HMACs of their platform ids (set it once per "
        "deployment and keep it: a new key changes every code); empty: one generated once and kept in the database "
        '(`deployment_secrets`), shared by every app server. docs/operations.md, "Data protection"',
        env="STUDYHIVE_PARTICIPANT_CODE_KEY",
        shown="generated once, kept in the database",
    ),
    Setting(
        "SESSION_COOKIE_SECURE",
        False,
        "`1`: the session cookie is sent over HTTPS only, and every answer "
        "has an HSTS header; set it whenever the site is served over TLS",
        env="STUDYHIVE_SECURE_COOKIES",
        parse=lambda text: text == "1",
    ),
    Setting("SESSION_COOKIE_HTTPONLY", True, "page scripts cannot read the session cookie"),
    Setting("SESSION_COOKIE_SAMESITE", "Lax", "the session cookie goes with no cross-site POST"),
    Setting(
        "PROXIES",
        0,
        "reverse proxies in front of the app that append to X-Forwarded-For (compose: 1, nginx); "
        '0 trusts no forwarded header ("The proxy" above)',
        env="STUDYHIVE_PROXIES",
        parse=int,
    ),
    Setting(
        "GC_FREEZE",
        False,
        "`1`: once the app is built, the objects made so far go to the garbage collector's permanent generation "
        "(gc.freeze), so a worker's full collections no longer walk them (a pause of tens of milliseconds otherwise: "
        'docs/operations.md, "The save path at five times psiTurk"); deploy/granian.sh and gunicorn.conf.py set it',
        env="STUDYHIVE_GC_FREEZE",
        parse=lambda text: text == "1",
    ),
    Setting(
        "WARM_UP",
        False,
        "`1`: once the app is built, a worker does the participant pages' first-use work (the templates compiled, "
        "the page's strings in every language, the participant API's connections and the participant-code key), "
        "not its first participants' requests (a Prolific launch's first entries and pages waited up to 0.3 and 0.7 s: "
        'docs/operations.md, "The save path at five times psiTurk, seventh round"); deploy/granian.sh and '
        "gunicorn.conf.py set it",
        env="STUDYHIVE_WARM_UP",
        parse=lambda text: text == "1",
    ),
    Setting(
        "RESEARCHER_IDLE_HOURS",
        2.0,
        "a researcher's login ends after this many hours without a request (logout, and the `flask researcher` "
        'commands that change an account, end it at once: docs/researchers.md, "Accounts and sessions")',
        env="STUDYHIVE_RESEARCHER_IDLE_HOURS",
        parse=hours,
    ),
    Setting(
        "LOGIN_RATE_LIMIT",
        "10 per minute;50 per day",
        "failed researcher logins allowed per client address "
        "(`limits` notation); then even a correct password is refused",
        env="STUDYHIVE_LOGIN_RATE_LIMIT",
    ),
    Setting(
        "RATELIMIT_STORAGE_URI",
        "memory://",
        "where failed logins are counted: per process by default, "
        "shared with e.g. redis://host:6379 (needs the redis package)",
        env="STUDYHIVE_RATELIMIT_STORAGE",
    ),
    # Request sizes: docs/operations.md, "Settings", says why 64 KiB.
    Setting(
        "PARTICIPANT_MAX_BODY",
        64 * KIB,
        "bytes of a participant API request body; larger ones get 413 unread",
        shown="65536 (64 KiB)",
    ),
    Setting(
        "MAX_CONTENT_LENGTH",
        64 * KIB,
        "bytes of any other request body (researcher forms); larger ones get 413 unread",
        shown="65536 (64 KiB)",
    ),
    # The dashboard
    Setting(
        "DASHBOARD_N_BOOT", 2000, "bootstrap resamples of the dashboard's results page (`flask analyze` uses 10,000)"
    ),
    Setting(
        "DASHBOARD_PLAN_REPS",
        400,
        "simulated cohorts per n on the dashboard's planning page, computed on the request (`flask plan` uses 2,000)",
    ),
    Setting(
        "FAST_TRIAL_MS",
        200,
        "response times below this many milliseconds count as implausibly fast (dashboard, data quality) for task "
        "types that set no threshold of their own and studies without `[quality] fast_trial_ms`",
    ),
    # Researchers' previews (docs/researchers.md, "Preview")
    Setting(
        "PREVIEW_LINK_HOURS",
        72.0,
        "hours a preview link (dashboard, `flask links SLUG --preview`) stays valid after it is made",
        env="STUDYHIVE_PREVIEW_LINK_HOURS",
        parse=hours,
    ),
    Setting(
        "PREVIEW_MAX_AGE_HOURS",
        24.0,
        "`flask sessions purge-previews` (and `flask studies sync`) deletes preview sessions unseen for this many "
        "hours",
        env="STUDYHIVE_PREVIEW_MAX_AGE_HOURS",
        parse=hours,
    ),
    # Prolific (docs/prolific.md)
    Setting(
        "PROLIFIC_API_TOKEN",
        "",
        "Prolific's researcher API token: never stored in the database or printed",
        env="PROLIFIC_API_TOKEN",
    ),
    Setting(
        "PROLIFIC_API_URL",
        "https://api.prolific.com/api/v1/",
        "Prolific's API address (the tests point it at a fake)",
        env="PROLIFIC_API_URL",
    ),
    Setting(
        "PROLIFIC_API_TIMEOUT", 30.0, "seconds to wait for Prolific's answer", env="PROLIFIC_API_TIMEOUT", parse=float
    ),
    Setting("PROLIFIC_API_ATTEMPTS", 6, "tries of a call that is safe to repeat (429, 5xx, time-outs)"),
    Setting("PROLIFIC_API_BACKOFF", 1.0, "seconds before the second try, doubling up to 30"),
    Setting(
        "PROLIFIC_PAY_SETTLE_SECONDS",
        900,
        "seconds after a bonus pay call of unknown outcome before `flask prolific bonus … --pay-again` may pay "
        "it again (never without it)",
    ),
)


def defaults() -> dict[str, Any]:
    """The table's defaults; None for those computed last. Copies: an app may change its own (SQLALCHEMY_BINDS)."""
    return {s.name: copy.deepcopy(s.default) for s in SETTINGS}


def from_environment(environ: Mapping[str, str] = os.environ) -> dict[str, Any]:
    """The settings the environment sets; ValueError naming the variable for a value its setting cannot take."""
    out = {}
    for s in SETTINGS:
        if s.env and environ.get(s.env):
            try:
                out[s.name] = s.parse(environ[s.env])
            except ValueError as exc:
                raise ValueError(f"{s.env}={environ[s.env]!r}: {exc}") from None
    return out


def default_config() -> dict[str, Any]:
    """The defaults with the environment's values over them, before anything is computed."""
    return {**defaults(), **from_environment()}


def load(app, test_config: Mapping[str, Any] | None = None) -> None:
    """Fill app.config from every source, in the order the module docstring gives."""
    app.config.from_mapping(defaults())
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    app.config.from_mapping(from_environment())
    if test_config:
        app.config.from_mapping(test_config)
    for setting in SETTINGS:
        if setting.derive and app.config[setting.name] is None:
            app.config[setting.name] = setting.derive(app.config, Path(app.instance_path))


def child_environment(config: Mapping[str, Any]) -> dict[str, str]:
    """The environment of a `flask` command the app starts (the results page's recompute, server/results/stored.py):
    this process's, with the settings the two must share -- the database, the study files, the secret key -- set
    through their variables to the app's values, whichever source gave those."""
    url = make_url(config["SQLALCHEMY_DATABASE_URI"]).render_as_string(hide_password=False)
    return {
        **os.environ,
        "DATABASE_URL": url,
        "STUDYHIVE_STUDIES_DIR": str(config["STUDIES_DIR"]),
        "SECRET_KEY": str(config["SECRET_KEY"]),
    }


def docs_table() -> str:
    """The Markdown table of every setting, as docs/operations.md has it."""
    lines = ["| setting | environment variable | default | what it does |", "| --- | --- | --- | --- |"]
    for s in SETTINGS:
        shown = s.shown or (f"`{s.default}`" if s.default != "" else "empty")
        lines.append(f"| `{s.name}` | {f'`{s.env}`' if s.env else '–'} | {shown} | {s.doc} |")
    return "\n".join(lines) + "\n"
