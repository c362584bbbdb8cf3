"""What every benchmark shares: the PostgreSQL benchmark database, a study big enough for the seed study's scale,
the Result rows, and the table they are printed as.

The benchmarks use their own database (`studyhive_bench` on the server of TEST_DATABASE_URL, or the local one), so
they never touch the `test` database the PostgreSQL test pass drops and recreates. BENCH_DATABASE_URL overrides it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa
from flask_migrate import upgrade

from server import create_app
from server.config import PROJECT_ROOT, database_url
from server.db import db
from server.models import Stimulus
from server.studies.definitions import get_study, set_stage, sync_studies

from .tables import markdown_table

DEFAULT_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
BENCH_DATABASE = "studyhive_bench"
SLUG = "bench"
VARIANTS = 105  # 192 test stimuli × 105 renderings = 20,160: the seed study's ~20,000 stimuli per model
STIMULI_PER_RUN = 20_000  # so 16,000,000 predictions = 800 model runs, as in the seed study


@dataclass
class Result:
    """One row of the table. `baseline` names the method this one is compared with (same benchmark and rows);
    `details` holds figures for a benchmark's summary lines."""

    benchmark: str
    method: str
    rows: int
    seconds: float
    note: str = ""
    baseline: str | None = None
    details: dict = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.rows / self.seconds if self.seconds else float("nan")


@dataclass
class Bench:
    """What a benchmark gets: the database (migrated, with the `bench` study), a scratch folder, the sizes."""

    url: str  # SQLAlchemy URL (postgresql+psycopg://…)
    app: object
    scratch: Path
    sizes: list[int]
    extra: dict = field(default_factory=dict)  # benchmarks may leave things here for later ones

    @property
    def psql_url(self) -> str:
        """The same database as a libpq URI, for psql."""
        return sa.engine.make_url(self.url).set(drivername="postgresql").render_as_string(hide_password=False)

    def execute(self, *statements: str):
        """Run SQL outside any Flask session, autocommitting (TRUNCATE, CHECKPOINT, …)."""
        with self.app.app_context():
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                for statement in statements:
                    connection.execute(sa.text(statement))

    def stimuli(self) -> tuple[list[str], list[int]]:
        """Keys and ids of the first STIMULI_PER_RUN test stimuli of the bench study."""
        with self.app.app_context():
            study = get_study(SLUG)
            rows = db.session.execute(
                db.select(Stimulus.key, Stimulus.id)
                .filter_by(study_id=study.id, practice=False)
                .order_by(Stimulus.id)
                .limit(STIMULI_PER_RUN)
            ).all()
        return [r.key for r in rows], [r.id for r in rows]

    def environment(self) -> dict[str, str]:
        return {
            **os.environ,
            "DATABASE_URL": self.url,
            "STUDYHIVE_STUDIES_DIR": str(self.scratch / "studies"),
            "SECRET_KEY": "bench",
            "FLASK_APP": "server",
        }

    def flask_process(self, command: list[str]) -> subprocess.CompletedProcess:
        """Run `command` (a flask invocation, possibly wrapped) against the bench database, as a user would."""
        result = subprocess.run(command, cwd=PROJECT_ROOT, env=self.environment(), capture_output=True, text=True)
        if result.returncode:
            raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")
        return result

    def flask(self, *args: str, python_prelude: str | None = None) -> subprocess.CompletedProcess:
        """Run a `flask` command against the bench database in a fresh process, as a user would."""
        if python_prelude:  # e.g. switch a module constant before the CLI runs
            command = [
                str(PROJECT_ROOT / ".venv/bin/python"),
                "-c",
                f"import sys; {python_prelude}; from flask.cli import main; "
                "sys.argv = ['flask'] + sys.argv[1:]; main()",
                *args,
            ]
        else:
            command = [str(PROJECT_ROOT / ".venv/bin/flask"), *args]
        return self.flask_process(command)


def bench_url() -> str:
    if os.environ.get("BENCH_DATABASE_URL"):
        return database_url(os.environ["BENCH_DATABASE_URL"])
    server = database_url(os.environ.get("TEST_DATABASE_URL") or DEFAULT_SERVER)
    return sa.engine.make_url(server).set(database=BENCH_DATABASE).render_as_string(hide_password=False)


def ensure_database(url: str):
    """CREATE DATABASE if it is missing (connecting to the server's `postgres` database to do it)."""
    target = sa.engine.make_url(url)
    engine = sa.create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        if not connection.scalar(sa.text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": target.database}):
            connection.execute(sa.text(f'CREATE DATABASE "{target.database}"'))
    engine.dispose()


def setup(sizes: list[int], scratch: Path) -> Bench:
    """Migrate the bench database (`flask db upgrade`) and load the `bench` study (variants=105)."""
    url = bench_url()
    ensure_database(url)
    studies = scratch / "studies" / SLUG
    studies.mkdir(parents=True)
    toml = (PROJECT_ROOT / "studies" / "study3" / "study.toml").read_text()
    assert "variants = 1 " in toml
    (studies / "study.toml").write_text(toml.replace("variants = 1 ", f"variants = {VARIANTS} "))
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "STUDIES_DIR": str(scratch / "studies")})
    with app.app_context():
        upgrade(directory=app.config["MIGRATIONS_DIR"])
        sync_studies(Path(app.config["STUDIES_DIR"]))
        set_stage(get_study(SLUG), "live")  # the bench's participants are the live data every view counts
    return Bench(url=url, app=app, scratch=scratch, sizes=sizes)


@contextmanager
def timer():
    """`with timer() as t: …` then t() is the elapsed seconds."""
    start = time.perf_counter()
    end = None

    def elapsed():
        return (end or time.perf_counter()) - start

    try:
        yield elapsed
    finally:
        end = time.perf_counter()


def print_table(results: list[Result], out=None):
    """The results as a Markdown table; `vs` compares a row's rate with its baseline row (same benchmark, rows)."""
    by_method = {(r.benchmark, r.method, r.rows): r for r in results}
    header = ("benchmark", "method", "rows", "seconds", "rows/s", "rate vs baseline", "note")
    lines = [header]
    for r in results:
        base = by_method.get((r.benchmark, r.baseline, r.rows)) if r.baseline else None
        vs = f"{r.rate / base.rate:.2f}× {r.baseline}" if base else ""
        lines.append((r.benchmark, r.method, f"{r.rows:,}", f"{r.seconds:.1f}", f"{r.rate:,.0f}", vs, r.note))
    print(markdown_table(lines), file=out, flush=True)


def remove(path: Path):
    shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink(missing_ok=True)
