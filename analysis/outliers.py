"""Exclusion rules: whole participants (IQR fence) and single responses (absolute-error threshold)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._checks import check_frame, check_number

__all__ = ["iqr_outliers", "response_outliers"]


def _fmt(x: float) -> str:
    return f"{x:.4g}"


def _describe(value: str) -> str:
    return "absolute error" if value == "abs_error" else value


def iqr_outliers(
    df: pd.DataFrame, value: str = "abs_error", unit: str = "participant_id", k: float = 3.0
) -> pd.DataFrame:
    """Flag participants whose mean error lies above the upper IQR fence.

    For each unit (participant) *u* the mean error :math:`\\bar e_u` is computed; with :math:`Q_1, Q_3` the
    quartiles of these means over units (linear interpolation, ``numpy.percentile``'s default) and
    :math:`\\text{IQR} = Q_3 - Q_1`, a unit is excluded when

    .. math:: \\bar e_u > Q_3 + k \\cdot \\text{IQR}

    When the IQR is 0 (at least half the participants share one mean error, e.g. a handful of participants who
    all answered perfectly) the fence collapses onto Q3 and would exclude anybody a hair above it; the rule is
    then not applied: nobody is excluded and the ``degenerate`` columns say why.

    This is this product's reading of Study III's sentence ("participants ... as their errors exceeded three
    times the interquartile range", 7 of 63 excluded), which does not say of what the IQR was taken: here the
    IQR of the participants' mean errors, Tukey's "far out" fence with *k* = 3. Only the **upper** fence is
    used: errors are non-negative and the rule is meant to catch people who did not do the task (random or
    inverted answers), which shows as a large error; an unusually *small* error is good performance, not a
    reason to exclude.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per response.
    value : str, default "abs_error"
        Numeric error column, averaged per unit.
    unit : str, default "participant_id"
        Column identifying the unit that is kept or excluded as a whole.
    k : float, default 3.0
        Fence multiplier (1.5 gives Tukey's "outside" fence).

    Returns
    -------
    pandas.DataFrame
        One row per unit, sorted by unit, with columns ``<unit>``, ``mean_<value>`` (``mean_abs_error`` by
        default), ``excluded`` (bool), ``reason`` (e.g. ``"mean absolute error 23.1 > Q3 + 3×IQR = 14.2"``;
        empty string for kept units), ``fence`` (Q3 + k·IQR; NaN when degenerate), ``degenerate`` (bool, the same
        on every row: the IQR is 0 and the rule was not applied) and ``degenerate_reason``.

    References
    ----------
    Tukey, J. W. (1977). Exploratory Data Analysis. Addison-Wesley (fences at Q3 + 1.5 IQR and Q3 + 3 IQR).
    """
    check_frame(df, numeric=value, keys=unit, where="iqr_outliers")
    k = check_number(k, "k", minimum=0, where="iqr_outliers")
    means = df.groupby(unit, sort=True)[value].mean()
    q1, q3 = np.percentile(means.to_numpy(dtype=float), [25, 75])
    label = _describe(value)
    degenerate = bool(q3 - q1 == 0)
    fence = float("nan") if degenerate else q3 + k * (q3 - q1)
    excluded = np.zeros(len(means), dtype=bool) if degenerate else means.to_numpy() > fence
    why = (
        (
            f"the IQR of the {len(means)} per-{unit} mean {label}s is 0 (Q1 = Q3 = {_fmt(q3)}), so the "
            f"Q3 + {k:g}×IQR fence cannot separate anyone (it would flag anybody a hair above Q3); the rule was "
            "not applied and nobody was excluded by it"
        )
        if degenerate
        else ""
    )
    reasons = [
        f"mean {label} {_fmt(m)} > Q3 + {k:g}×IQR = {_fmt(fence)}" if ex else ""
        for m, ex in zip(means.to_numpy(), excluded)
    ]
    return pd.DataFrame(
        {
            unit: means.index.to_numpy(),
            f"mean_{value}": means.to_numpy(dtype=float),
            "excluded": excluded,
            "reason": reasons,
            "fence": fence,
            "degenerate": degenerate,
            "degenerate_reason": why,
        }
    )


def response_outliers(df: pd.DataFrame, value: str = "abs_error", threshold: float = 40.0) -> pd.DataFrame:
    """Flag single responses whose error is larger than a fixed threshold (Heer & Bostock, 2010).

    .. math:: \\text{excluded}_r = e_r > \\text{threshold}

    Heer & Bostock discarded ratio judgements that were off by more than 40 percentage points, which
    mostly catches answers that judged the larger bar as a percentage of the smaller or typed the wrong
    number; the threshold is in the units of ``value`` (percent for ``abs_error``).

    Parameters
    ----------
    df : pandas.DataFrame
        One row per response.
    value : str, default "abs_error"
        Numeric error column.
    threshold : float, default 40.0

    Returns
    -------
    pandas.DataFrame
        Same index as ``df``, columns ``excluded`` (bool) and ``reason`` (e.g.
        ``"absolute error 52 > 40"``; empty string when kept). ``df[~response_outliers(df).excluded]`` keeps
        the valid responses.

    References
    ----------
    Heer, J., & Bostock, M. (2010). Crowdsourcing graphical perception: using Mechanical Turk to assess
    visualization design. CHI 2010, 203-212.
    """
    check_frame(df, numeric=value, where="response_outliers")
    threshold = check_number(threshold, "threshold", where="response_outliers")
    values = df[value].to_numpy(dtype=float)
    excluded = values > threshold
    label = _describe(value)
    reasons = [f"{label} {_fmt(v)} > {threshold:g}" if ex else "" for v, ex in zip(values, excluded)]
    return pd.DataFrame({"excluded": excluded, "reason": reasons}, index=df.index)
