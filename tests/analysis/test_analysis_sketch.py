"""analysis.sketch_statistics and the sketch report (analysis.reports.sketch_study) against hand-computed values (and
scipy / statsmodels where they compute the same thing)."""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf
from scipy import stats

from analysis import coverage
from analysis.reports.sketch_study import sketch_report
from analysis.sketch_statistics import (
    accuracy_by_level,
    adjusted_r2,
    catch_failures,
    human_model_alignment,
    probability_entropy,
    semantic_neighbour_preference,
    semantic_ranks,
    semantic_x,
    similarity_from_embedding,
    sketch_measures,
    split_half_reliability,
)

COVERAGE_CSV = Path(__file__).resolve().parents[2] / "analysis" / "data" / "bootstrap_coverage.csv"


def answers(rows):
    """(participant, sketch, concept, level, guess_1[, guess_2]) tuples → a responses frame."""
    return pd.DataFrame(
        [
            {
                "observer": "human",
                "participant_id": r[0],
                "sketch_id": r[1],
                "concept": r[2],
                "abstraction_level": float(r[3]),
                "producer": "human",
                "guess_1": r[4],
                "guess_2": r[5] if len(r) > 5 else None,
            }
            for r in rows
        ]
    )


# s1: A at level 4, guessed A, B, C (then A); s2: A at 8: A, A; s3: B at 4: A, C; s4: B at 8: B.
DATA = answers(
    [
        (1, "s1", "A", 4, "A"),
        (2, "s1", "A", 4, "B"),
        (3, "s1", "A", 4, "C", "A"),
        (1, "s2", "A", 8, "A"),
        (2, "s2", "A", 8, "A"),
        (1, "s3", "B", 4, "A"),
        (2, "s3", "B", 4, "C"),
        (1, "s4", "B", 8, "B"),
    ]
)
IDS = ["A", "B", "C", "D"]
SIM = pd.DataFrame(
    [[1.0, 0.9, 0.5, 0.1], [0.9, 1.0, 0.2, 0.3], [0.5, 0.2, 1.0, 0.4], [0.1, 0.3, 0.4, 1.0]], index=IDS, columns=IDS
)


def test_accuracy_by_level_hand_values():
    acc = accuracy_by_level(DATA, n_boot=500).set_index("abstraction_level")
    # level 4: top-1 1 of 5 answers; top-3 adds participant 3's second guess on s1: 2 of 5.
    assert acc.loc[4.0, "top1_accuracy"] == pytest.approx(0.2) and acc.loc[4.0, "top3_accuracy"] == pytest.approx(0.4)
    assert acc.loc[8.0, "top1_accuracy"] == 1.0 and acc.loc[4.0, "n_sketches"] == 2
    assert acc.loc[4.0, "n_responses"] == 5
    # One sketch per concept × level stratum: the paper's bootstrap would redraw the data itself (a zero-width CI
    # at the point), so the concepts are resampled; level 8 is all correct, so every resample is 1.
    assert set(acc["ci_method"]) == {"concepts resampled: strata hold one sketch"}
    assert acc.loc[8.0, ["top3_ci_low", "top3_ci_high"]].tolist() == [1.0, 1.0]


def test_one_sketch_per_stratum_resamples_concepts():
    # Level 4 of DATA: concept A (s1: 1 of 3 right), concept B (s3: 0 of 2). Two concepts drawn with replacement:
    # AA 2/6, AB or BA 1/5, BB 0/4 with p = 1/4, 1/2, 1/4; the 90 % interval is [0, 1/3], the middle 40 % is 1/5.
    level4 = DATA[DATA["abstraction_level"] == 4]
    wide = accuracy_by_level(level4, n_boot=4000, ci=0.9, seed=3).iloc[0]
    assert (wide["top1_ci_low"], wide["top1_ci_high"]) == pytest.approx((0.0, 1 / 3))
    assert wide["ci_method"] == "concepts resampled: strata hold one sketch"
    middle = accuracy_by_level(level4, n_boot=4000, ci=0.4, seed=3).iloc[0]
    assert (middle["top1_ci_low"], middle["top1_ci_high"]) == pytest.approx((0.2, 0.2))


def test_one_sketch_resamples_its_answers():
    # One sketch, 2 of 4 answers right: resampled answers give k/4, k ~ Binomial(4, 1/2); P(0) = 1/16 > 5 % and
    # P(≤ 3) = 15/16 < 95 %, so the 90 % interval is [0, 1].
    one = answers([(p, "s", "A", 4, "A" if p < 2 else "B") for p in range(4)])
    acc = accuracy_by_level(one, n_boot=4000, ci=0.9, seed=3).iloc[0]
    assert (acc["top1_ci_low"], acc["top1_ci_high"]) == (0.0, 1.0)
    assert acc["ci_method"] == "answers resampled: the cell holds one sketch"


def test_accuracy_bootstrap_resamples_within_strata():
    # Two sketches of one concept, one right and one wrong: resamples give 0, 1/2 or 1 with p = 1/4, 1/2, 1/4.
    two = answers([(1, "r", "A", 4, "A"), (1, "w", "A", 4, "B")])
    acc = accuracy_by_level(two, n_boot=4000, ci=0.4, seed=3).iloc[0]
    assert acc["top1_accuracy"] == 0.5
    assert (acc["top1_ci_low"], acc["top1_ci_high"]) == (0.5, 0.5)  # the middle 40 % is 1/2
    wide = accuracy_by_level(two, n_boot=4000, ci=0.9, seed=3).iloc[0]
    assert (wide["top1_ci_low"], wide["top1_ci_high"]) == (0.0, 1.0)
    assert wide["ci_method"] == "stratified within concept × level (paper)"


def test_stratified_bootstrap_draws_sketches_within_each_concept():
    # Two concepts with two sketches each: the paper's bootstrap, recomputed here from S.5.3 with the same generator
    # (per concept in sorted order, as many sketches drawn with replacement; each brings its answers).
    rows = [(1, "a1", "A", 4, "A"), (2, "a1", "A", 4, "A"), (1, "a2", "A", 4, "B")]
    rows += [(1, "b1", "B", 4, "B"), (1, "b2", "B", 4, "C"), (2, "b2", "B", 4, "C"), (3, "b2", "B", 4, "B")]
    seed, n_boot = 7, 500
    rng = np.random.default_rng(seed)
    sketches = {"A": [(2, 2), (1, 0)], "B": [(1, 1), (3, 1)]}  # (answers, right) per sketch
    boot = np.zeros((n_boot, 2))
    for concept in ("A", "B"):
        counts = np.array(sketches[concept], dtype=float)
        boot += counts[rng.choice(2, size=(n_boot, 2), replace=True)].sum(axis=1)
    expected = np.quantile(boot[:, 1] / boot[:, 0], [0.025, 0.975])
    acc = accuracy_by_level(answers(rows), n_boot=n_boot, seed=seed).iloc[0]
    assert acc["ci_method"] == "stratified within concept × level (paper)"
    assert [acc["top1_ci_low"], acc["top1_ci_high"]] == pytest.approx(expected.tolist(), abs=1e-12)
    assert acc["top1_ci_low"] < acc["top1_ci_high"]


def test_entropy_per_sketch_in_bits():
    m = sketch_measures(DATA).set_index("sketch_id")
    assert m.loc["s1", "entropy"] == pytest.approx(math.log2(3))
    assert m.loc["s3", "entropy"] == pytest.approx(1.0) and m.loc["s2", "entropy"] == 0
    assert m.loc["s1", "top1"] == pytest.approx(1 / 3) and m.loc["s1", "top3"] == pytest.approx(2 / 3)


def test_probability_entropy_normalises():
    p = pd.DataFrame(
        {"observer": "m", "run": 0, "sketch_id": ["x"] * 3 + ["y"] * 3, "probability": [0.5, 0.25, 0.25, 2.0, 1.0, 1.0]}
    )
    # [1/2, 1/4, 1/4]: 1/2·1 + 2·(1/4·2) = 1.5 bits; [2, 1, 1] normalises to the same.
    assert probability_entropy(p)["probability_entropy"].tolist() == pytest.approx([1.5, 1.5])
    assert probability_entropy(p.assign(probability=[1, 0, 0, 1, 0, 0]))["probability_entropy"].tolist() == [0, 0]


def test_semantic_ranks_and_snp_hand_values():
    pairs = pd.DataFrame({"concept": ["A", "A", "A", "B", "B"], "guess": ["B", "C", "D", "A", "C"]})
    # Around A: B (0.9) rank 1, C (0.5) rank 2, D (0.1) rank 3 → x = (rank − 1)/(N − 2) = 0, 1/2, 1.
    # Around B: A (0.9) 1, D (0.3) 2, C (0.2) 3.
    assert semantic_ranks(SIM, pairs).tolist() == pytest.approx([0, 0.5, 1, 0, 1])
    snp = semantic_neighbour_preference(DATA, SIM).set_index("concept")
    # Off-target top-1 guesses: A at 4 → B, C: 1 − (0 + 1/2)/2 = 0.75; B at 4 → A, C: 1 − (0 + 1)/2 = 0.5.
    assert snp.loc["A", "snp"] == pytest.approx(0.75) and snp.loc["B", "snp"] == pytest.approx(0.5)
    assert snp["n_off_target"].tolist() == [2, 2]
    # The AUC definition: integrate the cumulative proportion F(x) numerically and compare.
    xs = np.array([0.0, 0.5])
    grid = np.linspace(0, 1, 200_001)
    auc = np.trapezoid((xs[None, :] <= grid[:, None]).mean(axis=1), grid)
    assert auc == pytest.approx(0.75, abs=1e-4)


def test_semantic_rank_ties_share_their_mean_rank():
    tied = SIM.copy()
    tied.loc["A", ["C", "D"]] = tied.loc[["C", "D"], "A"] = 0.5
    x = semantic_ranks(tied, pd.DataFrame({"concept": ["A", "A"], "guess": ["C", "D"]}))
    assert x.tolist() == pytest.approx([0.75, 0.75])  # ranks 2 and 3 → 2.5 each → (2.5 − 1)/2


def test_similarity_from_embedding_is_cosine():
    sim = similarity_from_embedding(pd.DataFrame({"d1": [1.0, 0.0, 1.0], "d2": [0.0, 2.0, 1.0]}, index=["a", "b", "c"]))
    assert sim.loc["a", "c"] == pytest.approx(1 / math.sqrt(2)) and sim.loc["a", "b"] == pytest.approx(0)
    with pytest.raises(ValueError, match="all-zero"):
        similarity_from_embedding(pd.DataFrame({"d1": [0.0, 1.0]}, index=["a", "b"]))


def test_unknown_ids_are_named():
    with pytest.raises(ValueError, match="column 'guess' has ids missing"):
        semantic_ranks(SIM, pd.DataFrame({"concept": ["A"], "guess": ["Z"]}))
    with pytest.raises(ValueError, match="column 'guess_1' is missing"):
        accuracy_by_level(DATA.drop(columns="guess_1"))


def test_adjusted_r2_matches_statsmodels():
    rng = np.random.default_rng(0)
    x = rng.normal(size=40)
    level = np.repeat([4, 8, 16, 32], 10)
    y = 0.5 * x + (level == 8) * 0.3 + x * (level == 32) + rng.normal(scale=0.5, size=40)
    expected = smf.ols("y ~ x * C(level)", pd.DataFrame({"x": x, "y": y, "level": level})).fit().rsquared_adj
    assert adjusted_r2(y, x, level) == pytest.approx(expected)
    assert math.isnan(adjusted_r2(np.ones(5), x[:5], level[:5]))  # a constant outcome explains nothing


def test_split_half_with_two_people_hand_values():
    # Two participants: the only split is one each. Shared sketches s1, s2, s3: top-1 x = [1, 1, 0], y = [0, 1, 0]
    # → r = (3/9) / (6/9) = 0.5; Spearman–Brown 2r/(1 + r) = 2/3.
    rel = split_half_reliability(DATA[DATA["participant_id"] <= 2], n_splits=5, measures=("top1",)).iloc[0]
    assert rel["pearson_r"] == pytest.approx(0.5) and rel["spearman_brown"] == pytest.approx(2 / 3)
    assert rel["n_sketches"] == 3
    a = np.array([1.0, 1.0, 0.0])
    b = np.array([0.0, 1.0, 0.0])
    assert rel["pearson_r"] == pytest.approx(stats.pearsonr(a, b)[0])


def test_split_half_snp_uses_the_same_ranks():
    data = answers(
        [
            (p, s, c, lvl, g)
            for p in range(1, 5)
            for s, c, lvl, g in [
                ("s1", "A", 4, "B" if p % 2 else "C"),
                ("s2", "B", 4, "C" if p < 3 else "A"),
                ("s3", "A", 8, "D"),
                ("s4", "B", 8, "B" if p == 1 else "A"),
            ]
        ]
    )
    rel = split_half_reliability(data, n_splits=30, similarity=SIM).set_index("measure")
    assert set(rel.index) == {"top1", "top3", "entropy", "snp"}
    # sketch_measures on a half computes the same SNP as from the precomputed ranks
    with_x = data.assign(semantic_x=semantic_x(data, SIM))
    assert sketch_measures(with_x)["snp"].tolist() == pytest.approx(
        sketch_measures(data, SIM)["snp"].tolist(), nan_ok=True
    )


def test_human_model_alignment_matches_scipy_and_statsmodels():
    rng = np.random.default_rng(1)
    n = 24
    human = pd.DataFrame(
        {
            "observer": "human",
            "sketch_id": [f"s{i}" for i in range(n)],
            "concept": [f"c{i % 6}" for i in range(n)],
            "producer": "human",
            "abstraction_level": np.repeat([4.0, 8.0], n // 2),
            "top1": rng.uniform(size=n),
        }
    )
    model = human.assign(observer="clip", top1=0.6 * human["top1"] + rng.normal(scale=0.1, size=n))
    out = human_model_alignment(pd.concat([human, model]), n_boot=200).iloc[0]
    assert out["pearson_r"] == pytest.approx(stats.pearsonr(human["top1"], model["top1"])[0])
    frame = pd.DataFrame({"y": model["top1"], "x": human["top1"], "level": human["abstraction_level"]})
    assert out["adjusted_r2"] == pytest.approx(smf.ols("y ~ x * C(level)", frame).fit().rsquared_adj)
    assert out["adjusted_r2_ci_low"] <= out["adjusted_r2"] <= out["adjusted_r2_ci_high"]


def test_catch_failures_and_report():
    trials = DATA.assign(catch=False, catch_failed=None)
    trials = pd.concat(
        [
            trials,
            pd.DataFrame(
                [
                    {
                        "participant_id": 1,
                        "sketch_id": "c",
                        "concept": "A",
                        "abstraction_level": 32.0,
                        "producer": "human",
                        "guess_1": "A",
                        "catch": True,
                        "catch_failed": False,
                    },
                    {
                        "participant_id": 2,
                        "sketch_id": "c",
                        "concept": "A",
                        "abstraction_level": 32.0,
                        "producer": "human",
                        "guess_1": "B",
                        "catch": True,
                        "catch_failed": True,
                    },
                ]
            ),
        ],
        ignore_index=True,
    ).drop(columns="observer")
    failures = catch_failures(trials).set_index("participant_id")
    assert failures.loc[2, "n_failed"] == 1 and failures.loc[2, "failed_sketches"] == "c"
    assert failures.loc[1, "n_failed"] == 0
    report = sketch_report(trials, None, SIM, n_boot=50, n_splits=5)
    # catch trials are not counted as answers
    assert report.meta["n_responses"] == 8 and set(report.tables) >= {"accuracy", "snp", "reliability", "catch"}
    assert report.tables["accuracy"].set_index("abstraction_level").loc[4.0, "top1_accuracy"] == pytest.approx(0.2)


def test_report_counts_what_it_leaves_out_and_writes_its_methods():
    trials = pd.concat(
        [
            DATA.assign(catch=False, catch_failed=None),
            pd.DataFrame(
                [
                    {
                        "participant_id": 1,
                        "sketch_id": "c",
                        "concept": "A",
                        "abstraction_level": 32.0,
                        "producer": "human",
                        "guess_1": "A",
                        "catch": True,
                        "catch_failed": False,
                    }
                ]
            ),
        ],
        ignore_index=True,
    ).drop(columns="observer")
    model = DATA.drop(columns="participant_id").assign(observer="clip", run=1).iloc[[0, 3, 5]]  # s1, s2, s3
    report = sketch_report(trials, model, SIM, n_boot=40, n_splits=5, seed=7)
    alignment = report.tables["alignment"].set_index("measure")
    # s4 was answered by people only; for SNP, s2 (all right: no off-target guess) has no value on either side
    assert (
        alignment.loc["top1", "n_left_out"] == 1
        and "1 sketch(es) answered by people only" in alignment.loc["top1", "note"]
    )
    assert alignment.loc["snp", "n_sketches"] == 1 and "the fit needs at least 3" in alignment.loc["snp", "note"]
    reliability = report.tables["reliability"].set_index("measure")
    assert (
        reliability.loc["entropy", "n_splits_undefined"] == 5 and "5 of 5 splits" in reliability.loc["entropy", "note"]
    )
    m = report.meta
    assert m["n_catch_responses"] == 1 and m["n_boot_alignment"] == 4 and m["seed"] == 7
    assert any("4 resamples, a tenth of n_boot = 40" in n for n in m["notes"])
    assert any("no off-target top-1 guess" in n for n in m["notes"])
    methods = report.methods()
    for phrase in (
        "3 participants",
        "8 answers",
        "1 answers to catch sketches",
        "40 resamples",
        "seed 7",
        "5 random splits",
        "Spearman–Brown",
        "4 resamples (a tenth",
        "Mukherjee",
        "## References",
    ):
        assert phrase in methods, phrase
    assert "Notes" in report.text()


def no_nan(report) -> dict:
    """The report's JSON as written, read back refusing NaN and ±Infinity."""

    def refuse(constant):
        raise AssertionError(f"{constant} in the JSON")

    return json.loads(json.dumps(report.json(), allow_nan=True), parse_constant=refuse)


def ranks_only(guess, runs=(1,)):
    """A model imported with ranks only (no class probabilities): one answer per run and sketch of DATA."""
    sketches = DATA.drop_duplicates("sketch_id")
    return pd.concat(
        [
            sketches.drop(columns="participant_id").assign(observer="clip", run=run, guess_1=guess(sketches, run))
            for run in runs
        ],
        ignore_index=True,
    )


def test_ranks_only_model_gets_no_response_entropy():
    # Issue #23 row 13: one top-1 label per sketch has entropy 0 by construction; before, "0.000 bits" at every level.
    trials = DATA.assign(catch=False, catch_failed=None).drop(columns="observer")
    report = sketch_report(trials, ranks_only(lambda s, run: s["concept"]), None, n_boot=20, n_splits=3)
    entropy = report.tables["entropy"]
    model = entropy[entropy["observer"] == "clip"]
    assert model["mean_entropy"].isna().all() and set(model["entropy_basis"]) == {"none"}
    # people keep theirs: s1 has 3 different guesses → log2 3; s3 two → 1 bit (level 4 mean: (log2 3 + 1) / 2)
    human = entropy[entropy["observer"] == "human"].set_index("abstraction_level")
    assert human.loc[4.0, "mean_entropy"] == pytest.approx((math.log2(3) + 1) / 2)
    assert set(human["entropy_basis"]) == {"answers"}
    note = "entropy of clip: not computed: one answer per sketch and no class probabilities"
    for text in (report.text(), report.markdown(), report.methods()):
        assert note[1:] in text  # methods.md starts each note with a capital
    assert "ranks only" in report.methods()
    data = no_nan(report)
    assert any(n.startswith(note) for n in data["meta"]["notes"])
    assert all(r["mean_entropy"] is None for r in data["entropy"] if r["observer"] == "clip")
    alignment = report.tables["alignment"].set_index("measure")
    assert math.isnan(alignment.loc["entropy", "adjusted_r2"])
    assert "without a defined entropy on one side" in alignment.loc["entropy", "note"]


def test_ranks_only_model_with_runs_is_labelled_as_not_a_response_entropy():
    trials = DATA.assign(catch=False, catch_failed=None).drop(columns="observer")
    # run 1 names the concept, run 2 "D": two labels per sketch → 1 bit, across runs rather than a distribution
    model = ranks_only(lambda s, run: s["concept"] if run == 1 else "D", runs=(1, 2))
    report = sketch_report(trials, model, None, n_boot=20, n_splits=3)
    clip = report.tables["entropy"].query("observer == 'clip'")
    assert set(clip["entropy_basis"]) == {"runs"} and clip["mean_entropy"].tolist() == pytest.approx([1.0, 1.0])
    assert any("not a response distribution" in n for n in report.meta["notes"])
    assert "runs = a ranks-only model's top-1 labels across runs" in report.text()


def test_model_probabilities_are_the_entropy_basis():
    trials = DATA.assign(catch=False, catch_failed=None).drop(columns="observer")
    model = ranks_only(lambda s, run: s["concept"]).assign(probability_entropy=0.5)
    report = sketch_report(trials, model, None, n_boot=20, n_splits=3)
    clip = report.tables["entropy"].query("observer == 'clip'")
    assert set(clip["entropy_basis"]) == {"probabilities"} and (clip["mean_entropy"] == 0.5).all()
    assert not any(n.startswith("entropy of") for n in report.meta["notes"])


SKETCHES = [(f"d{i}", c, lvl) for i, (c, lvl) in enumerate((c, lvl) for c in "AB" for lvl in (4, 8) for _ in range(3))]


def cohort(people, guess, levels=(4, 8)):
    return pd.DataFrame(
        [
            {
                "participant_id": p,
                "sketch_id": s,
                "concept": c,
                "abstraction_level": float(lvl),
                "producer": "human",
                "catch": False,
                "catch_failed": None,
                "guess_1": guess(p, s, c, lvl),
            }
            for p in people
            for s, c, lvl in SKETCHES
            if lvl in levels
        ]
    )


def model_of(guess):
    return pd.DataFrame(
        [
            {"observer": "clip", "run": 1, "sketch_id": s, "concept": c, "abstraction_level": float(lvl)}
            | {"producer": "human", "guess_1": guess(s, c, lvl)}
            for s, c, lvl in SKETCHES
        ]
    )


DEGENERATE = {
    # name: (people's trials, model responses, words the report must hold)
    "one participant": (
        cohort([1], lambda p, s, c, lvl: c if lvl == 8 else "C"),
        model_of(lambda s, c, lvl: c),
        ["split-half reliability: not computed, 1 participant", "entropy of human: not computed"],
    ),
    "all answers equal": (
        cohort(range(4), lambda p, s, c, lvl: "A"),
        model_of(lambda s, c, lvl: "A"),
        ["reliability (human, entropy): r undefined in 5 of 5 splits", "alignment (clip, human, entropy)"],
    ),
    "all correct": (
        cohort(range(4), lambda p, s, c, lvl: c),
        model_of(lambda s, c, lvl: c),
        ["8 of 8 observer × concept × level groups have no off-target top-1 guess", "adjusted R² undefined"],
    ),
    "all wrong": (
        cohort(range(4), lambda p, s, c, lvl: "D"),
        model_of(lambda s, c, lvl: "C"),
        ["reliability (human, top1): r undefined in 5 of 5 splits", "adjusted R² undefined"],
    ),
    "one level missing": (
        cohort(range(4), lambda p, s, c, lvl: c if (p + int(s[1:])) % 2 else "C", levels=(4,)),
        model_of(lambda s, c, lvl: c),
        ["6 sketch(es) answered by clip only"],
    ),
    "one model run": (
        cohort(range(4), lambda p, s, c, lvl: "ABCD"[(p + int(s[1:])) % 4]),
        model_of(lambda s, c, lvl: "ABCD"[int(s[1:]) % 4]),
        ["entropy of clip: not computed: one answer per sketch"],
    ),
}


@pytest.mark.parametrize("case", DEGENERATE)
def test_degenerate_cohorts_are_reported_in_words(case, tmp_path):
    trials, model, phrases = DEGENERATE[case]
    report = sketch_report(trials, model, SIM, n_boot=40, n_splits=5)
    written = {p.name for p in report.write(tmp_path)}
    assert {"report.json", "report.md", "report.txt", "methods.md", "accuracy_by_level.png"} <= written
    data = no_nan(report)
    text, markdown = report.text(), report.markdown()
    for phrase in phrases:
        assert phrase in text and phrase in markdown, phrase
        assert any(phrase in n for n in data["meta"]["notes"]), phrase
    assert "nan" not in (text + markdown + report.methods()).lower()
    # six sketches per cell: every accuracy interval is flagged as resting on fewer than 10 units
    assert any("resample fewer than 10 sketches" in n for n in data["meta"]["notes"])
    for row in data["accuracy"]:
        assert 0 <= row["top1_ci_low"] <= row["top1_accuracy"] <= row["top1_ci_high"] <= 1


def test_report_names_the_resampling_where_strata_hold_one_sketch():
    # DATA has the demo's layout (one sketch per concept and level): concepts resampled, said in every output.
    report = sketch_report(DATA.assign(catch=False, catch_failed=None), n_boot=200, n_splits=5)
    data = no_nan(report)
    text, markdown = report.text(), report.markdown()
    assert {row["ci_method"] for row in data["accuracy"]} == {"concepts resampled: strata hold one sketch"}
    note = "accuracy intervals of 2 of 2 rows: concepts resampled: strata hold one sketch"
    assert note in text and note in markdown and any(n.startswith(note) for n in data["meta"]["notes"])
    assert "ci_method" in text and "ci_method" in markdown and "concepts were resampled" in report.methods()
    level4 = next(row for row in data["accuracy"] if row["abstraction_level"] == 4)
    assert level4["top1_ci_low"] < level4["top1_ci_high"]


def test_intervals_over_ten_sketches_or_more_are_not_flagged():
    many = pd.DataFrame(
        [
            {"participant_id": p, "sketch_id": f"x{i}", "concept": "AB"[i % 2], "abstraction_level": 4.0}
            | {"producer": "human", "catch": False, "catch_failed": None, "guess_1": "AB"[(i + p) % 3 % 2]}
            for p in range(3)
            for i in range(10)
        ]
    )
    report = sketch_report(many, None, None, n_boot=20, n_splits=3)
    assert report.tables["accuracy"]["n_sketches"].tolist() == [10]
    assert not any("fewer than 10" in n for n in report.meta["notes"])
    few = sketch_report(many[many["sketch_id"] != "x9"], None, None, n_boot=20, n_splits=3)
    prefix = "accuracy intervals of 1 of 1 observer × producer × level cells resample fewer than 10 sketches"
    note = next(n for n in few.meta["notes"] if n.startswith(prefix))
    # issue #23 point 3: the coverage `make validate` wrote for 9 sketches, read here from the file
    table = pd.read_csv(COVERAGE_CSV, comment="#")
    for statistic, name in (("top1_accuracy", "top-1 accuracy"), ("top3_accuracy", "top-3 accuracy")):
        row = table.query(f"unit == 'sketches' and statistic == '{statistic}' and n_units == 9").iloc[0]
        quoted = f"{name} interval: {row['coverage']:.2f} [{row['mc_low']:.2f}, {row['mc_high']:.2f}] at n = 9"
        assert quoted in note and quoted in few.text() and quoted in few.markdown()


def test_a_sample_size_make_validate_did_not_measure_says_so(monkeypatch):
    table = pd.read_csv(COVERAGE_CSV, comment="#")
    monkeypatch.setattr(coverage, "coverage_table", lambda: table[table["unit"] != "sketches"])
    assert coverage.measured_coverage(4, "sketches", "top1_accuracy") is None
    note = coverage.small_sample_note(4, "sketches", "top1_accuracy")
    assert note.startswith("interval over 4 sketches, fewer than 10; measured coverage of the top-1 accuracy")
    assert note.endswith("not measured at n = 4 (run `make validate`)")
    assert coverage.small_sample_note(10, "sketches", "top3_accuracy") == ""


def test_levels_print_as_given_and_the_reliability_count_says_it_is_a_mean():
    """Issue #39 point 4: abstraction levels printed as 4, not 4.000; split-half n_sketches (an average over
    splits) labelled as a mean."""
    trials = DATA.assign(catch=False, catch_failed=None).drop(columns="observer")
    report = sketch_report(trials, None, SIM, n_boot=50, n_splits=5)
    for text in (report.text(), report.markdown()):
        assert "n_sketches (mean over splits)" in text
        assert "4.000" not in text and "8.000" not in text
    lines = [line.split() for line in report.text().splitlines()]
    assert any(r[:3] == ["human", "human", "4"] for r in lines) and any(r[:3] == ["human", "human", "8"] for r in lines)
