"""`make bench`'s save path: `make bench-load`'s capacity scenario (bench/load/scenarios.py: wrk participants against
granian, each save sent when the last is answered) with and without interaction records on every save (issue #25
item 4), alternating A B A B so that drift on the machine falls on both. One row per run: saves per second in the
measured window, the save's p50/p99 and the server's CPU (app server + PostgreSQL backends) per save.

    BENCH_SAVE_PARTICIPANTS=200   # wrk connections
    BENCH_SAVE_SECONDS=15         # measured window of each run
    BENCH_SAVE_EVENTS=20          # interaction records a save carries in the B runs (20 ≈ 1.1 KB of JSON)
    BENCH_SAVE_ROUNDS=2           # A B pairs
    BENCH_SAVE_SERVER=granian     # or gunicorn

It runs in `make bench-load`'s own database (studyhive_load, or BENCH_LOAD_DATABASE_URL), dropped and migrated
afresh, and checks after each run that every acknowledged save is stored once and, in a B run, with its events.
"""

from __future__ import annotations

import json
import os
import statistics

import sqlalchemy as sa

from .common import Result
from .load import scenarios
from .load.setup import fresh_database

PARTICIPANTS = int(os.environ.get("BENCH_SAVE_PARTICIPANTS", 200))
SECONDS = float(os.environ.get("BENCH_SAVE_SECONDS", 15))
EVENTS = int(os.environ.get("BENCH_SAVE_EVENTS", 20))
ROUNDS = int(os.environ.get("BENCH_SAVE_ROUNDS", 2))
SERVER = os.environ.get("BENCH_SAVE_SERVER", "granian")
BENCHMARK = f"trial save (wrk, {SERVER}, {PARTICIPANTS} participants)"


def _stored_events(url: str) -> tuple[int, int, int]:
    """(trials, trials with events, bytes of one trial's events as compact JSON) in the load database now."""
    engine = sa.create_engine(url)
    with engine.connect() as connection:
        trials, recorded = connection.execute(sa.text("SELECT count(*), count(events) FROM trials")).one()
        sample = connection.scalar(sa.text("SELECT events FROM trials WHERE events IS NOT NULL LIMIT 1"))
    engine.dispose()
    size = len(json.dumps(sample, separators=(",", ":")).encode()) if sample is not None else 0
    return trials, recorded, size


def run(bench) -> list[Result]:
    url = fresh_database()
    results = []
    for _ in range(ROUNDS):
        for events in (0, EVENTS):
            row = scenarios.capacity(url, SERVER, PARTICIPANTS, SECONDS, events=events)
            trials, recorded, size = _stored_events(url)
            if not row.ok or recorded != (trials if events else 0):
                raise RuntimeError(
                    f"{row.scenario}: {row.errors} errors, {row.lost} lost, {row.duplicated} "
                    f"duplicated, {recorded} of {trials} trials with events; {row.note}"
                )
            payload = f"{events} events ({size:,} B)" if events else "no events"
            results.append(
                Result(
                    BENCHMARK,
                    payload,
                    row.saves,
                    row.seconds,
                    note=f"p50 {row.p50:.1f} ms, p99 {row.p99:.1f} ms; server CPU {row.cpu_ms:.2f} ms/save "
                    f"(PostgreSQL {row.pg_ms:.2f}); load {row.load}",
                    details={"events": events, "p50": row.p50, "p99": row.p99, "cpu_ms": row.cpu_ms},
                )
            )
    return results


def summary(results: list[Result]) -> list[str]:
    """The B runs against the A runs: mean saves/s, p50 and CPU per save."""
    by = {flag: [r for r in results if (r.details.get("events", 0) > 0) == flag] for flag in (False, True)}
    if not all(by.values()):
        return []

    def mean(flag, key):
        return statistics.mean(r.rate if key == "rate" else r.details[key] for r in by[flag])

    return [
        f"save path with {by[True][0].details['events']} events a save vs none (means of {ROUNDS} alternating runs): "
        f"{mean(True, 'rate') / mean(False, 'rate'):.2f}× the saves/s, p50 {mean(True, 'p50'):.1f} vs "
        f"{mean(False, 'p50'):.1f} ms, server CPU {mean(True, 'cpu_ms'):.2f} vs {mean(False, 'cpu_ms'):.2f} ms/save"
    ]
