"""HypoML: hypothesis-based evaluation of a model (or a group of people) with and without extra information.

After Wang, Alexander, Pegg, Qu & Chen, *HypoML: Visual Analysis for Hypothesis-based Evaluation of Machine
Learning Models* (IEEE TVCG 2021; ``seeds/hypoml.txt``), §3–§5 and Appendix A.

Set-up (§3): a model ``M`` is trained on the original data with noise in the "+" channel, a model ``M+`` on the
original data plus extra information about a concept ξ. Both are tested on ``D`` (no extra information) and ``D+``
(with it), giving four paired result sets R(M,D), R(M,D+), R(M+,D), R(M+,D+): one row per test item with

* ``id`` -- the item, the same ids in all four sets;
* ``ground_truth`` and ``label`` -- the true and the given answer (only needed when ``correctness`` is absent);
* ``uncertainty`` (optional) -- the paper's "ML uncertainty"; when given, the score analysed is
  ``correctness × uncertainty`` (§4, "correctness with uncertainty"), so it should be in [0, 1];
* ``correctness`` in [0, 1] -- when absent it is 1 where ``label`` equals ``ground_truth`` and 0 otherwise.

Nothing here is specific to machine learning: "M" and "M+" can be two groups of participants (trained without /
with the extra information) and "D" / "D+" two versions of the test, as long as the four sets are paired by item
(e.g. each group's mean correctness per stimulus).

Statistics (§4): six paired, two-tailed t-tests on the per-item score,

====  =====================  =========================================================
A1    R(M+,D+) v. R(M,D)     the conventional comparison
A2    R(M+,D+) v. R(M,D+)    conditional on H6 (higher) / H5 (lower)
A3    R(M+,D+) v. R(M+,D)    conditional on H1 (higher) / H2 (lower)
A4    R(M+,D)  v. R(M,D)
A5    R(M+,D)  v. R(M,D+)    conditional on H6 (higher) / H5 (lower)
A6    R(M,D+)  v. R(M,D)
====  =====================  =========================================================

each ending "higher" (first set significantly higher: p < threshold and mean difference > 0), "lower", or
"none". The logical rules of §4 / Appendix A (:data:`RULES`, one row per case) are then applied in the paper's
order -- STEP 2: A1, A4, A6; STEP 3: A2, A5; STEP 4: A3 (:data:`STAGES`) -- adding +1 to a hypothesis's indicator
for each ⊤(H) and −1 for each ⊥(H); conditions read the hypotheses' states at the start of the step. STEP 5: an
indicator > 0 is *confirmed*, 0 *unproven*, < 0 *rejected*.

:data:`RULES` is the single source of truth for the logic: :func:`hypoml_infer` interprets it in Python and the
HTML page (:func:`analysis.reports.hypoml_study.hypoml_html`) embeds the same table as JSON and interprets it in
JavaScript, so changing the threshold on the page re-derives the conclusions with exactly these rules.

Where the paper's prose disagrees with its own rules, the rules are followed (see the comments in :data:`RULES`):

* §6, rotation regularization: the prose lists "H3: M+ has learned … adequately" among the confirmed hypotheses.
  H3 is about M; A1 "higher" gives ⊤(H4) ∧ ⊥(H3), so the rules confirm H4 (the statement the prose describes).
* §4, A1 prose: "R(M+,D+) < R(M,D) … the opposite conclusions for H1, H2, H3 and H4"; the rule itself reads
  ⊤(H2) ∧ ⊤(H4) ∧ ⊥(H1) ∧ ⊥(H3) (H4 is confirmed either way, H3 rejected either way).
* Appendix A.5 writes the A5 conditions as R(M,D) ≳ R(M,D+); §4 and Table 1 define A5 as R(M+,D) v. R(M,D+),
  which is used. Its case (iii) for "lower" mentions H6 in the caution although the condition is ⊤(H5).
* Table 1's "Condition" column is misaligned in the text; the conditions used are those of the rules themselves
  (A2, A5: H5/H6; A3: H1/H2).

:func:`analysis.reports.hypoml_study.hypoml_report` runs the whole analysis and renders it (text, JSON, CSV, HTML).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from ._checks import check_choice, check_ci, check_number
from .inference import two_sample_t

__all__ = [
    "RESULT_SETS",
    "ANALYSES",
    "STAGES",
    "HYPOTHESES",
    "RULES",
    "read_results",
    "hypoml_items",
    "hypoml_accuracy",
    "hypoml_tests",
    "hypoml_infer",
    "hypoml_trace",
]

# --------------------------------------------------------------------------------------------------
# The design as data

#: The four result sets, in the order the CLI takes them: model × test data.
RESULT_SETS: tuple[str, ...] = ("M,D", "M,D+", "M+,D", "M+,D+")

#: analysis → (first result set, second result set); "higher" means the first is significantly higher.
ANALYSES: dict[str, tuple[str, str]] = {
    "A1": ("M+,D+", "M,D"),
    "A2": ("M+,D+", "M,D+"),
    "A3": ("M+,D+", "M+,D"),
    "A4": ("M+,D", "M,D"),
    "A5": ("M+,D", "M,D+"),
    "A6": ("M,D+", "M,D"),
}

#: Order of evaluation (§4, STEP 2-4): conditions read the states at the start of each step.
STAGES: tuple[tuple[str, ...], ...] = (("A1", "A4", "A6"), ("A2", "A5"), ("A3",))

#: The twelve hypotheses (paper Fig. 4; wording from §3, §6 and Appendix A). ξ is the concept, D_m+ the training
#: data with the extra information.
HYPOTHESES: dict[str, str] = {
    "H1": "The concept is useful to M+ and would be useful to M",
    "H2": "The concept is harmful to M+ and would be harmful to M",
    "H3": "M has already learned the concept adequately",
    "H4": "M+ has learned the concept adequately",
    "H5": "The extra information in D+ has a positive effect on M",
    "H6": "The extra information in D+ has a negative effect on M",
    "H7": "The extra information in D+ has a positive effect on M+",
    "H8": "The extra information in D+ has a negative effect on M+",
    "H9": "Learning with D_m+ affects the + part of M+ positively",
    "H10": "Learning with D_m+ affects the + part of M+ negatively",
    "H11": "Learning with D_m+ affects the M part of M+ positively",
    "H12": "Learning with D_m+ affects the M part of M+ negatively",
}

OUTCOMES = ("higher", "lower", "none")

_USEFUL = [["H1", 1], ["H4", 1], ["H7", 1], ["H2", -1], ["H3", -1], ["H8", -1]]
_HARMFUL_A2 = [["H2", 1], ["H4", 1], ["H8", 1], ["H1", -1], ["H3", -1], ["H7", -1]]


def _rule(rid, analysis, outcome, then, *, cond=None, caution=None, source=""):
    return {
        "id": rid,
        "analysis": analysis,
        "outcome": outcome,
        "if": None if cond is None else {"hypothesis": cond[0], "state": cond[1]},
        "then": [list(e) for e in then],
        "caution": caution,
        "source": source,
    }


_CAUTION_H6 = (
    "H6 is confirmed: M may simply be hindered by the extra information in D+. This explains the "
    "difference but is against the common-sense assumption that H6 is unlikely; no conclusion is drawn "
    "-- investigate M's structure and training."
)
_CAUTION_H5 = (
    "H5 is confirmed: M may simply be helped by the extra information in D+. This explains the "
    "difference but is against the common-sense assumption that H5 is unlikely; no conclusion is drawn "
    "-- investigate M's structure and training."
)

#: The logical inference rules of §4 / Appendix A, one row per case. ``if`` is a condition on a hypothesis's state
#: at the start of the step (None: unconditional); ``then`` lists [hypothesis, +1 for ⊤ / −1 for ⊥]. Unlisted
#: outcomes ("none", i.e. R_a ≈ R_b) leave every hypothesis unproven. At most one row matches an
#: (analysis, outcome, states) combination. Exported as JSON into the HTML page, which evaluates the same rows.
RULES: list[dict[str, Any]] = [
    # A1: R(M+,D+) v. R(M,D) (§4, App. A.1). NB the §4 prose says "the opposite conclusions for H1, H2, H3 and
    # H4" for "lower"; the rule (followed here) confirms H4 and rejects H3 in both directions.
    _rule("A1-higher", "A1", "higher", _USEFUL, source="§4 / A.1"),
    _rule("A1-lower", "A1", "lower", [["H2", 1], ["H4", 1], ["H1", -1], ["H3", -1]], source="§4 / A.1"),
    # A4: R(M+,D) v. R(M,D) (App. A.4)
    _rule("A4-higher", "A4", "higher", [["H11", 1], ["H12", -1]], source="§4 / A.4"),
    _rule("A4-lower", "A4", "lower", [["H12", 1], ["H11", -1]], source="§4 / A.4"),
    # A6: R(M,D+) v. R(M,D) (App. A.6)
    _rule("A6-higher", "A6", "higher", [["H5", 1], ["H6", -1]], source="§4 / A.6"),
    _rule("A6-lower", "A6", "lower", [["H6", 1], ["H5", -1]], source="§4 / A.6"),
    # A2: R(M+,D+) v. R(M,D+), conditional on H6 (higher) or H5 (lower) (App. A.2)
    _rule("A2-higher-i", "A2", "higher", _USEFUL, cond=("H6", "rejected"), source="§4 / A.2 (i)"),
    _rule("A2-higher-ii", "A2", "higher", _USEFUL, cond=("H6", "unproven"), source="§4 / A.2 (ii)"),
    _rule("A2-higher-iii", "A2", "higher", [], cond=("H6", "confirmed"), caution=_CAUTION_H6, source="§4 / A.2 (iii)"),
    _rule("A2-lower-i", "A2", "lower", _HARMFUL_A2, cond=("H5", "rejected"), source="§4 / A.2 (i)"),
    _rule("A2-lower-ii", "A2", "lower", _HARMFUL_A2, cond=("H5", "unproven"), source="§4 / A.2 (ii)"),
    _rule("A2-lower-iii", "A2", "lower", [], cond=("H5", "confirmed"), caution=_CAUTION_H5, source="§4 / A.2 (iii)"),
    # A5: R(M+,D) v. R(M,D+), conditional on H6 (higher) or H5 (lower). App. A.5 prints the comparison as
    # R(M,D) ≳ R(M,D+) and names H6 in the caution of the H5 case; §4 and Table 1 (followed) compare R(M+,D).
    _rule("A5-higher-i", "A5", "higher", [["H11", 1], ["H12", -1]], cond=("H6", "rejected"), source="§4 / A.5 (i)"),
    _rule("A5-higher-ii", "A5", "higher", [["H11", 1], ["H12", -1]], cond=("H6", "unproven"), source="§4 / A.5 (ii)"),
    _rule("A5-higher-iii", "A5", "higher", [], cond=("H6", "confirmed"), caution=_CAUTION_H6, source="§4 / A.5 (iii)"),
    _rule("A5-lower-i", "A5", "lower", [["H12", 1], ["H11", -1]], cond=("H5", "rejected"), source="§4 / A.5 (i)"),
    _rule("A5-lower-ii", "A5", "lower", [["H12", 1], ["H11", -1]], cond=("H5", "unproven"), source="§4 / A.5 (ii)"),
    _rule("A5-lower-iii", "A5", "lower", [], cond=("H5", "confirmed"), caution=_CAUTION_H5, source="§4 / A.5 (iii)"),
    # A3: R(M+,D+) v. R(M+,D), conditional on H1 (higher) or H2 (lower) (App. A.3)
    _rule(
        "A3-higher-i",
        "A3",
        "higher",
        [["H7", 1], ["H9", 1], ["H8", -1], ["H10", -1]],
        cond=("H1", "confirmed"),
        source="§4 / A.3 (i)",
    ),
    _rule("A3-higher-ii", "A3", "higher", [["H9", 1], ["H10", -1]], cond=("H1", "unproven"), source="§4 / A.3 (ii)"),
    _rule(
        "A3-higher-iii",
        "A3",
        "higher",
        [["H12", 1], ["H11", -1]],
        cond=("H1", "rejected"),
        caution=(
            "H1 is rejected yet M+ does better with the extra information: the M part of M+ may have learned "
            "'wrong' intelligence from the + part (A.3 (iii)); treat cautiously."
        ),
        source="§4 / A.3 (iii)",
    ),
    _rule(
        "A3-lower-i",
        "A3",
        "lower",
        [["H8", 1], ["H10", 1], ["H7", -1], ["H9", -1]],
        cond=("H2", "confirmed"),
        source="§4 / A.3 (i)",
    ),
    _rule("A3-lower-ii", "A3", "lower", [["H10", 1], ["H9", -1]], cond=("H2", "unproven"), source="§4 / A.3 (ii)"),
    _rule(
        "A3-lower-iii",
        "A3",
        "lower",
        [["H10", 1], ["H9", -1]],
        cond=("H2", "rejected"),
        caution=(
            "H2 is rejected yet M+ does worse with the extra information: against the common-sense "
            "assumption that a useful concept should not affect the + part of M+ negatively; treat "
            "cautiously (borderline statistics?)."
        ),
        source="§4 / A.3 (iii)",
    ),
]


def result_label(key: str) -> str:
    """``"M+,D"`` → ``"R(M+,D)"``."""
    return f"R({key})"


def comparison_label(analysis: str) -> str:
    a, b = ANALYSES[analysis]
    return f"{result_label(a)} v. {result_label(b)}"


# --------------------------------------------------------------------------------------------------
# Reading and checking the four result sets

COLUMNS = {
    "id": "id",
    "ground_truth": "ground_truth",
    "label": "label",
    "uncertainty": "uncertainty",
    "correctness": "correctness",
}
_MAX_LISTED = 5


def read_results(paths: Mapping[str, str | Path] | Sequence[str | Path]) -> dict[str, pd.DataFrame]:
    """Read the four CSV files as text (every cell a string), for :func:`hypoml_items` to check and convert.

    Parameters
    ----------
    paths : mapping or sequence of path
        ``{"M,D": …, "M,D+": …, "M+,D": …, "M+,D+": …}`` or the four paths in that order.

    Returns
    -------
    dict of str to pandas.DataFrame
        One DataFrame per result set, all columns as strings (header names stripped of spaces); empty cells are
        empty strings. Row *k* (from 1) of a frame is line *k* + 1 of its file.

    Raises
    ------
    ValueError
        If a file cannot be read as CSV (the message names the file).
    """
    named = as_named(paths, "paths")
    out = {}
    for key, path in named.items():
        try:
            df = pd.read_csv(path, dtype=str, keep_default_na=False, skipinitialspace=True, encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
            raise ValueError(f"{path}: cannot read as CSV ({exc})") from None
        df.columns = [str(c).strip() for c in df.columns]
        out[key] = df
    return out


def as_named(results, what: str) -> dict[str, Any]:
    """The four result sets (or anything given per result set: frames, paths, file names) keyed by
    :data:`RESULT_SETS`, from a mapping with those keys or a sequence in that order; ``what`` names the argument in
    the ``ValueError`` raised otherwise."""
    if isinstance(results, Mapping):
        for key in results:
            check_choice(key, RESULT_SETS, "result set", where="hypoml")
        missing = [k for k in RESULT_SETS if k not in results]
        if missing:
            raise ValueError(
                f"hypoml: {what} lacks the result set(s) {', '.join(map(result_label, missing))}; "
                f"all four of {', '.join(map(result_label, RESULT_SETS))} are needed"
            )
        return {k: results[k] for k in RESULT_SETS}
    if isinstance(results, (str, bytes)) or not isinstance(results, Sequence) or len(results) != 4:
        raise ValueError(
            f"hypoml: {what} must be a mapping keyed by {', '.join(RESULT_SETS)} or four items in that order"
        )
    return dict(zip(RESULT_SETS, results))


def _rows_text(positions: Sequence[int], lines: bool) -> str:
    shown = [f"{p + 1} (line {p + 2})" if lines else str(p + 1) for p in positions[:_MAX_LISTED]]
    more = f" and {len(positions) - _MAX_LISTED} more" if len(positions) > _MAX_LISTED else ""
    return ("row " if len(positions) == 1 else "rows ") + ", ".join(shown) + more


def _blank(s: pd.Series) -> np.ndarray:
    return (s.isna() | (s.astype(str).str.strip() == "")).to_numpy()


def _numbers(df: pd.DataFrame, col: str, src: str, lines: bool, *, low=0.0, high=1.0) -> np.ndarray:
    """A column as floats within [low, high]; otherwise a message naming the file, rows and column."""
    s = df[col]
    if pd.api.types.is_bool_dtype(s.dtype):
        raise ValueError(f"{src}: column '{col}' must hold numbers in [{low:g}, {high:g}], got booleans")
    blank = _blank(s)
    if blank.any():
        pos = np.flatnonzero(blank).tolist()
        raise ValueError(f"{src}: {_rows_text(pos, lines)}, column '{col}': empty value")
    text = s.astype(str).str.strip() if not pd.api.types.is_numeric_dtype(s.dtype) else s
    values = pd.to_numeric(text, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    bad = ~np.isfinite(values)
    if bad.any():
        pos = np.flatnonzero(bad).tolist()
        raise ValueError(
            f"{src}: {_rows_text(pos, lines)}, column '{col}': {s.iloc[pos[0]]!r} is not a (finite) number"
        )
    out = (values < low) | (values > high)
    if out.any():
        pos = np.flatnonzero(out).tolist()
        raise ValueError(
            f"{src}: {_rows_text(pos, lines)}, column '{col}': {values[pos[0]]:g} is outside [{low:g}, {high:g}]"
        )
    return values


def _match(truth: pd.Series, label: pd.Series) -> np.ndarray:
    """1.0 where label equals ground truth: as numbers when both parse as numbers ("1" = "1.0"), else as
    whitespace-stripped text (case-sensitive)."""
    t_txt, l_txt = truth.astype(str).str.strip(), label.astype(str).str.strip()
    t_num = pd.to_numeric(t_txt, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    l_num = pd.to_numeric(l_txt, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    numeric = np.isfinite(t_num) & np.isfinite(l_num)
    equal = np.where(numeric, t_num == l_num, (t_txt == l_txt).to_numpy())
    return equal.astype(float)


def _one_set(df: object, key: str, src: str, lines: bool, cols: dict[str, str]) -> pd.DataFrame:
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"{src}: expected a pandas DataFrame, got {type(df).__name__}")
    have = ", ".join(map(str, df.columns)) or "none"
    if cols["id"] not in df.columns:
        raise ValueError(f"{src}: column '{cols['id']}' is missing (columns present: {have})")
    has_corr = cols["correctness"] in df.columns
    if not has_corr:
        lacking = [cols[c] for c in ("ground_truth", "label") if cols[c] not in df.columns]
        if lacking:
            names = " and ".join(f"'{c}'" for c in lacking)
            raise ValueError(
                f"{src}: column '{cols['correctness']}' is missing, and so is {names} to compute it "
                f"from (correctness = 1 where '{cols['label']}' equals '{cols['ground_truth']}'); "
                f"columns present: {have}"
            )
    for c in set(cols.values()):
        if isinstance(df.get(c), pd.DataFrame):
            raise ValueError(f"{src}: column '{c}' appears more than once")
    ids = df[cols["id"]]
    blank = _blank(ids)
    if blank.any():
        raise ValueError(f"{src}: {_rows_text(np.flatnonzero(blank).tolist(), lines)}, column '{cols['id']}': empty id")
    ids = ids.astype(str).str.strip().reset_index(drop=True)
    dup = ids.duplicated(keep=False).to_numpy()
    if dup.any():
        first = ids[dup].iloc[0]
        pos = np.flatnonzero((ids == first).to_numpy()).tolist()
        raise ValueError(
            f"{src}: id {first!r} appears more than once ({_rows_text(pos, lines)}, column "
            f"'{cols['id']}'); every item must appear once per result set"
        )
    out = pd.DataFrame({"result_set": key, "id": ids})
    for c in ("ground_truth", "label"):
        out[c] = df[cols[c]].reset_index(drop=True) if cols[c] in df.columns else None
    if has_corr:
        out["correctness"] = _numbers(df, cols["correctness"], src, lines)
    else:
        truth = df[cols["ground_truth"]]
        blank = _blank(truth)
        if blank.any():
            raise ValueError(
                f"{src}: {_rows_text(np.flatnonzero(blank).tolist(), lines)}, column "
                f"'{cols['ground_truth']}': empty ground truth (needed to compute correctness)"
            )
        label = df[cols["label"]].fillna("")
        out["correctness"] = _match(truth.reset_index(drop=True), label.reset_index(drop=True))
    if cols["uncertainty"] in df.columns:
        out["uncertainty"] = _numbers(df, cols["uncertainty"], src, lines)
    else:
        out["uncertainty"] = np.nan
    return out.astype({"correctness": float, "uncertainty": float})


def hypoml_items(
    results: Mapping[str, pd.DataFrame] | Sequence[pd.DataFrame],
    *,
    sources: Mapping[str, str] | Sequence[str] | None = None,
    lines: bool = False,
    id: str = "id",
    ground_truth: str = "ground_truth",
    label: str = "label",
    uncertainty: str = "uncertainty",
    correctness: str = "correctness",
) -> pd.DataFrame:
    """Check the four result sets, pair them by id and compute the score each t-test compares.

    .. math:: \\text{score}_i = \\text{correctness}_i \\times \\text{uncertainty}_i \\quad
              (\\text{or } \\text{correctness}_i \\text{ when no uncertainty is given})

    with correctness_i = 1[label_i = ground_truth_i] when the correctness column is absent (§4).

    Parameters
    ----------
    results : mapping or sequence of pandas.DataFrame
        ``{"M,D": …, "M,D+": …, "M+,D": …, "M+,D+": …}`` or the four frames in that order; one row per item.
    sources : mapping or sequence of str, optional
        Names used in messages (file paths); default ``R(M,D)`` etc.
    lines : bool, default False
        The frames come from CSV files with a header line (:func:`read_results`): messages also give the line.
    id, ground_truth, label, uncertainty, correctness : str
        Column names.

    Returns
    -------
    pandas.DataFrame
        One row per (result set, item): ``result_set`` (``"M,D"`` …), ``id`` (as text), ``ground_truth``,
        ``label`` (as given, or missing), ``correctness`` (in [0, 1]), ``uncertainty`` (NaN when not given) and
        ``score``. Items are in the order of R(M,D) (or of the first result set with rows) within every result
        set. A result set whose file has a header but no rows is a condition that was not run: it has no rows
        here, and :func:`hypoml_tests` leaves the analyses that use it untested.

    Raises
    ------
    ValueError
        If a column is missing, a value is empty, not a number or outside [0, 1], an id repeats, the uncertainty
        column is present in some sets with rows but not all, the ids differ between the sets with rows, or no set
        has rows. The message names the
        file (``sources``), the row(s) and the column, or the ids that do not match.

    Examples
    --------
    >>> import pandas as pd
    >>> sets = [pd.DataFrame({"id": [1, 2], "correctness": [1.0, 0.5]}) for _ in range(4)]
    >>> hypoml_items(sets)[["result_set", "id", "score"]].head(2)
      result_set id  score
    0        M,D  1    1.0
    1        M,D  2    0.5
    """
    frames = as_named(results, "results")
    names = (
        {k: result_label(k) for k in RESULT_SETS}
        if sources is None
        else {k: str(v) for k, v in as_named(sources, "sources").items()}
    )
    cols = {
        "id": id,
        "ground_truth": ground_truth,
        "label": label,
        "uncertainty": uncertainty,
        "correctness": correctness,
    }
    sets = {k: _one_set(frames[k], k, names[k], lines, cols) for k in RESULT_SETS}
    # A set without rows is a condition that was not run: it pairs with nothing and its analyses go untested.
    given = [k for k in RESULT_SETS if len(sets[k])]
    if not given:
        raise ValueError("hypoml: none of the four result sets has rows")

    with_unc = [k for k in given if uncertainty in frames[k].columns]
    if with_unc and len(with_unc) < len(given):
        without = [names[k] for k in given if k not in with_unc]
        raise ValueError(
            f"column '{uncertainty}' is in {', '.join(names[k] for k in with_unc)} but missing from "
            f"{', '.join(without)}: give it for all four result sets or for none"
        )

    first = given[0]
    ref = sets[first]["id"]
    ref_set = set(ref)
    problems = []
    for k in given[1:]:
        other = sets[k]["id"]
        other_set = set(other)
        lacks = [i for i in ref if i not in other_set]
        extra = [i for i in other if i not in ref_set]
        if lacks:
            problems.append(f"{names[k]} lacks {len(lacks)} id(s) of {names[first]}: {_ids_text(lacks)}")
        if extra:
            problems.append(f"{names[k]} has {len(extra)} id(s) not in {names[first]}: {_ids_text(extra)}")
    if problems:
        raise ValueError("the four result sets must hold the same ids (paired items); " + "; ".join(problems))

    order = {i: n for n, i in enumerate(ref)}
    parts = []
    for k in RESULT_SETS:
        s = sets[k]
        parts.append(s.iloc[np.argsort(s["id"].map(order).to_numpy(), kind="stable")])
    items = pd.concat(parts, ignore_index=True)
    items["score"] = items["correctness"] * (items["uncertainty"] if with_unc else 1.0)
    return items[["result_set", "id", "ground_truth", "label", "correctness", "uncertainty", "score"]]


def _ids_text(ids: list[str]) -> str:
    shown = ", ".join(repr(i) for i in ids[:_MAX_LISTED])
    return shown + (f" and {len(ids) - _MAX_LISTED} more" if len(ids) > _MAX_LISTED else "")


def _scores(items: pd.DataFrame) -> dict[str, np.ndarray]:
    if not isinstance(items, pd.DataFrame) or not {"result_set", "score"} <= set(items.columns):
        raise ValueError("hypoml: expected the DataFrame of hypoml_items (columns 'result_set' and 'score')")
    out = {k: items.loc[items["result_set"] == k, "score"].to_numpy(dtype=float) for k in RESULT_SETS}
    sizes = {len(v) for v in out.values()} - {0}  # a set without rows: a condition not run
    if len(sizes) != 1:
        raise ValueError(
            "hypoml: the items must hold the same number of rows for each result set that has rows, and one set "
            "at least must have rows (use hypoml_items)"
        )
    return out


def missing_sets(items: pd.DataFrame) -> list[str]:
    """The result sets without rows (conditions not run), as labels ("R(M+,D+)")."""
    return [result_label(k) for k, x in _scores(items).items() if x.size == 0]


# --------------------------------------------------------------------------------------------------
# Statistics

_NO_ROWS = "no rows: this condition was not run"
ACCURACY_COLUMNS = ["result_set", "label", "n", "accuracy", "sd", "ci_low", "ci_high", "ci_method", "note"]
TEST_COLUMNS = [
    "analysis",
    "step",
    "a",
    "b",
    "comparison",
    "mean_a",
    "mean_b",
    "mean_diff",
    "ci_low",
    "ci_high",
    "t",
    "dof",
    "p_val",
    "cohen_dz",
    "n",
    "significant",
    "direction",
    "note",
]


def hypoml_accuracy(items: pd.DataFrame, ci: float = 95) -> pd.DataFrame:
    """Accuracy (mean score) of each result set with a confidence interval.

    When every score is 0 or 1 the interval is Wilson's score interval,

    .. math:: \\frac{\\hat p + z^2/2n \\pm z\\sqrt{\\hat p(1-\\hat p)/n + z^2/4n^2}}{1 + z^2/n},

    otherwise (graded correctness or uncertainty weights) the t interval
    :math:`\\bar x \\pm t_{1-\\alpha/2,\\,n-1}\\, s/\\sqrt n`, clipped to [0, 1] (a score is in [0, 1], so an
    accuracy cannot leave it; ``ci_method`` then says "t, clipped to [0, 1]"). The t interval is not computed for
    one item (no s) or when every score is the same (s = 0: a zero-width interval would claim certainty); ``note``
    says so.

    Parameters
    ----------
    items : pandas.DataFrame
        Output of :func:`hypoml_items`.
    ci : float, default 95
        Confidence level in percent.

    Returns
    -------
    pandas.DataFrame
        Four rows (R(M,D), R(M,D+), R(M+,D), R(M+,D+)): ``result_set``, ``label``, ``n``, ``accuracy``, ``sd``,
        ``ci_low``, ``ci_high``, ``ci_method`` (``"wilson"``, ``"t"``, ``"t, clipped to [0, 1]"`` or ``"none"``),
        ``note`` (why there is no interval, or no accuracy for a set without rows; "" otherwise).

    Examples
    --------
    >>> import pandas as pd
    >>> sets = [pd.DataFrame({"id": range(4), "correctness": [1, 1, 1, 0]}) for _ in range(4)]
    >>> hypoml_accuracy(hypoml_items(sets))[["label", "accuracy", "ci_method"]].head(1)
        label  accuracy ci_method
    0  R(M,D)      0.75    wilson
    """
    level = check_ci(ci, where="hypoml_accuracy") / 100.0
    rows = []
    for k, x in _scores(items).items():
        n = x.size
        if n == 0:
            rows.append([k, result_label(k), 0, math.nan, math.nan, math.nan, math.nan, "none", _NO_ROWS])
            continue
        mean = float(x.mean())
        sd = float(x.std(ddof=1)) if n > 1 else math.nan
        note = ""
        if np.isin(x, (0.0, 1.0)).all():
            z = stats.norm.ppf(0.5 + level / 2)
            denom = 1 + z * z / n
            centre = (mean + z * z / (2 * n)) / denom
            half = z / denom * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n))
            low, high, method = max(0.0, centre - half), min(1.0, centre + half), "wilson"
        elif n < 2 or not sd > 1e-12 * max(1.0, mean):  # s = 0 up to rounding, as in _paired_t
            low, high, method = math.nan, math.nan, "none"
            note = (
                "one item: no standard deviation, so no t interval"
                if n < 2
                else f"every score is {mean:.4f} (s = 0): no t interval"
            )
        else:
            half = stats.t.ppf(0.5 + level / 2, n - 1) * sd / math.sqrt(n)
            low, high, method = max(0.0, mean - half), min(1.0, mean + half), "t"
            if (low, high) != (mean - half, mean + half):
                method = "t, clipped to [0, 1]"
        rows.append([k, result_label(k), n, mean, sd, low, high, method, note])
    return pd.DataFrame(rows, columns=ACCURACY_COLUMNS)


def _paired_t(a: np.ndarray, b: np.ndarray, level: float = 0.95) -> dict[str, float]:
    """Paired two-tailed t-test of a − b: t = d̄ / (s_d / √n), dof = n − 1, p = 2 P(T_{n−1} ≥ |t|)
    (:func:`analysis.inference.two_sample_t` with ``paired=True``), and Cohen's d_z = d̄ / s_d.

    Degenerate case, said rather than left to pingouin's division by zero: when every difference is the same
    (s_d = 0), t is 0 and p = 1 if that difference is 0 (the two sets agree item by item), and t = ±∞, p = 0
    otherwise (every item moved by the same amount), which is the limit scipy.stats.ttest_rel returns. With one
    item there is no s_d: t, p, d_z and the interval are missing (NaN, never significant) and the note says so.
    """
    d = a - b
    n = d.size
    mean = float(d.mean())
    dof = n - 1
    if n < 2:
        return _untested(mean, n, "one item: a paired t-test needs at least 2")
    sd = float(d.std(ddof=1))
    note = ""
    if not sd > 1e-12 * max(1.0, abs(mean)):
        if abs(mean) <= 1e-12:
            t_val, p_val = 0.0, 1.0
            note = "the two sets score every item the same (s_d = 0): t = 0, p = 1"
        else:
            t_val, p_val = math.copysign(math.inf, mean), 0.0
            note = (
                f"every item differs by the same {mean:+.4f} (s_d = 0): t = {'+' if mean > 0 else '−'}∞, p = 0, "
                "the limit scipy.stats.ttest_rel gives"
            )
        low = high = mean
        dz = math.copysign(math.inf, mean) if mean else 0.0
    else:
        test = two_sample_t(a, b, paired=True, confidence=level).iloc[0]
        t_val, p_val, low, high = (float(test[c]) for c in ("t", "p_val", "ci_low", "ci_high"))
        dz = mean / sd  # two_sample_t's cohen_d is d_avg; HypoML's effect size is d_z
    return {
        "mean_diff": mean,
        "ci_low": low,
        "ci_high": high,
        "t": float(t_val),
        "dof": float(dof),
        "p_val": p_val,
        "cohen_dz": dz,
        "n": n,
        "note": note,
    }


def _untested(mean_diff: float, n: int, why: str) -> dict[str, Any]:
    """The row of an analysis that could not be tested: no t, p or interval, and the note says why."""
    return {
        "mean_diff": mean_diff,
        **dict.fromkeys(("ci_low", "ci_high", "t", "p_val", "cohen_dz"), math.nan),
        "dof": float(max(n - 1, 0)),
        "n": n,
        "note": f"{why}, so no t, p or interval (counted as no difference)",
    }


def _direction(p_val: float, mean_diff: float, threshold: float) -> str:
    """ "higher" / "lower" when p < threshold (by the sign of the mean difference), else "none".

    The page's JavaScript ``direction()`` is the same test."""
    if not p_val < threshold:  # NaN is never significant
        return "none"
    return "higher" if mean_diff > 0 else "lower" if mean_diff < 0 else "none"


def check_threshold(threshold: float, where: str) -> float:
    """The significance threshold as a float strictly between 0 and 1, else a ``ValueError`` from ``where``."""
    value = check_number(threshold, "threshold", where=where)
    if not 0 < value < 1:
        raise ValueError(f"{where}: 'threshold' must be a p-value between 0 and 1 (exclusive), got {threshold!r}")
    return value


def hypoml_tests(items: pd.DataFrame, threshold: float = 0.05, ci: float = 95) -> pd.DataFrame:
    """The six paired, two-tailed t-tests A1…A6 of §4 on the per-item score.

    .. math:: d_i = s_{a,i} - s_{b,i},\\quad t = \\frac{\\bar d}{s_d/\\sqrt n},\\quad \\text{dof} = n-1,\\quad
              p = 2\\,P(T_{n-1} \\ge |t|),\\quad d_z = \\bar d / s_d

    An analysis is ``"higher"`` when p < ``threshold`` and d̄ > 0, ``"lower"`` when p < ``threshold`` and
    d̄ < 0, ``"none"`` otherwise (R_a ≈ R_b). When every d_i is equal, p is 1 if they are 0 and 0 otherwise; with
    one item, or when a compared set has no rows (a condition not run), the analysis is not tested: p is missing,
    the outcome "none" and the note says why.

    Parameters
    ----------
    items : pandas.DataFrame
        Output of :func:`hypoml_items`.
    threshold : float, default 0.05
        Significance threshold on the p-value.
    ci : float, default 95
        Confidence level (percent) of the interval of the mean difference.

    Returns
    -------
    pandas.DataFrame
        Six rows A1…A6: ``analysis``, ``step`` (2, 3 or 4: the paper's evaluation step), ``a``, ``b`` (result
        sets compared), ``comparison`` (e.g. ``"R(M+,D+) v. R(M,D)"``), ``mean_a``, ``mean_b``, ``mean_diff``
        (a − b), ``ci_low``, ``ci_high`` (of the mean difference), ``t``, ``dof``, ``p_val``, ``cohen_dz``,
        ``n``, ``significant`` (p < threshold), ``direction``, ``note`` (the degenerate case s_d = 0 in words;
        "" otherwise).
    """
    thr = check_threshold(threshold, "hypoml_tests")
    level = check_ci(ci, where="hypoml_tests") / 100.0
    scores = _scores(items)
    step = {a: i + 2 for i, stage in enumerate(STAGES) for a in stage}
    rows = []
    for name, (a, b) in ANALYSES.items():
        empty = [result_label(k) for k in (a, b) if scores[k].size == 0]
        if empty:
            res = _untested(math.nan, 0, f"{' and '.join(empty)} {'has' if len(empty) == 1 else 'have'} no rows")
        else:
            res = _paired_t(scores[a], scores[b], level)
        rows.append(
            {
                "analysis": name,
                "step": step[name],
                "a": a,
                "b": b,
                "comparison": comparison_label(name),
                "mean_a": float(scores[a].mean()) if scores[a].size else math.nan,
                "mean_b": float(scores[b].mean()) if scores[b].size else math.nan,
                **res,
                "significant": bool(res["p_val"] < thr),
                "direction": _direction(res["p_val"], res["mean_diff"], thr),
            }
        )
    return pd.DataFrame(rows, columns=TEST_COLUMNS)


# --------------------------------------------------------------------------------------------------
# Logical inference


def _state(indicator: int) -> str:
    return "confirmed" if indicator > 0 else "rejected" if indicator < 0 else "unproven"


def _directions(directions) -> dict[str, str]:
    if isinstance(directions, pd.DataFrame):
        if not {"analysis", "direction"} <= set(directions.columns):
            raise ValueError("hypoml_infer: a DataFrame of directions needs columns 'analysis' and 'direction'")
        directions = dict(zip(directions["analysis"], directions["direction"]))
    if not isinstance(directions, Mapping):
        raise ValueError("hypoml_infer: 'directions' must map A1…A6 to 'higher', 'lower' or 'none'")
    out = {}
    for key, value in directions.items():
        check_choice(key, ANALYSES, "analysis", where="hypoml_infer")
        check_choice(value, OUTCOMES, f"direction of {key}", where="hypoml_infer")
        out[key] = value
    for key in ANALYSES:
        out.setdefault(key, "none")
    return out


def _evaluate(directions: Mapping[str, str]) -> tuple[dict[str, int], list[dict[str, Any]]]:
    """Interpret :data:`RULES` (STEP 0-4 of §4). Mirrored line by line by ``evaluate()`` in the HTML page."""
    indicators = dict.fromkeys(HYPOTHESES, 0)
    trace = []
    for step, stage in enumerate(STAGES, start=2):
        states = {h: _state(v) for h, v in indicators.items()}  # conditions read the start of the step
        for analysis in stage:
            outcome = directions[analysis]
            matched = [
                r
                for r in RULES
                if r["analysis"] == analysis
                and r["outcome"] == outcome
                and (r["if"] is None or states[r["if"]["hypothesis"]] == r["if"]["state"])
            ]
            if len(matched) > 1:  # pragma: no cover - guarded by the tests of RULES
                raise AssertionError(f"rules {[r['id'] for r in matched]} overlap")
            rule = matched[0] if matched else None
            base = {
                "step": step,
                "analysis": analysis,
                "comparison": comparison_label(analysis),
                "direction": outcome,
                "rule": rule["id"] if rule else "",
                "condition": (f"{rule['if']['hypothesis']} {rule['if']['state']}" if rule and rule["if"] else ""),
                "caution": (rule["caution"] or "") if rule else "",
            }
            effects = rule["then"] if rule else []
            for hyp, delta in effects:
                indicators[hyp] += delta
                trace.append({**base, "hypothesis": hyp, "effect": delta})
            if not effects:
                trace.append({**base, "hypothesis": "", "effect": 0})
    return indicators, trace


TRACE_COLUMNS = ["step", "analysis", "comparison", "direction", "rule", "condition", "hypothesis", "effect", "caution"]
CONCLUSION_COLUMNS = ["hypothesis", "statement", "indicator", "conclusion", "symbol", "moved_by"]
_SYMBOL = {"confirmed": "+", "unproven": "0", "rejected": "−"}


def hypoml_infer(directions: Mapping[str, str] | pd.DataFrame) -> pd.DataFrame:
    """Conclusions about H1…H12 from the outcomes of A1…A6 by the logical rules of §4 / Appendix A.

    STEP 0: every indicator is 0. STEP 2: the rules of A1, A4, A6; STEP 3: A2, A5; STEP 4: A3 -- each ⊤(H) adds
    +1, each ⊥(H) −1; a conditional rule (A2, A5: on H5/H6; A3: on H1/H2) reads the states at the start of its
    step. STEP 5: indicator > 0 → confirmed (+), 0 → unproven (0), < 0 → rejected (−). The rules are the rows of
    :data:`RULES`.

    Parameters
    ----------
    directions : mapping or pandas.DataFrame
        ``{"A1": "higher" | "lower" | "none", …}`` (missing analyses count as ``"none"``), or the output of
        :func:`hypoml_tests` (columns ``analysis`` and ``direction``).

    Returns
    -------
    pandas.DataFrame
        Twelve rows H1…H12: ``hypothesis``, ``statement``, ``indicator`` (the sum), ``conclusion``
        (``"confirmed"``, ``"unproven"``, ``"rejected"``), ``symbol`` (``"+"``, ``"0"``, ``"−"``) and
        ``moved_by`` (e.g. ``"A1 +1, A3 +1"``; empty when no rule touched it).

    Examples
    --------
    The paper's average-luminosity test (§6): only A3 is significant, M+ does better on D+ than on D.

    >>> c = hypoml_infer({"A3": "higher"})
    >>> c.loc[c["conclusion"] != "unproven", ["hypothesis", "conclusion", "moved_by"]]
      hypothesis conclusion moved_by
    8         H9  confirmed    A3 +1
    9        H10   rejected    A3 −1
    """
    indicators, trace = _evaluate(_directions(directions))
    moved: dict[str, list[str]] = {h: [] for h in HYPOTHESES}
    for row in trace:
        if row["effect"]:
            moved[row["hypothesis"]].append(f"{row['analysis']} {'+1' if row['effect'] > 0 else '−1'}")
    rows = [
        [h, text, indicators[h], _state(indicators[h]), _SYMBOL[_state(indicators[h])], ", ".join(moved[h])]
        for h, text in HYPOTHESES.items()
    ]
    return pd.DataFrame(rows, columns=CONCLUSION_COLUMNS)


def hypoml_trace(directions: Mapping[str, str] | pd.DataFrame) -> pd.DataFrame:
    """Which analysis moved which hypothesis, in the order the rules were applied.

    Parameters
    ----------
    directions : mapping or pandas.DataFrame
        As for :func:`hypoml_infer`.

    Returns
    -------
    pandas.DataFrame
        One row per effect, and one row (``hypothesis`` empty, ``effect`` 0) for each analysis that moved
        nothing: ``step`` (2-4), ``analysis``, ``comparison``, ``direction``, ``rule`` (id in :data:`RULES`, empty
        when no rule applies), ``condition`` (e.g. ``"H6 unproven"``), ``hypothesis``, ``effect`` (+1 / −1 / 0),
        ``caution`` (the paper's warning for its "treat cautiously" cases, else empty).
    """
    _, trace = _evaluate(_directions(directions))
    return pd.DataFrame(trace, columns=TRACE_COLUMNS)
