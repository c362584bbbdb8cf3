"""`flask analyze <slug>`: the statistics a paper reports, people vs imported model predictions, for one study.

    flask analyze study3 [--out DIR] [--format text|json] [--mlae participant|pooled]
                         [--exclude-outliers/--keep-outliers] [--n-boot N] [--seed S]

The command dispatches on the study's task type (:data:`ANALYZERS`); a task type without an analyzer is refused
with a message. The ratio-estimation analyzer reads, in one database snapshot:

- the sessions (recruited, completed) and the human trials via ``server.export.trial_rows`` (a study has at most
  some tens of thousands; they are loaded into pandas);
- the models' predictions, which may be millions (the seed study: 800 models × 20,000), **aggregated in the
  database** by one GROUP BY over predictions ⨝ stimuli ⨝ model_runs to one row per
  (run, chart type, short height, tall height) with the count, the mean absolute error and the mean natural log of
  (absolute error + 1/8) (divided by ln 2 here). Why this grain: per stimulus it would be one row per prediction
  and run (16 million), while a ratio-estimation study has at most 5 chart types × 39 height pairs = 195 cells, so
  this is at most 195 rows per run (156,000 for 800 runs). Pooling runs and renderings per (observer, condition,
  cell) and correlating runs with each other both need nothing finer.

The ``participant`` MLAE estimator (the default) needs no finer grain for models: each run's log2(MAE + 1/8) per
chart type comes from these cells. Two things need one row per (run, test stimulus) (:func:`model_stimuli_query`):
the ``pooled`` estimator (a midmean of single errors) for every model, and the interval of a model with a single
run (its stimuli are resampled). Those rows are loaded only then, and the pooled estimator refuses more than
:data:`MAX_POOLED_MODEL_ROWS` of them (its bootstrap costs rows × resamples). The statistics themselves live in
:mod:`analysis.report`; the figures in :mod:`analysis.figures`; ``methods.md`` in :func:`analysis.report.ratio_methods`.
"""
from __future__ import annotations

import json
import math
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource
import pandas as pd
from sqlalchemy import event, func, literal
from sqlalchemy.types import Float

from .db import db, snapshot
from .export import trial_rows
from .models import ModelRun, ParticipantSession, Prediction, Stimulus, Study
from .studies import get_study
from .tasks.hive import HIVE_TASKS, HiveAnalyzer
from .tasks.sketch import SketchAnalyzer

LN2 = math.log(2.0)
LOG_OFFSET = 0.125  # Cleveland & McGill's 1/8 (analysis.errors.LOG_OFFSET)
CSV_TABLES = ("participants", "mlae", "mae", "effects", "consistency")
#: The pooled MLAE's bootstrap over model runs costs (run, stimulus) rows × resamples; above this, --mlae participant.
MAX_POOLED_MODEL_ROWS = 250_000


@dataclass
class Options:
    mlae: str = "participant"
    exclude_outliers: bool = True
    n_boot: int = 10_000
    seed: int = 0


class NothingToAnalyse(click.ClickException):
    """The study exists but has no data the analysis can use (e.g. no completed participant)."""


def _sqlite_ln(x):
    return math.log(x) if x is not None and x > 0 else None


def _add_sqlite_math(dbapi_connection, connection_record) -> None:
    """SQLite builds without the math functions lack ln(); register a deterministic Python one there only."""
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    try:
        dbapi_connection.execute("select ln(2)").fetchone()
    except sqlite3.OperationalError:
        dbapi_connection.create_function("ln", 1, _sqlite_ln, deterministic=True)


# --------------------------------------------------------------------------------------------------
# Ratio estimation


def model_cells_query(study: Study, dialect: str = "postgresql"):
    """One GROUP BY over predictions ⨝ test stimuli ⨝ model_runs → one row per (run, chart type, height pair)."""
    params = Stimulus.params
    stimuli = (db.select(Stimulus.id.label("stimulus_id"),
                         params["chart_type"].as_integer().label("chart_type"),
                         params["short_height"].as_integer().label("short_height"),
                         params["tall_height"].as_integer().label("tall_height"),
                         params["true_percent"].as_float().label("true_percent"))
               .where(Stimulus.study_id == study.id, Stimulus.practice.is_(False)))
    if dialect == "postgresql":
        # OFFSET 0 keeps PostgreSQL from flattening the subquery: the JSON is read once per stimulus and the few
        # stimuli become the hash side of the join (measured on 15 million predictions: 7 s instead of 37 s
        # flattened, or 11 s as a MATERIALIZED CTE, which the planner probes with a hash of all predictions).
        stimuli = stimuli.offset(0)
    stimuli = stimuli.subquery("test_stimuli")
    abs_error = func.abs(Prediction.value - stimuli.c.true_percent)
    return (db.select(Prediction.run_id, stimuli.c.chart_type, stimuli.c.short_height, stimuli.c.tall_height,
                      func.avg(stimuli.c.true_percent).label("true_percent"),
                      func.count().label("n"),
                      func.avg(abs_error).label("mean_abs_error"),
                      func.avg(func.ln(abs_error + literal(LOG_OFFSET, Float))).label("mean_ln_error"))
            .select_from(Prediction)
            .join(stimuli, stimuli.c.stimulus_id == Prediction.stimulus_id)
            .join(ModelRun, ModelRun.id == Prediction.run_id)
            .where(ModelRun.study_id == study.id)
            .group_by(Prediction.run_id, stimuli.c.chart_type, stimuli.c.short_height, stimuli.c.tall_height))


def model_stimuli_query(study: Study, run_ids: list[int]):
    """One row per (run, test stimulus) of the given runs: the count, mean absolute and mean natural-log error."""
    params = Stimulus.params
    abs_error = func.abs(Prediction.value - params["true_percent"].as_float())
    # chart_type through min(): PostgreSQL cannot match a JSON path with bound parameters in SELECT and GROUP BY
    return (db.select(Prediction.run_id, Prediction.stimulus_id,
                      func.min(params["chart_type"].as_integer()).label("chart_type"),
                      func.count().label("n"), func.avg(abs_error).label("mean_abs_error"),
                      func.avg(func.ln(abs_error + literal(LOG_OFFSET, Float))).label("mean_ln_error"))
            .join(Stimulus, Stimulus.id == Prediction.stimulus_id)
            .where(Stimulus.study_id == study.id, Stimulus.practice.is_(False), Prediction.run_id.in_(run_ids))
            .group_by(Prediction.run_id, Prediction.stimulus_id))


def load_model_stimuli(study: Study, runs: pd.DataFrame, cells: pd.DataFrame, estimator: str) -> pd.DataFrame | None:
    """Per-stimulus errors of the runs that need them (all for ``pooled``; single-run observers otherwise)."""
    if runs.empty:
        return None
    per_observer = runs.groupby(["observer", "condition"])["run_id"].transform("size")
    wanted = runs if estimator == "pooled" else runs[per_observer == 1]
    if wanted.empty:
        return None
    if estimator == "pooled" and cells["n"].sum() > MAX_POOLED_MODEL_ROWS:
        raise click.ClickException(
            f"--mlae pooled: the models have {int(cells['n'].sum()):,} predictions on test stimuli; the pooled "
            f"estimator's bootstrap over runs takes at most {MAX_POOLED_MODEL_ROWS:,} (use --mlae participant, "
            f"which needs one value per run and chart type)")
    rows = db.session.execute(model_stimuli_query(study, wanted["run_id"].astype(int).tolist())).mappings().all()
    out = pd.DataFrame(rows, columns=["run_id", "stimulus_id", "chart_type", "n", "mean_abs_error", "mean_ln_error"])
    out = out.merge(wanted, on="run_id", how="inner")
    out["mean_log_error"] = out["mean_ln_error"].astype(float) / LN2
    return out.drop(columns=["run_id", "mean_ln_error"])


def load_model_runs(study: Study) -> pd.DataFrame:
    runs = pd.DataFrame(db.session.execute(
        db.select(ModelRun.id.label("run_id"), ModelRun.observer, ModelRun.condition, ModelRun.run)
        .where(ModelRun.study_id == study.id)).mappings().all(),
        columns=["run_id", "observer", "condition", "run"])
    runs["condition"] = runs["condition"].fillna("")
    return runs


def load_model_cells(study: Study, runs: pd.DataFrame) -> pd.DataFrame:
    query = model_cells_query(study, db.session.connection().dialect.name)
    cells = pd.DataFrame(db.session.execute(query).mappings().all(),
                         columns=["run_id", "chart_type", "short_height", "tall_height", "true_percent", "n",
                                  "mean_abs_error", "mean_ln_error"])
    cells = cells.merge(runs, on="run_id", how="inner")
    cells["mean_log_error"] = cells["mean_ln_error"].astype(float) / LN2
    return cells.drop(columns=["run_id", "mean_ln_error"])


def load_sessions(study: Study) -> pd.DataFrame:
    PS = ParticipantSession
    rows = db.session.execute(db.select(PS.id.label("participant_id"), PS.status, PS.exclusion_reason)
                              .where(PS.study_id == study.id).order_by(PS.id)).mappings().all()
    return pd.DataFrame(rows, columns=["participant_id", "status", "exclusion_reason"])


def exclusions(sessions: pd.DataFrame) -> dict[str, Any]:
    """Sessions a researcher excluded (`flask participants exclude`), for a report's meta: how many, and how many
    for each reason given. Every analysis uses completed sessions only, so these are already left out."""
    excluded = sessions.loc[sessions["status"] == "excluded", "exclusion_reason"].fillna("")
    return {"session_excluded": len(excluded),
            "exclusion_reasons": {str(k): int(v) for k, v in excluded.value_counts().sort_index().items()}}


TRIAL_COLUMNS = ["participant_id", "practice", "stimulus_id", "chart_type", "short_height", "tall_height",
                 "true_percent", "response_percent", "abs_error", "log_error"]


def load_trials(study: Study) -> pd.DataFrame:
    return pd.DataFrame(([row[c] for c in TRIAL_COLUMNS] for row in trial_rows(study)), columns=TRIAL_COLUMNS)


class RatioEstimationAnalyzer:
    """flask analyze for ratio-estimation studies: the Study III report (analysis.report)."""
    options = frozenset({"mlae", "exclude_outliers", "n_boot", "seed"})

    def load(self, study: Study, options: Options) -> dict[str, Any]:
        runs = load_model_runs(study)
        cells = load_model_cells(study, runs)
        return {"sessions": load_sessions(study), "trials": load_trials(study), "model_cells": cells,
                "model_stimuli": load_model_stimuli(study, runs, cells, options.mlae)}

    def check(self, study: Study, data: dict[str, Any]) -> None:
        s, t = data["sessions"], data["trials"]
        done = set(s.loc[s["status"] == "completed", "participant_id"])
        if not done or not (t["participant_id"].isin(done) & ~t["practice"].astype(bool)).any():
            raise NothingToAnalyse(
                f"study {study.slug!r} has no completed participants yet ({len(s)} session(s) recruited, "
                f"{len(done)} completed); nothing to analyse")

    def compute(self, study: Study, data: dict[str, Any], options: Options):
        from analysis.report import ratio_report
        return ratio_report(data["sessions"], data["trials"], data["model_cells"], data["model_stimuli"],
                            mlae_estimator=options.mlae, exclude_outliers=options.exclude_outliers, n_boot=options.n_boot, seed=options.seed,
                            meta={"slug": study.slug, "title": study.title, "task_type": study.task_type,
                                  "exclusion_reasons": exclusions(data["sessions"])["exclusion_reasons"]})

    def text(self, report) -> str:
        from analysis.report import format_text
        return format_text(report)

    def json(self, report) -> dict[str, Any]:
        from analysis.report import report_json
        return report_json(report)

    def write(self, report, out_dir: Path) -> list[Path]:
        from analysis.figures import write_figures
        from analysis.report import format_markdown
        from analysis.tables import write_tables
        written = write_tables(report.tables, CSV_TABLES, out_dir)
        (out_dir / "report.md").write_text(format_markdown(report), encoding="utf-8")
        written.append(out_dir / "report.md")
        return written + write_figures(report, out_dir)

    def methods(self, report) -> str:
        from analysis.report import ratio_methods
        return ratio_methods(report)


class HypothesisRatingAnalyzer:
    """flask analyze for hypothesis-rating (Two4Two) studies: analysis.ratings on completed participants' ratings,
    with each statement's relevance taken from the study file."""
    options = frozenset({"n_boot", "seed"})  # every rating counts: no outlier rule

    def load(self, study: Study, options: Options) -> dict[str, Any]:
        columns = ["participant_id", "statement_id", "rating"]
        return {"sessions": load_sessions(study),
                "trials": pd.DataFrame(([r[c] for c in columns] for r in trial_rows(study)), columns=columns),
                "statements": pd.DataFrame([{"statement_id": s["id"], "text": s["text"], "relevant": s["relevant"]}
                                            for s in study.config["task"]["statements"]])}

    def check(self, study: Study, data: dict[str, Any]) -> None:
        RatioEstimationAnalyzer().check(study, {**data, "trials": data["trials"].assign(practice=False)})

    def compute(self, study: Study, data: dict[str, Any], options: Options):
        from analysis.ratings import ratings_report
        s, t = data["sessions"], data["trials"]
        done = t[t["participant_id"].isin(s.loc[s["status"] == "completed", "participant_id"])]
        return ratings_report(done.astype({"rating": int}), data["statements"], n_boot=options.n_boot,
                              seed=options.seed, meta={"slug": study.slug, "title": study.title,
                                                       "task_type": study.task_type, "recruited": len(s),
                                                       **exclusions(s)})

    def text(self, report) -> str:
        from analysis.ratings import ratings_text
        return ratings_text(report)

    def json(self, report) -> dict[str, Any]:
        from analysis.ratings import ratings_json
        return ratings_json(report)

    def write(self, report, out_dir: Path) -> list[Path]:
        from analysis.ratings import write_ratings
        return write_ratings(report, out_dir)

    def methods(self, report) -> str:
        from analysis.ratings import ratings_methods
        return ratings_methods(report)


#: task type id → analyzer (load in the snapshot, check, compute, text, json, write). HIVE/sketch add theirs here.
ANALYZERS: dict[str, Any] = {"ratio-estimation": RatioEstimationAnalyzer(),
                              "hypothesis-rating": HypothesisRatingAnalyzer()}
ANALYZERS.update({task.id: HiveAnalyzer() for task in HIVE_TASKS})
ANALYZERS["sketch-recognition"] = SketchAnalyzer()


@click.command("analyze", help="Report a study's statistics: people (and imported models) against the literature.")
@click.argument("slug")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              help="also write the tables (CSV), report.md and PNG figures to this folder")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: a readable report; json: the same numbers as a dict of tables (records), NaN as null")
@click.option("--mlae", "mlae", type=click.Choice(["participant", "pooled"]), default="participant",
              show_default=True, help="MLAE estimator (ratio estimation): participant = per participant "
              "log2(MAE + 1/8), midmean across participants (Haehn et al. 2018, Jiang et al.); pooled = midmean of "
              "all judgments (Cleveland & McGill 1984, Heer & Bostock 2010). Models take the same, runs for people")
@click.option("--exclude-outliers/--keep-outliers", default=True, show_default=True,
              help="drop participants beyond the 3×IQR fence (they are reported either way)")
@click.option("--n-boot", type=click.IntRange(min=1), default=10_000, show_default=True,
              help="bootstrap resamples per confidence interval")
@click.option("--seed", type=int, default=0, show_default=True, help="seed of the bootstrap")
def analyze_command(slug, out_dir, fmt, mlae, exclude_outliers, n_boot, seed):
    options = Options(mlae=mlae, exclude_outliers=exclude_outliers, n_boot=n_boot, seed=seed)
    # Options given on the command line that the study's analysis does not use are refused, not ignored.
    context = click.get_current_context()
    given = {name for name in ("mlae", "exclude_outliers", "n_boot", "seed")
             if context.get_parameter_source(name) is ParameterSource.COMMANDLINE}
    with snapshot():
        study = get_study(slug)
        if study is None:
            raise click.ClickException(f"no study named {slug!r} (see `flask studies list`)")
        analyzer = ANALYZERS.get(study.task_type)
        if analyzer is None:
            raise click.ClickException(
                f"flask analyze does not support task type {study.task_type!r} (study {slug!r}) yet; "
                f"supported: {', '.join(sorted(ANALYZERS))}")
        _check_options(analyzer, study, given, options)
        data = analyzer.load(study, options)
        db.session.expunge(study)  # keep slug/title readable after the snapshot ends
    analyzer.check(study, data)
    try:
        report = analyzer.compute(study, data, options)
    except ValueError as exc:  # the analysis package names the input problem
        raise click.ClickException(f"cannot analyse {slug!r}: {exc}") from None
    if fmt == "json":
        click.echo(json.dumps(analyzer.json(report), indent=1, ensure_ascii=False, allow_nan=False))
    else:
        click.echo(analyzer.text(report), nl=False)
    if out_dir is not None:
        written = analyzer.write(report, out_dir)
        (out_dir / "methods.md").write_text(analyzer.methods(report), encoding="utf-8")
        written.append(out_dir / "methods.md")
        click.echo(f"wrote {len(written)} files to {out_dir}: {', '.join(p.name for p in written)}",
                   err=(fmt == "json"))


def _check_options(analyzer, study: Study, given: set[str], options: Options) -> None:
    flags = {"mlae": "--mlae", "exclude_outliers": "--exclude-outliers/--keep-outliers", "n_boot": "--n-boot",
             "seed": "--seed"}
    unused = sorted(given - analyzer.options)
    if unused:
        uses = ", ".join(flags[name] for name in sorted(analyzer.options)) or "none of them"
        raise click.ClickException(f"{', '.join(flags[name] for name in unused)}: not used by the analysis of "
                                   f"{study.task_type} studies (study {study.slug!r}; it uses {uses})")
    most = getattr(analyzer, "max_n_boot", None)
    if "n_boot" in given and most and options.n_boot > most:
        raise click.ClickException(f"--n-boot: {study.task_type} studies take at most {most:,} resamples")


def init_app(app):
    app.cli.add_command(analyze_command)
    with app.app_context():
        engine = db.engine
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _add_sqlite_math)
