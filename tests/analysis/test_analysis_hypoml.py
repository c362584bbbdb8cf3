"""HypoML (analysis/hypoml_inference.py, its report analysis/reports/hypoml_study.py): every logical inference rule
of the paper's §4 / Appendix A, its worked examples, the six paired t-tests, the accuracies, the input checks, and the
HTML page's own evaluation of the same rules (headless Chromium: the JavaScript must agree with Python on all 3^6
combinations of outcomes)."""

from __future__ import annotations

import doctest
import itertools
import json
import math
import re

import numpy as np
import pandas as pd
import pingouin as pg
import pytest
from scipy import stats

import analysis
import analysis.hypoml_inference as hm
import analysis.reports.hypoml_study as hs
from analysis.hypoml_inference import (
    ANALYSES,
    HYPOTHESES,
    RULES,
    STAGES,
    hypoml_accuracy,
    hypoml_infer,
    hypoml_items,
    hypoml_tests,
    hypoml_trace,
)
from analysis.reports.hypoml_study import hypoml_html, hypoml_json, hypoml_report, hypoml_text, write_hypoml
from tests.hypoml_examples import luminosity_sets

ALL_H = list(HYPOTHESES)


def conclusions(directions) -> dict[str, str]:
    c = hypoml_infer(directions)
    return dict(zip(c["hypothesis"], c["conclusion"]))


def confirmed(directions) -> set[str]:
    return {h for h, s in conclusions(directions).items() if s == "confirmed"}


def rejected(directions) -> set[str]:
    return {h for h, s in conclusions(directions).items() if s == "rejected"}


def effects_of(directions, analysis_id) -> dict[str, int]:
    t = hypoml_trace(directions)
    t = t[(t["analysis"] == analysis_id) & (t["effect"] != 0)]
    return dict(zip(t["hypothesis"], t["effect"]))


def parse(spec: str) -> dict[str, int]:
    """'T1 T4 F2' -> {'H1': +1, 'H4': +1, 'H2': -1} (T = ⊤, F = ⊥)."""
    return {f"H{tok[1:]}": (1 if tok[0] == "T" else -1) for tok in spec.split()}


# --------------------------------------------------------------------------------------------------
# The rules, transcribed by hand from the paper (§4 and Appendix A), independently of analysis.hypoml_inference.RULES.
# (analysis, outcome, condition hypothesis, condition state, directions that put the condition in that state
#  before the analysis's step, expected ⊤/⊥ of this analysis)

UNCONDITIONAL = [
    ("A1", "higher", "T1 T4 T7 F2 F3 F8"),
    ("A1", "lower", "T2 T4 F1 F3"),  # no H7/H8 (A.1); H4 confirmed although the §4 prose says "opposite"
    ("A4", "higher", "T11 F12"),
    ("A4", "lower", "T12 F11"),
    ("A6", "higher", "T5 F6"),
    ("A6", "lower", "T6 F5"),
]

# the states of H5/H6 after step 2 come from A6 only; of H1/H2 after step 3 from A1 (and A2)
SET_H6 = {"rejected": {"A6": "higher"}, "unproven": {}, "confirmed": {"A6": "lower"}}
SET_H5 = {"rejected": {"A6": "lower"}, "unproven": {}, "confirmed": {"A6": "higher"}}
SET_H1 = {"confirmed": {"A1": "higher"}, "unproven": {}, "rejected": {"A1": "lower"}}
SET_H2 = {"confirmed": {"A1": "lower"}, "unproven": {}, "rejected": {"A1": "higher"}}

CONDITIONAL = [
    # A2: R(M+,D+) v. R(M,D+)
    ("A2", "higher", "H6", "rejected", "T1 T4 T7 F2 F3 F8"),  # (i)
    ("A2", "higher", "H6", "unproven", "T1 T4 T7 F2 F3 F8"),  # (ii)
    ("A2", "higher", "H6", "confirmed", ""),  # (iii) explanation, treat cautiously
    ("A2", "lower", "H5", "rejected", "T2 T4 T8 F1 F3 F7"),
    ("A2", "lower", "H5", "unproven", "T2 T4 T8 F1 F3 F7"),
    ("A2", "lower", "H5", "confirmed", ""),
    # A5: R(M+,D) v. R(M,D+)
    ("A5", "higher", "H6", "rejected", "T11 F12"),
    ("A5", "higher", "H6", "unproven", "T11 F12"),
    ("A5", "higher", "H6", "confirmed", ""),
    ("A5", "lower", "H5", "rejected", "T12 F11"),
    ("A5", "lower", "H5", "unproven", "T12 F11"),
    ("A5", "lower", "H5", "confirmed", ""),
    # A3: R(M+,D+) v. R(M+,D)
    ("A3", "higher", "H1", "confirmed", "T7 T9 F8 F10"),
    ("A3", "higher", "H1", "unproven", "T9 F10"),
    ("A3", "higher", "H1", "rejected", "T12 F11"),
    ("A3", "lower", "H2", "confirmed", "T8 T10 F7 F9"),
    ("A3", "lower", "H2", "unproven", "T10 F9"),
    ("A3", "lower", "H2", "rejected", "T10 F9"),  # cautious, but still concluded
]
SETTERS = {"H6": SET_H6, "H5": SET_H5, "H1": SET_H1, "H2": SET_H2}


@pytest.mark.parametrize("analysis_id, outcome, spec", UNCONDITIONAL, ids=[f"{a}-{o}" for a, o, _ in UNCONDITIONAL])
def test_unconditional_rule(analysis_id, outcome, spec):
    directions = {analysis_id: outcome}
    assert effects_of(directions, analysis_id) == parse(spec)
    c = conclusions(directions)
    expected = parse(spec)
    for h in ALL_H:  # alone, the analysis decides exactly its hypotheses
        want = {1: "confirmed", -1: "rejected"}.get(expected.get(h, 0), "unproven")
        assert c[h] == want, h


@pytest.mark.parametrize(
    "analysis_id, outcome, cond, state, spec", CONDITIONAL, ids=[f"{a}-{o}-{c}-{s}" for a, o, c, s, _ in CONDITIONAL]
)
def test_conditional_rule(analysis_id, outcome, cond, state, spec):
    setup = SETTERS[cond][state]
    directions = {**setup, analysis_id: outcome}
    assert conclusions(setup)[cond] == state  # the set-up really puts the condition in that state
    assert effects_of(directions, analysis_id) == parse(spec)
    trace = hypoml_trace(directions)
    row = trace[trace["analysis"] == analysis_id].iloc[0]
    assert row["condition"] == f"{cond} {state}"
    cautious = (analysis_id in ("A2", "A5") and state == "confirmed") or (analysis_id == "A3" and state == "rejected")
    assert bool(row["caution"]) == cautious


@pytest.mark.parametrize("analysis_id", list(ANALYSES))
def test_no_difference_moves_nothing(analysis_id):
    """R_a ≈ R_b: every hypothesis stays unproven, whatever the other analyses' set-up for conditions."""
    for setup in ({}, {"A6": "higher"}, {"A6": "lower"}, {"A1": "higher"}, {"A1": "lower"}):
        if analysis_id in setup:
            continue
        assert effects_of({**setup, analysis_id: "none"}, analysis_id) == {}
    assert set(conclusions({}).values()) == {"unproven"}


def test_rule_table_matches_table_1():
    """Which hypotheses each analysis informs (right column of Table 1) and which it depends on (conditions)."""
    informs = {a: set() for a in ANALYSES}
    depends = {a: set() for a in ANALYSES}
    for r in RULES:
        informs[r["analysis"]] |= {h for h, _ in r["then"]}
        if r["if"]:
            depends[r["analysis"]].add(r["if"]["hypothesis"])
    assert informs == {
        "A1": {"H1", "H2", "H3", "H4", "H7", "H8"},
        "A2": {"H1", "H2", "H3", "H4", "H7", "H8"},
        "A3": {"H7", "H8", "H9", "H10", "H11", "H12"},
        "A4": {"H11", "H12"},
        "A5": {"H11", "H12"},
        "A6": {"H5", "H6"},
    }
    assert depends == {
        "A1": set(),
        "A2": {"H5", "H6"},
        "A3": {"H1", "H2"},
        "A4": set(),
        "A5": {"H5", "H6"},
        "A6": set(),
    }
    assert STAGES == (("A1", "A4", "A6"), ("A2", "A5"), ("A3",))
    # a condition is only ever on a hypothesis settled in an earlier step
    step = {a: i for i, s in enumerate(STAGES) for a in s}
    decided_by = {h: {a for a in ANALYSES if h in informs[a]} for h in HYPOTHESES}
    for r in RULES:
        if r["if"]:
            assert all(step[a] < step[r["analysis"]] for a in decided_by[r["if"]["hypothesis"]]), r["id"]


def test_rules_are_complete_and_never_overlap():
    states = ("confirmed", "unproven", "rejected")
    for a in ANALYSES:
        for outcome in ("higher", "lower"):
            rows = [r for r in RULES if r["analysis"] == a and r["outcome"] == outcome]
            if all(r["if"] is None for r in rows):
                assert len(rows) == 1
            else:
                hyps = {r["if"]["hypothesis"] for r in rows}
                assert len(hyps) == 1 and sorted(r["if"]["state"] for r in rows) == sorted(states)
        assert not [r for r in RULES if r["analysis"] == a and r["outcome"] == "none"]
    assert len({r["id"] for r in RULES}) == len(RULES)
    # the exhaustive run finds no overlap and every hypothesis's indicator stays within the number of rules
    for combo in itertools.product(("higher", "lower", "none"), repeat=6):
        hypoml_infer(dict(zip(ANALYSES, combo)))


def test_order_of_evaluation_reads_states_from_earlier_steps():
    """A3 reads H1 after A1 *and* A2 (step 3): A2 alone can confirm H1 and so switch A3 to its case (i)."""
    d = {"A2": "higher", "A3": "higher"}
    assert effects_of(d, "A2") == parse("T1 T4 T7 F2 F3 F8")
    assert effects_of(d, "A3") == parse("T7 T9 F8 F10")  # H1 was confirmed by A2 -> case (i), not (ii)
    # A1 and A2 disagreeing leaves H1 at 0 -> unproven -> A3 case (ii)
    d = {"A1": "lower", "A2": "higher", "A3": "higher"}
    assert conclusions(d)["H1"] == "unproven"
    assert effects_of(d, "A3") == parse("T9 F10")
    trace = hypoml_trace(d)
    assert trace.drop_duplicates("analysis")["analysis"].tolist() == ["A1", "A4", "A6", "A2", "A5", "A3"]
    assert trace.drop_duplicates("analysis")["step"].tolist() == [2, 2, 2, 3, 3, 4]


def test_indicator_is_the_sum_of_effects():
    d = {"A1": "higher", "A2": "higher", "A3": "higher", "A6": "higher"}
    c = hypoml_infer(d).set_index("hypothesis")
    assert c.loc["H7", "indicator"] == 3  # A1, A2, A3
    assert c.loc["H1", "moved_by"] == "A1 +1, A2 +1"
    assert c.loc["H8", "indicator"] == -3 and c.loc["H8", "symbol"] == "−"
    # opposite evidence cancels to unproven
    c = hypoml_infer({"A1": "higher", "A2": "lower"}).set_index("hypothesis")
    assert c.loc["H1", "indicator"] == 0 and c.loc["H1", "conclusion"] == "unproven"
    assert c.loc["H4", "indicator"] == 2


# --------------------------------------------------------------------------------------------------
# The paper's worked examples


def test_average_luminosity_example():
    """§6, Fig. 9: only A3 significant, R(M+,D+) > R(M+,D) -> H9 confirmed, H10 rejected, the rest unproven."""
    d = {"A1": "none", "A2": "none", "A3": "higher", "A4": "none", "A5": "none", "A6": "none"}
    assert confirmed(d) == {"H9"}
    assert rejected(d) == {"H10"}
    assert "H7" not in confirmed(d)  # "this does not translate to a confirmation of H7"


def test_rotation_regularization_example():
    """§6, Fig. 1: six hypotheses confirmed. The prose names H3 ("M+ has learned … adequately"), but A1 "higher"
    gives ⊤(H4) ∧ ⊥(H3) (H3 is about M): the rules are followed, so H4 is confirmed and H3 rejected."""
    d = {"A1": "higher", "A2": "higher", "A3": "higher", "A4": "lower", "A5": "none", "A6": "lower"}
    assert confirmed(d) == {"H1", "H4", "H6", "H7", "H9", "H12"}
    assert "H3" in rejected(d)
    # with H6 confirmed, A2 "higher" is case (iii): no conclusion, a caution
    trace = hypoml_trace(d)
    a2 = trace[trace["analysis"] == "A2"].iloc[0]
    assert a2["rule"] == "A2-higher-iii" and a2["effect"] == 0 and "H6" in a2["caution"]


def test_lighting_variation_example():
    """Appendix C, Fig. 17: H1, H4, H7, H9 confirmed, H5 confirmed "unexpectedly", H11/H12 inconclusive."""
    d = {"A1": "higher", "A2": "higher", "A3": "higher", "A4": "none", "A5": "none", "A6": "higher"}
    c = conclusions(d)
    assert {"H1", "H4", "H5", "H7", "H9"} <= confirmed(d)
    assert c["H11"] == c["H12"] == "unproven"


def test_hsv_example_is_inconclusive_about_usefulness():
    """§6, Fig. 10(a): R(M+,D+) v. R(M,D) has p = 0.43 -> "neither useful nor harmful": H1, H2 unproven."""
    c = conclusions({"A1": "none", "A2": "none"})
    assert c["H1"] == c["H2"] == "unproven"


# --------------------------------------------------------------------------------------------------
# Data: four paired result sets


def test_luminosity_pattern_from_data():
    res = hypoml_report(luminosity_sets())
    tests = res.tests.set_index("analysis")
    assert tests["direction"].to_dict() == {
        "A1": "none",
        "A2": "none",
        "A3": "higher",
        "A4": "none",
        "A5": "none",
        "A6": "none",
    }
    assert 0.01 < tests.loc["A3", "p_val"] < 0.05
    assert tests.loc["A6", "p_val"] == 1.0
    c = res.conclusions.set_index("hypothesis")["conclusion"]
    assert set(c[c == "confirmed"].index) == {"H9"} and set(c[c == "rejected"].index) == {"H10"}
    # a stricter threshold makes A3 insignificant: H9 back to unproven
    strict = hypoml_report(luminosity_sets(), threshold=0.01).conclusions.set_index("hypothesis")["conclusion"]
    assert set(strict) == {"unproven"}


def test_t_tests_match_scipy_and_pingouin():
    rng = np.random.default_rng(3)
    n = 80
    sets = {k: pd.DataFrame({"id": range(n), "correctness": rng.uniform(0, 1, n)}) for k in hm.RESULT_SETS}
    sets["M+,D+"]["correctness"] = np.clip(sets["M,D"]["correctness"] + rng.normal(0.05, 0.1, n), 0, 1)
    items = hypoml_items(sets)
    tests = hypoml_tests(items).set_index("analysis")
    for a, (x, y) in ANALYSES.items():
        xa = items.loc[items["result_set"] == x, "score"].to_numpy()
        ya = items.loc[items["result_set"] == y, "score"].to_numpy()
        ref = stats.ttest_rel(xa, ya)
        row = tests.loc[a]
        assert row["t"] == pytest.approx(ref.statistic, rel=1e-10)
        assert row["p_val"] == pytest.approx(ref.pvalue, rel=1e-10)
        assert row["dof"] == n - 1
        lo, hi = ref.confidence_interval(0.95)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((lo, hi), rel=1e-10)
        pgres = pg.ttest(xa, ya, paired=True)
        p_col = "p_val" if "p_val" in pgres.columns else "p-val"
        assert row["p_val"] == pytest.approx(float(pgres[p_col].iloc[0]), rel=1e-8)
        assert row["mean_diff"] == pytest.approx(xa.mean() - ya.mean(), abs=1e-12)
        want = "none" if ref.pvalue >= 0.05 else ("higher" if ref.statistic > 0 else "lower")
        assert row["direction"] == want
        assert row["comparison"] == f"R({x}) v. R({y})"
    assert tests.loc["A1", "direction"] == "higher"


def test_degenerate_differences():
    n = 10
    same = {k: pd.DataFrame({"id": range(n), "correctness": [1, 0] * 5}) for k in hm.RESULT_SETS}
    tests = hypoml_tests(hypoml_items(same))
    assert (tests["p_val"] == 1.0).all() and (tests["direction"] == "none").all()
    shifted = dict(same)
    shifted["M+,D+"] = pd.DataFrame({"id": range(n), "correctness": [1.0, 0.5] * 5})  # +0.5 on every other item
    shifted["M,D"] = pd.DataFrame({"id": range(n), "correctness": [0.8, 0.3] * 5})  # constant shift of +0.2
    tests = hypoml_tests(hypoml_items(shifted)).set_index("analysis")
    assert tests.loc["A1", "p_val"] == 0.0 and tests.loc["A1", "t"] == math.inf
    assert tests.loc["A1", "direction"] == "higher"
    assert json.dumps(hypoml_json(hypoml_report(shifted)), allow_nan=False)  # ±inf become null …
    # … and the note says why t is infinite (or 0) rather than leaving a bare "null" / "+∞"
    assert tests.loc["A1", "note"].startswith("every item differs by the same +0.2000 (s_d = 0): t = +∞, p = 0")
    assert "score every item the same" in hypoml_tests(hypoml_items(same))["note"].iloc[0]
    text = hypoml_text(hypoml_report(shifted))
    assert "A1: every item differs by the same +0.2000" in text
    assert re.search(r"A1\s+R\(M\+,D\+\) v\. R\(M,D\)\s.*\s\+∞\s+9\s+< 0\.001\s+higher", text)
    comparisons = {r["analysis"]: r for r in hypoml_json(hypoml_report(shifted))["comparisons"]}
    assert comparisons["A1"]["t"] is None and "s_d = 0" in comparisons["A1"]["note"]


def test_accuracy_intervals():
    k, n = 37, 50
    sets = {key: pd.DataFrame({"id": range(n), "correctness": [1] * k + [0] * (n - k)}) for key in hm.RESULT_SETS}
    acc = hypoml_accuracy(hypoml_items(sets))
    assert acc["label"].tolist() == ["R(M,D)", "R(M,D+)", "R(M+,D)", "R(M+,D+)"]
    row = acc.iloc[0]
    ref = stats.binomtest(k, n).proportion_ci(0.95, method="wilson")
    assert row["ci_method"] == "wilson" and row["accuracy"] == k / n
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((ref.low, ref.high), rel=1e-10)
    graded = {key: pd.DataFrame({"id": range(5), "correctness": [0.2, 0.4, 0.9, 1.0, 0.5]}) for key in hm.RESULT_SETS}
    row = hypoml_accuracy(hypoml_items(graded), ci=90).iloc[0]
    x = np.array([0.2, 0.4, 0.9, 1.0, 0.5])
    lo, hi = stats.t.interval(0.90, 4, loc=x.mean(), scale=stats.sem(x))
    assert row["ci_method"] == "t" and (row["ci_low"], row["ci_high"]) == pytest.approx((lo, hi))


def test_uncertainty_weights_the_score():
    sets = {
        k: pd.DataFrame({"id": ["a", "b", "c"], "correctness": [1, 1, 0], "uncertainty": [0.5, 1, 0.2]})
        for k in hm.RESULT_SETS
    }
    items = hypoml_items(sets)
    assert items.loc[items["result_set"] == "M,D", "score"].tolist() == [0.5, 1.0, 0.0]
    assert hypoml_report(sets).meta["score"] == "correctness × uncertainty"


def test_correctness_from_labels_and_pairing_by_id():
    base = pd.DataFrame(
        {"id": ["x", "y", "z", "w"], "ground_truth": ["1", "2", "cat", "7"], "label": ["1.0", "3", "cat", ""]}
    )  # "1" = "1.0" numerically; empty label is wrong
    shuffled = base.iloc[[2, 0, 3, 1]]
    items = hypoml_items({"M,D": base, "M,D+": shuffled, "M+,D": base, "M+,D+": shuffled})
    for k in hm.RESULT_SETS:
        part = items[items["result_set"] == k]
        assert part["id"].tolist() == ["x", "y", "z", "w"]  # every set in R(M,D)'s order
        assert part["correctness"].tolist() == [1.0, 0.0, 1.0, 0.0]


def test_human_groups_work_the_same_way():
    """Two participant groups (without / with the extra information) on two versions of a test: per-item mean
    correctness of each group is a result set like any model's."""
    rng = np.random.default_rng(11)
    trials = []
    for group, boost in (("M", 0.0), ("M+", 0.15)):
        for p in range(30):
            for item in range(40):
                for version in ("D", "D+"):
                    prob = 0.6 + (boost if version == "D+" else 0.0)
                    trials.append((group, f"{group}{p}", f"s{item}", version, int(rng.random() < prob)))
    df = pd.DataFrame(trials, columns=["group", "participant", "stimulus", "version", "correct"])
    per_item = df.groupby(["group", "version", "stimulus"], as_index=False)["correct"].mean()
    sets = {
        f"{g},{v}": part.rename(columns={"stimulus": "id", "correct": "correctness"})
        for (g, v), part in per_item.groupby(["group", "version"])
    }
    res = hypoml_report(sets)
    assert res.meta["n_items"] == 40
    assert res.tests.set_index("analysis").loc["A1", "direction"] == "higher"
    assert res.conclusions.set_index("hypothesis").loc["H1", "conclusion"] == "confirmed"


# --------------------------------------------------------------------------------------------------
# Bad input: the message names the source, the row and the column


def good(n=3, **extra):
    return pd.DataFrame({"id": [f"i{k}" for k in range(n)], "correctness": [1.0, 0.0, 0.5][:n], **extra})


def four(**override):
    sets = {k: good() for k in hm.RESULT_SETS}
    sets.update(override)
    return sets


SOURCES = ["md.csv", "mdp.csv", "mpd.csv", "mpdp.csv"]


@pytest.mark.parametrize(
    "frame, pattern",
    [
        (pd.DataFrame({"item": ["a", "b"], "correctness": [1, 0]}), r"mpd\.csv: column 'id' is missing .*item"),
        (
            pd.DataFrame({"id": ["a", "b"], "ground_truth": [1, 0]}),
            r"mpd\.csv: column 'correctness' is missing, and so is 'label'",
        ),
        (
            pd.DataFrame({"id": ["i0", "i1", "i2"], "correctness": ["1", "0", "1.5"]}),
            r"mpd\.csv: row 3 \(line 4\), column 'correctness': 1\.5 is outside \[0, 1\]",
        ),
        (
            pd.DataFrame({"id": ["i0", "i1", "i2"], "correctness": ["1", "yes", "0"]}),
            r"mpd\.csv: row 2 \(line 3\), column 'correctness': 'yes' is not a \(finite\) number",
        ),
        (
            pd.DataFrame({"id": ["i0", "i1", "i2"], "correctness": ["1", "", "0"]}),
            r"mpd\.csv: row 2 \(line 3\), column 'correctness': empty value",
        ),
        (
            pd.DataFrame({"id": ["i0", "i1", "i2"], "correctness": [1.0, -0.1, 0.0]}),
            r"row 2 \(line 3\), column 'correctness': -0\.1 is outside",
        ),
        (
            pd.DataFrame({"id": ["i0", "i0", "i2"], "correctness": [1, 0, 1]}),
            r"mpd\.csv: id 'i0' appears more than once \(rows 1 \(line 2\), 2 \(line 3\), column 'id'\)",
        ),
        (pd.DataFrame({"id": ["i0", "", "i2"], "correctness": [1, 0, 1]}), r"row 2 \(line 3\), column 'id': empty id"),
        (
            pd.DataFrame({"id": ["i0", "i1", "i2"], "correctness": [1, 0, 1], "uncertainty": ["0.5", "x", "1"]}),
            r"row 2 \(line 3\), column 'uncertainty': 'x' is not",
        ),
        (
            pd.DataFrame({"id": ["i0", "i1", "i2"], "ground_truth": ["a", "", "b"], "label": ["a", "b", "b"]}),
            r"row 2 \(line 3\), column 'ground_truth': empty ground truth",
        ),
    ],
)
def test_bad_rows_are_named(frame, pattern):
    with pytest.raises(ValueError, match=pattern):
        hypoml_items(four(**{"M+,D": frame}), sources=SOURCES, lines=True)


def test_id_mismatch_names_the_ids():
    other = pd.DataFrame({"id": ["i0", "i1", "zz"], "correctness": [1, 0, 1]})
    with pytest.raises(ValueError) as err:
        hypoml_items(four(**{"M+,D+": other}), sources=SOURCES)
    msg = str(err.value)
    assert "mpdp.csv lacks 1 id(s) of md.csv: 'i2'" in msg and "mpdp.csv has 1 id(s) not in md.csv: 'zz'" in msg
    many = pd.DataFrame({"id": [f"q{k}" for k in range(9)], "correctness": 0})
    with pytest.raises(ValueError, match=r"R\(M,D\+\) has 9 id\(s\) not in R\(M,D\): 'q0', .*'q4' and 4 more"):
        hypoml_items(four(**{"M,D+": many}))


def test_other_refusals():
    with pytest.raises(ValueError, match=r"column 'uncertainty' is in mdp\.csv but missing from md\.csv, mpd"):
        hypoml_items(four(**{"M,D+": good(uncertainty=[1, 1, 1])}), sources=SOURCES)
    with pytest.raises(ValueError, match="lacks the result set"):
        hypoml_items({"M,D": good()})
    with pytest.raises(ValueError, match="unknown result set 'M,X'"):
        hypoml_items({**four(), "M,X": good()})
    with pytest.raises(ValueError, match="'threshold' must be a p-value between 0 and 1"):
        hypoml_report(four(), threshold=1.5)
    with pytest.raises(ValueError, match="'threshold' must be a finite number"):
        hypoml_report(four(), threshold="abc")
    with pytest.raises(ValueError, match="unknown direction of A1 'up'"):
        hypoml_infer({"A1": "up"})
    with pytest.raises(ValueError, match="unknown analysis 'A7'"):
        hypoml_infer({"A7": "higher"})
    with pytest.raises(ValueError, match="must be numeric|booleans"):
        hypoml_items(four(**{"M,D": pd.DataFrame({"id": [1, 2], "correctness": [True, False]})}))


# --------------------------------------------------------------------------------------------------
# Renderings


def test_text_json_and_files(tmp_path):
    res = hypoml_report(luminosity_sets(), sources=["a.csv", "b.csv", "c.csv", "d.csv"])
    text = hypoml_text(res)
    i_concl, i_comp, i_acc = (text.index(s) for s in ("Conclusions", "Comparisons", "Accuracies"))
    assert i_concl < i_comp < i_acc
    assert re.search(r"H9\s+\+\s+confirmed\s+\+1 .*positively\s+A3 \+1$", text, re.M)
    assert re.search(r"A3\s+R\(M\+,D\+\) v\. R\(M\+,D\)\s+.*\s0\.023\s+higher", text)  # p: 3 decimals
    assert re.search(r"R\(M,D\)\s+0\.5000\s+\[0\.\d{4}, 0\.\d{4}\]\s+200\s+wilson\s+a\.csv$", text, re.M)
    data = hypoml_json(res)
    assert set(data) == {"threshold", "meta", "conclusions", "comparisons", "accuracies", "trace"}
    assert [r["hypothesis"] for r in data["conclusions"]] == ALL_H
    assert data["meta"]["sources"]["R(M+,D+)"] == "d.csv"
    json.dumps(data, allow_nan=False)
    paths = write_hypoml(res, tmp_path / "out")
    assert [p.name for p in paths] == list(hs.OUTPUT_FILES) and all(p.stat().st_size > 0 for p in paths)
    assert pd.read_csv(tmp_path / "out" / "comparisons.csv")["analysis"].tolist() == list(ANALYSES)


def test_html_is_self_contained_and_embeds_the_rules():
    res = hypoml_report(luminosity_sets(), sources=["</script><b>x", "b.csv", "c.csv", "d&e.csv"])
    page = hypoml_html(res, title="Luminosity <test>")
    assert "__HYPOML_" not in page
    assert "<title>Luminosity &lt;test&gt;</title>" in page
    assert not re.search(r"<(link|img|iframe)\b|\ssrc=|@import|url\(", page, re.I)
    assert set(re.findall(r"https?://[^\s\"'<>)]+", page)) <= {"http://www.w3.org/2000/svg"}  # a namespace only
    blob = re.search(r'<script type="application/json" id="hypoml-data">(.*?)</script>', page, re.S).group(1)
    data = json.loads(blob)
    assert data["rules"] == json.loads(json.dumps(RULES))  # the page evaluates the very same table
    assert data["stages"] == [list(s) for s in STAGES]
    assert data["meta"]["sources"]["R(M,D)"] == "</script><b>x"


@pytest.mark.parametrize("module", [hm, hs])
def test_docstring_examples_run(module):
    assert doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE).failed == 0


@pytest.mark.parametrize("module", [hm, hs])
def test_public_functions_document_their_output(module):
    for name in module.__all__:
        obj = getattr(module, name)
        if callable(obj) and not isinstance(obj, type):
            assert "Returns" in (obj.__doc__ or "") and "Parameters" in obj.__doc__, name
    assert analysis.hypoml_report is hypoml_report


# --------------------------------------------------------------------------------------------------
# The page's JavaScript evaluates the same rules as Python (headless Chromium)


def test_page_javascript_agrees_with_python_on_every_combination(page, tmp_path):
    out = write_hypoml(hypoml_report(luminosity_sets()), tmp_path)[0]
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(out.as_uri())
    combos = [dict(zip(ANALYSES, c)) for c in itertools.product(("higher", "lower", "none"), repeat=6)]
    js = page.evaluate("(combos) => combos.map(c => window.hypoml.evaluate(c))", combos)
    assert len(js) == 729
    for combo, got in zip(combos, js):
        ind, trace = hm._evaluate(combo)
        assert got["indicators"] == ind, combo
        assert [
            {k: t[k] for k in ("step", "analysis", "direction", "rule", "condition", "hypothesis", "effect", "caution")}
            for t in got["trace"]
        ] == [
            {k: t[k] for k in ("step", "analysis", "direction", "rule", "condition", "hypothesis", "effect", "caution")}
            for t in trace
        ], combo
    # and the same significance test
    cases = [
        (0.049, 0.1, 0.05),
        (0.05, 0.1, 0.05),
        (0.01, -0.2, 0.05),
        (0.5, 0.3, 0.6),
        (0.0, 0.0, 0.05),
        (None, 0.2, 0.05),
    ]
    got = page.evaluate("(cs) => cs.map(c => window.hypoml.direction({p_val: c[0], mean_diff: c[1]}, c[2]))", cases)
    assert got == [hm._direction(float("nan") if p is None else p, d, t) for p, d, t in cases]
    assert errors == []


def test_accuracy_t_interval_stays_inside_0_1_and_says_when_clipped():
    # #23 point 3: graded scores near 1, the t interval mean ± t s/√n reaches past 1.
    x = np.array([1.0] * 10 + [0.1, 1.0])
    sets = {k: pd.DataFrame({"id": range(12), "correctness": x}) for k in hm.RESULT_SETS}
    row = hypoml_accuracy(hypoml_items(sets)).iloc[0]
    lo, hi = stats.t.interval(0.95, 11, loc=x.mean(), scale=stats.sem(x))
    assert hi > 1 and row["ci_high"] == 1.0 and row["ci_low"] == pytest.approx(lo)
    assert row["ci_method"] == "t, clipped to [0, 1]" and row["note"] == ""
    inside = {k: pd.DataFrame({"id": range(5), "correctness": [0.4, 0.5, 0.6, 0.5, 0.45]}) for k in hm.RESULT_SETS}
    assert hypoml_accuracy(hypoml_items(inside))["ci_method"].eq("t").all()


def test_one_item_and_constant_graded_scores_have_no_interval_or_test_and_say_why():
    one = {k: pd.DataFrame({"id": ["i0"], "correctness": [0.5]}) for k in hm.RESULT_SETS}
    res = hypoml_report(one)
    acc = res.accuracy.iloc[0]
    assert acc["ci_method"] == "none" and math.isnan(acc["ci_low"]) and acc["note"].startswith("one item")
    tests = res.tests
    assert tests["p_val"].isna().all() and (tests["direction"] == "none").all() and (tests["dof"] == 0).all()
    assert tests["note"].str.startswith("one item: a paired t-test needs at least 2").all()
    assert (res.conclusions["conclusion"] == "unproven").all()
    text = hypoml_text(res)
    assert "A1: one item: a paired t-test needs at least 2" in text and "R(M,D): one item: no standard" in text
    data = json.loads(json.dumps(hypoml_json(res)), parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    assert data["comparisons"][0]["p_val"] is None and data["accuracies"][0]["ci_low"] is None
    same = {k: pd.DataFrame({"id": range(6), "correctness": 1, "uncertainty": 0.7}) for k in hm.RESULT_SETS}
    acc = hypoml_accuracy(hypoml_items(same)).iloc[0]
    assert acc["ci_method"] == "none" and acc["note"] == "every score is 0.7000 (s = 0): no t interval"


def test_a_result_set_without_rows_leaves_its_analyses_untested():
    # #23 point 1, "one condition missing": R(M+,D+) was not run (its file has a header and no rows).
    sets = {k: pd.DataFrame({"id": range(8), "correctness": [1, 0] * 4}) for k in hm.RESULT_SETS}
    sets["M,D+"] = pd.DataFrame({"id": range(8), "correctness": [1, 1, 1, 1, 1, 1, 1, 0]})
    sets["M+,D+"] = pd.DataFrame({"id": [], "correctness": []})
    res = hypoml_report(sets)
    assert res.meta["missing"] == ["R(M+,D+)"] and res.meta["n_items"] == 8
    tests = res.tests.set_index("analysis")
    untested = ["A1", "A2", "A3"]  # the three that compare R(M+,D+)
    assert tests.loc[untested, "p_val"].isna().all() and (tests.loc[untested, "direction"] == "none").all()
    why = "R(M+,D+) has no rows, so no t, p or interval (counted as no difference)"
    assert (tests.loc[untested, "note"] == why).all()
    # the others are tested as before: A6 compares R(M,D+) (7 of 8) with R(M,D) (4 of 8)
    ref = stats.ttest_rel(sets["M,D+"]["correctness"], sets["M,D"]["correctness"])
    assert tests.loc["A6", "p_val"] == pytest.approx(ref.pvalue) and tests.loc["A6", "note"] == ""
    acc = res.accuracy.set_index("result_set").loc["M+,D+"]
    assert acc["n"] == 0 and math.isnan(acc["accuracy"]) and acc["note"] == "no rows: this condition was not run"
    text = hypoml_text(res)
    assert "Not run (no rows): R(M+,D+)" in text and "A1: R(M+,D+) has no rows" in text
    data = json.loads(json.dumps(hypoml_json(res)), parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    assert data["meta"]["missing"] == ["R(M+,D+)"] and data["accuracies"][3]["accuracy"] is None
    assert "R(M+,D+)" in hypoml_html(res)
    with pytest.raises(ValueError, match="none of the four result sets has rows"):
        hypoml_items({k: pd.DataFrame({"id": [], "correctness": []}) for k in hm.RESULT_SETS})
