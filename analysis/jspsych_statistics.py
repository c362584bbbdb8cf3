"""Descriptive statistics of a researcher's own jsPsych experiment, whatever its design: who finished, how long they
took, response times per trial type and accuracy where the experiment records a ``correct`` column.

The rows are jsPsych's own (one per trial, the columns the experiment recorded), so nothing here assumes a column
beyond ``participant_id``: ``trial_type``, ``rt``, ``time_elapsed`` and ``correct`` are used when present and their
absence is reported in words. Values that cannot be read (an ``rt`` of ``"n/a"``, a ``correct`` of ``"maybe"``) are
counted and left out, never guessed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._checks import check_frame

__all__ = [
    "ACCURACY_COLUMNS",
    "PARTICIPANT_COLUMNS",
    "RT_COLUMNS",
    "accuracy_by_trial_type",
    "as_correct",
    "completion",
    "participant_summary",
    "rt_by_trial_type",
]

NO_TYPE = "(no trial_type)"
PARTICIPANT_COLUMNS = [
    "participant_id",
    "n_rows",
    "time_elapsed_s",
    "saved_span_s",
    "n_rt",
    "median_rt_ms",
    "n_correct_scored",
    "accuracy",
]
RT_COLUMNS = [
    "trial_type",
    "n_participants",
    "n_trials",
    "mean_rt_ms",
    "sd_rt_ms",
    "median_rt_ms",
    "mean_of_medians_ms",
]
ACCURACY_COLUMNS = ["trial_type", "n_participants", "n_trials", "accuracy", "sd_participant_accuracy"]
_TRUE = {"true": 1.0, "false": 0.0, "1": 1.0, "0": 0.0}


def as_correct(values: pd.Series) -> pd.Series:
    """A ``correct`` column as 1.0 / 0.0, NaN where it holds nothing readable: booleans, the numbers 0 and 1 and
    the texts true/false/1/0 (any case) are read; anything else is NaN.

    Examples
    --------
    >>> as_correct(pd.Series([True, 0, "false", None, "maybe", 2])).tolist()
    [1.0, 0.0, 0.0, nan, nan, nan]
    """

    def read(value):
        if isinstance(value, (bool, np.bool_)):
            return float(value)
        if isinstance(value, (int, float, np.integer, np.floating)) and value in (0, 1):
            return float(value)
        if isinstance(value, str):
            return _TRUE.get(value.strip().lower(), np.nan)
        return np.nan

    return values.map(read).astype(float)


def _types(trials: pd.DataFrame) -> pd.Series:
    if "trial_type" not in trials:
        return pd.Series(NO_TYPE, index=trials.index)
    return trials["trial_type"].fillna(NO_TYPE).astype(str)


def _numeric(trials: pd.DataFrame, column: str) -> pd.Series:
    """A column as numbers (booleans are not numbers here), NaN where absent or unreadable (digits beyond any float,
    analysis.jspsych_data's cells for integers no browser sent, included: they would read as infinite)."""
    if column not in trials:
        return pd.Series(np.nan, index=trials.index)
    values = trials[column].map(lambda v: np.nan if isinstance(v, (bool, np.bool_)) else v)
    numbers = pd.to_numeric(values, errors="coerce").astype(float)
    return numbers.where(np.isfinite(numbers))


def completion(sessions: pd.DataFrame) -> pd.DataFrame:
    """Sessions by status (started, completed, abandoned, excluded), with their share of those recruited."""
    check_frame(sessions, keys=["participant_id", "status"], where="completion")
    counts = sessions["status"].value_counts()
    order = ["started", "completed", "abandoned", "excluded"]
    statuses = order + sorted(set(counts.index) - set(order))
    n = len(sessions)
    return pd.DataFrame(
        {
            "status": statuses,
            "n_sessions": [int(counts.get(s, 0)) for s in statuses],
            "share": [counts.get(s, 0) / n if n else np.nan for s in statuses],
        }
    )


def participant_summary(trials: pd.DataFrame) -> pd.DataFrame:
    """One row per participant: rows stored, time in the experiment (jsPsych's ``time_elapsed`` of the last row, in
    s; after a reload the page's clock starts again, so ``saved_span_s``, first to last stored row by the server's
    clock, is given too), response times given and their median, and accuracy over the rows with a readable
    ``correct``."""
    check_frame(trials, keys=["participant_id"], where="participant_summary")
    frame = pd.DataFrame(
        {
            "participant_id": trials["participant_id"],
            "time_elapsed": _numeric(trials, "time_elapsed"),
            "rt": _numeric(trials, "rt"),
            "correct": as_correct(trials["correct"]) if "correct" in trials else np.nan,
            "saved": pd.to_datetime(trials["created_at"], utc=True, format="ISO8601")
            if "created_at" in trials
            else pd.NaT,
        }
    )
    grouped = frame.groupby("participant_id", sort=True)
    out = pd.DataFrame(
        {
            "n_rows": grouped.size(),
            "time_elapsed_s": grouped["time_elapsed"].max() / 1000,
            "saved_span_s": (grouped["saved"].max() - grouped["saved"].min()).dt.total_seconds(),
            "n_rt": grouped["rt"].count(),
            "median_rt_ms": grouped["rt"].median(),
            "n_correct_scored": grouped["correct"].count(),
            "accuracy": grouped["correct"].mean(),
        }
    ).reset_index()
    return out[PARTICIPANT_COLUMNS]


def rt_by_trial_type(trials: pd.DataFrame) -> pd.DataFrame:
    """Per trial type, over the rows with a numeric ``rt``: participants and trials, the trial-level mean, SD and
    median, and the mean of the participants' medians (each participant weighted once)."""
    check_frame(trials, keys=["participant_id"], where="rt_by_trial_type")
    frame = pd.DataFrame(
        {"participant_id": trials["participant_id"], "trial_type": _types(trials), "rt": _numeric(trials, "rt")}
    ).dropna(subset=["rt"])
    if frame.empty:
        return pd.DataFrame(columns=RT_COLUMNS)
    medians = frame.groupby(["trial_type", "participant_id"])["rt"].median().groupby("trial_type").mean()
    out = frame.groupby("trial_type").agg(
        n_participants=("participant_id", "nunique"),
        n_trials=("rt", "size"),
        mean_rt_ms=("rt", "mean"),
        sd_rt_ms=("rt", "std"),
        median_rt_ms=("rt", "median"),
    )
    out["mean_of_medians_ms"] = medians
    return out.reset_index()[RT_COLUMNS]


def accuracy_by_trial_type(trials: pd.DataFrame) -> pd.DataFrame:
    """Per trial type, over the rows whose ``correct`` is readable (:func:`as_correct`): participants, trials, the
    share correct and the SD of the participants' own shares (NaN with one participant). Empty without a
    ``correct`` column or readable values."""
    check_frame(trials, keys=["participant_id"], where="accuracy_by_trial_type")
    if "correct" not in trials:
        return pd.DataFrame(columns=ACCURACY_COLUMNS)
    frame = pd.DataFrame(
        {
            "participant_id": trials["participant_id"],
            "trial_type": _types(trials),
            "correct": as_correct(trials["correct"]),
        }
    ).dropna(subset=["correct"])
    if frame.empty:
        return pd.DataFrame(columns=ACCURACY_COLUMNS)
    per_person = frame.groupby(["trial_type", "participant_id"])["correct"].mean().groupby("trial_type").std()
    out = frame.groupby("trial_type").agg(
        n_participants=("participant_id", "nunique"), n_trials=("correct", "size"), accuracy=("correct", "mean")
    )
    out["sd_participant_accuracy"] = per_person
    return out.reset_index()[ACCURACY_COLUMNS]
