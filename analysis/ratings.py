"""Likert ratings of hypotheses about a model (Two4Two-style studies): per-statement distributions, % agreeing, and
how many participants judged each statement correctly as Two4Two reports it (Schuessler, Weiß & Sixt 2021, Sec. 4.1:
"correctly confirmed" a pattern the model uses, "correctly rejected" one it does not), with bootstrap confidence
intervals, and whether statements naming patterns the model really uses (``relevant``) are rated higher than the
others.

Input is tidy: one row per rating with a participant, a statement and an integer rating 1-7. The report
(:func:`analysis.reports.ratings_study.ratings_report`) adds the statements' texts and relevance and renders text,
Markdown, JSON, CSV, a diverging stacked-bar figure and its Methods section.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ._checks import check_ci, check_frame, check_positive_int
from .inference import two_sample_t

__all__ = ["agreement", "check_ratings", "correct_judgements", "rating_distribution", "relevance_test"]

SCALE = tuple(range(1, 8))
AGREE_FROM = 5
DISAGREE_TO = 3  # ratings 1-3 reject a statement, 5-7 accept it, 4 is neither
TEST_COLUMNS = [
    "n",
    "mean_relevant",
    "mean_irrelevant",
    "t",
    "dof",
    "p_val",
    "estimate",
    "ci_low",
    "ci_high",
    "cohen_d",
    "n_left_out",
    "note",
]
JUDGEMENT_COLUMNS = [
    "statement",
    "relevant",
    "correct_judgement",
    "n_participants",
    "n_ratings",
    "n_agree",
    "n_neutral",
    "n_disagree",
    "n_correct",
    "percent_correct",
    "ci_low",
    "ci_high",
    "ci_method",
]


def check_ratings(df: pd.DataFrame, rating: str, keys: list[str], where: str) -> pd.DataFrame:
    """Check a table of ratings: the ``keys`` columns present, ``rating`` numeric and every rating an integer 1-7.

    Parameters
    ----------
    df : pandas.DataFrame
    rating : str
        The rating column.
    keys : list of str
        Columns that must be present (participant, statement, …).
    where : str
        The caller's name, which starts the error message.

    Returns
    -------
    pandas.DataFrame
        ``df`` itself.

    Raises
    ------
    ValueError
        Naming the column and the first bad value (and how many there are).
    """
    check_frame(df, numeric=rating, keys=keys, where=where)
    values = df[rating].to_numpy(dtype=float)
    bad = ~np.isin(values, SCALE)
    if bad.any():
        raise ValueError(
            f"{where}: column '{rating}' must hold integer ratings 1-7; got {float(values[bad][0]):g} "
            f"({int(bad.sum())} bad value(s))"
        )
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
    check_ratings(df, rating, [statement], "rating_distribution")
    order = pd.unique(df[statement])
    counts = pd.crosstab(df[statement], df[rating].astype(int)).reindex(index=order, columns=list(SCALE), fill_value=0)
    out = counts.stack().rename("n").reset_index()
    out.columns = ["statement", "rating", "n"]
    out["percent"] = 100 * out["n"] / out.groupby("statement", sort=False)["n"].transform("sum")
    return out.astype({"rating": int, "n": int})


def agreement(
    df: pd.DataFrame,
    participant: str = "participant_id",
    statement: str = "statement_id",
    rating: str = "rating",
    agree_from: int = AGREE_FROM,
    n_boot: int = 10_000,
    seed: int = 0,
    ci: float = 95.0,
) -> pd.DataFrame:
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
        ``mean_rating``, ``median_rating``, ``percent_agree``, ``ci_low``, ``ci_high``, ``ci_method``
        (``"wilson"`` or ``"bootstrap"``).

    Examples
    --------
    >>> df = pd.DataFrame({"participant_id": [1, 2, 3, 4], "statement_id": "a", "rating": [7, 6, 2, 4]})
    >>> agreement(df, n_boot=200)[["statement", "n_ratings", "mean_rating", "percent_agree"]].to_numpy().tolist()
    [['a', 4, 4.75, 50.0]]
    """
    where = "agreement"
    check_ratings(df, rating, [participant, statement], where)
    check_positive_int(n_boot, "n_boot", where=where)
    level = check_ci(ci, where=where)
    if agree_from not in SCALE:
        raise ValueError(f"{where}: 'agree_from' must be a rating 1-7, got {agree_from!r}")
    rows = []
    for key, group in df.groupby(statement, sort=False):
        share, low, high, n_people, method = _share(
            group[rating] >= agree_from, group[participant], n_boot, seed, level
        )
        rows.append(
            {
                "statement": key,
                "n_participants": n_people,
                "n_ratings": len(group),
                "mean_rating": float(group[rating].mean()),
                "median_rating": float(group[rating].median()),
                "percent_agree": share,
                "ci_low": low,
                "ci_high": high,
                "ci_method": method,
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            "statement",
            "n_participants",
            "n_ratings",
            "mean_rating",
            "median_rating",
            "percent_agree",
            "ci_low",
            "ci_high",
            "ci_method",
        ],
    )


def _share(
    hit: pd.Series, people: pd.Series, n_boot: int, seed: int, level: float
) -> tuple[float, float, float, int, str]:
    """Percent of ratings with ``hit``, its 95 % interval, the participants and the interval's method ("wilson" or
    "bootstrap"; both stay inside [0, 100], as a proportion's bounds). When every participant gave one rating (a
    plain Two4Two study) the share is a binomial proportion and the interval is Wilson's score interval: the percentile
    bootstrap of a share of 30 covers only ~91 % (`make validate`). Otherwise the percentile bootstrap over
    participants (each resample draws the participants with replacement, each bringing all their ratings), from a
    generator seeded with ``seed``."""
    counts = hit.groupby(people).agg(["sum", "count"])
    a, n = counts["sum"].to_numpy(dtype=float), counts["count"].to_numpy(dtype=float)
    if (n == 1).all():
        wilson = stats.binomtest(int(a.sum()), a.size).proportion_ci(level / 100, method="wilson")
        return float(100 * a.mean()), 100 * wilson.low, 100 * wilson.high, int(a.size), "wilson"
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, a.size, size=(n_boot, a.size))
    boot = 100 * a[idx].sum(axis=1) / n[idx].sum(axis=1)
    low, high = np.percentile(boot, [(100 - level) / 2, (100 + level) / 2])
    return float(100 * a.sum() / n.sum()), float(low), float(high), int(a.size), "bootstrap"


def correct_judgements(
    df: pd.DataFrame,
    participant: str = "participant_id",
    statement: str = "statement_id",
    rating: str = "rating",
    relevant: str = "relevant",
    agree_from: int = AGREE_FROM,
    disagree_to: int = DISAGREE_TO,
    n_boot: int = 10_000,
    seed: int = 0,
    ci: float = 95.0,
) -> pd.DataFrame:
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
        ``n_agree``, ``n_neutral``, ``n_disagree``, ``n_correct``, ``percent_correct``, ``ci_low``, ``ci_high``,
        ``ci_method`` (as :func:`agreement`'s).

    Examples
    --------
    >>> df = pd.DataFrame({"participant_id": [1, 2, 3, 1, 2, 3], "statement_id": list("aaabbb"),
    ...                    "rating": [7, 5, 2, 1, 4, 6], "relevant": [True] * 3 + [False] * 3})
    >>> correct_judgements(df, n_boot=100)[["statement", "correct_judgement", "n_correct", "n_ratings"]].values.tolist()
    [['a', 'accepted', 2, 3], ['b', 'rejected', 1, 3]]
    """
    where = "correct_judgements"
    check_ratings(df, rating, [participant, statement, relevant], where)
    check_positive_int(n_boot, "n_boot", where=where)
    level = check_ci(ci, where=where)
    if not set(df[relevant].unique()) <= {True, False}:
        raise ValueError(f"{where}: column '{relevant}' must be boolean (True: a pattern the model uses)")
    if not (disagree_to in SCALE and agree_from in SCALE and disagree_to < agree_from):
        raise ValueError(
            f"{where}: need ratings 1 <= disagree_to < agree_from <= 7, got {disagree_to!r} and {agree_from!r}"
        )
    rows = []
    for key, group in df.groupby(statement, sort=False):
        kinds = group[relevant].unique()
        if len(kinds) != 1:
            raise ValueError(f"{where}: statement {key!r} is marked both relevant and irrelevant in '{relevant}'")
        is_relevant = bool(kinds[0])
        agree, disagree = group[rating] >= agree_from, group[rating] <= disagree_to
        hit = agree if is_relevant else disagree
        share, low, high, n_people, method = _share(hit, group[participant], n_boot, seed, level)
        rows.append(
            {
                "statement": key,
                "relevant": is_relevant,
                "correct_judgement": "accepted" if is_relevant else "rejected",
                "n_participants": n_people,
                "n_ratings": len(group),
                "n_agree": int(agree.sum()),
                "n_neutral": int((~agree & ~disagree).sum()),
                "n_disagree": int(disagree.sum()),
                "n_correct": int(hit.sum()),
                "percent_correct": share,
                "ci_low": low,
                "ci_high": high,
                "ci_method": method,
            }
        )
    return pd.DataFrame(rows, columns=JUDGEMENT_COLUMNS)


def relevance_test(
    df: pd.DataFrame,
    participant: str = "participant_id",
    rating: str = "rating",
    relevant: str = "relevant",
    confidence: float = 0.95,
) -> tuple[pd.DataFrame, pd.DataFrame]:
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
    check_ratings(df, rating, [participant, relevant], where)
    kinds = set(df[relevant].unique())
    if not kinds <= {True, False}:
        raise ValueError(f"{where}: column '{relevant}' must be boolean (True: a pattern the model uses)")
    all_means = df.groupby([participant, relevant])[rating].mean().unstack(relevant).reindex(columns=[True, False])
    means = all_means.dropna()
    left_out = len(all_means) - len(means)
    per = pd.DataFrame(
        {
            "participant": means.index,
            "mean_relevant": means[True].to_numpy(),
            "mean_irrelevant": means[False].to_numpy(),
        }
    )
    per["difference"] = per["mean_relevant"] - per["mean_irrelevant"]
    if len(per) < 2:
        raise ValueError(
            f"{where}: needs at least 2 participants who rated both relevant and irrelevant statements, got {len(per)}"
        )
    notes = [f"{left_out} participant(s) rated only one kind of statement and are left out"] if left_out else []
    row = {
        "n": len(per),
        "mean_relevant": float(per["mean_relevant"].mean()),
        "mean_irrelevant": float(per["mean_irrelevant"].mean()),
        "n_left_out": left_out,
    }
    if per["difference"].std() == 0:  # t = d̄ / 0: undefined, said rather than printed as ±inf or NaN
        notes.append(
            f"every participant's difference is {per['difference'].iloc[0]:+.2f}: no variance, so t is undefined"
        )
        row["estimate"] = float(per["difference"].iloc[0])
    else:
        test = two_sample_t(per["mean_relevant"], per["mean_irrelevant"], paired=True, confidence=confidence)
        row.update(
            {c: float(test[c].iloc[0]) for c in ("t", "dof", "p_val", "estimate", "ci_low", "ci_high", "cohen_d")}
        )
    row["note"] = "; ".join(notes)
    return per, pd.DataFrame([row], columns=TEST_COLUMNS)
