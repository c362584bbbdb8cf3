"""Pieces of `make validate`'s planning table (bench/validate/planning.py) that decide its verdicts: the type means
that set the ratio rows' effect, the refined search for the planned n, and the row over several pilots."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analysis.planning import plan_ratings
from bench.validate import planning
from tests.analysis.conftest import SIGMA, SKILL


def test_type_means_are_simulate_cohorts_expected_log_errors():
    # From the formula, by simulation: e ~ N(0, (σ s)²), s uniform over the skill levels; SE about 0.0015.
    rng = np.random.default_rng(7)
    scale = SIGMA[None, :] * rng.choice(SKILL, (1_000_000, 1))
    simulated = np.log2(np.abs(rng.standard_normal(scale.shape) * scale) + 0.125).mean(axis=0)
    means = planning._type_means()
    assert list(means) == [1, 2, 3, 4, 5]
    assert np.abs(np.array(list(means.values())) - simulated).max() < 0.006
    # The difference the 3 − 2 row shifts away (2,000,000 simulated participants: 0.5279, SE 0.0006); the
    # 4,000-participant estimate used before gave 0.514, so that row's effect was 0.314, not 0.3.
    assert means[3] - means[2] == pytest.approx(0.5279, abs=0.002)


def test_refined_search_finds_the_whole_grids_smallest_n():
    def plan_at(ns):
        return plan_ratings(None, None, 0.65, 0.5, 0.8, 0.05, 400, ns, seed=3)

    whole = plan_at(tuple(range(10, 201, 10))).n_needed
    fine = plan_at(tuple(range(whole - 9, whole + 1))).n_needed
    plan, n = planning._refined(plan_at, 0.8)
    assert whole > 50  # beyond the first five coarse n: the search went on to the next ones
    assert n == fine and plan.n_needed == n and list(plan.table["n"]) == list(range(whole - 9, whole + 1))
    assert planning._refined(lambda ns: plan_ratings(None, None, 0.51, 0.5, 0.8, 0.05, 200, ns), 0.8)[1] is None


class _Plan:
    def __init__(self, n, power):
        self.table = pd.DataFrame({"n": [n], "power": [power]})


def test_row_over_pilots_is_the_mean_of_their_powers_with_a_t_interval():
    results = [(_Plan(60, 0.81), 60, [True] * 15 + [False] * 10), (_Plan(80, 0.80), 80, [True] * 25)]
    row = planning._row("t", 0.3, "100 participants", results)
    assert row["achieved_power"] == pytest.approx(0.8) and row["goal"] == "met"
    assert row["pilots"] == 2 and row["planned_n"] == "70.0" and row["n_range"] == "60–80"
    assert row["planned_power"] == pytest.approx(0.805)
    half = stats.t.ppf(0.975, 1) * np.std([0.6, 1.0], ddof=1) / np.sqrt(2)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((0.8 - half, 0.8 + half))
    # One pilot: Wilson's interval of its cohorts; a pilot planning no n misses the goal and says so.
    one = planning._row("t", 0.3, "none", results[:1])
    assert one["planned_n"] == "60" and one["achieved_power"] == pytest.approx(0.6) and one["goal"] == "missed"
    assert one["ci_low"] == pytest.approx(stats.binomtest(15, 25).proportion_ci(method="wilson").low)
    none = planning._row("t", 0.3, "100 participants", [*results, (_Plan(60, 0.5), None, [])])
    assert none["goal"] == "missed" and "for 1 pilot(s)" in none["note"]
