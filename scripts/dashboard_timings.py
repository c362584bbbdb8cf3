"""Page timings of the researcher dashboard on a big study: 1,000 participants, 30,000 trials (`make bench-dashboard`).

Not a test: it fills a scratch database (PostgreSQL database `studyhive_dashboard_bench` on the server of
TEST_DATABASE_URL, or SQLite with --sqlite), logs in with Flask's test client and prints, per page, the median
and the slowest of a few requests as a table.

    .venv/bin/python scripts/dashboard_timings.py [--sqlite] [--participants 1000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server import create_app  # noqa: E402
from server.db import db, utcnow  # noqa: E402
from server.models import ParticipantSession, Stimulus, SurveyResponse, Trial  # noqa: E402
from server.researchers.auth import create_researcher  # noqa: E402
from server.studies.definitions import get_study, set_stage, sync_studies  # noqa: E402
from server.tasktype.registry import registry  # noqa: E402

PG_SERVER = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PG_DATABASE = "studyhive_dashboard_bench"


def database(sqlite: bool, scratch: Path) -> str:
    if sqlite:
        return f"sqlite:///{scratch / 'dashboard.sqlite'}"
    server = sa.make_url(PG_SERVER)
    engine = sa.create_engine(server.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {PG_DATABASE}")
        conn.exec_driver_sql(f"CREATE DATABASE {PG_DATABASE}")
    engine.dispose()
    return server.set(database=PG_DATABASE).render_as_string(hide_password=False)


def interaction_record(rng: random.Random, rt_ms: int, response: dict) -> list[dict]:
    """What a ratio trial's page records (docs/participant-api.md): typing the answer, and in one trial of 20 a
    switch to another tab and back (the data-quality flags read these)."""
    typed = str(response["percent"])
    events = [
        {"t": rt_ms * (i + 1) // (len(typed) + 2), "type": "input", "target": "percent", "value": typed[: i + 1]}
        for i in range(len(typed))
    ]
    if rng.random() < 0.05:
        gone = rng.randrange(0, rt_ms)
        events += [
            {"t": gone, "type": "hidden", "target": None, "value": None},
            {"t": min(rt_ms, gone + rng.randrange(500, 60_000)), "type": "visible", "target": None, "value": None},
        ]
    return sorted(events, key=lambda e: e["t"])


def fill(n_participants: int) -> tuple[int, int]:
    """study3 with n participants (90 % completed, 30 trials each; the rest part-way). Returns (sessions, trials)."""
    study = get_study("study3")
    task = registry().get(study.task_type)
    stimuli = {s.key: s for s in db.session.scalars(db.select(Stimulus).filter_by(study_id=study.id))}
    rng = random.Random(0)
    start = utcnow() - timedelta(hours=6)
    n_trials = 0
    for first in range(0, n_participants, 200):
        sessions, chunk = [], range(first, min(first + 200, n_participants))
        for i in chunk:
            plan = [item.as_json() for item in task.build_plan(study.config["task"], rng)]
            began = start + timedelta(seconds=20 * i)
            done = i % 10 != 9
            sessions.append(
                ParticipantSession(
                    study_id=study.id,
                    token=f"bench-{i:06d}-{rng.getrandbits(64):016x}",
                    platform="prolific",
                    prolific_pid=f"{i:024x}",
                    study_version=1,
                    condition=("a", "b")[i % 2],
                    status="completed" if done else "started",
                    started_at=began,
                    last_seen_at=began,
                    completed_at=began + timedelta(minutes=rng.uniform(6, 15)) if done else None,
                    plan=plan,
                )
            )
        db.session.add_all(sessions)
        db.session.flush()
        trials, surveys = [], []
        for s in sessions:
            surveys.append({"session_id": s.id, "name": "consent", "answers": {"agreed": True}})
            for item in s.plan[: len(s.plan) if s.status == "completed" else rng.randrange(len(s.plan))]:
                stim = stimuli[item["stimulus_id"]]
                response = {"percent": round(rng.uniform(5, 95), 1)}
                rt_ms = rng.randrange(150, 9000)
                trials.append(
                    {
                        "session_id": s.id,
                        "trial_index": item["index"],
                        "client_trial_id": f"{s.id}-{item['index']}-xxxx",
                        "stimulus_id": stim.id,
                        "practice": item["practice"],
                        "response": response,
                        "score": task.score(stim.params, response),
                        "rt_ms": rt_ms,
                        "created_at": s.started_at,
                        "events": interaction_record(rng, rt_ms, response),
                    }
                )
        db.session.execute(db.insert(SurveyResponse), surveys)
        db.session.execute(db.insert(Trial), trials)
        db.session.commit()
        n_trials += len(trials)
    return n_participants, n_trials


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sqlite", action="store_true", help="SQLite in a temporary folder instead of PostgreSQL")
    parser.add_argument("--participants", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = database(args.sqlite, Path(tmp))
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False, "DASHBOARD_N_BOOT": 1000}
        )
        with app.app_context():
            db.create_all()
            sync_studies(Path(app.config["STUDIES_DIR"]))
            set_stage(get_study("study3"), "live")  # the filled sessions are live ones: the pages' default stage
            create_researcher("bench", "bench-password")
            t0 = time.perf_counter()
            n_sessions, n_trials = fill(args.participants)
            print(
                f"{'sqlite' if args.sqlite else 'postgresql'}: {n_sessions} participants, {n_trials} trials "
                f"(filled in {time.perf_counter() - t0:.1f} s)\n"
            )
            some = db.session.scalars(db.select(ParticipantSession.id).order_by(ParticipantSession.id)).first()
        client = app.test_client()
        client.post("/researcher/login", data={"username": "bench", "password": "bench-password"})
        pages = [
            ("studies list", "/researcher/"),
            ("study page", "/researcher/studies/study3/"),
            ("progress plot (PNG)", "/researcher/studies/study3/progress.png"),
            ("participants, page 1", "/researcher/studies/study3/participants"),
            ("participants, page 20", "/researcher/studies/study3/participants?page=20"),
            ("one participant's trials", f"/researcher/studies/study3/participants/{some}"),
            ("trials.csv download", "/researcher/studies/study3/trials.csv"),
            ("participants.csv download", "/researcher/studies/study3/participants.csv"),
            ("versions page", "/researcher/studies/study3/versions"),
            ("results (analysis, 1,000 resamples)", "/researcher/studies/study3/results"),
        ]
        print(f"{'page':<38}{'median ms':>10}{'max ms':>10}{'KiB':>8}")
        for name, url_ in pages:
            times, size = [], 0
            for _ in range(args.repeat if "results" not in name else 2):
                t = time.perf_counter()
                response = client.get(url_)
                size = len(response.get_data())  # streamed downloads are timed to their last byte
                times.append((time.perf_counter() - t) * 1000)
                assert response.status_code == 200, (url_, response.status_code)
            print(f"{name:<38}{statistics.median(times):>10.0f}{max(times):>10.0f}{size / 1024:>8.0f}")
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
