"""Likert ratings of hypotheses about a model (Two4Two-style studies): per-statement distributions, % agreeing with
bootstrap confidence intervals, and whether statements naming patterns the model really uses (``relevant``) are
rated higher than the others.

Input is tidy: one row per rating with a participant, a statement and an integer rating 1-7. The report
(:func:`ratings_report`) adds the statements' texts and relevance and renders text, JSON, CSV and a diverging
stacked-bar figure (:func:`write_ratings`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ._checks import check_ci, check_frame, check_positive_int
from .inference import two_sample_t
from .tables import write_tables
from .report import _clean

__all__ = ["RatingsReport", "agreement", "likert_plot", "rating_distribution", "ratings_json", "ratings_report",
           "ratings_text", "relevance_test", "write_ratings"]

SCALE = tuple(range(1, 8))
AGREE_FROM = 5
TEST_COLUMNS = ["n", "mean_relevant", "mean_irrelevant", "t", "dof", "p_val", "estimate", "ci_low", "ci_high",
                "cohen_d"]
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
    """Percent of ratings agreeing (``rating >= agree_from``, by default 5-7) per statement, with a percentile
    bootstrap confidence interval that resamples participants.

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
        agree = (group[rating] >= agree_from).groupby(group[participant]).agg(["sum", "count"])
        a, n = agree["sum"].to_numpy(dtype=float), agree["count"].to_numpy(dtype=float)
        rng = np.random.default_rng(seed)
        idx = rng.integers(0, a.size, size=(n_boot, a.size))
        boot = 100 * a[idx].sum(axis=1) / n[idx].sum(axis=1)
        low, high = np.percentile(boot, [(100 - level) / 2, (100 + level) / 2])
        rows.append({"statement": key, "n_participants": int(a.size), "n_ratings": int(n.sum()),
                     "mean_rating": float(group[rating].mean()), "median_rating": float(group[rating].median()),
                     "percent_agree": float(100 * a.sum() / n.sum()), "ci_low": float(low), "ci_high": float(high)})
    return pd.DataFrame(rows, columns=["statement", "n_participants", "n_ratings", "mean_rating", "median_rating",
                                       "percent_agree", "ci_low", "ci_high"])


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
        (mean difference), ``ci_low``, ``ci_high``, ``cohen_d``.

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
    means = (df.groupby([participant, relevant])[rating].mean().unstack(relevant)
             .reindex(columns=[True, False]).dropna())
    per = pd.DataFrame({"participant": means.index, "mean_relevant": means[True].to_numpy(),
                        "mean_irrelevant": means[False].to_numpy()})
    per["difference"] = per["mean_relevant"] - per["mean_irrelevant"]
    if len(per) < 2:
        raise ValueError(f"{where}: needs at least 2 participants who rated both relevant and irrelevant "
                         f"statements, got {len(per)}")
    test = two_sample_t(per["mean_relevant"], per["mean_irrelevant"], paired=True, confidence=confidence)
    row = {"n": len(per), "mean_relevant": float(per["mean_relevant"].mean()),
           "mean_irrelevant": float(per["mean_irrelevant"].mean()),
           **{c: float(test[c].iloc[0]) for c in ("t", "dof", "p_val", "estimate", "ci_low", "ci_high", "cohen_d")}}
    return per, pd.DataFrame([row], columns=TEST_COLUMNS)


@dataclass
class RatingsReport:
    """Everything :func:`ratings_report` computed. ``tables`` (CSV and JSON): ``statements`` (per statement:
    text, relevance, % agreeing with CI, mean and median), ``distribution`` (ratings 1-7 per statement),
    ``participants`` (per-participant means of relevant and irrelevant statements) and ``test`` (the paired test).
    ``meta``: counts, options and notes."""

    meta: dict[str, Any]
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)


def ratings_report(ratings: pd.DataFrame, statements: pd.DataFrame, participant: str = "participant_id",
                   statement: str = "statement_id", rating: str = "rating", n_boot: int = 10_000, seed: int = 0,
                   meta: dict[str, Any] | None = None) -> RatingsReport:
    """The Two4Two report: :func:`agreement` and :func:`rating_distribution` per statement, :func:`relevance_test`.

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
    distribution = rating_distribution(ratings, statement, rating)
    rated = ratings.merge(known, left_on=statement, right_on="statement", how="inner")
    rated = rated.assign(relevant=rated["relevant"].astype(bool))
    try:
        per, test = relevance_test(rated, participant, rating, "relevant")
    except ValueError as exc:
        notes.append(f"no relevant-vs-irrelevant test: {str(exc).split(': ', 1)[-1]}")
        per = pd.DataFrame(columns=["participant", "mean_relevant", "mean_irrelevant", "difference"])
        test = pd.DataFrame([{c: math.nan for c in TEST_COLUMNS}], columns=TEST_COLUMNS)
    info = {**(meta or {}), "n_participants": int(ratings[participant].nunique()), "n_ratings": len(ratings),
            "agree_from": AGREE_FROM, "n_boot": n_boot, "seed": seed, "notes": notes}
    return RatingsReport(info, {"statements": table, "distribution": distribution, "participants": per,
                                "test": test})


def _fmt(x: Any, digits: int = 1) -> str:
    return "–" if x is None or (isinstance(x, float) and not math.isfinite(x)) else f"{x:.{digits}f}"


def ratings_text(report: RatingsReport) -> str:
    """The report as readable text: statements with % agreeing, the paired test, the distributions.

    Parameters
    ----------
    report : RatingsReport

    Returns
    -------
    str
    """
    m = report.meta
    study = f" — {m['title']} ({m['slug']})" if m.get("title") and m.get("slug") else ""
    lines = [f"Hypothesis ratings{study}",
             f"participants: {m['n_participants']}, ratings: {m['n_ratings']}; agree = rating {m['agree_from']}–7; "
             f"95 % CIs: percentile bootstrap over participants ({m['n_boot']} resamples, seed {m['seed']})", "",
             f"{'statement':<14}{'relevant':>9}{'n':>5}{'mean':>7}{'median':>8}  {'% agree [95 % CI]':<22}text"]
    for r in report.tables["statements"].itertuples():
        relevant = "?" if pd.isna(r.relevant) else ("yes" if r.relevant else "no")
        agree = f"{_fmt(r.percent_agree)} [{_fmt(r.ci_low)}, {_fmt(r.ci_high)}]"
        text = "" if pd.isna(r.text) else r.text
        lines.append(f"{r.statement:<14}{relevant:>9}{r.n_ratings:>5}{_fmt(r.mean_rating, 2):>7}"
                     f"{_fmt(r.median_rating):>8}  {agree:<22}{text}")
    t = report.tables["test"].iloc[0]
    lines += ["", "Relevant vs irrelevant statements (paired t-test over participants' mean ratings):"]
    if math.isfinite(t["n"]):
        p = "p < 0.001" if t["p_val"] < 0.001 else f"p = {t['p_val']:.3f}"
        lines.append(f"  relevant {_fmt(t['mean_relevant'], 2)}, irrelevant {_fmt(t['mean_irrelevant'], 2)}; "
                     f"difference {_fmt(t['estimate'], 2)} [{_fmt(t['ci_low'], 2)}, {_fmt(t['ci_high'], 2)}], "
                     f"t({_fmt(t['dof'], 0)}) = {_fmt(t['t'], 2)}, {p}, d = {_fmt(t['cohen_d'], 2)}, "
                     f"n = {int(t['n'])}")
    else:
        lines.append("  not computed (see notes)")
    dist = report.tables["distribution"]
    lines += ["", "Ratings given, % (1 = strongly disagree … 7 = strongly agree):",
              f"{'statement':<14}" + "".join(f"{k:>6}" for k in SCALE)]
    for key, group in dist.groupby("statement", sort=False):
        lines.append(f"{key:<14}" + "".join(f"{v:>6.0f}" for v in group.sort_values("rating")["percent"]))
    if m["notes"]:
        lines += ["", "Notes:", *[f"  - {n}" for n in m["notes"]]]
    return "\n".join(lines) + "\n"


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
    """Write the tables as CSV, report.txt and the diverging Likert plot (likert.png) into ``out_dir``.

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
    written.append(out_dir / "report.txt")
    return written + [likert_plot(report, out_dir / "likert.png")]
