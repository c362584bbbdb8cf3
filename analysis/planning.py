"""Sample-size planning: the power of a study's own test at n = 10, 20, …, 200 participants, simulated from the
study's design and the variance its pilot shows (`flask plan`, docs/methods.md "Sample-size planning").

Each kind of study simulates the test its report prints, not its bootstrap:

* ``ratio`` (ratio estimation): the post hoc paired t-test between two chart types a and b of each participant's
  mean log error (:func:`analysis.inference.pairwise_within`), two-sided, Holm-adjusted over every pair of the
  study's chart types. The effect is MLAE_b − MLAE_a in log2 units, MLAE = log2(|judged − true| + 1/8).
  A participant's k chart-type means are multivariate normal, y_i ~ N(μ, Σ). With a pilot, Σ is the pilot's own
  covariance of chart-type means over its participants with every type (so each pair differs with its own
  variance, Var(y_b − y_a) = Σ_aa + Σ_bb − 2Σ_ab), moved to the planned trials per type m:
  Σ + σ_w²(1/m − 1/m̃) I, m̃ the pilot's harmonic mean trials per cell (negative eigenvalues set to 0). Without one
  (fewer than two complete participants), Σ = (σ_int² + σ_w²/m) I: y_ij = μ_j + b_i + c_ij + ē_ij, c_ij ~ N(0, σ_int²)
  the participant × type variation, ē_ij the mean of m trial errors, N(0, σ_w²/m), b_i cancelling in every paired
  difference, and every pair differing with the same variance. μ: the pilot's type means, the compared pair moved
  symmetrically about its pilot midpoint to differ by the effect.
* ``accuracy`` (HIVE): the one-sample t-test of participants' accuracy (percent of m trials right) against chance,
  one-sided "greater" or two-sided (agreement) as :func:`analysis.hive_statistics.accuracy_summary` runs it.
  Participant i's accuracy is k_i/m with k_i ~ Binomial(m, p_i), p_i ~ Beta with mean = the stated accuracy and
  SD τ (between participants). The effect is that accuracy as a proportion (0.6 = 60 %).
* ``ratings`` (hypothesis rating): one rating per participant, the share agreeing (rating 5–7) against a reference
  share p0: significant when p0 lies outside Wilson's score interval (the interval the report prints,
  :func:`analysis.ratings.agreement`), i.e. the two-sided score test. The effect is the share agreeing (0–1).

The variance components come from the pilot when it can estimate them, else from documented defaults (each
plan's ``sources`` says which); a pilot too small for a component is said in ``notes``. Power is the share of
``reps`` simulated cohorts whose test rejects at ``alpha``, with a Wilson interval for its Monte Carlo error
(Wilson 1927). The n needed is the smallest n of the grid whose power reaches the target.

References: Holm (1979); Wilson (1927); for planning from a pilot's interval rather than its point estimate,
Perugini, Gallucci & Costantini (2014), "Safeguard power as a protection against imprecise power estimates",
Perspectives on Psychological Science 9, 319–332.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from scipy import stats

from ._checks import check_frame, check_number, check_positive_int
from .hive_statistics import METHOD_NAMES, HiveTask, accuracy_summary, check_task, participant_accuracy
from .inference import one_sample_t, residual_ss
from .published import published
from .ratings import AGREE_FROM, agreement

__all__ = ["Plan", "plan_hive", "plan_ratings", "plan_ratio", "power_figure"]

DEFAULT_NS = tuple(range(10, 201, 10))
DEFAULT_REPS = 2000
DEFAULT_POWER = 0.8
DEFAULT_ALPHA = 0.05
POWER_COLUMNS = ["n", "power", "power_ci_low", "power_ci_high", "effect", "alpha", "reps"]
#: SD of log2|e| for normally distributed errors e of any scale: sqrt(π²/8) / ln 2 (the 1/8 offset ignored), the
#: default within-participant SD of a ratio trial's log error when no pilot has two trials in a cell.
SIGMA_WITHIN_DEFAULT = math.sqrt(math.pi**2 / 8) / math.log(2)
#: Without a pilot, no participant × chart-type variation: participants who differ by one factor on every chart
#: type (errors e scaled by a skill s) differ by a constant log2 s, which the paired test cancels.
SIGMA_INTER_DEFAULT = 0.0
#: Reference share for ratings without --versus: a majority agreeing (or disagreeing).
VERSUS_DEFAULT = 0.5


@dataclass
class Plan:
    """A power table (:data:`POWER_COLUMNS`, one row per n) and what it rests on."""

    kind: str
    test: str  # the report's test, in words
    effect: float
    null: float  # 0 (ratio), chance (accuracy) or the reference share (ratings), in the effect's unit
    target: float
    alpha: float
    reps: int
    table: pd.DataFrame
    n_needed: int | None
    design: dict[str, Any]
    components: dict[str, float]
    sources: dict[str, str]  # component -> "pilot" or the default's source
    pilot: dict[str, Any] | None = None  # n, estimate, ci_low, ci_high, bound, n_needed, table
    notes: list[str] = field(default_factory=list)

    def json(self) -> dict[str, Any]:
        """Every number, NaN-free (None), for ``--json`` and the dashboard."""
        pilot = None
        if self.pilot is not None:
            pilot = {k: v for k, v in self.pilot.items() if k != "table"}
            table = self.pilot.get("table")
            pilot["table"] = None if table is None else table.to_dict("records")
        return _finite(
            {
                "kind": self.kind,
                "test": self.test,
                "effect": self.effect,
                "null": self.null,
                "target": self.target,
                "alpha": self.alpha,
                "reps": self.reps,
                "n_needed": self.n_needed,
                "design": self.design,
                "components": self.components,
                "sources": self.sources,
                "table": self.table.to_dict("records"),
                "pilot": pilot,
                "notes": self.notes,
            }
        )

    def text(self) -> str:
        """The plan as a readable report: what was simulated, the table, the n needed, the pilot's bound."""
        lines = [f"Test: {self.test}", f"Design: {_pairs(self.design)}"]
        parts = [f"{k} = {v:.4g} ({self.sources[k]})" for k, v in self.components.items()]
        lines.append("Variance: " + ("; ".join(parts) or "none to estimate (one binomial rating per participant)"))
        lines.append(f"Effect {self.effect:g} vs {self.null:g}, alpha {self.alpha:g}, {self.reps} cohorts per n")
        lines.append("")
        lines.append(f"{'n':>5} {'power':>7}  Monte Carlo 95 %")
        for r in self.table.itertuples():
            lines.append(f"{r.n:>5} {r.power:>7.3f}  [{r.power_ci_low:.3f}, {r.power_ci_high:.3f}]")
        lines.append("")
        lines.append(_needed(self.n_needed, self.target, self.table, f"effect {self.effect:g}"))
        if self.pilot is not None:
            p = self.pilot
            defined = math.isfinite(p["ci_low"]) and math.isfinite(p["ci_high"])
            interval = f"[{p['ci_low']:.4g}, {p['ci_high']:.4g}]" if defined else "undefined"
            lines.append(f"Pilot ({p['n']} participants): estimate {p['estimate']:.4g}, 95 % interval {interval}")
            if p["bound"] is not None:
                lines.append("  " + _needed(p["n_needed"], self.target, p["table"], f"its bound {p['bound']:.4g}"))
            elif defined:  # an undefined interval has its note
                lines.append("  its interval reaches the null value: no n is planned at its bound")
        lines += [f"Note: {n}" for n in self.notes]
        return "\n".join(lines) + "\n"


def _finite(value: Any) -> Any:
    """``value`` with every NaN or infinite float (in dicts and lists, at any depth) replaced by None."""
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _pairs(d: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in d.items())


def _needed(n: int | None, target: float, table: pd.DataFrame, what: str) -> str:
    if n is not None:
        return f"n needed for power {target:g} at {what}: {n}"
    return f"power {target:g} at {what} is not reached by n = {int(table['n'].max())} (the largest simulated)"


# --------------------------------------------------------------------------------------------------
# Shared machinery


def _pilot_percent(n: int, estimate: float, ci_low: float, ci_high: float) -> dict[str, Any]:
    """The pilot's estimate and interval, given in percent by the reports, as proportions like the stated effect."""
    return {"n": n, "estimate": estimate / 100, "ci_low": ci_low / 100, "ci_high": ci_high / 100}


def _check_common(effect, target, alpha, reps, ns, where: str) -> tuple[float, float, float, int, list[int]]:
    effect = check_number(effect, "effect", where=where)
    target = check_number(target, "power", minimum=0, where=where)
    alpha = check_number(alpha, "alpha", minimum=0, where=where)
    if not 0 < target < 1 or not 0 < alpha < 1:
        raise ValueError(f"{where}: power and alpha must lie strictly between 0 and 1 (got {target:g}, {alpha:g})")
    reps = check_positive_int(reps, "reps", where=where)
    ns = sorted({check_positive_int(n, "n", where=where) for n in ns})
    if not ns or ns[0] < 2:
        raise ValueError(f"{where}: every n must be at least 2 (a test needs two participants)")
    return effect, target, alpha, reps, ns


#: Cohorts × participants simulated in one call of a ``hits`` function: its arrays hold a value per cell and per
#: comparison, so large ``--reps`` × ``--n-max`` grids run in slices instead of exhausting memory.
CELLS_AT_ONCE = 1_000_000


def _power_table(hits, ns: list[int], reps: int, effect: float, alpha: float, seed: int) -> pd.DataFrame:
    """Power at each n: the share of ``reps`` cohorts for which ``hits(n, reps, rng)`` (bool per cohort) rejects,
    with the Wilson interval of that share. One generator per n, so a row does not depend on the grid."""
    rows = []
    for n in ns:
        rng, per = np.random.default_rng([seed, n]), max(1, CELLS_AT_ONCE // n)
        k = sum(int(np.count_nonzero(hits(n, min(per, reps - done), rng))) for done in range(0, reps, per))
        ci = stats.binomtest(k, reps).proportion_ci(0.95, method="wilson")
        rows.append([n, k / reps, ci.low, ci.high, effect, alpha, reps])
    return pd.DataFrame(rows, columns=POWER_COLUMNS).astype({"n": "int64", "reps": "int64"})


def _n_needed(table: pd.DataFrame, target: float) -> int | None:
    reached = table.loc[table["power"] >= target, "n"]
    return int(reached.min()) if len(reached) else None


def _bound(low: float, high: float, null: float) -> float | None:
    """The end of the pilot's interval nearer the null value; None when the interval reaches the null."""
    if low > null:
        return float(low)
    if high < null:
        return float(high)
    return None


def _plan(kind, test, hits_at, effect, null, target, alpha, reps, ns, seed, design, comps, sources, pilot, notes):
    table = _power_table(hits_at(effect), ns, reps, effect, alpha, seed)
    if pilot is not None:
        if math.isfinite(pilot["ci_low"]) and math.isfinite(pilot["ci_high"]):
            bound = _bound(pilot["ci_low"], pilot["ci_high"], null)
        else:
            bound = None
            notes.append(
                "the pilot's interval is undefined (its participants do not vary): no n is planned at its bound"
            )
        pilot["bound"] = bound
        pilot["table"] = None if bound is None else _power_table(hits_at(bound), ns, reps, bound, alpha, seed)
        pilot["n_needed"] = None if bound is None else _n_needed(pilot["table"], target)
    return Plan(
        kind, test, effect, null, target, alpha, reps, table, _n_needed(table, target), design, comps, sources, pilot,
        notes,
    )  # fmt: skip


def _holm(p: np.ndarray) -> np.ndarray:
    """Holm (1979) adjusted p-values along the last axis: sorted ascending, p_(i) (m − i + 1), running maximum."""
    order = np.argsort(p, axis=-1)
    ranked = np.take_along_axis(p, order, axis=-1) * (p.shape[-1] - np.arange(p.shape[-1]))
    ranked = np.minimum(np.maximum.accumulate(ranked, axis=-1), 1.0)
    out = np.empty_like(p)
    np.put_along_axis(out, order, ranked, axis=-1)
    return out


# --------------------------------------------------------------------------------------------------
# Ratio estimation


def ratio_hits(n, reps, rng, means, pair, factor, alpha) -> np.ndarray:
    """Cohorts (``reps`` of ``n`` participants, k = len(means) chart types) of participant means y = μ + F z (F F' =
    Σ, z standard normal) whose paired t-test of types ``pair`` rejects at ``alpha`` after Holm's correction over all
    k(k − 1)/2 pairs."""
    k = len(means)
    y = np.asarray(means, dtype=float) + rng.standard_normal((reps, n, k)) @ np.asarray(factor, dtype=float).T
    a, b = np.triu_indices(k, 1)
    d = y[:, :, a] - y[:, :, b]
    t = d.mean(axis=1) / (d.std(axis=1, ddof=1) / math.sqrt(n))
    p = 2 * stats.t.sf(np.abs(t), n - 1)
    which = int(np.flatnonzero((a == pair[0]) & (b == pair[1]))[0])
    return _holm(p)[:, which] < alpha


def ratio_covariance(trials: pd.DataFrame, types: list, per_cell: int, sigma_within: float) -> tuple[Any, int]:
    """The covariance of chart-type means (k × k, types in order) over the pilot's participants with every type,
    moved from the pilot's harmonic mean trials per cell m̃ to ``per_cell``: S + σ_w²(1/m − 1/m̃) I, negative
    eigenvalues (a plan with more trials than the pilot, whose S is noisy) set to 0; and how many participants it
    rests on. None below two participants."""
    cells = trials.groupby(["participant_id", "chart_type"])["log_error"].agg(["mean", "count"])
    wide = cells["mean"].unstack("chart_type").reindex(columns=types).dropna()
    if len(wide) < 2:
        return None, len(wide)
    m = stats.hmean(cells["count"].to_numpy())
    cov = np.cov(wide.to_numpy(dtype=float), rowvar=False)
    cov += sigma_within**2 * (1 / per_cell - 1 / m) * np.eye(len(types))
    values, vectors = np.linalg.eigh(cov)
    return (vectors * np.clip(values, 0, None)) @ vectors.T, len(wide)


def ratio_components(trials: pd.DataFrame, types: list) -> tuple[dict, dict, list[str]]:
    """σ_w (trial SD within participant × type cells, pooled over cells with ≥ 2 trials) and σ_int (participant ×
    type SD: the two-way residual mean square of cell means, (SS_res/((n − 1)(k − 1))), less σ_w²/m̃, m̃ the
    harmonic mean trials per cell; 0 when negative), over participants with every type."""
    notes, comps, sources = [], {}, {}
    cells = trials.groupby(["participant_id", "chart_type"])["log_error"].agg(["mean", "var", "count"])
    multi = cells[cells["count"] >= 2]
    if len(multi):
        comps["sigma_within"] = math.sqrt(
            float(((multi["count"] - 1) * multi["var"]).sum() / (multi["count"] - 1).sum())
        )
        sources["sigma_within"] = f"pilot, {len(multi)} cells"
    else:
        comps["sigma_within"] = SIGMA_WITHIN_DEFAULT
        sources["sigma_within"] = "default: SD of log2|e| for normal errors"
        notes.append("the pilot has no participant × chart type cell with two trials: σ_within is the default")
    wide = cells["mean"].unstack("chart_type").reindex(columns=types).dropna()
    n, k = wide.shape
    if n >= 2:
        m = stats.hmean(cells["count"].to_numpy())
        ms = residual_ss(wide.to_numpy(dtype=float)) / ((n - 1) * (k - 1))
        comps["sigma_inter"] = math.sqrt(max(0.0, ms - comps["sigma_within"] ** 2 / m))
        sources["sigma_inter"] = f"pilot, {n} participants"
    else:
        comps["sigma_inter"] = SIGMA_INTER_DEFAULT
        sources["sigma_inter"] = "default: none (a skill factor common to all chart types)"
        notes.append(
            f"the pilot has {n} participant(s) with every chart type: too few to estimate the participant × chart "
            "type variance (two or more needed); σ_inter is the default"
        )
    return comps, sources, notes


def plan_ratio(
    pilot: pd.DataFrame | None,
    types: list,
    pair: tuple,
    per_cell: int,
    effect: float,
    target: float = DEFAULT_POWER,
    alpha: float = DEFAULT_ALPHA,
    reps: int = DEFAULT_REPS,
    ns=DEFAULT_NS,
    seed: int = 0,
) -> Plan:
    """Power of the ratio report's post hoc test of chart types ``pair`` = (a, b) for an effect MLAE_b − MLAE_a
    (log2 units) at each n; see the module docstring for the model.

    Parameters
    ----------
    pilot : pandas.DataFrame or None
        The pilot's test trials: ``participant_id``, ``chart_type``, ``log_error`` (completed participants only).
    types : list
        The study's chart types (the Holm family is every pair of them).
    pair : tuple
        The two chart types (a, b) compared, both in ``types``.
    per_cell : int
        Test trials per participant and chart type, as the study plans them.
    effect : float
        MLAE_b − MLAE_a in log2 units, non-zero.
    target, alpha : float
        Power wanted and the test's level.
    reps : int
        Simulated cohorts per n.
    ns : iterable of int
        Cohort sizes.
    seed : int

    Returns
    -------
    Plan
        ``table`` with columns :data:`POWER_COLUMNS`; ``pilot`` holds the pilot's mean paired difference b − a,
        its 95 % t interval, the bound nearer 0 and the n needed there.
    """
    where = "plan_ratio"
    effect, target, alpha, reps, ns = _check_common(effect, target, alpha, reps, ns, where)
    per_cell = check_positive_int(per_cell, "per_cell", where=where)
    types = list(types)
    if len(pair) != 2 or pair[0] == pair[1] or any(t not in types for t in pair):
        raise ValueError(f"{where}: name two different chart types of {types}, got {list(pair)}")
    if effect == 0:
        raise ValueError(f"{where}: the effect (MLAE difference, log2 units) must not be 0")
    ia, ib = sorted((types.index(pair[0]), types.index(pair[1])))
    sign = 1.0 if types.index(pair[0]) == ia else -1.0  # means[ib] − means[ia] = sign × effect
    design = {"chart_types": len(types), "trials_per_type": per_cell, "compared": f"{pair[1]} − {pair[0]}"}
    notes: list[str] = []
    pilot_out = None
    if pilot is not None and len(pilot):
        check_frame(pilot, numeric="log_error", keys=["participant_id", "chart_type"], where=where)
        comps, sources, notes = ratio_components(pilot, types)
        cov, complete = ratio_covariance(pilot, types, per_cell, comps["sigma_within"])
        wide = pilot.groupby(["participant_id", "chart_type"])["log_error"].mean().unstack("chart_type")
        wide = wide.reindex(columns=types)
        base = wide.mean().fillna(wide.mean().mean()).fillna(0.0).to_numpy(dtype=float)
        diff = (wide[pair[1]] - wide[pair[0]]).dropna()
        if len(diff) >= 2 and diff.std() > 0:
            t = one_sample_t(diff).iloc[0]
            pilot_out = {"n": len(diff), "estimate": t["estimate"], "ci_low": t["ci_low"], "ci_high": t["ci_high"]}
        else:
            notes.append(f"the pilot has {len(diff)} participant(s) with both chart types: no interval of its effect")
    else:
        comps = {"sigma_within": SIGMA_WITHIN_DEFAULT, "sigma_inter": SIGMA_INTER_DEFAULT}
        sources = {
            "sigma_within": "default: SD of log2|e| for normal errors",
            "sigma_inter": "default: none (a skill factor common to all chart types)",
        }
        base, cov = np.zeros(len(types)), None
        notes.append(
            "no pilot data: the variance components are defaults and the other chart types sit at the compared "
            "pair's mean (Holm's correction at its strictest); plan from a pilot for the study's own variance"
        )

    if cov is None:
        cov = (comps["sigma_inter"] ** 2 + comps["sigma_within"] ** 2 / per_cell) * np.eye(len(types))
        model = "participants' chart-type means N(μ, (σ_inter² + σ_within²/m) I): every pair with the same variance"
        sources["var_pair"] = "2(σ_inter² + σ_within²/m)"
    else:
        model = (
            f"participants' chart-type means N(μ, Σ), Σ the pilot's covariance of chart-type means ({complete} "
            f"participants with every type) at {per_cell} trials per type: each pair with its own variance"
        )
        sources["var_pair"] = f"pilot covariance, {complete} participants: Var({pair[1]}) + Var({pair[0]}) − 2 Cov"
        sources["sigma_inter"] += "; shown, not simulated: the covariance replaces it"
    comps["var_pair"] = float(cov[ia, ia] + cov[ib, ib] - 2 * cov[ia, ib])
    values, vectors = np.linalg.eigh(cov)
    factor = vectors * np.sqrt(np.clip(values, 0, None))

    def hits_at(value):
        # The compared pair moves symmetrically about its pilot midpoint (docs/researchers.md says why).
        means = base.copy()
        centre = (means[ia] + means[ib]) / 2
        means[ia], means[ib] = centre - sign * value / 2, centre + sign * value / 2
        return lambda n, r, rng: ratio_hits(n, r, rng, means, (ia, ib), factor, alpha=alpha)

    test = (
        f"paired t-test of chart type {pair[1]} vs {pair[0]} (participants' mean log2 error), two-sided, Holm over "
        f"the {len(types) * (len(types) - 1) // 2} pairs of {len(types)} chart types; model: {model}"
    )
    return _plan(
        "ratio", test, hits_at, effect, 0.0, target, alpha, reps, ns, seed, design, comps, sources, pilot_out, notes
    )


# --------------------------------------------------------------------------------------------------
# HIVE


def hive_hits(n, reps, rng, accuracy, chance, tau, trials, alternative, alpha) -> np.ndarray:
    """Cohorts whose one-sample t-test of participant accuracies against ``chance`` rejects (as accuracy_summary:
    a participant-constant cohort, t undefined, is not counted as significant)."""
    if tau > 0:
        nu = accuracy * (1 - accuracy) / tau**2 - 1  # Beta(μν, (1 − μ)ν) has mean μ and variance μ(1 − μ)/(ν + 1)
        p = rng.beta(accuracy * nu, (1 - accuracy) * nu, (reps, n))
    else:
        p = np.full((reps, n), accuracy)
    acc = rng.binomial(trials, p) / trials
    sd = acc.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (acc.mean(axis=1) - chance) / (sd / math.sqrt(n))
    pv = stats.t.sf(t, n - 1) if alternative == "greater" else 2 * stats.t.sf(np.abs(t), n - 1)
    return (sd > 0) & (pv < alpha)


def hive_default_sd(task: HiveTask, method: str | None) -> tuple[float, str]:
    """The mean SD over participants of HIVE's published accuracies for the task (and method, when it has rows), as
    a proportion; it includes the binomial noise of HIVE's trials, so as τ it overstates the spread (conservative)."""
    rows = published("HIVE2022", measure="accuracy")
    rows = rows[rows["study"].str.startswith(task.name) & (rows["spread_kind"] == "sd_over_participants")]
    name = METHOD_NAMES.get(method)
    own = rows[rows["condition"].str.startswith(name)] if name else rows.iloc[:0]
    use = own if len(own) else rows
    what = f"{name} " if len(own) else ""
    return float(
        use["spread"].mean()
    ) / 100, f"default: HIVE 2022 {task.name} {what}SD over participants (mean of {len(use)})"


def plan_hive(
    pilot: pd.DataFrame | None,
    task: HiveTask,
    method: str | None,
    trials: int,
    effect: float,
    target: float = DEFAULT_POWER,
    alpha: float = DEFAULT_ALPHA,
    reps: int = DEFAULT_REPS,
    ns=DEFAULT_NS,
    seed: int = 0,
) -> Plan:
    """Power of the HIVE report's test of accuracy against chance (all test trials) for a stated mean accuracy.

    Parameters
    ----------
    pilot : pandas.DataFrame or None
        The pilot's test trials of completed participants: ``participant_id``, ``model_correct``, ``correct``.
    task : HiveTask
        The HIVE task the study runs (its task type says which): its chance and the test's sidedness.
    method : str or None
        The explanation method (gradcam, bagnet, protopnet, prototree): picks the published SD without a pilot.
    trials : int
        Test trials per participant, as the study plans them.
    effect : float
        Mean accuracy as a proportion (0.6 = 60 %), in (0, 1), ≠ chance; above chance for a one-sided test.
    target, alpha, reps, ns, seed
        As for :func:`plan_ratio`.

    Returns
    -------
    Plan
        Effects and the pilot's estimate in proportions; τ, the SD of participants' true accuracy, from the pilot
        by moments (var(k/m) − p̄(1 − p̄)/m)/(1 − 1/m), else :func:`hive_default_sd`.
    """
    where = "plan_hive"
    effect, target, alpha, reps, ns = _check_common(effect, target, alpha, reps, ns, where)
    check_task(task, where)
    trials = check_positive_int(trials, "trials", where=where)
    chance_pct, alternative = task.chance, task.alternative
    chance = chance_pct / 100
    if not 0 < effect < 1:
        raise ValueError(
            f"{where}: give the accuracy as a proportion between 0 and 1 (e.g. 0.6 for 60 %), not {effect:g}"
        )
    if effect == chance or (alternative == "greater" and effect < chance):
        side = "above" if alternative == "greater" else "different from"
        raise ValueError(f"{where}: the report tests accuracy {side} chance ({chance:g}); {effect:g} is not")
    notes: list[str] = []
    pilot_out = None
    sources = {}
    tau = None
    if pilot is not None and len(pilot):
        per = participant_accuracy(pilot)
        per = per[per["condition"] == "all"]
        if len(per) >= 2:
            acc, m = per["accuracy"].to_numpy() / 100, stats.hmean(per["n_trials"].to_numpy())
            p_bar = acc.mean()
            raw = (acc.var(ddof=1) - p_bar * (1 - p_bar) / m) / (1 - 1 / m) if m > 1 else acc.var(ddof=1)
            tau, sources["tau"] = math.sqrt(max(0.0, raw)), f"pilot, {len(per)} participants"
            summary = accuracy_summary(per, chance_pct, alternative).set_index("condition").loc["all"]
            pilot_out = _pilot_percent(len(per), summary["mean"], summary["ci_low"], summary["ci_high"])
        else:
            notes.append(
                f"the pilot has {len(per)} participant(s): too few to estimate the spread between participants "
                "(two or more needed); τ is the published default"
            )
    else:
        notes.append("no pilot data: τ is the published default; plan from a pilot for the study's own spread")
    if tau is None:
        tau, sources["tau"] = hive_default_sd(task, method)
    limit = math.sqrt(effect * (1 - effect))
    design = {"trials_per_participant": trials, "chance": chance, "alternative": alternative}

    def hits_at(value):
        most = 0.99 * math.sqrt(value * (1 - value))  # a Beta's SD is below sqrt(μ(1 − μ))
        t = min(tau, most)
        return lambda n, r, rng: hive_hits(n, r, rng, value, chance, t, trials, alternative, alpha)

    if tau >= 0.99 * limit:
        notes.append(f"τ {tau:.3f} is at or above what a mean of {effect:g} allows: capped at {0.99 * limit:.3f}")
    test = (
        f"one-sample t-test of participants' accuracy against chance {chance:g} "
        f"({'one-sided, greater' if alternative == 'greater' else 'two-sided'})"
    )
    return _plan(
        "accuracy", test, hits_at, effect, chance, target, alpha, reps, ns, seed, design, {"tau": tau}, sources,
        pilot_out, notes,
    )  # fmt: skip


# --------------------------------------------------------------------------------------------------
# Hypothesis ratings


def wilson_rejects(agree: np.ndarray, n: int, versus: float, alpha: float) -> np.ndarray:
    """Whether ``versus`` lies outside Wilson's score interval of agree/n at level 1 − alpha:
    (p̂ + z²/2n ± z √(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n)."""
    z = stats.norm.ppf(1 - alpha / 2)
    p = agree / n
    centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / (1 + z**2 / n)
    return (versus < centre - half) | (versus > centre + half)


def plan_ratings(
    pilot: pd.DataFrame | None,
    statement: str | None,
    effect: float,
    versus: float = VERSUS_DEFAULT,
    target: float = DEFAULT_POWER,
    alpha: float = DEFAULT_ALPHA,
    reps: int = DEFAULT_REPS,
    ns=DEFAULT_NS,
    seed: int = 0,
) -> Plan:
    """Power of the ratings report's interval of a statement's share agreeing, as a test against ``versus``.

    Parameters
    ----------
    pilot : pandas.DataFrame or None
        The pilot's ratings: ``participant_id``, ``statement_id``, ``rating`` (1–7).
    statement : str or None
        The statement whose pilot share gives the pilot's estimate (none without it).
    effect : float
        The share agreeing (rating 5–7) in the population, a proportion in (0, 1), ≠ ``versus``.
    versus : float, default 0.5
        The reference share the interval should exclude.
    target, alpha, reps, ns, seed
        As for :func:`plan_ratio`.

    Returns
    -------
    Plan
        No variance component: one binomial rating per participant.
    """
    where = "plan_ratings"
    effect, target, alpha, reps, ns = _check_common(effect, target, alpha, reps, ns, where)
    versus = check_number(versus, "versus", minimum=0, where=where)
    if not 0 < effect < 1 or not 0 < versus < 1:
        raise ValueError(f"{where}: give shares as proportions between 0 and 1 (e.g. 0.7 for 70 %)")
    if effect == versus:
        raise ValueError(f"{where}: the share agreeing {effect:g} equals the reference share: there is no effect")
    notes: list[str] = []
    pilot_out = None
    if pilot is not None and len(pilot) and statement is not None:
        check_frame(pilot, numeric="rating", keys=["participant_id", "statement_id"], where=where)
        rows = pilot[pilot["statement_id"] == statement]
        if rows["participant_id"].nunique() >= 2:
            share = agreement(rows, n_boot=2000, seed=seed).iloc[0]
            pilot_out = _pilot_percent(
                int(share["n_participants"]), share["percent_agree"], share["ci_low"], share["ci_high"]
            )
            if share["ci_method"] != "wilson":
                notes.append("the pilot's participants rated the statement more than once: its interval is a bootstrap")
        else:
            notes.append(f"the pilot has fewer than two participants who rated {statement!r}: no estimate")
    elif statement is None:
        notes.append("no statement named: the pilot's share is not estimated")
    design = {"ratings_per_participant": 1, "agree": f"rating {AGREE_FROM}-7", "versus": versus}

    def hits_at(value):
        return lambda n, r, rng: wilson_rejects(rng.binomial(n, value, r), n, versus, alpha)

    test = f"share agreeing against {versus:g}: outside Wilson's {100 * (1 - alpha):g} % score interval (two-sided)"
    return _plan(
        "ratings", test, hits_at, effect, versus, target, alpha, reps, ns, seed, design, {}, {}, pilot_out, notes
    )


# --------------------------------------------------------------------------------------------------
# Figure


def power_figure(plan: Plan, path: Path) -> Path:
    """The power curve (± its Monte Carlo 95 % interval), the target as a line, the pilot's bound's curve beside."""
    fig = Figure(figsize=(6, 4), dpi=120)
    ax = fig.add_subplot()
    curves = [(plan.table, f"effect {plan.effect:g}", "#1f5fbf")]
    if plan.pilot is not None and plan.pilot.get("table") is not None:
        curves.append((plan.pilot["table"], f"pilot's bound {plan.pilot['bound']:.3g}", "#c0392b"))
    for table, label, colour in curves:
        ax.plot(table["n"], table["power"], marker="o", markersize=3, color=colour, label=label)
        ax.fill_between(table["n"], table["power_ci_low"], table["power_ci_high"], color=colour, alpha=0.2)
    ax.axhline(plan.target, color="black", linestyle="--", linewidth=1, label=f"target {plan.target:g}")
    ax.set_xlabel("participants (n)")
    ax.set_ylabel(f"power (alpha {plan.alpha:g}, {plan.reps} cohorts per n)")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, format="png")
    return path
