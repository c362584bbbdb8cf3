"""The analysis of ratio-estimation studies (`flask analyze`, server/results/analyze.py runs it): the Study III report,
people vs imported model predictions. It reads, in one database snapshot:

- the sessions (recruited, completed) and the human trials via ``server.results.export.trial_rows`` (a study has at most
  some tens of thousands; they are loaded into pandas);
- the models' predictions, which may be millions (the seed study: 800 models × 20,000), **aggregated in the
  database** by one GROUP BY over predictions ⨝ stimuli ⨝ model_runs to one row per
  (run, chart type, short height, tall height) with the count, the mean absolute error and the mean natural log of
  (absolute error + 1/8) (divided by ln 2 here). Why this grain: per stimulus it would be one row per prediction
  and run (16 million), while a ratio-estimation study has at most 5 chart types × 39 height pairs = 195 cells, so
  this is at most 195 rows per run (156,000 for 800 runs). Pooling runs and renderings per (observer, condition,
  cell) and correlating runs with each other both need nothing finer.

The ``participant`` MLAE estimator needs no finer grain for models: each run's log2(MAE + 1/8) per
chart type comes from these cells. Two things need one row per (run, test stimulus) (:func:`model_stimuli_query`):
the ``pooled`` estimator (a midmean of single errors) for every model, and the interval of a model with a single
run (its stimuli are resampled). Those rows are loaded only then, and the pooled estimator (the default, that of
the published rows) takes at most :data:`MAX_POOLED_MODEL_ROWS` predictions (its bootstrap costs rows × resamples):
above that, asked for by name it is refused; as the default the report uses the participant estimator for every
row and says why. The statistics themselves live in
:mod:`analysis.reports.ratio_study`, whose RatioReport renders itself (text, Markdown, JSON, ``methods.md``,
figures).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from sqlalchemy import func, literal
from sqlalchemy.types import Float

from analysis.distance import nearest_distances
from analysis.reports.ratio_study import RatioReport, ratio_report

from ...db import db
from ...exceptions import AnalysisError
from ...models import ModelRun, Prediction, Stimulus, Study
from ...results.analyze import Options, exclusions, load_sessions
from ...results.export import trial_rows
from ...tasktype.contract import N_BOOT, SEED, AnalysisOption, Analyzer
from .sampling import training_ratios

LN2 = math.log(2.0)
LOG_OFFSET = 0.125  # Cleveland & McGill's 1/8 (analysis.judgement_errors.LOG_OFFSET)
#: The pooled MLAE's bootstrap over model runs costs (run, stimulus) rows × resamples; above this, --mlae participant.
MAX_POOLED_MODEL_ROWS = 250_000


def model_cells_query(study: Study, dialect: str = "postgresql"):
    """One GROUP BY over predictions ⨝ test stimuli ⨝ model_runs → one row per (run, chart type, height pair)."""
    params = Stimulus.params
    stimuli = db.select(
        Stimulus.id.label("stimulus_id"),
        params["chart_type"].as_integer().label("chart_type"),
        params["short_height"].as_integer().label("short_height"),
        params["tall_height"].as_integer().label("tall_height"),
        params["true_percent"].as_float().label("true_percent"),
    ).where(Stimulus.study_id == study.id, Stimulus.practice.is_(False))
    if dialect == "postgresql":
        # OFFSET 0 keeps PostgreSQL from flattening the subquery: the JSON is read once per stimulus and the few
        # stimuli become the hash side of the join. Flattened, or as a MATERIALIZED CTE (which the planner probes
        # with a hash of all predictions), it is slower (docs/operations.md, "Figures behind choices in the code").
        stimuli = stimuli.offset(0)
    stimuli = stimuli.subquery("test_stimuli")
    abs_error = func.abs(Prediction.value - stimuli.c.true_percent)
    return (
        db.select(
            Prediction.run_id,
            stimuli.c.chart_type,
            stimuli.c.short_height,
            stimuli.c.tall_height,
            func.avg(stimuli.c.true_percent).label("true_percent"),
            func.count().label("n"),
            func.avg(abs_error).label("mean_abs_error"),
            func.avg(func.ln(abs_error + literal(LOG_OFFSET, Float))).label("mean_ln_error"),
        )
        .select_from(Prediction)
        .join(stimuli, stimuli.c.stimulus_id == Prediction.stimulus_id)
        .join(ModelRun, ModelRun.id == Prediction.run_id)
        .where(ModelRun.study_id == study.id)
        .group_by(Prediction.run_id, stimuli.c.chart_type, stimuli.c.short_height, stimuli.c.tall_height)
    )


def model_stimuli_query(study: Study, run_ids: list[int]):
    """One row per (run, test stimulus) of the given runs: the count, mean absolute and mean natural-log error."""
    params = Stimulus.params
    abs_error = func.abs(Prediction.value - params["true_percent"].as_float())
    # chart_type through min(): PostgreSQL cannot match a JSON path with bound parameters in SELECT and GROUP BY
    return (
        db.select(
            Prediction.run_id,
            Prediction.stimulus_id,
            func.min(params["chart_type"].as_integer()).label("chart_type"),
            func.count().label("n"),
            func.avg(abs_error).label("mean_abs_error"),
            func.avg(func.ln(abs_error + literal(LOG_OFFSET, Float))).label("mean_ln_error"),
        )
        .join(Stimulus, Stimulus.id == Prediction.stimulus_id)
        .where(Stimulus.study_id == study.id, Stimulus.practice.is_(False), Prediction.run_id.in_(run_ids))
        .group_by(Prediction.run_id, Prediction.stimulus_id)
    )


def mlae_estimator(cells: pd.DataFrame, options: Options) -> tuple[str, str]:
    """The estimator to use and, when it is not the one asked for, why: the default (pooled) falls back to
    ``participant`` when the models have too many predictions for its bootstrap; ``--mlae pooled`` is refused."""
    predictions = int(cells["n"].sum()) if len(cells) else 0
    if options.mlae != "pooled" or predictions <= MAX_POOLED_MODEL_ROWS:
        return options.mlae, ""
    why = (
        f"the models have {predictions:,} predictions on test stimuli; the pooled estimator's bootstrap over runs "
        f"takes at most {MAX_POOLED_MODEL_ROWS:,}"
    )
    if "mlae" in options.given:
        raise AnalysisError(f"--mlae pooled: {why} (use --mlae participant, which needs one value per run and type)")
    return "participant", f"MLAE estimator participant instead of the default pooled: {why}"


def load_model_stimuli(study: Study, runs: pd.DataFrame, estimator: str) -> pd.DataFrame | None:
    """Per-stimulus errors of the runs that need them (all for ``pooled``; single-run observers otherwise)."""
    if runs.empty:
        return None
    per_observer = runs.groupby(["observer", "condition"])["run_id"].transform("size")
    wanted = runs if estimator == "pooled" else runs[per_observer == 1]
    if wanted.empty:
        return None
    rows = db.session.execute(model_stimuli_query(study, wanted["run_id"].astype(int).tolist())).mappings().all()
    out = pd.DataFrame(rows, columns=["run_id", "stimulus_id", "chart_type", "n", "mean_abs_error", "mean_ln_error"])
    out = out.merge(wanted, on="run_id", how="inner")
    out["mean_log_error"] = out["mean_ln_error"].astype(float) / LN2
    return out.drop(columns=["run_id", "mean_ln_error"])


def load_model_runs(study: Study) -> pd.DataFrame:
    runs = pd.DataFrame(
        db.session.execute(
            db.select(
                ModelRun.id.label("run_id"), ModelRun.observer, ModelRun.condition, ModelRun.run, ModelRun.manifests
            ).where(ModelRun.study_id == study.id)
        )
        .mappings()
        .all(),
        columns=["run_id", "observer", "condition", "run", "manifests"],
    )
    runs["condition"] = runs["condition"].fillna("")
    return runs


def run_manifests(runs: pd.DataFrame) -> list[dict[str, Any]]:
    """The manifests kept with the imported runs (`model_runs.manifests`), for the report's JSON: what each run was
    trained on and how, without the per-epoch history (which the run folder's run.json keeps)."""
    out = []
    for r in runs.sort_values(["observer", "condition", "run"]).itertuples(index=False):
        if r.manifests:
            files = [
                {**m, "run_manifest": {k: v for k, v in (m.get("run_manifest") or {}).items() if k != "history"}}
                for m in r.manifests
            ]
            out.append({"observer": r.observer, "condition": r.condition, "run": int(r.run), "files": files})
    return out


def load_model_cells(study: Study, runs: pd.DataFrame) -> pd.DataFrame:
    query = model_cells_query(study, db.session.connection().dialect.name)
    cells = pd.DataFrame(
        db.session.execute(query).mappings().all(),
        columns=[
            "run_id",
            "chart_type",
            "short_height",
            "tall_height",
            "true_percent",
            "n",
            "mean_abs_error",
            "mean_ln_error",
        ],
    )
    cells = cells.merge(runs, on="run_id", how="inner")
    cells["mean_log_error"] = cells["mean_ln_error"].astype(float) / LN2
    cells["distance"] = cell_distances(cells)
    return cells.drop(columns=["run_id", "mean_ln_error", "manifests"])


def cell_distances(cells: pd.DataFrame) -> np.ndarray:
    """Each cell's training–test distance for its run (ratio units): from the cell's ratio to the nearest ratio the
    run's training bins can draw (sampling.training_ratios). The bins come from the run manifests kept at import
    (`python -m modelruns train` copies them from the training set's sampling.json): one per imported file, for the
    chart types it answers. NaN where the run does not say."""
    out = np.full(len(cells), np.nan)
    ratio = cells["short_height"].to_numpy(float) / cells["tall_height"].to_numpy(float)
    for (_, chart_type), index in cells.groupby(["run_id", "chart_type"], sort=False).indices.items():
        for entry in cells["manifests"].iloc[index[0]] or ():
            manifest = entry.get("run_manifest") or {}
            types = entry.get("chart_types") or manifest.get("chart_types") or []
            if chart_type in types and manifest.get("training_bins"):
                train = training_ratios(manifest["training_bins"], types)
                out[index] = nearest_distances(ratio[index], train) if train else np.nan
                break
    return out


TRIAL_COLUMNS = [
    "participant_id",
    "practice",
    "stimulus_id",
    "chart_type",
    "short_height",
    "tall_height",
    "true_percent",
    "response_percent",
    "abs_error",
    "log_error",
]


def load_trials(study: Study, stage: str) -> pd.DataFrame:
    rows = trial_rows(study, stage=stage)
    return pd.DataFrame(([row[c] for c in TRIAL_COLUMNS] for row in rows), columns=TRIAL_COLUMNS)


MLAE = AnalysisOption(
    "mlae",
    "--mlae",
    "pooled",
    "MLAE estimator (ratio estimation): pooled = midmean of all judgments (Cleveland & McGill 1984, Heer & "
    "Bostock 2010: the published rows printed beside); participant = per participant log2(MAE + 1/8), midmean "
    "across participants (Haehn et al. 2018, per run). Models take the same, runs for people",
    choices=("pooled", "participant"),
)
EXCLUDE_OUTLIERS = AnalysisOption(
    "exclude_outliers",
    "--exclude-outliers/--keep-outliers",
    True,
    "drop participants beyond the 3×IQR fence (they are reported either way)",
)


class RatioEstimationAnalyzer(Analyzer):
    """flask analyze for ratio-estimation studies: the Study III report (analysis.reports.ratio_study)."""

    options = (MLAE, EXCLUDE_OUTLIERS, N_BOOT, SEED)

    def load(self, study: Study, options: Options) -> dict[str, Any]:
        runs = load_model_runs(study)
        cells = load_model_cells(study, runs)
        estimator, why = mlae_estimator(cells, options)
        return {
            "sessions": load_sessions(study, options.stage),
            "trials": load_trials(study, options.stage),
            "model_cells": cells,
            "model_stimuli": load_model_stimuli(study, runs, estimator),
            "mlae": estimator,
            "notes": [why] if why else [],
            "manifests": run_manifests(runs),
        }

    def compute(self, study: Study, data: dict[str, Any], options: Options) -> RatioReport:
        return ratio_report(
            data["sessions"],
            data["trials"],
            data["model_cells"],
            data["model_stimuli"],
            mlae_estimator=data["mlae"],
            exclude_outliers=options.exclude_outliers,
            n_boot=options.n_boot,
            seed=options.seed,
            notes=data["notes"],
            meta={
                "slug": study.slug,
                "title": study.title,
                "task_type": study.task_type,
                "exclusion_reasons": exclusions(data["sessions"])["exclusion_reasons"],
                "model_manifests": data["manifests"],
            },
        )
