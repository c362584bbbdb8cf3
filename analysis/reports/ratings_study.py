"""The report of a hypothesis-rating (Two4Two) study: the statistics of :mod:`analysis.ratings` per statement with
the statements' texts and relevance, and its renderings (text, Markdown, JSON, CSV, the diverging Likert figure,
``methods.md``)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .._checks import check_frame
from ..coverage import SMALL_SAMPLE, small_sample_note
from ..ratings import (
    AGREE_FROM,
    DISAGREE_TO,
    JUDGEMENT_COLUMNS,
    SCALE,
    TEST_COLUMNS,
    agreement,
    check_ratings,
    correct_judgements,
    rating_distribution,
    relevance_test,
)
from .exclusions import exclusion_note
from .methods import methods_document
from .render import MISSING, Document, Items, Paragraph, Section, Table, interval, num, p_value, with_interval
from .report import Report

__all__ = ["RatingsReport", "likert_plot", "ratings_report"]


@dataclass
class RatingsReport(Report):
    """Everything :func:`ratings_report` computed. ``tables`` (CSV and JSON): ``statements`` (per statement:
    text, relevance, % agreeing with CI, mean and median, and Two4Two's count of correct judgements: accepted if
    relevant, rejected if not, with CI), ``distribution`` (ratings 1-7 per statement),
    ``participants`` (per-participant means of relevant and irrelevant statements) and ``test`` (the paired test).
    ``meta``: counts, options and notes."""

    csv_tables = ("statements", "distribution", "participants", "test")

    def document(self, brief: bool = False) -> Document:
        return _document(self)

    def methods(self) -> str:
        return _methods(self)

    def figures(self, out_dir) -> list[Path]:
        return [likert_plot(self, Path(out_dir) / "likert.png")]


def ratings_report(
    ratings: pd.DataFrame,
    statements: pd.DataFrame,
    participant: str = "participant_id",
    statement: str = "statement_id",
    rating: str = "rating",
    n_boot: int = 10_000,
    seed: int = 0,
    meta: dict[str, Any] | None = None,
) -> RatingsReport:
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
    check_ratings(ratings, rating, [participant, statement], where)
    notes = []
    agree = agreement(ratings, participant, statement, rating, n_boot=n_boot, seed=seed)
    known = statements.rename(columns={"statement_id": "statement"})[["statement", "text", "relevant"]]
    table = _statements_table(known, agree, notes)
    distribution = rating_distribution(ratings, statement, rating)
    rated = ratings.merge(
        known.rename(columns={"statement": "_statement"}), left_on=statement, right_on="_statement", how="inner"
    )
    rated = rated.assign(relevant=rated["relevant"].astype(bool))
    table = _with_judgements(table, rated, participant, statement, rating, n_boot, seed)
    notes += _few_participants(table, judged=bool(len(rated)))
    per, test = _relevance(rated, participant, rating, notes)
    info = {
        **(meta or {}),
        "n_participants": int(ratings[participant].nunique()),
        "n_ratings": len(ratings),
        "agree_from": AGREE_FROM,
        "disagree_to": DISAGREE_TO,
        "n_boot": n_boot,
        "seed": seed,
        "notes": notes,
    }
    return RatingsReport(info, {"statements": table, "distribution": distribution, "participants": per, "test": test})


def _statements_table(known: pd.DataFrame, agree: pd.DataFrame, notes: list[str]) -> pd.DataFrame:
    """The study file's statements in its order, then any rated statement it no longer lists, with their agreement;
    both kinds of mismatch are noted."""
    order = [*known["statement"], *[s for s in agree["statement"] if s not in set(known["statement"])]]
    table = known.merge(agree, on="statement", how="outer").set_index("statement").loc[order].reset_index()
    table["n_participants"] = table["n_participants"].fillna(0).astype(int)
    table["n_ratings"] = table["n_ratings"].fillna(0).astype(int)
    unknown = [s for s in agree["statement"] if s not in set(known["statement"])]
    if unknown:
        notes.append(
            f"ratings of statements no longer in the study file (relevance unknown, left out of the "
            f"test): {', '.join(map(str, unknown))}"
        )
    never = [s for s in known["statement"] if s not in set(agree["statement"])]
    if never:
        notes.append(f"statements in the study file that nobody rated: {', '.join(map(str, never))}")
    return table


def _with_judgements(table, rated, participant, statement, rating, n_boot, seed) -> pd.DataFrame:
    """``table`` with Two4Two's correct judgements per statement beside (missing when no rating has a relevance)."""
    if not len(rated):
        return table.assign(
            **{c: np.nan for c in JUDGEMENT_COLUMNS[2:] if c not in table.columns},
            correct_ci_low=np.nan,
            correct_ci_high=np.nan,
        ).drop(columns=["ci_low", "ci_high"], errors="ignore")
    judged = correct_judgements(rated, participant, statement, rating, "relevant", n_boot=n_boot, seed=seed)
    judged = judged.drop(columns=["relevant", "n_participants", "n_ratings", "ci_method"]).rename(
        columns={"ci_low": "correct_ci_low", "ci_high": "correct_ci_high"}
    )
    return table.merge(judged, on="statement", how="left").astype(
        dict.fromkeys(("n_agree", "n_neutral", "n_disagree", "n_correct"), "Int64")
    )


def _few_participants(table: pd.DataFrame, judged: bool) -> list[str]:
    """Below SMALL_SAMPLE participants the bootstrap's coverage is the one `make validate` measured at that n (issue
    #23 point 3); Wilson's interval (one rating each) needs no warning."""
    few = table[(table["ci_method"] == "bootstrap") & (table["n_participants"] < SMALL_SAMPLE)]
    measured = ("percent_agree", "percent_correct") if judged else ("percent_agree",)
    return [
        f"the intervals of {', '.join(map(str, group['statement']))} resample fewer than {SMALL_SAMPLE} "
        "participants (some rated a statement more than once, so the percentile bootstrap over participants is "
        f"used): {'; '.join(small_sample_note(int(n), 'participants', s) for s in measured)}"
        for n, group in few.groupby("n_participants")
    ]


def _relevance(rated: pd.DataFrame, participant: str, rating: str, notes: list[str]):
    """The relevant-vs-irrelevant test and its per-participant means; a row saying why when it cannot be run."""
    try:
        per, test = relevance_test(rated, participant, rating, "relevant")
        if test["note"].iloc[0]:
            notes.append(f"relevant-vs-irrelevant test: {test['note'].iloc[0]}")
    except ValueError as exc:
        reason = str(exc).split(": ", 1)[-1]
        notes.append(f"no relevant-vs-irrelevant test: {reason}")
        per = pd.DataFrame(columns=["participant", "mean_relevant", "mean_irrelevant", "difference"])
        test = pd.DataFrame([{**dict.fromkeys(TEST_COLUMNS, math.nan), "note": reason}], columns=TEST_COLUMNS)
    return per, test


def _judged(r) -> str:
    """ "accepted by 10/12 (83.3 %) [58.3, 100.0]" for a statement's correct judgements, MISSING without relevance."""
    if not isinstance(r.correct_judgement, str):
        return MISSING
    return (
        f"{r.correct_judgement} by {r.n_correct}/{r.n_ratings} ({num(r.percent_correct, 1)} %) "
        f"{interval(r.correct_ci_low, r.correct_ci_high, 1)}"
    )


def _test_line(t: pd.Series) -> str:
    if not math.isfinite(t["n"]):
        return f"not computed: {t['note']}"
    means = f"relevant {num(t['mean_relevant'])}, irrelevant {num(t['mean_irrelevant'])}"
    if not math.isfinite(t["t"]):
        return f"{means}, n = {int(t['n'])}; no t-test: {t['note']}"
    left = f" ({t['note']})" if t["note"] else ""
    return (
        f"{means}; difference {with_interval(t['estimate'], t['ci_low'], t['ci_high'])}, "
        f"t({num(t['dof'], 0)}) = {num(t['t'])}, {p_value(t['p_val'], prefix=True)} (two-sided), "
        f"d = {num(t['cohen_d'])}, n = {int(t['n'])}{left}"
    )


STATEMENT_HEADER = [
    "statement",
    "relevant",
    "n",
    "mean",
    "median",
    "% agree [95 % CI]",
    "correctly judged [95 % CI]",
    "text",
]


def _statement_rows(report: RatingsReport) -> list[list[str]]:
    """One row per statement (:data:`STATEMENT_HEADER`), for the text and the Markdown table."""
    rows = []
    for r in report.tables["statements"].itertuples():
        relevant = MISSING if pd.isna(r.relevant) else ("yes" if r.relevant else "no")
        rows.append(
            [
                str(r.statement),
                relevant,
                str(r.n_ratings),
                num(r.mean_rating),
                num(r.median_rating, 1),
                with_interval(r.percent_agree, r.ci_low, r.ci_high, 1),
                _judged(r),
                "" if pd.isna(r.text) else str(r.text),
            ]
        )
    return rows


def _distribution_rows(report: RatingsReport) -> list[list[str]]:
    """Per statement, the percent of ratings 1 … 7 (header: "statement", 1 … 7)."""
    return [
        [str(key), *(num(v, 0) for v in group.sort_values("rating")["percent"])]
        for key, group in report.tables["distribution"].groupby("statement", sort=False)
    ]


def _intro(m: dict[str, Any]) -> str:
    return (
        f"participants: {m['n_participants']}, ratings: {m['n_ratings']}; agree = rating {m['agree_from']}–7, "
        f"reject = 1–{m['disagree_to']} (4 is neither); correctly judged (Two4Two): a relevant statement "
        f"accepted, an irrelevant one rejected; 95 % CIs: Wilson's score interval where each participant rated "
        f"a statement once, else the percentile bootstrap over participants ({m['n_boot']} resamples, seed "
        f"{m['seed']})"
    )


def _document(report: RatingsReport) -> Document:
    """The statements with % agreeing and how many judged them correctly (Two4Two's "correctly confirmed" /
    "correctly rejected"), the paired test, the distributions, the notes."""
    m = report.meta
    study = f" — {m['title']} ({m['slug']})" if m.get("title") and m.get("slug") else ""
    doc = Document(
        f"Hypothesis ratings{study}",
        [_intro(m) + ".", *filter(None, [exclusion_note(m)])],
        [
            Section("Statements", [Table(STATEMENT_HEADER, _statement_rows(report), "llrrrrll")]),
            Section(
                "Relevant vs irrelevant statements",
                [
                    Paragraph(
                        "Paired t-test over participants' mean ratings: "
                        + _test_line(report.tables["test"].iloc[0])
                        + "."
                    )
                ],
            ),
            Section(
                "Ratings given (%)",
                [
                    Paragraph("1 = strongly disagree … 7 = strongly agree"),
                    Table(["statement", *map(str, SCALE)], _distribution_rows(report), "l" + "r" * len(SCALE)),
                ],
            ),
        ],
    )
    if m["notes"]:
        doc.sections.append(Section("Notes", [Items(m["notes"])]))
    return doc


def _methods(report: RatingsReport) -> str:
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
        f"statement.",
    ]
    text = (
        "**Relevant against irrelevant statements.** Each participant's mean rating of the relevant statements "
        "was compared with their mean rating of the irrelevant ones by a two-sided paired t-test (Student, 1908) "
        "with a 95 % t interval of the mean difference and Cohen's d_avg."
    )
    if math.isfinite(test["n"]):
        text += f" n = {int(test['n'])} participants."
    if test["note"]:
        text += f" {test['note'][0].upper()}{test['note'][1:]}."
    paragraphs.append(text)
    if m["notes"]:
        paragraphs.append("**Left out.** " + " ".join(f"{n[0].upper()}{n[1:]}." for n in m["notes"]))
    return methods_document(
        f"hypothesis ratings{' — ' + m['title'] if m.get('title') else ''}",
        paragraphs,
        ["schuessler2021", "wilson1927", "efron1993", "student1908"],
    )


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
    labels = {
        r.statement: (r.text if isinstance(r.text, str) else r.statement)
        + ("" if pd.isna(r.relevant) else (" (relevant)" if r.relevant else ""))
        for r in table.itertuples()
    }
    fig = Figure(figsize=(10, 1.2 + 0.6 * len(keys)), dpi=120)
    ax = fig.add_subplot()
    for y, key in enumerate(keys):
        p = dist.loc[key].reindex(list(SCALE), fill_value=0).to_numpy(dtype=float)
        left = -(p[:3].sum() + p[3] / 2)
        for k, width in enumerate(p):
            ax.barh(
                y,
                width,
                left=left,
                color=COLOURS[k],
                edgecolor="white",
                linewidth=0.5,
                label=str(k + 1) if y == 0 else None,
            )
            left += width
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(keys)), [labels[k] for k in keys])
    ax.invert_yaxis()
    ax.set_xlim(-100, 100)
    ax.set_xticks(range(-100, 101, 25), [str(abs(v)) for v in range(-100, 101, 25)])
    ax.set_xlabel("% of ratings (left: disagree 1–3, right: agree 5–7, 4 centred)")
    ax.legend(
        title="rating",
        ncols=7,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.18 - 0.3 / max(len(keys), 1)),
        frameon=False,
        fontsize=8,
    )
    fig.tight_layout()
    fig.savefig(path)
    return path
