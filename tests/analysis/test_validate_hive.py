"""Small seeded versions of `make validate`'s HIVE, HypoML and Two4Two rows (bench/validate/hive.py): the printed
estimators and intervals on simulated cohorts at the papers' designs, with loose bounds (200 replications: a
coverage's Monte Carlo SD is about 0.015, so the bounds sit some 3 SD beyond the expected values seen over seeds
1-5). The rows also run the first replications through the report's functions and fail if they differ from the
simulation's formulas."""

import math

import pytest

from bench.validate import hive
from bench.validate.__main__ import COLUMNS

REPS = 200


@pytest.fixture(scope="module")
def rows():
    return {(r["statistic"], r["estimator"]): r for r in hive.rows(REPS, seed=13)}


def find(rows, statistic, estimator):
    hits = [r for (s, e), r in rows.items() if s.startswith(statistic) and e.startswith(estimator)]
    assert len(hits) == 1, (statistic, estimator, list(rows))
    return hits[0]


def test_rows_have_the_table_columns(rows):
    for row in rows.values():
        assert set(row) == set(COLUMNS) and row["reps"] == REPS
        assert row["goal"] in {"met", "missed", "n/a"}
        assert row["goal"] != "missed" or row["note"], row  # a missed goal says why


def test_hive_accuracy_mean_is_unbiased_and_its_t_interval_covers(rows):
    for label in ("HIVE accuracy (correct", "HIVE accuracy (all"):
        row = find(rows, label, "mean over participants")
        assert abs(row["bias"]) < 1.0  # points of accuracy; the SE of one cohort's mean is ~4
        assert 0.89 <= row["coverage"] <= 0.99
    assert 0.89 <= find(rows, "HIVE accuracy (correct", "one-sided 95 % lower bound")["coverage"] <= 0.99


def test_one_sided_test_holds_its_size_at_chance_and_never_calls_below_chance_outperforming(rows):
    at = find(rows, "HIVE test against chance (all trials, at chance", "one-sided")
    assert 0.01 <= at["mean"] <= 0.1
    below = find(rows, "HIVE test against chance (all trials, 11 %", "one-sided")
    assert below["mean"] == 0.0 and "two-sided test it replaced called 1.000" in below["note"]


def test_per_match_correlation_and_what_pooling_did(rows):
    pearson = find(rows, "HIVE similarity, per match (ProtoTree)", "Pearson")
    assert abs(pearson["bias"]) < 0.1 and 0.89 <= pearson["coverage"] <= 0.99
    spearman = find(rows, "HIVE similarity, per match (ProtoPNet)", "Spearman")
    assert spearman["true"] == pytest.approx(6 / math.pi * math.asin(-0.25)) and abs(spearman["bias"]) < 0.12
    for name in ("Spearman", "Pearson"):
        assert 0.01 <= find(rows, "HIVE similarity test at rho = 0", name)["mean"] <= 0.1
    assert find(rows, "HIVE similarity test at rho = 0", "pooled")["mean"] > 0.4  # the removed estimator


def test_hypoml_and_two4two_intervals(rows):
    for statistic in ("HypoML A1", "HypoML accuracy"):
        row = find(rows, statistic, "mean")
        assert 0.89 <= row["coverage"] <= 0.99 and abs(row["bias"]) < 0.002
    for what in ("arm position", "colour"):
        assert 0.84 <= find(rows, f"Two4Two correctly accepted ({what})", "percent")["coverage"] <= 0.99


def test_exact_spearman_below_ten_matches_holds_its_level_where_the_t_approximation_did_not(rows):
    exact = find(rows, "HIVE similarity test, 6 matches, at rho = 0", "Spearman's rho of match means, exact")
    approx = find(rows, "HIVE similarity test, 6 matches, at rho = 0", "Spearman's rho of match means, t approx")
    # 200 replications: the Monte Carlo SD of a 5 % rate is 0.015
    assert exact["goal"] == "met" and exact["mean"] <= 0.05 + 3 * 0.015
    assert approx["goal"] == "n/a" and "no longer printed" in approx["note"]
