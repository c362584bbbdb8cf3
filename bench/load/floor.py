"""The other ceiling: what gunicorn and Flask cost before any studyhive code runs.

An empty Flask app (one JSON view, no database, no hooks) served by gunicorn.conf.py's workers and threads and
driven by the same client over keep-alive connections; each request is a trial save's body. Its requests per second
are the most the participant API could answer on this machine if studyhive's own code cost nothing; with a
participant's 37 requests for 30 saves (bench/load/client.py) that caps the saves per second.
"""
from __future__ import annotations

import asyncio
import time

import aiohttp
import numpy as np
import uvloop
from flask import Flask, request

from .setup import Server
from .table import Row

REQUESTS_PER_SAVE = 37 / 30  # entry, page, state, screen, 2 surveys, 30 saves, completion
TRIAL = {"trial_id": "0b6f8a64-4a1e-4c46-9a8e-2f7a1c3d5e60", "trial_index": 7, "stimulus_id": "s-0007",
         "response": {"percent": 42.5}, "rt_ms": 3456, "client_time": "2026-11-22T17:00:00.000Z"}

app = Flask(__name__)


@app.post("/trials")
def save():
    body = request.get_json()
    return {"stored": True, "trial_index": body["trial_index"]}, 201


async def _hammer(base: str, connections: int, seconds: float) -> tuple[list[float], int]:
    latencies, errors = [], 0
    stop = time.monotonic() + seconds

    async def one(http):
        nonlocal errors
        while time.monotonic() < stop:
            start = time.perf_counter()
            try:
                async with http.post(base + "/trials", json=TRIAL) as response:
                    await response.read()
                    errors += response.status != 201
            except aiohttp.ClientError:
                errors += 1
                continue
            latencies.append(time.perf_counter() - start)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.DummyCookieJar()) as http:
        await asyncio.gather(*(one(http) for _ in range(connections)))
    return latencies, errors


def http_floor(connections: int, seconds: float) -> Row:
    """`connections` clients posting trial bodies to the empty app as fast as it answers, for `seconds`."""
    with Server(None, app="bench.load.floor:app") as server:
        uvloop.run(_hammer(server.base, connections, 2))  # warm-up: connections open, workers running
        latencies, errors = uvloop.run(_hammer(server.base, connections, seconds))
    p50, p95, p99 = np.percentile(latencies, [50, 95, 99]) * 1000
    rate = len(latencies) / seconds
    return Row("gunicorn + empty Flask view (floor)", f"{connections} connections", len(latencies), seconds, p50, p95,
               p99, errors=errors,
               note=f"{rate:,.0f} requests/s, no database: at most {rate / REQUESTS_PER_SAVE:,.0f} saves/s "
                    "if studyhive's own code cost nothing")
