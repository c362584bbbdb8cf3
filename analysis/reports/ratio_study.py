"""The Study III report for ratio-estimation studies: people vs models vs the published position-length results.

:func:`ratio_report` takes three small tidy tables -- the sessions, the human trials and the models' errors
already aggregated per (run, chart type, height pair) -- and returns a :class:`RatioReport`: every number of the
report as DataFrames, plus the per-height-pair tables the figures draw, and renders it through the methods every
report has (:class:`analysis.reports.report.Report`). Nothing here reads a database or imports Flask:
``server/results/analyze.py`` does the reading (and the aggregation of millions of predictions in SQL).

How the numbers are made
------------------------

* **Participants.** Sessions that did not complete are not analysed. Among completed ones, this product's reading
  of Study III's outlier sentence -- a participant's mean absolute error over *test* trials above Q3 + 3×IQR of
  all participants' means (:func:`analysis.iqr_outliers`) -- flags outliers; they are excluded unless
  ``exclude_outliers=False``, and reported either way. With IQR = 0 the rule cannot separate anyone and is not
  applied (said in words). Practice trials never count.
* **MLAE** per chart type, by the estimator named in ``mlae_estimator`` (:data:`analysis.mlae.ESTIMATORS`):
  ``pooled`` (default: Cleveland & McGill 1984, Heer & Bostock 2010, the estimator of the published rows printed
  beside: midmean of all log errors) or ``participant`` (Haehn et al. 2018: per participant log2(MAE + 1/8),
  midmean across participants).
  Models take the **same** estimator with their runs in the participants' place: intervals resample runs, or,
  for a model with one run, its test stimuli. Every row of the table is the same quantity; the published rows
  say which estimator their paper used.
* **MAE** (mean absolute error) in percentage points and in ratio units (percent / 100, as the paper's human
  0.056 vs CNN 0.013): the mean of all judgments (predictions); intervals resample participants (runs; the
  stimuli of a single run).
* **Intervals over fewer than 10 units** (participants or runs) carry the coverage ``make validate`` measured at
  that n (:func:`analysis.coverage.small_sample_note`); with one unit the interval resamples its stimuli.
* **Chart-type effect** (humans): repeated-measures ANOVA of each participant's mean log error per chart type,
  Greenhouse–Geisser corrected (:func:`analysis.inference.rm_anova`; participants missing a type are dropped and
  counted), post hoc paired t-tests with Holm's correction (:func:`analysis.inference.pairwise_within`).
* **Observer effect**: for each model, with participants and runs as the units: Welch's t-test
  (:func:`analysis.two_sample_t`) of each run's against each participant's mean absolute error (mean over chart
  types of the unit's MAE per type, so both sides weigh the types alike), model minus humans, percentage points.
  A model with one run: a one-sample t-test of participants' MAE against the run's (its run-to-run spread unknown).
  With 2 to 9 runs Welch's test is liberal (its run variance has 1–8 degrees of freedom), so a second row gives the
  random-effects test of unit means (:func:`analysis.inference.random_effects_test`): runs are units of the same
  kind as participants (the between-unit variance τ², estimated from participants) whose MAE averaged more
  predictions (each unit's own sampling variance, from its errors' spread within chart type), its p calibrated by
  a bootstrap-t from the participants.
* **Consistency**: Pearson r of mean absolute error per height pair (short, tall), each side first averaged
  per (chart type, height pair) cell, the two joined on the cells both have, then averaged over chart types --
  humans vs each model (:func:`analysis.inter_consistency`) and between the runs of one model
  (:func:`analysis.intra_consistency`).
* **Like for like**: a model that answered other chart types than people (e.g. imported for types 1–4 only) is
  compared with them over the types both answered -- the observer effect averages both sides over those, the
  model's "all chart types" MAE gets people's MAE over the same types beside it (``chart_type`` "types 1, 2, 3, 4")
  -- and a note names the types left out; a type with no MLAE prints "–" with a note saying whose it lacks.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from .._checks import check_choice
from ..consistency import inter_consistency, intra_consistency
from ..coverage import SMALL_SAMPLE, small_sample_note
from ..distance import distance_error_correlation
from ..inference import (
    RANDOM_EFFECTS_DRAWS,
    fisher_z_note,
    one_sample_t,
    pairwise_within,
    random_effects_test,
    rm_anova,
    two_sample_t,
)
from ..mlae import ESTIMATORS, mae, mlae
from ..outliers import iqr_outliers
from ..published import published, published_mlae
from .methods import methods_document
from .render import MISSING, Document, Items, Paragraph, Section, Table, num, p_value, with_interval
from .report import Report

__all__ = ["HUMANS", "MODEL_CELL_COLUMNS", "RatioReport", "ratio_report"]

#: Label of the human observer in every table.
HUMANS = "humans"

#: Columns of the ``model_cells`` input of :func:`ratio_report`: one row per (observer, condition, run,
#: chart type, height pair) with the number of predictions and their mean absolute and mean log error.
MODEL_CELL_COLUMNS = (
    "observer",
    "condition",
    "run",
    "chart_type",
    "short_height",
    "tall_height",
    "true_percent",
    "n",
    "mean_abs_error",
    "mean_log_error",
)
#: Columns of the ``model_stimuli`` input: one row per (observer, condition, run, test stimulus).
MODEL_STIMULUS_COLUMNS = (
    "observer",
    "condition",
    "run",
    "chart_type",
    "stimulus_id",
    "n",
    "mean_abs_error",
    "mean_log_error",
)

#: Optional column of ``model_cells``: the cell's training–test distance (ratio units) for the run, NaN when the run
#: does not say what it was trained on.
DISTANCE = "distance"
#: The distance bins (ratio units) of the table of model error against training–test distance.
DISTANCE_EDGES = (0.0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 1.0)

CELL = ["chart_type", "short_height", "tall_height"]
PAIR = ["short_height", "tall_height"]
ROUND_DECIMALS = 9
CHART_TYPES = (1, 2, 3, 4, 5)

PUBLISHED_LABELS = {"ClevelandMcGill1984": "Cleveland & McGill 1984", "HeerBostock2010": "Heer & Bostock 2010"}

#: The estimator each published MLAE row was computed with (their papers tabulate midmeans of all judgments).
PUBLISHED_ESTIMATOR = {"ClevelandMcGill1984": "pooled", "HeerBostock2010": "pooled"}
#: How the chart-type and observer tests are named in every output.
RM_TEST = "repeated-measures ANOVA, Greenhouse–Geisser"
PAIR_TEST = "paired t-test, Holm"
#: The observer test whose size holds below SMALL_SAMPLE runs (make validate's type-I table).
RANDOM_EFFECTS_TEST = "random-effects test of unit means, bootstrap-t"
RESAMPLED = {"participant_id": "participants", "run": "runs", "responses": "stimuli"}


@dataclass
class RatioReport(Report):
    """Everything :func:`ratio_report` computed.

    ``tables`` (written as CSV and JSON): ``participants``, ``mlae``, ``mae``, ``effects``, ``consistency``,
    ``distance`` (model error by training–test distance bin) and ``distance_runs`` (each run's distance and MAE).
    ``cells`` (for the figures): ``human`` and ``model`` mean errors per (chart type, height pair) and
    ``pairs`` per height pair (humans and every model side by side). ``meta``: counts, options and notes.
    """

    cells: dict[str, pd.DataFrame] = field(default_factory=dict)
    csv_tables = ("participants", "mlae", "mae", "effects", "consistency", "distance", "distance_runs")

    def document(self, brief: bool = False) -> Document:
        """The sections; ``brief`` lists at most :data:`SCREEN_MODELS` models (lowest MAE first)."""
        return _document(self, SCREEN_MODELS if brief else None)

    def methods(self) -> str:
        return _methods(self)

    def figures(self, out_dir) -> list:
        return write_figures(self, out_dir)


# --------------------------------------------------------------------------------------------------
# Building the report


def _label(observer: str, condition: str) -> str:
    return f"{observer} ({condition})" if condition else observer


def _model_table(df: pd.DataFrame | None, columns: tuple[str, ...], name: str) -> pd.DataFrame:
    """A model input (``model_cells`` or ``model_stimuli``) with its columns checked and typed."""
    if df is None or len(df) == 0:
        return pd.DataFrame({c: pd.Series(dtype=float if c.startswith(("mean", "true")) else object) for c in columns})
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"ratio_report: {name} lacks column(s) {', '.join(missing)}")
    out = df.loc[:, list(columns)].copy()
    out["condition"] = out["condition"].fillna("").astype(str)
    out["observer"] = out["observer"].astype(str)
    for c in ("run", "chart_type", "short_height", "tall_height", "n"):
        if c in out:
            out[c] = out[c].astype("int64")
    for c in ("true_percent", "mean_abs_error", "mean_log_error"):
        if c in out:
            out[c] = out[c].astype(float)
    # Means computed by a database over up to millions of rows carry float noise far below 1e-9 (percent or log2
    # units); dropping it keeps an exactly constant error constant (so no spurious correlation is reported).
    out[["mean_abs_error", "mean_log_error"]] = out[["mean_abs_error", "mean_log_error"]].round(ROUND_DECIMALS)
    return out


def _pool_runs(run_cells: pd.DataFrame) -> pd.DataFrame:
    """Per (observer, condition, cell): prediction-weighted means over runs (= the mean of all predictions)."""
    df = run_cells.assign(
        sum_abs=run_cells["n"] * run_cells["mean_abs_error"], sum_log=run_cells["n"] * run_cells["mean_log_error"]
    )
    g = df.groupby(["observer", "condition", *CELL], sort=True)
    out = g.agg(
        true_percent=("true_percent", "mean"),
        n=("n", "sum"),
        sum_abs=("sum_abs", "sum"),
        sum_log=("sum_log", "sum"),
        n_runs=("run", "nunique"),
    ).reset_index()
    out["mean_abs_error"] = out["sum_abs"] / out["n"]
    out["mean_log_error"] = out["sum_log"] / out["n"]
    return out.drop(columns=["sum_abs", "sum_log"])


DISTANCE_BIN_COLUMNS = ["label", "distance_bin", "low", "high", "n_cells", "n_predictions", "mae_ratio"]
DISTANCE_RUN_COLUMNS = ["label", "observer", "condition", "run", "distance", "mae_ratio", "n_predictions"]


def _distance_tables(model_cells: pd.DataFrame | None, label_of: dict, notes: list[str]):
    """Model error against training–test distance (the seed paper's §7.1, Figure 14), for the runs whose cells carry
    a distance: MAE per distance bin of the test stimuli, and per run its distance (the mean over its predictions of
    their stimulus's distance to the nearest training ratio) and MAE, with Pearson r across runs (or None)."""
    empty = pd.DataFrame(columns=DISTANCE_BIN_COLUMNS), pd.DataFrame(columns=DISTANCE_RUN_COLUMNS), None
    if model_cells is None or DISTANCE not in model_cells or model_cells[DISTANCE].isna().all():
        return empty
    cells = model_cells[model_cells[DISTANCE].notna()].copy()
    cells["condition"] = cells["condition"].fillna("").astype(str)
    cells["label"] = [label_of[(str(o), c)] for o, c in zip(cells["observer"], cells["condition"])]
    cells["sum_abs"] = cells["n"] * cells["mean_abs_error"].astype(float) / 100  # percent → ratio units
    cells["sum_distance"] = cells["n"] * cells[DISTANCE].astype(float)
    edges = list(DISTANCE_EDGES)
    cells["bin"] = pd.cut(cells[DISTANCE], edges, right=False, labels=False)
    by_bin = (
        cells.groupby(["label", "bin"], sort=True)
        .agg(n_cells=("n", "size"), n_predictions=("n", "sum"), sum_abs=("sum_abs", "sum"))
        .reset_index()
    )
    by_bin["low"] = [edges[int(b)] for b in by_bin["bin"]]
    by_bin["high"] = [edges[int(b) + 1] for b in by_bin["bin"]]
    by_bin["distance_bin"] = [f"[{lo:g}, {hi:g})" for lo, hi in zip(by_bin["low"], by_bin["high"])]
    by_bin["mae_ratio"] = by_bin["sum_abs"] / by_bin["n_predictions"]
    runs = (
        cells.groupby(["label", "observer", "condition", "run"], sort=True)
        .agg(n_predictions=("n", "sum"), sum_abs=("sum_abs", "sum"), sum_distance=("sum_distance", "sum"))
        .reset_index()
    )
    runs["distance"] = runs["sum_distance"] / runs["n_predictions"]
    runs["mae_ratio"] = runs["sum_abs"] / runs["n_predictions"]
    correlation = None
    if len(runs) >= 3 and runs["distance"].nunique() > 1 and runs["mae_ratio"].nunique() > 1:
        correlation = distance_error_correlation(runs, "distance", "mae_ratio").iloc[0].to_dict()
    else:
        notes.append(
            "error against training–test distance: no correlation across runs (it needs at least 3 runs whose "
            f"distances and errors vary; {len(runs)} run(s) carry a distance)"
        )
    return by_bin[DISTANCE_BIN_COLUMNS], runs[DISTANCE_RUN_COLUMNS], correlation


def _split(df: pd.DataFrame) -> dict[tuple[str, str], pd.DataFrame]:
    """(observer, condition) -> its rows; one group-by instead of a boolean mask per model (there may be hundreds)."""
    # not dict(groupby): dict() takes GroupBy's `keys` attribute for a mapping's keys() and fails
    return {key: part for key, part in df.groupby(["observer", "condition"], sort=False)}  # noqa: C416


def _participants(sessions: pd.DataFrame, trials: pd.DataFrame, exclude_outliers: bool, k: float, notes: list[str]):
    """The participants table and the analysed test trials; what was dropped or degraded goes into ``notes``."""
    sessions = sessions.sort_values("participant_id", ignore_index=True)
    test = trials[~trials["practice"].astype(bool)]
    n_test = test.groupby("participant_id").size()
    completed_ids = sessions.loc[sessions["status"] == "completed", "participant_id"]
    completed = test[test["participant_id"].isin(completed_ids)]
    unusable = completed[["abs_error", "log_error", "chart_type"]].isna().any(axis=1)
    if unusable.any():
        who = sorted(completed.loc[unusable, "participant_id"].unique().tolist())
        notes.append(
            f"{int(unusable.sum())} test trial(s) of completed participants dropped: no error can be "
            f"computed (missing response, true value or chart type); participant(s) "
            f"{', '.join(map(str, who))}"
        )
        completed = completed[~unusable]
    if completed.empty:
        raise ValueError("ratio_report: no completed participant has test trials; nothing to analyse")
    flags = iqr_outliers(completed, value="abs_error", unit="participant_id", k=k).set_index("participant_id")
    rule_applied = not flags["degenerate"].any()
    if not rule_applied:
        notes.append(f"outlier rule not applied: {flags['degenerate_reason'].iloc[0]}")

    rows = []
    for s in sessions.itertuples(index=False):
        pid = s.participant_id
        row = {
            "participant_id": pid,
            "status": s.status,
            "n_test_trials": int(n_test.get(pid, 0)),
            "mean_abs_error": float("nan"),
            "outlier": False,
            "analysed": False,
            "reason": "",
        }
        if s.status == "completed" and pid in flags.index:
            f = flags.loc[pid]
            row.update(mean_abs_error=float(f["mean_abs_error"]), outlier=bool(f["excluded"]))
            if row["outlier"]:
                row["reason"] = f["reason"] + ("" if exclude_outliers else " (kept: --keep-outliers)")
            row["analysed"] = not (row["outlier"] and exclude_outliers)
        elif s.status == "completed":
            row["reason"] = "completed without test trials"
        elif s.status == "excluded":
            given = getattr(s, "exclusion_reason", None)
            row["reason"] = "session marked excluded" + (f": {given}" if isinstance(given, str) and given else "")
        else:
            row["reason"] = f"not completed (status {s.status})"
        rows.append(row)
    table = pd.DataFrame(
        rows, columns=["participant_id", "status", "n_test_trials", "mean_abs_error", "outlier", "analysed", "reason"]
    )
    analysed_ids = table.loc[table["analysed"], "participant_id"]
    return table, completed[completed["participant_id"].isin(analysed_ids)].copy(), rule_applied


def _human_cells(trials: pd.DataFrame) -> pd.DataFrame:
    g = trials.groupby(CELL, sort=True)
    out = g.agg(
        true_percent=("true_percent", "mean"),
        n=("abs_error", "size"),
        mean_abs_error=("abs_error", "mean"),
        mean_log_error=("log_error", "mean"),
    ).reset_index()
    return out


def _model_source(o, run_parts, stim_parts, need_stimuli: bool) -> tuple[pd.DataFrame, str]:
    """The rows an observer's MLAE or MAE is computed from, and how its interval is made.

    Runs play the participants' part; a single run's interval resamples its test stimuli, which needs the
    per-stimulus errors (``model_stimuli``); so does the pooled MLAE (a midmean of single errors).
    """
    stimuli = stim_parts.get((o.observer, o.condition))
    if need_stimuli or o.n_runs < 2:
        if stimuli is not None:
            return stimuli, ""
        if need_stimuli:
            raise ValueError(f"the pooled MLAE of {o.label} needs its per-stimulus errors (model_stimuli)")
        return run_parts[(o.observer, o.condition)], "one run: interval resamples (chart type, height pair) cells"
    return run_parts[(o.observer, o.condition)], ""


def _mlae_table(trials, run_parts, stim_parts, observers, estimator, n_boot, seed, notes) -> pd.DataFrame:
    frames = []
    h = mlae(trials, estimator, group="chart_type", unit="participant_id", n_boot=n_boot, seed=seed)
    note = small_sample_note(trials["participant_id"].nunique(), "participants", f"mlae_{estimator}")
    if note:
        notes.append(f"MLAE of {HUMANS}: {note}")
    frames.append(h.assign(kind="human", observer=HUMANS, condition="", label=HUMANS, unit="participants", note=note))
    for o in observers.itertuples(index=False):
        rows, note = _model_source(o, run_parts, stim_parts, estimator == "pooled")
        note = note or small_sample_note(o.n_runs, "runs", f"mlae_{estimator}")
        m = mlae(
            rows,
            estimator,
            log_error="mean_log_error",
            abs_error="mean_abs_error",
            group="chart_type",
            unit="run",
            weight="n",
            n_boot=n_boot,
            seed=seed,
        )
        if note:
            notes.append(f"MLAE of {o.label}: {note}")
        frames.append(
            m.assign(kind="model", observer=o.observer, condition=o.condition, label=o.label, unit="runs", note=note)
        )
    frames += _published_mlae_frames(estimator)
    out = pd.concat(frames, ignore_index=True).rename(columns={"n_responses": "n_judgments"})
    out["resampled"] = out["resampled"].map(lambda r: RESAMPLED.get(r, r))
    out["chart_type"] = out["chart_type"].astype("int64")
    for c in ("n_units", "n_judgments"):
        out[c] = out[c].astype("Int64")
    return out[MLAE_COLUMNS]


MLAE_COLUMNS = [
    "kind",
    "observer",
    "condition",
    "label",
    "chart_type",
    "estimator",
    "mlae",
    "ci_low",
    "ci_high",
    "n_units",
    "unit",
    "n_judgments",
    "resampled",
    "note",
]


def _published_mlae_frames(estimator: str) -> list[pd.DataFrame]:
    """The published MLAE rows, each saying when its paper's estimator differs from ``estimator``."""
    frames = []
    pub = published_mlae()
    for source, label in PUBLISHED_LABELS.items():
        p = pub[pub["source"] == source]
        theirs = PUBLISHED_ESTIMATOR[source]
        frames.append(
            pd.DataFrame(
                {
                    "kind": "published",
                    "observer": label,
                    "condition": "",
                    "label": label,
                    "chart_type": p["chart_type"],
                    "mlae": p["mlae"],
                    "ci_low": p["ci_low"],
                    "ci_high": p["ci_high"],
                    "estimator": theirs,
                    "resampled": "",
                    "n_units": pd.NA,
                    "unit": "",
                    "n_responses": pd.NA,
                    "note": ""
                    if theirs == estimator
                    else f"published with the {theirs} estimator; these rows use {estimator} "
                    f"(compare: --mlae {theirs})",
                }
            )
        )
    return frames


def _mae_rows(kind, observer, condition, label, res, scope_col, unit, note=""):
    rows = []
    for r in res.to_dict("records"):
        scope = "all" if scope_col is None else str(int(r[scope_col]))
        rows.append(
            {
                "kind": kind,
                "observer": observer,
                "condition": condition,
                "label": label,
                "chart_type": scope,
                "mae_ratio": r["mae"] / 100,
                "ci_low_ratio": r["ci_low"] / 100,
                "ci_high_ratio": r["ci_high"] / 100,
                "mae_pp": r["mae"],
                "ci_low_pp": r["ci_low"],
                "ci_high_pp": r["ci_high"],
                "n_units": r["n_units"],
                "unit": unit,
                "n_judgments": r["n_responses"],
                "resampled": RESAMPLED.get(r["resampled"], r["resampled"]),
                "note": note,
            }
        )
    return rows


def _mae_table(trials, run_parts, stim_parts, observers, n_boot, seed, notes) -> pd.DataFrame:
    rows = []
    human_note = small_sample_note(trials["participant_id"].nunique(), "participants", "mae")
    if human_note:
        notes.append(f"MAE of {HUMANS}: {human_note}")
    for group in (None, "chart_type"):
        res = mae(trials, value="abs_error", group=group, unit="participant_id", n_boot=n_boot, seed=seed)
        rows += _mae_rows("human", HUMANS, "", HUMANS, res, group, "participants", human_note)
    scoped = set()  # (label, scope) of the like-for-like rows made: models lacking the same types share people's
    for o in observers.itertuples(index=False):
        source, note = _model_source(o, run_parts, stim_parts, need_stimuli=False)
        note = note or small_sample_note(o.n_runs, "runs", "mae")
        if note:
            notes.append(f"MAE of {o.label}: {note}")
        shared, left_out = _shared_types(trials, source, o.label)
        scope = _types_text(shared)
        for group in (None, "chart_type"):
            res = mae(source, value="mean_abs_error", group=group, unit="run", weight="n", n_boot=n_boot, seed=seed)
            also = (
                f"like for like with people: the '{scope}' rows; left out: {left_out}"
                if group is None and left_out
                else ""
            )
            rows += _mae_rows(
                "model", o.observer, o.condition, o.label, res, group, "runs", "; ".join(filter(None, [note, also]))
            )
            if also:
                rows[-1]["like_for_like"] = scope
        if left_out and shared:
            sides = (
                ("human", HUMANS, "", HUMANS, trials, "abs_error", "participant_id", None, "participants", human_note),
                ("model", o.observer, o.condition, o.label, source, "mean_abs_error", "run", "n", "runs", note),
            )
            rows += _like_for_like_rows(sides, shared, scope, scoped, n_boot, seed)
    rows += _published_mae_rows()
    out = pd.DataFrame(rows)
    for c in ("n_units", "n_judgments"):
        out[c] = pd.array(out[c].tolist(), dtype="Int64")
    # a model row over every type it answered: the chart_type of the rows that compare it with people like for like
    out["like_for_like"] = out.get("like_for_like", pd.Series(index=out.index, dtype=object)).fillna("")
    return out


def _like_for_like_rows(sides, shared: list[int], scope: str, scoped: set, n_boot: int, seed: int) -> list[dict]:
    """The MAE over the chart types both people and a model answered (``shared``, named ``scope``), for each side
    that answered more; ``scoped`` holds the (label, scope) already made (people's rows are shared by models)."""
    rows = []
    for kind, observer, condition, label, df, value, unit, weight, units, why in sides:
        if set(df["chart_type"].astype(int)) == set(shared) or (label, scope) in scoped:
            continue
        scoped.add((label, scope))
        part = df[df["chart_type"].isin(shared)]
        res = mae(part, value=value, group=None, unit=unit, weight=weight, n_boot=n_boot, seed=seed)
        why = "; ".join(filter(None, [why, f"over chart {scope} only"]))
        (row,) = _mae_rows(kind, observer, condition, label, res, None, units, why)
        rows.append({**row, "chart_type": scope})
    return rows


def _published_mae_rows() -> list[dict[str, Any]]:
    """Jiang et al.'s (2025) published MAE of people and of each model, in ratio units."""
    rows = []
    for p in published(source="JiangEtAl2025", study="ratio-sampling study III", measure="MAE").itertuples():
        label = f"Jiang et al. 2025: {p.condition}"
        rows.append(
            {
                "kind": "published",
                "observer": label,
                "condition": "",
                "label": label,
                "chart_type": "all",
                "mae_ratio": p.value,
                "ci_low_ratio": np.nan,
                "ci_high_ratio": np.nan,
                "mae_pp": p.value * 100,
                "ci_low_pp": np.nan,
                "ci_high_pp": np.nan,
                "n_units": p.n,
                "unit": "participants" if p.condition == "humans" else "",
                "n_judgments": pd.NA,
                "resampled": "",
                "note": "",
            }
        )
    return rows


EFFECT_COLUMNS = [
    "effect",
    "test",
    "term",
    "statistic",
    "df1",
    "df2",
    "p_val",
    "effect_size",
    "effect_size_kind",
    "estimate",
    "ci_low",
    "ci_high",
    "n",
    "epsilon",
    "note",
]


def _effect_row(**kw) -> dict[str, Any]:
    row = dict.fromkeys(EFFECT_COLUMNS, np.nan)
    row.update(note="")
    row.update(kw)
    return row


def _chart_type_effect(trials, notes) -> list[dict[str, Any]]:
    """Repeated-measures ANOVA (GG) of participant × type mean log error, then Holm-adjusted paired t-tests."""
    effect = "chart type (humans)"
    if trials["chart_type"].nunique() < 2:
        why = "only one chart type has analysed trials: nothing to compare"
        notes.append(f"chart-type effect not computed: {why}")
        return [_effect_row(effect=effect, test=RM_TEST, term="chart_type", note=why)]
    a = rm_anova(trials, dv="log_error", within="chart_type", subject="participant_id").iloc[0]
    if a["note"]:
        notes.append(f"chart-type effect ({RM_TEST}): {a['note']}")
    rows = [
        _effect_row(
            effect=effect,
            test=RM_TEST,
            term="chart_type",
            statistic=a["f"],
            df1=a["ddof1"],
            df2=a["ddof2"],
            p_val=a["p_gg"],
            effect_size=a["ng2"],
            effect_size_kind="generalized_eta_sq",
            n=a["n"],
            epsilon=a["epsilon"],
            note=a["note"] or "per-participant mean log error per chart type; p Greenhouse–Geisser corrected",
        )
    ]
    if a["n"] < 2:  # the paired tests need the same two participants
        return rows
    for t in pairwise_within(trials, dv="log_error", within="chart_type", subject="participant_id").itertuples():
        rows.append(
            _effect_row(
                effect=effect,
                test=PAIR_TEST,
                term=f"type {t.a} - type {t.b}",
                statistic=t.t,
                df1=t.dof,
                p_val=t.p_holm,
                effect_size=t.hedges,
                effect_size_kind="hedges_g",
                estimate=t.estimate,
                n=t.n,
                note=t.note or "difference of mean log error; p Holm-adjusted",
            )
        )
    return rows


def _types_text(types) -> str:
    types = [int(t) for t in types]
    return f"type{'s' if len(types) > 1 else ''} {', '.join(map(str, types))}"


def _shared_types(people: pd.DataFrame, model: pd.DataFrame, label: str) -> tuple[list[int], str]:
    """The chart types both people and a model answered, and the types a like-for-like comparison of the two leaves
    out, with why ("" when it leaves none out)."""
    theirs, its = set(people["chart_type"].astype(int)), set(model["chart_type"].astype(int))
    left = []
    for types, why in ((theirs - its, f"{label} has no predictions for"), (its - theirs, "no person answered")):
        if types:
            left.append(f"{_types_text(sorted(types))} ({why} {'them' if len(types) > 1 else 'it'})")
    return sorted(theirs & its), "; ".join(left)


def _unit_mae(df: pd.DataFrame, unit: str, value: str, weight: str | None) -> pd.Series:
    """Each unit's MAE: the mean over chart types of its (weighted) MAE per type, so that a participant's 5 judgments
    per type and a run's 39 predictions per type weigh the types alike."""
    w = df[weight] if weight else pd.Series(1.0, index=df.index)
    per_type = df.assign(_wx=w * df[value], _w=w).groupby([unit, "chart_type"])[["_wx", "_w"]].sum().eval("_wx / _w")
    return per_type.groupby(level=0).mean()


def _unit_variance(df: pd.DataFrame, unit: str, value: str, weight: str | None) -> pd.Series:
    """The sampling variance of each unit's MAE (:func:`_unit_mae`) from its own rows' spread within chart type:
    per type, the variance of a weighted mean, :math:`\\frac{C}{C-1} \\sum_c w_c^2 (x_c - \\bar x_w)^2 / (\\sum_c
    w_c)^2` over its C rows (s²/C for a participant's C judgments; a run's rows are cells of n predictions), summed
    over the T types and divided by T². A type with one row shows no spread: it adds 0 (understating that unit's)."""
    w = df[weight] if weight else pd.Series(1.0, index=df.index)
    d = df.assign(_w=w, _wx=w * df[value])
    g = d.groupby([unit, "chart_type"])
    mean = (g["_wx"].sum() / g["_w"].sum()).rename("_m")
    d = d.join(mean, on=[unit, "chart_type"])
    d["_sq"] = (d["_w"] * (d[value] - d["_m"])) ** 2
    g = d.groupby([unit, "chart_type"])
    rows = g.size()
    per_type = (g["_sq"].sum() / g["_w"].sum() ** 2 * rows / (rows - 1).clip(lower=1)).where(rows > 1, 0.0)
    return per_type.groupby(level=0).sum() / per_type.groupby(level=0).size() ** 2


def _observer_row(label, people: pd.Series, runs: pd.Series) -> dict[str, Any]:
    """Model − humans in MAE (pp) with participants and runs as units (see the module docstring)."""
    kw = dict(effect="observer", term=f"{label} - {HUMANS}")
    units = f"{len(runs)} run(s) vs {len(people)} participant(s), each its mean over chart types of MAE per type"
    if len(people) < 2:
        return _effect_row(**kw, test="Welch t-test", note=f"not computed: needs two or more participants ({units})")
    if len(runs) == 1:
        test = "one-sample t-test vs the run"
        if people.std(ddof=1) == 0:
            return _effect_row(**kw, test=test, note=f"not computed: every participant's MAE is the same ({units})")
        t = one_sample_t(people, mu=float(runs.iloc[0])).iloc[0]
        # flip to model − humans
        t = t.copy()
        t["t"], t["estimate"], t["cohen_d"] = -t["t"], float(runs.iloc[0]) - t["estimate"], -t["cohen_d"]
        t["ci_low"], t["ci_high"] = float(runs.iloc[0]) - t["ci_high"], float(runs.iloc[0]) - t["ci_low"]
        note = f"one run: its MAE taken as fixed (run-to-run spread unknown); {units}"
    else:
        test = "Welch t-test"
        if people.std(ddof=1) == 0 and runs.std(ddof=1) == 0:
            return _effect_row(**kw, test=test, note=f"not computed: every unit's MAE is the same ({units})")
        with warnings.catch_warnings():  # runs with one constant error are a valid (if extreme) sample
            warnings.filterwarnings("ignore", message="Precision loss occurred", category=RuntimeWarning)
            t = two_sample_t(runs, people, welch=True).iloc[0]
        note = units
        if len(runs) < SMALL_SAMPLE:
            note += (
                f"; fewer than {SMALL_SAMPLE} runs: the test over runs rejects a true null more often than 5 % "
                f"(make validate's type-I table): read the {RANDOM_EFFECTS_TEST} row"
            )
    return _effect_row(
        **kw,
        test=test,
        statistic=t["t"],
        df1=t["dof"],
        p_val=t["p_val"],
        effect_size=t["cohen_d"],
        effect_size_kind="cohen_d",
        estimate=t["estimate"],
        ci_low=t["ci_low"],
        ci_high=t["ci_high"],
        n=len(people) + len(runs),
        note=note,
    )


def _observer_random_effects_row(
    label, people: pd.Series, v_people: pd.Series, runs: pd.Series, v_runs: pd.Series
) -> dict[str, Any]:
    """Model − humans in MAE (pp) by the random-effects test of unit means, whose size holds below SMALL_SAMPLE runs
    (make validate's table) whether runs answer as many trials as a participant or all test stimuli."""
    res = random_effects_test(runs, v_runs.loc[runs.index], people, v_people.loc[people.index]).iloc[0]
    return _effect_row(
        effect="observer",
        test=RANDOM_EFFECTS_TEST,
        term=f"{label} - {HUMANS}",
        statistic=res["t"],
        df1=res["dof"],
        p_val=res["p_val"],
        estimate=res["estimate"],
        n=len(people) + len(runs),
        note=(
            f"{len(runs)} run(s) vs {len(people)} participant(s); SE² = (τ̂² + mean run sampling variance)/runs + "
            f"participants' variance/participants, τ̂² = {res['tau2']:.3g} from participants; p from "
            f"{res['draws']:,} bootstrap-t draws of participants and pseudo-runs (participants rescaled to a run's "
            f"variance); the t distribution's p would be {p_value(res['p_t'])}"
        ),
    )


def _effects(trials, run_parts, observers, notes) -> pd.DataFrame:
    rows = _chart_type_effect(trials, notes)
    for o in observers.itertuples(index=False):
        cells = run_parts[(o.observer, o.condition)]
        # like for like: both sides averaged over the chart types both answered
        shared, left_out = _shared_types(trials, cells, o.label)
        human_rows = trials[trials["chart_type"].isin(shared)]
        run_rows = cells[cells["chart_type"].isin(shared)]
        people = _unit_mae(human_rows, "participant_id", "abs_error", None)
        runs = _unit_mae(run_rows, "run", "mean_abs_error", "n")
        if shared:
            row = _observer_row(o.label, people, runs)
        else:
            row = _effect_row(
                effect="observer",
                term=f"{o.label} - {HUMANS}",
                test="Welch t-test",
                note="not computed: no chart type both answered",
            )
        if left_out:
            row["note"] += f"; compared over chart {_types_text(shared)}, the ones both answered; left out: {left_out}"
        if row["note"].startswith("not computed") or "fewer than" in row["note"] or left_out:
            notes.append(f"observer effect of {o.label}: {row['note']}")
        rows.append(row)
        if 2 <= len(runs) < SMALL_SAMPLE and len(people) >= 2:
            v_people = _unit_variance(human_rows, "participant_id", "abs_error", None)
            v_runs = _unit_variance(run_rows, "run", "mean_abs_error", "n")
            rows.append(_observer_random_effects_row(o.label, people, v_people, runs, v_runs))
    out = pd.DataFrame(rows, columns=EFFECT_COLUMNS)
    for c in ("df1", "df2", "epsilon"):
        out[c] = out[c].astype(float)
    out["n"] = pd.array([None if pd.isna(v) else int(v) for v in out["n"]], dtype="Int64")
    return out


CONSISTENCY_COLUMNS = ["kind", "observer", "a", "b", "r", "ci_low", "ci_high", "p_val", "n", "note"]


_PAIR_KEY = "short_height, tall_height"


def _consistency(human_cells, obs_parts, run_parts, observers, notes) -> pd.DataFrame:
    rows = [
        _inter_row(human_cells, obs_parts[(o.observer, o.condition)], o.label, notes)
        for o in observers.itertuples(index=False)
    ]
    for o in observers.itertuples(index=False):
        if o.n_runs >= 2:
            rows += _intra_rows(run_parts[(o.observer, o.condition)], o.label, notes)
    out = pd.DataFrame(rows, columns=CONSISTENCY_COLUMNS)
    for c in ("r", "ci_low", "ci_high", "p_val"):
        out[c] = out[c].astype(float)
    out["n"] = pd.array([None if pd.isna(v) else int(v) for v in out["n"]], dtype="Int64")
    return out


def _inter_row(human_cells: pd.DataFrame, cells: pd.DataFrame, label: str, notes: list[str]) -> dict[str, Any]:
    """Humans vs one model: Pearson r of MAE per height pair over the cells both have."""
    # like with like: each height pair averaged over the chart types both observers have for it
    shared = human_cells[CELL].merge(cells[CELL], on=CELL)
    row = {
        "kind": "inter",
        "observer": label,
        "a": HUMANS,
        "b": label,
        "note": f"mean absolute error per height pair ({_PAIR_KEY}) over the {len(shared)} (chart type, height pair) "
        f"cells both have (humans {len(human_cells)}, model {len(cells)})",
    }
    try:
        res = inter_consistency(
            human_cells.merge(shared, on=CELL), cells.merge(shared, on=CELL), key=PAIR, value="mean_abs_error"
        ).iloc[0]
        row.update({c: res[c] for c in ("r", "ci_low", "ci_high", "p_val", "n")})
        if res["n"] <= 3:
            row["note"] += f"; {fisher_z_note(int(res['n']))}"
            notes.append(f"inter-consistency humans vs {label}: {fisher_z_note(int(res['n']))}")
    except ValueError as exc:
        row["note"] = f"not computed: {exc}"
        notes.append(f"inter-consistency humans vs {label} not computed: {exc}")
    return row


def _intra_rows(runs: pd.DataFrame, label: str, notes: list[str]) -> list[dict[str, Any]]:
    """Between the runs of one model: Pearson r of MAE per height pair for each pair of runs."""
    rows = []
    try:
        res = intra_consistency(runs, by="run", key=PAIR, value="mean_abs_error")
        for r in res.itertuples(index=False):
            small = f"; {fisher_z_note(int(r.n))}" if r.n <= 3 else ""
            rows.append(
                {
                    "kind": "intra",
                    "observer": label,
                    "a": f"run {r.a}",
                    "b": f"run {r.b}",
                    "r": r.r,
                    "ci_low": r.ci_low,
                    "ci_high": r.ci_high,
                    "p_val": r.p_val,
                    "n": r.n,
                    "note": f"mean absolute error per height pair ({_PAIR_KEY}){small}",
                }
            )
        if (res["n"] <= 3).any():
            notes.append(f"intra-consistency of {label}'s runs: {fisher_z_note(int(res['n'].min()))}")
    except ValueError as exc:
        notes.append(f"intra-consistency of {label}'s runs not computed: {exc}")
        rows.append({"kind": "intra", "observer": label, "a": "runs", "b": "runs", "note": f"not computed: {exc}"})
    return rows


def ratio_report(
    sessions: pd.DataFrame,
    trials: pd.DataFrame,
    model_cells: pd.DataFrame | None = None,
    model_stimuli: pd.DataFrame | None = None,
    *,
    mlae_estimator: str = "pooled",
    exclude_outliers: bool = True,
    n_boot: int = 10_000,
    seed: int = 0,
    k: float = 3.0,
    notes: list[str] | None = None,
    meta: dict[str, Any] | None = None,
) -> RatioReport:
    """Build the Study III report of a ratio-estimation study; ValueError if no completed participant has test trials.

    Parameters
    ----------
    sessions : pandas.DataFrame
        One row per session: ``participant_id``, ``status`` (``started``, ``completed``, ``excluded``).
    trials : pandas.DataFrame
        The tidy trials of ``server.results.export.trial_rows`` (practice is dropped here): ``participant_id``,
        ``practice``, ``stimulus_id``, ``chart_type``, ``short_height``, ``tall_height``, ``true_percent``,
        ``abs_error`` (percentage points), ``log_error``.
    model_cells, model_stimuli : pandas.DataFrame, optional
        Models' errors per (observer, condition, run, chart type, height pair), :data:`MODEL_CELL_COLUMNS`, and per
        test stimulus, :data:`MODEL_STIMULUS_COLUMNS` (percent units, log errors in log2 units; test stimuli only).
        The latter is needed by ``mlae_estimator="pooled"`` and for a single-run model's intervals (else they
        resample height-pair cells, and a note says so).
    mlae_estimator : {"pooled", "participant"}, default "pooled"
        The MLAE estimator of every row (:data:`analysis.mlae.ESTIMATORS`); pooled is the published rows' own.
    exclude_outliers : bool, default True
        Drop the k×IQR outliers (``k``, default 3) from the analysis; they are reported either way.
    n_boot, seed : bootstrap resamples and seed of every interval.
    notes : list of str, optional
        What the caller already degraded (e.g. the estimator it fell back to), first in the report's notes.
    meta : dict, optional
        Extra items for ``report.meta`` (e.g. the study's slug and title).
    """
    check_choice(mlae_estimator, ESTIMATORS, "mlae_estimator", where="ratio_report")
    notes = list(notes or [])
    participants, used, rule_applied = _analysed(sessions, trials, exclude_outliers, k, notes)
    models = _ModelInputs.of(model_cells, model_stimuli)
    human_cells = _human_cells(used)
    by_distance, distance_runs, distance_r = _distance_tables(model_cells, models.label_of, notes)
    tables = {
        "participants": participants,
        **_statistics(used, human_cells, models, mlae_estimator, n_boot, seed, notes),
        "distance": by_distance,
        "distance_runs": distance_runs,
    }
    options = {"mlae_estimator": mlae_estimator, "exclude_outliers": bool(exclude_outliers), "n_boot": int(n_boot)}
    options.update(seed=int(seed), iqr_k=float(k), ci=95)
    meta_out = {**(meta or {}), **_meta(participants, len(used), models.observers, rule_applied, options)}
    meta_out.update(distance_correlation=distance_r, estimator=ESTIMATORS[mlae_estimator], units=UNITS, notes=notes)
    return RatioReport(meta=meta_out, tables=tables, cells=_figure_cells(human_cells, models))


#: What ``meta["units"]`` says each error is measured in.
UNITS = {
    "mlae": "log2(|judged - true| + 1/8) with judged and true in percent",
    "mae_pp": "percentage points (percent units)",
    "mae_ratio": "ratio units (percent / 100)",
}


def _analysed(sessions: pd.DataFrame, trials: pd.DataFrame, exclude_outliers: bool, k: float, notes: list[str]):
    """:func:`_participants` on the trials with their design columns numeric, and the analysed trials typed."""
    trials = trials.copy()
    for c in ("chart_type", "short_height", "tall_height"):
        trials[c] = pd.to_numeric(trials[c], errors="coerce")
    participants, used, rule_applied = _participants(sessions, trials, exclude_outliers, k, notes)
    for c in ("chart_type", "short_height", "tall_height"):
        used[c] = used[c].astype("int64")
    for c in ("true_percent", "abs_error", "log_error"):
        used[c] = used[c].astype(float)
    return participants, used, rule_applied


@dataclass
class _ModelInputs:
    """The models' errors: per run and cell (``run_cells``), pooled over runs (``obs_cells``), one row per observer
    (``observers``: runs, predictions, label) and each of these split by observer."""

    run_cells: pd.DataFrame
    obs_cells: pd.DataFrame
    observers: pd.DataFrame
    label_of: dict[tuple[str, str], str]
    run_parts: dict[tuple[str, str], pd.DataFrame]
    obs_parts: dict[tuple[str, str], pd.DataFrame]
    stim_parts: dict[tuple[str, str], pd.DataFrame]

    @classmethod
    def of(cls, model_cells: pd.DataFrame | None, model_stimuli: pd.DataFrame | None) -> _ModelInputs:
        run_cells = _model_table(model_cells, MODEL_CELL_COLUMNS, "model_cells")
        obs_cells = _pool_runs(run_cells) if len(run_cells) else run_cells.assign(n_runs=pd.Series(dtype="int64"))
        observers = (
            run_cells.groupby(["observer", "condition"], sort=True)
            .agg(n_runs=("run", "nunique"), n_predictions=("n", "sum"))
            .reset_index()
        )
        labels = [_label(o, c) for o, c in zip(observers["observer"], observers["condition"])]
        observers["label"] = [f"{lab} (model)" if lab == HUMANS else lab for lab in labels]
        label_of = {(o, c): lab for o, c, lab in zip(observers["observer"], observers["condition"], observers["label"])}
        stimuli = _model_table(model_stimuli, MODEL_STIMULUS_COLUMNS, "model_stimuli")
        return cls(run_cells, obs_cells, observers, label_of, _split(run_cells), _split(obs_cells), _split(stimuli))


def _statistics(used, human_cells, models: _ModelInputs, estimator, n_boot, seed, notes) -> dict[str, pd.DataFrame]:
    """The tables ``mlae``, ``mae``, ``effects`` and ``consistency``, in that order (their notes too)."""
    run_parts, stim_parts, observers = models.run_parts, models.stim_parts, models.observers
    return {
        "mlae": _mlae_table(used, run_parts, stim_parts, observers, estimator, n_boot, seed, notes),
        "mae": _mae_table(used, run_parts, stim_parts, observers, n_boot, seed, notes),
        "effects": _effects(used, run_parts, observers, notes),
        "consistency": _consistency(human_cells, models.obs_parts, run_parts, observers, notes),
    }


def _meta(participants, trials_used: int, observers, rule_applied: bool, options: dict[str, Any]) -> dict[str, Any]:
    """``counts``, ``options`` and ``observers`` of the report's meta."""
    status = participants["status"]
    n_outliers = int(participants["outlier"].sum())
    counts = {
        "recruited": len(participants),
        "completed": int((status == "completed").sum()),
        "not_completed": int((~status.isin(["completed", "excluded"])).sum()),
        "session_excluded": int((status == "excluded").sum()),
        "outliers": n_outliers,
        "outlier_rule_applied": rule_applied,
        "outliers_excluded": n_outliers if options["exclude_outliers"] else 0,
        "analysed": int(participants["analysed"].sum()),
        "trials_used": trials_used,
        "model_observers": len(observers),
        "model_runs": int(observers["n_runs"].sum()) if len(observers) else 0,
        "model_predictions": int(observers["n_predictions"].sum()) if len(observers) else 0,
    }
    return {"counts": counts, "options": options, "observers": observers.to_dict("records")}


def _figure_cells(human_cells: pd.DataFrame, models: _ModelInputs) -> dict[str, pd.DataFrame]:
    """What the figures draw: mean errors per (chart type, height pair) of people and of each model, and per height
    pair (``pairs``: people; ``model_pairs``: each model)."""
    obs_cells = models.obs_cells
    pairs = human_cells.groupby(PAIR)[["true_percent", "mean_abs_error", "mean_log_error"]].mean()
    pairs = pairs.rename(columns={"mean_abs_error": f"{HUMANS}_abs_error", "mean_log_error": f"{HUMANS}_log_error"})
    model_pairs = (
        obs_cells.assign(label=[models.label_of[(o, c)] for o, c in zip(obs_cells["observer"], obs_cells["condition"])])
        if len(obs_cells)
        else obs_cells.assign(label=pd.Series(dtype=object))
    )
    model_pairs = (
        model_pairs.groupby(["label", *PAIR], sort=True)[["true_percent", "mean_abs_error", "mean_log_error"]]
        .mean()
        .reset_index()
    )
    return {"human": human_cells, "model": obs_cells, "pairs": pairs.reset_index(), "model_pairs": model_pairs}


# --------------------------------------------------------------------------------------------------
# Rendering

#: Models listed on a screen (``flask analyze``'s text); report.md, the CSV and the JSON have them all.
SCREEN_MODELS = 12


def _why(note: str) -> str:
    """Short reason a correlation is missing, for the text table (the full message is in the notes)."""
    return f"{MISSING} (constant errors)" if "constant" in note else f"{MISSING} (see notes)"


def model_order(report: RatioReport) -> list[str]:
    """Model labels, best (lowest overall MAE) first."""
    mae_t = report.tables["mae"]
    m = mae_t[(mae_t["kind"] == "model") & (mae_t["chart_type"] == "all")].sort_values(["mae_pp", "label"])
    return m["label"].tolist()


@dataclass(frozen=True)
class _Shown:
    """The models a document lists (``names``, best first) and the line that says where the others are."""

    names: list[str]
    more: list[Paragraph]


def _shown(report: RatioReport, max_models: int | None) -> tuple[list[str], _Shown]:
    models = model_order(report)
    names = models if max_models is None else models[:max_models]
    more = len(models) - len(names)
    return models, _Shown(
        names, [Paragraph(f"… {more} more model(s) in report.md and the CSV/JSON tables")] if more else []
    )


def _flags(flagged: list[str]) -> list[Items]:
    return [Items(flagged)] if flagged else []


def _document(report: RatioReport, max_models: int | None) -> Document:
    meta, t = report.meta, report.tables
    models, shown = _shown(report, max_models)
    doc = Document(f"{meta.get('slug', 'study')} — {meta.get('title', '')}".rstrip(" —"), [_lead(meta)])
    doc.sections += [
        _participants_section(report),
        _mlae_section(report, shown),
        _mae_section(report, shown),
        _chart_type_section(t["effects"]),
    ]
    if models:
        doc.sections += [_observer_section(t["effects"], shown), _consistency_section(t["consistency"], shown)]
    if len(t["distance"]):
        doc.sections.append(_distance_section(report, shown))
    if meta["notes"]:
        doc.sections.append(Section("Notes", [Items(meta["notes"])]))
    return doc


def _lead(meta: dict[str, Any]) -> str:
    opt = meta["options"]
    return (
        f"task type {meta.get('task_type', 'ratio-estimation')}; bootstrap {opt['n_boot']} "
        f"resamples, seed {opt['seed']}, 95% percentile intervals; outliers "
        f"{'excluded' if opt['exclude_outliers'] else 'kept (--keep-outliers)'} (Q3 + 3×IQR of participants' mean "
        "absolute error: this product's reading of Study III's rule)"
    )


def _participants_section(report: RatioReport) -> Section:
    c, opt = report.meta["counts"], report.meta["options"]
    lines = [
        ["recruited (sessions)", str(c["recruited"]), ""],
        ["completed", str(c["completed"]), ""],
        ["not completed", str(c["not_completed"]), "not analysed"],
    ]
    if c["session_excluded"]:
        lines.append(["session marked excluded", str(c["session_excluded"]), "not analysed"])
    lines.append(
        [
            "outliers (Q3 + 3×IQR)",
            str(c["outliers"]),
            "mean absolute error over test trials; " + ("excluded" if opt["exclude_outliers"] else "kept"),
        ]
        if c["outlier_rule_applied"]
        else [
            "outliers (Q3 + 3×IQR)",
            MISSING,
            "rule not applied: the IQR of participants' mean errors is 0, so it cannot separate anyone",
        ]
    )
    lines.append(["analysed", str(c["analysed"]), f"{c['trials_used']} test trials used (practice never counts)"])
    section = Section("Participants", [Table(["", "n", "note"], lines, "lrl")])
    p = report.tables["participants"]
    outliers = [f"participant {r.participant_id}: {r.reason}" for r in p[p["outlier"]].itertuples(index=False)]
    if outliers:
        section.blocks.append(Items(outliers))
    if c["model_observers"]:
        section.blocks.append(
            Paragraph(
                f"models: {c['model_observers']} observer(s), {c['model_runs']} run(s), "
                f"{c['model_predictions']} predictions on test stimuli"
            )
        )
    return section


def _mlae_section(report: RatioReport, shown: _Shown) -> Section:
    meta, ml = report.meta, report.tables["mlae"]
    est = meta["options"]["mlae_estimator"]
    rows, flagged = [], []
    for label in [HUMANS, *shown.names, *PUBLISHED_LABELS.values()]:
        sub = ml[ml["label"] == label].set_index("chart_type")
        if not sub.empty:
            rows.append(_mlae_row(meta, label, sub, flagged))
    section = Section(
        "MLAE by chart type",
        [
            Paragraph(f"estimator: {est} (--mlae); log2(|judged − true| + 1/8), percent units; MLAE [95% CI]"),
            Paragraph(
                f"{est}: {meta['estimator']}. Models: the same, with runs for participants (a single run's "
                "interval resamples its test stimuli)."
            ),
            Table(["observer", "n", *[f"type {ct}" for ct in CHART_TYPES]], rows, "lr" + "r" * 5),
            *shown.more,
            *_flags(flagged),
        ],
    )
    differs = ml.loc[(ml["kind"] == "published") & (ml["note"] != ""), "note"]
    if len(differs):
        section.blocks.append(Paragraph(f"note: the published rows are {differs.iloc[0]}."))
    return section


def _mlae_row(meta: dict[str, Any], label: str, sub: pd.DataFrame, flagged: list[str]) -> list[str]:
    """One observer's MLAE per chart type (``sub``, indexed by chart type); what needs a footnote goes to
    ``flagged``."""
    first = sub.iloc[0]
    if first["kind"] == "published":
        est = meta["options"]["mlae_estimator"]
        n = f"{first['estimator']} estimator" + ("" if first["estimator"] == est else " (differs)")
    elif first["kind"] == "human":
        n = f"{int(first['n_units'])} people"
    else:
        n_runs = meta_runs(meta, label)
        n = f"{n_runs} run{'s' if n_runs > 1 else ''}"
    if first["note"] and first["kind"] != "published":
        n += " †"
        flagged.append(f"† {label}: {first['note']}")
    absent = [ct for ct in CHART_TYPES if ct not in sub.index]
    if absent and first["kind"] != "published":
        why = "no person answered" if first["kind"] == "human" else "no predictions for"
        flagged.append(f"{MISSING} {label}: {why} chart {_types_text(absent)}")
    return [label, n] + [
        with_interval(*sub.loc[ct, ["mlae", "ci_low", "ci_high"]].tolist()) if ct in sub.index else MISSING
        for ct in CHART_TYPES
    ]


def _mae_section(report: RatioReport, shown: _Shown) -> Section:
    ma = report.tables["mae"]
    # "all" rows, and the like-for-like rows over the chart types a model and people both answered ("types 1, 2")
    ma = ma[(ma["chart_type"] == "all") | ma["chart_type"].str.startswith("type")]
    rows, flagged = [], []
    for label in [HUMANS, *shown.names, *ma.loc[ma["kind"] == "published", "label"]]:
        sub = ma[ma["label"] == label]
        if sub.empty:
            continue
        lines = [sub[sub["chart_type"] == "all"]]
        if sub.iloc[0]["kind"] == "model":  # beside it: both sides over the types both answered
            for scope in sub["like_for_like"].loc[lambda x: x != ""]:
                lines += [ma[(ma["kind"] == "human") & (ma["chart_type"] == scope)], sub[sub["chart_type"] == scope]]
        for r in pd.concat(lines).drop_duplicates(["label", "chart_type"]).itertuples(index=False):
            name = r.label if r.chart_type == "all" else f"{r.label} ({r.chart_type})"
            if r.note:
                flagged.append(f"† {name}: {r.note}")
            rows.append(
                [
                    name + (" †" if r.note else ""),
                    with_interval(r.mae_ratio, r.ci_low_ratio, r.ci_high_ratio, 3),
                    with_interval(r.mae_pp, r.ci_low_pp, r.ci_high_pp, 2),
                    num(r.n_judgments, 0),
                ]
            )
    return Section(
        "Mean absolute error",
        [
            Paragraph("all chart types; mean [95% CI]"),
            Table(["observer", "ratio units (0–1)", "percentage points", "judgments"], rows, "lrrr"),
            *shown.more,
            *_flags(flagged),
        ],
    )


def _chart_type_section(e: pd.DataFrame) -> Section:
    section = Section(
        "Chart-type effect (humans)",
        [
            Paragraph(
                f"{RM_TEST} (pingouin rm_anova) of each participant's mean log error per type; post hoc: "
                f"{PAIR_TEST} (pingouin pairwise_tests), within participants"
            )
        ],
    )
    a = e[e["test"] == RM_TEST].iloc[0]
    if math.isfinite(a["statistic"]):
        section.blocks.append(
            Paragraph(
                f"F({int(a['df1'])}, {int(a['df2'])}) = {num(a['statistic'], 2)}, ε = {num(a['epsilon'], 3)}, "
                f"{p_value(a['p_val'], prefix=True)} (Greenhouse–Geisser), generalized η² = "
                f"{num(a['effect_size'], 3)}  (n = {int(a['n'])} participants with every type)"
            )
        )
        if "dropped" in a["note"]:
            section.blocks.append(Paragraph(a["note"]))
    else:
        section.blocks.append(Paragraph(f"F not computed: {a['note']}"))
    pw = e[e["test"] == PAIR_TEST]
    if len(pw):
        rows = [
            [r.term, num(r.estimate, 3), num(r.statistic, 2), num(r.df1, 0), p_value(r.p_val), num(r.effect_size, 2)]
            for r in pw.itertuples(index=False)
        ]
        section.blocks.append(Table([PAIR_TEST, "diff", "t", "df", "p (Holm)", "g"], rows, "lrrrrr"))
        undefined = pw.loc[~np.isfinite(pw["statistic"].astype(float)), "note"]
        if len(undefined):
            section.blocks.append(Paragraph(f"t not computed for {len(undefined)} pair(s): {undefined.iloc[0]}"))
    return section


#: Observer-effect notes a reader must see beside the row: what starts with the first words or contains the others.
_OBSERVER_FLAGS = (("not computed", "one run"), ("fewer than", "left out:"))


def _observer_section(e: pd.DataFrame, shown: _Shown) -> Section:
    ob = e[e["effect"] == "observer"].set_index("term")
    rows, flagged = [], []
    for label in shown.names:
        # one row per test: Welch's (or the one-sample test), then the random-effects test when 2–9 runs
        for _, r in ob.loc[[f"{label} - {HUMANS}"]].iterrows():
            note = r["note"]
            starts, contains = _OBSERVER_FLAGS
            if any(note.startswith(w) for w in starts) or any(w in note for w in contains):
                flagged.append(f"† {label}: {note}")
            rows.append(
                [
                    label + (" †" if flagged and flagged[-1] == f"† {label}: {note}" else ""),
                    r["test"],
                    with_interval(r["estimate"], r["ci_low"], r["ci_high"], 2),
                    num(r["statistic"], 2),
                    num(r["df1"], 1),
                    p_value(r["p_val"]),
                    num(r["effect_size"], 2),
                ]
            )
    return Section(
        "Observer effect",
        [
            Paragraph(
                "mean absolute error (pp), model − humans, with participants and runs as units: each unit's "
                "mean over chart types of its MAE per type; Welch t-test of runs vs participants (one run: "
                "one-sample t-test of participants against it); with 2 to 9 runs, where Welch's test is "
                f"liberal, also the {RANDOM_EFFECTS_TEST} (runs as units like participants that averaged more "
                "predictions)"
            ),
            Table(["model", "test", "diff [95% CI]", "t", "df", "p", "d"], rows, "llrrrrr"),
            *shown.more,
            *_flags(flagged),
        ],
    )


def _consistency_section(cs: pd.DataFrame, shown: _Shown) -> Section:
    inter = cs[cs["kind"] == "inter"].set_index("observer")
    intra = cs[cs["kind"] == "intra"]
    rows = []
    for label in shown.names:
        r = inter.loc[label]
        inter_txt = with_interval(r["r"], r["ci_low"], r["ci_high"], 3) if math.isfinite(r["r"]) else _why(r["note"])
        rows.append(
            [label, inter_txt, p_value(r["p_val"]), num(r["n"], 0), _intra_text(intra[intra["observer"] == label])]
        )
    return Section(
        "Consistency",
        [
            Paragraph(
                "Pearson r of mean absolute error per height pair (short, tall), over the (chart type, "
                "height pair) cells both observers have"
            ),
            Table(["model", "r with humans [95% CI]", "p", "pairs", "between its runs: mean r"], rows, "lrrrl"),
            *shown.more,
        ],
    )


def _intra_text(runs: pd.DataFrame) -> str:
    """The consistency between one model's runs: mean r (min, number of run pairs), or why there is none."""
    if runs.empty:
        return f"{MISSING} (one run)"
    if runs["r"].isna().all():
        return _why(runs["note"].iloc[0])
    pairs = runs["r"].notna().sum()
    return f"{num(runs['r'].mean(), 3)} (min {num(runs['r'].min(), 3)}, {pairs} run pair{'s' if pairs > 1 else ''})"


def _distance_section(report: RatioReport, shown: _Shown) -> Section:
    by_bin, r = report.tables["distance"], report.meta["distance_correlation"]
    bins = by_bin[["distance_bin", "low"]].drop_duplicates().sort_values("low")["distance_bin"].tolist()
    rows = []
    for label in [label for label in shown.names if label in set(by_bin["label"])]:
        sub = by_bin[by_bin["label"] == label].set_index("distance_bin")
        rows.append(
            [label]
            + [
                f"{num(sub.loc[b, 'mae_ratio'], 3)} ({int(sub.loc[b, 'n_cells'])})" if b in sub.index else MISSING
                for b in bins
            ]
        )
    blocks = [
        Paragraph(
            "MAE (ratio units) of the test stimuli by their distance to the nearest ratio the run's training bins "
            "can draw (the seed paper's training–test distance, §7.1), with the number of (chart type, height "
            "pair) cells; runs that say what they were trained on only"
        ),
        Table(["model", *bins], rows, "l" + "r" * len(bins)),
        *shown.more,
    ]
    if r is not None:
        blocks.append(
            Paragraph(
                f"across runs (Figure 14 of the seed paper, distance_error.png): Pearson r of MAE with the run's "
                f"training–test distance = {with_interval(r['r'], r['ci_low'], r['ci_high'], 3)}, "
                f"{p_value(r['p_val'], prefix=True)}, n = {int(r['n'])} runs"
            )
        )
    return Section("Error against training–test distance", blocks)


def meta_runs(meta: dict[str, Any], label: str) -> int:
    for o in meta["observers"]:
        if o["label"] == label:
            return int(o["n_runs"])
    return 0


def _methods(report: RatioReport) -> str:
    """``methods.md`` of a ratio-estimation report: what was computed, in words ready for a Methods section."""
    meta, c, opt = report.meta, report.meta["counts"], report.meta["options"]
    est = opt["mlae_estimator"]
    refs = ["cleveland1984", "efron1993", "tukey1977", "jiang2025"] + (
        ["heer2010"] if est == "pooled" else ["haehn2018"]
    )
    paragraphs = [
        _participants_paragraph(c, opt),
        f"**Accuracy.** Each judgment's error is log2(|judged − true| + 1/8), judged and true in percent "
        f"(Cleveland & McGill 1984). MLAE per chart type uses the {est} estimator: {ESTIMATORS[est]}. Mean absolute "
        "error (MAE) is the mean of all judgments, in percentage points and ratio units.",
        _intervals_paragraph(c, opt),
        f"**Tests.** Chart-type effect: {RM_TEST} correction (Greenhouse & Geisser 1959) of each participant's mean "
        "log error per chart type, generalized η²; participants without every type are left out (listwise); post "
        "hoc paired t-tests with Holm's (1979) correction. All tests two-sided, α = 0.05.",
    ]
    refs += ["greenhouse1959", "holm1979"]
    if c["model_observers"]:
        few_runs = bool((report.tables["effects"]["test"] == RANDOM_EFFECTS_TEST).any())
        refs += ["fisher1921", "dersimonian1986", "satterthwaite1946"] if few_runs else ["fisher1921"]
        paragraphs.append(_models_paragraph(c, few_runs))
    if len(report.tables["distance_runs"]):
        paragraphs.append(
            f"**Training–test distance.** For the {len(report.tables['distance_runs'])} run(s) whose imported files "
            "record their training bins, each test stimulus's distance is that from its ratio to the nearest ratio "
            'those bins can draw (Jiang et al.\'s distance "from each test sample to its closest training sample", '
            "§7.1); a run's distance is the mean over its predictions. MAE is tabulated by distance bin, and "
            "Pearson's r of runs' MAE with their distance (Fisher-z 95 % interval) is that of the paper's Figure 14."
        )
    if meta["notes"]:
        paragraphs.append("**Degraded or skipped.** " + " ".join(f"{n.rstrip('.')}." for n in meta["notes"]))
    return methods_document(f"{meta.get('slug', 'study')} (ratio estimation)", paragraphs, refs)


def _participants_paragraph(c: dict[str, Any], opt: dict[str, Any]) -> str:
    rule = (
        f"Outliers: Jiang et al.'s Study III excluded participants \"whose errors exceeded three times the "
        f"interquartile range\"; this analysis reads that as a participant's mean absolute error above "
        f"Q3 + {opt['iqr_k']:g}×IQR of all participants' means (Tukey's far-out fence, upper side only)"
    )
    if c["outlier_rule_applied"]:
        excluded = f"{rule}: {c['outliers']} of {c['completed']} completed participants were above it and " + (
            "excluded" if opt["exclude_outliers"] else "kept (--keep-outliers)"
        )
    else:
        excluded = (
            f"{rule}. Here the IQR of the {c['completed']} participants' means is 0, so the fence cannot separate "
            "anyone: the rule was not applied and nobody was excluded by it"
        )
    return (
        f"**Participants.** {c['recruited']} sessions were recruited and {c['completed']} completed; sessions that "
        f"did not complete were not analysed"
        f"{', nor ' + str(c['session_excluded']) + ' excluded by the researcher' if c['session_excluded'] else ''}. "
        f"{excluded}. {c['analysed']} participants with {c['trials_used']} test trials were analysed; practice "
        "trials never count."
    )


def _intervals_paragraph(c: dict[str, Any], opt: dict[str, Any]) -> str:
    return (
        "**Intervals.** 95 % percentile bootstrap intervals (Efron & Tibshirani 1993) with "
        f"{opt['n_boot']:,} resamples (seed {opt['seed']}); participants are resampled with replacement, keeping "
        "each participant's judgments together across chart types"
        + (
            "; with a single participant there is nobody to resample, so the interval resamples that participant's "
            "judgments within each chart type and describes that person on these stimuli, not people in general."
            if c["analysed"] == 1
            else "."
        )
        + f" Intervals over fewer than {SMALL_SAMPLE} participants or runs are flagged with the coverage that "
        "`make validate` measured at that number of units (analysis/data/bootstrap_coverage.csv)."
    )


def _models_paragraph(c: dict[str, Any], few_runs: bool) -> str:
    return (
        f"**Models.** {c['model_observers']} model observer(s), {c['model_runs']} run(s), "
        f"{c['model_predictions']:,} predictions on the test stimuli people saw. Each model's MLAE and MAE use "
        "the same estimators with its runs in the participants' place (intervals resample runs; a single run's "
        "resample its test stimuli). Observer effect, with participants and runs as the units: each unit's MAE "
        "(mean over chart types of its MAE per type), Welch's t-test of runs against participants, model − "
        "humans, two-sided (a model with one run: one-sample t-test of participants against the run's MAE). "
        + (
            f"For models with 2 to {SMALL_SAMPLE - 1} runs, where Welch's test rejects a true null too often, "
            "also the random-effects test of unit means: runs are units of the same kind as participants that "
            "averaged more predictions, each unit's MAE its true level (between-unit variance τ², by the method "
            "of moments from participants, floored at 0; DerSimonian & Laird 1986) plus its sampling error (its "
            "own variance, from its errors' spread within chart type); d = mean(runs) − mean(participants), "
            "SE² = (τ̂² + the runs' mean sampling variance)/runs + participants' variance/participants, t = d/SE "
            "with Satterthwaite's (1946) df; p from a bootstrap-t (Efron & Tibshirani 1993) of "
            f"{RANDOM_EFFECTS_DRAWS:,} draws of participants and pseudo-runs (participants' deviations rescaled "
            "to a run's variance), since the mean of so few runs is far from normal. "
            if few_runs
            else ""
        )
        + "Human–model consistency: Pearson's r of the mean absolute error per height pair, each observer averaged "
        "over the (chart type, height pair) cells both have, two-sided t-test, Fisher-z 95 % interval (needs ≥ 4 "
        "pairs)."
    )


# --------------------------------------------------------------------------------------------------
# Figures (matplotlib, no pyplot: safe in a server process)
#
# * :func:`mlae_dot_plot` -- the classic Cleveland & McGill dot plot: MLAE per chart type with 95 % intervals for
#   people, every model and the published results.
# * :func:`error_by_ratio_plot` -- mean absolute error against the true ratio (per height pair).
# * :func:`human_model_scatter` -- each model's mean absolute error per height pair against people's, with r.
# * :func:`distance_error_plot` -- each run's MAE against its training–test distance, with r (the paper's Figure 14).

TYPE_NAMES = {1: "1 adjacent", 2: "2 aligned stacked", 3: "3 separated", 4: "4 unaligned stacked", 5: "5 divided"}
HUMAN_COLOR = "black"
PUBLISHED_STYLE = {"Cleveland & McGill 1984": ("#7f7f7f", "s"), "Heer & Bostock 2010": ("#bcbcbc", "D")}
MODEL_COLORS = [
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#17becf",
    "#8c564b",
    "#e377c2",
    "#bcbd22",
    "#393b79",
]
DPI = 120


def _models(report: RatioReport, max_models: int) -> list[str]:
    return model_order(report)[:max_models]


def _color(i: int) -> str:
    return MODEL_COLORS[i % len(MODEL_COLORS)]


def mlae_dot_plot(report: RatioReport, path: Path, max_models: int = 8) -> Path:
    """MLAE per chart type (rows) for every observer, with 95 % CIs; published values as grey squares/diamonds."""
    models = _models(report, max_models)
    series = [
        (HUMANS, HUMAN_COLOR, "o", True),
        *[(m, _color(i), "o", True) for i, m in enumerate(models)],
        *[(label, *PUBLISHED_STYLE[label], False) for label in PUBLISHED_LABELS.values()],
    ]
    ml = report.tables["mlae"]
    fig = Figure(figsize=(8, 1.2 + 0.9 * len(CHART_TYPES) + 0.12 * len(series)), dpi=DPI)
    ax = fig.add_subplot()
    k = len(series)
    offsets = np.linspace(-0.3, 0.3, k) if k > 1 else np.zeros(1)
    handles = []
    for (label, color, marker, filled), off in zip(series, offsets):
        xs, ys, lo, hi = _dots(ml[ml["label"] == label].set_index("chart_type"), off)
        if not xs:
            continue
        ax.errorbar(
            xs,
            ys,
            xerr=[lo, hi],
            fmt=marker,
            color=color,
            ecolor=color,
            capsize=2,
            markersize=6,
            markerfacecolor=color if filled else "white",
            linewidth=1.2,
        )
        handles.append(
            Line2D(
                [],
                [],
                color=color,
                marker=marker,
                linestyle="-",
                markerfacecolor=color if filled else "white",
                label=label,
            )
        )
    _mlae_axes(ax, report, models, handles)
    fig.text(
        0.01,
        0.005,
        "models: mean over height pairs of pooled log error (CI over pairs); "
        "humans: midmean per stimulus (CI over participants)",
        fontsize=7,
        color="#555555",
    )
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path)
    return path


def _dots(sub: pd.DataFrame, offset: float) -> tuple[list, list, list, list]:
    """One observer's MLAE per chart type (``sub``, indexed by chart type) as x, y (the type's row + ``offset``) and
    the interval's lower and upper arm (0 where the bound is missing)."""
    xs, ys, lo, hi = [], [], [], []
    for j, ct in enumerate(CHART_TYPES):
        if ct in sub.index:
            r = sub.loc[ct]
            ys.append(j + offset)
            xs.append(r["mlae"])
            lo.append(r["mlae"] - r["ci_low"] if math.isfinite(r["ci_low"]) else 0)
            hi.append(r["ci_high"] - r["mlae"] if math.isfinite(r["ci_high"]) else 0)
    return xs, ys, lo, hi


def _mlae_axes(ax, report: RatioReport, models: list[str], handles: list) -> None:
    """The MLAE dot plot's axes, title and legend."""
    ax.set_yticks(range(len(CHART_TYPES)), [f"type {TYPE_NAMES[ct]}" for ct in CHART_TYPES])
    ax.invert_yaxis()
    ax.set_xlabel("MLAE: log2(|judged − true| + 1/8), percent units  (lower is better)")
    ax.set_ylabel("bar-chart type")
    ax.grid(axis="x", color="#e5e5e5")
    ax.set_axisbelow(True)
    title = f"{report.meta.get('slug', '')}: MLAE by chart type, 95% CIs".lstrip(": ")
    more = len(model_order(report)) - len(models)
    if more > 0:
        title += f" (best {len(models)} models of {len(models) + more})"
    ax.set_title(title)
    ax.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(1.01, 1),
        fontsize=8,
        frameon=False,
        title="observer",
        title_fontsize=9,
    )


def error_by_ratio_plot(report: RatioReport, path: Path, max_models: int = 8) -> Path:
    """Mean absolute error (percentage points) per height pair against the true ratio, all chart types pooled."""
    models = _models(report, max_models)
    fig = Figure(figsize=(8, 4.8), dpi=DPI)
    ax = fig.add_subplot()
    hp = report.cells["pairs"]
    mp = report.cells["model_pairs"]
    series = [(HUMANS, HUMAN_COLOR, hp["true_percent"], hp[f"{HUMANS}_abs_error"])]
    for i, label in enumerate(models):
        sub = mp[mp["label"] == label]
        series.append((label, _color(i), sub["true_percent"], sub["mean_abs_error"]))
    for label, color, true_percent, error in series:
        ratio = true_percent.to_numpy(dtype=float) / 100
        err = error.to_numpy(dtype=float)
        ax.scatter(ratio, err, s=10, color=color, alpha=0.35, linewidths=0)
        bins = np.floor(ratio * 10)  # ratio bins 0.1 wide
        xs = [ratio[bins == b].mean() for b in np.unique(bins)]
        ys = [err[bins == b].mean() for b in np.unique(bins)]
        ax.plot(xs, ys, "o-", color=color, label=label, markersize=5, linewidth=1.5)
    ax.set_xlabel("true ratio (shorter / taller bar)")
    ax.set_ylabel("mean absolute error (percentage points)")
    ax.set_ylim(bottom=0)
    ax.grid(color="#e5e5e5")
    ax.set_axisbelow(True)
    ax.set_title(f"{report.meta.get('slug', '')}: error by true ratio".lstrip(": "))
    fig.text(
        0.01,
        0.005,
        "dots: height pairs (mean over chart types); lines: mean per 0.1-wide ratio bin",
        fontsize=7,
        color="#555555",
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False, title="observer", title_fontsize=9)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path)
    return path


def human_model_scatter(report: RatioReport, path: Path, max_models: int = 6) -> Path:
    """One panel per model: its mean absolute error per height pair (y) against people's (x), with Pearson r."""
    models = _models(report, max_models)
    n = max(len(models), 1)
    cols = min(n, 3)
    rows = math.ceil(n / cols)
    fig = Figure(figsize=(3.6 * cols + 0.6, 3.4 * rows + 0.6), dpi=DPI)
    hp = report.cells["pairs"].set_index(["short_height", "tall_height"])
    mp = report.cells["model_pairs"]
    inter = report.tables["consistency"]
    inter = inter[inter["kind"] == "inter"].set_index("observer")
    if not models:
        ax = fig.add_subplot()
        ax.text(0.5, 0.5, "no model predictions imported", ha="center", va="center")
        ax.set_axis_off()
    for i, label in enumerate(models):
        ax = fig.add_subplot(rows, cols, i + 1)
        sub = mp[mp["label"] == label].set_index(["short_height", "tall_height"])
        both = hp.join(sub[["mean_abs_error"]], how="inner")
        ax.scatter(both[f"{HUMANS}_abs_error"], both["mean_abs_error"], s=14, color=_color(i), alpha=0.8)
        r = inter.loc[label] if label in inter.index else None
        if r is not None and math.isfinite(r["r"]):
            txt = f"r = {with_interval(r['r'], r['ci_low'], r['ci_high'])}\nn = {int(r['n'])} height pairs"
        else:
            txt = "r not defined\n(constant errors or < 3 pairs)"
        ax.text(
            0.03,
            0.97,
            txt,
            transform=ax.transAxes,
            va="top",
            fontsize=8,
            bbox={"facecolor": "white", "edgecolor": "#cccccc", "boxstyle": "round,pad=0.3"},
        )
        ax.set_title(label, fontsize=9)
        ax.set_xlabel("humans: mean abs. error (pp)", fontsize=8)
        ax.set_ylabel("model: mean abs. error (pp)", fontsize=8)
        ax.tick_params(labelsize=8)
        ax.grid(color="#eeeeee")
        ax.set_axisbelow(True)
    title = f"{report.meta.get('slug', '')}: human vs model error per height pair (short, tall)".lstrip(": ")
    more = len(model_order(report)) - len(models)
    if more > 0:
        title += f", best {len(models)} of {len(models) + more} models"
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    return path


def distance_error_plot(report: RatioReport, path: Path) -> Path:
    """Like the seed paper's Figure 14: each run's MAE (y) against its training–test distance (x), one colour per
    model, with Pearson r across runs."""
    runs, r = report.tables["distance_runs"], report.meta["distance_correlation"]
    fig = Figure(figsize=(6.4, 4.4), dpi=DPI)
    ax = fig.add_subplot()
    for i, (label, sub) in enumerate(runs.groupby("label", sort=True)):
        ax.scatter(sub["distance"], sub["mae_ratio"], s=22, color=_color(i), alpha=0.85, label=label)
    if r is not None:
        ax.text(
            0.03,
            0.97,
            f"r = {with_interval(r['r'], r['ci_low'], r['ci_high'])}\nn = {int(r['n'])} runs",
            transform=ax.transAxes,
            va="top",
            fontsize=8,
            bbox={"facecolor": "white", "edgecolor": "#cccccc", "boxstyle": "round,pad=0.3"},
        )
    ax.set_xlabel("training–test distance (ratio units)", fontsize=9)
    ax.set_ylabel("MAE (ratio units)", fontsize=9)
    ax.grid(color="#eeeeee")
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False, title="model", title_fontsize=9)
    fig.suptitle(f"{report.meta.get('slug', '')}: model error against training–test distance".lstrip(": "), fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    return path


def write_figures(report: RatioReport, out_dir: Path) -> list[Path]:
    """Write mlae.png, error_by_ratio.png and human_vs_model.png into ``out_dir``, and distance_error.png when runs
    carry their training–test distance; return their paths."""
    out_dir = Path(out_dir)
    paths = [
        mlae_dot_plot(report, out_dir / "mlae.png"),
        error_by_ratio_plot(report, out_dir / "error_by_ratio.png"),
        human_model_scatter(report, out_dir / "human_vs_model.png"),
    ]
    if len(report.tables["distance_runs"]):
        paths.append(distance_error_plot(report, out_dir / "distance_error.png"))
    return paths
