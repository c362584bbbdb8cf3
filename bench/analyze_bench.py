"""`flask analyze` at the seed study's scale: wall time and peak memory with each benchmark size of predictions in
the database (after import_bench the database holds the largest size; smaller ones are made by dropping runs).

The issue's goal: 16 million predictions analysed in under a minute with flat memory, because models are
aggregated in the database (server/tasks/ratio_estimation/analyzer.py), not loaded row by row into pandas."""

from __future__ import annotations

import random
import sys

import sqlalchemy as sa

from server.db import db
from server.models import ModelRun, ParticipantSession
from server.participation import session_api, sessions, trialstore
from server.studies.definitions import get_study
from server.tasks.ratio_estimation.charts import BarStimulus

from .common import SLUG, Bench, Result, timer

NAME = "flask analyze"
PARTICIPANTS = 60  # the seed study's cohort size (63 recruited)
DEMOGRAPHICS = {"gender": "female", "age": 30, "education": "doctorate", "nationality": "Dutch"}


def add_cohort(bench: Bench) -> None:
    """Simulated participants who finish the study through the same code as the JSON API, answering the true
    percent plus noise that grows with the chart type (roughly the Cleveland–McGill order)."""
    rng = random.Random(0)
    with bench.app.app_context():
        study = get_study(SLUG)
        if db.session.scalar(db.select(sa.func.count(ParticipantSession.id)).filter_by(study_id=study.id)):
            return
        for n in range(PARTICIPANTS):
            token = sessions.find_or_create(study, {"PROLIFIC_PID": f"bench{n:03d}"}, "bench").token
            with trialstore.autocommit() as connection:
                session = session_api.lookup(connection, token)
                session_api.save_survey(connection, session, "consent", {"answers": {"agreed": True}})
                session_api.save_survey(connection, session, "demographics", {"answers": DEMOGRAPHICS})
                for item in session.plan:
                    stim = BarStimulus.parse(item["stimulus_id"])
                    judged = min(100.0, max(0.0, stim.true_percent + rng.gauss(0, 2 + stim.chart_type)))
                    session_api.save_trial(
                        connection,
                        session,
                        {
                            "trial_id": f"bench-{n}-{item['index']}",
                            "trial_index": item["index"],
                            "stimulus_id": item["stimulus_id"],
                            "response": {"percent": judged},
                        },
                    )
                session_api.complete(connection, session)


RUNS_PER_OBSERVER = 5  # the seed study's "VGG19 / ResNet50, five runs each"


def as_observers(bench: Bench) -> None:
    """import_bench loads its 800 runs under one observer; the seed study's 800 models are observers (architecture
    × training condition) with five runs each, which is what the analysis aggregates and correlates by."""
    bench.execute(
        f"UPDATE model_runs SET observer = 'cnn-' || lpad((run / {RUNS_PER_OBSERVER})::text, 3, '0'), "
        f"run = run % {RUNS_PER_OBSERVER} WHERE observer = 'bench'"
    )


def keep_predictions(bench: Bench, size: int) -> int:
    """Drop whole model runs (newest first) until at most `size` predictions remain; return how many remain."""
    with bench.app.app_context():
        runs = db.session.execute(db.select(ModelRun.id, ModelRun.n_predictions).order_by(ModelRun.id)).all()
        kept, drop = 0, []
        for run_id, n in runs:
            if kept + n <= size:
                kept += n
            else:
                drop.append(run_id)
        if drop:
            db.session.execute(sa.delete(ModelRun).where(ModelRun.id.in_(drop)))  # predictions cascade
            db.session.commit()
        return kept


def measure(bench: Bench) -> tuple[float, float]:
    """Wall seconds and peak resident memory (MB) of `flask analyze bench --format json` in its own process:
    a fresh wrapper whose only child is the command, so earlier benchmarks' children do not count."""
    wrapper = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
        "stdout=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    env_flask = [sys.executable, "-m", "flask", "analyze", SLUG, "--format", "json"]
    with timer() as elapsed:
        output = bench.flask_process([sys.executable, "-c", wrapper, *env_flask])
    return elapsed(), int(output.stdout.strip().splitlines()[-1]) / 1024


def run(bench: Bench) -> list[Result]:
    add_cohort(bench)
    as_observers(bench)
    results = []
    for n, size in enumerate(sorted(bench.sizes, reverse=True)):
        rows = keep_predictions(bench, size)
        # Straight after a bulk import PostgreSQL's first read also writes hint bits on every row; autovacuum does
        # that soon after an import, so both the first analysis and the steady state are reported.
        for when in ("straight after the import", "after VACUUM ANALYZE") if n == 0 else ("after VACUUM ANALYZE",):
            if when.startswith("after"):
                bench.execute("VACUUM ANALYZE predictions", "VACUUM ANALYZE model_runs")
            seconds, peak_mb = measure(bench)
            results.append(
                Result(
                    NAME,
                    f"flask analyze, {when}",
                    rows,
                    seconds,
                    f"peak memory {peak_mb:,.0f} MB; {PARTICIPANTS} participants; 10,000 resamples",
                    details={"peak_mb": peak_mb},
                )
            )
    return results


def summary(results: list[Result]) -> list[str]:
    lines = []
    for r in results:
        if r.rows >= 16_000_000:
            lines.append(
                f"analyze at {r.rows:,} predictions: {r.seconds:.0f} s "
                f"(goal < 60 s: {'met' if r.seconds < 60 else 'NOT met'}), "
                f"peak {r.details['peak_mb']:,.0f} MB"
            )
    if len(results) > 1:
        low, high = min(results, key=lambda r: r.rows), max(results, key=lambda r: r.rows)
        lines.append(
            f"peak memory {low.details['peak_mb']:,.0f} MB at {low.rows:,} vs "
            f"{high.details['peak_mb']:,.0f} MB at {high.rows:,} predictions (flat memory goal)"
        )
    return lines
