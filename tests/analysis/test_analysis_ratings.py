"""analysis.ratings and its report, analysis.reports.ratings_study (Two4Two hypothesis ratings), against
hand-computed values, numpy and scipy."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import analysis.ratings as ratings
from analysis.ratings import agreement, correct_judgements, rating_distribution, relevance_test
from analysis.reports.ratings_study import ratings_report

COVERAGE_CSV = Path(__file__).resolve().parents[2] / "analysis" / "data" / "bootstrap_coverage.csv"

# Four participants, three statements; "arms" and "colour" name patterns the model uses.
HAND = pd.DataFrame(
    {
        "participant_id": [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4],
        "statement_id": ["arms", "colour", "bg"] * 4,
        "rating": [7, 5, 2, 6, 3, 1, 5, 4, 4, 2, 6, 3],
    }
)
RELEVANT = {"arms": True, "colour": True, "bg": False}
STATEMENTS = pd.DataFrame(
    {
        "statement_id": ["arms", "colour", "bg", "blocks"],
        "text": ["Arms.", "Colour.", "Background.", "Blocks."],
        "relevant": [True, True, False, False],
    }
)


def test_doctests_run():
    assert doctest.testmod(ratings, optionflags=doctest.NORMALIZE_WHITESPACE).failed == 0


def test_distribution_counts_every_level_by_hand():
    d = rating_distribution(HAND)
    assert list(d.columns) == ["statement", "rating", "n", "percent"]
    assert len(d) == 3 * 7 and list(pd.unique(d["statement"])) == ["arms", "colour", "bg"]
    arms = d[d["statement"] == "arms"].set_index("rating")
    assert arms["n"].tolist() == [0, 1, 0, 0, 1, 1, 1]  # ratings 7, 6, 5, 2
    assert arms["percent"].tolist() == [0, 25, 0, 0, 25, 25, 25]
    assert d.groupby("statement")["percent"].sum().tolist() == [100, 100, 100]


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson (1927)'s score interval, from its formula: (p + z²/2n ± z √(p(1 − p)/n + z²/4n²)) / (1 + z²/n)."""
    p = k / n
    centre, half = p + z * z / (2 * n), z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def test_agreement_by_hand():
    a = agreement(HAND, n_boot=1000).set_index("statement")
    assert a.loc["arms", "percent_agree"] == 75.0  # 7, 6, 5 agree; 2 does not
    assert a.loc["colour", "percent_agree"] == 50.0  # 5, 6
    assert a.loc["bg", "percent_agree"] == 0.0
    assert a.loc["arms", "mean_rating"] == 5.0 and a.loc["arms", "median_rating"] == 5.5
    # one rating each: Wilson's score interval, which is not [0, 0] when nobody of 4 agreed
    assert a.loc["bg", ["ci_low", "ci_high"]].tolist() == pytest.approx([0.0, 100 * wilson(0, 4)[1]])
    assert (a["n_participants"] == 4).all() and (a["n_ratings"] == 4).all()


def test_agreement_bootstrap_resamples_participants_with_the_given_seed():
    """Replicate the interval with numpy: participant 1 rated "arms" twice (both agree), so resampling
    participants (not ratings) is what the interval must reflect."""
    df = pd.concat([HAND, pd.DataFrame({"participant_id": [1], "statement_id": ["arms"], "rating": [7]})])
    got = agreement(df, n_boot=2000, seed=11, ci=90).set_index("statement").loc["arms"]
    a = np.array([2.0, 1.0, 1.0, 0.0])  # agreeing ratings of participants 1-4
    n = np.array([2.0, 1.0, 1.0, 1.0])
    idx = np.random.default_rng(11).integers(0, 4, size=(2000, 4))
    boot = 100 * a[idx].sum(axis=1) / n[idx].sum(axis=1)
    assert got["percent_agree"] == 80.0 and got["n_ratings"] == 5
    assert [got["ci_low"], got["ci_high"]] == pytest.approx(list(np.percentile(boot, [5, 95])))
    # the seed fixes the interval; another statement's presence does not change it
    alone = agreement(df[df["statement_id"] == "arms"], n_boot=2000, seed=11, ci=90).iloc[0]
    assert alone["ci_low"] == got["ci_low"] and alone["ci_high"] == got["ci_high"]


def test_agreement_interval_covers_the_population_share():
    rng = np.random.default_rng(5)
    covered = 0
    for _ in range(100):
        df = pd.DataFrame(
            {"participant_id": range(40), "statement_id": "s", "rating": np.where(rng.random(40) < 0.4, 6, 2)}
        )
        row = agreement(df, n_boot=400, seed=int(rng.integers(1000))).iloc[0]
        covered += row["ci_low"] <= 40 <= row["ci_high"]
    assert 85 <= covered <= 100  # nominal 95 %


def test_relevance_test_matches_scipy_and_pingouin():
    df = HAND.assign(relevant=HAND["statement_id"].map(RELEVANT))
    per, test = relevance_test(df)
    # per participant: mean of arms & colour vs bg
    assert per["mean_relevant"].tolist() == [6.0, 4.5, 4.5, 4.0]
    assert per["mean_irrelevant"].tolist() == [2.0, 1.0, 4.0, 3.0]
    expected = stats.ttest_rel(per["mean_relevant"], per["mean_irrelevant"])
    row = test.iloc[0]
    assert row["n"] == 4 and row["dof"] == 3
    assert row["t"] == pytest.approx(expected.statistic) and row["p_val"] == pytest.approx(expected.pvalue)
    d = np.array([4.0, 3.5, 0.5, 1.0])
    assert row["estimate"] == pytest.approx(d.mean())
    half = stats.t.ppf(0.975, 3) * d.std(ddof=1) / 2
    assert [row["ci_low"], row["ci_high"]] == pytest.approx([d.mean() - half, d.mean() + half])
    # d_avg: mean difference over the average of the two variances (pingouin's paired Cohen's d)
    x, y = per["mean_relevant"].to_numpy(), per["mean_irrelevant"].to_numpy()
    assert row["cohen_d"] == pytest.approx(d.mean() / np.sqrt((x.var(ddof=1) + y.var(ddof=1)) / 2))
    assert row["mean_relevant"] == pytest.approx(4.75) and row["mean_irrelevant"] == pytest.approx(2.5)


def test_relevance_test_leaves_out_participants_with_one_kind_only():
    df = pd.concat([HAND, pd.DataFrame({"participant_id": [9], "statement_id": ["arms"], "rating": [7]})])
    per, test = relevance_test(df.assign(relevant=df["statement_id"].map(RELEVANT)))
    assert 9 not in set(per["participant"]) and test.iloc[0]["n"] == 4
    assert test.iloc[0]["n_left_out"] == 1 and "1 participant(s) rated only one kind" in test.iloc[0]["note"]


def test_relevance_test_without_variance_says_t_is_undefined():
    same = pd.DataFrame(
        {"participant_id": [1, 1, 2, 2, 3, 3], "statement_id": ["arms", "bg"] * 3, "rating": [6, 3, 7, 4, 5, 2]}
    )  # every participant: relevant − irrelevant = +3
    _, test = relevance_test(same.assign(relevant=same["statement_id"].map(RELEVANT)))
    row = test.iloc[0]
    assert np.isnan(row["t"]) and np.isnan(row["p_val"]) and row["estimate"] == 3.0
    assert "every participant's difference is +3.00" in row["note"]
    report = ratings_report(same, STATEMENTS, n_boot=50)
    assert "no t-test: every participant's difference is +3.00" in report.text()


def test_correct_judgements_count_accepted_relevant_and_rejected_irrelevant_statements_by_hand():
    """Two4Two Sec. 4.1: "correctly confirmed" a pattern the model uses (agree, 5-7) and "correctly rejected" one it
    does not (disagree, 1-3); a 4 is neither."""
    df = HAND.assign(relevant=HAND["statement_id"].map(RELEVANT))
    j = correct_judgements(df, n_boot=2000, seed=3).set_index("statement")
    # arms (relevant) 7, 6, 5, 2: accepted by 3; colour (relevant) 5, 3, 4, 6: accepted by 2 (the 4 is neutral)
    assert j.loc["arms", ["correct_judgement", "n_correct", "n_agree", "n_neutral", "n_disagree"]].tolist() == [
        "accepted",
        3,
        3,
        0,
        1,
    ]
    assert j.loc["colour", ["n_correct", "n_agree", "n_neutral", "n_disagree"]].tolist() == [2, 2, 1, 1]
    # bg (irrelevant) 2, 1, 4, 3: rejected by 3; agreeing with it would be the error
    assert j.loc["bg", ["correct_judgement", "n_correct", "percent_correct"]].tolist() == ["rejected", 3, 75.0]
    # the interval: one rating per participant, so Wilson's score interval of 3 of 4
    assert [j.loc["bg", "ci_low"], j.loc["bg", "ci_high"]] == pytest.approx([100 * b for b in wilson(3, 4)])
    with pytest.raises(ValueError, match="both relevant and irrelevant"):
        correct_judgements(df.assign(relevant=[True, False, False] * 3 + [False] * 3))
    with pytest.raises(ValueError, match="'relevant' must be boolean"):
        correct_judgements(HAND.assign(relevant="yes"))


def test_report_shows_correct_judgements_in_text_markdown_json_and_methods(tmp_path):
    report = ratings_report(HAND, STATEMENTS, n_boot=300, seed=1, meta={"slug": "demo", "title": "Demo"})
    table = report.tables["statements"].set_index("statement")
    assert table.loc["arms", "n_correct"] == 3 and table.loc["bg", "correct_judgement"] == "rejected"
    assert pd.isna(table.loc["blocks", "n_correct"])  # listed, never rated …
    assert any("nobody rated: blocks" in n for n in report.meta["notes"])  # … and said so
    assert "accepted by 3/4 (75.0 %)" in report.text() and "rejected by 3/4 (75.0 %)" in report.text()
    md = report.markdown()
    assert "| arms | yes | 4 |" in md and "accepted by 3/4 (75.0 %)" in md and "## Notes" in md
    data = report.json()
    json.dumps(data, allow_nan=False)
    rows = {r["statement"]: r for r in data["statements"]}
    assert rows["bg"]["n_correct"] == 3 and rows["blocks"]["n_correct"] is None
    methods = report.methods()
    for phrase in (
        "4 participants",
        "correctly accepted by a rating of 5–7",
        "correctly rejected by a rating of 1–3",
        "300 resamples",
        "seeded with 1",
        "two-sided paired t-test",
        "Schuessler",
        "## References",
    ):
        assert phrase in methods, phrase


@pytest.mark.parametrize(
    "bad, message",
    [
        (0, "must hold integer ratings 1-7; got 0 "),
        (8, "got 8 "),
        (4.5, "got 4.5"),
        (np.nan, "missing or infinite"),
    ],
)
def test_ratings_outside_1_to_7_are_refused(bad, message):
    df = HAND.astype({"rating": float})
    df.loc[3, "rating"] = bad
    for call in (
        lambda: rating_distribution(df),
        lambda: agreement(df),
        lambda: relevance_test(df.assign(relevant=True)),
    ):
        with pytest.raises(ValueError, match="column 'rating'") as err:
            call()
        assert message in str(err.value)


def test_other_bad_input_names_the_problem():
    with pytest.raises(ValueError, match="column 'statement_id' is missing"):
        agreement(HAND.drop(columns="statement_id"))
    with pytest.raises(ValueError, match="'relevant' must be boolean"):
        relevance_test(HAND.assign(relevant="yes"))
    with pytest.raises(ValueError, match="needs at least 2 participants"):
        relevance_test(HAND[HAND["participant_id"] == 1].assign(relevant=HAND["statement_id"].map(RELEVANT)))
    with pytest.raises(ValueError, match="'n_boot' must be a positive integer"):
        agreement(HAND, n_boot=0)
    with pytest.raises(ValueError, match="'agree_from'"):
        agreement(HAND, agree_from=8)


def test_report_joins_the_study_file_and_notes_unknown_statements(tmp_path):
    df = pd.concat([HAND, pd.DataFrame({"participant_id": [1, 2], "statement_id": ["old", "old"], "rating": [7, 7]})])
    report = ratings_report(df, STATEMENTS, n_boot=300, seed=2, meta={"slug": "demo", "title": "Demo"})
    table = report.tables["statements"]
    assert table["statement"].tolist() == ["arms", "colour", "bg", "blocks", "old"]
    assert table.set_index("statement").loc["blocks", "n_ratings"] == 0  # listed but never rated
    assert "old" in report.meta["notes"][0]
    # "old" has unknown relevance and stays out of the test: the same as the test on the known statements
    _, alone = relevance_test(HAND.assign(relevant=HAND["statement_id"].map(RELEVANT)))
    assert report.tables["test"].iloc[0]["t"] == pytest.approx(alone.iloc[0]["t"])
    data = report.json()
    json.dumps(data, allow_nan=False)
    assert data["statements"][3]["percent_agree"] is None and data["meta"]["n_participants"] == 4
    text = report.text()
    assert text.startswith("Hypothesis ratings — Demo (demo)")
    assert "arms" in text and "75.0 [" in text and "t(3) = " in text
    written = report.write(tmp_path)
    assert [p.name for p in written] == [
        "statements.csv",
        "distribution.csv",
        "participants.csv",
        "test.csv",
        "report.txt",
        "report.md",
        "report.json",
        "methods.md",
        "likert.png",
    ]
    assert (tmp_path / "likert.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert pd.read_csv(tmp_path / "statements.csv")["statement"].tolist() == table["statement"].tolist()


def test_report_without_irrelevant_ratings_says_why_there_is_no_test():
    only = HAND[HAND["statement_id"] != "bg"]
    report = ratings_report(only, STATEMENTS, n_boot=100)
    assert np.isnan(report.tables["test"].iloc[0]["t"])
    assert any("no relevant-vs-irrelevant test" in n for n in report.meta["notes"])
    assert "not computed: needs at least 2 participants" in report.text()


def no_nan(report) -> dict:
    """The report's JSON read back refusing NaN and ±Infinity."""

    def refuse(constant):
        raise AssertionError(f"{constant} in the JSON")

    return json.loads(json.dumps(report.json(), allow_nan=True), parse_constant=refuse)


def rate(people, rating, statements=("arms", "colour", "bg", "blocks")):
    return pd.DataFrame(
        [{"participant_id": p, "statement_id": s, "rating": rating(p, s)} for p in people for s in statements]
    )


KIND = dict(zip(STATEMENTS["statement_id"], STATEMENTS["relevant"]))
DEGENERATE = {
    # name: (ratings, words the report must hold)
    "one participant": (
        rate([1], lambda p, s: 6 if KIND[s] else 2),
        "no relevant-vs-irrelevant test: needs at least 2 participants who rated both relevant and irrelevant "
        "statements, got 1",
    ),
    "all ratings equal": (rate(range(5), lambda p, s: 4), "every participant's difference is +0.00: no variance"),
    "all correct": (rate(range(5), lambda p, s: 7 if KIND[s] else 1), "every participant's difference is +6.00"),
    "all wrong": (rate(range(5), lambda p, s: 1 if KIND[s] else 7), "every participant's difference is -6.00"),
    "irrelevant statements missing": (
        rate(range(5), lambda p, s: 1 + (p + len(s)) % 7, ("arms", "colour")),
        "statements in the study file that nobody rated: bg, blocks",
    ),
}


@pytest.mark.parametrize("case", DEGENERATE)
def test_degenerate_cohorts_are_reported_in_words(case, tmp_path):
    ratings_, phrase = DEGENERATE[case]
    report = ratings_report(ratings_, STATEMENTS, n_boot=100)
    assert {p.name for p in report.write(tmp_path)} >= {"report.json", "report.md", "methods.md", "likert.png"}
    data = no_nan(report)
    text, markdown = report.text(), report.markdown()
    assert phrase in text and phrase in markdown and phrase[1:] in report.methods()
    assert any(phrase in n for n in data["meta"]["notes"])
    assert "nan" not in (text + markdown + report.methods()).lower()
    for row in data["statements"]:
        for low, high in (("ci_low", "ci_high"), ("correct_ci_low", "correct_ci_high")):
            assert row[low] is None or 0 <= row[low] <= row[high] <= 100


def test_bootstrap_over_fewer_than_ten_participants_is_flagged():
    # Each participant rates "arms" twice: the percentile bootstrap over participants, with 5 of them.
    twice = pd.concat([rate(range(5), lambda p, s: 1 + (p * 3 + len(s)) % 7)] * 2, ignore_index=True)
    report = ratings_report(twice, STATEMENTS, n_boot=200)
    statements = report.tables["statements"].set_index("statement")
    assert (statements["ci_method"] == "bootstrap").all() and (statements["n_participants"] == 5).all()
    warning = "the intervals of arms, colour, bg, blocks resample fewer than 10 participants"
    assert warning in report.text() and any(n.startswith(warning) for n in report.meta["notes"])
    # issue #23 point 3: the note quotes the coverage `make validate` wrote for this n, read here from the file
    table = pd.read_csv(COVERAGE_CSV, comment="#")
    note = next(n for n in report.meta["notes"] if n.startswith(warning))
    for statistic, name in (("percent_agree", "% agreeing"), ("percent_correct", "% correctly judged")):
        row = table.query(f"unit == 'participants' and statistic == '{statistic}' and n_units == 5").iloc[0]
        quoted = f"{name} interval: {row['coverage']:.2f} [{row['mc_low']:.2f}, {row['mc_high']:.2f}] at n = 5"
        assert quoted in note and quoted in report.text() and quoted in report.markdown()
    # ten participants, or one rating each (Wilson's interval, no resampling): no warning
    ten = pd.concat([rate(range(10), lambda p, s: 1 + (p * 3 + len(s)) % 7)] * 2, ignore_index=True)
    assert not any("fewer than 10" in n for n in ratings_report(ten, STATEMENTS, n_boot=200).meta["notes"])
    once = ratings_report(rate(range(5), lambda p, s: 1 + p), STATEMENTS, n_boot=200)
    assert set(once.tables["statements"]["ci_method"]) == {"wilson"}
    assert not any("fewer than 10" in n for n in once.meta["notes"])


def test_one_participant_rated_twice_gets_a_zero_width_interval_and_says_so():
    twice = pd.concat([rate([1], lambda p, s: 6)] * 2, ignore_index=True)
    report = ratings_report(twice, STATEMENTS, n_boot=200)
    statements = report.tables["statements"]
    assert (statements["ci_low"] == statements["ci_high"]).all()
    note = next(n for n in report.meta["notes"] if "resample fewer than 10" in n)
    assert "one participant: the % agreeing interval redraws that participant in every resample" in note
    assert "no width" in note and "at n = 1" in note
