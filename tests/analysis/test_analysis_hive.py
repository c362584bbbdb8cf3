"""analysis.hive_statistics and the HIVE report (analysis.reports.hive_study) against hand-computed values and
scipy, and simulated cohorts: one built to match HIVE's GradCAM CUB distinction row (71.2 ± 33.3, n = 50), one at
chance, one below it and one without variance. The reference values are computed here from the papers' formulas
(t = (mean − chance) / (s / √n), one-sided p = P(T ≥ t); Spearman's ρ as Pearson's r of the ranks of one value per
match), not by our functions."""

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analysis.hive_statistics import (
    HiveTask,
    accuracy_summary,
    condition_tests,
    match_similarity,
    participant_accuracy,
    similarity_correlation,
    study_comparison,
    tradeoff_summary,
    understanding_summary,
)
from analysis.reports.hive_study import hive_report

# HIVE's tasks as the hive task package builds them (server/tasks/hive/task.py, statistics_task; tests/test_hive.py
# checks they are the same): written out so that the analysis tests need no server.
AGREEMENT = HiveTask("agreement", 50.0, "two-sided")
DISTINCTION = HiveTask("distinction", 25.0, "greater")
OUTPUT_PREDICTION = HiveTask("output prediction", 25.0, "greater")

# Correct answers out of 10 per participant: sum 356, sum of squares 3078 → mean 71.2 %, SD 33.30 % (ddof = 1).
HIVE_GRADCAM_CUB = [0] * 5 + [3] * 4 + [5] * 9 + [8] * 8 + [9] * 5 + [10] * 19


def cohort(correct_counts, n_trials=10, model_correct=1):
    rows = [
        {"participant_id": p, "practice": False, "model_correct": model_correct, "correct": int(i < k), "confidence": 3}
        for p, k in enumerate(correct_counts)
        for i in range(n_trials)
    ]
    return pd.DataFrame(rows)


def people(n, **columns):
    return pd.DataFrame({"participant_id": range(n), "status": "completed", **columns})


def one_sided_t_by_hand(acc, chance):
    """HIVE Sec. 5.1's 1-sample t-test, one-sided as Table 2 asks "outperform": t = (ā − c)/(s/√n), p = P(T ≥ t)."""
    acc = np.asarray(acc, dtype=float)
    n = acc.size
    s = np.sqrt(((acc - acc.mean()) ** 2).sum() / (n - 1))
    t = (acc.mean() - chance) / (s / np.sqrt(n))
    return t, stats.t.sf(t, n - 1), acc.mean() - stats.t.ppf(0.95, n - 1) * s / np.sqrt(n)


def test_simulated_cohort_reproduces_the_published_gradcam_cub_distinction_row():
    assert len(HIVE_GRADCAM_CUB) == 50
    report = hive_report(people(50), cohort(HIVE_GRADCAM_CUB), DISTINCTION, "gradcam", "CUB")
    row = report.tables["accuracy"].set_index("condition").loc["correct"]
    assert (row["n"], round(row["mean"], 1), round(row["sd"], 1)) == (50, 71.2, 33.3)
    assert (row["published_mean"], row["published_sd"]) == (71.2, 33.3)
    assert row["p_val"] < 0.05 and row["significant"] and row["verdict"] == "above chance"
    acc = 10.0 * np.array(HIVE_GRADCAM_CUB)
    t, p, bound = one_sided_t_by_hand(acc, 25.0)
    assert row["alternative"] == "greater"
    assert row["t"] == pytest.approx(t, rel=1e-12) and row["p_val"] == pytest.approx(p, rel=1e-9)
    # the one-sided test comes with its one-sided bound [mean − t_0.95 · s/√n, 100], not a two-sided interval
    assert (row["ci_low"], row["ci_high"]) == (pytest.approx(bound, rel=1e-12), 100.0)
    assert row["ci_kind"].startswith("one-sided 95 % lower bound") and not row["ci_clipped"]
    assert row["p_val"] == pytest.approx(stats.ttest_1samp(acc, 25.0, alternative="greater").pvalue)


def test_cohort_at_chance_is_not_significant():
    counts = [0, 1, 2, 3, 4, 5] * 8 + [2, 3]  # mean 2.5 of 10 = 25 %: chance in a four-way task
    row = accuracy_summary(participant_accuracy(cohort(counts)), 25.0).set_index("condition").loc["correct"]
    assert row["mean"] == pytest.approx(25.0)
    assert row["p_val"] == pytest.approx(0.5) and not row["significant"]  # t = 0: one-sided p = 1/2
    assert row["verdict"] == "not above chance" and row["note"] == ""


def test_a_cohort_below_chance_is_not_above_it_and_the_note_says_below():
    counts = [0] * 20 + [1] * 15 + [2] * 10 + [3] * 5  # mean 1 of 10 = 10 %, far below 25 %
    row = accuracy_summary(participant_accuracy(cohort(counts)), 25.0).set_index("condition").loc["correct"]
    t, p, _ = one_sided_t_by_hand(10.0 * np.array(counts), 25.0)
    assert row["t"] == pytest.approx(t) and t < -10
    assert row["p_val"] == pytest.approx(p) and row["p_val"] > 0.999  # not "significant": it is the wrong side
    assert row["significant"] is False or row["significant"] == False  # noqa: E712 (numpy bool)
    assert row["verdict"] == "not above chance" and "mean 10 % is below chance (25 %)" in row["note"]
    # the agreement task's Table 1 asks "different from 50 %": there, below chance is significant, and said so
    two = accuracy_summary(participant_accuracy(cohort(counts)), 50.0, "two-sided").set_index("condition")
    assert two.loc["correct", "verdict"] == "below chance" and two.loc["correct", "significant"]
    assert two.loc["correct", "p_val"] == pytest.approx(stats.ttest_1samp(10.0 * np.array(counts), 50).pvalue)
    assert two.loc["correct", "ci_kind"].startswith("two-sided 95 % t interval")


def test_a_cohort_a_little_below_chance_reads_not_above_chance():
    """Issue #39 point 4: hive-prototree's "correct" row at 24.2 % vs 25 % (p = 0.595) read "below chance (does not
    outperform it)"; the one-sided test shows only that it is not above chance."""
    counts = [0, 1, 2, 3, 4, 5] * 8 + [2, 2]  # mean 2.48 of 10 = 24.8 %
    t, p, _ = one_sided_t_by_hand(10.0 * np.array(counts), 25.0)
    assert 0.5 < p < 0.6
    row = accuracy_summary(participant_accuracy(cohort(counts)), 25.0).set_index("condition").loc["correct"]
    assert row["p_val"] == pytest.approx(p) and row["verdict"] == "not above chance"
    text = hive_report(people(len(counts)), cohort(counts), DISTINCTION, "gradcam").text()
    assert "not above chance" in text and "does not outperform" not in text


def test_a_cohort_without_variance_is_reported_for_what_it_is():
    table = accuracy_summary(participant_accuracy(cohort([10] * 50)), 25.0).set_index("condition")
    row = table.loc["correct"]
    assert row["mean"] == 100.0 and row["sd"] == 0.0
    assert np.isnan(row["t"]) and np.isnan(row["p_val"]) and row["significant"] is None
    assert row["verdict"] == "above chance; t undefined"
    assert "all 50 participants at 100 %" in row["note"] and "t is undefined" in row["note"]
    low = accuracy_summary(participant_accuracy(cohort([0] * 4)), 25.0).iloc[0]
    assert low["verdict"] == "below chance; t undefined" and "all 4 participants at 0 %" in low["note"]
    one = accuracy_summary(participant_accuracy(cohort([7])), 25.0).iloc[0]
    assert one["verdict"] == "not tested" and "needs at least 2" in one["note"] and np.isnan(one["sd"])
    report = hive_report(people(50), cohort([10] * 50), DISTINCTION, "gradcam")
    assert "above chance; t undefined" in report.text()
    assert any("all 50 participants at 100 %" in n for n in report.notes)
    assert "all 50 participants at 100 %" in report.methods()


def test_participant_accuracy_by_condition_by_hand():
    trials = pd.DataFrame(
        {
            "participant_id": [1, 1, 1, 1, 2, 2, 2, 2],
            "model_correct": [1, 1, 0, 0, 1, 1, 0, 0],
            "correct": [1, 0, 1, 1, 1, 1, 0, 0],
            "confidence": [4, 2, 3, 3, 5, 5, 1, 3],
        }
    )
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
    trials = pd.DataFrame(
        {
            "participant_id": [0, 0, 0, 0, 1, 1, 1, 1],
            "model_correct": [1, 1, 0, 0] * 2,
            "judged_correct": [1, 1, 1, 1, 1, 1, 0, 0],
            "confidence": [1, 2, 1, 2, 1, 1, 4, 4],
        }
    )
    trials["correct"] = (trials["judged_correct"] == trials["model_correct"]).astype(int)
    s = accuracy_summary(participant_accuracy(trials), 50.0).set_index("condition")
    assert s.loc["correct", "judged_correct_percent"] == 100.0
    assert s.loc["incorrect", "judged_correct_percent"] == 50.0
    assert s.loc["incorrect", "mean"] == 100.0 - 50.0  # accuracy on incorrect = share judged incorrect


def test_condition_tests_match_scipy():
    rng = np.random.default_rng(3)
    trials = pd.concat(
        [cohort(rng.integers(3, 10, 20), model_correct=1), cohort(rng.integers(0, 7, 20), model_correct=0)]
    )
    per = participant_accuracy(trials)
    tests = condition_tests(per).set_index("test")
    wide = per.pivot(index="participant_id", columns="condition", values="accuracy")
    assert tests.loc["welch", "p_val"] == pytest.approx(
        stats.ttest_ind(wide["correct"], wide["incorrect"], equal_var=False).pvalue
    )
    assert tests.loc["paired", "p_val"] == pytest.approx(stats.ttest_rel(wide["correct"], wide["incorrect"]).pvalue)
    assert tests.loc["welch", "estimate"] == pytest.approx(wide["correct"].mean() - wide["incorrect"].mean())


def test_skipped_condition_tests_keep_their_row_and_say_why():
    trials = pd.concat([cohort([8, 8, 8], model_correct=1), cohort([3, 3, 3], model_correct=0)])
    tests = condition_tests(participant_accuracy(trials)).set_index("test")
    assert list(tests.index) == ["welch", "paired"]
    assert np.isnan(tests.loc["welch", "t"]) and "no variance in either group" in tests.loc["welch", "note"]
    assert "all 3 participants' differences" in tests.loc["paired", "note"] and "+50.0" in tests.loc["paired", "note"]
    only = condition_tests(participant_accuracy(cohort([3, 4], model_correct=1))).set_index("test")
    assert "no trials on incorrect model predictions" in only.loc["paired", "note"]
    text = hive_report(people(3), trials, DISTINCTION, "gradcam").text()
    assert "– (see note)" in text and "no variance in either group" in text


def test_study_comparison_is_welch_between_studies():
    a = participant_accuracy(cohort([5, 6, 7, 8, 9]))
    b = participant_accuracy(cohort([1, 2, 3, 4, 4]))
    res = study_comparison(a, b).iloc[0]
    assert res["p_val"] == pytest.approx(
        stats.ttest_ind([50, 60, 70, 80, 90], [10, 20, 30, 40, 40], equal_var=False).pvalue
    )
    with pytest.raises(ValueError, match="condition"):
        study_comparison(a, b, condition="sometimes")


RATED = pd.DataFrame(
    {
        "participant_id": [0, 0, 1, 1, 2, 2],
        "stimulus_id": ["a", "b", "a", "b", "a", "c"],
        "similarity_ratings": ["1;2", "4;3", "2;2", "4;4", "3;1", "1;4"],
        "model_similarity": ["0.5;1.0", "3.5;2.0", "0.5;1.0", "3.5;2.0", "0.5;1.0", "0.2;2.9"],
    }
)


def test_similarity_is_one_value_per_match_as_in_hive():
    per, counts = match_similarity(RATED)
    per = per.set_index(["stimulus_id", "match"])
    # match (a, 1) was rated 1, 2, 3 by three participants: its value is their mean, 2
    assert per.loc[("a", 1), "human"] == 2.0 and per.loc[("a", 1), "n_ratings"] == 3
    assert per.loc[("b", 2), "human"] == 3.5 and per.loc[("b", 2), "model"] == 2.0
    assert len(per) == 6 and counts == {"trials_rated": 6, "trials_mismatched": 0, "ratings": 12, "participants": 3}
    # by hand from HIVE Sec. 5.4: Spearman's rho = Pearson's r of the (average) ranks of the six match values
    human = np.array([2.0, 5 / 3, 4.0, 3.5, 1.0, 4.0])  # a1, a2, b1, b2, c1, c2
    model = np.array([0.5, 1.0, 3.5, 2.0, 0.2, 2.9])
    rank_h, rank_m = stats.rankdata(human), stats.rankdata(model)
    rho = np.corrcoef(rank_h, rank_m)[0, 1]
    # 6 matches: below 10, so p is exact, the share of the 6! pairings of the ranks with |rho| at least as large
    extreme = sum(abs(np.corrcoef(rank_h, perm)[0, 1]) >= abs(rho) - 1e-12 for perm in itertools.permutations(rank_m))
    res = similarity_correlation(RATED, "protopnet").set_index("method")
    assert list(res.index) == ["spearman", "pearson"] and res.loc["spearman", "hive_choice"]
    assert res.loc["spearman", "r"] == pytest.approx(rho, abs=1e-12)
    assert res.loc["spearman", "p_val"] == pytest.approx(extreme / 720, rel=1e-12)
    assert res.loc["spearman", "p_method"].startswith("exact")
    r = np.corrcoef(human, model)[0, 1]
    z = np.arctanh(r)
    assert res.loc["pearson", "r"] == pytest.approx(r, abs=1e-12)
    assert (res.loc["pearson", "ci_low"], res.loc["pearson", "ci_high"]) == pytest.approx(
        (np.tanh(z - stats.norm.ppf(0.975) / np.sqrt(3)), np.tanh(z + stats.norm.ppf(0.975) / np.sqrt(3)))
    )
    assert (res["n"] == 6).all() and (res["n_ratings"] == 12).all() and (res["unit"] == "match").all()
    # ProtoTree: HIVE's coefficient is Pearson's r
    tree = similarity_correlation(RATED, "prototree")
    assert tree["method"].tolist() == ["pearson", "spearman"] and tree["hive_choice"].tolist() == [True, False]
    assert similarity_correlation(RATED.assign(similarity_ratings=None)).empty  # nothing rated: no table


def test_pooling_ratings_would_inflate_n_and_shrink_p():
    """HIVE's n is the number of matches: 40 participants rating the same 5 matches give n = 5, not 200."""
    rng = np.random.default_rng(0)
    model = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    rows = [
        {
            "participant_id": p,
            "stimulus_id": f"s{m}",
            "similarity_ratings": str(int(np.clip(np.round(1 + 0.5 * m + rng.normal(0, 1)), 1, 4))),
            "model_similarity": str(model[m]),
        }
        for p in range(40)
        for m in range(5)
    ]
    res = similarity_correlation(pd.DataFrame(rows), "protopnet").set_index("method")
    assert (res["n"] == 5).all() and (res["n_ratings"] == 200).all()


def test_similarity_degradations_are_counted_and_explained():
    bad = pd.concat(
        [
            RATED,
            pd.DataFrame(
                {
                    "participant_id": [3],
                    "stimulus_id": ["a"],
                    "similarity_ratings": ["4"],
                    "model_similarity": ["0.5;1.0"],
                }
            ),
        ]
    )
    per, counts = match_similarity(bad)
    assert counts["trials_mismatched"] == 1 and counts["trials_rated"] == 7 and counts["ratings"] == 12
    report = hive_report(
        people(4), bad.assign(practice=False, model_correct=1, correct=1, confidence=2), AGREEMENT, "protopnet"
    )
    assert any("1 of 7 rated trial(s) left out" in n for n in report.notes)
    two = similarity_correlation(RATED[RATED["stimulus_id"] == "a"], "protopnet")
    assert two["r"].isna().all() and two["note"].str.contains("2 match").all()
    four = similarity_correlation(RATED[RATED["stimulus_id"] != "c"], "prototree").set_index("method")
    assert four.loc["pearson", "n"] == 4 and four.loc["pearson", "note"] == ""
    three = RATED.assign(
        stimulus_id=["a", "b", "a", "b", "a", "b"],
        similarity_ratings="2;2",
        model_similarity=["1;2", "3;4", "1;2", "3;4", "1;2", "3;4"],
    )
    flat = similarity_correlation(three, "protopnet")
    assert flat["r"].isna().all() and flat["note"].str.contains("same mean rating (2.00)", regex=False).all()


def test_understanding_paired_tests_match_scipy():
    one, two, three = [2, 3, 3, 4, 2], [3, 3, 4, 4, 3], [2, 2, 3, 3, 2]
    table = understanding_summary(
        people(
            5,
            hive_understanding_1_understanding=one,
            hive_understanding_2_understanding=two,
            hive_understanding_3_understanding=three,
        )
    )
    points = table[table["kind"] == "point"].set_index("point")
    assert points.loc["after preview", "mean"] == pytest.approx(2.8)
    assert points.loc["after task", "sd"] == pytest.approx(np.std(two, ddof=1))
    tests = table[table["kind"] == "paired test"].set_index("point")
    assert tests.loc["after preview → after task", "p_val"] == pytest.approx(stats.ttest_rel(two, one).pvalue)
    assert tests.loc["after task → after score", "mean"] == pytest.approx(np.mean(np.subtract(three, two)))


def test_tradeoff_gain_by_hand():
    table = tradeoff_summary(
        people(
            4,
            hive_tradeoff_low_risk=[60, 65, 70, 65],
            hive_tradeoff_medium_risk=[70] * 4,
            hive_tradeoff_high_risk=[80, 90, 100, 70],
        ),
        reference=60,
    ).set_index("risk")
    assert table.loc["low", "mean_gain"] == 5.0
    assert table.loc["high", "mean_gain"] == 25.0
    assert table.loc["high", "sd_gain"] == pytest.approx(np.std([20, 30, 40, 10], ddof=1))
    # "must a model without explanations gain accuracy?": one-sided, gain > 0
    assert table.loc["high", "p_val"] == pytest.approx(
        stats.ttest_1samp([20, 30, 40, 10], 0, alternative="greater").pvalue
    )
    assert np.isnan(table.loc["medium", "p_val"])  # everyone said 70: no spread, no test …
    assert table.loc["medium", "note"].startswith("all 4 gains equal (+10.0): no variance, so t is undefined")
    assert table.loc["medium", "published_gain"] == 8.2
    # no gain below 0 says nothing about which question was answered: no note claims the old 60–100 % one (#39)
    assert table[["n_below", "n_equal", "n_above"]].loc["low"].tolist() == [0, 1, 3]
    assert table.loc["low", "note"] == ""


def test_tradeoff_note_on_answers_that_could_not_go_below_the_reference_only_where_they_exist():
    """Issue #39 point 4: answers given while the question accepted only 60–100 % (form 1), or stored before the
    form was recorded (empty hive_tradeoff_revision), and none below 60, get a note saying so; a cohort all under
    the 0–100 form (2) gets none, nor does one whose unrecorded answers include one below 60."""
    answers = dict(hive_tradeoff_low_risk=[60, 65, 70, 80], hive_tradeoff_high_risk=[60, 90, 100, 55])

    def notes(revisions):
        table = tradeoff_summary(people(4, **answers, hive_tradeoff_revision=revisions)).set_index("risk")
        return table.loc["low", "note"], table.loc["high", "note"]

    assert notes([2, 2, 2, 2]) == ("", "")  # all answered 0–100; one at 55 or none below 60, nothing to say
    low, high = notes([None, None, 2, 2])
    assert low == (
        "2 of 4 answers were stored before the question's form was recorded; if given while it accepted only "
        "60–100 %, they could not go below 60"
    )
    assert high == low  # 55 is the fourth, of form 2: the two unrecorded answers (60, 90) are not below 60
    assert notes([2, None, None, None]) == (low.replace("2 of 4 answers were", "3 of 4 answers were"), "")
    low, _ = notes([1, np.nan, 2, 2])
    assert low == (
        "1 of 4 answers was given while the question accepted only 60–100 %: it could not go below 60; "
        "1 of 4 answers was stored before the question's form was recorded; if given while it accepted only "
        "60–100 %, it could not go below 60"
    )
    # the export's column as participants.csv reads back: text, empty where unrecorded
    assert notes(["2", "", "2", "2"])[0].startswith("1 of 4 answers was stored before")


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="correct"):
        participant_accuracy(pd.DataFrame({"participant_id": [1], "model_correct": [1]}))
    with pytest.raises(ValueError, match="task must be a HiveTask"):
        hive_report(people(1), cohort([5]), "hive-distinction", "gradcam")
    with pytest.raises(ValueError, match="no test trials"):
        hive_report(people(1).assign(status="started"), cohort([5]), DISTINCTION, "gradcam")


def test_survey_tables_name_missing_columns():
    with pytest.raises(ValueError, match="participant_id"):
        tradeoff_summary(pd.DataFrame({"hive_tradeoff_low_risk": [70]}))
    with pytest.raises(ValueError, match="participant_id"):
        understanding_summary(pd.DataFrame({"x": [1]}))
    assert tradeoff_summary(people(2)).empty and understanding_summary(people(2)).empty  # not asked: no table


def test_understanding_notes_unanswered_and_untestable():
    table = understanding_summary(
        people(4, hive_understanding_1_understanding=[3, 3, None, 4], hive_understanding_2_understanding=[4, 4, 3, 5])
    )
    points = table[table["kind"] == "point"].set_index("point")
    assert points.loc["after preview", "note"] == "1 of 4 participants did not answer"
    test = table[table["kind"] == "paired test"].iloc[0]
    assert test["n"] == 3 and np.isnan(test["p_val"]) and "all 3 changes equal (+1.0)" in test["note"]


def test_report_json_markdown_and_methods_carry_the_notes():
    trials = cohort(HIVE_GRADCAM_CUB).assign(stimulus_id="img")
    report = hive_report(people(50).assign(hive_tradeoff_low_risk=70), trials, DISTINCTION, "gradcam", "CUB")
    data = report.json()
    assert data["accuracy"][0]["verdict"] == "above chance" and data["accuracy"][0]["alternative"] == "greater"
    assert data["tradeoff"][0]["note"].startswith("all 50 gains equal")
    paired = {r["test"]: r for r in data["conditions"]}["paired"]
    assert paired["t"] is None and "no trials on incorrect" in paired["note"]
    md = report.markdown()
    assert "| model prediction |" in md and "above chance (p < 0.05)?" in md
    methods = report.methods()
    assert methods.startswith("# Methods: HIVE distinction study (GradCAM)")
    for phrase in (
        "50 participants completed",
        "one-sided (H1: the mean exceeds chance)",
        "ddof = 1",
        "no outlier rule",
        "Welch",
        "Student (1908)",
        "## References",
        "pingouin",
    ):
        assert phrase in methods, phrase
