"""Instructions per participant request, counted by valgrind's callgrind: bench/participant_cpu's flow and empty view,
each request kind counted in a run of its own.

    python -m bench.participant_instructions [PARTICIPANTS]

CPU seconds on a shared 2-core machine swing by a third between runs (docs/operations.md); a count of instructions
does not (two runs of the same code agree within a few per mille), so a change's effect on a request shows in one
pair of runs. A run starts the app under callgrind with nothing collected, drives three participants to fill the
caches, then makes each request of the kind counted through functools.reduce, a C function none of these paths
calls, inside which alone callgrind collects (`--toggle-collect=functools_reduce`). Garbage collection is off while
counting (its pauses fall on whichever request triggers them) and the study's cached facts do not expire
(trialstore.STUDY_TTL: under valgrind's slowdown they would be read again every few requests, where a worker at full
speed reads them once in 5 s). Not counted: the kernel (the socket to PostgreSQL, the poll for its answer),
PostgreSQL itself, and the HTTP server. On its own database, `studyhive_instructions` on TEST_DATABASE_URL's
server (or BENCH_CPU_DATABASE_URL), dropped and migrated afresh.
"""

from __future__ import annotations

import functools
import gc
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import sqlalchemy as sa

from .participant_cpu import EMPTY_VIEW_BODY, Driver, environ, participant

KINDS = ("entry", "page", "state", "screen size", "consent", "demographics", "save", "completion", "empty view")
WARM_UP = 3


def child(kind: str, participants: int, first: int) -> None:
    """Under callgrind: drive the flow (participants numbered from `first`), each request of `kind` inside
    functools.reduce."""
    from server import create_app
    from server.participation import trialstore

    from .load.floor import app as floor_app

    trialstore.STUDY_TTL = float("inf")
    counting = [False]

    class Counted(Driver):
        def __call__(self, name: str, env: dict):
            if counting[0] and name == kind:
                return functools.reduce(lambda _a, _b: Driver.__call__(self, name, env), (0, 1))
            return super().__call__(name, env)

    app = floor_app if kind == "empty view" else create_app()
    drive = Counted(app)
    for n in range(WARM_UP):
        if kind == "empty view":
            drive(kind, environ("POST", "/trials", EMPTY_VIEW_BODY))
        else:
            participant(drive, first + n)
    gc.collect()
    gc.disable()
    counting[0] = True
    drive.calls.clear()
    for n in range(participants):
        if kind == "empty view":
            for _ in range(30):
                drive(kind, environ("POST", "/trials", EMPTY_VIEW_BODY))
        else:
            participant(drive, first + WARM_UP + n)
    print(f"calls: {drive.calls[kind]}")


def count(kind: str, participants: int, first: int) -> tuple[int, int]:
    """(instructions callgrind collected in `kind`'s requests of one run, how many requests)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--collect-atstart=no",
                "--toggle-collect=functools_reduce",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-m",
                "bench.participant_instructions",
                "--child",
                kind,
                str(participants),
                str(first),
            ],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{kind}: {done.stderr[-2000:]}")
        instructions = int(re.search(r"^summary: (\d+)$", out.read_text(), re.M).group(1))
        return instructions, int(re.search(r"^calls: (\d+)$", done.stdout, re.M).group(1))


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return 0
    participants = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    from server.config import PROJECT_ROOT

    from .load.setup import app_role_url, fresh_database, load_url

    # Debian's valgrind where it is missing (as root), else a message saying how to install it.
    if subprocess.run([str(PROJECT_ROOT / "scripts/ensure-tool"), "valgrind", "valgrind"]).returncode:
        return 1

    own = sa.engine.make_url(load_url()).set(database="studyhive_instructions").render_as_string(hide_password=False)
    url = fresh_database(os.environ.get("BENCH_CPU_DATABASE_URL") or own)
    os.environ.update(DATABASE_URL=app_role_url(url), SECRET_KEY="bench-cpu", STUDYHIVE_ACCESS_LOG="0")
    # Each run its own participants (their PROLIFIC_PIDs are numbered), two at a time: counts do not depend on it.
    firsts = {kind: 100_000 * (n + 1) for n, kind in enumerate(KINDS)}
    with ThreadPoolExecutor(2) as pool:
        results = dict(zip(KINDS, pool.map(lambda k: count(k, participants, firsts[k]), KINDS), strict=True))
    counted = {kind: instructions for kind, (instructions, _) in results.items()}
    calls = {kind: n for kind, (_, n) in results.items()}
    empty = counted.pop("empty view") / calls["empty view"]
    print(f"{participants} participants a kind; instructions per request (per participant), in thousands:")
    for kind, total in counted.items():
        print(f"  {kind:<13} {total / calls[kind] / 1000:9.1f}  ({total / participants / 1000:,.0f})")
    per_save = sum(counted.values()) / calls["save"]
    print(
        f"  empty view    {empty / 1000:9.1f}\nall requests per save {per_save / 1000:.1f} thousand = "
        f"{per_save / empty:.1f}× the empty view's request; saves alone {counted['save'] / calls['save'] / empty:.1f}×"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
