"""analysis.hive against hand-computed values and scipy, and simulated cohorts: one built to match HIVE's
GradCAM CUB distinction row (71.2 ± 33.3, n = 50) and one at chance."""
import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analysis.hive import (accuracy_summary, condition_tests, hive_report, participant_accuracy,
                           similarity_correlation, study_comparison, tradeoff_summary, understanding_summary)

# Correct answers out of 10 per participant: sum 356, sum of squares 3078 → mean 71.2 %, SD 33.30 % (ddof = 1).
HIVE_GRADCAM_CUB = [0] * 5 + [3] * 4 + [5] * 9 + [8] * 8 + [9] * 5 + [10] * 19


def cohort(correct_counts, n_trials=10, model_correct=1):
    rows = [{"participant_id": p, "practice": False, "model_correct": model_correct, "correct": int(i < k),
             "confidence": 3} for p, k in enumerate(correct_counts) for i in range(n_trials)]
    return pd.DataFrame(rows)


def people(n, **columns):
    return pd.DataFrame({"participant_id": range(n), "status": "completed", **columns})


def test_simulated_cohort_reproduces_the_published_gradcam_cub_distinction_row():
    assert len(HIVE_GRADCAM_CUB) == 50
    report = hive_report(people(50), cohort(HIVE_GRADCAM_CUB), "hive-distinction", "gradcam", "CUB")
    row = report.tables["accuracy"].set_index("condition").loc["correct"]
    assert (row["n"], round(row["mean"], 1), round(row["sd"], 1)) == (50, 71.2, 33.3)
    assert (row["published_mean"], row["published_sd"]) == (71.2, 33.3)
    assert row["p_val"] < 0.05 and row["significant"]
    acc = 10.0 * np.array(HIVE_GRADCAM_CUB)
    assert row["p_val"] == pytest.approx(stats.ttest_1samp(acc, 25.0).pvalue)
    assert row["t"] == pytest.approx((71.2 - 25) / (acc.std(ddof=1) / np.sqrt(50)))


def test_cohort_at_chance_is_not_significant():
    counts = [0, 1, 2, 3, 4, 5] * 8 + [2, 3]  # mean 2.5 of 10 = 25 %: chance in a four-way task
    row = accuracy_summary(participant_accuracy(cohort(counts)), 25.0).set_index("condition").loc["correct"]
    assert row["mean"] == pytest.approx(25.0)
    assert row["p_val"] > 0.05 and not row["significant"]


def test_participant_accuracy_by_condition_by_hand():
    trials = pd.DataFrame({"participant_id": [1, 1, 1, 1, 2, 2, 2, 2], "model_correct": [1, 1, 0, 0, 1, 1, 0, 0],
                           "correct": [1, 0, 1, 1, 1, 1, 0, 0], "confidence": [4, 2, 3, 3, 5, 5, 1, 3]})
    per = participant_accuracy(trials).set_index(["participant_id", "condition"])
    assert per.loc[(1, "correct"), "accuracy"] == 50.0
    assert per.loc[(1, "incorrect"), "accuracy"] == 100.0
    assert per.loc[(1, "all"), "accuracy"] == 75.0
    assert per.loc[(2, "incorrect"), "mean_confidence"] == 2.0
    summary = accuracy_summary(per.reset_index(), 25.0).set_index("condition")
    assert summary.loc["correct", "mean"] == 75.0
    assert summary.loc["correct", "sd"] == pytest.approx(np.std([50, 100], ddof=1))  # 35.36
    assert summary.loc["all", "sd"] == pytest.approx(np.std([75, 50], ddof=1))


def test_agreement_judged_correct_is_the_confirmation_bias_reading():
    # participant 0 believes everything; participant 1 believes correct predictions only
    trials = pd.DataFrame({"participant_id": [0, 0, 0, 0, 1, 1, 1, 1], "model_correct": [1, 1, 0, 0] * 2,
                           "judged_correct": [1, 1, 1, 1, 1, 1, 0, 0], "confidence": [1, 2, 1, 2, 1, 1, 4, 4]})
    trials["correct"] = (trials["judged_correct"] == trials["model_correct"]).astype(int)
    s = accuracy_summary(participant_accuracy(trials), 50.0).set_index("condition")
    assert s.loc["correct", "judged_correct_percent"] == 100.0
    assert s.loc["incorrect", "judged_correct_percent"] == 50.0
    assert s.loc["incorrect", "mean"] == 100.0 - 50.0  # accuracy on incorrect = share judged incorrect


def test_condition_tests_match_scipy():
    rng = np.random.default_rng(3)
    trials = pd.concat([cohort(rng.integers(3, 10, 20), model_correct=1),
                        cohort(rng.integers(0, 7, 20), model_correct=0)])
    per = participant_accuracy(trials)
    tests = condition_tests(per).set_index("test")
    wide = per.pivot(index="participant_id", columns="condition", values="accuracy")
    assert tests.loc["welch", "p_val"] == pytest.approx(
        stats.ttest_ind(wide["correct"], wide["incorrect"], equal_var=False).pvalue)
    assert tests.loc["paired", "p_val"] == pytest.approx(stats.ttest_rel(wide["correct"], wide["incorrect"]).pvalue)
    assert tests.loc["welch", "estimate"] == pytest.approx(wide["correct"].mean() - wide["incorrect"].mean())


def test_study_comparison_is_welch_between_studies():
    a = participant_accuracy(cohort([5, 6, 7, 8, 9]))
    b = participant_accuracy(cohort([1, 2, 3, 4, 4]))
    res = study_comparison(a, b).iloc[0]
    assert res["p_val"] == pytest.approx(stats.ttest_ind([50, 60, 70, 80, 90], [10, 20, 30, 40, 40],
                                                         equal_var=False).pvalue)
    with pytest.raises(ValueError, match="condition"):
        study_comparison(a, b, condition="sometimes")


def test_similarity_correlations_match_scipy():
    trials = pd.DataFrame({"participant_id": [0, 0, 1], "similarity_ratings": ["1;2;4", "3;3;1", "4;2;2"],
                           "model_similarity": ["0.5;1.0;3.5", "2.0;2.5;0.2", "3.9;1.1;1.4"]})
    human = [1, 2, 4, 3, 3, 1, 4, 2, 2]
    model = [0.5, 1.0, 3.5, 2.0, 2.5, 0.2, 3.9, 1.1, 1.4]
    res = similarity_correlation(trials).set_index("method")
    r, p = stats.pearsonr(human, model)
    rho, p_rho = stats.spearmanr(human, model)
    assert res.loc["pearson", ["r", "p_val"]].tolist() == pytest.approx([r, p])
    assert res.loc["spearman", ["r", "p_val"]].tolist() == pytest.approx([rho, p_rho])
    assert res.loc["pearson", "n"] == 9
    assert similarity_correlation(trials.assign(similarity_ratings=None)).empty  # nothing rated: no table


def test_understanding_paired_tests_match_scipy():
    one, two, three = [2, 3, 3, 4, 2], [3, 3, 4, 4, 3], [2, 2, 3, 3, 2]
    table = understanding_summary(people(5, hive_understanding_1_understanding=one,
                                         hive_understanding_2_understanding=two,
                                         hive_understanding_3_understanding=three))
    points = table[table["kind"] == "point"].set_index("point")
    assert points.loc["after preview", "mean"] == pytest.approx(2.8)
    assert points.loc["after task", "sd"] == pytest.approx(np.std(two, ddof=1))
    tests = table[table["kind"] == "paired test"].set_index("point")
    assert tests.loc["after preview → after task", "p_val"] == pytest.approx(stats.ttest_rel(two, one).pvalue)
    assert tests.loc["after task → after score", "mean"] == pytest.approx(np.mean(np.subtract(three, two)))


def test_tradeoff_gain_by_hand():
    table = tradeoff_summary(people(4, hive_tradeoff_low_risk=[60, 65, 70, 65], hive_tradeoff_medium_risk=[70] * 4,
                                    hive_tradeoff_high_risk=[80, 90, 100, 70]), reference=60).set_index("risk")
    assert table.loc["low", "mean_gain"] == 5.0
    assert table.loc["high", "mean_gain"] == 25.0
    assert table.loc["high", "sd_gain"] == pytest.approx(np.std([20, 30, 40, 10], ddof=1))
    assert table.loc["high", "p_val"] == pytest.approx(stats.ttest_1samp([20, 30, 40, 10], 0).pvalue)
    assert np.isnan(table.loc["medium", "p_val"])  # everyone said 70: no spread, no test
    assert table.loc["medium", "published_gain"] == 8.2


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="correct"):
        participant_accuracy(pd.DataFrame({"participant_id": [1], "model_correct": [1]}))
    with pytest.raises(ValueError, match="task_type"):
        hive_report(people(1), cohort([5]), "hive-guessing", "gradcam")
    with pytest.raises(ValueError, match="no test trials"):
        hive_report(people(1).assign(status="started"), cohort([5]), "hive-distinction", "gradcam")


def test_survey_tables_name_missing_columns():
    with pytest.raises(ValueError, match="participant_id"):
        tradeoff_summary(pd.DataFrame({"hive_tradeoff_low_risk": [70]}))
    with pytest.raises(ValueError, match="participant_id"):
        understanding_summary(pd.DataFrame({"x": [1]}))
    assert tradeoff_summary(people(2)).empty and understanding_summary(people(2)).empty  # not asked: no table
