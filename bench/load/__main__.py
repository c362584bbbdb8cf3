"""`make bench-load` (python -m bench.load): participants driven by wrk against the production setup, psiTurk side by
side, two app servers behind nginx, then faults. One table per run, also saved in bench-results/.

    LOAD_SERVERS=granian,gunicorn     # app servers side by side (deploy/granian.sh, production; gunicorn.conf.py);
                                      # the first also runs the two-server and fault scenarios
    LOAD_LEVELS=200,1000              # capacity: connections, each save sent when the last is answered
    LOAD_SECONDS=20                   # measured window of a capacity run, from the first acknowledged save
    LOAD_LAUNCH=1000@60/3             # the Prolific launch: participants @ arrival seconds / seconds between saves;
                                      # run alone, then with a researcher on the results page (reload every 2 s,
                                      # Recompute every 10 s: bench/load/researcher.py)
    LOAD_PSITURK=200                  # psiTurk 3.3.1 at this many connections (0: skip)
    LOAD_TWO=1                        # two app servers behind nginx: study edited, then one server killed
    LOAD_PROFILE=1                    # py-spy on the workers during a capacity-200 run: where a save's CPU goes
    LOAD_FLOOR=200                    # connections for the empty-app floor, the durable floor (the empty view
                                      # + the save's INSERT), the bare floor (that INSERT in plain WSGI) and the
                                      # validated floor (the bare floor after the save's validation) (0: skip)
    LOAD_FAULTS=kill,pgrestart,offline  # Python client (bench/load/client.py): worker SIGKILL, PostgreSQL restart,
                                        # a minute offline in Chromium; then pgbench's ceiling
    LOAD_QUIET=1.0 LOAD_QUIET_WAIT=1800 # wait (at most that many seconds in all) for the 1-minute load to drop
                                        # below 1.0 before each scenario; unset: no waiting
    LOAD_ONLY=launch,launch-results   # run only these scenarios (unset: all): capacity, psiturk, launch,
                                      # launch-results, two, profile, floor, faults (with pgbench's ceiling)

gunicorn runs with gunicorn.conf.py (access log off, STUDYHIVE_ACCESS_LOG=0) on 127.0.0.1 against PostgreSQL in
its own database `studyhive_load` (dropped and migrated afresh; the server of TEST_DATABASE_URL, or
BENCH_LOAD_DATABASE_URL). wrk, the app servers and PostgreSQL share the machine's cores; each row says how much of
them the client took and what the 1-minute load average was when it started.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import re
import sys
import time

from server.config import PROJECT_ROOT

from . import client, faults, scenarios
from .floor import BARE_FLOOR, DURABLE_FLOOR, EMPTY_VIEW, REQUESTS_PER_SAVE, VALIDATED_FLOOR, http_floor
from .profile import profile_table
from .setup import Server, fresh_database, pgbench_ceiling, verify, wait_for_trials
from .table import Row, print_table
from .wrk import load_average

SERVERS = [s for s in os.environ.get("LOAD_SERVERS", "granian,gunicorn").split(",") if s]
LEVELS = [int(n) for n in os.environ.get("LOAD_LEVELS", "200,1000").split(",") if n]
SECONDS = float(os.environ.get("LOAD_SECONDS", 20))
LAUNCH = os.environ.get("LOAD_LAUNCH", "1000@60/3")
PSITURK = int(os.environ.get("LOAD_PSITURK", 200))
TWO = os.environ.get("LOAD_TWO", "1") == "1"
PROFILE = os.environ.get("LOAD_PROFILE", "1") == "1"
PROCS = int(os.environ.get("LOAD_CLIENT_PROCS", 1))
FLOOR = int(os.environ.get("LOAD_FLOOR", 200))
FAULTS = [f for f in os.environ.get("LOAD_FAULTS", "kill,pgrestart,offline").split(",") if f]
QUIET = float(os.environ["LOAD_QUIET"]) if os.environ.get("LOAD_QUIET") else None
QUIET_BUDGET = [float(os.environ.get("LOAD_QUIET_WAIT", 1800))]
SCENARIOS = ("capacity", "psiturk", "launch", "launch-results", "two", "profile", "floor", "faults")
ONLY = [s for s in os.environ.get("LOAD_ONLY", "").split(",") if s]
if set(ONLY) - set(SCENARIOS):
    sys.exit(f"LOAD_ONLY: unknown scenario(s) {', '.join(sorted(set(ONLY) - set(SCENARIOS)))}; known: {SCENARIOS}")


def wanted(scenario: str) -> bool:
    return not ONLY or scenario in ONLY


def wait_for_quiet():
    """Other work on the machine depresses every figure: wait for it to calm down, within the budget."""
    if QUIET is None:
        return
    while float(load_average()) > QUIET and QUIET_BUDGET[0] > 0:
        print(f"  load average {load_average()} > {QUIET}: waiting", flush=True)
        time.sleep(30)
        QUIET_BUDGET[0] -= 30


def run_crowd(server: Server, concurrency: int, seconds: float, name: str, during=None, rate: float = 0) -> Row:
    """The Python client (bench/load/client.py) for the fault scenarios: `concurrency` participants for `seconds`
    over PROCS client processes; `during(server)` runs once every participant has saved about 10 trials."""
    pacing = concurrency / rate if rate else 0.0
    pid_prefix = re.sub(r"[^A-Za-z0-9]+", "", name)  # PROLIFIC_PIDs are plain ids
    load = load_average()
    server.reset()
    procs = min(PROCS, concurrency)
    shares = [concurrency // procs + (i < concurrency % procs) for i in range(procs)]
    start = time.monotonic()
    with multiprocessing.get_context("spawn").Pool(procs) as pool:
        pending = pool.map_async(
            client.crowd_in_process,
            [(server.base, n, seconds, f"{pid_prefix}-{i}-", pacing) for i, n in enumerate(shares)],
        )
        if during:
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
    row = Row.from_tally(
        name, concurrency, seconds, start, elapsed, tally, verify(server.url, tally), note="Python client"
    )
    row.load, row.server = load, server.kind
    return row


def print_goals(rows: list[Row], out) -> None:
    """Issue #41's same-run yardsticks, per app server with a capacity row: its saves/s against psiTurk's at the same
    number of participants, and its app CPU per save (server CPU minus PostgreSQL's) against the empty view's CPU
    per request."""
    psiturk = {r.participants: r for r in rows if r.scenario.startswith("capacity") and r.server.startswith("psiTurk")}
    floors = {r.server: r for r in rows if r.request_cpu_ms and r.scenario == EMPTY_VIEW}
    durable = {r.server: r for r in rows if r.request_cpu_ms and r.scenario == DURABLE_FLOOR}
    bare = {r.server: r for r in rows if r.request_cpu_ms and r.scenario == BARE_FLOOR}
    validated = {r.server: r for r in rows if r.request_cpu_ms and r.scenario == VALIDATED_FLOOR}
    for r in rows:
        if not re.fullmatch(r"capacity-\d+", r.scenario) or r.server.startswith("psiTurk") or r.cpu_ms is None:
            continue
        parts = []
        if (other := psiturk.get(r.participants)) and other.rate:
            parts.append(f"{r.rate:,.0f} saves/s = {r.rate / other.rate:.1f}× psiTurk's {other.rate:,.0f} (goal ≥ 5×)")
        if floor := floors.get(r.server):
            app = r.cpu_ms - (r.pg_ms or 0)
            parts.append(
                f"app CPU per save {app:.2f} ms (server {r.cpu_ms:.2f} − PostgreSQL {r.pg_ms or 0:.2f}) = "
                f"{app / floor.request_cpu_ms:.1f}× the empty view's {floor.request_cpu_ms:.3f} ms per request "
                "(goal ≤ 3×)"
            )
            if least := durable.get(r.server):
                parts.append(
                    f"the durable floor's (the empty view + the save's INSERT) {least.request_cpu_ms:.3f} ms = "
                    f"{least.request_cpu_ms / floor.request_cpu_ms:.1f}× the empty view's"
                )
            if least := bare.get(r.server):
                # Every one of a participant's requests makes a round trip at least (docs/operations.md, "The
                # participant API"): the least a participant API on this server and driver could spend per save.
                bound = REQUESTS_PER_SAVE * least.request_cpu_ms
                parts.append(
                    f"the bare floor's (the INSERT in plain WSGI) {least.request_cpu_ms:.3f} ms, × 37/30 requests per "
                    f"save = {bound / floor.request_cpu_ms:.1f}× the empty view's: studyhive's participant is "
                    f"{app / bound:.1f}× that"
                )
            if least := validated.get(r.server):
                bound = REQUESTS_PER_SAVE * least.request_cpu_ms
                parts.append(
                    f"with the save's validation (validated floor) {least.request_cpu_ms:.3f} ms, × 37/30 = "
                    f"{bound / floor.request_cpu_ms:.1f}× the empty view's"
                )
        if parts:
            print(f"\n{r.server}, {r.scenario}: " + "; ".join(parts), file=out)


def main() -> int:
    url = fresh_database()
    print(f"load database: {url}; {os.cpu_count()} CPUs shared by the app server(s), PostgreSQL and wrk", flush=True)
    rows, profiles = [], []

    def add(make):  # calls make() at once, so the lambdas below may use the loop variables (B023)
        wait_for_quiet()
        rows.append(make())
        print_table(rows[-1:])

    for kind in SERVERS if wanted("capacity") else ():
        for level in LEVELS:
            add(lambda: scenarios.capacity(url, kind, level, SECONDS))  # noqa: B023
    if PSITURK and wanted("psiturk"):
        add(lambda: scenarios.psiturk_capacity(PSITURK, SECONDS))
    if LAUNCH and LAUNCH != "0":
        participants, arrival, pacing = (float(x) for x in re.split(r"[@/]", LAUNCH))
        for kind in SERVERS:
            for with_results in (False, True):
                if wanted("launch-results" if with_results else "launch"):
                    add(lambda: scenarios.launch(url, kind, int(participants), arrival, pacing, with_results))  # noqa: B023
    if TWO and wanted("two"):
        add(lambda: scenarios.two_servers(url, SERVERS[0], 200, SECONDS))
        add(lambda: scenarios.two_servers(url, SERVERS[0], 200, SECONDS, kill=True))
    if PROFILE and wanted("profile"):
        for kind in SERVERS:
            wait_for_quiet()
            profiled, layers, views = scenarios.save_profile(url, kind)
            rows.append(profiled)
            profiles.append((kind, profiled, layers, views))
    if FLOOR and wanted("floor"):
        for kind in SERVERS:
            add(lambda: http_floor(FLOOR, SECONDS, kind))  # noqa: B023
            add(lambda: http_floor(FLOOR, SECONDS, kind, url))  # noqa: B023
            add(lambda: http_floor(FLOOR, SECONDS, kind, url, "bare_app"))  # noqa: B023
            add(lambda: http_floor(FLOOR, SECONDS, kind, url, "validated_app"))  # noqa: B023
    if wanted("faults"):
        with Server(url, kind=SERVERS[0]) as server:
            if "kill" in FAULTS:
                add(lambda: run_crowd(server, 200, SECONDS, "kill-9-worker", during=faults.kill_worker))
            if "offline" in FAULTS:
                add(lambda: faults.offline_browser(server))
            rows.append(pgbench_ceiling(server))
        if "pgrestart" in FAULTS:
            add(lambda: faults.postgres_restart(run_crowd))
    out = io.StringIO()
    print_table(rows, out)
    print_goals(rows, out)
    for kind, profiled, layers, views in profiles:
        profile_table(kind, profiled, layers, views, out)
    print("\n" + out.getvalue(), end="")
    saved = PROJECT_ROOT / "bench-results" / f"bench-load-{time.strftime('%Y%m%d-%H%M%S')}.md"
    saved.parent.mkdir(exist_ok=True)
    saved.write_text(
        f"{os.cpu_count()} CPUs, {SECONDS:g} s windows, "
        f"run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n\n" + out.getvalue()
    )
    print(f"(saved as {saved.relative_to(PROJECT_ROOT)})")
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
