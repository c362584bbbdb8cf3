"""The settings table (server/config.py): every setting read in server/ is in it and read without a default of its
own, only config.py reads the environment, the sources apply in their documented order, the docs' list is the
table's, and the request-size limits fit the largest real request, nginx's included."""

from __future__ import annotations

import ast
import gc
import json
import logging
import re
import threading
from pathlib import Path

import pytest
from flask import Flask

from server import i18n
from server.cli.settings import with_table
from server.config import SETTINGS, default_config, load
from server.db import AUTOCOMMIT_BIND, db, dispose_engines
from server.studies.surveys import SURVEYS
from tests.conftest import make_app

ROOT = Path(__file__).resolve().parent.parent
NAMES = {setting.name for setting in SETTINGS}
KEY = re.compile(r"[A-Z][A-Z0-9_]+")
# The one other reader of the environment: `flask deploy app-role` takes the password of the role it creates from the
# variable its --password-env option names (not an option: command lines are visible to every user). It is an input
# of that command, not a setting of the app, and must not sit in app.config.
ENVIRONMENT_READERS = {"server/config.py", "server/cli/deploy.py"}


def server_modules():
    for path in sorted((ROOT / "server").rglob("*.py")):
        yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(), str(path))


def is_config(node: ast.AST) -> bool:
    """app.config, current_app.config, or a parameter named config (prolific.client.from_config). Study configs
    (study.config, `config` in server/studies/definitions.py) have lower-case keys, which KEY leaves out."""
    return (isinstance(node, ast.Attribute) and node.attr == "config") or (
        isinstance(node, ast.Name) and node.id == "config"
    )


def key(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and KEY.fullmatch(node.value):
        return node.value
    return None


def test_every_setting_read_in_server_is_in_the_table_and_has_its_default_there():
    unknown, defaulted, read = [], [], set()
    for path, tree in server_modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript) and is_config(node.value) and key(node.slice):
                read.add(key(node.slice))
                if key(node.slice) not in NAMES:
                    unknown.append(f"{path}:{node.lineno} {key(node.slice)}")
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and is_config(node.func.value)
                and node.func.attr in ("get", "setdefault", "pop")
                and node.args
                and key(node.args[0])
            ):
                defaulted.append(f"{path}:{node.lineno} config.{node.func.attr}({key(node.args[0])!r}…)")
    assert not unknown, f"settings read in server/ but missing from server/config.py's SETTINGS: {unknown}"
    assert not defaulted, f"the table gives every setting its default; read it as config[NAME]: {defaulted}"
    # The check sees the reads it is meant to see (a walk that found nothing would pass the asserts above).
    assert {
        "PROXIES",
        "FAST_TRIAL_MS",
        "DASHBOARD_N_BOOT",
        "PROLIFIC_API_TOKEN",
        "PROLIFIC_PAY_SETTLE_SECONDS",
        "LOGIN_RATE_LIMIT",
        "PARTICIPANT_MAX_BODY",
    } <= read


def test_only_config_reads_the_environment():
    readers = set()
    for path, tree in server_modules():
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv")) or (
                isinstance(node, ast.ImportFrom)
                and node.module == "os"
                and {a.name for a in node.names} & {"environ", "getenv"}
            ):
                readers.add(path)
    assert readers == ENVIRONMENT_READERS


def test_the_docs_list_of_settings_is_the_table():
    docs = (ROOT / "docs" / "operations.md").read_text()
    assert with_table(docs) == docs, "docs/operations.md is stale: run flask settings docs --write docs/operations.md"
    for setting in SETTINGS:
        assert f"| `{setting.name}` |" in docs
    # Documented defaults never name this machine's paths.
    assert str(ROOT) not in docs


def test_sources_apply_in_order(tmp_path, monkeypatch):
    """Defaults, then instance/config.py, then the environment, then create_app's test configuration; computed
    defaults last, from what the sources left."""
    for name in ("GRANIAN_BLOCKING_THREADS", "GUNICORN_THREADS", "SECRET_KEY", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text("FAST_TRIAL_MS = 150\nPROXIES = 3\nDASHBOARD_N_BOOT = 100\n")
    monkeypatch.setenv("STUDYHIVE_PROXIES", "2")
    monkeypatch.setenv("STUDYHIVE_LOGIN_RATE_LIMIT", "")  # empty: unset

    app = Flask("settings_test", instance_path=str(instance), instance_relative_config=True)
    load(app)
    assert app.config["FAST_TRIAL_MS"] == 150 and app.config["DASHBOARD_N_BOOT"] == 100  # the instance file
    assert app.config["PROXIES"] == 2  # the environment over the instance file
    assert app.config["LOGIN_RATE_LIMIT"] == "10 per minute;50 per day"  # the table's default
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{instance / 'studyhive.sqlite'}"
    assert app.config["SQLALCHEMY_ENGINE_OPTIONS"] == {}
    assert app.config["SECRET_KEY"] == (instance / "secret_key").read_text().strip() != ""

    monkeypatch.setenv("GUNICORN_THREADS", "7")
    tested = Flask("settings_test", instance_path=str(instance), instance_relative_config=True)
    load(
        tested,
        {
            "FAST_TRIAL_MS": 90,
            "PROXIES": 1,
            "SECRET_KEY": "given",
            "SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://u@db/studyhive",
        },
    )
    assert tested.config["FAST_TRIAL_MS"] == 90 and tested.config["PROXIES"] == 1  # the test configuration last
    assert tested.config["DASHBOARD_N_BOOT"] == 2000  # a test configuration means no instance file
    assert tested.config["SECRET_KEY"] == "given"
    # The pool follows the database actually used, whichever source named it.
    assert tested.config["SQLALCHEMY_ENGINE_OPTIONS"] == {"pool_size": 7, "max_overflow": 2}
    # Every app gets its own copy of a mutable default: server/db.py adds to SQLALCHEMY_BINDS.
    assert tested.config["SQLALCHEMY_BINDS"] is not app.config["SQLALCHEMY_BINDS"]


def test_environment_values_are_parsed(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@db:5432/studyhive")
    monkeypatch.setenv("PROLIFIC_API_TIMEOUT", "2.5")
    monkeypatch.setenv("STUDYHIVE_SECURE_COOKIES", "0")
    config = default_config()
    assert config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://u:p@db:5432/studyhive"
    assert config["PROLIFIC_API_TIMEOUT"] == 2.5 and config["SESSION_COOKIE_SECURE"] is False


@pytest.mark.parametrize("value", ["inf", "nan", "0", "-3", "1e9", "soon"])
def test_a_preview_lifetime_that_would_overflow_a_date_or_purge_at_once_is_refused_by_name(monkeypatch, value):
    monkeypatch.setenv("STUDYHIVE_PREVIEW_MAX_AGE_HOURS", value)
    with pytest.raises(ValueError, match=f"STUDYHIVE_PREVIEW_MAX_AGE_HOURS='{value}'"):
        default_config()
    monkeypatch.setenv("STUDYHIVE_PREVIEW_MAX_AGE_HOURS", "48")
    monkeypatch.setenv("STUDYHIVE_PREVIEW_LINK_HOURS", value)
    with pytest.raises(ValueError, match="STUDYHIVE_PREVIEW_LINK_HOURS"):
        default_config()


def test_request_limits_fit_the_largest_real_request_and_nginx_matches():
    """The largest body a participant can send, every text field full of 4-byte characters as a browser's
    JSON.stringify sends them, fits the limit; nginx refuses exactly what the app would (docs/operations.md)."""
    config = default_config()

    def largest(field):
        kind = field["type"]
        if kind in ("text", "longtext"):
            return "\U0001f600" * field["max_length"]
        if kind == "choice":
            return max(field["choices"], key=len)
        return True if kind == "boolean" else str(-(10**8))

    bodies = {
        name: len(
            json.dumps({"answers": {f["name"]: largest(f) for f in survey["fields"]}}, ensure_ascii=False).encode()
        )
        for name, survey in SURVEYS.items()
    }
    assert max(bodies.values()) < config["PARTICIPANT_MAX_BODY"], bodies
    nginx = (ROOT / "deploy" / "nginx-proxy.conf").read_text()
    size = re.search(r"client_max_body_size (\d+)k;", nginx)
    assert size and int(size.group(1)) * 1024 == max(config["PARTICIPANT_MAX_BODY"], config["MAX_CONTENT_LENGTH"])


@pytest.mark.parametrize("freeze", [False, True])
def test_gc_freeze_leaves_the_built_app_out_of_full_collections_only_when_set(tmp_path, freeze):
    gc.unfreeze()
    try:
        make_app(tmp_path, GC_FREEZE=freeze)
        # The app's objects (its URL map, for one) are frozen with it, or nothing is.
        assert (gc.get_freeze_count() > 10_000) is freeze
    finally:
        gc.unfreeze()  # the rest of the run collects as before


def _warmed(tmp_path, url: str):
    """An app built with WARM_UP on `url`, once its warm-up thread has ended."""
    warmed = make_app(tmp_path, WARM_UP=True, SQLALCHEMY_DATABASE_URI=url)
    for thread in threading.enumerate():
        if thread.name == "studyhive-warm-up":
            thread.join(30)
    return warmed


def test_warm_up_does_a_workers_first_use_work_before_its_first_participants(app, tmp_path):
    i18n._page_strings.cache_clear()
    warmed = _warmed(tmp_path, app.config["SQLALCHEMY_DATABASE_URI"])
    try:
        compiled = {name for _, name in warmed.jinja_env.cache.keys()}
        assert {"participant/study.html", "participant/page.html", "participant/message.html"} <= compiled
        assert i18n._page_strings.cache_info().currsize == len(i18n.LANGUAGES)
        with warmed.app_context():
            pool = db.engines[AUTOCOMMIT_BIND].pool
            assert len(warmed.extensions["studyhive.autocommit_kept"].idle) == pool.size() > 0
            assert warmed.extensions["studyhive.participant_code_key"]
            dispose_engines()
    finally:
        i18n._page_strings.cache_clear()
    # Without it, none of this is done when the app is built.
    plain = make_app(tmp_path, SQLALCHEMY_DATABASE_URI=app.config["SQLALCHEMY_DATABASE_URI"])
    assert not plain.jinja_env.cache.keys()
    assert "studyhive.autocommit_kept" not in plain.extensions
    assert i18n._page_strings.cache_info().currsize == 0


def test_warm_up_leaves_a_database_that_does_not_answer_to_the_first_requests(tmp_path):
    warnings = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: warnings.append(record.getMessage())
    logging.getLogger("server").addHandler(handler)
    try:
        warmed = _warmed(tmp_path, "postgresql+psycopg://postgres@127.0.0.1:1/nothing_listens_here")
    finally:
        logging.getLogger("server").removeHandler(handler)
    assert any("the database did not answer" in message for message in warnings), warnings
    assert "studyhive.participant_code_key" not in warmed.extensions
    assert {name for _, name in warmed.jinja_env.cache.keys()} >= {"participant/study.html"}
