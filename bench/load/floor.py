"""The other ceiling: what the HTTP server and Flask cost before any studyhive code runs.

An empty Flask app (one JSON view, no database, no hooks) served with the production settings (gunicorn.conf.py, or
granian to compare) and driven by wrk over keep-alive connections, each request a trial save's body
(bench/load/wrk/floor.lua). Its requests per second are the most the participant API could answer on this machine
if studyhive's own code cost nothing; with a participant's 37 requests for 30 saves that caps the saves per second.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import time

from flask import Flask, request

from .setup import Server
from .table import Row
from .wrk import LUA_DIR, CpuMeter, load_average, wrk_binary

REQUESTS_PER_SAVE = 37 / 30  # entry, page, state, screen, 2 surveys, 30 saves, completion

app = Flask(__name__)


@app.post("/trials")
def save():
    body = request.get_json()
    return {"stored": True, "trial_index": body["trial_index"]}, 201


def _ms(text: str) -> float:
    """A wrk latency ("812.00us", "1.20ms", "2.01s", "1.00m") in ms; NaN for what it prints when no request was
    answered ("-nanus" and the like: the run's errors say why), so the table still comes out."""
    found = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    if found is None:
        return float("nan")
    value, unit = found.groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}[unit]


def http_floor(connections: int, seconds: float, kind: str = "gunicorn") -> Row:
    """`connections` wrk connections posting trial bodies to the empty app as fast as it answers, for `seconds`."""
    load = load_average()
    with Server(None, app="bench.load.floor:app", kind=kind) as server:
        command = [
            wrk_binary(),
            "-t",
            "2",
            "-c",
            str(connections),
            "--latency",
            "--timeout",
            "30s",
            "-s",
            str(LUA_DIR / "floor.lua"),
            server.base,
        ]
        subprocess.run(command[:5] + ["-d", "2s"] + command[5:], capture_output=True)  # warm-up
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        client_before = before.ru_utime + before.ru_stime
        process = subprocess.Popen(
            command[:5] + ["-d", f"{seconds:.0f}s"] + command[5:], stdout=subprocess.PIPE, text=True
        )
        meter = CpuMeter({"app": server.tree})
        meter.sample()
        while process.poll() is None:
            time.sleep(0.5)
            meter.sample()
        out = process.stdout.read()
    client = resource.getrusage(resource.RUSAGE_CHILDREN)  # wrk, reaped: its CPU is in the children's total
    used = {**meter.used(), "client": client.ru_utime + client.ru_stime - client_before}
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = _ms(re.search(r"50%\s+(\S+)", out).group(1))
    p99 = _ms(re.search(r"99%\s+(\S+)", out).group(1))
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    errors += int(m.group(1)) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", out)) else 0
    return Row(
        "empty Flask view (floor)",
        f"{connections} connections",
        round(rate * seconds),
        seconds,
        p50,
        None,
        p99,
        errors=errors,
        server=kind,
        client_cpu=used["client"] / (seconds * (os.cpu_count() or 1)),
        load=load,
        note=f"{rate:,.0f} requests/s, no database: at most {rate / REQUESTS_PER_SAVE:,.0f} saves/s "
        f"if studyhive's own code cost nothing; app server {used['app'] / seconds:.2f} cores",
        request_cpu_ms=1000 * used["app"] / (rate * seconds) if rate else None,
    )
