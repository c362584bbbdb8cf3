"""Fixtures after flaskr's conftest: app, client, runner and an auth helper. One environment variable picks the
database for the whole suite (CTFd's TestingConfig): STUDYHIVE_TEST_DB=sqlite (default) or postgresql, the latter
at TEST_DATABASE_URL (default: the local server's `test` database)."""

from __future__ import annotations

import concurrent.futures
import functools
import os
import shutil
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa
from werkzeug.serving import make_server

from server import create_app
from server.config import database_url as normalised_database_url
from server.db import db, dispose_engines
from server.researchers.auth import create_researcher
from server.studies.definitions import sync_studies
from tests.fake_npm_registry import FakeRegistry
from tests.helpers import go_live

BACKEND = os.environ.get("STUDYHIVE_TEST_DB", "sqlite")
# Any PostgreSQL spelling (postgresql://, postgres://) on the psycopg 3 driver, as the app's DATABASE_URL: SQLAlchemy
# would take postgresql:// to mean psycopg2, which is not installed.
PG_URL = normalised_database_url(
    os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
)
ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def pytest_collection_modifyitems(items):
    """Mark every test that touches the database, so the PostgreSQL pass can run just those (`-m db`); not those
    marked `any_db`, whose checks do not depend on the backend (CI time)."""
    for item in items:
        uses_db = "app" in getattr(item, "fixturenames", ()) or item.get_closest_marker("db")
        if uses_db and not item.get_closest_marker("any_db"):
            item.add_marker(pytest.mark.db)


def pytest_report_header(config):
    return f"studyhive database backend: {BACKEND}" + (f" ({PG_URL})" if BACKEND == "postgresql" else "")


#: The PostgreSQL database of the `app` fixture running now (a copy of the demo template): apps a test builds itself
#: with make_app use it too, as they used the one fixed database before copies were made ahead.
_current_copy: str | None = None


def database_url(tmp_path: Path) -> str:
    if BACKEND == "postgresql":
        return _current_copy or PG_URL
    if BACKEND != "sqlite":
        raise pytest.UsageError(f"STUDYHIVE_TEST_DB must be sqlite or postgresql, not {BACKEND!r}")
    return f"sqlite:///{tmp_path / 'test.sqlite'}"


@functools.cache
def npm_registry_url() -> str:
    """One fake npm registry for the whole run (tests/fake_npm_registry.py): the demo study visual-search loads its
    packages from unpkg, and every app's sync resolves them here, so no test reaches the real registry."""
    return FakeRegistry().url


def make_app(tmp_path: Path, **config):
    if "NPM_REGISTRY_URL" not in config:  # packing node_modules for the shared registry takes seconds: only if used
        config["NPM_REGISTRY_URL"] = npm_registry_url()
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path),
            "STUDIES_DIR": str(ROOT / "studies"),
            **config,
        }
    )


def _postgres_admin():
    """An AUTOCOMMIT engine on the test server's maintenance database (CREATE and DROP DATABASE run outside a
    transaction)."""
    url = sa.engine.make_url(PG_URL)
    return url, sa.create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)


@pytest.fixture(scope="session", autouse=True)
def postgres_database():
    """TEST_DATABASE_URL's own database exists (tests that build their apps themselves, without `app`, use it)."""
    if BACKEND != "postgresql":
        return
    url, admin = _postgres_admin()
    with admin.connect() as c:
        if not c.scalar(sa.text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": url.database}):
            c.execute(sa.text(f'CREATE DATABASE "{url.database}"'))
    admin.dispose()


def build_demo_database(folder: Path, **config) -> None:
    """studies/ synced into an app's new database (a SQLite file in `folder` unless `config` names another), live."""
    app = make_app(folder, **config)
    with app.app_context():
        db.create_all()
        sync_studies(Path(app.config["STUDIES_DIR"]))
        go_live()
        db.session.remove()
        dispose_engines()


@pytest.fixture(scope="session")
def demo_database(tmp_path_factory):
    """studies/ synced once per run into a template: generating the demo studies' stimuli takes most of a database
    test's setup, and every `app` starts from a copy of the same result (a file copy on SQLite, CREATE DATABASE …
    TEMPLATE on PostgreSQL), each test still on its own database."""
    folder = tmp_path_factory.mktemp("demo-database")
    if BACKEND == "postgresql":
        url, admin = _postgres_admin()
        template = f"{url.database}_template"
        with admin.connect() as c:
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{template}" WITH (FORCE)'))
            c.execute(sa.text(f'CREATE DATABASE "{template}"'))
        config = {"SQLALCHEMY_DATABASE_URI": url.set(database=template).render_as_string(hide_password=False)}
    else:
        config = {}
    build_demo_database(folder, **config)
    if BACKEND == "postgresql":
        with TemplateCopies(template) as copies:
            yield copies
        with admin.connect() as c:
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{template}" WITH (FORCE)'))
        admin.dispose()
    else:
        yield folder / "test.sqlite"


class TemplateCopies:
    """Copies of the demo template for the `app` fixture, each made one test ahead in a thread: CREATE DATABASE …
    TEMPLATE writes the whole database and waits for it to reach the disk (about 0.3 s here, most of it waiting),
    and DROP DATABASE waits too, so the next test's copy is made, and the last one dropped, while a test runs. One
    worker thread, so a drop always precedes the create that reuses its name (three names in turn)."""

    NAMES = 3

    def __init__(self, template: str):
        self.template = template
        self.url, self.admin = _postgres_admin()
        self.worker = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        self.made = 0
        self.next = self._make()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.next.result()
        for i in range(self.NAMES):
            self.worker.submit(self._drop, self._name(i))
        self.worker.shutdown(wait=True)
        self.admin.dispose()

    def _name(self, i: int) -> str:
        return f"{self.url.database}_{i % self.NAMES}"

    def _drop(self, name: str) -> None:
        with self.admin.connect() as c:  # FORCE: a previous run may have been interrupted with connections open
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    def _create(self, name: str) -> str:
        self._drop(name)
        with self.admin.connect() as c:
            c.execute(sa.text(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"'))
        return name

    def _make(self) -> concurrent.futures.Future:
        self.made += 1
        return self.worker.submit(self._create, self._name(self.made))

    def take(self) -> str:
        """A fresh copy's URL; the next one starts being made now."""
        name = self.next.result()
        self.next = self._make()
        return self.url.set(database=name).render_as_string(hide_password=False)

    def give_back(self, url: str) -> None:
        self.worker.submit(self._drop, sa.engine.make_url(url).database)


@pytest.fixture
def app(tmp_path, demo_database):
    global _current_copy
    if BACKEND == "postgresql":
        _current_copy = demo_database.take()
    else:
        shutil.copyfile(demo_database, tmp_path / "test.sqlite")
    app = make_app(tmp_path)
    try:
        with app.app_context():
            yield app
            db.session.remove()
            dispose_engines()
    finally:
        if BACKEND == "postgresql":
            demo_database.give_back(_current_copy)
            _current_copy = None


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


class AuthActions:
    def __init__(self, client):
        self._client = client

    def login(self, username="ada", password="correct horse"):
        return self._client.post("/researcher/login", data={"username": username, "password": password})

    def logout(self):
        return self._client.post("/researcher/logout")


@pytest.fixture
def auth(app, client):
    create_researcher("ada", "correct horse")
    return AuthActions(client)


@pytest.fixture
def live_server(app):
    """The app on a real port in a thread, for the browser tests; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()


CHROMIUM = os.environ.get("STUDYHIVE_CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, headless, driven by Playwright (no Playwright browser download)."""
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run scripts/ensure-chromium (make test does)")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    yield page
    context.close()
