"""The least-privilege deployment: docker-compose.yml read as compose reads it (a migrate job run once, no default
password, the app not connected as the superuser, the proxy fix on), the app role `flask deploy app-role` makes
(on PostgreSQL: a participant gets through, DDL does not, running it again is harmless), the prediction import's
FK-trigger shortcut refused to that role, and the proxy fix (X-Forwarded-For trusted from PROXIES proxies only)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import sqlalchemy as sa
import yaml
from flask_migrate import upgrade

from server import create_app
from server.config import default_config
from server.db import db, dispose_engines
from server.models import Stimulus, Study
from server.researchers.auth import create_researcher
from server.studies.definitions import sync_studies
from tests.conftest import BACKEND, PG_URL, ROOT, make_app
from tests.helpers import take_study3_like_people

COMPOSE = ROOT / "docker-compose.yml"
VARIABLE = re.compile(r"\$\{(\w+)(?::([?-])([^}]*))?\}")


class Refused(Exception):
    """What `docker compose` does with `${VAR:?message}` when VAR is unset or empty: refuse to start."""


def interpolate(text: str, env: dict[str, str]) -> str:
    """Compose's variable substitution, the three forms the file uses: ${VAR}, ${VAR:-default}, ${VAR:?message}."""

    def value(match):
        name, kind, rest = match.groups()
        if env.get(name):
            return env[name]
        if kind == "?":
            raise Refused(f"{name}: {rest}")
        return rest if kind == "-" else ""

    return VARIABLE.sub(value, text)


def compose(env: dict[str, str]) -> dict:
    return yaml.safe_load(interpolate(COMPOSE.read_text(), env))


SECRETS = {
    "SECRET_KEY": "k" * 40,
    "POSTGRES_PASSWORD": "owner-pw",
    "STUDYHIVE_APP_DB_PASSWORD": "app-pw",
    "STUDYHIVE_TLS_DIR": "/etc/letsencrypt/live/studies.example.org",
}


def test_compose_refuses_to_start_without_each_password():
    compose(SECRETS)  # all set: starts
    for name in SECRETS:
        with pytest.raises(Refused, match=name):
            compose({**SECRETS, name: ""})
    # No password has a default anywhere in the file (the old one defaulted to `studyhive`).
    for name, kind, _ in VARIABLE.findall(COMPOSE.read_text()):
        if "PASSWORD" in name or name == "SECRET_KEY":
            assert kind == "?", name


def test_compose_runs_migrations_once_and_the_app_as_its_own_role():
    services = compose(SECRETS)["services"]
    db_env, migrate, app = services["db"]["environment"], services["migrate"], services["app"]
    superuser = db_env["POSTGRES_USER"]  # the official image makes POSTGRES_USER a superuser
    app_url = sa.engine.make_url(app["environment"]["DATABASE_URL"])
    migrate_url = sa.engine.make_url(migrate["environment"]["DATABASE_URL"])
    assert app_url.username != superuser and app_url.password == SECRETS["STUDYHIVE_APP_DB_PASSWORD"]
    assert migrate_url.username == superuser and migrate_url.password == SECRETS["POSTGRES_PASSWORD"]
    assert app_url.database == migrate_url.database == db_env["POSTGRES_DB"]
    # The migrate job creates the very role the app connects as, with the password the app uses.
    assert migrate["command"] == ["deploy/migrate.sh", app_url.username]
    assert migrate["environment"]["STUDYHIVE_APP_DB_PASSWORD"] == app_url.password
    script = (ROOT / "deploy/migrate.sh").read_text()
    for step in ("db upgrade", "studies sync", 'deploy app-role "$1"'):
        assert f'"$flask" {step}' in script
    assert migrate["depends_on"]["db"]["condition"] == "service_healthy"
    assert app["depends_on"] == {"migrate": {"condition": "service_completed_successfully"}}
    # The app servers (however many: --scale app=N) only serve: the image's command, no migration or sync.
    assert "command" not in app and "entrypoint" not in app
    cmd = [line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD")]
    assert len(cmd) == 1 and "db upgrade" not in cmd[0] and "studies sync" not in cmd[0], cmd
    assert "deploy/granian.sh" in cmd[0]
    assert "deploy/migrate.sh" in (ROOT / "Dockerfile").read_text()  # copied into the image the job runs from
    # nginx in front, so the app trusts one proxy's X-Forwarded-For.
    assert int(app["environment"]["STUDYHIVE_PROXIES"]) == 1
    assert "X-Forwarded-For" in (ROOT / "deploy/nginx-proxy.conf").read_text()
    assert services["proxy"]["depends_on"]["app"]["condition"] == "service_healthy"


def final_stage(dockerfile: str) -> list[str]:
    """The instructions of the Dockerfile's last stage (the image that runs), one per line, comments dropped."""
    stage = dockerfile.split("\nFROM ")[-1]
    return [line.strip() for line in stage.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_the_image_runs_as_an_unprivileged_user():
    lines = final_stage((ROOT / "Dockerfile").read_text())
    users = [i for i, line in enumerate(lines) if line.startswith("USER ")]
    cmd = next(i for i, line in enumerate(lines) if line.startswith("CMD "))
    assert users and users[-1] < cmd, "the image's last USER comes before its CMD"
    user = lines[users[-1]].split()[1]
    assert user.split(":")[0] not in ("root", "0")
    # The user exists in the image (created in this stage, before USER names it).
    assert any(line.startswith("RUN useradd") and line.split()[-1] == user for line in lines[: users[-1]])
    # Nothing after USER needs root: no package installs or file changes as that user.
    assert not [line for line in lines[users[-1] :] if line.startswith(("RUN", "COPY", "ADD"))]


def server_blocks(conf: str) -> list[str]:
    """The text of each `server { … }` block of an nginx configuration (braces matched)."""
    blocks = []
    for match in re.finditer(r"\bserver\s*\{", conf):
        depth, end = 0, match.end() - 1
        for end in range(match.end() - 1, len(conf)):
            depth += {"{": 1, "}": -1}.get(conf[end], 0)
            if depth == 0:
                break
        blocks.append(conf[match.end() : end])
    return blocks


def directives(block: str) -> list[str]:
    return [line.split("#")[0].strip() for line in block.splitlines() if line.split("#")[0].strip()]


def test_compose_serves_the_site_over_tls_only():
    for env in (SECRETS, {**SECRETS, "STUDYHIVE_SECURE_COOKIES": "0"}):  # not something an .env can turn off
        services = compose(env)["services"]
        assert services["app"]["environment"]["STUDYHIVE_SECURE_COOKIES"] == "1"
    proxy = services["proxy"]
    assert sorted(proxy["ports"]) == ["443:443", "80:80"]
    assert f"{SECRETS['STUDYHIVE_TLS_DIR']}:/etc/nginx/tls:ro" in proxy["volumes"]
    conf = (ROOT / "deploy/nginx.conf").read_text()
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in proxy["volumes"]
    plain, tls = server_blocks(conf)
    # Port 80 answers nothing but a redirect to the same address over HTTPS.
    assert directives(plain) == ["listen 80;", "return 301 https://$host$request_uri;"]
    tls_lines = directives(tls)
    assert "listen 443 ssl;" in tls_lines and "include /etc/nginx/studyhive-proxy.conf;" in tls_lines
    assert "ssl_certificate /etc/nginx/tls/fullchain.pem;" in tls_lines
    assert "ssl_certificate_key /etc/nginx/tls/privkey.pem;" in tls_lines
    assert "ssl_protocols TLSv1.2 TLSv1.3;" in tls_lines
    assert 'add_header Strict-Transport-Security "max-age=31536000" always;' in tls_lines
    assert "proxy_hide_header Strict-Transport-Security;" in tls_lines  # one HSTS header, not the app's and nginx's
    assert conf.count("include /etc/nginx/studyhive-proxy.conf;") == 1  # the app is reached over TLS only


def test_the_proxy_never_sends_a_post_that_reached_a_server_to_another():
    conf = directives((ROOT / "deploy/nginx-proxy.conf").read_text())
    [retry] = [line for line in conf if line.startswith("proxy_next_upstream ")]
    assert retry == "proxy_next_upstream error timeout;"  # without non_idempotent: a sent POST is never re-sent


# ----------------------------------------------------------------------------------------------- the proxy fix

BAD = {"username": "ada", "password": "guess"}


def login_app(tmp_path, proxies: int):
    """An app on the `app` fixture's database with a small login limit, behind `proxies` proxies."""
    app = make_app(tmp_path, LOGIN_RATE_LIMIT="2 per minute", PROXIES=proxies)
    with app.app_context():
        create_researcher("ada", "correct horse")
    return app


def failed_login(client, forwarded_for: str) -> int:
    return client.post("/researcher/login", data=BAD, headers={"X-Forwarded-For": forwarded_for}).status_code


def test_login_limit_counts_the_forwarded_client_behind_one_proxy(app, tmp_path):
    client = login_app(tmp_path, proxies=1).test_client()
    assert [failed_login(client, "198.51.100.7") for _ in range(3)] == [401, 401, 429]
    assert failed_login(client, "203.0.113.9") == 401  # another participant's address: not locked out
    # A client writing its own X-Forwarded-For gets nginx's entry appended: only that last one is trusted.
    assert failed_login(client, "203.0.113.9, 198.51.100.7") == 429
    assert failed_login(client, "198.51.100.7, 192.0.2.1") == 401


def test_forwarded_for_is_ignored_without_proxies(app, tmp_path):
    """PROXIES=0 (the default, for an app reached directly): the header is the client's to invent, so it counts for
    nothing. Which is also why 0 behind nginx locks everyone out: every client then has nginx's address."""
    client = login_app(tmp_path, proxies=0).test_client()
    assert [failed_login(client, "198.51.100.7") for _ in range(2)] == [401, 401]
    assert failed_login(client, "203.0.113.9") == 429


def test_proxies_setting_comes_from_the_environment(monkeypatch):
    monkeypatch.delenv("STUDYHIVE_PROXIES", raising=False)
    assert default_config()["PROXIES"] == 0
    monkeypatch.setenv("STUDYHIVE_PROXIES", "2")
    assert default_config()["PROXIES"] == 2


# ----------------------------------------------------------------------------------------------- the app role


def test_app_role_refuses_sqlite_and_the_owner_itself(runner):
    if BACKEND == "sqlite":
        result = runner.invoke(args=["deploy", "app-role", "someone"])
        assert "flask deploy app-role needs PostgreSQL (SQLite has no roles)" in result.output
    else:
        owner = db.session.scalar(db.text("SELECT current_user"))
        result = runner.invoke(args=["deploy", "app-role", owner])
        assert f"{owner!r} is the role running this command, the tables' owner" in result.output
        assert db.session.scalar(db.text("SELECT rolsuper FROM pg_roles WHERE rolname = current_user"))
    assert result.exit_code == 1


ROLE, PASSWORD = "deploytest_app", "deploytest-pw"
DATABASE = "deploytest_roles"


def admin(url) -> sa.Engine:
    return sa.create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")


def app_on(url):
    """The app on the given PostgreSQL URL, with the repository's studies."""
    config = {"TESTING": True, "SECRET_KEY": "test-secret", "SQLALCHEMY_DATABASE_URI": url}
    return create_app({**config, "STUDIES_DIR": str(ROOT / "studies")})


@pytest.fixture
def owner_app():
    """A database of its own migrated by the owner (the test server's superuser, as compose's `studyhive`), studies
    loaded: what deploy/migrate.sh has done before its last step. Dropped afterwards, with the role."""
    url = sa.engine.make_url(PG_URL).set(database=DATABASE)
    engine = admin(url)
    with engine.connect() as connection:
        connection.execute(sa.text(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)"))
        connection.execute(sa.text(f"DROP ROLE IF EXISTS {ROLE}"))
        connection.execute(sa.text(f"CREATE DATABASE {DATABASE}"))
    app = app_on(url)
    with app.app_context():
        upgrade(directory=app.config["MIGRATIONS_DIR"])
        sync_studies(Path(app.config["STUDIES_DIR"]))
        yield app
        dispose_engines()
    with engine.connect() as connection:
        connection.execute(sa.text(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)"))
        connection.execute(sa.text(f"DROP ROLE IF EXISTS {ROLE}"))
    engine.dispose()


def grant(app):
    result = app.test_cli_runner().invoke(
        args=["deploy", "app-role", ROLE], env={"STUDYHIVE_APP_DB_PASSWORD": PASSWORD}
    )
    assert result.exit_code == 0, result.output
    return result.output


def privileges(owner: sa.Connection) -> tuple:
    """Everything the command decides: the role's attributes, what it owns, every grant and default grant."""
    return (
        owner.execute(
            sa.text(
                "SELECT rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls, "
                "rolcanlogin FROM pg_roles WHERE rolname = :r"
            ),
            {"r": ROLE},
        ).one(),
        owner.execute(
            sa.text("SELECT relname FROM pg_class WHERE relowner = (SELECT oid FROM pg_roles WHERE rolname = :r)"),
            {"r": ROLE},
        ).all(),
        owner.execute(
            sa.text(
                "SELECT relname, relacl::text FROM pg_class WHERE relnamespace = "
                "'public'::regnamespace AND relkind IN ('r', 'S') ORDER BY relname"
            )
        ).all(),
        owner.execute(sa.text("SELECT defaclobjtype, defaclacl::text FROM pg_default_acl ORDER BY 1")).all(),
    )


@pytest.mark.db
@pytest.mark.skipif(BACKEND != "postgresql", reason="PostgreSQL's roles")
def test_app_role_runs_the_participant_path_and_nothing_more(owner_app, tmp_path):
    url = sa.engine.make_url(PG_URL).set(database=DATABASE)
    owner_engine = sa.create_engine(url)
    with owner_engine.begin() as owner:
        # An existing database at its worst: the app's role already there as a superuser owning a table (as the old
        # compose file's `studyhive` was).
        owner.execute(sa.text(f"CREATE ROLE {ROLE} LOGIN SUPERUSER"))
        owner.execute(sa.text(f"ALTER TABLE trials OWNER TO {ROLE}"))
    tables = len(db.metadata.tables)  # every table of the models; alembic_version is not one of them
    assert f"role deploytest_app: updated; reads and writes {tables} tables" in grant(owner_app)
    with owner_engine.connect() as owner:
        granted = privileges(owner)
        assert granted[0] == (False, False, False, False, False, True)  # LOGIN, nothing else
        assert granted[1] == []  # owns nothing: trials went back to the owner
        assert owner.scalar(sa.text("SELECT rolpassword FROM pg_authid WHERE rolname = :r"), {"r": ROLE}).startswith(
            "SCRAM-SHA-256$"
        )

    app_url = url.set(username=ROLE, password=PASSWORD)
    served = app_on(app_url)
    with served.app_context():
        take_study3_like_people(served.test_client(), random.Random(1))  # entry, surveys, every trial, completion
        keys = db.session.scalars(db.select(Stimulus.key).join(Study).filter(Study.slug == "study3")).all()
        predictions = tmp_path / "p.csv"
        predictions.write_text("stimulus_id,prediction\n" + "".join(f"{key},50\n" for key in keys))
        command = ["import-predictions", "study3", str(predictions), "--observer", "m", "--unit", "percent"]
        refused = served.test_cli_runner().invoke(args=[*command, "--disable-fk-triggers"])
        assert refused.exit_code == 1
        assert (
            "--disable-fk-triggers needs a PostgreSQL superuser (only one may switch off foreign-key triggers), "
            "and the database role 'deploytest_app' is not one"
        ) in refused.output
        imported = served.test_cli_runner().invoke(args=command)  # the checks kept: allowed, only slower
        assert imported.exit_code == 0, imported.output
        assert f"imported {len(keys)} predictions for m" in imported.output
        dispose_engines()
    app_engine = sa.create_engine(app_url)
    with app_engine.connect() as connection:
        trials = connection.scalar(sa.text("SELECT count(*) FROM trials"))
        assert trials > 0
        for statement in (
            "DROP TABLE trials",
            "ALTER TABLE trials ADD COLUMN x int",
            "TRUNCATE trials",
            "CREATE TABLE deploytest_t (x int)",
            "UPDATE alembic_version SET version_num = 'x'",
            "ALTER TABLE predictions DISABLE TRIGGER ALL",
            "CREATE ROLE deploytest_other",
        ):
            with pytest.raises(sa.exc.ProgrammingError, match="permission denied|must be owner"):
                connection.execute(sa.text(statement))
            connection.rollback()

    # A table a later migration creates (as the owner) is the app's to read and write, its sequence included.
    with owner_engine.begin() as owner:
        owner.execute(sa.text("CREATE TABLE deploytest_later (id serial PRIMARY KEY, note text)"))
    with app_engine.begin() as connection:
        connection.execute(sa.text("INSERT INTO deploytest_later (note) VALUES ('from the app')"))

    # Running it again (every `docker compose up` does) changes nothing and loses nothing.
    with owner_engine.connect() as owner:
        before = privileges(owner)
    assert f"role deploytest_app: updated; reads and writes {tables + 1} tables" in grant(owner_app)  # + the later
    with owner_engine.connect() as owner:
        assert privileges(owner) == before
        assert owner.scalar(sa.text("SELECT count(*) FROM trials")) == trials
    app_engine.dispose()
    owner_engine.dispose()


@pytest.mark.db
@pytest.mark.skipif(BACKEND != "postgresql", reason="PostgreSQL's roles")
def test_the_app_role_adds_to_the_audit_log_and_cannot_rewrite_it(owner_app):
    grant(owner_app)
    app_url = sa.engine.make_url(PG_URL).set(database=DATABASE, username=ROLE, password=PASSWORD)
    served = app_on(app_url)
    with served.app_context():
        for verb in ("pause", "open"):  # each logged in study_events, by the app's role
            result = served.test_cli_runner().invoke(args=["studies", verb, "study3"])
            assert result.exit_code == 0, result.output
        dispose_engines()
    app_engine = sa.create_engine(app_url)
    with app_engine.connect() as connection:
        assert connection.scalars(sa.text("SELECT action FROM study_events ORDER BY id")).all() == ["paused", "open"]
        for statement in (
            "UPDATE study_events SET action = 'closed'",
            "UPDATE study_events SET detail = NULL WHERE action = 'paused'",
            "DELETE FROM study_events",
            "TRUNCATE study_events",
        ):
            with pytest.raises(sa.exc.ProgrammingError, match="permission denied for table study_events"):
                connection.execute(sa.text(statement))
            connection.rollback()
        assert connection.scalar(sa.text("SELECT count(*) FROM study_events")) == 2
    app_engine.dispose()
