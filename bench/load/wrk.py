"""Participants played by `wrk` (Debian's C load generator) with a Lua script, and what the run cost in CPU.

wrk passes its Lua scripts no connection identity, so bench/load/wrk/participant.lua gets one connection per wrk
thread: each Lua state is one participant's browser at a time. wrk's own figures are not used; every answer is
logged by the script (bench/load/wrk/participant.lua says how) and read back here: per-kind latencies, the
acknowledged saves the database is checked against, retries, failures.

CPU is read from /proc while the run goes: the load generator's own, the app servers' (every process under the
server's master: gunicorn or granian workers, nginx) and PostgreSQL's backends of the load database (the cluster's
background writers are shared with the machine and left out).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

LUA_DIR = Path(__file__).resolve().parent / "wrk"
TICK = os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    """/proc/loadavg's 1-minute figure: other work on the machine depresses every figure of a run."""
    return Path("/proc/loadavg").read_text().split()[0]


def wrk_binary() -> str:
    path = shutil.which("wrk")
    if not path:
        raise RuntimeError(
            "wrk is missing: scripts/ensure-tool wrk wrk installs Debian's (make test and make bench-load run it)"
        )
    return path


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        tree.setdefault(ppid, []).append(int(stat.parent.name))
    return tree


def descendants(pid: int) -> list[int]:
    """`pid` and every process under it."""
    tree, out, todo = _children(), [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += tree.get(p, [])
    return out


def backends(database: str) -> list[int]:
    """PostgreSQL's backend processes serving `database` (their title names it)."""
    pids = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            title = cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if title.startswith("postgres: ") and f" {database} " in title:
            pids.append(int(cmdline.parent.name))
    return pids


def cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


class CpuMeter:
    """CPU seconds used by named groups of processes between start() and the last sample(). A process seen first
    after start() counts from zero (it began during the run); one gone before the last sample keeps its last value."""

    def __init__(self, groups: dict[str, callable]):
        self.groups = groups  # name -> function returning the group's pids now
        self.first: dict[tuple[str, int], float] = {}
        self.last: dict[tuple[str, int], float] = {}
        self.started = False

    def sample(self):
        for name, pids in self.groups.items():
            for pid in pids():
                value = cpu_seconds(pid)
                if value is None:
                    continue
                self.first.setdefault((name, pid), 0.0 if self.started else value)
                self.last[name, pid] = value
        self.started = True

    def used(self) -> dict[str, float]:
        out = dict.fromkeys(self.groups, 0.0)
        for key, value in self.last.items():
            out[key[0]] += value - self.first[key]
        return out


@dataclass
class WrkResult:
    """What the Lua script logged, parsed."""

    connections: int
    started_at: float
    ended_at: float
    answers: list[tuple[str, float, float, int, str]] = field(default_factory=list)  # kind, sent, latency, status, up
    acknowledged: list[tuple[str, int, str]] = field(default_factory=list)  # (token, trial_index, trial_id)
    ack_times: list[float] = field(default_factory=list)
    retries: int = 0
    errors: list[str] = field(default_factory=list)
    started: int = 0
    completions: list[tuple[float, str, str]] = field(default_factory=list)  # (at, upstream, redirect)
    cpu: dict[str, float] = field(default_factory=dict)  # group -> CPU seconds during the run
    stopped: bool = False  # the hard deadline stopped wrk with participants inside

    @property
    def completed(self) -> int:
        return len(self.completions)

    def latencies(self, kind: str, start: float = 0, end: float = float("inf"), upstream: str | None = None):
        return [
            lat
            for k, sent, lat, _, up in self.answers
            if k == kind and start <= sent + lat <= end and (upstream is None or up == upstream)
        ]

    def percentiles(self, kind: str, start: float = 0, end: float = float("inf")) -> tuple:
        values = self.latencies(kind, start, end)
        if not values:
            return (None, None, None)
        return tuple(np.percentile(values, [50, 95, 99]) * 1000)


def _parse(out: Path, result: WrkResult):
    for path in sorted(out.glob("thread-*.tsv")):
        for line in path.read_text().splitlines():
            tag, _, rest = line.partition(" ")
            if tag == "L":
                kind, sent, latency, status, upstream = rest.split(" ")
                result.answers.append((kind, float(sent), float(latency), int(status), upstream))
            elif tag == "A":
                token, index, trial_id, at = rest.split(" ")
                result.acknowledged.append((token, int(index), trial_id))
                result.ack_times.append(float(at))
            elif tag == "R":
                result.retries += 1
            elif tag == "E":
                result.errors.append(rest)
            elif tag == "P":
                result.started += 1
            elif tag == "C":
                at, upstream, redirect = rest.split(" ")
                result.completions.append((float(at), upstream, redirect))


def run_wrk(
    base: str,
    connections: int,
    *,
    script: str = "studyhive.lua",
    prefix: str = "p",
    enter_seconds: float = 0,
    arrival: float = 0,
    pacing: float = 0,
    hard_seconds: float = 300,
    cpu_groups: dict | None = None,
    during=None,
    extra_env: dict | None = None,
) -> WrkResult:
    """`connections` participants at `base`, one per connection, until all have finished (or `hard_seconds`).

    enter_seconds: each connection plays participant after participant until then (0: one participant each).
    arrival: the connections open one after another over this many seconds (0: all at once).
    pacing: seconds between one participant's saves (0: each save when the last is answered).
    during: (seconds, function): the function is called once, in this process, that many seconds into the run (a
    fault, an edit of the study)."""
    out = Path(tempfile.mkdtemp(prefix="studyhive-wrk-"))
    t0 = time.monotonic() + 0.5
    env = {
        **os.environ,
        "LOAD_OUT": str(out),
        "LOAD_PREFIX": prefix,
        "LOAD_T0": f"{t0:.6f}",
        "LOAD_ARRIVAL": str(arrival),
        "LOAD_CONNECTIONS": str(connections),
        "LOAD_PACING": str(pacing),
        "LOAD_STOP_ENTERING": f"{t0 + enter_seconds:.6f}" if enter_seconds else "0",
        "LOAD_DEADLINE": f"{t0 + hard_seconds - 5:.6f}",
        "LOAD_LUA_DIR": str(LUA_DIR),
        **(extra_env or {}),
    }
    command = [
        wrk_binary(),
        "-t",
        str(connections),
        "-c",
        str(connections),
        "-d",
        f"{int(hard_seconds)}s",
        "--timeout",
        "60s",
        "-s",
        str(LUA_DIR / script),
        base,
    ]
    log = open(out / "wrk.log", "w")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    meter = CpuMeter({"client": lambda: [process.pid], **(cpu_groups or {})})
    meter.sample()
    result = WrkResult(connections, t0, 0.0)
    deadline = t0 + arrival + hard_seconds + 30
    try:
        while process.poll() is None:
            time.sleep(0.5)
            meter.sample()
            if during is not None and time.monotonic() >= t0 + during[0]:
                during[1]()
                during = None
            if len(list(out.glob("done-*"))) >= connections:
                break  # every participant has finished: the run is over
            if time.monotonic() > deadline:
                result.stopped = True
                break
        meter.sample()
        result.ended_at = time.monotonic()
        if process.poll() is None:
            process.send_signal(signal.SIGINT)  # wrk stops, and its done() writes what is left unwritten
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    finally:
        log.close()
    result.cpu = meter.used()
    _parse(out, result)
    if result.started == 0:
        result.errors.append("no participant started: " + (out / "wrk.log").read_text()[-300:])
    shutil.rmtree(out, ignore_errors=True)
    return result
