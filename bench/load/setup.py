"""The production setup under test: a fresh PostgreSQL database set up by the migration job (deploy/migrate.sh, as
compose's `migrate` service), the app servers (granian, or gunicorn with gunicorn.conf.py), and the checks."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import sqlalchemy as sa

from server.config import PROJECT_ROOT, database_url

from ..common import DEFAULT_SERVER, ensure_database
from .table import Row
from .wrk import descendants

DATABASE = "studyhive_load"
WORKERS = int(os.environ.get("GUNICORN_WORKERS", (os.cpu_count() or 1) + 1))
THREADS = int(os.environ.get("GUNICORN_THREADS", 4))
# granian, measured against gunicorn in the same table: workers and blocking threads per worker (its WSGI threads)
GRANIAN_WORKERS = int(os.environ.get("GRANIAN_WORKERS", os.cpu_count() or 1))
GRANIAN_THREADS = int(os.environ.get("GRANIAN_BLOCKING_THREADS", 4))
SECONDS_FAULT = float(os.environ.get("LOAD_FAULT_SECONDS", 20))
# The app servers' role, as docker-compose.yml's `studyhive_app`: made by the migration job, no superuser, owning
# nothing. One per PostgreSQL server (roles are server-wide), granted on each load database the job sets up.
APP_ROLE, APP_PASSWORD = "bench_studyhive_app", "bench-load"


def load_url() -> str:
    if os.environ.get("BENCH_LOAD_DATABASE_URL"):
        return database_url(os.environ["BENCH_LOAD_DATABASE_URL"])
    server = database_url(os.environ.get("TEST_DATABASE_URL") or DEFAULT_SERVER)
    return sa.engine.make_url(server).set(database=DATABASE).render_as_string(hide_password=False)


def fresh_database(url: str | None = None) -> str:
    """Drop and recreate the load database, then run the migration job once as its owner (the URL's role): `flask
    db upgrade`, `flask studies sync`, and `flask deploy app-role` for APP_ROLE. Returns the owner's URL."""
    url = url or load_url()
    target = sa.engine.make_url(url)
    admin = sa.create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{target.database}" WITH (FORCE)'))
    admin.dispose()
    ensure_database(url)
    job = subprocess.run(
        [str(PROJECT_ROOT / "deploy/migrate.sh"), APP_ROLE],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "DATABASE_URL": url,
            "SECRET_KEY": "bench-load",
            "FLASK": str(PROJECT_ROOT / ".venv/bin/flask"),
            "STUDYHIVE_APP_DB_PASSWORD": APP_PASSWORD,
        },
    )
    if job.returncode:
        raise RuntimeError(f"deploy/migrate.sh failed:\n{job.stdout}{job.stderr}")
    return url


def app_role_url(url: str) -> str:
    """The load database as the app servers reach it: as APP_ROLE, as compose's app service does."""
    return sa.engine.make_url(url).set(username=APP_ROLE, password=APP_PASSWORD).render_as_string(hide_password=False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The app server on a free loopback port, as `with Server(url) as server:`: granian through deploy/granian.sh
    (the production setup), or gunicorn with gunicorn.conf.py (`kind="gunicorn"`) to compare. `app` is the WSGI app
    it loads, gunicorn's spelling (the floor scenario loads an empty one, with no database). With `compose`, the
    server runs as docker-compose.yml's app service does: connected as the app role (APP_ROLE; `url` stays the
    owner's, for resetting and checking) and behind nginx (STUDYHIVE_PROXIES=1)."""

    def __init__(
        self,
        url: str | None,
        app: str = "server:create_app()",
        kind: str = "granian",
        workers: int | None = None,
        compose: bool = False,
    ):
        self.url, self.app, self.kind, self.port, self.worker_count = url, app, kind, free_port(), workers
        self.compose = compose
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.NamedTemporaryFile(prefix=f"studyhive-{kind}-", suffix=".log", delete=False)
        self.process = None

    def command(self) -> tuple[list[str], dict[str, str]]:
        if self.kind == "gunicorn":
            return (
                [str(PROJECT_ROOT / ".venv/bin/gunicorn"), "-c", "gunicorn.conf.py", self.app],
                {"GUNICORN_BIND": f"127.0.0.1:{self.port}"},
            )
        factory = self.app.endswith("()")
        # deploy/granian.sh: the production flags (interface, backlog, respawning workers) in one place
        return (
            [
                str(PROJECT_ROOT / "deploy/granian.sh"),
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--log-level",
                "warning",
                *(["--factory"] if factory else []),
                self.app.removesuffix("()"),
            ],
            {
                "GRANIAN": str(PROJECT_ROOT / ".venv/bin/granian"),
                "GRANIAN_WORKERS": str(self.worker_count or GRANIAN_WORKERS),
                "GRANIAN_BLOCKING_THREADS": str(GRANIAN_THREADS),
            },
        )

    def __enter__(self):
        command, extra = self.command()
        env = {
            "GUNICORN_WORKERS": str(WORKERS),
            "GUNICORN_THREADS": str(THREADS),
            **os.environ,
            "SECRET_KEY": "bench-load",
            "STUDYHIVE_ACCESS_LOG": "0",
            "STUDYHIVE_PROXIES": str(int(self.compose)),
            **extra,
        }
        if self.worker_count:  # two servers sharing this machine's cores get fewer workers each
            env["GUNICORN_WORKERS"] = str(self.worker_count)
        if self.url:
            env["DATABASE_URL"] = app_role_url(self.url) if self.compose else self.url
        self.process = subprocess.Popen(command, cwd=PROJECT_ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:  # ready once a worker answers (the API: 404 JSON for a made-up token)
            try:
                urllib.request.urlopen(f"{self.base}/api/sessions/ready")
            except urllib.error.HTTPError:
                break
            except OSError as exc:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{self.kind} did not start; see {self.log.name}") from exc
                time.sleep(0.2)
        return self

    def __exit__(self, *exc):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=60)

    def kill(self):
        """SIGKILL the whole server, master and workers: a machine lost mid-run."""
        for pid in self.tree():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.wait(timeout=30)

    def tree(self) -> list[int]:
        """The server's processes: master and workers."""
        return descendants(self.process.pid)

    def describe(self) -> str:
        if self.kind == "granian":
            return (
                f"granian (WSGI) {self.base}: {GRANIAN_WORKERS} workers × {GRANIAN_THREADS} blocking threads; "
                f"log {self.log.name}"
            )
        return (
            f"gunicorn {self.base}: {WORKERS} gthread workers × {THREADS} threads, two pools of {THREADS}+2 "
            f"per worker (gunicorn.conf.py); log {self.log.name}"
        )

    def busiest_worker(self) -> int:
        """The worker holding the most sockets (participants' connections): the one whose death hurts most."""

        def sockets(pid):
            try:
                fds = os.listdir(f"/proc/{pid}/fd")
                return sum(os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:") for fd in fds)
            except OSError:
                return -1

        return max(self.workers(), key=sockets)

    def workers(self) -> list[int]:
        """Process ids of the master's current workers."""
        pids = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.process.pid:
                pids.append(int(stat.parent.name))
        return pids

    def reset(self):
        """Empty the participant tables and the stored results between scenarios (the study and its stimuli stay)."""
        engine = sa.create_engine(self.url)
        with engine.begin() as connection:
            connection.execute(
                sa.text(
                    "TRUNCATE participant_sessions, trials, survey_responses, analysis_results, data_generations "
                    "CASCADE"
                )
            )
        engine.dispose()


def wait_for_trials(url: str, count: int, deadline: float):
    """Return once the database holds `count` trials (or at `deadline`, time.monotonic())."""
    engine = sa.create_engine(url)
    try:
        while time.monotonic() < deadline:
            with engine.connect() as connection:
                if connection.scalar(sa.text("SELECT count(*) FROM trials")) >= count:
                    return
            time.sleep(0.2)
    finally:
        engine.dispose()


def verify(url: str, tally) -> dict:
    """Compare what the clients were told with what the database holds."""
    engine = sa.create_engine(url)
    with engine.connect() as connection:
        stored = connection.execute(
            sa.text(
                "SELECT s.token, t.trial_index, t.client_trial_id FROM trials t "
                "JOIN participant_sessions s ON s.id = t.session_id"
            )
        ).all()
        completed = connection.scalar(sa.text("SELECT count(*) FROM participant_sessions WHERE status = 'completed'"))
        sessions = connection.scalar(sa.text("SELECT count(*) FROM participant_sessions"))
    engine.dispose()
    stored_set = {tuple(r) for r in stored}
    per_index = {(token, index) for token, index, _ in stored}
    acked = set(tally.acknowledged)
    lost = len(acked - stored_set)
    duplicated = len(stored) - len(per_index) + (len(tally.acknowledged) - len(acked))
    unacked = len(stored_set - acked)
    note = f"{len(stored):,} rows, {sessions} sessions"
    if unacked:
        note += f", {unacked} stored but never acknowledged (a participant gave up)"
    return {"lost": lost, "duplicated": duplicated, "completed": completed, "note": note}


def scratch_session(url: str, token: str) -> tuple[int, int]:
    """A session of the load database's first study, for what stores trials without the app (pgbench's ceiling, the
    durable floor of floor.py): (its id, the study's first stimulus's id)."""
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        study_id, stimulus_id = connection.execute(
            sa.text("SELECT study_id, id FROM stimuli ORDER BY id LIMIT 1")
        ).one()
        session_id = connection.scalar(
            sa.text(
                "INSERT INTO participant_sessions (study_id, token, platform, study_version, stage, preview, status, "
                "started_at, last_seen_at, plan) VALUES (:study, :token, 'direct', 1, 'live', false, 'started', now(), "
                "now(), '[]') RETURNING id"
            ),
            {"study": study_id, "token": token},
        )
    engine.dispose()
    return session_id, stimulus_id


def pgbench_ceiling(server: Server, seconds: int = 10) -> Row:
    """The save's SQL (one INSERT ignoring repeats, committing by itself as the app's autocommit connection does)
    run by pgbench with as many clients as the participant API's pools hold (workers × threads), prepared
    statements as psycopg uses after 5 runs."""
    session_id, stimulus_id = scratch_session(server.url, "pgbench-token")
    script = f"""\\set n random(1, 2000000000)
INSERT INTO trials (session_id, trial_index, client_trial_id, stimulus_id, practice, response, score, presented,
  rt_ms, client_time, created_at)
  VALUES ({session_id}, :n, 'pgbench-' || :client_id || '-' || :n, {stimulus_id}, false, '{{"percent": 42.5}}',
  '{{"abs_error": 2.5, "log_error": 1.84}}', NULL, 3456, now(), now())
  ON CONFLICT DO NOTHING;
"""
    clients = WORKERS * THREADS
    with tempfile.NamedTemporaryFile("w", suffix=".sql") as fh:
        fh.write(script)
        fh.flush()
        url = sa.engine.make_url(server.url)
        env = {**os.environ, "PGPASSWORD": url.password or ""}
        result = subprocess.run(
            [
                "pgbench",
                "-n",
                "-M",
                "prepared",
                "-f",
                fh.name,
                "-c",
                str(clients),
                "-j",
                "2",
                "-T",
                str(seconds),
                "-h",
                url.host or "127.0.0.1",
                "-p",
                str(url.port or 5432),
                "-U",
                url.username or "postgres",
                url.database,
            ],
            env=env,
            capture_output=True,
            text=True,
        )
    engine = sa.create_engine(server.url)
    with engine.begin() as connection:
        connection.execute(sa.text("DELETE FROM participant_sessions WHERE token = 'pgbench-token'"))
    engine.dispose()
    if result.returncode:
        return Row("pgbench ceiling", clients, 0, seconds, errors=1, server="–", note=result.stderr.strip()[-200:])
    tps = float(re.search(r"tps = ([\d.]+)", result.stdout).group(1))
    latency = float(re.search(r"latency average = ([\d.]+) ms", result.stdout).group(1))
    failed = int(re.search(r"number of failed transactions: (\d+)", result.stdout).group(1))
    return Row(
        "pgbench ceiling (same SQL)",
        f"{clients} clients",
        round(tps * seconds),
        seconds,
        errors=failed,
        server="–",
        note=f"latency average {latency:.2f} ms; no HTTP, no Python",
    )
