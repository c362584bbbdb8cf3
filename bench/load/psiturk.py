"""psiTurk 3.3.1 side by side: installed from PyPI into a virtualenv of its own (its pins, Flask 1.1 and SQLAlchemy
1.3, cannot live beside studyhive's), served as `psiturk-server` serves it (gunicorn with gevent workers, `threads
= auto`: 2 × cores + 1) on a PostgreSQL database of its own on the same server, and driven by the same wrk client
(bench/load/wrk/psiturk.lua: `PUT /sync/<uniqueId>` with the whole record after every trial, as psiturk.js does).

Its data check: every acknowledged trial is in the participant's stored record exactly once."""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import sqlalchemy as sa

from server.config import PROJECT_ROOT

from .setup import free_port, load_url

VERSION = "3.3.1"
VENV = PROJECT_ROOT / ".bench-venvs" / f"psiturk-{VERSION}"
# pyOpenSSL 22.0 (psiTurk's pin) fails to import under cryptography ≥ 39; psycopg2 for its PostgreSQL URL.
PINS = [f"psiturk=={VERSION}", "cryptography==38.0.4", "psycopg2-binary==2.9.13"]
DATABASE = "psiturk_load"


def ensure_venv() -> Path:
    marker = VENV / ".installed"
    if not marker.exists():
        print(f"installing psiTurk {VERSION} into {VENV.relative_to(PROJECT_ROOT)} (PyPI)", flush=True)
        subprocess.run(["python3", "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(VENV / "bin/pip"), "install", "--quiet", *PINS], check=True)
        marker.touch()
    return VENV


def database_url() -> str:
    url = sa.engine.make_url(load_url()).set(database=DATABASE)
    admin = sa.create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)'))
        connection.execute(sa.text(f'CREATE DATABASE "{DATABASE}"'))
    admin.dispose()
    return url.render_as_string(hide_password=False)


class PsiturkServer:
    """`with PsiturkServer() as server:` psiTurk's example experiment under `psiturk-server` on a free port."""

    def __init__(self):
        self.url = database_url()
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.dir = Path(tempfile.mkdtemp(prefix="studyhive-psiturk-"))
        self.process = None

    def __enter__(self):
        venv = ensure_venv()
        subprocess.run([str(venv / "bin/psiturk-setup-example")], cwd=self.dir, check=True, capture_output=True)
        self.experiment = self.dir / "psiturk-example"
        config = self.experiment / "config.txt"
        # psiTurk picks PostgreSQL column types only for a URL spelled postgres:// (models.py); SQLAlchemy 1.3 takes it
        url = sa.engine.make_url(self.url)
        text = (
            config.read_text()
            .replace(
                ";database_url = sqlite:///participants.db",
                f"database_url = postgres://{url.username}@{url.host}:{url.port or 5432}/{DATABASE}",
            )
            .replace(";host = localhost", "host = 127.0.0.1")
            .replace(";port = 22362", f"port = {self.port}")
        )
        config.write_text(text)
        self.log = open(self.dir / "server.out", "w")
        self.process = subprocess.Popen(
            [str(venv / "bin/psiturk-server")], cwd=self.experiment, stdout=self.log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{self.base}/check_worker_status")
                break
            except urllib.error.HTTPError:
                break
            except OSError as exc:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"psiturk-server did not start; see {self.dir}") from exc
                time.sleep(0.3)
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()

    def describe(self) -> str:
        return f"psiTurk {VERSION} (psiturk-server: gunicorn, gevent workers, threads = auto) {self.base}"


def verify(url: str, result) -> dict:
    """Every acknowledged trial in its participant's stored record exactly once."""
    engine = sa.create_engine(url)
    with engine.connect() as connection:
        rows = connection.execute(sa.text("SELECT uniqueid, status, datastring FROM assignments")).all()
    engine.dispose()
    stored, duplicated = set(), 0
    for uid, _, datastring in rows:
        trials = json.loads(datastring)["data"] if datastring else []
        keys = [(uid, t["current_trial"], t["trialdata"]["trial_id"]) for t in trials]
        duplicated += len(keys) - len(set(keys))
        stored |= set(keys)
    acked = set(result.acknowledged)
    completed = sum(1 for _, status, _ in rows if status == 3)  # psiturk_statuses.COMPLETED
    return {
        "lost": len(acked - stored),
        "duplicated": duplicated,
        "completed": completed,
        "note": f"{len(rows)} participants, {len(stored):,} trials in their records",
    }
