"""Spearman's rank correlation with a p-value that is right for small samples.

Below :data:`EXACT_BELOW` pairs the p-value is exact: the share of all n! pairings of the y values with the x values
whose ρ is at least as extreme as the observed one (the permutation null of independence; with ties, conditional on
the tie pattern, since the average ranks are permuted as they are). From :data:`EXACT_BELOW` pairs on it is the usual
t approximation, :math:`t = \\rho\\sqrt{(n-2)/(1-\\rho^2)}` with n − 2 dof (``scipy.stats.spearmanr``), which at small
n is far off: ρ = 1 at n = 3 gives t = ∞ and p = 0, where the exact two-sided p is 2/3! = 1/3.

Used by the HIVE similarity correlation (:mod:`analysis.hive_statistics`) and open to any report that correlates
ranks of a few units.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
from scipy import stats

from ._checks import as_float_array, check_choice, check_same_length

__all__ = ["EXACT_BELOW", "spearman"]

#: pairs below which the p-value enumerates every permutation (9! = 362,880 orderings at most)
EXACT_BELOW = 10
ALTERNATIVES = ("two-sided", "greater", "less")
SPEARMAN_COLUMNS = ["rho", "p_val", "n", "alternative", "p_method", "note"]
#: relative tolerance when comparing a permuted ρ with the observed one: sums of products of average ranks are exact
#: in binary only up to rounding, and a tie with the observed value must count as "at least as extreme"
_TIE_TOLERANCE = 1e-9


def _exact_p(rx: np.ndarray, ry: np.ndarray, rho: float, alternative: str) -> float:
    """Share of the n! orderings of ``ry`` whose ρ with ``rx`` is at least as extreme as ``rho``.

    Permuting ``ry`` keeps its mean and variance, so each permuted ρ is the centred cross-product scaled by the same
    constant as the observed one.
    """
    x = rx - rx.mean()
    y = ry - ry.mean()
    scale = math.sqrt((x @ x) * (y @ y))
    orderings = np.array(list(itertools.permutations(y)))
    null = orderings @ x / scale
    slack = _TIE_TOLERANCE * max(1.0, abs(rho))
    if alternative == "greater":
        hits = null >= rho - slack
    elif alternative == "less":
        hits = null <= rho + slack
    else:
        hits = np.abs(null) >= abs(rho) - slack
    return float(hits.mean())


def spearman(x, y, alternative: str = "two-sided") -> pd.DataFrame:
    """Spearman's ρ of paired values and its p-value, exact below :data:`EXACT_BELOW` pairs.

    .. math:: \\rho = \\frac{\\sum (R_i - \\bar R)(S_i - \\bar S)}{\\sqrt{\\sum (R_i - \\bar R)^2
              \\sum (S_i - \\bar S)^2}}, \\qquad
              p_{\\text{exact}} = \\frac{\\#\\{\\pi \\in S_n : \\rho_\\pi \\succeq \\rho\\}}{n!}

    R and S are the average ranks of x and y (Spearman, 1904); ρ_π is ρ with S permuted by π and ⪰ means "at least
    as extreme" in the direction of ``alternative`` (|ρ_π| ≥ |ρ| two-sided). From n = :data:`EXACT_BELOW` on, p is
    the t approximation with n − 2 dof.

    Parameters
    ----------
    x, y : array-like of float
        Paired values, same length, at least 3 pairs, neither constant (checked: ``ValueError`` names the array).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        H1: ρ ≠ 0, ρ > 0 or ρ < 0.

    Returns
    -------
    pandas.DataFrame
        One row: ``rho``, ``p_val``, ``n``, ``alternative``, ``p_method`` ("exact (all n! permutations)" or
        "t approximation (n − 2 dof)"), ``note`` (what the p-value rests on, in words).

    Examples
    --------
    >>> spearman([1, 2, 3], [1, 2, 3])[["rho", "p_val"]].iloc[0].tolist()  # 2 of the 3! orderings are as extreme
    [1.0, 0.3333333333333333]
    """
    x = as_float_array(x, "x", where="spearman", min_size=3)
    y = as_float_array(y, "y", where="spearman", min_size=3)
    check_same_length(x, y, where="spearman")
    check_choice(alternative, ALTERNATIVES, "alternative", where="spearman")
    for values, name in ((x, "x"), (y, "y")):
        if np.ptp(values) == 0:
            raise ValueError(f"spearman: '{name}' is constant; a rank correlation needs varying values")
    n = x.size
    rx, ry = stats.rankdata(x), stats.rankdata(y)
    rho = float(np.corrcoef(rx, ry)[0, 1])
    if n < EXACT_BELOW:
        p_val = _exact_p(rx, ry, rho, alternative)
        method = "exact (all n! permutations)"
        note = f"exact p over all {math.factorial(n):,} orderings of the {n} pairs (n < {EXACT_BELOW})"
    else:
        p_val = float(stats.spearmanr(x, y, alternative=alternative).pvalue)
        method = "t approximation (n − 2 dof)"
        note = ""
    return pd.DataFrame(
        [{"rho": rho, "p_val": p_val, "n": n, "alternative": alternative, "p_method": method, "note": note}],
        columns=SPEARMAN_COLUMNS,
    )
