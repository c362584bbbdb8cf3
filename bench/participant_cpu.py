"""CPU time of each participant request in process: the WSGI app driven through study3's flow with no HTTP server
(PostgreSQL in its own processes), beside the empty view of bench/load/floor.py in the same process.

    python -m bench.participant_cpu [PARTICIPANTS]

On its own database (`studyhive_cpu` on TEST_DATABASE_URL's server, or BENCH_CPU_DATABASE_URL), dropped and
migrated afresh like `make bench-load`'s. One thread, one request at a time: what a request costs the app, without
the HTTP server's share or the contention of a load test (docs/operations.md, issue #41).
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from collections import Counter

import sqlalchemy as sa
from werkzeug.test import EnvironBuilder

from .load.floor import app as floor_app
from .load.setup import app_role_url, fresh_database, load_url

SCREEN = b'{"screen_width":1920,"screen_height":1080,"window_width":1536,"window_height":864}'
CONSENT = b'{"answers":{"agreed":true}}'
# What the empty view (bench/load/floor.py) is sent: a trial save's body.
EMPTY_VIEW_BODY = b'{"trial_id":"x","trial_index":3,"stimulus_id":"t1","response":{"percent":42.5}}'
DEMOGRAPHICS = b'{"answers":{"gender":"female","age":34,"education":"masters","nationality":"Chilean"}}'


def environ(method: str, path: str, body: bytes | None = None) -> dict:
    content_type = "application/json" if body is not None else None
    return EnvironBuilder(path=path, method=method, data=body, content_type=content_type).get_environ()


class Driver:
    """Calls a WSGI app and charges each call's CPU time to a request kind (and its round trips, once
    count_round_trips is set up)."""

    def __init__(self, app):
        self.app, self.spent, self.calls, self.trips = app, Counter(), Counter(), Counter()
        self.kind = None  # the kind being called

    def __call__(self, kind: str, env: dict) -> tuple[str, dict, bytes]:
        answer = {}

        def start_response(status, headers, exc_info=None):
            answer.update(status=status, headers=dict(headers))

        self.kind = kind
        started = time.process_time()
        body = b"".join(self.app(env, start_response))
        self.spent[kind] += time.process_time() - started
        self.kind = None
        self.calls[kind] += 1
        return answer["status"], answer["headers"], body


def count_round_trips(drive: Driver) -> None:
    """Charge each statement psycopg executes, a round trip to PostgreSQL, to the request kind `drive` is calling
    (psycopg's cursor is patched: this process is the bench's own)."""
    import psycopg

    execute = psycopg.Cursor.execute

    def counted(cursor, *args, **kwargs):
        if drive.kind is not None:  # not the bench's own statements
            drive.trips[drive.kind] += 1
        return execute(cursor, *args, **kwargs)

    psycopg.Cursor.execute = counted


def participant(drive: Driver, n: int) -> None:
    _, headers, _ = drive(
        "entry", environ("GET", f"/study/study3?PROLIFIC_PID=cpu{n:021d}&STUDY_ID=cpu&SESSION_ID=s{n}")
    )
    page = headers["Location"].replace("http://localhost", "")
    api = "/api/sessions/" + page.rsplit("/", 1)[1]
    drive("page", environ("GET", page))
    plan = json.loads(drive("state", environ("GET", api))[2])["plan"]
    drive("screen size", environ("PUT", api + "/environment", SCREEN))
    drive("consent", environ("PUT", api + "/surveys/consent", CONSENT))
    drive("demographics", environ("PUT", api + "/surveys/demographics", DEMOGRAPHICS))
    saves = [
        environ(
            "POST",
            api + "/trials",
            json.dumps(
                {
                    "trial_id": str(uuid.uuid4()),
                    "trial_index": item["index"],
                    "stimulus_id": item["stimulus_id"],
                    "response": {"percent": 42.5},
                    "rt_ms": 1234,
                    "client_time": "2026-11-22T17:00:00.000Z",
                }
            ).encode(),
        )
        for item in plan
    ]
    for env in saves:
        status = drive("save", env)[0]
        if not status.startswith("201"):
            raise RuntimeError(f"a save answered {status}")
    drive("completion", environ("POST", api + "/complete", b""))


def driver_floor(app, repeats: int = 3000) -> float | None:
    """CPU seconds of one execute of the trial saves' prepared INSERT by psycopg alone (PostgreSQL only; None on
    SQLite): the statement and parameters a save sends (a stored trial's again, so it stores nothing: the conflict
    costs the server, not the client), without HTTP, Flask, validation or SQLAlchemy. What no save can cost less
    than with this driver."""
    from server.models import Trial
    from server.participation import trialstore

    with app.app_context(), trialstore.autocommit() as connection:
        insert = app.extensions["studyhive.trialstore"].statements.get(("trials", connection.dialect.name))
        if insert is None or not insert.direct:
            return None
        stored = dict(connection.execute(sa.select(Trial.__table__)).mappings().first())
        params = insert.parameters(stored)
        cursor = connection.connection.driver_connection.cursor()  # kept, as the saves' (trialstore._kept_cursor)
        cursor.execute(insert.sql, params, prepare=True)
        started = time.process_time()
        for _ in range(repeats):
            cursor.execute(insert.sql, params, prepare=True)
        return (time.process_time() - started) / repeats


def main() -> int:
    participants = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    own = sa.engine.make_url(load_url()).set(database="studyhive_cpu").render_as_string(hide_password=False)
    url = fresh_database(os.environ.get("BENCH_CPU_DATABASE_URL") or own)
    os.environ.update(DATABASE_URL=app_role_url(url), SECRET_KEY="bench-cpu", STUDYHIVE_ACCESS_LOG="0")
    from server import create_app

    app = create_app()
    drive = Driver(app)
    if url.startswith("postgresql"):
        count_round_trips(drive)
    for n in range(3):  # caches, prepared statements, first-use imports
        participant(drive, 10_000 + n)
    drive.spent.clear(), drive.calls.clear(), drive.trips.clear()
    for n in range(participants):
        participant(drive, n)
    floor = Driver(floor_app)
    for env in [environ("POST", "/trials", EMPTY_VIEW_BODY) for _ in range(3000)]:
        floor("empty view", env)
    empty = floor.spent["empty view"] / floor.calls["empty view"]
    saves = drive.calls["save"]
    print(f"{participants} participants, {saves} saves; CPU ms per request (per participant), round trips per request:")
    for kind, spent in drive.spent.most_common():
        calls = drive.calls[kind]
        trips = drive.trips[kind] / calls
        print(f"  {kind:<13} {1000 * spent / calls:7.3f}  ({1000 * spent / participants:.2f})  {trips:.1f}")
    total = sum(drive.spent.values())
    print(
        f"  empty view    {1000 * empty:7.3f}\nall requests per save {1000 * total / saves:.3f} ms = "
        f"{total / saves / empty:.1f}× the empty view's request; saves alone {drive.spent['save'] / saves / empty:.1f}×"
    )
    floor_insert = driver_floor(app)
    if floor_insert is not None:
        print(
            f"the saves' INSERT by psycopg alone {1000 * floor_insert:.3f} ms = {floor_insert / empty:.1f}× the empty "
            "view's request"
        )
        # Each request as the empty view plus its round trips, each as that INSERT: what no code could spend less on.
        least = (sum(drive.calls.values()) * empty + sum(drive.trips.values()) * floor_insert) / saves
        print(
            f"every request at the empty view plus its round trips (each as that INSERT): {1000 * least:.3f} ms per "
            f"save = {least / empty:.1f}× the empty view's request; studyhive's requests cost "
            f"{total / saves / least:.1f}× that"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
