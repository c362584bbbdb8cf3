"""Smoke test of `make bench-load`'s participant for wrk (bench/load/wrk/): a few participants, a few seconds, against
the real server on the test database. The benchmark's figures rest on this script walking a participant through
the study as the page does and on its log of what the server acknowledged, so both are checked against the
database here. (`make test` installs Debian's wrk: scripts/ensure-tool.)"""

from __future__ import annotations

import math
import re

import pytest

from bench.load.floor import BARE_FLOOR, DURABLE_FLOOR, VALIDATED_FLOOR, _ms, http_floor
from bench.load.setup import Server, verify
from bench.load.wrk import run_wrk
from server.db import db
from server.models import ParticipantSession, SurveyResponse, Trial

KINDS = ("entry", "page", "state", "environment", "survey", "save", "complete")


def test_wrk_participants_walk_the_study_and_every_acknowledged_save_is_stored(app):
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    with Server(url) as server:
        # 3 connections for 2 s: each plays participants one after another, its saves as fast as answered
        crowd = run_wrk(server.base, 3, prefix="crowd", enter_seconds=2, hard_seconds=60)
        # 2 more, arriving 0.5 s apart, one save every 50 ms (wrk's delay())
        paced = run_wrk(server.base, 2, prefix="paced", arrival=1, pacing=0.05, hard_seconds=60)
    assert crowd.errors == paced.errors == []
    assert crowd.started >= 3 and crowd.completed == crowd.started
    assert paced.started == paced.completed == 2
    for run in (crowd, paced):
        assert len(run.acknowledged) == 30 * run.completed
        assert {kind for kind, *_ in run.answers} == set(KINDS)
        assert all(status in (200, 201, 303) for _, _, _, status, _ in run.answers)
        assert run.cpu["client"] >= 0 and run.percentiles("save")[0] > 0
    # paced: 30 saves 50 ms apart take at least 29 × 50 ms from the first to the last
    first, last = min(paced.ack_times), max(paced.ack_times)
    assert last - first >= 29 * 0.05
    sessions = db.session.scalars(db.select(ParticipantSession)).all()
    assert len(sessions) == crowd.started + paced.started
    assert {s.status for s in sessions} == {"completed"}
    assert db.session.scalar(db.select(db.func.count()).select_from(SurveyResponse)) == 2 * len(sessions)
    db.session.remove()
    for run in (crowd, paced):
        check = verify(url, run)
        assert (check["lost"], check["duplicated"]) == (0, 0)
    assert db.session.scalar(db.select(db.func.count()).select_from(Trial)) == 30 * len(sessions)


def test_wrk_participants_resend_a_save_answered_503_and_count_it_once(app, live_server):
    """Every third trial save is refused with a 503 before it reaches the app: the script resends it unchanged
    (same trial_id) after a backoff, as sync.js does, and logs the retry; the save is stored and acknowledged once."""
    inner, refused = app.wsgi_app, []

    def flaky(environ, start_response):
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/trials"):
            refused.append(len(refused) % 3 == 0)
            if refused[-1]:
                start_response(
                    "503 Service Unavailable", [("Content-Type", "application/json"), ("Content-Length", "2")]
                )
                return [b"{}"]
        return inner(environ, start_response)

    app.wsgi_app = flaky
    run = run_wrk(live_server, 2, prefix="flaky", hard_seconds=60)
    assert run.errors == [] and run.completed == 2
    assert run.retries == sum(refused) >= 20
    assert sum(1 for kind, _, _, status, _ in run.answers if kind == "save" and status == 503) == run.retries
    assert len(run.acknowledged) == len(set(run.acknowledged)) == 60
    check = verify(app.config["SQLALCHEMY_DATABASE_URI"], run)
    assert (check["lost"], check["duplicated"]) == (0, 0)


def test_wrk_latencies_read_in_ms_and_a_run_nothing_answered_as_nan():
    # The floor's table row comes out even when the empty view answered nothing (wrk prints "-nanus" then).
    assert [_ms(text) for text in ("812.00us", "1.20ms", "2.50s", "1.00m")] == [0.812, 1.2, 2500.0, 60_000.0]
    assert math.isnan(_ms("-nanus"))


@pytest.mark.parametrize(
    ("floor", "scenario"), [(None, DURABLE_FLOOR), ("bare_app", BARE_FLOOR), ("validated_app", VALIDATED_FLOOR)]
)
def test_the_durable_floors_store_each_request_once_and_leave_nothing_behind(app, floor, scenario):
    """bench/load/floor.py's durable floor (the empty view + the save's INSERT), bare floor (that INSERT in plain
    WSGI) and validated floor (the bare floor after the save's validation: floor.lua's body passes it), PostgreSQL
    only: every request answered is a row committed, counted (warm-up included) and then deleted with its sessions."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if not url.startswith("postgresql"):
        pytest.skip("the durable floors run on PostgreSQL, as make bench-load does")
    row = http_floor(4, 2, "granian", url, floor)
    assert row.scenario == scenario and row.errors == 0 and row.saves > 0
    stored = int(re.search(r"([\d,]+) rows stored", row.note).group(1).replace(",", ""))
    assert stored >= row.saves and row.request_cpu_ms > 0 and row.cpu_ms > row.pg_ms > 0
    tokens = db.select(ParticipantSession.token).where(ParticipantSession.token.like("durable-floor-%"))
    assert db.session.scalars(tokens).all() == []
    assert db.session.scalar(db.select(db.func.count()).select_from(Trial)) == 0
