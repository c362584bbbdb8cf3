"""The HIVE report of one study (Kim et al., ECCV 2022): the statistics of :mod:`analysis.hive_statistics` on
completed participants' test trials, HIVE's published figures beside ours, and its sections, Methods paragraphs and
figures (rendered as every report is: :class:`analysis.reports.report.Report`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .._checks import check_choice, check_frame
from ..hive_statistics import (
    ACCURACY_COLUMNS,
    ALPHA,
    CI_KINDS,
    COEFFICIENT_NAMES,
    DDOF,
    METHOD_NAMES,
    SIMILARITY_COEFFICIENT,
    TRADEOFF_REFERENCE,
    HiveTask,
    accuracy_summary,
    agreement_confidence,
    check_task,
    condition_tests,
    match_similarity,
    participant_accuracy,
    similarity_correlation,
    tradeoff_summary,
    understanding_summary,
)
from ..published import published
from ..rank_correlation import EXACT_BELOW
from .exclusions import exclusion_note
from .methods import methods_document
from .render import MISSING, Document, Items, Section, Table, interval, is_missing, num, p_value
from .report import Report

__all__ = ["HiveReport", "hive_report"]


#: the columns :func:`_published_beside` adds to an accuracy summary
PUBLISHED_COLUMNS = ["published_mean", "published_sd", "published_n", "published_confidence"]


def published_study(task: HiveTask, dataset: str | None, labels: bool = False) -> str | None:
    """HIVE's name (published_results.csv ``study``) of the study a product study replicates: "distinction CUB",
    "agreement ImageNet", "output prediction ImageNet with labels" (Table 2's ImageNet studies that showed the
    ground-truth class labels); None without a dataset."""
    if not dataset:
        return None
    return f"{task.name} {dataset}" + (" with labels" if labels else "")


def _published_beside(summary: pd.DataFrame, study: str | None, method: str) -> pd.DataFrame:
    """HIVE's published mean ± SD (and, for agreement, Table 1's mean confidence) for the same study and method,
    beside ours (NaN where HIVE has none)."""
    out = summary.assign(published_mean=np.nan, published_sd=np.nan, published_n=pd.NA, published_confidence=np.nan)
    if not study:
        return out
    table = published("HIVE2022")
    for i, row in out.iterrows():
        hit = table[(table["study"] == study) & (table["condition"] == f"{METHOD_NAMES[method]} {row['condition']}")]
        accuracy = hit[hit["measure"] == "accuracy"]
        if len(accuracy):
            out.loc[i, ["published_mean", "published_sd"]] = [accuracy["value"].iloc[0], accuracy["spread"].iloc[0]]
            out.loc[i, "published_n"] = accuracy["n"].iloc[0]
        confidence = hit[hit["measure"] == "mean confidence"]
        if len(confidence):
            out.loc[i, "published_confidence"] = confidence["value"].iloc[0]
    return out


@dataclass
class HiveReport(Report):
    """Everything :func:`hive_report` computed: ``tables`` (accuracy, output_prediction, per_participant,
    conditions, similarity, understanding, tradeoff), ``meta``, the ``notes`` that say what each number means or
    why it is missing, and the HIVE ``task`` it was computed for (its name and wording)."""

    notes: list[str] = field(default_factory=list)
    task: HiveTask = field(kw_only=True)
    csv_tables = (
        "accuracy",
        "output_prediction",
        "per_participant",
        "conditions",
        "similarity",
        "understanding",
        "tradeoff",
    )

    def document(self, brief: bool = False) -> Document:
        return _document(self)

    def methods(self) -> str:
        return _methods(self)

    def figures(self, out_dir) -> list:
        return write_hive_figures(self, out_dir)

    def json(self) -> dict[str, Any]:
        """As every report's, with the notes after ``meta``."""
        data = super().json()
        return {"meta": data.pop("meta"), "notes": self.notes, **data}


def _alternative_words(alternative: str, chance: float) -> str:
    if alternative == "greater":
        return (
            f"one-sided (H1: mean accuracy > {chance:g} %), as HIVE's Table 2 asks whether participants "
            "outperform chance"
        )
    return f"two-sided (H1: mean accuracy ≠ {chance:g} %), as HIVE's Table 1 asks whether accuracy differs from chance"


def _output_prediction(
    test: pd.DataFrame, task: HiveTask | None, method: str, dataset: str | None, labels: bool
) -> tuple[pd.DataFrame, str | None]:
    """Output prediction asked in the same trials as distinction (study option ``output_prediction``): its accuracy
    as ``task``'s (the output-prediction task's chance and test), beside HIVE's row for it; empty when not asked."""
    if task is None or "output_correct" not in test.columns or test["output_correct"].isna().all():
        return pd.DataFrame(columns=[*ACCURACY_COLUMNS, *PUBLISHED_COLUMNS]), None
    asked = test[test["output_correct"].notna()]
    per = participant_accuracy(asked, correct="output_correct", confidence="output_confidence")
    study = published_study(task, dataset, labels)
    return _published_beside(accuracy_summary(per, task.chance, task.alternative), study, method), study


def hive_report(
    participants: pd.DataFrame,
    trials: pd.DataFrame,
    task: HiveTask,
    method: str,
    dataset: str | None = None,
    meta: dict[str, Any] | None = None,
    labels: bool = False,
    output_task: HiveTask | None = None,
) -> HiveReport:
    """The HIVE report of one study: completed participants' test trials only.

    Parameters
    ----------
    participants : pandas.DataFrame
        participants.csv: ``participant_id``, ``status`` and the HIVE survey columns.
    trials : pandas.DataFrame
        trials.csv of the study (practice rows are dropped here).
    task : HiveTask
        The HIVE task the study's type runs: its name, chance (agreement 50 %, otherwise 25 %) and test's side.
    method : str
        gradcam, bagnet, protopnet or prototree.
    dataset : str, optional
        HIVE's dataset the study replicates (e.g. "CUB"); the published figures for the same task and method are
        shown beside ours. None: no published comparison.
    meta : dict, optional
        The caller's facts of the study (slug, title, exclusions, task type), first in the report's meta.
    labels : bool, default False
        Whether the study showed class labels (study.toml ``show_labels``): HIVE's ImageNet studies with labels
        are the published comparison then.
    output_task : HiveTask, optional
        The task output prediction asked in distinction's trials (``output_correct``) is analysed as; None: it is not.

    Returns
    -------
    HiveReport
        Tables ``accuracy``, ``output_prediction`` (empty unless a distinction study asked it in the same
        trials), ``per_participant``, ``conditions``, ``similarity``, ``understanding``, ``tradeoff``; ``notes``
        (how each statistic was computed and what was left out, with counts).
    """
    check_task(task, "hive_report")
    check_choice(method, METHOD_NAMES, "method", where="hive_report")
    check_frame(participants, keys=["participant_id", "status"], where="hive_report")
    scored = _Scored.of(participants, trials, task)
    design = _Design(task, method, dataset, labels, published_study(task, dataset, labels))
    per = participant_accuracy(scored.test)
    output, output_study = _output_prediction(scored.test, output_task, method, dataset, labels)
    tables = {
        "accuracy": _published_beside(accuracy_summary(per, task.chance, task.alternative), design.study, method),
        "output_prediction": output,
        "per_participant": per,
        "conditions": condition_tests(per),
        "similarity": similarity_correlation(scored.test, method),
        "understanding": understanding_summary(scored.done),
        "tradeoff": tradeoff_summary(scored.done),
    }
    counts = match_similarity(scored.test)[1] if len(tables["similarity"]) else {}
    notes = _notes(design, scored, tables, counts, meta or {})
    meta = {**(meta or {}), **design.meta(output_study), **scored.meta(), "ddof": DDOF, "similarity_counts": counts}
    return HiveReport(meta=meta, notes=notes, tables=tables, task=task)


@dataclass(frozen=True)
class _Design:
    """What a HIVE study asks and against what it is compared: chance, the test's side, HIVE's published study."""

    task: HiveTask
    method: str
    dataset: str | None
    labels: bool
    study: str | None

    def meta(self, output_study: str | None) -> dict[str, Any]:
        return {
            "method": self.method,
            "dataset": self.dataset,
            "labels": self.labels,
            "published_study": self.study,
            "output_published_study": output_study,
            "chance": self.task.chance,
            "alternative": self.task.alternative,
            "alpha": ALPHA,
        }


@dataclass(frozen=True)
class _Scored:
    """The completed participants (``done``) and their test trials (``test``), and what was left out: sessions not
    completed (``n_other``) with their trials (``n_other_trials``), and preview trials (``n_practice``)."""

    done: pd.DataFrame
    test: pd.DataFrame
    n_other: int
    n_other_trials: int
    n_practice: int

    @classmethod
    def of(cls, participants: pd.DataFrame, trials: pd.DataFrame, task: HiveTask) -> _Scored:
        done = participants[participants["status"] == "completed"]
        completed = trials["participant_id"].isin(done["participant_id"])
        practice = trials["practice"].astype(bool)
        test = trials[completed & ~practice]
        if test.empty:
            raise ValueError("hive_report: no test trials of completed participants")
        if task.agreement and "confidence" in test.columns:
            test = test.assign(confidence=agreement_confidence(test["confidence"]).to_numpy())
        n_practice = int((completed & practice).sum())
        return cls(done, test, len(participants) - len(done), int((~completed).sum()), n_practice)

    def meta(self) -> dict[str, Any]:
        return {
            "n_participants": len(self.done),
            "n_not_completed": self.n_other,
            "n_trials": len(self.test),
            "n_practice_trials": self.n_practice,
        }


def _notes(design: _Design, scored: _Scored, tables: dict, counts: dict, meta: dict[str, Any]) -> list[str]:
    """How each statistic was computed and what was left out, with counts; then every row's own note."""
    notes = [_participants_note(scored), _accuracy_note(design)]
    accuracy = tables["accuracy"]
    clipped = accuracy.loc[accuracy["ci_clipped"].eq(True), "condition"].tolist()
    if clipped:
        notes.append(
            f"Interval ({', '.join(clipped)}): the t interval reached past the accuracy scale and is clipped to "
            "[0, 100] %."
        )
    if design.study:
        found = accuracy["published_mean"].notna().any()
        notes.append(
            f"Published: HIVE's {design.study} study, {METHOD_NAMES[design.method]}"
            + ("" if found else ": HIVE reports no figures for it, so none are shown")
            + "."
        )
    excluded = exclusion_note(meta)
    if excluded:  # they are among the sessions not completed above
        notes.append(f"Exclusions: {excluded}.")
    if design.task.agreement:
        notes.append(AGREEMENT_NOTE)
    if counts:
        notes.append(_similarity_note(design, tables["similarity"], counts))
    notes.append(TRADEOFF_NOTE)
    return notes + _row_notes(tables)


def _participants_note(scored: _Scored) -> str:
    return (
        f"Participants: {len(scored.done)} completed; {scored.n_other} other session(s) (not completed) and their "
        f"{scored.n_other_trials} trial(s) are left out; {scored.n_practice} preview trial(s) "
        "are not scored. No outlier rule (HIVE reports every completed participant)."
    )


def _accuracy_note(design: _Design) -> str:
    task = design.task
    return (
        f"Accuracy: percent of a participant's trials answered right; mean and SD over participants (SD with "
        f"ddof = {DDOF}); one-sample t-test against chance = {task.chance:g} %, "
        f"{_alternative_words(task.alternative, task.chance)}; "
        f"significant at p < {ALPHA:g}; interval: {CI_KINDS[task.alternative]}, so it excludes chance exactly when "
        "the test is significant."
    )


AGREEMENT_NOTE = (
    "Agreement: confidence on HIVE's orientation, 4 fairly / 3 somewhat confident the prediction is "
    "correct, 2 somewhat / 1 fairly confident it is incorrect (trials.csv stores the page's order, 1 fairly "
    "confident correct … 4 fairly confident incorrect; converted as 5 − stored). A confidence of 3–4 counts "
    "as judging the prediction correct. Accuracy on incorrect predictions is the share judged incorrect; "
    "'% judged correct' is the share believed."
)
TRADEOFF_NOTE = (
    f"Tradeoff: required gain = the stated minimum accuracy − {TRADEOFF_REFERENCE:g} % (the explained "
    f"model's accuracy given in the question; {TRADEOFF_REFERENCE:g} % is this product's choice, HIVE states "
    "none); answers 0–100 % are accepted, so a gain can be below 0 (counted per risk); one-sided t-test of "
    "H1: mean gain > 0, HIVE's reading that participants require a model without explanations to be more "
    "accurate."
)


def _similarity_note(design: _Design, similarity: pd.DataFrame, counts: dict) -> str:
    coef = SIMILARITY_COEFFICIENT.get(design.method)
    text = (
        f"Similarity: one value per prototype match (its mean rating over the participants who rated it) "
        f"against the model's score: {similarity['n'].iloc[0]} matches from {counts['ratings']} ratings by "
        f"{counts['participants']} participants; "
        + (f"HIVE's coefficient for {METHOD_NAMES[design.method]} is {COEFFICIENT_NAMES[coef]}. " if coef else "")
        + f"p two-sided: Spearman's exact over every permutation below {EXACT_BELOW} matches, otherwise (and "
        "Pearson's) t with n − 2 dof."
        + (
            " Distinction: every option's matches were rated, as in HIVE's ProtoPNet distinction study (its "
            "ρ = −0.25, p = 0.49 correlates these ratings with the model's scores)."
            if design.task.name == "distinction"
            else ""
        )
    )
    if counts["trials_mismatched"]:
        text += (
            f" {counts['trials_mismatched']} of {counts['trials_rated']} rated trial(s) left out: their "
            "number of ratings differs from the number of model scores."
        )
    return text


def _row_notes(tables: dict[str, pd.DataFrame]) -> list[str]:
    """The note of every row of the accuracy, similarity, output-prediction and tradeoff tables, named by row."""
    notes = []
    for name, frame, key in (
        ("accuracy", tables["accuracy"], "condition"),
        ("similarity", tables["similarity"], "method"),
        ("output prediction", tables["output_prediction"], "condition"),
        ("tradeoff", tables["tradeoff"], "risk"),
    ):
        for r in frame.to_dict("records"):
            if r["note"] and not (name == "similarity" and r["note"].startswith("no interval for Spearman")):
                notes.append(f"{name} ({r[key]}): {r['note']}")
    return notes


def _pm(mean, sd) -> str:
    """ "71.2 ± 33.3": mean ± SD over participants, or MISSING without a mean (no published row)."""
    return MISSING if is_missing(mean) else f"{num(mean, 1)} ± {num(sd, 1)}"


def _accuracy_section(acc: pd.DataFrame, title: str, greater: bool, study: str | None) -> Section:
    """HIVE's Table 1 / 2 layout of an :func:`accuracy_summary` (with the published columns beside)."""
    rows = []
    for r in acc.itertuples(index=False):
        published_cell = _pm(r.published_mean, r.published_sd)
        if not is_missing(r.published_confidence):
            published_cell += f" ({num(r.published_confidence, 1)})"
        rows.append(
            [
                r.condition,
                str(r.n),
                f"{_pm(r.mean, r.sd)} ({num(r.mean_confidence, 2)})",
                _bound(r.ci_low, r.ci_high, greater),
                _stat(r.t, r.note),
                p_value(r.p_val),
                r.verdict,
                published_cell,
            ]
        )
    header = [
        "model prediction",
        "n",
        "ours",
        "95 % lower bound (one-sided)" if greater else "95 % CI (two-sided)",
        "t",
        "p (one-sided)" if greater else "p (two-sided)",
        "above chance (p < 0.05)?" if greater else "differs from chance (p < 0.05)?",
        f"HIVE 2022 ({study})" if study else "HIVE 2022",
    ]
    return Section(title, [Table(header, rows, "lrrrrrll")])


def _bound(low, high, one_sided: bool) -> str:
    """The interval that goes with the test: "≥ 25.4 %" (one-sided lower bound) or "[24.7, 31.3]" (two-sided)."""
    if one_sided:
        return MISSING if is_missing(low) else f"≥ {num(low, 1)} %"
    return interval(low, high, 1)


def _stat(value, note: str, digits: int = 2) -> str:
    """A number, or MISSING with a pointer to the note that says why it is missing."""
    if is_missing(value) and note:
        return f"{MISSING} (see note)"
    return num(value, digits)


def _document(report: HiveReport) -> Document:
    m, t = report.meta, report.tables
    greater = m["alternative"] == "greater"
    doc = Document(f"HIVE report: {m.get('title', m.get('slug', ''))}", [_lead(report.task, m)])
    doc.sections.append(
        _accuracy_section(t["accuracy"], _accuracy_title(report.task), greater, m.get("published_study"))
    )
    if len(t["output_prediction"]):
        doc.sections.append(
            _accuracy_section(
                t["output_prediction"],
                "Table 2 (output prediction, asked in the same trials): accuracy, mean ± SD over participants (mean "
                "confidence 1–5)",
                True,
                m.get("output_published_study"),
            )
        )
    if report.task.agreement:
        doc.sections.append(_confirmation_section(t["accuracy"]))
    for table, section in (
        ("conditions", _conditions_section),
        ("similarity", _similarity_section),
        ("understanding", _understanding_section),
        ("tradeoff", _tradeoff_section),
    ):
        if len(t[table]):
            doc.sections.append(section(t[table]))
    doc.sections.append(Section("Notes", [Items(report.notes)]))
    return doc


def _lead(task: HiveTask, m: dict[str, Any]) -> str:
    return (
        f"{task.name} task, {METHOD_NAMES[m['method']]}; {m['n_participants']} completed "
        f"participants, {m['n_trials']} test trials; chance {m['chance']:g} %; test against chance "
        f"{'one-sided (outperforms?)' if m['alternative'] == 'greater' else 'two-sided (differs?)'}."
    )


def _accuracy_title(task: HiveTask) -> str:
    """HIVE's table the accuracy section reproduces, and its confidence scale."""
    if task.agreement:
        scale, title = "confidence 1–4, higher = more confident the prediction is correct", "Table 1 (agreement)"
    else:
        scale, title = "confidence 1–5, higher = more confident", f"Table 2 ({task.name})"
    return f"{title}: accuracy, mean ± SD over participants (mean {scale})"


def _confirmation_section(acc: pd.DataFrame) -> Section:
    rows = [
        [r.condition, _pm(r.judged_correct_percent, r.judged_correct_sd)]
        for r in acc.itertuples(index=False)
        if r.condition != "all"
    ]
    return Section(
        "Confirmation bias: % of predictions judged correct",
        [Table(["model prediction", "% judged correct"], rows, "lr")],
    )


def _conditions_section(cond: pd.DataFrame) -> Section:
    rows = [
        [r.test, str(r.n), _stat(r.estimate, r.note, 1), _stat(r.t, r.note), num(r.dof, 1), p_value(r.p_val), r.note]
        for r in cond.itertuples(index=False)
    ]
    return Section(
        "Correct vs incorrect predictions (accuracy difference, points; two-sided)",
        [Table(["test", "n", "difference", "t", "dof", "p", "note"], rows, "lrrrrrl")],
    )


def _similarity_section(sim: pd.DataFrame) -> Section:
    rows = [
        [
            COEFFICIENT_NAMES[r.method],
            "yes" if r.hive_choice else "",
            _stat(r.r, r.note),
            interval(r.ci_low, r.ci_high),
            p_value(r.p_val),
            r.p_method if isinstance(r.p_method, str) else MISSING,
            str(r.n),
            str(r.n_ratings),
            r.note,
        ]
        for r in sim.itertuples(index=False)
    ]
    header = ["coefficient", "HIVE's", "r", "95 % CI", "p", "p from", "matches (n)", "ratings", "note"]
    return Section(
        "Similarity: people's ratings vs the model's scores, one value per match",
        [Table(header, rows, "llrrrlrrl")],
    )


def _understanding_section(und: pd.DataFrame) -> Section:
    rows = [
        [
            r.point,
            str(r.n),
            _pm(r.mean, r.sd) if r.kind == "point" else num(r.mean, 2),
            _stat(r.t, r.note) if r.kind != "point" else "",
            p_value(r.p_val) if r.kind != "point" else "",
            r.note,
        ]
        for r in und.itertuples(index=False)
    ]
    return Section(
        "Self-rated understanding (1–5; paired tests two-sided)",
        [Table(["", "n", "mean ± SD / change", "t", "p", "note"], rows, "lrrrrl")],
    )


def _tradeoff_section(trade: pd.DataFrame) -> Section:
    rows = [
        [
            r.risk,
            str(r.n),
            _pm(r.mean_gain, r.sd_gain),
            f"{r.n_below} / {r.n_equal} / {r.n_above}",
            _stat(r.t, r.note),
            p_value(r.p_val),
            num(r.published_gain, 1),
            r.note,
        ]
        for r in trade.itertuples(index=False)
    ]
    header = ["risk", "n", "ours", "below / at / above 0", "t", "p (gain > 0, one-sided)", "HIVE 2022", "note"]
    return Section(
        f"Interpretability–accuracy tradeoff: required accuracy gain over the stated {TRADEOFF_REFERENCE:g} % (points)",
        [Table(header, rows, "lrrrrrrl")],
    )


def _methods(report: HiveReport) -> str:
    """The Methods section (``methods.md``) of a HIVE report, stated from what the report computed: participants
    and what was left out, the accuracy estimator, the test against chance and its sidedness, the interval, the
    similarity correlation's unit and coefficient, and every statistic that could not be computed, with why; as
    Markdown (:func:`analysis.methods.methods_document`): paragraphs, software versions, references."""
    m, t = report.meta, report.tables
    task, method = report.task.name, METHOD_NAMES[m["method"]]
    refs = ["kim2022", "student1908"]
    paragraphs = [
        f"**Participants.** {m['n_participants']} participants completed the HIVE {task} task (Kim et al., 2022) "
        f"on {method} explanations, giving {m['n_trials']} test trials; {m['n_not_completed']} session(s) that were "
        f"not completed were left out and the {m['n_practice_trials']} preview trial(s) were not scored. As in HIVE, "
        "no participant was excluded: there is no outlier rule.",
        _accuracy_paragraph(report.task, m, t["accuracy"]),
    ]
    if len(t["conditions"]):
        refs.append("welch1947")
        paragraphs.append(_conditions_paragraph(t["conditions"]))
    if len(t["output_prediction"]):
        paragraphs.append(_output_paragraph(t["output_prediction"]))
    if len(t["similarity"]):
        refs += ["spearman1904", "fisher1921"]
        paragraphs.append(_similarity_paragraph(m, t["similarity"]))
    if len(t["understanding"]) or len(t["tradeoff"]):
        paragraphs.append(_survey_paragraph(t["understanding"], t["tradeoff"]))
    paragraphs.append(
        "No resampling or random numbers are involved: every interval is a t (or Fisher-z) interval, and every "
        "p-value a t-test's or an exact permutation count."
    )
    return methods_document(f"HIVE {task} study ({method})", paragraphs, refs)


def _verdicts(table: pd.DataFrame) -> str:
    """ " For the correct condition: …; <its note>." for each row with a note."""
    return "".join(f" For the {r.condition} condition: {r.verdict}; {r.note}." for r in table.itertuples() if r.note)


def _accuracy_paragraph(task: HiveTask, m: dict[str, Any], accuracy: pd.DataFrame) -> str:
    greater = m["alternative"] == "greater"
    side = (
        "one-sided (H1: the mean exceeds chance), because HIVE's Table 2 asks whether participants outperform chance"
        if greater
        else "two-sided, because HIVE's Table 1 marks accuracies not significantly different from chance"
    )
    return (
        "**Accuracy.** Each participant's accuracy is the percentage of their trials answered correctly"
        + (
            " (a confidence of 3–4 on HIVE's 4-point scale, higher = more confident the prediction is correct, counts "
            "as judging the prediction correct; the page stores the reverse order, 1 = fairly confident correct, "
            "converted as 5 − stored)"
            if task.agreement
            else ""
        )
        + ", computed for trials on which the model's prediction was correct, incorrect, and for all trials. We "
        f"report the mean and standard deviation over participants (ddof = {m['ddof']}), test the mean against "
        f"chance ({m['chance']:g} %) with a one-sample t-test (Student, 1908), {side}; significant at "
        f"p < {m['alpha']:g}, and give the interval that matches the test: the "
        + (
            "one-sided 95 % lower bound of the mean (mean − t(0.95, n − 1) · SD/√n)"
            if greater
            else "two-sided 95 % t interval of the mean"
        )
        + ", clipped to the accuracy scale [0, 100] %."
        + _verdicts(accuracy)
    )


def _conditions_paragraph(cond: pd.DataFrame) -> str:
    return (
        "**Correct against incorrect predictions.** Participants' accuracy on correct and on incorrect "
        "predictions was compared with Welch's two-sample t-test (Welch, 1947; HIVE's \"2-sample t-test\") "
        "and, since every participant saw both, with a paired t-test of their differences; both two-sided."
    ) + "".join(f" The {r.test} test was not run: {r.note}." for r in cond.itertuples() if r.note)


def _output_paragraph(output: pd.DataFrame) -> str:
    return (
        "**Output prediction.** In the same trials, participants also picked the option they thought the model "
        "predicted, with its own confidence (1–5), as HIVE asked of its GradCAM and BagNet participants; its "
        "accuracy is analysed as the output-prediction task's: mean ± SD over participants, one-sided "
        "one-sample t-test against 25 % chance with its one-sided 95 % lower bound, clipped to [0, 100] %."
    ) + _verdicts(output)


def _similarity_paragraph(m: dict[str, Any], sim: pd.DataFrame) -> str:
    first = sim.iloc[0]
    coef = SIMILARITY_COEFFICIENT.get(m["method"])
    text = (
        "**Similarity.** Each prototype match's similarity ratings (1–4) were averaged over the "
        f"participants who rated it ({first['n_ratings']} ratings by {first['n_participants']} participants) "
        f"and correlated with the model's similarity score over the n = {first['n']} matches, one value per "
        "match as in HIVE (whose p-values correspond to n = 10)"
    )
    text += (
        f", with {COEFFICIENT_NAMES[coef]}, HIVE's coefficient for {METHOD_NAMES[m['method']]}" if coef else ""
    ) + (
        "; Spearman's ρ (Spearman, 1904) and Pearson's r are both given, p two-sided: for ρ exact below "
        f"{EXACT_BELOW} matches (the share of all n! pairings at least as extreme), otherwise and for r from t "
        "with n − 2 degrees of freedom; Pearson's r with a 95 % Fisher-z interval (Fisher, 1921)."
    )
    if pd.notna(first["r"]) or not first["note"]:
        text += "".join(
            f" {COEFFICIENT_NAMES[r.method]}: {r.note}."
            for r in sim.itertuples()
            if r.note and not r.note.startswith("no interval for Spearman")
        )
    else:
        text += f" No correlation was computed: {first['note']}."
    counts = m["similarity_counts"]
    if counts["trials_mismatched"]:
        text += (
            f" {counts['trials_mismatched']} of the {counts['trials_rated']} rated trials were left out "
            "because their number of ratings differs from the number of model scores."
        )
    return text


def _survey_paragraph(und: pd.DataFrame, trade: pd.DataFrame) -> str:
    text = (
        "**Survey answers.** Self-rated understanding (1–5) at the three points is reported as mean ± SD and "
        "compared between points with two-sided paired t-tests; the interpretability–accuracy tradeoff as the "
        f"accuracy gain over the stated {TRADEOFF_REFERENCE:g} % (this product's reference; HIVE states none) a "
        "model without explanations would need, mean ± SD, with the number of participants whose gain is below, "
        "at and above 0 (any accuracy 0–100 % is accepted) and a one-sided one-sample t-test of H1: gain > 0 "
        "(HIVE reports the means only)."
    )
    text += "".join(f" Understanding {r.point}: {r.note}." for r in und.itertuples() if r.note)
    return text + "".join(f" Tradeoff, {r.risk} risk: {r.note}." for r in trade.itertuples() if r.note)


# --------------------------------------------------------------------------------------------------
# Figures (matplotlib without pyplot: safe in a server process)
#
# * ``accuracy.png``: mean accuracy per condition (model correct / incorrect / all), error bars ± 1 SD over
#   participants (ddof = 1), HIVE's published mean ± SD beside ours where the study matches, chance as a line.
# * ``understanding.png``: self-rated understanding at the three points, ± 1 SD.
# * ``tradeoff.png``: required accuracy gain per risk level, ± 1 SD, HIVE's published means as markers.

DPI = 120
OURS, THEIRS = "#1f5fbf", "#9aa4ae"


def _bars(path: Path, labels, means, sds, title: str, ylabel: str, published=None, hline=None, ylim=None) -> Path:
    fig = Figure(figsize=(6, 4), dpi=DPI)
    ax = fig.add_subplot()
    x = np.arange(len(labels))
    width = 0.38 if published is not None else 0.6
    ax.bar(
        x - (width / 2 if published is not None else 0),
        means,
        width,
        yerr=np.nan_to_num(sds),
        capsize=4,
        color=OURS,
        label="ours (± 1 SD)",
    )
    if published is not None:
        pub_means, pub_sds = published
        ax.bar(
            x + width / 2,
            pub_means,
            width,
            yerr=np.nan_to_num(pub_sds),
            capsize=4,
            color=THEIRS,
            label="HIVE 2022 (± 1 SD)",
        )
    if hline is not None:
        ax.axhline(hline, color="black", linestyle="--", linewidth=1, label=f"chance ({hline:g})")
    ax.set_xticks(x, labels)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if ylim:
        ax.set_ylim(*ylim)
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    fig.savefig(path)
    return path


def write_hive_figures(report: HiveReport, out_dir: Path) -> list[Path]:
    """Write the report's bar plots into ``out_dir``; return their paths (plots without data are skipped)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    acc = report.tables["accuracy"]
    m = report.meta
    has_published = acc["published_mean"].notna().any()
    written.append(
        _bars(
            out_dir / "accuracy.png",
            [f"model {c}" if c != "all" else "all" for c in acc["condition"]],
            acc["mean"].to_numpy(float),
            acc["sd"].to_numpy(float),
            f"{METHOD_NAMES[m['method']]}: accuracy by model prediction (n = {m['n_participants']})",
            "accuracy (%)",
            published=(acc["published_mean"].to_numpy(float), acc["published_sd"].to_numpy(float))
            if has_published
            else None,
            hline=m["chance"],
            ylim=(0, 110),
        )
    )
    und = report.tables["understanding"]
    points = und[und["kind"] == "point"]
    if len(points):
        written.append(
            _bars(
                out_dir / "understanding.png",
                list(points["point"]),
                points["mean"].to_numpy(float),
                points["sd"].to_numpy(float),
                "Self-rated understanding",
                "rating (1–5)",
                ylim=(0, 5.5),
            )
        )
    trade = report.tables["tradeoff"]
    if len(trade):
        written.append(
            _bars(
                out_dir / "tradeoff.png",
                [f"{r} risk" for r in trade["risk"]],
                trade["mean_gain"].to_numpy(float),
                trade["sd_gain"].to_numpy(float),
                "Accuracy a model without explanations must gain",
                "gain (points)",
                published=(trade["published_gain"].to_numpy(float), np.full(len(trade), np.nan)),
            )
        )
    return written
