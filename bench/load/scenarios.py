"""`make bench-load`'s scenarios driven by wrk (bench/load/wrk.py): capacity, the Prolific launch, psiTurk side by
side, two app servers behind nginx, the HTTP floor, and the profile of the save path. Each returns table rows; the
database is checked after every run (every acknowledged save stored once)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa

from server import create_app
from server.config import PROJECT_ROOT
from server.db import dispose_engines
from server.participation.trialstore import STUDY_TTL
from server.studies.definitions import sync_studies

from . import psiturk, researcher
from .profile import Profile
from .proxy import Proxy
from .setup import Server, verify
from .table import Row
from .wrk import WrkResult, backends, descendants, load_average, run_wrk

SECONDS = float(os.environ.get("LOAD_SECONDS", 20))
CORES = os.cpu_count() or 1


def row(
    name: str,
    server: str,
    result: WrkResult,
    check: dict,
    *,
    window: float | None = None,
    note: str = "",
    load: str = "",
) -> Row:
    """A table row from a wrk run. window: the seconds measured from the first acknowledged save (capacity: the
    crowd is complete in it); None: the whole run, first to last save."""
    first = min(result.ack_times, default=result.started_at)
    if window is None:
        end = max(result.ack_times, default=first)
    else:
        end = first + window
    seconds = max(end - first, 1e-9)
    saves = sum(1 for t in result.ack_times if first <= t <= end)
    p50, p95, p99 = result.percentiles("save", first, end)
    e50, _, e99 = result.percentiles("entry")
    elapsed = result.ended_at - result.started_at
    acked = len(result.acknowledged) or 1
    app = sum(v for k, v in result.cpu.items() if k not in ("client", "postgres"))
    postgres = result.cpu.get("postgres", 0.0)
    errors = sorted(set(result.errors))[:3]
    return Row(
        name,
        result.connections,
        saves,
        seconds,
        p50,
        p95,
        p99,
        result.retries,
        len(result.errors),
        check["lost"],
        check["duplicated"],
        f"{check['completed']}/{result.started}",
        "; ".join(
            filter(None, [note, check["note"], "stopped at the hard deadline" if result.stopped else "", *errors])
        ),
        server=server,
        entry_p50=e50,
        entry_p99=e99,
        cpu_ms=(app + postgres) * 1000 / acked,
        pg_ms=postgres * 1000 / acked,
        client_cpu=result.cpu.get("client", 0.0) / (elapsed * CORES),
        load=load,
    )


def groups(*servers) -> dict:
    """CPU groups for wrk.run_wrk: the app servers' processes and the load database's PostgreSQL backends."""
    out = {f"app{i}": (lambda s=s: s.tree()) for i, s in enumerate(servers)}
    database = sa.engine.make_url(servers[0].url).database  # studyhive_load, or BENCH_LOAD_DATABASE_URL's
    out["postgres"] = lambda: backends(database)
    return out


def capacity(url: str, kind: str, participants: int, seconds: float = SECONDS, events: int = 0) -> Row:
    """`participants` connections, each playing participant after participant, every save sent when the last is
    answered: the saves per second the setup manages, and what they cost in CPU. `events`: interaction records sent
    with each save (bench/load/wrk/studyhive.lua, LOAD_EVENTS)."""
    load = load_average()
    with Server(url, kind=kind) as server:
        server.reset()
        result = run_wrk(
            server.base,
            participants,
            prefix=f"cap{participants}{kind[:2]}e{events}",
            enter_seconds=seconds + 5,
            hard_seconds=seconds + 240,
            cpu_groups=groups(server),
            extra_env={"LOAD_EVENTS": str(events)},
        )
    name = f"capacity-{participants}" + (f", {events} events a save" if events else "")
    return row(name, kind, result, verify(url, result), window=seconds, load=load)


def launch(
    url: str,
    kind: str,
    participants: int = 1000,
    arrival: float = 60,
    pacing: float = 3,
    with_results: bool = False,
) -> Row:
    """A Prolific study published with distribution rate 0: `participants` arrive within `arrival` seconds (evenly,
    one connection each), each saves a trial every `pacing` seconds, then completes. `with_results`: meanwhile a
    researcher reloads the study's results page every 2 s and presses Recompute every 10 s
    (bench/load/researcher.py)."""
    load = load_average()
    if with_results:
        researcher.ensure_account(url)
    with Server(url, kind=kind) as server:
        server.reset()
        with researcher.Researcher(server.base) if with_results else contextlib.nullcontext() as watcher:
            result = run_wrk(
                server.base,
                participants,
                prefix=f"launch{'r' if with_results else ''}{kind[:2]}",
                arrival=arrival,
                pacing=pacing,
                hard_seconds=30 * pacing + 300,
                cpu_groups=groups(server),
            )
    elapsed = result.ended_at - result.started_at
    cores = sum(v for k, v in result.cpu.items() if k != "client") / elapsed
    offered = participants / pacing
    notes = [f"≈{offered:.0f} saves/s offered at the peak; server {cores:.2f} cores on average over {elapsed:.0f} s"]
    if watcher:
        notes.append(watcher.summary(url))
    return row(
        f"Prolific launch: {participants} in {arrival:.0f} s, a save every {pacing:g} s"
        + (", researcher on the results page" if with_results else ""),
        kind,
        result,
        verify(url, result),
        load=load,
        note="; ".join(notes),
    )


def psiturk_capacity(participants: int, seconds: float = SECONDS) -> Row:
    """psiTurk 3.3.1 under the same client and load as capacity()."""
    load = load_average()
    with psiturk.PsiturkServer() as server:
        cpu = {"app": lambda: descendants(server.process.pid), "postgres": lambda: backends(psiturk.DATABASE)}
        result = run_wrk(
            server.base,
            participants,
            script="psiturk.lua",
            prefix=f"pt{participants}",
            enter_seconds=seconds + 5,
            hard_seconds=seconds + 240,
            cpu_groups=cpu,
        )
        check = psiturk.verify(server.url, result)
    return row(
        f"capacity-{participants}",
        f"psiTurk {psiturk.VERSION}",
        result,
        check,
        window=seconds,
        load=load,
        note="PUT /sync/<uniqueId> with the whole record after every trial",
    )


def edited_study_dir(code: str) -> Path:
    """A copy of studies/ whose study3 has another completion code (what `flask studies sync` would pick up)."""
    target = Path(tempfile.mkdtemp(prefix="studyhive-studies-"))
    shutil.copytree(PROJECT_ROOT / "studies", target, dirs_exist_ok=True)
    toml = target / "study3" / "study.toml"
    toml.write_text(re.sub(r'^completion_code = ".*"$', f'completion_code = "{code}"', toml.read_text(), flags=re.M))
    return target


def sync_edit(url: str, code: str) -> float:
    """`flask studies sync` of study3 with a new completion code, against the load database; returns when."""
    folder = edited_study_dir(code)
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench-load"})
    with app.app_context():
        sync_studies(folder)
        dispose_engines()
    shutil.rmtree(folder, ignore_errors=True)
    return time.monotonic()


def two_servers(url: str, kind: str, participants: int = 200, seconds: float = SECONDS, kill: bool = False) -> Row:
    """Two app servers behind nginx (round robin, no sticky sessions), as docker-compose.yml's `--scale app=2`: the
    migration job ran once (fresh_database), both connect as the app role and trust one proxy (STUDYHIVE_PROXIES=1).
    A third of the way in, study3 is edited with `flask studies sync` (a new completion code): every completion
    answered more than STUDY_TTL later, by either server, must carry it. With `kill`, one whole server gets SIGKILL
    half-way: nothing may be lost."""
    load = load_average()
    code, edited = f"C3LOAD{int(time.time()) % 100000}", {}
    per_server = max(1, CORES // 2 + (kind == "gunicorn"))  # the machine's cores shared by the two
    with (
        Server(url, kind=kind, workers=per_server, compose=True) as a,
        Server(url, kind=kind, workers=per_server, compose=True) as b,
        Proxy([a.base, b.base]) as proxy,
    ):
        a.reset()
        events = []

        def mid_run():
            if kill:
                b.kill()
                events.append(f"server {b.port} SIGKILLed (master and workers) at {seconds / 2:.0f} s")
            else:
                edited["at"] = sync_edit(url, code)

        result = run_wrk(
            proxy.base,
            participants,
            prefix=f"two{'k' if kill else 's'}{kind[:2]}",
            enter_seconds=seconds + 5,
            hard_seconds=seconds + 240,
            cpu_groups={**groups(a, b), "nginx": lambda: descendants(proxy.process.pid)},
            during=(seconds / 2 if kill else seconds / 3, mid_run),
        )
        check = verify(url, result)
        if not kill:
            sync_edit(url, "C3RATIO5")  # the study back as it was
    notes = [*events, *alternation(result)]
    if "at" in edited:
        notes.append(propagation(result, edited["at"], code))
    notes.append(f"{per_server} worker(s) per server")
    return row(
        "2 servers + nginx" + (", one SIGKILLed" if kill else ", study edited"),
        kind,
        result,
        check,
        window=seconds,
        load=load,
        note="; ".join(notes),
    )


def alternation(result: WrkResult) -> list[str]:
    """How the participants' requests were spread over the servers (from X-Upstream)."""
    per_server: dict[str, int] = {}
    for _, _, _, _, upstream in result.answers:
        ports = " then ".join(u.rsplit(":", 1)[-1] for u in upstream.split(","))
        per_server[ports] = per_server.get(ports, 0) + 1
    shares = ", ".join(f"{ports}: {n:,}" for ports, n in sorted(per_server.items()))
    return [f"answers by app server port (a then b: nginx passed the request on) {shares}"]


def propagation(result: WrkResult, synced_at: float, code: str) -> str:
    """When each server began to hand out the edited completion code, and whether any old one came later."""
    late = [
        (at - synced_at, up)
        for at, up, redirect in result.completions
        if at > synced_at + STUDY_TTL + 1 and code not in redirect
    ]
    first_new: dict[str, float] = {}
    for at, up, redirect in sorted(result.completions):
        if code in redirect and up not in first_new:
            first_new[up] = at - synced_at
    seen = ", ".join(f"{u.rsplit(':', 1)[-1]} after {s:.1f} s" for u, s in sorted(first_new.items()))
    verdict = "every completion after the TTL had it" if not late else f"{len(late)} after the TTL did NOT"
    return (
        f"study edited mid-run: the new completion code served by {seen or 'no server'} (TTL {STUDY_TTL:g} s); "
        f"{verdict}"
    )


def save_profile(url: str, kind: str, participants: int = 200, seconds: float = 15) -> tuple[Row, dict, dict]:
    """capacity() with py-spy sampling the app server's workers (bench/load/profile.py): where a save's CPU goes."""
    load = load_average()
    with Server(url, kind=kind) as server:
        server.reset()
        profile = Profile(server.process.pid, seconds - 4)
        result = run_wrk(
            server.base,
            participants,
            prefix=f"prof{kind[:2]}",
            enter_seconds=seconds,
            hard_seconds=seconds + 240,
            cpu_groups=groups(server),
            during=(3, profile.start),
        )
        layers = profile.finish()
    return (
        row(
            f"capacity-{participants} under py-spy",
            kind,
            result,
            verify(url, result),
            load=load,
            window=seconds - 5,
            note="profiled: slower than unprofiled",
        ),
        layers,
        profile.view_shares(),
    )
