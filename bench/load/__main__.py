"""`make bench-load` (python -m bench.load): simulated participants against the production setup, then faults.

    LOAD_LEVELS=50,200,1000 LOAD_SECONDS=20 make bench-load     # the defaults: capacity, saves as fast as answered
    LOAD_PACED=200@500,200@1000                                 # N participants offering R saves/s together
    LOAD_FAULTS=kill,pgrestart,offline                          # the fault scenarios run after the levels
    LOAD_CLIENT_PROCS=1                                         # client processes (share the same cores)
    LOAD_FLOOR=200                                              # connections for the empty-app floor; 0: skip it

gunicorn runs with gunicorn.conf.py as documented (access log off, STUDYHIVE_ACCESS_LOG=0) on 127.0.0.1 against
PostgreSQL in its own database `studyhive_load` (dropped and migrated afresh; the server of TEST_DATABASE_URL, or
BENCH_LOAD_DATABASE_URL). After every scenario the database is checked: every acknowledged trial stored exactly
once, every participant completed. pgbench runs the save's SQL with as many clients as the app's pool: the database's
ceiling; an empty Flask app under the same gunicorn settings gives the HTTP stack's (bench/load/floor.py).
"""
from __future__ import annotations

import io
import multiprocessing
import os
import re
import sys
import time

from server.config import PROJECT_ROOT

from . import client, faults
from .floor import http_floor
from .setup import Server, fresh_database, pgbench_ceiling, verify, wait_for_trials
from .table import Row, print_table

LEVELS = [int(n) for n in os.environ.get("LOAD_LEVELS", "50,200,1000").split(",") if n]
PACED = [tuple(int(x) for x in p.split("@")) for p in os.environ.get("LOAD_PACED", "200@500,200@1000").split(",") if p]
SECONDS = float(os.environ.get("LOAD_SECONDS", 20))
PROCS = int(os.environ.get("LOAD_CLIENT_PROCS", 1))
FLOOR = int(os.environ.get("LOAD_FLOOR", 200))
FAULTS = [f for f in os.environ.get("LOAD_FAULTS", "kill,pgrestart,offline").split(",") if f]


def run_crowd(server: Server, concurrency: int, seconds: float, name: str, during=None, rate: float = 0) -> Row:
    """`concurrency` participants for `seconds` over PROCS client processes; `during(server)` runs mid-run.
    `rate`: the saves per second they offer together (paced, bench/load/client.py); 0: as fast as answered."""
    pacing = concurrency / rate if rate else 0.0
    pid_prefix = re.sub(r"[^A-Za-z0-9]+", "", name)  # PROLIFIC_PIDs are plain ids
    server.reset()
    procs = min(PROCS, concurrency)
    shares = [concurrency // procs + (i < concurrency % procs) for i in range(procs)]
    start = time.monotonic()
    with multiprocessing.get_context("spawn").Pool(procs) as pool:
        pending = pool.map_async(client.crowd_in_process,
                                 [(server.base, n, seconds, f"{pid_prefix}-{i}-", pacing) for i, n in enumerate(shares)])
        if during:  # mid-run: once every participant has saved about 10 trials
            wait_for_trials(server.url, concurrency * 10, deadline=start + seconds + 120)
            during(server)
        tallies = pending.get()
    elapsed = time.monotonic() - start
    tally = client.Tally()
    for t in tallies:
        for key in ("save_latencies", "save_times", "acknowledged", "errors"):
            getattr(tally, key).extend(getattr(t, key))
        tally.retries += t.retries
        tally.window = max(filter(None, [tally.window, t.window]), default=None)
        tally.started += t.started
        tally.completed += t.completed
    return Row.from_tally(name, concurrency, seconds, start, elapsed, tally, verify(server.url, tally))


def main() -> int:
    url = fresh_database()
    print(f"load database: {url}; {os.cpu_count()} CPUs shared by gunicorn, PostgreSQL and {PROCS} client process(es)",
          flush=True)
    rows = []
    with Server(url) as server:
        print(server.describe(), flush=True)
        for participants, rate in PACED:
            rows.append(run_crowd(server, participants, SECONDS, f"paced {rate:,}/s", rate=rate))
            print_table(rows[-1:])
        for level in LEVELS:
            rows.append(run_crowd(server, level, SECONDS, f"capacity-{level}"))
            print_table(rows[-1:])
        if "kill" in FAULTS:
            rows.append(run_crowd(server, 200, SECONDS, "kill-9-worker", during=faults.kill_worker))
            print_table(rows[-1:])
        if "offline" in FAULTS:
            rows.append(faults.offline_browser(server))
            print_table(rows[-1:])
        rows.append(pgbench_ceiling(server))
    if FLOOR:
        rows.append(http_floor(FLOOR, SECONDS))
        print_table(rows[-1:])
    if "pgrestart" in FAULTS:
        rows.append(faults.postgres_restart(run_crowd))
    out = io.StringIO()
    print_table(rows, out)
    print("\n" + out.getvalue(), end="")
    saved = PROJECT_ROOT / "bench-results" / f"bench-load-{time.strftime('%Y%m%d-%H%M%S')}.md"
    saved.parent.mkdir(exist_ok=True)
    saved.write_text(f"{os.cpu_count()} CPUs, {SECONDS:g} s per level, {PROCS} client process(es)\n\n"
                     + out.getvalue())
    print(f"(saved as {saved.relative_to(PROJECT_ROOT)})")
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
