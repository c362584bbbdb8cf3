"""Frequentist tests with stable, snake_case output columns (thin wrappers around pingouin).

pingouin's own column names change between releases (``p-val`` -> ``p_val``, ``cohen-d`` -> ``cohen_d``) and
its ``CI95`` column is rounded to two decimals by default; these wrappers return fixed names and full
precision so that the web layer and the tests can rely on them.
"""

from __future__ import annotations

import functools
import itertools
import math
import warnings
from contextlib import contextmanager

import numpy as np
import pandas as pd
import pingouin as pg
from scipy import stats

from ._checks import (
    as_columns,
    as_float_array,
    check_choice,
    check_contains,
    check_frame,
    check_levels,
    check_not_constant,
    check_number,
    check_positive_int,
    check_same_length,
)

__all__ = [
    "one_sample_t",
    "two_sample_t",
    "permutation_test",
    "random_effects_test",
    "anova_by",
    "tukey",
    "rm_anova",
    "pairwise_within",
    "observer_effect",
    "pearson",
]

ALTERNATIVES = ("two-sided", "greater", "less")


@contextmanager
def _quiet_pingouin():
    """Silence pingouin's internal noise that says nothing about the caller's data (pandas deprecations
    inside pingouin, and the power estimate it computes but we do not report)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"The inplace keyword", module=r"pingouin")
        warnings.filterwarnings("ignore", message=r"Sample size is too small to estimate power")
        yield


TTEST_COLUMNS = ["t", "dof", "p_val", "estimate", "ci_low", "ci_high", "cohen_d", "n"]
CORR_COLUMNS = ["r", "ci_low", "ci_high", "p_val", "n", "note"]


def _t_row(
    res: pd.DataFrame, estimate: float, se: float, n: int, confidence: float, alternative: str = "two-sided"
) -> pd.DataFrame:
    t_val = float(res["T"].iloc[0])
    dof = float(res["dof"].iloc[0])
    low, high = _t_interval(estimate, se, dof, confidence, alternative)
    d = float(res["cohen_d"].iloc[0])  # pingouin reports |d|; give it the sign of the difference
    return pd.DataFrame(
        [
            {
                "t": t_val,
                "dof": dof,
                "p_val": float(res["p_val"].iloc[0]),
                "estimate": estimate,
                "ci_low": low,
                "ci_high": high,
                "cohen_d": float(np.copysign(d, t_val)) if np.isfinite(t_val) else d,
                "n": int(n),
            }
        ],
        columns=TTEST_COLUMNS,
    )


def _t_interval(estimate: float, se: float, dof: float, confidence: float, alternative: str) -> tuple[float, float]:
    """The t interval that matches a test's sidedness: two-sided ``estimate ± t_{(1+c)/2} se``; one-sided
    ``[estimate − t_c se, ∞)`` ("greater") or ``(−∞, estimate + t_c se]`` ("less")."""
    if alternative == "two-sided":
        half = stats.t.ppf(0.5 + confidence / 2.0, dof) * se
        return estimate - half, estimate + half
    half = stats.t.ppf(confidence, dof) * se
    return (estimate - half, math.inf) if alternative == "greater" else (-math.inf, estimate + half)


def one_sample_t(x, mu: float = 0.0, confidence: float = 0.95, alternative: str = "two-sided") -> pd.DataFrame:
    """One-sample Student t-test of the mean of ``x`` against ``mu``, two-sided or one-sided.

    .. math:: t = \\frac{\\bar x - \\mu}{s / \\sqrt n}, \\qquad \\text{dof} = n - 1, \\qquad
              d = \\frac{\\bar x - \\mu}{s}

    p-values: two-sided :math:`2\\,P(T_{n-1} \\ge |t|)`; ``"greater"`` (H1: the mean exceeds ``mu``)
    :math:`P(T_{n-1} \\ge t)`; ``"less"`` :math:`P(T_{n-1} \\le t)`. The confidence interval has the same
    sidedness, so that p < 1 − confidence exactly when it excludes ``mu``: two-sided
    :math:`\\bar x \\pm t_{(1+c)/2,\\,n-1}\\, s/\\sqrt n`;
    "greater" :math:`[\\bar x - t_{c,\\,n-1}\\, s/\\sqrt n, \\infty)`;
    "less" :math:`(-\\infty, \\bar x + t_{c,\\,n-1}\\, s/\\sqrt n]`.

    Parameters
    ----------
    x : array-like of float
        At least two finite values.
    mu : float, default 0
        Hypothesised mean (e.g. chance accuracy).
    confidence : float, default 0.95
        Level of the confidence interval (a proportion).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        The alternative hypothesis about the mean of ``x`` relative to ``mu`` (pingouin's and scipy's names).

    Returns
    -------
    pandas.DataFrame
        One row: ``t``, ``dof``, ``p_val`` (for ``alternative``), ``estimate`` (the mean of ``x``), ``ci_low``,
        ``ci_high`` (confidence interval of the **mean of x**, as in ``scipy.stats.ttest_1samp`` and
        ``pingouin.ttest``; one bound infinite when one-sided), ``cohen_d`` (signed: positive when the mean is
        above ``mu``), ``n``. With zero variance t is ±inf (or NaN when the mean equals ``mu``): callers say so.

    See Also
    --------
    pingouin.ttest, scipy.stats.ttest_1samp
    """
    x = as_float_array(x, "x", where="one_sample_t", min_size=2)
    mu = float(as_float_array(mu, "mu", where="one_sample_t")[0])
    check_choice(alternative, ALTERNATIVES, "alternative", where="one_sample_t")
    with _quiet_pingouin(), warnings.catch_warnings():
        # zero variance: pingouin divides by s = 0; the caller reports that case in words
        warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"(pingouin|numpy|scipy)")
        res = pg.ttest(x, mu, confidence=confidence, alternative=alternative)
    se = x.std(ddof=1) / np.sqrt(x.size)
    return _t_row(res, float(x.mean()), se, x.size, confidence, alternative)


def two_sample_t(x, y, paired: bool = False, welch: bool = True, confidence: float = 0.95) -> pd.DataFrame:
    """Two-sample t-test of ``mean(x) - mean(y)`` (two-sided); Welch's by default, or paired.

    Independent samples, Welch (``welch=True``, the default -- human and model errors have very
    different variances):

    .. math:: t = \\frac{\\bar x - \\bar y}{\\sqrt{s_x^2/n_x + s_y^2/n_y}}, \\qquad
              \\text{dof} = \\frac{(s_x^2/n_x + s_y^2/n_y)^2}
              {\\frac{(s_x^2/n_x)^2}{n_x-1} + \\frac{(s_y^2/n_y)^2}{n_y-1}}

    With ``welch=False`` the pooled-variance Student test (dof = n_x + n_y - 2). Paired: the one-sample
    test of the differences x - y (dof = n - 1).

    Parameters
    ----------
    x, y : array-like of float
        At least two finite values each; equal lengths when ``paired``.
    paired : bool, default False
    welch : bool, default True
        Use Welch's unequal-variance test (ignored when ``paired``).
    confidence : float, default 0.95

    Returns
    -------
    pandas.DataFrame
        One row: ``t``, ``dof``, ``p_val``, ``estimate`` (``mean(x) - mean(y)``), ``ci_low``, ``ci_high``
        (its confidence interval), ``cohen_d`` (signed, pingouin's definition: pooled standard deviation for
        independent samples, :math:`d_{avg} = (\\bar x - \\bar y)/\\sqrt{(s_x^2 + s_y^2)/2}` when paired),
        ``n`` (``n_x + n_y``; the number of pairs when paired).

    See Also
    --------
    pingouin.ttest, scipy.stats.ttest_ind, scipy.stats.ttest_rel
    """
    where = "two_sample_t"
    x = as_float_array(x, "x", where=where, min_size=2)
    y = as_float_array(y, "y", where=where, min_size=2)
    if paired:
        check_same_length(x, y, where=where)
        with _quiet_pingouin():
            res = pg.ttest(x, y, paired=True, confidence=confidence)
        diff = x - y
        return _t_row(res, float(diff.mean()), diff.std(ddof=1) / np.sqrt(x.size), x.size, confidence)
    with _quiet_pingouin():
        res = pg.ttest(x, y, paired=False, correction=bool(welch), confidence=confidence)
    vx, vy = x.var(ddof=1), y.var(ddof=1)
    if welch:
        se = np.sqrt(vx / x.size + vy / y.size)
    else:
        pooled = ((x.size - 1) * vx + (y.size - 1) * vy) / (x.size + y.size - 2)
        se = np.sqrt(pooled * (1 / x.size + 1 / y.size))
    return _t_row(res, float(x.mean() - y.mean()), se, x.size + y.size, confidence)


#: Above this many relabellings :func:`permutation_test` samples them instead of enumerating every one.
PERMUTATION_EXACT_MAX = 100_000
PERMUTATION_DRAWS = 20_000


@functools.lru_cache(maxsize=8)
def _labellings(size: int, k: int) -> np.ndarray:
    """Every k-subset of range(size), one per row (cached: a report tests each model against the same people)."""
    count = math.comb(size, k)
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(size), k)), int, count * k)
    return flat.reshape(count, k)


def permutation_test(x, y, draws: int = PERMUTATION_DRAWS, seed: int = 0) -> pd.DataFrame:
    """Two-sided Fisher–Pitman permutation test of ``mean(x) − mean(y)`` over units (Pitman 1937).

    Every way of choosing which n_x of the n_x + n_y values are labelled x gives a difference of means; the p-value
    is the share of labellings whose |difference| is at least the observed one (the observed labelling included).
    Exact under the null that the x and y units are exchangeable (drawn from one population), whatever that
    population's shape and however few x units there are, which Welch's test over units is not (its run variance
    rests on n_x − 1 degrees of freedom). When units of one group vary less than the other's (a model run averaging
    more stimuli than a participant), the test is conservative. All C(n_x + n_y, n_x) labellings are enumerated up
    to :data:`PERMUTATION_EXACT_MAX`; beyond, ``draws`` random labellings (seeded) give p = (1 + hits)/(1 + draws).

    Returns
    -------
    pandas.DataFrame
        One row: ``estimate`` (``mean(x) − mean(y)``), ``p_val``, ``labellings`` (how many the p-value counts over),
        ``exact`` (whether all were enumerated), ``n`` (``n_x + n_y``).
    """
    where = "permutation_test"
    x = as_float_array(x, "x", where=where, min_size=1)
    y = as_float_array(y, "y", where=where, min_size=1)
    z = np.concatenate([x, y])
    # the smaller group's sum determines the difference: S/k − (T − S)/(N − k), for k = n_x labelled x
    k, total, size = x.size, z.sum(), z.size
    observed = abs(x.mean() - y.mean())
    count = math.comb(size, k)
    if count <= PERMUTATION_EXACT_MAX:
        picks = _labellings(size, k)
    else:
        picks = np.argpartition(np.random.default_rng(seed).random((draws, size)), k - 1, axis=1)[:, :k]
    sums = z[picks].sum(axis=1)
    diffs = np.abs(sums / k - (total - sums) / (size - k))
    hits = int(np.count_nonzero(diffs >= observed * (1 - 1e-12)))  # ties up to rounding count as at least
    exact = count <= PERMUTATION_EXACT_MAX
    p = hits / count if exact else (1 + hits) / (1 + draws)
    return pd.DataFrame(
        [{"estimate": float(x.mean() - y.mean()), "p_val": p, "labellings": count if exact else draws, "exact": exact,
          "n": size}]
    )  # fmt: skip


#: Bootstrap draws of :func:`random_effects_test`'s calibration (p = (1 + hits)/(1 + draws)).
RANDOM_EFFECTS_DRAWS = 1999


def _random_effects_t(d, sy2, vy_mean, vx_mean, k: int, n: int):
    """(τ̂², SE, t) of :func:`random_effects_test` for one sample or a vector of bootstrap samples."""
    tau2 = np.maximum(sy2 - vy_mean, 0.0)
    se = np.sqrt((tau2 + vx_mean) / k + sy2 / n)
    with np.errstate(divide="ignore", invalid="ignore"):  # a bootstrap sample of one repeated unit: SE may be 0
        return tau2, se, d / se


def random_effects_test(x, vx, y, vy, draws: int = RANDOM_EFFECTS_DRAWS, seed: int = 0) -> pd.DataFrame:
    """Two-sided random-effects test of ``mean(x) − mean(y)`` over units that average different numbers of
    observations: k units ``x`` (a model's runs) against n units ``y`` (participants), each with its own sampling
    variance ``vx``/``vy`` (the variance of the unit's mean from its own observations' spread).

    Each unit's value is its true level plus its sampling error, and under the null both groups' true levels come
    from one population with variance τ² (runs are observers like these people, who averaged more predictions):
    :math:`\\operatorname{Var}(x_i) = \\tau^2 + v_{x,i}`, :math:`\\operatorname{Var}(y_j) = \\tau^2 + v_{y,j}`. τ² by
    the method of moments from the participants, floored at 0 (DerSimonian & Laird 1986, with equal weights):

    .. math:: \\hat\\tau^2 = \\max(0,\\ s_y^2 - \\bar v_y), \\qquad d = \\bar x - \\bar y, \\qquad
              SE^2 = \\frac{\\hat\\tau^2 + \\bar v_x}{k} + \\frac{s_y^2}{n}, \\qquad t = d / SE

    with Satterthwaite's (1946) degrees of freedom, the sampling variances taken as known and :math:`s_y^2` (n − 1
    df) entering SE² with the coefficient c = 1/n + 1/k (1/n when τ̂² is floored):
    :math:`\\text{dof} = SE^4 / ((c\\, s_y^2)^2 / (n - 1))` (infinite when every participant is alike). The t
    distribution is not used for ``p_val``: with few runs their mean is far from normal (a skill distribution of a
    few levels gives it a few modes), so ``p_val`` is a bootstrap-t calibration (Efron & Tibshirani 1993, ch. 12)
    built from the participants alone. Each of ``draws`` draws (seeded) resamples n participants with replacement
    (y*, vy*, hence τ̂*², s*²) and k more as pseudo-runs, each one's deviation from ȳ rescaled from its own variance
    to a run's under the null, :math:`\\bar y + (y_j - \\bar y)\\sqrt{(\\hat\\tau^2 + \\bar v_x)/(\\hat\\tau^2 +
    v_{y,j})}` (a factor 1 where the denominator is 0); its
    t* = (mean of the pseudo-runs − ȳ*)/SE* with SE*² = (τ̂*² + v̄_x)/k + s*²/n; p = (1 + #{|t*| ≥ |t|})/(1 + draws).

    Returns
    -------
    pandas.DataFrame
        One row: ``estimate`` (d), ``se``, ``t``, ``dof``, ``p_val`` (the bootstrap-t p), ``p_t`` (from the t
        distribution with ``dof``, for comparison), ``tau2`` (τ̂²), ``draws``, ``n`` (k + n).

    References
    ----------
    DerSimonian, R., & Laird, N. (1986). Meta-analysis in clinical trials. Controlled Clinical Trials 7, 177–188.
    Satterthwaite, F. E. (1946). An approximate distribution of estimates of variance components. Biometrics
    Bulletin 2(6), 110–114. Efron, B., & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
    """
    where = "random_effects_test"
    x = as_float_array(x, "x", where=where, min_size=1)
    vx = as_float_array(vx, "vx", where=where, min_size=1)
    y = as_float_array(y, "y", where=where, min_size=2)
    vy = as_float_array(vy, "vy", where=where, min_size=2)
    check_same_length(x, vx, ("x", "vx"), where=where)
    check_same_length(y, vy, ("y", "vy"), where=where)
    for name, v in (("vx", vx), ("vy", vy)):
        check_number(float(v.min()), f"smallest {name}", minimum=0.0, where=where)
    draws = check_positive_int(draws, "draws", where=where)
    k, n = x.size, y.size
    sy2, vx_mean, vy_mean = y.var(ddof=1), vx.mean(), vy.mean()
    d = x.mean() - y.mean()
    tau2, se, t = _random_effects_t(d, sy2, vy_mean, vx_mean, k, n)
    c = 1 / n + (1 / k if tau2 > 0 else 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):  # every participant alike: s_y² = 0, no dof
        dof = se**4 / ((c * sy2) ** 2 / (n - 1))
    rng = np.random.default_rng(seed)
    people = rng.integers(0, n, (draws, n))
    # each participant's own variance: a noisier one's deviation is shrunk more, so pseudo-runs keep the spread of
    # true levels and lose the participants' extra sampling noise (one common factor left 2-run tails too heavy)
    own = tau2 + vy
    scale = np.sqrt(np.divide(tau2 + vx_mean, own, out=np.ones_like(own), where=own > 0))
    picks = rng.integers(0, n, (draws, k))
    pseudo_runs = y.mean() + scale[picks] * (y[picks] - y.mean())
    ys = y[people]
    _, _, t_star = _random_effects_t(
        pseudo_runs.mean(1) - ys.mean(1), ys.var(1, ddof=1), vy[people].mean(1), vx_mean, k, n
    )
    hits = int(np.count_nonzero(np.abs(t_star) >= abs(t) * (1 - 1e-12)))
    return pd.DataFrame(
        [{"estimate": float(d), "se": float(se), "t": float(t), "dof": float(dof), "p_val": (1 + hits) / (1 + draws),
          "p_t": float(2 * stats.t.sf(abs(t), dof)), "tau2": float(tau2), "draws": draws, "n": k + n}]
    )  # fmt: skip


def anova_by(df: pd.DataFrame, dv: str, between) -> pd.DataFrame:
    """Between-subjects ANOVA of ``dv`` on one or more factors (pingouin.anova).

    One factor with *k* levels and *N* observations:

    .. math:: F = \\frac{SS_\\text{between}/(k-1)}{SS_\\text{within}/(N-k)}, \\qquad
              \\eta^2 = \\frac{SS_\\text{effect}}{SS_\\text{total}}

    Several factors use pingouin's type-II sums of squares (with interactions); ``eta_sq`` is then
    pingouin's ``n2`` (SS of the effect over the total SS).

    Parameters
    ----------
    df : pandas.DataFrame
        Tidy data.
    dv : str
        Numeric dependent variable.
    between : str or list of str
        Factor column(s).

    Returns
    -------
    pandas.DataFrame
        One row per effect (no residual row): ``source``, ``ddof1``, ``ddof2`` (residual dof), ``f``,
        ``p_val``, ``eta_sq``.

    See Also
    --------
    pingouin.anova, scipy.stats.f_oneway
    """
    factors = as_columns(between)
    check_frame(df, numeric=dv, keys=factors, where="anova_by")
    for f in factors:
        check_levels(df, f, 2, where="anova_by")
    with _quiet_pingouin():
        res = pg.anova(data=df, dv=dv, between=factors if len(factors) > 1 else factors[0], effsize="n2", detailed=True)
    resid_name = "Within" if len(factors) == 1 else "Residual"
    resid = res[res["Source"] == resid_name]
    effects = res[res["Source"] != resid_name]
    return pd.DataFrame(
        {
            "source": effects["Source"].astype(str).to_numpy(),
            "ddof1": effects["DF"].to_numpy(dtype=np.int64),
            "ddof2": np.full(len(effects), int(resid["DF"].iloc[0]), dtype=np.int64),
            "f": effects["F"].to_numpy(dtype=float),
            "p_val": effects["p_unc"].to_numpy(dtype=float),
            "eta_sq": effects["n2"].to_numpy(dtype=float),
        }
    )


def tukey(df: pd.DataFrame, dv: str, between: str) -> pd.DataFrame:
    """Tukey's honestly significant difference test for all pairs of levels (pingouin.pairwise_tukey).

    .. math:: t_{ab} = \\frac{\\bar y_a - \\bar y_b}{\\sqrt{MS_\\text{within}\\,(1/n_a + 1/n_b)}}, \\qquad
              p = P(Q_{k,\\,N-k} > \\sqrt 2\\,|t_{ab}|)

    with :math:`Q` the studentized range distribution (Tukey-Kramer for unequal group sizes).

    Parameters
    ----------
    df : pandas.DataFrame
        Tidy data.
    dv : str
        Numeric dependent variable.
    between : str
        Factor column (at least two levels).

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``a``, ``b``, ``mean_a``, ``mean_b``, ``diff`` (``mean_a - mean_b``), ``se``, ``t``,
        ``p_tukey``, ``hedges`` (Hedges' g).

    See Also
    --------
    pingouin.pairwise_tukey, scipy.stats.tukey_hsd
    """
    check_frame(df, numeric=dv, keys=between, where="tukey")
    check_levels(df, between, 2, where="tukey")
    with _quiet_pingouin():
        res = pg.pairwise_tukey(data=df, dv=dv, between=between)
    return pd.DataFrame(
        {
            "a": res["A"].to_numpy(),
            "b": res["B"].to_numpy(),
            "mean_a": res["mean_A"].to_numpy(dtype=float),
            "mean_b": res["mean_B"].to_numpy(dtype=float),
            "diff": res["diff"].to_numpy(dtype=float),
            "se": res["se"].to_numpy(dtype=float),
            "t": res["T"].to_numpy(dtype=float),
            "p_tukey": res["p_tukey"].to_numpy(dtype=float),
            "hedges": res["hedges"].to_numpy(dtype=float),
        }
    )


RM_ANOVA_COLUMNS = ["source", "ddof1", "ddof2", "f", "p_unc", "p_gg", "epsilon", "ng2", "n", "n_dropped", "note"]


def _wide(df: pd.DataFrame, dv: str, within: str, subject: str, where: str) -> tuple[pd.DataFrame, int]:
    """Subjects × levels of the mean of ``dv`` per cell, complete subjects only; and how many were dropped."""
    check_frame(df, numeric=dv, keys=[within, subject], where=where)
    check_levels(df, within, 2, where=where)
    wide = df.groupby([subject, within], sort=True)[dv].mean().unstack(within)
    complete = wide.dropna()
    return complete, len(wide) - len(complete)


def residual_ss(y: np.ndarray) -> float:
    """Subject × condition interaction (the error term of a one-way repeated-measures ANOVA):
    :math:`\\sum_{ij} (y_{ij} - \\bar y_{i\\cdot} - \\bar y_{\\cdot j} + \\bar y)^2`."""
    r = y - y.mean(axis=1, keepdims=True) - y.mean(axis=0, keepdims=True) + y.mean()
    return float((r**2).sum())


def rm_anova(df: pd.DataFrame, dv: str, within: str, subject: str) -> pd.DataFrame:
    """One-way repeated-measures ANOVA with the Greenhouse–Geisser correction (pingouin.rm_anova).

    With *n* complete subjects and *k* levels, :math:`y_{ij}` the mean of ``dv`` of subject *i* at level *j*:

    .. math:: F = \\frac{SS_\\text{effect}/(k-1)}{SS_\\text{error}/((k-1)(n-1))}, \\quad
              SS_\\text{effect} = n \\sum_j (\\bar y_{\\cdot j} - \\bar y)^2, \\quad
              SS_\\text{error} = \\sum_{ij} (y_{ij} - \\bar y_{i\\cdot} - \\bar y_{\\cdot j} + \\bar y)^2

    Greenhouse & Geisser (1959): with :math:`\\tilde S` the double-centred covariance matrix of the *k* levels,
    :math:`\\varepsilon = \\operatorname{tr}(\\tilde S)^2 / ((k-1)\\operatorname{tr}(\\tilde S^2))` and
    :math:`p_{GG} = P(F_{\\varepsilon(k-1),\\,\\varepsilon(k-1)(n-1)} > F)`. Effect size: generalized η²
    (Bakeman 2005), pingouin's ``ng2``.

    Subjects without a value at every level are dropped (listwise, as pingouin does) and counted. When the F ratio
    is undefined -- fewer than two complete subjects, or no error variance (every subject's profile parallel to
    the mean profile, e.g. every answer exact) -- the numbers are NaN and ``note`` says why; nothing raises.

    Parameters
    ----------
    df : pandas.DataFrame
        Tidy data, one or more rows per (subject, level) (averaged).
    dv : str
        Numeric dependent variable.
    within : str
        Within-subject factor (at least two levels).
    subject : str
        Subject identifier.

    Returns
    -------
    pandas.DataFrame
        One row: ``source`` (``within``), ``ddof1`` (k − 1), ``ddof2`` ((k − 1)(n − 1), uncorrected), ``f``,
        ``p_unc``, ``p_gg`` (Greenhouse–Geisser corrected), ``epsilon``, ``ng2``, ``n`` (complete subjects),
        ``n_dropped`` (subjects missing a level), ``note`` ("" when every number is defined).

    References
    ----------
    Greenhouse, S. W., & Geisser, S. (1959). On methods in the analysis of profile data. Psychometrika 24, 95–112.

    See Also
    --------
    pingouin.rm_anova
    """
    wide, dropped = _wide(df, dv, within, subject, "rm_anova")
    n, k = wide.shape
    row = dict.fromkeys(RM_ANOVA_COLUMNS, np.nan)
    row.update(source=within, ddof1=k - 1, ddof2=(k - 1) * max(n - 1, 0), n=n, n_dropped=dropped, note="")
    y = wide.to_numpy(dtype=float)
    total = float(((y - y.mean()) ** 2).sum()) if n else 0.0
    if n < 2:
        row["note"] = (
            f"{n} participant(s) with every {within}: the F test needs two or more (no error degrees of freedom)"
        )
    elif residual_ss(y) <= 1e-12 * max(total, 1.0):
        row["note"] = (
            f"no error variance: every participant's means differ from the {within} means by the same constant "
            "(e.g. every answer equally accurate), so F = effect / error is undefined"
        )
    else:
        long = wide.stack().rename(dv).reset_index()
        with _quiet_pingouin():
            res = pg.rm_anova(data=long, dv=dv, within=within, subject=subject, correction=True, detailed=False)
        r = res.iloc[0]
        row.update(
            f=float(r["F"]),
            p_unc=float(r["p_unc"]),
            p_gg=float(r.get("p_GG_corr", r["p_unc"])),
            epsilon=float(r["eps"]),
            ng2=float(r["ng2"]),
        )
    if dropped:
        row["note"] = "; ".join(
            filter(None, [row["note"], f"{dropped} participant(s) without every {within} dropped (listwise)"])
        )
    out = pd.DataFrame([row], columns=RM_ANOVA_COLUMNS)
    return out.astype({"ddof1": "int64", "ddof2": "int64", "n": "int64", "n_dropped": "int64"})


PAIRWISE_COLUMNS = ["a", "b", "estimate", "t", "dof", "p_unc", "p_holm", "hedges", "n", "note"]


def pairwise_within(df: pd.DataFrame, dv: str, within: str, subject: str) -> pd.DataFrame:
    """Paired t-tests between every two levels of a within-subject factor, Holm-adjusted (pingouin.pairwise_tests).

    For levels *a* < *b*, :math:`d_i = y_{ia} - y_{ib}` over the complete subjects,
    :math:`t = \\bar d / (s_d / \\sqrt n)` with n − 1 dof, two-sided; Holm (1979): the *m* p-values sorted
    ascending, :math:`p^{H}_{(i)} = \\max_{j \\le i} \\min(1, (m - j + 1)\\, p_{(j)})`.

    Parameters
    ----------
    df : pandas.DataFrame
        Tidy data, one or more rows per (subject, level) (averaged).
    dv, within, subject : str
        As for :func:`rm_anova` (complete subjects only, the same ones).

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``a``, ``b``, ``estimate`` (mean of ``y_a − y_b``), ``t``, ``dof``, ``p_unc``,
        ``p_holm``, ``hedges`` (Hedges' g), ``n`` (subjects), ``note`` (why t is undefined: constant differences
        or fewer than two subjects; those pairs are left out of the Holm family).

    References
    ----------
    Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scand. J. Statistics 6, 65–70.

    See Also
    --------
    pingouin.pairwise_tests
    """
    wide, _ = _wide(df, dv, within, subject, "pairwise_within")
    n = len(wide)
    rows = []
    for a, b in ((a, b) for i, a in enumerate(wide.columns) for b in wide.columns[i + 1 :]):
        d = (wide[a] - wide[b]).to_numpy(dtype=float)
        row = dict.fromkeys(PAIRWISE_COLUMNS, np.nan)
        row.update(a=a, b=b, estimate=float(d.mean()) if n else np.nan, dof=float(n - 1), n=n, note="")
        if n < 2:
            row["note"] = "needs two or more participants with both types"
        elif np.ptp(d) <= 1e-12 * max(float(np.abs(d).max()), 1.0):
            row["note"] = "every participant's difference is the same: t undefined (no variance)"
        rows.append(row)
    out = pd.DataFrame(rows, columns=PAIRWISE_COLUMNS)
    ok = out["note"] == ""
    if ok.any():
        long = wide.stack().rename(dv).reset_index()
        keep = set(out.loc[ok, "a"]) | set(out.loc[ok, "b"])
        with _quiet_pingouin():
            res = pg.pairwise_tests(
                data=long[long[within].isin(keep)], dv=dv, within=within, subject=subject, padjust="none"
            )
        by_pair = {(r.A, r.B): r for r in res.itertuples(index=False)}
        for i in out.index[ok]:
            r = by_pair[(out.at[i, "a"], out.at[i, "b"])]
            out.loc[i, ["t", "p_unc", "hedges"]] = [float(r.T), float(r.p_unc), float(r.hedges)]
        # Holm over the defined tests only (pingouin's padjust would count pairs this function left out)
        out.loc[ok, "p_holm"] = pg.multicomp(out.loc[ok, "p_unc"].to_numpy(dtype=float), method="holm")[1]
    return out.astype({"n": "int64"})


def observer_effect(
    df: pd.DataFrame,
    dv: str = "log_error",
    observer: str = "observer",
    reference: str = "human",
    welch: bool = True,
) -> pd.DataFrame:
    """Compare every observer with the reference observer (humans) by a two-sample t-test.

    For each observer *o* other than ``reference``, :func:`two_sample_t` of ``dv`` for *o* (x) against
    ``dv`` for the reference (y), so a negative ``t``/``estimate`` means *o* has the smaller value (e.g. a
    model with lower error than people).

    The rows of ``df`` are taken as independent observations. Aggregate first if they are not -- e.g. to
    one value per (observer, stimulus) as Study III does, or per participant.

    Parameters
    ----------
    df : pandas.DataFrame
        Tidy data with an observer column.
    dv : str, default "log_error"
        Numeric dependent variable.
    observer : str, default "observer"
        Column naming the observer of each row ("human", "vgg19", ...).
    reference : str, default "human"
        The observer everyone else is compared with.
    welch : bool, default True
        Welch's unequal-variance test (see :func:`two_sample_t`).

    Returns
    -------
    pandas.DataFrame
        One row per non-reference observer (in order of first appearance): ``<observer>`` plus the
        :func:`two_sample_t` columns (``n`` = both samples together).
    """
    check_frame(df, numeric=dv, keys=observer, where="observer_effect")
    check_contains(df, observer, reference, where="observer_effect")
    ref = df.loc[df[observer] == reference, dv]
    others = [o for o in pd.unique(df[observer]) if o != reference]
    rows = [two_sample_t(df.loc[df[observer] == o, dv], ref, welch=welch) for o in others]
    out = pd.concat(rows, ignore_index=True)
    out.insert(0, observer, others)
    return out


def fisher_z_interval(r, n: int, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Confidence interval of Pearson's r from n pairs (one r or an array of them):
    tanh(artanh r ± z_{1-α/2} / √(n − 3)); NaN when n ≤ 3 (:func:`fisher_z_note` says why)."""
    r = np.asarray(r, dtype=float)
    if n <= 3:
        return np.full(r.shape, np.nan), np.full(r.shape, np.nan)
    half = stats.norm.ppf(0.5 + confidence / 2.0) / np.sqrt(n - 3)
    z = np.arctanh(np.clip(r, -1 + 1e-15, 1 - 1e-15))
    return np.tanh(z - half), np.tanh(z + half)


def fisher_z_note(n: int) -> str:
    """Why :func:`fisher_z_interval` gave no interval for ``n`` pairs ("" when it gave one): its standard error
    1/√(n − 3) needs n > 3."""
    if n > 3:
        return ""
    return f"no confidence interval: n = {n} pairs, and the Fisher-z interval needs n > 3 (SE = 1/sqrt(n - 3))"


def pearson(x, y, confidence: float = 0.95) -> pd.DataFrame:
    """Pearson correlation with a Fisher-z confidence interval (pingouin.corr).

    .. math:: r = \\frac{\\sum (x_i - \\bar x)(y_i - \\bar y)}{\\sqrt{\\sum (x_i - \\bar x)^2 \\sum (y_i - \\bar y)^2}},
              \\qquad \\text{CI} = \\tanh\\left(\\operatorname{artanh} r
              \\pm \\frac{z_{1-\\alpha/2}}{\\sqrt{n - 3}}\\right)

    Parameters
    ----------
    x, y : array-like of float
        Same length, at least 3 values. The interval needs n > 3 (NaN otherwise, with a ``note`` saying so).

    Returns
    -------
    pandas.DataFrame
        One row: ``r``, ``ci_low``, ``ci_high``, ``p_val`` (two-sided, t-test of r with n - 2 dof), ``n``,
        ``note`` (why a value is missing; "" when nothing is).

    See Also
    --------
    pingouin.corr, scipy.stats.pearsonr
    """
    x = as_float_array(x, "x", where="pearson", min_size=3)
    y = as_float_array(y, "y", where="pearson", min_size=3)
    check_same_length(x, y, where="pearson")
    check_not_constant(x, "x", where="pearson")
    check_not_constant(y, "y", where="pearson")
    with _quiet_pingouin(), warnings.catch_warnings():
        # pingouin's own (rounded) interval divides by n - 3 and takes artanh(r); ours is computed below
        warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"pingouin")
        res = pg.corr(x, y, method="pearson")
    r = float(res["r"].iloc[0])
    n = x.size
    low, high = (float(bound) for bound in fisher_z_interval(r, n, confidence))
    return pd.DataFrame(
        [
            {
                "r": r,
                "ci_low": low,
                "ci_high": high,
                "p_val": float(res["p_val"].iloc[0]),
                "n": n,
                "note": fisher_z_note(n),
            }
        ],
        columns=CORR_COLUMNS,
    )
