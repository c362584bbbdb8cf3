"""Likert ratings of hypotheses about a model (Two4Two-style studies): per-statement distributions, % agreeing, and
how many participants judged each statement correctly as Two4Two reports it (Schuessler, Weiß & Sixt 2021, Sec. 4.1:
"correctly confirmed" a pattern the model uses, "correctly rejected" one it does not), with bootstrap confidence
intervals, and whether statements naming patterns the model really uses (``relevant``) are rated higher than the
others.

Input is tidy: one row per rating with a participant, a statement and an integer rating 1-7. The report
(:func:`ratings_report`) adds the statements' texts and relevance and renders text, Markdown, JSON, CSV and a
diverging stacked-bar figure (:func:`write_ratings`); :func:`ratings_methods` writes its Methods section.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats
import pandas as pd
from matplotlib.figure import Figure

from ._checks import check_ci, check_frame, check_positive_int
from .exclusions import exclusion_note
from .inference import two_sample_t
from .methods import methods_document
from .report import _clean
from .tables import write_tables

__all__ = ["RatingsReport", "agreement", "correct_judgements", "likert_plot", "rating_distribution", "ratings_json",
           "ratings_markdown", "ratings_methods", "ratings_report", "ratings_text", "relevance_test", "write_ratings"]

SCALE = tuple(range(1, 8))
AGREE_FROM = 5
DISAGREE_TO = 3  # ratings 1-3 reject a statement, 5-7 accept it, 4 is neither
TEST_COLUMNS = ["n", "mean_relevant", "mean_irrelevant", "t", "dof", "p_val", "estimate", "ci_low", "ci_high",
                "cohen_d", "n_left_out", "note"]
JUDGEMENT_COLUMNS = ["statement", "relevant", "correct_judgement", "n_participants", "n_ratings", "n_agree",
                     "n_neutral", "n_disagree", "n_correct", "percent_correct", "ci_low", "ci_high"]
CSV_TABLES = ("statements", "distribution", "participants", "test")


def _check_ratings(df: pd.DataFrame, rating: str, keys: list[str], where: str) -> pd.DataFrame:
    """Ratings must be the integers 1-7; the message names the column and the first bad value."""
    check_frame(df, numeric=rating, keys=keys, where=where)
    values = df[rating].to_numpy(dtype=float)
    bad = ~np.isin(values, SCALE)
    if bad.any():
        raise ValueError(f"{where}: column '{rating}' must hold integer ratings 1-7; got {float(values[bad][0]):g} "
                         f"({int(bad.sum())} bad value(s))")
    return df


def rating_distribution(df: pd.DataFrame, statement: str = "statement_id", rating: str = "rating") -> pd.DataFrame:
    """How often each rating 1-7 was given, per statement.

    .. math:: \\text{percent}_{s,k} = 100 \\cdot n_{s,k} / \\sum_{j=1}^{7} n_{s,j}

    Parameters
    ----------
    df : pandas.DataFrame
        One row per rating.
    statement, rating : str
        Columns with the statement id and the rating (integers 1-7).

    Returns
    -------
    pandas.DataFrame
        Seven rows per statement (ratings never given have ``n`` 0): ``statement``, ``rating``, ``n``,
        ``percent``; statements in order of first appearance.

    Examples
    --------
    >>> d = rating_distribution(pd.DataFrame({"statement_id": ["a", "a", "a", "a"], "rating": [7, 7, 5, 1]}))
    >>> d.loc[d["n"] > 0, ["rating", "n", "percent"]].to_numpy().tolist()
    [[1.0, 1.0, 25.0], [5.0, 1.0, 25.0], [7.0, 2.0, 50.0]]
    """
    _check_ratings(df, rating, [statement], "rating_distribution")
    order = pd.unique(df[statement])
    counts = (pd.crosstab(df[statement], df[rating].astype(int))
              .reindex(index=order, columns=list(SCALE), fill_value=0))
    out = counts.stack().rename("n").reset_index()
    out.columns = ["statement", "rating", "n"]
    out["percent"] = 100 * out["n"] / out.groupby("statement", sort=False)["n"].transform("sum")
    return out.astype({"rating": int, "n": int})


def agreement(df: pd.DataFrame, participant: str = "participant_id", statement: str = "statement_id",
              rating: str = "rating", agree_from: int = AGREE_FROM, n_boot: int = 10_000, seed: int = 0,
              ci: float = 95.0) -> pd.DataFrame:
    """Percent of ratings agreeing (``rating >= agree_from``, by default 5-7) per statement, with a confidence
    interval: Wilson's score interval when every participant rated the statement once (a binomial proportion),
    else a percentile bootstrap that resamples participants.

    .. math:: \\hat p_s = 100 \\cdot \\frac{\\sum_i a_{is}}{\\sum_i n_{is}}

    with :math:`a_{is}` the agreeing ratings and :math:`n_{is}` all ratings of participant *i* for statement *s*
    (one each in a plain Two4Two study). Each of ``n_boot`` resamples draws the statement's participants with
    replacement and recomputes :math:`\\hat p_s`; the interval is the resamples' ``(100 - ci) / 2`` and
    ``(100 + ci) / 2`` percentiles. Every statement uses a generator seeded with ``seed``, so its interval does not
    depend on the other statements.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per rating.
    participant, statement, rating : str
        Columns: the participant (the resampling unit), the statement id, the rating (integers 1-7).
    agree_from : int, default 5
        Smallest rating that counts as agreeing.
    n_boot : int, default 10000
    seed : int, default 0
    ci : float, default 95
        Confidence level in percent.

    Returns
    -------
    pandas.DataFrame
        One row per statement (order of first appearance): ``statement``, ``n_participants``, ``n_ratings``,
        ``mean_rating``, ``median_rating``, ``percent_agree``, ``ci_low``, ``ci_high``.

    Examples
    --------
    >>> df = pd.DataFrame({"participant_id": [1, 2, 3, 4], "statement_id": "a", "rating": [7, 6, 2, 4]})
    >>> agreement(df, n_boot=200)[["statement", "n_ratings", "mean_rating", "percent_agree"]].to_numpy().tolist()
    [['a', 4, 4.75, 50.0]]
    """
    where = "agreement"
    _check_ratings(df, rating, [participant, statement], where)
    check_positive_int(n_boot, "n_boot", where=where)
    level = check_ci(ci, where=where)
    if agree_from not in SCALE:
        raise ValueError(f"{where}: 'agree_from' must be a rating 1-7, got {agree_from!r}")
    rows = []
    for key, group in df.groupby(statement, sort=False):
        share, low, high, n_people = _share(group[rating] >= agree_from, group[participant], n_boot, seed, level)
        rows.append({"statement": key, "n_participants": n_people, "n_ratings": len(group),
                     "mean_rating": float(group[rating].mean()), "median_rating": float(group[rating].median()),
                     "percent_agree": share, "ci_low": low, "ci_high": high})
    return pd.DataFrame(rows, columns=["statement", "n_participants", "n_ratings", "mean_rating", "median_rating",
                                       "percent_agree", "ci_low", "ci_high"])


def _share(hit: pd.Series, people: pd.Series, n_boot: int, seed: int, level: float) -> tuple[float, float, float, int]:
    """Percent of ratings with ``hit`` and its 95 % interval. When every participant gave one rating (a plain
    Two4Two study) the share is a binomial proportion and the interval is Wilson's score interval: the percentile
    bootstrap of a share of 30 covers only ~91 % (`make validate`). Otherwise the percentile bootstrap over
    participants (each resample draws the participants with replacement, each bringing all their ratings), from a
    generator seeded with ``seed``."""
    counts = hit.groupby(people).agg(["sum", "count"])
    a, n = counts["sum"].to_numpy(dtype=float), counts["count"].to_numpy(dtype=float)
    if (n == 1).all():
        wilson = stats.binomtest(int(a.sum()), a.size).proportion_ci(level / 100, method="wilson")
        return float(100 * a.mean()), 100 * wilson.low, 100 * wilson.high, int(a.size)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, a.size, size=(n_boot, a.size))
    boot = 100 * a[idx].sum(axis=1) / n[idx].sum(axis=1)
    low, high = np.percentile(boot, [(100 - level) / 2, (100 + level) / 2])
    return float(100 * a.sum() / n.sum()), float(low), float(high), int(a.size)


def correct_judgements(df: pd.DataFrame, participant: str = "participant_id", statement: str = "statement_id",
                       rating: str = "rating", relevant: str = "relevant", agree_from: int = AGREE_FROM,
                       disagree_to: int = DISAGREE_TO, n_boot: int = 10_000, seed: int = 0,
                       ci: float = 95.0) -> pd.DataFrame:
    """How many participants judged each statement correctly, as Two4Two reports its study (Sec. 4.1): a statement
    about a pattern the model uses is *correctly accepted* by a rating of ``agree_from`` or more (5-7), one about a
    pattern it does not use is *correctly rejected* by a rating of ``disagree_to`` or less (1-3); 4 is neither.

    .. math:: \\hat c_s = 100 \\cdot \\frac{\\sum_i k_{is}}{\\sum_i n_{is}}, \\qquad
              k_{is} = \\#\\{r_{is} \\ge 5\\} \\text{ (relevant) or } \\#\\{r_{is} \\le 3\\} \\text{ (irrelevant)}

    over the :math:`n_{is}` ratings of participant *i* for statement *s* (one each in a plain Two4Two study, so
    :math:`\\hat c_s` is the percent of participants). The interval is that of :func:`agreement`: Wilson's score
    interval when every participant rated the statement once, else the percentile bootstrap over participants
    (``n_boot`` resamples, a generator seeded with ``seed`` per statement).

    Parameters
    ----------
    df : pandas.DataFrame
        One row per rating, with a boolean ``relevant`` column (True: a pattern the model uses).
    participant, statement, rating, relevant : str
        Column names.
    agree_from, disagree_to : int, default 5 and 3
        The smallest rating that accepts and the largest that rejects a statement.
    n_boot, seed : int
    ci : float, default 95
        Confidence level in percent.

    Returns
    -------
    pandas.DataFrame
        One row per statement (order of first appearance): ``statement``, ``relevant``, ``correct_judgement``
        ("accepted" for relevant, "rejected" for irrelevant statements), ``n_participants``, ``n_ratings``,
        ``n_agree``, ``n_neutral``, ``n_disagree``, ``n_correct``, ``percent_correct``, ``ci_low``, ``ci_high``.

    Examples
    --------
    >>> df = pd.DataFrame({"participant_id": [1, 2, 3, 1, 2, 3], "statement_id": list("aaabbb"),
    ...                    "rating": [7, 5, 2, 1, 4, 6], "relevant": [True] * 3 + [False] * 3})
    >>> correct_judgements(df, n_boot=100)[["statement", "correct_judgement", "n_correct", "n_ratings"]].values.tolist()
    [['a', 'accepted', 2, 3], ['b', 'rejected', 1, 3]]
    """
    where = "correct_judgements"
    _check_ratings(df, rating, [participant, statement, relevant], where)
    check_positive_int(n_boot, "n_boot", where=where)
    level = check_ci(ci, where=where)
    if not set(df[relevant].unique()) <= {True, False}:
        raise ValueError(f"{where}: column '{relevant}' must be boolean (True: a pattern the model uses)")
    if not (disagree_to in SCALE and agree_from in SCALE and disagree_to < agree_from):
        raise ValueError(f"{where}: need ratings 1 <= disagree_to < agree_from <= 7, got {disagree_to!r} and "
                         f"{agree_from!r}")
    rows = []
    for key, group in df.groupby(statement, sort=False):
        kinds = group[relevant].unique()
        if len(kinds) != 1:
            raise ValueError(f"{where}: statement {key!r} is marked both relevant and irrelevant in '{relevant}'")
        is_relevant = bool(kinds[0])
        agree, disagree = group[rating] >= agree_from, group[rating] <= disagree_to
        hit = agree if is_relevant else disagree
        share, low, high, n_people = _share(hit, group[participant], n_boot, seed, level)
        rows.append({"statement": key, "relevant": is_relevant,
                     "correct_judgement": "accepted" if is_relevant else "rejected", "n_participants": n_people,
                     "n_ratings": len(group), "n_agree": int(agree.sum()), "n_neutral": int((~agree & ~disagree).sum()),
                     "n_disagree": int(disagree.sum()), "n_correct": int(hit.sum()), "percent_correct": share,
                     "ci_low": low, "ci_high": high})
    return pd.DataFrame(rows, columns=JUDGEMENT_COLUMNS)


def relevance_test(df: pd.DataFrame, participant: str = "participant_id", rating: str = "rating",
                   relevant: str = "relevant", confidence: float = 0.95) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Are statements about patterns the model uses (``relevant``) rated higher than the others? A paired t-test
    over participants of each participant's mean rating of the relevant statements against their mean rating of
    the irrelevant ones.

    .. math:: t = \\frac{\\bar d}{s_d / \\sqrt{n}}, \\quad d_i = \\bar r_{i,\\text{relevant}} -
              \\bar r_{i,\\text{irrelevant}}, \\quad \\text{dof} = n - 1

    (:func:`analysis.inference.two_sample_t` with ``paired=True``; ``cohen_d`` is its :math:`d_{avg}`).
    Participants who rated only one kind of statement are left out.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per rating.
    participant, rating : str
        Columns with the participant and the rating (integers 1-7).
    relevant : str
        Boolean column: True for statements naming a pattern the model uses.
    confidence : float, default 0.95
        Level of the difference's confidence interval.

    Returns
    -------
    (pandas.DataFrame, pandas.DataFrame)
        Per participant (``participant``, ``mean_relevant``, ``mean_irrelevant``, ``difference``), and one row:
        ``n``, ``mean_relevant``, ``mean_irrelevant``, ``t``, ``dof``, ``p_val`` (two-sided), ``estimate``
        (mean difference), ``ci_low``, ``ci_high``, ``cohen_d``, ``n_left_out`` (participants who rated one kind
        only), ``note`` (who was left out; why t is missing when every difference is the same).

    Raises
    ------
    ValueError
        If ``relevant`` is not boolean, or fewer than two participants rated both kinds of statement.
    """
    where = "relevance_test"
    _check_ratings(df, rating, [participant, relevant], where)
    kinds = set(df[relevant].unique())
    if not kinds <= {True, False}:
        raise ValueError(f"{where}: column '{relevant}' must be boolean (True: a pattern the model uses)")
    all_means = (df.groupby([participant, relevant])[rating].mean().unstack(relevant)
                 .reindex(columns=[True, False]))
    means = all_means.dropna()
    left_out = len(all_means) - len(means)
    per = pd.DataFrame({"participant": means.index, "mean_relevant": means[True].to_numpy(),
                        "mean_irrelevant": means[False].to_numpy()})
    per["difference"] = per["mean_relevant"] - per["mean_irrelevant"]
    if len(per) < 2:
        raise ValueError(f"{where}: needs at least 2 participants who rated both relevant and irrelevant "
                         f"statements, got {len(per)}")
    notes = [f"{left_out} participant(s) rated only one kind of statement and are left out"] if left_out else []
    row = {"n": len(per), "mean_relevant": float(per["mean_relevant"].mean()),
           "mean_irrelevant": float(per["mean_irrelevant"].mean()), "n_left_out": left_out}
    if per["difference"].std() == 0:  # t = d̄ / 0: undefined, said rather than printed as ±inf or NaN
        notes.append(f"every participant's difference is {per['difference'].iloc[0]:+.2f}: no variance, so t is "
                     "undefined")
        row["estimate"] = float(per["difference"].iloc[0])
    else:
        test = two_sample_t(per["mean_relevant"], per["mean_irrelevant"], paired=True, confidence=confidence)
        row.update({c: float(test[c].iloc[0]) for c in ("t", "dof", "p_val", "estimate", "ci_low", "ci_high",
                                                        "cohen_d")})
    row["note"] = "; ".join(notes)
    return per, pd.DataFrame([row], columns=TEST_COLUMNS)


@dataclass
class RatingsReport:
    """Everything :func:`ratings_report` computed. ``tables`` (CSV and JSON): ``statements`` (per statement:
    text, relevance, % agreeing with CI, mean and median, and Two4Two's count of correct judgements: accepted if
    relevant, rejected if not, with CI), ``distribution`` (ratings 1-7 per statement),
    ``participants`` (per-participant means of relevant and irrelevant statements) and ``test`` (the paired test).
    ``meta``: counts, options and notes."""

    meta: dict[str, Any]
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)


def ratings_report(ratings: pd.DataFrame, statements: pd.DataFrame, participant: str = "participant_id",
                   statement: str = "statement_id", rating: str = "rating", n_boot: int = 10_000, seed: int = 0,
                   meta: dict[str, Any] | None = None) -> RatingsReport:
    """The Two4Two report: :func:`agreement`, :func:`correct_judgements` and :func:`rating_distribution` per
    statement, :func:`relevance_test`.

    Parameters
    ----------
    ratings : pandas.DataFrame
        One row per rating (the participants to report, e.g. those who completed).
    statements : pandas.DataFrame
        The study's statements: ``statement_id``, ``text``, ``relevant`` (bool), in the study file's order.
        Ratings of a statement not listed keep an unknown relevance and stay out of the test (noted).
    participant, statement, rating : str
        Columns of ``ratings``.
    n_boot, seed : int
        Bootstrap resamples and seed of the agreement intervals.
    meta : dict, optional
        Study details copied into the report (slug, title, counts).

    Returns
    -------
    RatingsReport
    """
    where = "ratings_report"
    check_frame(statements, keys=["statement_id", "text", "relevant"], where=where)
    _check_ratings(ratings, rating, [participant, statement], where)
    notes = []
    agree = agreement(ratings, participant, statement, rating, n_boot=n_boot, seed=seed)
    known = statements.rename(columns={"statement_id": "statement"})[["statement", "text", "relevant"]]
    order = [*known["statement"], *[s for s in agree["statement"] if s not in set(known["statement"])]]
    table = known.merge(agree, on="statement", how="outer").set_index("statement").loc[order].reset_index()
    table["n_participants"] = table["n_participants"].fillna(0).astype(int)
    table["n_ratings"] = table["n_ratings"].fillna(0).astype(int)
    unknown = [s for s in agree["statement"] if s not in set(known["statement"])]
    if unknown:
        notes.append(f"ratings of statements no longer in the study file (relevance unknown, left out of the "
                     f"test): {', '.join(map(str, unknown))}")
    never = [s for s in known["statement"] if s not in set(agree["statement"])]
    if never:
        notes.append(f"statements in the study file that nobody rated: {', '.join(map(str, never))}")
    distribution = rating_distribution(ratings, statement, rating)
    rated = ratings.merge(known.rename(columns={"statement": "_statement"}), left_on=statement,
                          right_on="_statement", how="inner")
    rated = rated.assign(relevant=rated["relevant"].astype(bool))
    if len(rated):
        judged = correct_judgements(rated, participant, statement, rating, "relevant", n_boot=n_boot, seed=seed)
        judged = judged.drop(columns=["relevant", "n_participants", "n_ratings"]).rename(
            columns={"ci_low": "correct_ci_low", "ci_high": "correct_ci_high"})
        table = table.merge(judged, on="statement", how="left").astype(
            {c: "Int64" for c in ("n_agree", "n_neutral", "n_disagree", "n_correct")})
    else:
        table = table.assign(**{c: np.nan for c in JUDGEMENT_COLUMNS[2:] if c not in table.columns},
                             correct_ci_low=np.nan, correct_ci_high=np.nan).drop(columns=["ci_low", "ci_high"],
                                                                                  errors="ignore")
    try:
        per, test = relevance_test(rated, participant, rating, "relevant")
        if test["note"].iloc[0]:
            notes.append(f"relevant-vs-irrelevant test: {test['note'].iloc[0]}")
    except ValueError as exc:
        reason = str(exc).split(': ', 1)[-1]
        notes.append(f"no relevant-vs-irrelevant test: {reason}")
        per = pd.DataFrame(columns=["participant", "mean_relevant", "mean_irrelevant", "difference"])
        test = pd.DataFrame([{**{c: math.nan for c in TEST_COLUMNS}, "note": reason}], columns=TEST_COLUMNS)
    info = {**(meta or {}), "n_participants": int(ratings[participant].nunique()), "n_ratings": len(ratings),
            "agree_from": AGREE_FROM, "disagree_to": DISAGREE_TO, "n_boot": n_boot, "seed": seed, "notes": notes}
    return RatingsReport(info, {"statements": table, "distribution": distribution, "participants": per,
                                "test": test})


def _fmt(x: Any, digits: int = 1) -> str:
    return "–" if x is None or (isinstance(x, float) and not math.isfinite(x)) else f"{x:.{digits}f}"


def _judged(r) -> str:
    """ "accepted by 10/12 (83.3 %) [58.3, 100.0]" for a statement's correct judgements, "–" without relevance."""
    if not isinstance(r.correct_judgement, str):
        return "–"
    return (f"{r.correct_judgement} by {r.n_correct}/{r.n_ratings} ({_fmt(r.percent_correct)} %) "
            f"[{_fmt(r.correct_ci_low)}, {_fmt(r.correct_ci_high)}]")


def _test_line(t: pd.Series) -> str:
    if not math.isfinite(t["n"]):
        return f"not computed: {t['note']}"
    if not math.isfinite(t["t"]):
        return (f"relevant {_fmt(t['mean_relevant'], 2)}, irrelevant {_fmt(t['mean_irrelevant'], 2)}, n = "
                f"{int(t['n'])}; no t-test: {t['note']}")
    p = "p < 0.001" if t["p_val"] < 0.001 else f"p = {t['p_val']:.3f}"
    left = f" ({t['note']})" if t["note"] else ""
    return (f"relevant {_fmt(t['mean_relevant'], 2)}, irrelevant {_fmt(t['mean_irrelevant'], 2)}; "
            f"difference {_fmt(t['estimate'], 2)} [{_fmt(t['ci_low'], 2)}, {_fmt(t['ci_high'], 2)}], "
            f"t({_fmt(t['dof'], 0)}) = {_fmt(t['t'], 2)}, {p} (two-sided), d = {_fmt(t['cohen_d'], 2)}, "
            f"n = {int(t['n'])}{left}")


def _intro(m: dict[str, Any]) -> str:
    return (f"participants: {m['n_participants']}, ratings: {m['n_ratings']}; agree = rating {m['agree_from']}–7, "
            f"reject = 1–{m['disagree_to']} (4 is neither); correctly judged (Two4Two): a relevant statement "
            f"accepted, an irrelevant one rejected; 95 % CIs: Wilson's score interval where each participant rated "
            f"a statement once, else the percentile bootstrap over participants ({m['n_boot']} resamples, seed "
            f"{m['seed']})")


def ratings_text(report: RatingsReport) -> str:
    """The report as readable text: statements with % agreeing and how many judged them correctly (Two4Two's
    "correctly confirmed" / "correctly rejected"), the paired test, the distributions, the notes.

    Parameters
    ----------
    report : RatingsReport

    Returns
    -------
    str
    """
    m = report.meta
    study = f" — {m['title']} ({m['slug']})" if m.get("title") and m.get("slug") else ""
    excluded = exclusion_note(m)
    lines = [f"Hypothesis ratings{study}", _intro(m), *([excluded] if excluded else []), "",
             f"{'statement':<14}{'relevant':>9}{'n':>5}{'mean':>7}{'median':>8}  {'% agree [95 % CI]':<22}"
             f"{'correctly judged [95 % CI]':<40}text"]
    for r in report.tables["statements"].itertuples():
        relevant = "?" if pd.isna(r.relevant) else ("yes" if r.relevant else "no")
        agree = f"{_fmt(r.percent_agree)} [{_fmt(r.ci_low)}, {_fmt(r.ci_high)}]"
        text = "" if pd.isna(r.text) else r.text
        lines.append(f"{r.statement:<14}{relevant:>9}{r.n_ratings:>5}{_fmt(r.mean_rating, 2):>7}"
                     f"{_fmt(r.median_rating):>8}  {agree:<22}{_judged(r):<40}{text}")
    lines += ["", "Relevant vs irrelevant statements (paired t-test over participants' mean ratings):",
              f"  {_test_line(report.tables['test'].iloc[0])}"]
    dist = report.tables["distribution"]
    lines += ["", "Ratings given, % (1 = strongly disagree … 7 = strongly agree):",
              f"{'statement':<14}" + "".join(f"{k:>6}" for k in SCALE)]
    for key, group in dist.groupby("statement", sort=False):
        lines.append(f"{key:<14}" + "".join(f"{v:>6.0f}" for v in group.sort_values("rating")["percent"]))
    if m["notes"]:
        lines += ["", "Notes:", *[f"  - {n}" for n in m["notes"]]]
    return "\n".join(lines) + "\n"


def ratings_markdown(report: RatingsReport) -> str:
    """The report as Markdown (``report.md``): the statements table with % agreeing and Two4Two's correct
    judgements, the paired test, the rating distributions and the notes.

    Parameters
    ----------
    report : RatingsReport

    Returns
    -------
    str
    """
    m = report.meta
    title = m.get("title") or m.get("slug") or "Hypothesis ratings"
    lines = [f"# Hypothesis ratings: {title}", "", _intro(m) + ".", "", "## Statements", "",
             "| statement | relevant | n | mean | median | % agree [95 % CI] | correctly judged [95 % CI] | text |",
             "|:---|:---|---:|---:|---:|---:|:---|:---|"]
    for r in report.tables["statements"].itertuples():
        relevant = "?" if pd.isna(r.relevant) else ("yes" if r.relevant else "no")
        text = "" if pd.isna(r.text) else str(r.text).replace("|", "\\|")
        lines.append(f"| {r.statement} | {relevant} | {r.n_ratings} | {_fmt(r.mean_rating, 2)} | "
                     f"{_fmt(r.median_rating)} | {_fmt(r.percent_agree)} [{_fmt(r.ci_low)}, {_fmt(r.ci_high)}] | "
                     f"{_judged(r)} | {text} |")
    lines += ["", "## Relevant vs irrelevant statements", "",
              "Paired t-test over participants' mean ratings: " + _test_line(report.tables["test"].iloc[0]) + ".",
              "", "## Ratings given (%)", "", "| statement | " + " | ".join(map(str, SCALE)) + " |",
              "|:---|" + "---:|" * len(SCALE)]
    for key, group in report.tables["distribution"].groupby("statement", sort=False):
        lines.append(f"| {key} | " + " | ".join(f"{v:.0f}" for v in group.sort_values("rating")["percent"]) + " |")
    if m["notes"]:
        lines += ["", "## Notes", "", *[f"- {n}" for n in m["notes"]]]
    return "\n".join(lines) + "\n"


def ratings_methods(report: RatingsReport) -> str:
    """The Methods section (``methods.md``) of a hypothesis-rating report, stated from what it computed: who was
    analysed, the agreement and correct-judgement measures, the bootstrap (resamples, seed), the paired test and its
    sidedness, and what was left out.

    Parameters
    ----------
    report : RatingsReport
        Output of :func:`ratings_report`.

    Returns
    -------
    str
        Markdown (:func:`analysis.methods.methods_document`).
    """
    m, t = report.meta, report.tables
    statements = t["statements"]
    n_rel = int((statements["relevant"] == True).sum())  # noqa: E712 (object column with NaN)
    n_irr = int((statements["relevant"] == False).sum())  # noqa: E712
    test = t["test"].iloc[0]
    paragraphs = [
        f"**Participants and ratings.** {m['n_participants']} participants who completed the study gave "
        f"{m['n_ratings']} ratings of {len(statements)} statements ({n_rel} about patterns the model uses, {n_irr} "
        "about patterns it does not) on a 7-point Likert scale (1 = strongly disagree, 7 = strongly agree), after "
        "studying an example-based explanation: a grid of images in columns by the model's score, as in Two4Two "
        "(Schuessler et al., 2021). Every rating of a completed participant is analysed; there is no exclusion rule.",
        f"**Measures.** Per statement we report the distribution of ratings, the mean and median rating, the percent "
        f"of ratings agreeing ({m['agree_from']}–7), and, as Two4Two reports its study, how many participants judged "
        f"the statement correctly: a statement about a pattern the model uses is correctly accepted by a rating of "
        f"{m['agree_from']}–7, one about a pattern it does not use is correctly rejected by a rating of "
        f"1–{m['disagree_to']}; a rating of 4 is neither. Where each participant rated a statement once, a "
        f"percentage is a binomial proportion and has Wilson's 95 % score interval; otherwise a 95 % percentile "
        f"bootstrap interval (Efron & Tibshirani, 1993) from {m['n_boot']:,} resamples of the participants (each "
        f"bringing all their ratings of the statement), with a generator seeded with {m['seed']} for every "
        f"statement."]
    text = ("**Relevant against irrelevant statements.** Each participant's mean rating of the relevant statements "
            "was compared with their mean rating of the irrelevant ones by a two-sided paired t-test (Student, 1908) "
            "with a 95 % t interval of the mean difference and Cohen's d_avg.")
    if math.isfinite(test["n"]):
        text += f" n = {int(test['n'])} participants."
    if test["note"]:
        text += f" {test['note'][0].upper()}{test['note'][1:]}."
    paragraphs.append(text)
    if m["notes"]:
        paragraphs.append("**Left out.** " + " ".join(f"{n[0].upper()}{n[1:]}." for n in m["notes"]))
    return methods_document(f"hypothesis ratings{' — ' + m['title'] if m.get('title') else ''}", paragraphs,
                            ["schuessler2021", "wilson1927", "efron1993", "student1908"])


def ratings_json(report: RatingsReport) -> dict[str, Any]:
    """The report as JSON-able data: ``meta`` and every table as records (NaN as None).

    Parameters
    ----------
    report : RatingsReport

    Returns
    -------
    dict
    """
    return {"meta": _clean(report.meta),
            **{name: [_clean(r) for r in df.astype(object).to_dict("records")] for name, df in report.tables.items()}}


# Diverging palette: disagreement red, neutral grey, agreement blue (ColorBrewer RdBu, 7 classes).
COLOURS = ("#b2182b", "#ef8a62", "#fddbc7", "#d9d9d9", "#d1e5f0", "#67a9cf", "#2166ac")


def likert_plot(report: RatingsReport, path: Path) -> Path:
    """Diverging stacked bars: per statement, ratings 1-3 to the left of zero, 4 centred on it, 5-7 to the right.

    Parameters
    ----------
    report : RatingsReport
    path : pathlib.Path
        Where to write the PNG.

    Returns
    -------
    pathlib.Path
        ``path``.
    """
    table = report.tables["statements"]
    dist = report.tables["distribution"].pivot(index="statement", columns="rating", values="percent")
    keys = [s for s in table["statement"] if s in dist.index]
    labels = {r.statement: (r.text if isinstance(r.text, str) else r.statement)
              + ("" if pd.isna(r.relevant) else (" (relevant)" if r.relevant else "")) for r in table.itertuples()}
    fig = Figure(figsize=(10, 1.2 + 0.6 * len(keys)), dpi=120)
    ax = fig.add_subplot()
    for y, key in enumerate(keys):
        p = dist.loc[key].reindex(list(SCALE), fill_value=0).to_numpy(dtype=float)
        left = -(p[:3].sum() + p[3] / 2)
        for k, width in enumerate(p):
            ax.barh(y, width, left=left, color=COLOURS[k], edgecolor="white", linewidth=0.5,
                    label=str(k + 1) if y == 0 else None)
            left += width
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(keys)), [labels[k] for k in keys])
    ax.invert_yaxis()
    ax.set_xlim(-100, 100)
    ax.set_xticks(range(-100, 101, 25), [str(abs(v)) for v in range(-100, 101, 25)])
    ax.set_xlabel("% of ratings (left: disagree 1–3, right: agree 5–7, 4 centred)")
    ax.legend(title="rating", ncols=7, loc="upper center", bbox_to_anchor=(0.5, -0.18 - 0.3 / max(len(keys), 1)),
              frameon=False, fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    return path


def write_ratings(report: RatingsReport, out_dir: Path) -> list[Path]:
    """Write the tables as CSV, report.txt, report.md and the diverging Likert plot (likert.png) into ``out_dir``.

    Parameters
    ----------
    report : RatingsReport
    out_dir : pathlib.Path

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    out_dir = Path(out_dir)
    written = write_tables(report.tables, CSV_TABLES, out_dir)
    (out_dir / "report.txt").write_text(ratings_text(report), encoding="utf-8")
    (out_dir / "report.md").write_text(ratings_markdown(report), encoding="utf-8")
    written += [out_dir / "report.txt", out_dir / "report.md"]
    return written + [likert_plot(report, out_dir / "likert.png")]
