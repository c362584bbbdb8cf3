"""Stored results: a study's analysis computed off the participants' path and kept in the database
(models.StoredResult) with the data generation it read (models.DataGeneration), so that the dashboard's results
page and its CSV downloads serve a row instead of rerunning thousands of bootstrap resamples on every request in the
workers that serve participants.

A recompute runs in a process of its own: `flask analyze SLUG --store`, typed in a terminal or started by the
results page's Recompute button (:func:`launch`), never in a participant-serving worker and never by itself on a
trial. One at a time per study (:func:`recompute_lock`): on PostgreSQL a session-level advisory lock,
pg_try_advisory_lock(LOCK_NAMESPACE, study id), held on a connection of its own for the whole computation; on SQLite
an exclusive flock(2) on a file beside the database file. Both are released by the operating system or the server
when the process ends, however it ends, so a crashed recompute never blocks the next."""

from __future__ import annotations

import base64
import fcntl
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC
from pathlib import Path
from typing import Any

from flask import current_app
from sqlalchemy import text

from analysis.safe_csv import frame_csv

from ..db import db, utcnow
from ..exceptions import AnalysisError
from ..models import Recompute, Researcher, StoredResult
from .analyze import AnalysisResult, DataProblem, Options, analysed_study, run_analysis, used_options

#: The first key of the two-key advisory locks (pg_try_advisory_lock(int, int)) this module takes; the second is
#: the study's id. "SH" "RS": studyhive results.
LOCK_NAMESPACE = 0x5348_5253
#: A recompute started from the page runs under Linux's SCHED_IDLE policy (util-linux's chrt, in every Debian
#: image): it gets a core only when the app server's workers and PostgreSQL leave one free, so participants' saves
#: come first; during a launch it takes longer instead. `nice -n 10` still cost the launch's saves a p99 of
#: 15 to 24 ms on 2 cores (docs/operations.md).
SCHEDULER = ["chrt", "--idle", "0"]


class Busy(AnalysisError):
    """Another recompute of the study holds its lock."""


def options_key(options: dict[str, Any]) -> str:
    """ "n_boot=2000;seed=0": the options an analysis used, as the stored row's key (one row per study and key)."""
    return ";".join(f"{name}={value}" for name, value in sorted(options.items()))


def _lock_file(study_id: int) -> Path:
    database = db.engine.url.database
    if not database or database == ":memory:":  # no file to sit beside: one lock per machine
        return Path(tempfile.gettempdir()) / f"studyhive-analysis-{study_id}.lock"
    path = Path(database).resolve()
    return path.with_name(f"{path.name}.analysis-{study_id}.lock")


@contextmanager
def recompute_lock(study_id: int) -> Iterator[bool]:
    """Try to take the study's recompute lock without waiting; yields whether it was taken (and holds it until the
    block ends)."""
    if db.engine.dialect.name == "postgresql":
        params = {"namespace": LOCK_NAMESPACE, "study": study_id}
        with db.engine.connect() as connection:
            taken = connection.scalar(text("SELECT pg_try_advisory_lock(:namespace, :study)"), params)
            connection.commit()  # a session-level lock outlives the transaction
            try:
                yield bool(taken)
            finally:
                if taken:
                    connection.scalar(text("SELECT pg_advisory_unlock(:namespace, :study)"), params)
                    connection.commit()
        return
    with open(_lock_file(study_id), "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def running(study_id: int) -> bool:
    """Whether a recompute of the study holds its lock now."""
    with recompute_lock(study_id) as taken:
        return not taken


def stage_of(options: dict[str, Any]) -> str:
    """The stage a stored result with these options analysed; one stored before stages existed read every session,
    and those were all backfilled live (migration 0010)."""
    return options.get("stage", "live")


def latest(study_id: int, stage: str) -> StoredResult | None:
    """The study's most recently computed stored result of `stage` ("pilot", "live" or "all"), whatever its other
    options (None: never computed); a pilot analysis never serves as the live one. Reads the options of each stored
    result and loads only that one (the HTML and figures are large)."""
    for row_id, options in db.session.execute(
        db.select(StoredResult.id, StoredResult.options)
        .where(StoredResult.study_id == study_id)
        .order_by(StoredResult.computed_at.desc(), StoredResult.id.desc())
    ):
        if stage_of(options) == stage:
            return db.session.get(StoredResult, row_id)
    return None


def recompute(slug: str, options: Options) -> tuple[StoredResult, AnalysisResult | None]:
    """Analyse the study under its recompute lock and store the outcome, the report or the problem in the data
    that stopped it (then no AnalysisResult is returned), replacing the stored result with the same options. Busy
    if another recompute holds the lock; AnalysisError (nothing stored) for a study that cannot be analysed at all
    or options it refuses."""
    study, analyzer = analysed_study(slug)
    study_id, used = study.id, used_options(analyzer, options)
    db.session.rollback()  # nothing held open while the analysis runs
    with recompute_lock(study_id) as taken:
        if not taken:
            raise Busy(f"a recompute of {slug!r} is already running; its result will be stored when it ends")
        started = time.monotonic()
        try:
            result = run_analysis(slug, options)
        except DataProblem as exc:
            return _store(study_id, used, exc.generation, time.monotonic() - started, problem=str(exc)), None
        return _store(study_id, used, result.generation, time.monotonic() - started, result=result), result


def _store(
    study_id: int,
    options: dict[str, Any],
    generation: int,
    duration: float,
    *,
    result: AnalysisResult | None = None,
    problem: str | None = None,
) -> StoredResult:
    from analysis.reports.render import jsonable  # numpy and pandas: this runs in the recompute process, not the app's

    key = options_key(options)
    row = db.session.scalars(db.select(StoredResult).filter_by(study_id=study_id, options_key=key)).first()
    if row is None:
        row = StoredResult(study_id=study_id, options_key=key)
        db.session.add(row)
    row.options, row.generation, row.computed_at, row.duration_s = jsonable(options), generation, utcnow(), duration
    row.problem = problem
    if result is None:
        row.html, row.figures, row.outliers, row.table_names, row.tables, row.report = None, [], [], [], {}, None
    else:
        tables = result.tables()
        row.html = result.report.html()
        row.figures = [[name, base64.b64encode(png).decode()] for name, png in result.figures()]
        row.outliers = jsonable(result.outliers())
        row.table_names = list(tables)
        # The same bytes as the table's file from `flask analyze --out` (one writer).
        row.tables = {name: "".join(frame_csv(frame)) for name, frame in tables.items()}
        row.report = result.report.json()
    db.session.commit()
    return row


def _flags(analyzer, options: dict[str, Any]) -> list[str]:
    """`flask analyze`'s options for these option values (the stage's and the analysis's own)."""
    own = {option.name: option for option in analyzer.options}
    return [
        arg
        for name, value in options.items()
        for arg in (["--stage", str(value)] if name == "stage" else own[name].args(value))
    ]


def launch(slug: str, options: Options, env: dict[str, str], researcher_id: int | None = None) -> subprocess.Popen:
    """Start `flask analyze SLUG --store` with `options` (those the study's analysis uses) as a process of its own,
    at idle priority (SCHEDULER), in the environment `env` (config.child_environment: this app's database and
    studies), and return at once, its Recompute row committed. A thread of this process waits for it to end (so that
    it leaves no zombie) and notes in that row when it ended and, if it failed, its error; the work and the lock are
    the child's."""
    study, analyzer = analysed_study(slug)
    used = used_options(analyzer, options)
    if analyzer.max_n_boot and used.get("n_boot", 0) > analyzer.max_n_boot:
        used["n_boot"] = analyzer.max_n_boot
    row = Recompute(study_id=study.id, stage=options.stage, researcher_id=researcher_id)
    db.session.add(row)
    db.session.commit()
    command = [sys.executable, "-m", "flask", "--app", "server", "analyze", slug, "--store", *_flags(analyzer, used)]
    process = subprocess.Popen(
        [*SCHEDULER, *command],
        cwd=Path(current_app.root_path).parent,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,  # the report
        stderr=subprocess.PIPE,  # errors: into the Recompute row and the server's log
        start_new_session=True,  # not stopped with the worker that started it
    )
    app = current_app._get_current_object()
    threading.Thread(target=_note_end, args=(app, process, row.id), daemon=True).start()
    return process


#: The end of a failed recompute's error output kept for the results page (a traceback's last lines name the error).
ERROR_CHARS = 2000


def _note_end(app, process: subprocess.Popen, recompute_id: int) -> None:
    """Wait for a launched recompute to end and note when, and its error if it failed, in its Recompute row."""
    _, err = process.communicate()
    text = err.decode(errors="replace").strip()
    with app.app_context():
        if text:
            app.logger.warning("recompute %d: %s", recompute_id, text)
        row = db.session.get(Recompute, recompute_id)
        row.finished_at = utcnow()
        if process.returncode != 0:
            row.error = text[-ERROR_CHARS:] or f"the recompute process ended with exit status {process.returncode}"
        db.session.commit()
        db.session.remove()


#: How long a launched recompute may take to start (a Python process importing the app) before the page stops
#: calling it running when it does not hold the study's lock.
START_SECONDS = 60


def last_recompute(study_id: int, stage: str, shown: StoredResult | None) -> dict[str, Any] | None:
    """What the results page says of the latest recompute its button started for this stage: "running", "failed"
    (with its error), "done", or "lost" (it neither holds the lock nor has reported its end: the server that started
    it stopped); None when there is none, or the shown result is newer than its end (a later `analyze --store`)."""
    row = db.session.scalars(
        db.select(Recompute).filter_by(study_id=study_id, stage=stage).order_by(Recompute.id.desc())
    ).first()
    if row is None or (shown is not None and row.finished_at is not None and row.finished_at < shown.computed_at):
        return None
    if row.finished_at is not None:
        state = "failed" if row.error else "done"
    else:
        started = row.started_at if row.started_at.tzinfo else row.started_at.replace(tzinfo=UTC)  # SQLite: naive
        young = (utcnow() - started).total_seconds() < START_SECONDS
        state = "running" if young or running(study_id) else "lost"
    by = row.researcher_id and db.session.get(Researcher, row.researcher_id)
    return {"state": state, "row": row, "by": by.username if by else None}
