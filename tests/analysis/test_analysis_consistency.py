import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analysis import inter_consistency, intra_consistency


def test_inter_consistency_hand_values():
    # human means per stimulus: a 2, b 6, c 4, d 8; model means: a 1, b 3, c 2, d 4, e 9 (e has no human)
    human = pd.DataFrame({"stimulus_id": list("aabbccdd"), "abs_error": [1, 3, 5, 7, 4, 4, 8, 8]})
    model = pd.DataFrame({"stimulus_id": list("aabcdde"), "abs_error": [0.5, 1.5, 3, 2, 3.5, 4.5, 9]})
    out = inter_consistency(human, model)
    assert list(out.columns) == ["r", "ci_low", "ci_high", "p_val", "n", "note"]
    row = out.iloc[0]
    assert row["n"] == 4  # the model-only stimulus is dropped
    assert row["r"] == pytest.approx(1.0)  # model = human / 2 exactly
    ref = stats.pearsonr([2, 6, 4, 8], [1, 3, 2, 5])
    model2 = model.assign(abs_error=[0.5, 1.5, 3, 2, 4.5, 5.5, 9])  # d -> 5
    row2 = inter_consistency(human, model2).iloc[0]
    assert row2["r"] == pytest.approx(ref.statistic)
    assert row2["p_val"] == pytest.approx(ref.pvalue)


def test_inter_consistency_on_height_pairs(make_cohort):
    rng = np.random.default_rng(4)
    human = make_cohort(rng, design="study3")
    # a "model" whose error per pair is a noisy copy of the human mean error per pair
    per_pair = human.groupby(["short_height", "tall_height"])["abs_error"].mean()
    model = per_pair.reset_index().assign(abs_error=lambda d: d.abs_error * 0.2 + rng.normal(0, 0.3, len(d)))
    out = inter_consistency(human, model, key=("short_height", "tall_height")).iloc[0]
    ref = stats.pearsonr(per_pair.to_numpy(), model.abs_error.to_numpy())
    assert out["n"] == 39
    assert out["r"] == pytest.approx(ref.statistic)
    ci = ref.confidence_interval(0.95)
    assert (out["ci_low"], out["ci_high"]) == pytest.approx((ci.low, ci.high))


def test_inter_consistency_needs_shared_stimuli():
    human = pd.DataFrame({"stimulus_id": list("abc"), "abs_error": [1.0, 2, 3]})
    model = pd.DataFrame({"stimulus_id": list("cde"), "abs_error": [1.0, 2, 3]})
    with pytest.raises(ValueError, match="at least 3 keys"):
        inter_consistency(human, model)


def test_intra_consistency_pairs_of_runs():
    rng = np.random.default_rng(8)
    base = rng.gamma(2.0, 1.0, 20)
    runs = {1: base + rng.normal(0, 0.1, 20), 2: base + rng.normal(0, 0.5, 20), 3: rng.gamma(2.0, 1.0, 20)}
    df = pd.DataFrame(
        [(run, f"s{i}", v) for run, vals in runs.items() for i, v in enumerate(vals)],
        columns=["run", "stimulus_id", "abs_error"],
    )
    df = pd.concat([df, df.assign(abs_error=df.abs_error + 1.0)])  # two predictions per stimulus: mean + 0.5
    out = intra_consistency(df)
    assert list(out.columns) == ["a", "b", "r", "ci_low", "ci_high", "p_val", "n", "note"]
    assert list(zip(out.a, out.b)) == [(1, 2), (1, 3), (2, 3)]
    for _, row in out.iterrows():
        ref = stats.pearsonr(runs[row["a"]], runs[row["b"]])
        assert row["r"] == pytest.approx(ref.statistic)
        assert row["p_val"] == pytest.approx(ref.pvalue)
        assert row["n"] == 20
    assert out.r.iloc[0] > 0.9 and abs(out.r.iloc[1]) < 0.6  # the structure planted above


def test_intra_consistency_needs_two_levels():
    df = pd.DataFrame({"run": 1, "stimulus_id": list("abc"), "abs_error": [1.0, 2, 3]})
    with pytest.raises(ValueError, match="at least 2 levels of 'run'"):
        intra_consistency(df)


def test_intra_consistency_all_pairs_at_once_equals_pair_by_pair():
    """With every run covering every key the pairs come from one correlation matrix; they must equal
    analysis.pearson pair by pair (r, Fisher-z interval, p), and a run with a missing key falls back to it."""
    from analysis import pearson

    rng = np.random.default_rng(3)
    base = rng.gamma(2.0, 1.0, 12)
    df = pd.DataFrame(
        [(run, f"s{i}", v + rng.normal(0, 0.2 * run)) for run in range(6) for i, v in enumerate(base)],
        columns=["run", "stimulus_id", "abs_error"],
    )
    fast = intra_consistency(df)
    assert len(fast) == 15
    wide = df.pivot(index="stimulus_id", columns="run", values="abs_error")
    for row in fast.itertuples(index=False):
        ref = pearson(wide[row.a], wide[row.b]).iloc[0]
        for col in ("r", "ci_low", "ci_high", "p_val"):
            assert getattr(row, col) == pytest.approx(ref[col], rel=1e-9, abs=1e-12), col
    gappy = intra_consistency(df[~((df.run == 5) & (df.stimulus_id == "s0"))])
    assert gappy.loc[(gappy.a == 0) & (gappy.b == 1), "r"].item() == pytest.approx(fast.r.iloc[0])
    assert gappy.loc[(gappy.a == 0) & (gappy.b == 5), "n"].item() == 11
    constant = df.assign(abs_error=np.where(df.run == 2, 1.0, df.abs_error))
    with pytest.raises(ValueError, match="constant"):
        intra_consistency(constant)
