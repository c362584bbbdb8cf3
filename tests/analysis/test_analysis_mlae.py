import importlib

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analysis import mae, midmean, mlae

core = importlib.import_module("analysis.mlae")  # the module (the package attribute is the function)


# ----------------------------------------------------------------------------------------- midmean

def test_midmean_hand_values():
    # sorted 1..7, 100; cut floor(8/4) = 2 at each end -> mean(3, 4, 5, 6)
    assert midmean([1, 2, 3, 4, 100, 5, 6, 7]) == 4.5
    # n = 7: cut 1 at each end -> mean(2..6) of [1..6, 1000] sorted = [1,2,3,4,5,6,1000]
    assert midmean([1000, 1, 2, 3, 4, 5, 6]) == 4.0
    assert midmean([3.0]) == 3.0
    assert midmean([2.0, 8.0]) == 5.0  # n = 2: nothing cut
    assert midmean([5, 1, 9, 3]) == 4.0  # cut 1 each end -> mean(3, 5)


def test_midmean_matches_scipy():
    x = np.random.default_rng(3).standard_cauchy(101)
    assert midmean(x) == pytest.approx(stats.trim_mean(x, 0.25))


# ------------------------------------------------------------------------------ point estimates

def _tiny():
    # group A: stimulus s1 -> [1, 2, 3, 4] midmean 2.5; s2 -> [0, 10] midmean 5 => MLAE 3.75
    # group B: stimulus s3 -> [7, -3, 1, 1, 20, 2, 2, 2] sorted [-3,1,1,2,2,2,7,20] -> mean(1,2,2,2) = 1.75
    return pd.DataFrame({
        "chart_type": ["A"] * 6 + ["B"] * 8,
        "stimulus_id": ["s1"] * 4 + ["s2"] * 2 + ["s3"] * 8,
        "participant_id": ["p1", "p2", "p3", "p4", "p1", "p2", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"],
        "log_error": [4, 1, 3, 2, 0, 10, 7, -3, 1, 1, 20, 2, 2, 2],
        "abs_error": [4, 1, 3, 2, 0, 10, 7, -3, 1, 1, 20, 2, 2, 2],
    })


def test_mlae_hand_values_and_columns():
    out = mlae(_tiny(), n_boot=200)
    assert list(out.columns) == ["chart_type", "mlae", "ci_low", "ci_high", "n_stimuli", "n_units", "n_responses"]
    assert list(out["chart_type"]) == ["A", "B"]
    np.testing.assert_allclose(out["mlae"], [3.75, 1.75])
    assert list(out["n_stimuli"]) == [2, 1]
    assert list(out["n_units"]) == [4, 8]
    assert list(out["n_responses"]) == [6, 8]
    assert (out["ci_low"] <= out["mlae"]).all() and (out["mlae"] <= out["ci_high"]).all()


def test_mlae_without_group_gives_one_row():
    out = mlae(_tiny(), group=None, n_boot=50)
    assert list(out.columns) == ["mlae", "ci_low", "ci_high", "n_stimuli", "n_units", "n_responses"]
    # stimuli s1, s2, s3 (different stimuli in different groups): (2.5 + 5 + 1.75) / 3
    assert out["mlae"].iloc[0] == pytest.approx((2.5 + 5 + 1.75) / 3)
    assert out["n_units"].iloc[0] == 8


def test_mlae_same_stimulus_id_in_two_groups_is_two_stimuli():
    df = pd.DataFrame({"chart_type": [1, 1, 2, 2], "stimulus_id": ["s", "s", "s", "s"],
                       "participant_id": [1, 2, 1, 2], "log_error": [0.0, 2.0, 10.0, 20.0]})
    out = mlae(df, n_boot=20)
    np.testing.assert_allclose(out["mlae"], [1.0, 15.0])


def test_mlae_matches_pandas_scipy_on_unbalanced_data(make_cohort):
    df = make_cohort(np.random.default_rng(11), design="study3")
    df = df.sample(frac=0.8, random_state=1)  # uneven numbers of responses per stimulus, odd and even
    direct = (df.groupby(["chart_type", "stimulus_id"])["log_error"].apply(lambda v: stats.trim_mean(v, 0.25))
              .groupby("chart_type").mean())
    out = mlae(df, n_boot=10)
    np.testing.assert_allclose(out["mlae"].to_numpy(), direct.to_numpy(), rtol=0, atol=1e-12)
    assert list(out["chart_type"]) == [1, 2, 3, 4, 5]


def test_weighted_resample_equals_replicated_data(make_cohort):
    """The vectorised bootstrap statistic equals the statistic on physically replicated participants."""
    df = make_cohort(np.random.default_rng(5), n_participants=12, design="study3")
    lay = core._layout(df, "log_error", "chart_type", "stimulus_id", "participant_id")
    units = pd.factorize(df["participant_id"], sort=True)[1]
    rng = np.random.default_rng(0)
    counts = core._unit_counts(rng, len(units), 7)  # (n_units, 7)
    fast = core._mlae_stat(lay, counts[lay.unit_code])  # (groups, 7)
    fast_mae = core._mae_stat(core._layout(df, "abs_error", "chart_type", None, "participant_id"),
                              counts[core._layout(df, "abs_error", "chart_type", None, "participant_id").unit_code])
    for k in range(counts.shape[1]):
        reps = pd.concat([df[df["participant_id"] == u] for u, c in zip(units, counts[:, k]) for _ in range(c)])
        per_stim = reps.groupby(["chart_type", "stimulus_id"])["log_error"].apply(lambda v: stats.trim_mean(v, 0.25))
        slow = per_stim.groupby("chart_type").mean().reindex([1, 2, 3, 4, 5])
        np.testing.assert_allclose(fast[:, k], slow.to_numpy(), atol=1e-12)
        np.testing.assert_allclose(fast_mae[:, k], reps.groupby("chart_type")["abs_error"].mean().to_numpy(),
                                   atol=1e-12)


def test_unit_counts_are_resamples_of_all_units():
    counts = core._unit_counts(np.random.default_rng(1), 60, 500)
    assert counts.shape == (60, 500)
    assert (counts.sum(axis=0) == 60).all()
    # each unit is drawn Binomial(60, 1/60) times: mean 1, variance 59/60
    assert counts.mean() == pytest.approx(1.0)
    assert counts.var() == pytest.approx(59 / 60, rel=0.05)


# ------------------------------------------------------------------------ bootstrap by hand

def test_bootstrap_resamples_participants_by_hand():
    # one stimulus, two participants with log errors 1 and 3: resampled midmeans are
    # 1 ({p1,p1}, prob 1/4), 2 ({p1,p2}, 1/2), 3 ({p2,p2}, 1/4)
    df = pd.DataFrame({"chart_type": 1, "stimulus_id": "s", "participant_id": ["p1", "p2"], "log_error": [1.0, 3.0]})
    wide = mlae(df, n_boot=10_000, ci=95, seed=1).iloc[0]
    assert (wide["ci_low"], wide["ci_high"]) == (1.0, 3.0)
    narrow = mlae(df, n_boot=10_000, ci=40, seed=1).iloc[0]  # 30th and 70th percentiles fall in the middle mass
    assert (narrow["ci_low"], narrow["ci_high"]) == (2.0, 2.0)


def test_mae_bootstrap_keeps_a_participants_rows_together():
    # p1 answered twice with error 0, p2 once with error 10. Resampling participants gives means
    # 0 (1/4), 10/3 (1/2), 10 (1/4); resampling rows would give e.g. 20/3 with probability 2/9.
    df = pd.DataFrame({"chart_type": 1, "participant_id": ["p1", "p1", "p2"], "abs_error": [0.0, 0.0, 10.0]})
    out = mae(df, n_boot=10_000, ci=40, seed=3).iloc[0]
    assert out["mae"] == pytest.approx(10 / 3)
    assert out["ci_low"] == pytest.approx(10 / 3) and out["ci_high"] == pytest.approx(10 / 3)
    out = mae(df, n_boot=10_000, ci=95, seed=3).iloc[0]
    assert (out["ci_low"], out["ci_high"]) == (0.0, 10.0)


def test_single_participant_gives_a_degenerate_interval():
    df = pd.DataFrame({"chart_type": 1, "stimulus_id": ["a", "b"], "participant_id": "p", "log_error": [1.0, 2.0]})
    row = mlae(df, n_boot=100).iloc[0]
    assert row["ci_low"] == row["mlae"] == row["ci_high"] == 1.5


def test_mlae_unit_none_resamples_stimuli_by_hand():
    # two stimuli with midmeans 0 and 4: resampled means 0 (1/4), 2 (1/2), 4 (1/4)
    df = pd.DataFrame({"chart_type": 1, "stimulus_id": ["a", "a", "b", "b"], "log_error": [-1.0, 1.0, 3.0, 5.0]})
    out = mlae(df, unit=None, n_boot=10_000, ci=40, seed=0).iloc[0]
    assert out["mlae"] == 2.0
    assert (out["ci_low"], out["ci_high"]) == (2.0, 2.0)
    assert out["n_units"] == 2 == out["n_stimuli"]


def test_mae_hand_values_and_columns():
    df = pd.DataFrame({"chart_type": [1, 1, 1, 2], "participant_id": ["a", "b", "b", "a"],
                       "abs_error": [1.0, 2.0, 6.0, 5.0]})
    out = mae(df, n_boot=100)
    assert list(out.columns) == ["chart_type", "mae", "ci_low", "ci_high", "n_units", "n_responses"]
    np.testing.assert_allclose(out["mae"], [3.0, 5.0])
    assert list(out["n_units"]) == [2, 1] and list(out["n_responses"]) == [3, 1]
    overall = mae(df, group=None, unit=None, n_boot=100)
    assert list(overall.columns) == ["mae", "ci_low", "ci_high", "n_units", "n_responses"]
    assert overall["mae"].iloc[0] == 3.5


# ------------------------------------------------------------------ reproducibility and speed

def test_bootstrap_is_reproducible_with_a_seed(cohort):
    a = mlae(cohort, n_boot=2000, seed=7)
    b = mlae(cohort, n_boot=2000, seed=7)
    c = mlae(cohort, n_boot=2000, seed=8)
    pd.testing.assert_frame_equal(a, b)
    np.testing.assert_array_equal(a["mlae"], c["mlae"])  # the point estimate does not depend on the seed
    assert not np.array_equal(a["ci_low"], c["ci_low"])
    assert not np.array_equal(a["ci_high"], c["ci_high"])
    m1, m2 = mae(cohort, n_boot=500, seed=1), mae(cohort, n_boot=500, seed=2)
    pd.testing.assert_frame_equal(m1, mae(cohort, n_boot=500, seed=1))
    assert not np.array_equal(m1["ci_low"], m2["ci_low"])


# ------------------------------------------------------------------------ simulated cohorts

def test_simulated_cohort_recovers_true_mlae(cohort, true_mlae_by_type):
    out = mlae(cohort)  # defaults: 10,000 participant resamples, 95 %
    assert list(out["n_units"]) == [60] * 5 and list(out["n_stimuli"]) == [5] * 5
    for (_, row), truth in zip(out.iterrows(), true_mlae_by_type):
        assert row["ci_low"] <= truth <= row["ci_high"], (row["chart_type"], truth, row.to_dict())
    # ... and the estimates are sharp enough to tell the types apart (truth spans ~0.1 to ~2.3)
    assert np.all(np.diff(out["mlae"]) > 0)
    np.testing.assert_allclose(out["mlae"], true_mlae_by_type, atol=0.25)


def test_participant_bootstrap_has_nominal_coverage(make_cohort, true_mlae_by_type):
    """Over 80 simulated cohorts, the 95 % intervals cover the true MLAE about 95 % of the time.

    Participants differ in skill, so the 25 stimulus midmeans of one cohort are correlated; resampling
    stimuli as if independent (unit=None) gives intervals that are too narrow, which this test also shows.
    """
    rng = np.random.default_rng(99)
    hit_units, hit_stimuli = [], []
    for i in range(80):
        df = make_cohort(rng)
        by_unit = mlae(df, n_boot=1000, seed=i)
        by_stim = mlae(df, unit=None, n_boot=1000, seed=i)
        hit_units.append(((by_unit.ci_low <= true_mlae_by_type) & (true_mlae_by_type <= by_unit.ci_high)).to_numpy())
        hit_stimuli.append(((by_stim.ci_low <= true_mlae_by_type) & (true_mlae_by_type <= by_stim.ci_high)).to_numpy())
    coverage_units, coverage_stimuli = np.mean(hit_units), np.mean(hit_stimuli)
    assert 0.88 <= coverage_units <= 0.99, coverage_units
    assert coverage_stimuli < 0.85, coverage_stimuli


def test_simulated_mae_recovers_true_mean_abs_error(cohort, true_mae_by_type):
    truth = true_mae_by_type
    out = mae(cohort)
    assert ((out["ci_low"] <= truth) & (truth <= out["ci_high"])).all(), (out, truth)
