import math

import numpy as np
import pandas as pd
import pingouin as pg
import pytest
from scipy import stats

from analysis import anova_by, observer_effect, one_sample_t, pearson, tukey, two_sample_t
from analysis.inference import permutation_test, random_effects_test

T_COLUMNS = ["t", "dof", "p_val", "estimate", "ci_low", "ci_high", "cohen_d", "n"]
RNG = np.random.default_rng(42)
X = RNG.normal(1.0, 2.0, 23)
Y = RNG.normal(0.0, 0.7, 31)


# -------------------------------------------------------------------------------------- t-tests


def test_one_sample_t_hand_values():
    # x = [1, 2, 3, 5], mu = 1: mean 2.75, s = sqrt(8.75 / 3), se = s / 2, t = 1.75 / se
    out = one_sample_t([1, 2, 3, 5], mu=1)
    assert list(out.columns) == T_COLUMNS
    row = out.iloc[0]
    s = math.sqrt(8.75 / 3)
    assert row["t"] == pytest.approx(1.75 / (s / 2))  # 2.04939
    assert row["dof"] == 3 and row["n"] == 4
    assert row["estimate"] == 2.75
    half = stats.t.ppf(0.975, 3) * s / 2
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((2.75 - half, 2.75 + half))
    assert row["cohen_d"] == pytest.approx(1.75 / s)  # 1.0247
    assert one_sample_t([1, 2, 3, 5], mu=4).iloc[0]["cohen_d"] == pytest.approx(-1.25 / s)  # signed


def test_one_sample_t_matches_scipy():
    row = one_sample_t(X, mu=0.3).iloc[0]
    ref = stats.ttest_1samp(X, 0.3)
    ci = ref.confidence_interval(0.95)
    assert row["t"] == pytest.approx(ref.statistic)
    assert row["p_val"] == pytest.approx(ref.pvalue)
    assert row["dof"] == ref.df
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((ci.low, ci.high))
    # and agrees with pingouin's rounded CI
    assert np.allclose(pg.ttest(X, 0.3)["CI95"].iloc[0], [row["ci_low"], row["ci_high"]], atol=0.006)


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_one_sided_one_sample_t_matches_scipy_and_its_interval_is_one_sided(alternative):
    row = one_sample_t(X, mu=0.3, alternative=alternative).iloc[0]
    ref = stats.ttest_1samp(X, 0.3, alternative=alternative)
    ci = ref.confidence_interval(0.95)
    assert row["t"] == pytest.approx(ref.statistic) and row["p_val"] == pytest.approx(ref.pvalue)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((ci.low, ci.high))
    # by hand: the one-sided bound uses t_{0.95}, not t_{0.975}
    se = X.std(ddof=1) / math.sqrt(X.size)
    bound = (
        X.mean() - stats.t.ppf(0.95, X.size - 1) * se
        if alternative == "greater"
        else X.mean() + stats.t.ppf(0.95, X.size - 1) * se
    )
    assert (row["ci_low"] if alternative == "greater" else row["ci_high"]) == pytest.approx(bound)
    assert math.isinf(row["ci_high"] if alternative == "greater" else row["ci_low"])


def test_one_sided_p_halves_the_two_sided_p_in_the_direction_of_the_effect():
    two = one_sample_t([30, 40, 20, 50, 10, 60], mu=25).iloc[0]["p_val"]
    greater = one_sample_t([30, 40, 20, 50, 10, 60], mu=25, alternative="greater").iloc[0]["p_val"]
    less = one_sample_t([30, 40, 20, 50, 10, 60], mu=25, alternative="less").iloc[0]["p_val"]
    assert greater == pytest.approx(two / 2) and less == pytest.approx(1 - two / 2)
    with pytest.raises(ValueError, match="alternative"):
        one_sample_t([1, 2], alternative="bigger")


@pytest.mark.parametrize("welch", [True, False])
def test_two_sample_t_matches_scipy(welch):
    row = two_sample_t(X, Y, welch=welch).iloc[0]
    ref = stats.ttest_ind(X, Y, equal_var=not welch)
    ci = ref.confidence_interval(0.95)
    assert row["t"] == pytest.approx(ref.statistic)
    assert row["p_val"] == pytest.approx(ref.pvalue)
    assert row["dof"] == pytest.approx(ref.df)
    assert row["estimate"] == pytest.approx(X.mean() - Y.mean())
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((ci.low, ci.high))
    assert row["n"] == X.size + Y.size
    pooled = math.sqrt(((X.size - 1) * X.var(ddof=1) + (Y.size - 1) * Y.var(ddof=1)) / (X.size + Y.size - 2))
    assert row["cohen_d"] == pytest.approx((X.mean() - Y.mean()) / pooled)


def test_welch_differs_from_student_here():
    # the two samples have very different variances and sizes, so the choice matters
    assert two_sample_t(X, Y).iloc[0]["dof"] != pytest.approx(two_sample_t(X, Y, welch=False).iloc[0]["dof"])


def test_two_sample_t_hand_values_student():
    # x = [1, 2, 3], y = [4, 5, 6]: diff -3, pooled s = 1, se = sqrt(2/3), t = -3 / sqrt(2/3) = -3.674
    row = two_sample_t([1, 2, 3], [4, 5, 6], welch=False).iloc[0]
    assert row["t"] == pytest.approx(-3 / math.sqrt(2 / 3))
    assert row["dof"] == 4
    assert row["cohen_d"] == pytest.approx(-3.0)


def test_paired_t_matches_scipy():
    y = X + RNG.normal(0.4, 1.0, X.size)
    row = two_sample_t(X, y, paired=True).iloc[0]
    ref = stats.ttest_rel(X, y)
    ci = ref.confidence_interval(0.95)
    assert row["t"] == pytest.approx(ref.statistic)
    assert row["p_val"] == pytest.approx(ref.pvalue)
    assert row["dof"] == X.size - 1 and row["n"] == X.size
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((ci.low, ci.high))
    d_avg = (X.mean() - y.mean()) / math.sqrt((X.var(ddof=1) + y.var(ddof=1)) / 2)
    assert row["cohen_d"] == pytest.approx(d_avg)
    with pytest.raises(ValueError, match="equal lengths"):
        two_sample_t([1, 2, 3], [1, 2], paired=True)


# --------------------------------------------------------------------------------------- ANOVA


def test_anova_one_way_hand_values():
    # groups [1,2,3] and [4,5,6]: SS_between = 13.5, SS_within = 4, F = 13.5 / (4/4) = 13.5, eta^2 = 13.5/17.5
    df = pd.DataFrame({"g": ["a"] * 3 + ["b"] * 3, "v": [1, 2, 3, 4, 5, 6]})
    out = anova_by(df, "v", "g")
    assert list(out.columns) == ["source", "ddof1", "ddof2", "f", "p_val", "eta_sq"]
    row = out.iloc[0]
    assert (row["source"], row["ddof1"], row["ddof2"]) == ("g", 1, 4)
    assert row["f"] == pytest.approx(13.5)
    assert row["eta_sq"] == pytest.approx(13.5 / 17.5)
    assert row["p_val"] == pytest.approx(stats.f.sf(13.5, 1, 4))


def test_anova_one_way_matches_f_oneway():
    df = pd.DataFrame({"g": np.repeat([1, 2, 3, 4, 5], [7, 9, 8, 10, 6]), "v": RNG.normal(size=40)})
    df.loc[df.g == 5, "v"] += 1.0
    row = anova_by(df, "v", "g").iloc[0]
    ref = stats.f_oneway(*[grp.v.to_numpy() for _, grp in df.groupby("g")])
    assert row["f"] == pytest.approx(ref.statistic)
    assert row["p_val"] == pytest.approx(ref.pvalue)
    assert (row["ddof1"], row["ddof2"]) == (4, 35)


def test_anova_two_way_hand_values():
    # balanced 2x2, two per cell. Cells A1B1 [1,3] A1B2 [3,5] A2B1 [5,7] A2B2 [11,13]; grand mean 6.
    # SS_A = 72, SS_B = 32, SS_AB = 8, SS_within = 8 (df 4, MS 2), SS_total = 120.
    df = pd.DataFrame({"A": ["1"] * 4 + ["2"] * 4, "B": ["1", "1", "2", "2"] * 2, "v": [1, 3, 3, 5, 5, 7, 11, 13]})
    out = anova_by(df, "v", ["A", "B"]).set_index("source")
    assert list(out.index) == ["A", "B", "A * B"]
    np.testing.assert_allclose(out["f"], [36.0, 16.0, 4.0])
    np.testing.assert_allclose(out["eta_sq"], [72 / 120, 32 / 120, 8 / 120])
    assert list(out["ddof1"]) == [1, 1, 1] and list(out["ddof2"]) == [4, 4, 4]


# --------------------------------------------------------------------------------------- Tukey


def test_tukey_two_groups_hand_values():
    # with two groups Tukey's p equals Student's t-test p; diff -3, se sqrt(2/3), Hedges g = -3 * (1 - 3/15)
    df = pd.DataFrame({"g": ["a"] * 3 + ["b"] * 3, "v": [1, 2, 3, 4, 5, 6]})
    out = tukey(df, "v", "g")
    assert list(out.columns) == ["a", "b", "mean_a", "mean_b", "diff", "se", "t", "p_tukey", "hedges"]
    row = out.iloc[0]
    assert (row["a"], row["b"], row["diff"]) == ("a", "b", -3.0)
    assert row["se"] == pytest.approx(math.sqrt(2 / 3))
    assert row["t"] == pytest.approx(-3 / math.sqrt(2 / 3))
    assert row["p_tukey"] == pytest.approx(stats.ttest_ind([1, 2, 3], [4, 5, 6]).pvalue, rel=1e-3)
    assert row["hedges"] == pytest.approx(-2.4)


def test_tukey_matches_scipy_tukey_hsd():
    groups = {"x": RNG.normal(0, 1, 12), "y": RNG.normal(0.8, 1, 12), "z": RNG.normal(1.5, 1, 12)}
    df = pd.DataFrame([(g, v) for g, vals in groups.items() for v in vals], columns=["g", "v"])
    out = tukey(df, "v", "g")
    ref = stats.tukey_hsd(*groups.values())
    index = {"x": 0, "y": 1, "z": 2}
    for _, row in out.iterrows():
        assert row["p_tukey"] == pytest.approx(ref.pvalue[index[row["a"]], index[row["b"]]], abs=2e-3)
        assert row["diff"] == pytest.approx(groups[row["a"]].mean() - groups[row["b"]].mean())


# ------------------------------------------------------------------------------ observer effect


def test_observer_effect_compares_each_model_with_humans():
    df = pd.DataFrame(
        {
            "observer": ["human"] * X.size + ["vgg19"] * Y.size + ["resnet50"] * 10,
            "log_error": np.r_[X, Y, RNG.normal(-1, 1, 10)],
        }
    )
    out = observer_effect(df)
    assert list(out.columns) == ["observer", *T_COLUMNS]
    assert list(out["observer"]) == ["vgg19", "resnet50"]
    vgg = out.iloc[0]
    ref = stats.ttest_ind(Y, X, equal_var=False)  # model minus human
    assert vgg["t"] == pytest.approx(ref.statistic)
    assert vgg["p_val"] == pytest.approx(ref.pvalue)
    assert vgg["estimate"] == pytest.approx(Y.mean() - X.mean())
    assert vgg["n"] == X.size + Y.size
    with pytest.raises(ValueError, match="'observer'.*'people'"):
        observer_effect(df, reference="people")


# --------------------------------------------------------------------------------------- Pearson


def test_pearson_hand_values():
    # x = [1,2,3,4], y = [1,3,2,4]: sum dxdy = 4, sum dx^2 = sum dy^2 = 5 -> r = 0.8
    out = pearson([1, 2, 3, 4], [1, 3, 2, 4])
    assert list(out.columns) == ["r", "ci_low", "ci_high", "p_val", "n", "note"]
    row = out.iloc[0]
    assert row["r"] == pytest.approx(0.8)
    z, half = math.atanh(0.8), stats.norm.ppf(0.975) / math.sqrt(1)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((math.tanh(z - half), math.tanh(z + half)))
    assert row["n"] == 4 and row["note"] == ""


def test_pearson_with_three_pairs_says_why_it_has_no_interval():
    row = pearson([1, 2, 3], [1, 3, 2]).iloc[0]
    assert row["r"] == pytest.approx(0.5) and row["n"] == 3
    assert math.isnan(row["ci_low"]) and math.isnan(row["ci_high"])
    assert "n = 3" in row["note"] and "n > 3" in row["note"]


def test_pearson_matches_scipy():
    y = 0.5 * X + RNG.normal(0, 1, X.size)
    row = pearson(X, y).iloc[0]
    ref = stats.pearsonr(X, y)
    ci = ref.confidence_interval(0.95)
    assert row["r"] == pytest.approx(ref.statistic)
    assert row["p_val"] == pytest.approx(ref.pvalue)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((ci.low, ci.high))


def test_pearson_rejects_constant_input():
    with pytest.raises(ValueError, match="'y' is constant"):
        pearson([1, 2, 3], [5, 5, 5])


def test_permutation_test_enumerates_every_labelling_by_hand():
    """x = {3, 5}, y = {1, 2, 4}: observed |4 − 7/3| = 5/3. The 10 ways of labelling two of {1, …, 5} as x have sums
    S = 3, 4, 5, 6, 5, 6, 7, 7, 8, 9 and |S/2 − (15 − S)/3| ≥ 5/3 iff S ≤ 4 or S ≥ 8: {1,2}, {1,3}, {3,5}, {4,5},
    so p = 4/10."""
    res = permutation_test([3.0, 5.0], [1.0, 2.0, 4.0]).iloc[0]
    assert res["p_val"] == pytest.approx(0.4, abs=1e-15) and res["estimate"] == pytest.approx(5 / 3)
    assert res["exact"] and res["labellings"] == 10 and res["n"] == 5


def test_permutation_test_samples_labellings_beyond_the_exact_limit():
    """C(61, 5) ≈ 6 million labellings: random ones, p = (1 + hits)/(1 + draws); the 5 largest values labelled x
    are beaten by no random labelling (C(61, 5) − 1 of them are less extreme), so p = 1/(1 + draws)."""
    x, y = np.full(5, 10.0) + np.arange(5) * 0.01, np.arange(56) * 0.01
    res = permutation_test(x, y, draws=999, seed=3).iloc[0]
    assert not res["exact"] and res["labellings"] == 999 and res["p_val"] == pytest.approx(1 / 1000)


def test_random_effects_test_hand_values():
    """x = {3, 5} with v = 1/2 each, y = {1, 2, 4} with v = 0.2, 0.4, 0.3: s_y² = (16 + 1 + 25)/9/2 = 7/3,
    τ̂² = 7/3 − 3/10 = 61/30, SE² = (61/30 + 1/2)/2 + (7/3)/3 = 92/45, d = 4 − 7/3 = 5/3; Satterthwaite with
    c = 1/3 + 1/2: dof = SE⁴ / ((5/6 · 7/3)² / 2)."""
    res = random_effects_test([3.0, 5.0], [0.5, 0.5], [1.0, 2.0, 4.0], [0.2, 0.4, 0.3]).iloc[0]
    se2, dof = 92 / 45, (92 / 45) ** 2 / ((5 / 6 * 7 / 3) ** 2 / 2)
    assert res["tau2"] == pytest.approx(61 / 30) and res["estimate"] == pytest.approx(5 / 3)
    assert res["se"] == pytest.approx(math.sqrt(se2)) and res["t"] == pytest.approx(5 / 3 / math.sqrt(se2))
    assert res["dof"] == pytest.approx(dof)  # 2.2110
    assert res["p_t"] == pytest.approx(2 * stats.t.sf(5 / 3 / math.sqrt(se2), dof))
    assert res["n"] == 5 and res["draws"] == 1999


def test_random_effects_test_floors_tau2_and_drops_its_dof_term():
    """s_y² = 7/3 < v̄_y = 3: τ̂² = 0, SE² = v̄_x/k + s_y²/n = 1/4 + 7/9, and s_y² enters with c = 1/n only."""
    res = random_effects_test([3.0, 5.0], [0.5, 0.5], [1.0, 2.0, 4.0], [3.0, 3.0, 3.0]).iloc[0]
    se2 = 1 / 4 + 7 / 9
    assert res["tau2"] == 0 and res["se"] == pytest.approx(math.sqrt(se2))
    assert res["dof"] == pytest.approx(se2**2 / ((7 / 9) ** 2 / 2))


def test_random_effects_test_p_matches_a_bootstrap_written_from_its_formula():
    """The bootstrap-t p from a plain loop over draws (its own generator, 20,000 draws) agrees with the function's
    (1,999 draws) within Monte Carlo error: |Δp| < 0.035, about 3 SE of the two together at p ≈ 0.37."""
    rng = np.random.default_rng(5)
    skill = rng.choice([0.6, 1.0, 1.6], 40)
    y, vy = 3.0 * skill + rng.normal(0, 0.5 * skill), 0.25 * skill**2
    x, vx = np.array([2.9, 4.4, 3.1]), np.array([0.05, 0.09, 0.04])
    res = random_effects_test(x, vx, y, vy).iloc[0]
    k, n = x.size, y.size

    def t_of(runs, people, v_people):
        s2 = people.var(ddof=1)
        tau2 = max(s2 - v_people.mean(), 0.0)
        return (runs.mean() - people.mean()) / math.sqrt((tau2 + vx.mean()) / k + s2 / n)

    tau2 = max(y.var(ddof=1) - vy.mean(), 0.0)
    t_obs, hits, draws, loop = t_of(x, y, vy), 0, 20_000, np.random.default_rng(11)
    for _ in range(draws):
        people = loop.integers(0, n, n)
        picks = loop.integers(0, n, k)
        runs = y.mean() + np.sqrt((tau2 + vx.mean()) / (tau2 + vy[picks])) * (y[picks] - y.mean())
        hits += abs(t_of(runs, y[people], vy[people])) >= abs(t_obs)
    assert 0.1 < res["p_val"] < 0.5  # a p-value the comparison can resolve
    assert res["p_val"] == pytest.approx((1 + hits) / (1 + draws), abs=0.035)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([1.0, 2.0], [0.1], [1.0, 2.0, 3.0], [0.1, 0.1, 0.1]), "'x' and 'vx' need equal lengths"),
        (([1.0, 2.0], [0.1, -0.1], [1.0, 2.0, 3.0], [0.1, 0.1, 0.1]), "'smallest vx' must be a finite number >= 0"),
        (([1.0], [0.1], [1.0], [0.1]), "'y' needs at least 2"),
    ],
)
def test_random_effects_test_rejects_bad_input(args, message):
    with pytest.raises(ValueError, match=message):
        random_effects_test(*args)
