"""Issue #23, HIVE rows 4, 5, 10 and 11 and points 1, 3, 5: what a reviewer checks in the HIVE report. Expected values
are computed here from the textbook formulas (one-sided t bound, the exact permutation null of Spearman's ρ by
enumeration, 5 − stored for the agreement scale), not by the product's functions."""

import itertools
import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analysis.hive_statistics import accuracy_summary, participant_accuracy, tradeoff_summary
from analysis.rank_correlation import spearman
from analysis.reports.hive_study import hive_report
from tests.analysis.test_analysis_hive import AGREEMENT, DISTINCTION, OUTPUT_PREDICTION


def cohort(correct_counts, n_trials=10, model_correct=1, confidence=3):
    return pd.DataFrame(
        [
            {
                "participant_id": p,
                "stimulus_id": f"img{i}",
                "practice": False,
                "model_correct": model_correct,
                "correct": int(i < k),
                "confidence": confidence,
            }
            for p, k in enumerate(correct_counts)
            for i in range(n_trials)
        ]
    )


def people(n, **columns):
    return pd.DataFrame({"participant_id": range(n), "status": "completed", **columns})


# ---------------------------------------------------------------------------------------------- row 4


def test_a_one_sided_test_prints_its_one_sided_bound_never_a_two_sided_interval():
    # 31 participants, 10 four-way trials each: mean 29.0 %, just significant one-sided, as in the example
    counts = [1] * 3 + [2] * 10 + [3] * 10 + [4] * 3 + [5] * 5
    acc = 10.0 * np.array(counts)
    n, mean, s = acc.size, acc.mean(), acc.std(ddof=1)
    p = stats.t.sf((mean - 25) / (s / math.sqrt(n)), n - 1)
    bound = mean - stats.t.ppf(0.95, n - 1) * s / math.sqrt(n)
    half = stats.t.ppf(0.975, n - 1) * s / math.sqrt(n)
    assert p < 0.05 and mean - half < 25 < bound  # the two-sided interval would contain chance; the bound does not
    report = hive_report(people(n), cohort(counts), DISTINCTION, "gradcam")
    row = report.tables["accuracy"].set_index("condition").loc["correct"]
    assert row["p_val"] == pytest.approx(p) and row["verdict"] == "above chance"
    assert (row["ci_low"], row["ci_high"]) == (pytest.approx(bound), 100.0)
    text, md = report.text(), report.markdown()
    for out in (text, md):
        assert f"≥ {bound:.1f} %" in out and "95 % lower bound (one-sided)" in out
        assert f"[{mean - half:.1f}, " not in out and "95 % CI" not in out
    assert report.json()["accuracy"][0]["ci_kind"].startswith("one-sided 95 % lower bound")
    assert "one-sided 95 % lower bound of the mean" in report.methods()


# ---------------------------------------------------------------------------------------------- row 5


def exact_spearman_p(x, y, alternative):
    """By enumeration: the share of the n! orderings of y's ranks whose ρ is at least as extreme."""
    rx, ry = stats.rankdata(x), stats.rankdata(y)
    rho = np.corrcoef(rx, ry)[0, 1]
    null = np.array([np.corrcoef(rx, perm)[0, 1] for perm in itertools.permutations(ry)])
    hits = {"greater": null >= rho - 1e-12, "less": null <= rho + 1e-12, "two-sided": abs(null) >= abs(rho) - 1e-12}
    return hits[alternative].mean()


def test_spearman_is_exact_below_ten_pairs():
    perfect = spearman([1, 2, 3], [10, 20, 30]).iloc[0]
    assert perfect["rho"] == pytest.approx(1.0) and perfect["p_val"] == pytest.approx(1 / 3)  # 2 of 3! orderings
    assert spearman([1, 2, 3], [10, 20, 30], "greater").iloc[0]["p_val"] == pytest.approx(1 / 6)
    assert spearman([1, 2, 3], [10, 20, 30], "less").iloc[0]["p_val"] == pytest.approx(1.0)
    assert stats.spearmanr([1, 2, 3], [10, 20, 30]).pvalue < 1e-6  # what the t approximation said instead
    rng = np.random.default_rng(23)
    for n in (4, 6, 8):
        x, y = rng.integers(0, 4, n).astype(float), rng.normal(size=n)  # ties in x
        x[0], x[1] = 0, 3  # not constant
        for alternative in ("two-sided", "greater", "less"):
            got = spearman(x, y, alternative).iloc[0]
            assert got["p_val"] == pytest.approx(exact_spearman_p(x, y, alternative), abs=1e-12)
            assert got["p_method"].startswith("exact") and f"{math.factorial(n):,} orderings" in got["note"]
    big = spearman(np.arange(12), rng.normal(size=12)).iloc[0]
    assert big["p_method"].startswith("t approximation")
    with pytest.raises(ValueError, match="'x' is constant"):
        spearman([1, 1, 1], [1, 2, 3])


def test_similarity_rho_of_one_at_three_matches_has_p_one_third_in_every_output():
    trials = pd.DataFrame(
        {
            "participant_id": [0, 0, 0],
            "stimulus_id": ["a", "b", "c"],
            "practice": False,
            "model_correct": 1,
            "correct": [1, 0, 1],
            "confidence": 2,
            "similarity_ratings": ["1", "2", "4"],
            "model_similarity": ["0.1", "0.5", "0.9"],
        }
    )
    report = hive_report(people(1), trials, AGREEMENT, "protopnet")
    rho = report.tables["similarity"].set_index("method").loc["spearman"]
    assert rho["r"] == pytest.approx(1.0) and rho["p_val"] == pytest.approx(1 / 3)
    assert "0.333" in report.text() and "< 0.001" not in report.text()
    assert "exact" in report.markdown() and "exact below 10 matches" in report.methods()


def test_accuracy_intervals_stay_inside_the_scale_and_say_so():
    # 0, 100, 100 %: the two-sided t interval is 66.7 ± 4.303 · 57.7/√3 = [−76.8, 210.1]
    acc = np.array([0.0, 100.0, 100.0])
    half = stats.t.ppf(0.975, 2) * acc.std(ddof=1) / math.sqrt(3)
    assert (round(acc.mean() - half, 1), round(acc.mean() + half, 1)) == (-76.8, 210.1)
    table = accuracy_summary(participant_accuracy(cohort([0, 10, 10])), 50.0, "two-sided").set_index("condition")
    row = table.loc["correct"]
    assert (row["ci_low"], row["ci_high"]) == (0.0, 100.0) and row["ci_clipped"]
    assert row["ci_kind"] == "two-sided 95 % t interval, clipped to [0, 100]"
    one_sided = accuracy_summary(participant_accuracy(cohort([0, 10, 10])), 25.0).iloc[0]
    assert one_sided["ci_low"] == 0.0 and one_sided["ci_clipped"]  # 66.7 − 2.92 · 33.3 < 0
    report = hive_report(people(3), cohort([0, 10, 10]), AGREEMENT, "gradcam")
    assert "[0.0, 100.0]" in report.text() and "-76.8" not in report.text()
    assert any("clipped to [0, 100] %" in note for note in report.notes)
    assert "clipped to the accuracy scale [0, 100] %" in report.methods()


# ---------------------------------------------------------------------------------------------- row 10


def agreement_cohort(stored):
    """50 participants × 10 trials on correct model predictions, with these stored confidences (page order:
    1 fairly confident correct … 4 fairly confident incorrect) dealt out in order."""
    rows = []
    for i, c in enumerate(stored):
        judged = int(c <= 2)
        rows.append(
            {
                "participant_id": i // 10,
                "stimulus_id": f"img{i % 10}",
                "practice": False,
                "model_correct": 1,
                "judged_correct": judged,
                "correct": judged,
                "confidence": c,
            }
        )
    return pd.DataFrame(rows)


def test_confidence_is_reported_on_hives_orientation_and_72_4_with_2_9_is_reachable():
    # HIVE Table 1, GradCAM CUB: 72.4 % of correct predictions judged correct, mean confidence 2.9 (higher = more
    # confident correct). 362 of 500 judged correct; on HIVE's scale 88 × 4 + 274 × 3 + 138 × 2 = 1450 = 2.9 · 500.
    stored = [1] * 88 + [2] * 274 + [3] * 138
    assert (88 * 4 + 274 * 3 + 138 * 2) / 500 == 2.9
    # on the stored coding every "correct" judgement is 1 or 2, so 72.4 % correct caps the mean at 2.552 < 2.9
    assert 0.724 * 2 + 0.276 * 4 == pytest.approx(2.552)
    report = hive_report(people(50), agreement_cohort(stored), AGREEMENT, "gradcam", "CUB")
    row = report.tables["accuracy"].set_index("condition").loc["correct"]
    assert row["mean"] == pytest.approx(72.4) and row["mean_confidence"] == pytest.approx(2.9)
    assert (row["published_mean"], row["published_confidence"]) == (72.4, 2.9)
    assert "72.4 ± 21.5 (2.9)" in report.text()  # HIVE's row beside ours, with its confidence
    assert "higher = more confident the prediction is correct" in report.markdown()
    assert "5 − stored" in report.methods()
    # orientation: everyone "fairly confident the prediction is correct" (stored 1) is HIVE's 4, the top
    sure = hive_report(people(50), agreement_cohort([1] * 500), AGREEMENT, "gradcam")
    assert sure.tables["accuracy"].iloc[0]["mean_confidence"] == 4.0
    doubt = hive_report(people(50), agreement_cohort([4] * 500), AGREEMENT, "gradcam")
    assert doubt.tables["accuracy"].iloc[0]["mean_confidence"] == 1.0


def test_other_tasks_keep_their_confidence_as_stored():
    report = hive_report(people(3), cohort([2, 5, 9], confidence=5), DISTINCTION, "gradcam")
    assert report.tables["accuracy"].iloc[0]["mean_confidence"] == 5.0  # 1–5, already higher = more confident


# ---------------------------------------------------------------------------------------------- row 11


def test_tradeoff_counts_gains_below_zero_and_tests_gain_above_zero_one_sided():
    answers = [40, 55, 60, 70, 90]  # accepted now: the question takes 0–100
    gain = np.array(answers) - 60.0
    table = tradeoff_summary(people(5, hive_tradeoff_high_risk=answers)).set_index("risk")
    row = table.loc["high"]
    assert (row["n_below"], row["n_equal"], row["n_above"]) == (2, 1, 2)
    assert row["mean_gain"] == pytest.approx(gain.mean())
    t = gain.mean() / (gain.std(ddof=1) / math.sqrt(5))
    assert row["p_val"] == pytest.approx(stats.t.sf(t, 4))  # H1: gain > 0
    assert "could not go below" not in row["note"]
    report = hive_report(people(5, hive_tradeoff_high_risk=answers), cohort([3] * 5), DISTINCTION, "gradcam")
    assert "2 / 1 / 2" in report.text()
    assert any("this product's choice, HIVE states none" in note for note in report.notes)
    assert "below, at and above 0" in report.methods()


# ---------------------------------------------------------------------------------------------- row 6 (point 5)


def test_published_rows_for_imagenet_with_and_without_labels():
    trials = cohort([5] * 4)
    plain = hive_report(people(4), trials, DISTINCTION, "gradcam", "ImageNet").tables["accuracy"]
    labelled = hive_report(people(4), trials, DISTINCTION, "gradcam", "ImageNet", labels=True)
    assert plain.iloc[0]["published_mean"] == 51.2 and plain.iloc[0]["published_sd"] == 24.7
    assert labelled.tables["accuracy"].iloc[0]["published_mean"] == 49.2
    assert "HIVE 2022 (distinction ImageNet with labels)" in labelled.markdown()
    bagnet = hive_report(people(4), trials, OUTPUT_PREDICTION, "bagnet", "ImageNet", labels=True)
    assert bagnet.tables["accuracy"].iloc[0]["published_mean"] == 42.8
    agree = hive_report(people(4), trials.assign(model_correct=0), AGREEMENT, "gradcam", "ImageNet")
    row = agree.tables["accuracy"].iloc[0]
    assert (row["published_mean"], row["published_sd"], row["published_confidence"]) == (44.8, 31.6, 2.7)
    none = hive_report(people(4), trials, DISTINCTION, "protopnet", "ImageNet")
    assert any("HIVE reports no figures for it" in note for note in none.notes)


# ---------------------------------------------------------------------------------------------- point 1


def both_conditions(correct_counts, **kw):
    return pd.concat(
        [cohort(correct_counts, model_correct=1, **kw), cohort(correct_counts, model_correct=0, **kw)],
        ignore_index=True,
    )


@pytest.mark.parametrize(
    ("task", "trials", "n", "words"),
    [
        (DISTINCTION, cohort([6]), 1, "1 participant: a t-test needs at least 2"),
        (AGREEMENT, both_conditions([7]), 1, "1 participant: a t-test needs at least 2"),
        (DISTINCTION, both_conditions([10] * 6), 6, "all 6 participants at 100 %"),
        (AGREEMENT, both_conditions([0] * 6), 6, "all 6 participants at 0 %"),
        (AGREEMENT, both_conditions([4] * 6, confidence=1), 6, "all 6 participants at 40 %"),
        (DISTINCTION, cohort([3, 5, 7, 9]), 4, "no trials on incorrect model predictions"),
        (OUTPUT_PREDICTION, cohort([3, 5, 7, 9], model_correct=0), 4, "no trials on correct"),
    ],
    ids=[
        "one participant",
        "one participant, both",
        "all correct",
        "all wrong",
        "all equal",
        "no incorrect",
        "no correct",
    ],
)
def test_degenerate_cohorts_write_every_output_and_say_what_is_missing(tmp_path, task, trials, n, words):
    survey = people(n, hive_tradeoff_low_risk=70, hive_understanding_1_understanding=3)
    report = hive_report(survey, trials, task, "gradcam", "CUB")
    written = report.write(tmp_path)  # CSV, text, Markdown, JSON (allow_nan=False), methods, figures
    assert (tmp_path / "report.json") in written and (tmp_path / "accuracy.png") in written
    data = json.loads((tmp_path / "report.json").read_text(), parse_constant=pytest.fail)
    notes = " ".join(data["notes"]) + " " + " ".join(r["note"] for r in data["conditions"])
    assert words in notes
    for name in ("report.txt", "report.md", "methods.md"):
        content = (tmp_path / name).read_text()
        assert "nan" not in content.lower().replace("nanc", "")  # "financ…" never occurs; NaN must not
    assert words in (tmp_path / "report.md").read_text() or words in (tmp_path / "methods.md").read_text()


# ---------------------------------------------------------------------------------------------- row 12


def test_distinction_with_similarity_ratings_and_output_prediction_reports_both():
    """The trials.csv columns a distinction study with both options writes (server/tasks/hive/task.py trial_row):
    similarity ratings of every option's matches in candidate order, and output_correct / output_confidence."""
    rng = np.random.default_rng(5)
    model = {f"img{i}": [0.1 * (i + 1), 0.3, 0.5 + 0.05 * i] for i in range(4)}  # 4 images × 3 matches = 12
    rows = []
    for p in range(6):
        for i, (image, scores) in enumerate(model.items()):
            rows.append(
                {
                    "participant_id": p,
                    "stimulus_id": image,
                    "practice": False,
                    "model_correct": i % 2,
                    "correct": int(rng.random() < 0.6),
                    "confidence": 4,
                    "output_correct": int((p + i) % 3 == 0),
                    "output_confidence": 2,
                    "similarity_ratings": ";".join(str(int(rng.integers(1, 5))) for _ in scores),
                    "model_similarity": ";".join(f"{v:g}" for v in scores),
                }
            )
    trials = pd.DataFrame(rows)
    report = hive_report(people(6), trials, DISTINCTION, "protopnet", "CUB", output_task=OUTPUT_PREDICTION)
    sim = report.tables["similarity"].set_index("method")
    assert sim.loc["spearman", "hive_choice"] and sim.loc["spearman", "n"] == 12  # one value per match, HIVE's Spearman
    per_match = trials.assign(
        h=trials["similarity_ratings"].str.split(";"), m=trials["model_similarity"].str.split(";")
    )
    per_match = per_match.explode(["h", "m"]).assign(
        k=lambda d: d.groupby(["participant_id", "stimulus_id"]).cumcount()
    )
    means = per_match.astype({"h": float, "m": float}).groupby(["stimulus_id", "k"])[["h", "m"]].mean()
    rho = stats.spearmanr(means["h"], means["m"]).statistic
    assert sim.loc["spearman", "r"] == pytest.approx(rho)
    assert sim.loc["spearman", "p_val"] == pytest.approx(stats.spearmanr(means["h"], means["m"]).pvalue)  # n ≥ 10
    out = report.tables["output_prediction"].set_index("condition")
    acc = trials.groupby("participant_id")["output_correct"].mean() * 100
    assert out.loc["all", "mean"] == pytest.approx(acc.mean()) and out.loc["all", "alternative"] == "greater"
    assert out.loc["all", "mean_confidence"] == 2.0
    assert report.meta["output_published_study"] == "output prediction CUB"
    text = report.text()
    assert "output prediction, asked in the same trials" in text and "ProtoPNet distinction" in " ".join(report.notes)
    assert "**Output prediction.**" in report.methods()
    plain = hive_report(
        people(6), trials.drop(columns=["output_correct"]), DISTINCTION, "protopnet", output_task=OUTPUT_PREDICTION
    )
    assert plain.tables["output_prediction"].empty and "output prediction, asked" not in plain.text()
