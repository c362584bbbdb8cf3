"""Consistency of errors between observers (inter) and between runs or conditions of one observer (intra)."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from ._checks import as_columns, check_frame, check_min_count, check_not_constant
from .inference import CORR_COLUMNS, fisher_z_interval, fisher_z_note, pearson

__all__ = ["inter_consistency", "intra_consistency"]


def _mean_by_key(df: pd.DataFrame, keys: list[str], value: str) -> pd.Series:
    return df.groupby(keys, sort=True)[value].mean()


def inter_consistency(
    human: pd.DataFrame,
    model: pd.DataFrame,
    key="stimulus_id",
    value: str = "abs_error",
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Inter-consistency: Pearson correlation between two observers' mean errors per stimulus.

    Each side is averaged per key (a stimulus, or a pair of heights such as
    ``("short_height", "tall_height")`` as in Study III), the two are joined on the keys they share, and

    .. math:: r = \\operatorname{corr}_{k \\in K_h \\cap K_m}\\left(\\bar e^{\\,h}_k,\\; \\bar e^{\\,m}_k\\right)

    with a Fisher-z confidence interval (see :func:`analysis.pearson`). High *r* means both observers find
    the same stimuli hard.

    Parameters
    ----------
    human, model : pandas.DataFrame
        One row per response (human) or prediction (model).
    key : str or sequence of str, default "stimulus_id"
        Column(s) identifying a stimulus, present in both frames.
    value : str, default "abs_error"
        Numeric error column, present in both frames.
    confidence : float, default 0.95

    Returns
    -------
    pandas.DataFrame
        One row: ``r``, ``ci_low``, ``ci_high``, ``p_val``, ``n`` (number of shared keys, at least 3).
    """
    keys = as_columns(key)
    check_frame(human, numeric=value, keys=keys, where="inter_consistency (human)")
    check_frame(model, numeric=value, keys=keys, where="inter_consistency (model)")
    joined = pd.concat(
        [_mean_by_key(human, keys, value).rename("h"), _mean_by_key(model, keys, value).rename("m")],
        axis=1,
        join="inner",
    )
    check_min_count(len(joined), 3, f"keys ({', '.join(keys)}) shared by both data sets", where="inter_consistency")
    return pearson(joined["h"], joined["m"], confidence=confidence)


def intra_consistency(
    df: pd.DataFrame,
    by: str = "run",
    key="stimulus_id",
    value: str = "abs_error",
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Intra-consistency: Pearson correlation of mean errors per stimulus between every pair of runs.

    ``df`` is averaged per (``by``, key); for every pair of levels *a* < *b* of ``by`` (runs of one model,
    or downsampling levels) the per-key means are correlated over the keys both have, as in
    :func:`inter_consistency`. The paper reports these to show CNN runs agree with each other far more than
    with people.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per prediction/response.
    by : str, default "run"
        Column whose levels are compared pairwise (at least two levels).
    key : str or sequence of str, default "stimulus_id"
    value : str, default "abs_error"
    confidence : float, default 0.95

    Returns
    -------
    pandas.DataFrame
        One row per pair, levels in sorted order: ``a``, ``b``, ``r``, ``ci_low``, ``ci_high``, ``p_val``, ``n``.
        Use ``.r.mean()`` for a single summary.
    """
    keys = as_columns(key)
    check_frame(df, numeric=value, keys=[by, *keys], where="intra_consistency")
    wide = _mean_by_key(df, [by, *keys], value).unstack(by)
    levels = list(wide.columns)
    check_min_count(len(levels), 2, f"levels of '{by}'", where="intra_consistency")
    if not wide.isna().to_numpy().any():
        return _all_pairs(wide, by, confidence)
    rows = []
    for a, b in combinations(levels, 2):
        pair = wide[[a, b]].dropna()
        check_min_count(len(pair), 3, f"keys shared by {by}={a!r} and {by}={b!r}", where="intra_consistency")
        res = pearson(pair[a], pair[b], confidence=confidence).iloc[0]
        rows.append({"a": a, "b": b, **{c: res[c] for c in CORR_COLUMNS}})
    out = pd.DataFrame(rows, columns=["a", "b", *CORR_COLUMNS])
    out["n"] = out["n"].astype("int64")
    return out


def _all_pairs(wide: pd.DataFrame, by: str, confidence: float) -> pd.DataFrame:
    """intra_consistency when every level has every key: all pairs from one correlation matrix, with the same
    statistics as :func:`analysis.pearson` (t-test p value, Fisher-z interval), so hundreds of runs stay fast."""
    values = wide.to_numpy(dtype=float)
    n = values.shape[0]
    check_min_count(n, 3, f"keys shared by the levels of '{by}'", where="intra_consistency")
    for level, column in zip(wide.columns, values.T):
        check_not_constant(column, f"{by}={level!r}", where="intra_consistency")
    a, b = np.triu_indices(values.shape[1], k=1)
    r = np.clip(np.corrcoef(values, rowvar=False)[a, b], -1.0, 1.0)
    with np.errstate(divide="ignore"):
        t = r * np.sqrt((n - 2) / (1.0 - r**2))
    p = 2 * stats.t.sf(np.abs(t), n - 2)
    low, high = fisher_z_interval(r, n, confidence)
    levels = np.asarray(wide.columns, dtype=object)
    return pd.DataFrame(
        {
            "a": levels[a],
            "b": levels[b],
            "r": r,
            "ci_low": low,
            "ci_high": high,
            "p_val": p,
            "n": np.full(r.shape, n, dtype="int64"),
            "note": fisher_z_note(n),
        },
        columns=["a", "b", *CORR_COLUMNS],
    )
