"""Issue #23's ratio rows: models for the repeated-measures design, degenerate data reported in words, intervals over
few units flagged with the coverage `make validate` measured, consistency on shared cells, the outlier rule's wording.
Expected values come from the textbook formulas written out here, not from the product."""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analysis.coverage import small_sample_note
from analysis.inference import pairwise_within, random_effects_test, rm_anova
from analysis.reports.ratio_study import ratio_report
from tests.analysis.test_analysis_report import _cohort, _model

COVERAGE_CSV = Path(__file__).resolve().parents[2] / "analysis" / "data" / "bootstrap_coverage.csv"


def _long(y: np.ndarray) -> pd.DataFrame:
    n, k = y.shape
    return pd.DataFrame({"pid": np.repeat(np.arange(n), k), "ct": np.tile(np.arange(1, k + 1), n), "y": y.ravel()})


def test_rm_anova_is_the_greenhouse_geisser_test_of_the_textbook():
    rng = np.random.default_rng(5)
    y = rng.normal(0, 1, (12, 5)) + rng.normal(0, 2, (12, 1)) + np.array([0, 0.3, 0.1, 0.8, 0.5])
    y[:, 3] += rng.normal(0, 1.5, 12)  # unequal variances: sphericity violated, ε < 1
    n, k = y.shape
    ss_effect = n * ((y.mean(0) - y.mean()) ** 2).sum()
    ss_error = ((y - y.mean(1, keepdims=True) - y.mean(0, keepdims=True) + y.mean()) ** 2).sum()
    f = (ss_effect / (k - 1)) / (ss_error / ((k - 1) * (n - 1)))
    s = np.cov(y, rowvar=False)
    h = np.eye(k) - 1 / k
    sc = h @ s @ h
    eps = np.trace(sc) ** 2 / ((k - 1) * np.trace(sc @ sc))
    res = rm_anova(_long(y), "y", "ct", "pid").iloc[0]
    assert res["f"] == pytest.approx(f, rel=1e-10) and res["epsilon"] == pytest.approx(eps, rel=1e-10)
    assert res["p_gg"] == pytest.approx(stats.f.sf(f, eps * (k - 1), eps * (k - 1) * (n - 1)), rel=1e-8)
    assert (res["ddof1"], res["ddof2"], res["n"], res["n_dropped"], res["note"]) == (4, 44, 12, 0, "")
    # a participant without type 2 is dropped and counted
    missing = _long(y).query("not (pid == 0 and ct == 2)")
    dropped = rm_anova(missing, "y", "ct", "pid").iloc[0]
    assert (dropped["n"], dropped["n_dropped"]) == (11, 1) and "1 participant(s) without every ct dropped" in dropped[
        "note"
    ]


def test_pairwise_within_is_paired_t_with_holm():
    rng = np.random.default_rng(6)
    y = rng.normal(0, 1, (10, 3)) + np.array([0, 0.9, 0.2])
    res = pairwise_within(_long(y), "y", "ct", "pid")
    p = []
    for a, b in ((0, 1), (0, 2), (1, 2)):
        d = y[:, a] - y[:, b]
        t = d.mean() / (d.std(ddof=1) / math.sqrt(len(d)))
        p.append(2 * stats.t.sf(abs(t), len(d) - 1))
    order = np.argsort(p)
    holm = np.empty(3)
    running = 0.0
    for rank, i in enumerate(order):  # Holm 1979: step-down, (m − rank) p, monotone
        running = max(running, min(1.0, (3 - rank) * p[i]))
        holm[i] = running
    assert res["p_unc"].tolist() == pytest.approx(p, rel=1e-9)
    assert res["p_holm"].tolist() == pytest.approx(holm.tolist(), rel=1e-9)
    assert res["estimate"].iloc[0] == pytest.approx((y[:, 0] - y[:, 1]).mean())


def _no_nan(report) -> dict:
    data = json.loads(json.dumps(report.json(), allow_nan=False))  # raises on NaN
    assert "nan" not in report.text().lower().split() and " nan " not in report.markdown().lower()
    return data


def test_all_exact_answers_say_why_the_f_test_cannot_be_computed():
    """Row 1: every answer exact -> every participant × type mean is log2(1/8); the F test is undefined."""
    sessions, trials = _cohort({f"p{i}": [0.0] * 25 for i in range(6)})
    report = ratio_report(sessions, trials, n_boot=50)
    data = _no_nan(report)
    rm = [r for r in data["effects"] if r["test"] == "repeated-measures ANOVA, Greenhouse–Geisser"][0]
    assert rm["statistic"] is None and "no error variance" in rm["note"]
    for text in (report.text(), report.markdown()):
        assert "F not computed: no error variance" in text and "repeated-measures ANOVA, Greenhouse–Geisser" in text
        assert "rule not applied: the IQR of participants' mean errors is 0" in text
    assert "cannot separate anyone: the rule was not applied" in report.methods()


@pytest.mark.parametrize("case", ["one participant", "one chart type missing", "one model run"])
def test_degenerate_designs_exit_with_words_not_crashes(case):
    rng = np.random.default_rng(8)
    n = 1 if case == "one participant" else 6
    sessions, trials = _cohort({f"p{i}": list(rng.normal(0, 5, 25)) for i in range(n)})
    cells = stimuli = None
    if case == "one chart type missing":
        trials = trials[trials["chart_type"] != 4]
    if case == "one model run":
        cells, stimuli = _model(runs=1)
    report = ratio_report(sessions, trials, cells, stimuli, n_boot=50)
    data = _no_nan(report)
    text, md = report.text(), report.markdown()
    assert "repeated-measures ANOVA, Greenhouse–Geisser" in text and "repeated-measures ANOVA" in md
    if case == "one participant":
        assert "F not computed: 1 participant(s) with every chart_type" in text
        human = [r for r in data["mlae"] if r["kind"] == "human"][0]
        assert human["note"].startswith("one participant: the MLAE (pooled) interval resamples that participant's")
        assert "resamples that participant's judgments within each chart type" in report.methods()
    if case == "one chart type missing":
        assert sorted({r["chart_type"] for r in data["mlae"] if r["kind"] == "human"}) == [1, 2, 3, 5]
        assert "ε =" in text and sum(r["test"] == "paired t-test, Holm" for r in data["effects"]) == 6
    if case == "one model run":
        obs = [r for r in data["effects"] if r["effect"] == "observer"][0]
        assert obs["test"] == "one-sample t-test vs the run" and obs["note"].startswith("one run: its MAE taken")
        used = trials[trials["participant_id"].isin(report.tables["participants"].query("analysed")["participant_id"])]
        assert obs["estimate"] == pytest.approx(3.0 - used.groupby("participant_id")["abs_error"].mean().mean())
        assert "one-sample t-test vs the run" in text and "one-sample t-test vs the run" in md


def test_participants_missing_a_type_are_dropped_from_the_anova_and_counted():
    rng = np.random.default_rng(9)
    sessions, trials = _cohort({f"p{i}": list(rng.normal(0, 5, 25)) for i in range(7)})
    trials = trials[~((trials["participant_id"] == "p0") & (trials["chart_type"] == 2))]
    report = ratio_report(sessions, trials, n_boot=50)
    rm = report.tables["effects"].iloc[0]
    assert (rm["df2"], rm["n"]) == (4 * 5, 6) and "1 participant(s) without every chart_type dropped" in rm["note"]
    assert "1 participant(s) without every chart_type dropped" in report.text()


def test_observer_effect_takes_participants_and_runs_as_units():
    rng = np.random.default_rng(10)
    sessions, trials = _cohort({f"p{i}": list(rng.normal(0, 5, 25)) for i in range(12)})
    cells, stimuli = _model(runs=3, error=lambda run, k: 1.0 + run + 0.5 * k)
    report = ratio_report(sessions, trials, cells, stimuli, n_boot=50)
    obs = report.tables["effects"].query("effect == 'observer'").iloc[0]
    people = trials.groupby(["participant_id", "chart_type"])["abs_error"].mean().groupby(level=0).mean()
    runs = np.array([np.mean([1.0 + run + 0.5 * k for k in range(5)]) for run in range(3)])
    vx, vy = runs.var(ddof=1) / 3, people.var(ddof=1) / 12
    t = (runs.mean() - people.mean()) / math.sqrt(vx + vy)
    dof = (vx + vy) ** 2 / (vx**2 / 2 + vy**2 / 11)
    assert obs["statistic"] == pytest.approx(t, rel=1e-9) and obs["df1"] == pytest.approx(dof, rel=1e-9)
    assert obs["p_val"] == pytest.approx(2 * stats.t.sf(abs(t), dof), rel=1e-8)
    assert obs["n"] == 15 and "fewer than 10 runs" in obs["note"]


def test_few_runs_add_the_random_effects_test_computed_by_hand():
    """Below 10 runs: each unit's MAE and its sampling variance (per chart type the variance of its 5 values over 5,
    summed over the 5 types, over 25); τ̂² = s_p² − mean v_p; SE² = (τ̂² + mean v_run)/3 + s_p²/12; Satterthwaite
    df with c = 1/12 + 1/3; the p is the product's bootstrap-t on those same inputs."""
    rng = np.random.default_rng(10)
    sessions, trials = _cohort({f"p{i}": list(rng.normal(0, 5, 25)) for i in range(12)})
    cells, stimuli = _model(runs=3, error=lambda run, k: 1.0 + run + 0.5 * k)
    report = ratio_report(sessions, trials, cells, stimuli, n_boot=50)
    rows = report.tables["effects"].query("effect == 'observer'")
    assert list(rows["test"]) == ["Welch t-test", "random-effects test of unit means, bootstrap-t"]
    by_type = trials.groupby(["participant_id", "chart_type"])["abs_error"]
    people = by_type.mean().groupby(level=0).mean().to_numpy()
    v_people = (by_type.var(ddof=1) / 5).groupby(level=0).sum().to_numpy() / 25
    runs = np.array([np.mean([1.0 + run + 0.5 * k for k in range(5)]) for run in range(3)])
    v_runs = np.full(3, 5 * (np.var([0, 0.5, 1, 1.5, 2], ddof=1) / 5) / 25)  # the same 5 errors per type in each run
    s2 = people.var(ddof=1)
    tau2 = s2 - v_people.mean()
    assert tau2 > 0  # the floor is not what this test checks
    se2 = (tau2 + v_runs.mean()) / 3 + s2 / 12
    t = (runs.mean() - people.mean()) / math.sqrt(se2)
    re = rows.iloc[1]
    assert re["statistic"] == pytest.approx(t, rel=1e-9)
    assert re["estimate"] == pytest.approx(runs.mean() - people.mean())
    assert re["df1"] == pytest.approx(se2**2 / (((1 / 12 + 1 / 3) * s2) ** 2 / 11), rel=1e-9) and re["n"] == 15
    assert re["p_val"] == random_effects_test(runs, v_runs, people, v_people).iloc[0]["p_val"]
    assert f"τ̂² = {tau2:.3g} from participants" in re["note"]
    assert "read the random-effects test of unit means, bootstrap-t row" in rows.iloc[0]["note"]
    methods = report.methods()
    assert "also the random-effects test of unit means" in methods
    assert "bootstrap-t (Efron & Tibshirani 1993)" in methods
    assert "DerSimonian, R., & Laird, N. (1986)" in methods and "Satterthwaite, F. E. (1946)" in methods
    assert report.text().count("random-effects test of unit means") >= 2  # the table's row and its legend


def test_consistency_joins_humans_and_model_on_shared_cells():
    """Row 6: a pair's mean over chart types uses only the types both observers have for it."""
    rng = np.random.default_rng(11)
    sessions, trials = _cohort({f"p{i}": list(rng.normal(0, 5, 25)) for i in range(6)})
    heights = [(10, 46), (12, 38), (18, 56), (21, 32), (26, 56)]
    trials = trials[~((trials["chart_type"] == 5) & (trials["short_height"].isin([10, 21])))]  # humans lack 2 cells
    cells = pd.DataFrame(
        [
            {
                "observer": "cnn",
                "condition": "",
                "run": run,
                "chart_type": ct,
                "short_height": s,
                "tall_height": t,
                "true_percent": 100 * s / t,
                "n": 1,
                "mean_abs_error": e,
                "mean_log_error": math.log2(e + 0.125),
            }
            for run in range(2)
            for ct in range(1, 6)
            for k, (s, t) in enumerate(heights)
            for e in [1.0 + k * ct / 3 + run * 0.1]
        ]
    )
    report = ratio_report(sessions, trials, cells, mlae_estimator="participant", n_boot=50)
    inter = report.tables["consistency"].query("kind == 'inter'").iloc[0]
    human = trials.groupby(["chart_type", "short_height", "tall_height"])["abs_error"].mean()
    model = cells.groupby(["chart_type", "short_height", "tall_height"])["mean_abs_error"].mean()
    shared = human.index.intersection(model.index)
    h = human.loc[shared].groupby(level=[1, 2]).mean()
    m = model.loc[shared].groupby(level=[1, 2]).mean()
    assert inter["r"] == pytest.approx(np.corrcoef(h, m.loc[h.index])[0, 1], rel=1e-9)
    assert "over the 23 (chart type, height pair) cells both have (humans 23, model 25)" in inter["note"]


def test_intervals_over_few_units_quote_the_measured_coverage():
    """Rows 3 and 9: < 10 participants or runs -> the coverage make validate wrote to the data file, at that n."""
    table = pd.read_csv(COVERAGE_CSV, comment="#")
    assert set(table["unit"]) == {"participants", "runs", "sketches"}
    assert all(set(n) == set(range(1, 10)) for _, n in table.groupby(["unit", "statistic"])["n_units"])
    assert COVERAGE_CSV.read_text(encoding="utf-8").startswith("# Written by `make validate`")
    rng = np.random.default_rng(12)
    sessions, trials = _cohort({f"p{i}": list(rng.normal(0, 5, 25)) for i in range(3)})
    cells, stimuli = _model(runs=2, error=lambda run, k: 1.0 + run + k)
    report = ratio_report(sessions, trials, cells, stimuli, n_boot=50)
    row = table.query("unit == 'participants' and statistic == 'mlae_pooled' and n_units == 3").iloc[0]
    human = report.tables["mlae"].query("kind == 'human'")["note"].iloc[0]
    assert f"{row['coverage']:.2f} [{row['mc_low']:.2f}, {row['mc_high']:.2f}] at n = 3" in human
    runs = table.query("unit == 'runs' and statistic == 'mae' and n_units == 2").iloc[0]
    model_mae = report.tables["mae"].query("kind == 'model' and chart_type == 'all'")["note"].iloc[0]
    assert model_mae.startswith("interval over 2 runs") and f"{runs['coverage']:.2f}" in model_mae
    for text in (report.text(), report.markdown()):
        assert "cnn †" in text and "† cnn: interval over 2 runs" in text and "† humans: interval over 3" in text
    assert small_sample_note(10) == "" and small_sample_note(12, "runs", "mae") == ""


def test_random_effects_test_weighs_a_runs_cells_by_their_predictions():
    """A run's rows are cells of n predictions: per type, the variance of the n-weighted mean of its 5 cells,
    C/(C − 1) · Σ n_c² (x_c − x̄_w)² / (Σ n_c)², summed over the 5 types, over 25; here n_c = 1..5."""
    rng = np.random.default_rng(12)
    sessions, trials = _cohort({f"p{i}": list(rng.normal(0, 5, 25)) for i in range(12)})
    cells, stimuli = _model(runs=2, error=lambda run, k: 1.0 + run + 0.5 * k * k)
    n_c = np.arange(1, 6)
    cells["n"] = np.tile(n_c, 10)  # the 5 cells of each (run, type) in order k = 0..4
    report = ratio_report(sessions, trials, cells, stimuli, n_boot=50)
    re = report.tables["effects"].query("effect == 'observer'").iloc[1]
    x = 0.5 * np.arange(5) ** 2  # a cell's error less the run's offset; the spread is the same in both runs
    mean_w = (n_c * x).sum() / n_c.sum()
    v_type = 5 / 4 * (n_c**2 * (x - mean_w) ** 2).sum() / n_c.sum() ** 2
    runs = np.array([1.0 + run + mean_w for run in range(2)])
    by_type = trials.groupby(["participant_id", "chart_type"])["abs_error"]
    people = by_type.mean().groupby(level=0).mean().to_numpy()
    v_people = (by_type.var(ddof=1) / 5).groupby(level=0).sum().to_numpy() / 25
    s2 = people.var(ddof=1)
    tau2 = max(s2 - v_people.mean(), 0.0)
    se2 = (tau2 + 5 * v_type / 25) / 2 + s2 / 12
    assert re["statistic"] == pytest.approx((runs.mean() - people.mean()) / math.sqrt(se2), rel=1e-9)
