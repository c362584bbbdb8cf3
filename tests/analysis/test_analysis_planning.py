"""analysis.planning against power derived independently: the noncentral t for a paired t-test, exact binomial
enumeration for Wilson's score test, the report's own HIVE function on simulated cohorts, pingouin's Holm."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pingouin as pg
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from analysis import planning
from analysis.hive_statistics import accuracy_summary
from analysis.planning import (
    SIGMA_WITHIN_DEFAULT,
    _holm,
    _power_table,
    hive_hits,
    plan_hive,
    plan_ratings,
    plan_ratio,
    ratio_components,
)
from tests.analysis.test_analysis_hive import AGREEMENT, DISTINCTION

REPS = 4000
COHORTS = 200  # the report's own test, one pingouin call each


def within_mc(plan_row, truth: float, k: float = 4.0) -> bool:
    """|simulated − true| within k Monte Carlo standard errors of the simulated share."""
    se = math.sqrt(truth * (1 - truth) / plan_row["reps"])
    return abs(plan_row["power"] - truth) <= k * max(se, 1e-3)


def test_two_chart_types_match_the_noncentral_t_of_a_paired_test():
    """Two types: one pair, Holm is the identity; d_i ~ N(δ, 2(σ_int² + σ_w²/m)), power of the two-sided paired t
    = P(|T'| > t_{1−α/2, n−1}) with T' ~ nct(n − 1, δ√n / sd_d)."""
    per_cell, effect = 5, 0.5
    plan = plan_ratio(None, [1, 2], (1, 2), per_cell, effect, reps=REPS, ns=(10, 30, 60))
    sd_d = math.sqrt(2 * SIGMA_WITHIN_DEFAULT**2 / per_cell)
    assert plan.components == {"sigma_within": SIGMA_WITHIN_DEFAULT, "sigma_inter": 0.0, "var_pair": sd_d**2}
    for row in plan.table.to_dict("records"):
        n = row["n"]
        crit = stats.t.ppf(0.975, n - 1)
        nc = effect / sd_d * math.sqrt(n)
        truth = stats.nct.sf(crit, n - 1, nc) + stats.nct.cdf(-crit, n - 1, nc)
        assert within_mc(row, truth), (n, row["power"], truth)


def _pilot_with_unequal_pairs() -> pd.DataFrame:
    """30 participants × 4 chart types × 5 trials whose cell means are drawn from a covariance in which pair 2–3
    differs with variance 0.49 and pair 1–4 with 1.16; the types' means 0, 10, 20, 30 lie so far apart that
    every other pair rejects at once, leaving the compared pair last in Holm's order (threshold α itself)."""
    rng = np.random.default_rng(11)
    cov = np.array(
        [[0.60, 0.10, 0.10, 0.02], [0.10, 0.40, 0.155, 0.10], [0.10, 0.155, 0.40, 0.10], [0.02, 0.10, 0.10, 0.60]]
    )
    z = rng.standard_normal((30, 4))
    z -= z.mean(axis=0)  # recoloured so that the sample covariance is ``cov`` exactly
    z = z @ np.linalg.inv(np.linalg.cholesky(np.cov(z, rowvar=False))).T @ np.linalg.cholesky(cov).T
    means = np.array([0.0, 10.0, 20.0, 30.0]) + z
    spread = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])  # trial deviations summing to 0: cell means stay exact
    rows = [
        {"participant_id": p, "chart_type": t + 1, "log_error": means[p, t] + s}
        for p in range(30)
        for t in range(4)
        for s in spread
    ]
    return pd.DataFrame(rows), means


def test_each_pair_is_planned_from_its_own_paired_difference_variance():
    """n for power 0.8 = the smallest n of the grid with P(|T'| > t_{1−α/2, n−1}) ≥ 0.8, T' ~ nct(n − 1, δ√n/s_d),
    s_d² the pilot's sample variance of the pair's paired difference Var(B) + Var(A) − 2 Cov(A, B) (the pilot has
    as many trials per type as the plan, so no σ_w adjustment)."""
    pilot, means = _pilot_with_unequal_pairs()
    effect, ns = 0.55, tuple(range(10, 101, 10))
    planned = {}
    for a, b in ((2, 3), (1, 4)):
        var_d = float(np.var(means[:, b - 1] - means[:, a - 1], ddof=1))
        power = {}
        for n in ns:
            crit, nc = stats.t.ppf(0.975, n - 1), effect * math.sqrt(n / var_d)
            power[n] = stats.nct.sf(crit, n - 1, nc) + stats.nct.cdf(-crit, n - 1, nc)
        hand = min(n for n in ns if power[n] >= 0.8)
        # a decisive grid: the hand n clears 0.8 and the one below misses it by over 4 Monte Carlo SEs (4000 reps)
        assert power[hand] > 0.825 and power[hand - 10] < 0.775, (a, b, power)
        plan = plan_ratio(pilot, [1, 2, 3, 4], (a, b), 5, effect, reps=REPS, ns=ns)
        assert plan.components["var_pair"] == pytest.approx(var_d, rel=1e-9)
        assert "the pilot's covariance of chart-type means (30 participants" in plan.test
        assert plan.n_needed == hand, (a, b, plan.table, power)
        planned[(a, b)] = (var_d, hand)
    assert planned[(2, 3)][0] == pytest.approx(0.49) and planned[(1, 4)][0] == pytest.approx(1.16)
    assert planned[(2, 3)][1] < planned[(1, 4)][1]


def test_wilson_test_power_matches_exact_binomial_enumeration():
    """Power = Σ_x Binom(x; n, p1) · 1[p0 outside Wilson's interval of x/n] (statsmodels' Wilson interval)."""
    plan = plan_ratings(None, None, 0.65, versus=0.5, reps=REPS, ns=(20, 50, 100))
    for row in plan.table.to_dict("records"):
        n = row["n"]
        x = np.arange(n + 1)
        low, high = proportion_confint(x, n, alpha=0.05, method="wilson")
        truth = float(stats.binom.pmf(x, n, 0.65)[(low > 0.5) | (high < 0.5)].sum())
        assert within_mc(row, truth), (n, row["power"], truth)


def test_hive_power_matches_the_reports_own_test_on_simulated_cohorts():
    """The planner's shortcut against accuracy_summary (the report's t-test) on cohorts drawn from the same model."""
    rng = np.random.default_rng(3)
    n, trials, accuracy, tau = 20, 10, 0.38, 0.15
    nu = accuracy * (1 - accuracy) / tau**2 - 1
    hits = []
    for _ in range(COHORTS):
        p = rng.beta(accuracy * nu, (1 - accuracy) * nu, n)
        right = rng.binomial(trials, p)  # the participant's right answers of `trials`, as participant_accuracy counts
        per = pd.DataFrame({"participant_id": range(n), "condition": "all", "accuracy": 100.0 * right / trials})
        per[["mean_confidence", "judged_correct_percent"]] = np.nan
        summary = accuracy_summary(per, 25.0, "greater").set_index("condition").loc["all"]
        hits.append(bool(summary["significant"]))
    table = _power_table(
        lambda m, r, g: hive_hits(m, r, g, accuracy, 0.25, tau, trials, "greater", 0.05), [n], REPS, accuracy, 0.05, 0
    )
    simulated, real = table["power"].iloc[0], float(np.mean(hits))
    se = math.sqrt(real * (1 - real) / COHORTS + simulated * (1 - simulated) / REPS)
    assert abs(simulated - real) < 4 * se, (simulated, real)
    plan = plan_hive(None, DISTINCTION, "gradcam", trials, accuracy, reps=100, ns=(n,))
    assert plan.sources["tau"].startswith("default: HIVE 2022 distinction GradCAM")


def test_holm_matches_statsmodels():
    p = np.random.default_rng(0).uniform(0, 0.2, (50, 10))
    expected = np.array([pg.multicomp(row, method="holm")[1] for row in p])
    assert np.allclose(_holm(p), expected)


def test_pilot_variance_components_are_recovered():
    """Normal cell data with σ_w = 1.3, σ_int = 0.4 and a participant effect (which must not leak into σ_int)."""
    rng = np.random.default_rng(5)
    n, k, m = 400, 5, 5
    b = rng.normal(0, 1.0, n)[:, None, None]
    c = rng.normal(0, 0.4, (n, k))[:, :, None]
    y = np.arange(k)[None, :, None] * 0.2 + b + c + rng.normal(0, 1.3, (n, k, m))
    idx = np.indices(y.shape)
    trials = pd.DataFrame({"participant_id": idx[0].ravel(), "chart_type": idx[1].ravel() + 1, "log_error": y.ravel()})
    comps, sources, notes = ratio_components(trials, [1, 2, 3, 4, 5])
    assert comps["sigma_within"] == pytest.approx(1.3, abs=0.05)
    assert comps["sigma_inter"] == pytest.approx(0.4, abs=0.07)
    assert not notes and sources["sigma_inter"] == "pilot, 400 participants"


def test_a_pilot_too_small_says_so_and_falls_back():
    one = pd.DataFrame({"participant_id": 1, "chart_type": [1, 2, 3], "log_error": [1.0, 2.0, 3.0]})
    plan = plan_ratio(one, [1, 2, 3], (1, 3), 5, 0.5, reps=200, ns=(10,))
    assert plan.sources == {
        "sigma_within": "default: SD of log2|e| for normal errors",
        "sigma_inter": "default: none (a skill factor common to all chart types)",
        "var_pair": "2(σ_inter² + σ_within²/m)",
    }
    assert any("too few to estimate the participant × chart type variance" in n for n in plan.notes)
    assert any("no participant × chart type cell with two trials" in n for n in plan.notes)
    assert plan.pilot is None
    hive = plan_hive(
        pd.DataFrame({"participant_id": 1, "model_correct": [1, 0], "correct": [1, 1]}),
        AGREEMENT, None, 10, 0.6, reps=200, ns=(10,),
    )  # fmt: skip
    assert any("1 participant(s): too few to estimate the spread" in n for n in hive.notes)


def test_the_pilot_bound_plans_more_participants_than_its_estimate():
    rng = np.random.default_rng(9)
    rows = [
        {"participant_id": p, "chart_type": t, "log_error": 1.0 + 0.6 * (t == 2) + rng.normal(0, 1.2)}
        for p in range(15)
        for t in (1, 2)
        for _ in range(5)
    ]
    plan = plan_ratio(pd.DataFrame(rows), [1, 2], (1, 2), 5, 0.6, reps=1000)
    pilot = plan.pilot
    assert 0 < pilot["ci_low"] == pilot["bound"] < pilot["estimate"]
    assert pilot["n_needed"] is None or pilot["n_needed"] >= plan.n_needed


def test_a_pilot_whose_participants_all_score_the_same_has_no_interval_and_json_stays_valid():
    same = pd.DataFrame({"participant_id": [1] * 4 + [2] * 4, "model_correct": 1, "correct": 1})
    plan = plan_hive(same, AGREEMENT, None, 4, 0.6, reps=200, ns=(10,))
    assert plan.pilot["bound"] is None and any("interval is undefined" in n for n in plan.notes)
    text = plan.text()
    assert "95 % interval undefined" in text and "nan" not in text and "reaches the null value" not in text
    out = plan.json()
    assert out["pilot"]["ci_low"] is None and out["pilot"]["ci_high"] is None
    json.dumps(out, allow_nan=False)  # what `flask plan --json` writes


def test_large_grids_are_simulated_in_slices_that_add_up_to_every_cohort(monkeypatch):
    monkeypatch.setattr(planning, "CELLS_AT_ONCE", 100)
    calls = []

    def hits(n, reps, rng):
        calls.append(reps)
        return np.arange(reps) % 2 == 0  # every other cohort rejects, in each slice

    table = _power_table(hits, [30], 25, 0.5, 0.05, seed=0)
    assert calls == [3] * 8 + [1] and table["reps"].iloc[0] == 25
    assert table["power"].iloc[0] == pytest.approx((8 * 2 + 1) / 25)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: plan_ratio(None, [1, 2], (1, 1), 5, 0.5), "name two different chart types"),
        (lambda: plan_ratio(None, [1, 2], (1, 2), 5, 0.5, target=1.0), "strictly between 0 and 1"),
        (lambda: plan_ratio(None, [1, 2], (1, 2), 5, 0.5, ns=(1,)), "at least 2"),
        (lambda: plan_hive(None, AGREEMENT, None, 10, 0.5), "different from chance (0.5)"),
        (lambda: plan_hive(None, "hive-distinction", None, 10, 0.6), "task must be a HiveTask"),
        (lambda: plan_ratings(None, None, 0.5), "equals the reference share"),
    ],
)
def test_bad_arguments_name_the_problem(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()
