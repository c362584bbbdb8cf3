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
    return pd.DataFrame(
        {
            "chart_type": ["A"] * 6 + ["B"] * 8,
            "stimulus_id": ["s1"] * 4 + ["s2"] * 2 + ["s3"] * 8,
            "participant_id": ["p1", "p2", "p3", "p4", "p1", "p2", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"],
            "log_error": [4, 1, 3, 2, 0, 10, 7, -3, 1, 1, 20, 2, 2, 2],
            "abs_error": [4, 1, 3, 2, 0, 10, 7, -3, 1, 1, 20, 2, 2, 2],
        }
    )


def test_mlae_hand_values_and_columns():
    # pooled: group A log errors [4, 1, 3, 2, 0, 10] sorted [0,1,2,3,4,10], cut 1 each end -> mean(1,2,3,4) = 2.5
    #         group B [7, -3, 1, 1, 20, 2, 2, 2] sorted [-3,1,1,2,2,2,7,20], cut 2 -> mean(1,2,2,2) = 1.75
    out = mlae(_tiny(), n_boot=200)
    assert list(out.columns) == [
        "chart_type",
        "mlae",
        "ci_low",
        "ci_high",
        "estimator",
        "resampled",
        "n_units",
        "n_responses",
    ]
    assert list(out["chart_type"]) == ["A", "B"]
    np.testing.assert_allclose(out["mlae"], [2.5, 1.75])
    assert set(out["estimator"]) == {"pooled"} and set(out["resampled"]) == {"participant_id"}
    assert list(out["n_units"]) == [4, 8]
    assert list(out["n_responses"]) == [6, 8]
    assert (out["ci_low"] <= out["mlae"]).all() and (out["mlae"] <= out["ci_high"]).all()


def test_participant_estimator_hand_values():
    # group A: p1 abs [4, 0] -> MAE 2, p2 [1, 10] -> 5.5, p3 3, p4 2: log2(MAE + 1/8) for 4 people, cut 1 each end
    tiny = _tiny().assign(abs_error=lambda d: d["abs_error"].abs())
    out = mlae(tiny, "participant", n_boot=50).set_index("chart_type")
    a = sorted(np.log2(np.array([2.0, 5.5, 3.0, 2.0]) + 0.125))
    assert out.loc["A", "mlae"] == pytest.approx(np.mean(a[1:3]))
    assert out.loc["A", "estimator"] == "participant"
    b = sorted(np.log2(np.array([7, 3, 1, 1, 20, 2, 2, 2], dtype=float) + 0.125))  # one response each
    assert out.loc["B", "mlae"] == pytest.approx(np.mean(b[2:6]))


def test_participant_estimator_weights_are_response_counts():
    # a run whose rows are per-stimulus means of n predictions: its MAE is the n-weighted mean
    df = pd.DataFrame({"chart_type": 1, "run": [0, 0, 1, 1], "abs_error": [1.0, 4.0, 2.0, 2.0], "n": [3, 1, 1, 1]})
    out = mlae(df, "participant", unit="run", weight="n", n_boot=20).iloc[0]
    assert out["mlae"] == pytest.approx(np.mean([np.log2(7 / 4 + 0.125), np.log2(2.125)]))
    assert out["n_responses"] == 6 and out["n_units"] == 2 and out["resampled"] == "run"


def test_unknown_estimator_is_refused():
    with pytest.raises(ValueError, match="unknown estimator 'stimulus'"):
        mlae(_tiny(), "stimulus")


def test_mlae_without_group_gives_one_row():
    out = mlae(_tiny(), group=None, n_boot=50)
    assert "chart_type" not in out.columns
    all_logs = _tiny()["log_error"].to_numpy(dtype=float)
    assert out["mlae"].iloc[0] == pytest.approx(stats.trim_mean(all_logs, 0.25))
    assert out["n_units"].iloc[0] == 8


def test_both_estimators_match_pandas_scipy_on_unbalanced_data(make_cohort):
    df = make_cohort(np.random.default_rng(11), design="study3")
    df = df.sample(frac=0.8, random_state=1)  # uneven numbers of responses per participant, odd and even
    pooled = df.groupby("chart_type")["log_error"].apply(lambda v: stats.trim_mean(v, 0.25))
    per_person = np.log2(df.groupby(["chart_type", "participant_id"])["abs_error"].mean() + 0.125)
    participant = per_person.groupby("chart_type").apply(lambda v: stats.trim_mean(v, 0.25))
    np.testing.assert_allclose(mlae(df, n_boot=10)["mlae"], pooled.to_numpy(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(mlae(df, "participant", n_boot=10)["mlae"], participant.to_numpy(), rtol=0, atol=1e-12)


def test_weighted_resample_equals_replicated_data(make_cohort):
    """The vectorised bootstrap statistic equals the statistic on physically replicated participants."""
    df = make_cohort(np.random.default_rng(5), n_participants=12, design="study3")
    lay = core._layout(df, "log_error", "chart_type", "participant_id", None)
    lay_abs = core._layout(df, "abs_error", "chart_type", "participant_id", None)
    units = pd.factorize(df["participant_id"], sort=True)[1]
    w = core._unit_counts(np.random.default_rng(0), lay, 7, np.int64)  # (rows, 7)
    w_abs = core._unit_counts(np.random.default_rng(0), lay_abs, 7, np.int64)
    fast = core._weighted_midmeans(lay, w)  # (groups, 7)
    fast_mae = core._weighted_means(lay_abs, w_abs)
    counts = np.array([[w[lay.unit_code == i, k][0] for k in range(7)] for i in range(len(units))])
    for k in range(7):
        reps = pd.concat([df[df["participant_id"] == u] for u, c in zip(units, counts[:, k]) for _ in range(c)])
        slow = reps.groupby("chart_type")["log_error"].apply(lambda v: stats.trim_mean(v, 0.25))
        np.testing.assert_allclose(fast[:, k], slow.reindex([1, 2, 3, 4, 5]).to_numpy(), atol=1e-12)
        np.testing.assert_allclose(
            fast_mae[:, k], reps.groupby("chart_type")["abs_error"].mean().to_numpy(), atol=1e-12
        )


def test_unit_counts_are_resamples_of_all_units():
    df = pd.DataFrame({"chart_type": 1, "participant_id": range(60), "log_error": 0.0})
    lay = core._layout(df, "log_error", "chart_type", "participant_id", None)
    counts = core._unit_counts(np.random.default_rng(1), lay, 500, np.int64)
    assert counts.shape == (60, 500)
    assert (counts.sum(axis=0) == 60).all()
    # each unit is drawn Binomial(60, 1/60) times: mean 1, variance 59/60
    assert counts.mean() == pytest.approx(1.0)
    assert counts.var() == pytest.approx(59 / 60, rel=0.05)


# ------------------------------------------------------------------------ bootstrap by hand


def test_bootstrap_resamples_participants_by_hand():
    # two participants with log errors 1 and 3: resampled midmeans are
    # 1 ({p1,p1}, prob 1/4), 2 ({p1,p2}, 1/2), 3 ({p2,p2}, 1/4)
    df = pd.DataFrame({"chart_type": 1, "participant_id": ["p1", "p2"], "log_error": [1.0, 3.0]})
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


def test_single_unit_resamples_its_responses_within_groups():
    # one model run, two stimuli with absolute errors 0 and 4 (participant estimator: log2(MAE + 1/8)):
    # resampled MAEs 0 (1/4), 2 (1/2), 4 (1/4)
    df = pd.DataFrame({"chart_type": 1, "run": 0, "abs_error": [0.0, 4.0], "log_error": [-3.0, 2.0]})
    out = mlae(df, "participant", unit="run", n_boot=10_000, ci=40, seed=0).iloc[0]
    assert out["mlae"] == pytest.approx(np.log2(2.125)) and out["resampled"] == "responses"
    assert out["ci_low"] == out["ci_high"] == pytest.approx(np.log2(2.125))
    wide = mlae(df, "participant", unit="run", n_boot=10_000, ci=95, seed=0).iloc[0]
    assert (wide["ci_low"], wide["ci_high"]) == pytest.approx((np.log2(0.125), np.log2(4.125)))
    pooled = mlae(df, unit="run", n_boot=10_000, ci=95, seed=0).iloc[0]
    assert pooled["mlae"] == -0.5 and (pooled["ci_low"], pooled["ci_high"]) == (-3.0, 2.0)


def test_mae_hand_values_and_columns():
    df = pd.DataFrame(
        {"chart_type": [1, 1, 1, 2], "participant_id": ["a", "b", "b", "a"], "abs_error": [1.0, 2.0, 6.0, 5.0]}
    )
    out = mae(df, n_boot=100)
    assert list(out.columns) == ["chart_type", "mae", "ci_low", "ci_high", "resampled", "n_units", "n_responses"]
    np.testing.assert_allclose(out["mae"], [3.0, 5.0])
    assert list(out["n_units"]) == [2, 1] and list(out["n_responses"]) == [3, 1]
    overall = mae(df, group=None, unit=None, n_boot=100)
    assert overall["mae"].iloc[0] == 3.5 and overall["resampled"].iloc[0] == "responses"


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


def test_simulated_cohort_recovers_true_mlae(cohort, true_mlae_by_type, true_participant_mlae_by_type):
    out = mlae(cohort)  # defaults: pooled, 10,000 participant resamples, 95 %
    assert list(out["n_units"]) == [60] * 5
    for (_, row), truth in zip(out.iterrows(), true_mlae_by_type):
        assert row["ci_low"] <= truth <= row["ci_high"], (row["chart_type"], truth, row.to_dict())
    # ... and the estimates are sharp enough to tell the types apart (truth spans ~0.1 to ~2.3)
    assert np.all(np.diff(out["mlae"]) > 0)
    np.testing.assert_allclose(out["mlae"], true_mlae_by_type, atol=0.25)
    per = mlae(cohort, "participant")
    assert ((per["ci_low"] <= true_participant_mlae_by_type) & (true_participant_mlae_by_type <= per["ci_high"])).all()


@pytest.mark.parametrize("estimator", ["pooled", "participant"])
def test_estimators_are_unbiased_with_nominal_coverage(
    make_cohort, true_mlae_by_type, true_participant_mlae_by_type, estimator
):
    """A small seeded version of `make validate`: 60 Study III cohorts (56 × 25, random pairs)."""
    truth = true_mlae_by_type if estimator == "pooled" else true_participant_mlae_by_type
    rng = np.random.default_rng(99)
    estimates, hits = [], []
    for i in range(60):
        out = mlae(make_cohort(rng, n_participants=56, design="study3"), estimator, n_boot=500, seed=i)
        estimates.append(out["mlae"].to_numpy())
        hits.append(((out.ci_low <= truth) & (truth <= out.ci_high)).to_numpy())
    bias = np.mean(estimates, axis=0) - truth
    assert np.all(np.abs(bias) < 0.05), bias  # 60 cohorts: the bench's 500 pin it to ±0.02
    assert 0.85 <= np.mean(hits) <= 1.0, np.mean(hits)


def test_simulated_mae_recovers_true_mean_abs_error(cohort, true_mae_by_type):
    truth = true_mae_by_type
    out = mae(cohort)
    assert ((out["ci_low"] <= truth) & (truth <= out["ci_high"])).all(), (out, truth)
