"""The other ceiling: what the HTTP server and Flask cost before any studyhive code runs.

An empty Flask app (one JSON view, no database, no hooks) served with the production settings (gunicorn.conf.py, or
granian to compare) and driven by wrk over keep-alive connections, each request a trial save's body
(bench/load/wrk/floor.lua). Its requests per second are the most the participant API could answer on this machine
if studyhive's own code cost nothing; with a participant's 37 requests for 30 saves that caps the saves per second.

The durable floor (`durable_app`) adds what no save can do without: the body's trial stored by one INSERT that
PostgreSQL commits before the answer, on a connection kept per thread, prepared, as the saves' own (the SQL of
setup.pgbench_ceiling). No validation, no session lookup, no SQLAlchemy in a save: what the app must pay for a
durable save on this machine, the HTTP request and one round trip to PostgreSQL, whose CPU (the database's backends)
is counted apart. The bare floor (`bare_app`) stores the same way with no Flask: a plain WSGI function, as the
participant API's hot path (server/web/hot_path.py) answers most requests. Each of a participant's 37 requests makes
at least one round trip, so 37/30 of the bare floor's CPU per request is the least any participant API in this
process model (Python WSGI on the app server, psycopg) could spend per save. The validated floor (`validated_app`) is
the bare floor with the body validated first by the validator every save goes through (server/participation/bodies.py
`Trial`, with a ratio-estimation plan and task as its context): what the API's one validator adds to that least.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import resource
import subprocess
import threading
import time

import psycopg
import sqlalchemy as sa
from flask import Flask, request

from server.participation import bodies
from server.tasks.ratio_estimation.task import RatioEstimation

from .setup import Server, scratch_session
from .table import Row
from .wrk import LUA_DIR, CpuMeter, backends, load_average, wrk_binary

REQUESTS_PER_SAVE = 37 / 30  # entry, page, state, screen, 2 surveys, 30 saves, completion

app = Flask(__name__)


@app.post("/trials")
def save():
    body = request.get_json()
    return {"stored": True, "trial_index": body["trial_index"]}, 201


durable_app = Flask(__name__)
DURABLE_INSERT = (
    "INSERT INTO trials (session_id, trial_index, client_trial_id, stimulus_id, practice, response, score, presented, "
    'rt_ms, client_time, created_at) VALUES (%s, %s, %s, %s, false, %s, \'{"abs_error": 2.5, "log_error": 1.84}\', '
    "NULL, %s, now(), now()) ON CONFLICT DO NOTHING"
)
DURABLE_TOKEN = "durable-floor-"  # each worker's session: this and its pid
_durable = threading.local()  # each thread's connection
_durable_session: list = []  # the worker's (session id, stimulus id), made by its first request
_durable_lock = threading.Lock()
_numbers = itertools.count()  # the worker's trial indexes (next() holds the GIL: no two threads get one number)


def _durable_connection() -> psycopg.Connection:
    connection = getattr(_durable, "connection", None)
    if connection is None:
        url = sa.engine.make_url(os.environ["DATABASE_URL"]).set(drivername="postgresql")
        connection = _durable.connection = psycopg.connect(url.render_as_string(hide_password=False), autocommit=True)
    with _durable_lock:
        if not _durable_session:
            _durable_session.append(scratch_session(os.environ["DATABASE_URL"], f"{DURABLE_TOKEN}{os.getpid()}"))
    return connection


def _store(body: dict) -> bool:
    """The body's trial stored by the durable INSERT, committed."""
    connection = _durable_connection()
    session_id, stimulus_id = _durable_session[0]
    n = next(_numbers)
    return bool(
        connection.execute(
            DURABLE_INSERT,
            (session_id, n, f"{body['trial_id']}-{n}", stimulus_id, json.dumps(body["response"]), body["rt_ms"]),
            prepare=True,
        ).rowcount
    )


@durable_app.post("/trials")
def save_durably():
    body = request.get_json()
    return {"stored": _store(body), "trial_index": body["trial_index"]}, 201


def _plain(environ, start_response, answer) -> list[bytes]:
    """A plain WSGI answer: POST /trials answered `answer(raw body)`, a dict sent as JSON with 201; anything else
    (the server's readiness check) a 404."""
    if environ["REQUEST_METHOD"] != "POST" or environ.get("PATH_INFO") != "/trials":
        start_response("404 NOT FOUND", [("Content-Type", "application/json"), ("Content-Length", "2")])
        return [b"{}"]
    body = json.dumps(answer(environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0)))).encode()
    start_response("201 CREATED", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]


def _stored(raw: bytes) -> dict:
    body = json.loads(raw)
    return {"stored": _store(body), "trial_index": body["trial_index"]}


def bare_app(environ, start_response):
    """The durable floor without Flask: POST /trials stores as save_durably does and answers its JSON."""
    return _plain(environ, start_response, _stored)


# The context of a save's validation (session_api.save_trial's): a 30-trial plan whose trial 7 shows bench/load/wrk/
# floor.lua's stimulus, the ratio-estimation task and study3's [task] table.
VALIDATION_CONTEXT = {
    "plan": [{"index": i, "stimulus_id": f"s-{i:04d}", "practice": False} for i in range(30)],
    "task": RatioEstimation(),
    "params": {"trials_per_type": 5, "variants": 1, "practice": True},
}


def _validated(raw: bytes) -> dict:
    trial = bodies.parse(bodies.Trial, raw, VALIDATION_CONTEXT).valid()
    body = {"trial_id": trial.trial_id, "response": trial.response, "rt_ms": round(trial.rt_ms)}
    return {"stored": _store(body), "trial_index": trial.trial_index}


def validated_app(environ, start_response):
    """The bare floor with the body validated as a save's is (bodies.Trial), the validated values stored."""
    return _plain(environ, start_response, _validated)


def _ms(text: str) -> float:
    """A wrk latency ("812.00us", "1.20ms", "2.01s", "1.00m") in ms; NaN for what it prints when no request was
    answered ("-nanus" and the like: the run's errors say why), so the table still comes out."""
    found = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    if found is None:
        return float("nan")
    value, unit = found.groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}[unit]


EMPTY_VIEW = "empty Flask view (floor)"
DURABLE_FLOOR = "empty view + the save's INSERT (durable floor)"
BARE_FLOOR = "the save's INSERT in plain WSGI (bare floor)"
VALIDATED_FLOOR = "the bare floor after the save's validation (validated floor)"
# What http_floor serves: bench.load.floor's app of that name, and its table row's scenario.
FLOORS = {"app": EMPTY_VIEW, "durable_app": DURABLE_FLOOR, "bare_app": BARE_FLOOR, "validated_app": VALIDATED_FLOOR}


def http_floor(
    connections: int, seconds: float, kind: str = "gunicorn", url: str | None = None, floor: str | None = None
) -> Row:
    """`connections` wrk connections posting trial bodies to the empty app as fast as it answers, for `seconds`;
    with the load database's `url`, to a floor that stores them (`floor`: "durable_app", the default,
    "bare_app" or "validated_app"), its PostgreSQL backends' CPU apart."""
    floor = floor or ("durable_app" if url else "app")
    load = load_average()
    groups = {}
    if url:
        database = sa.engine.make_url(url).database
        groups["postgres"] = lambda: backends(database)
    with Server(url, app=f"bench.load.floor:{floor}", kind=kind) as server:
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
        meter = CpuMeter({"app": server.tree, **groups})
        meter.sample()
        while process.poll() is None:
            time.sleep(0.5)
            meter.sample()
        out = process.stdout.read()
        # wrk, reaped: its CPU is in the children's total. Read before the server stops: its master, reaped then,
        # would add its workers' CPU to that total.
        client = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = {**meter.used(), "client": client.ru_utime + client.ru_stime - client_before}
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = _ms(re.search(r"50%\s+(\S+)", out).group(1))
    p99 = _ms(re.search(r"99%\s+(\S+)", out).group(1))
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    errors += int(m.group(1)) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", out)) else 0
    requests = rate * seconds
    cores = f"app server {used['app'] / seconds:.2f} cores"
    if url:
        stored = _durable_rows(url)
        note = f"{rate:,.0f} durable saves/s, {stored:,} rows stored in all (warm-up included); {cores}"
    else:
        note = (
            f"{rate:,.0f} requests/s, no database: at most {rate / REQUESTS_PER_SAVE:,.0f} saves/s if studyhive's "
            f"own code cost nothing; {cores}"
        )
    return Row(
        FLOORS[floor],
        f"{connections} connections",
        round(requests),
        seconds,
        p50,
        None,
        p99,
        errors=errors,
        server=kind,
        client_cpu=used["client"] / (seconds * (os.cpu_count() or 1)),
        load=load,
        note=note,
        request_cpu_ms=1000 * used["app"] / requests if rate else None,
        # The durable floor's server CPU per save, as a capacity row's: app server and PostgreSQL's backends.
        cpu_ms=1000 * (used["app"] + used["postgres"]) / requests if url and rate else None,
        pg_ms=1000 * used["postgres"] / requests if url and rate else None,
    )


def _durable_rows(url: str) -> int:
    """The durable floor's stored rows, deleted with its sessions once counted."""
    engine = sa.create_engine(url)
    sessions = "SELECT id FROM participant_sessions WHERE token LIKE :token"
    with engine.begin() as connection:
        token = {"token": DURABLE_TOKEN + "%"}
        stored = connection.scalar(sa.text(f"SELECT count(*) FROM trials WHERE session_id IN ({sessions})"), token)
        connection.execute(sa.text(f"DELETE FROM trials WHERE session_id IN ({sessions})"), token)
        connection.execute(sa.text("DELETE FROM participant_sessions WHERE token LIKE :token"), token)
    engine.dispose()
    return stored
