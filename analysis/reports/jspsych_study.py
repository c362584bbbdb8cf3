"""The report of a researcher's own jsPsych experiment (task type ``jspsych``): completion, time in the experiment,
response times per trial type and accuracy where the rows hold ``correct``, from
:mod:`analysis.jspsych_statistics`, with its figures (rendered as every report is:
:class:`analysis.reports.report.Report`).

The experiment's design is the researcher's, so the report describes rather than tests: what was recorded, by whom,
how fast and how accurately. What the data do not allow (no ``rt``, no ``correct``, one participant) is said in
words, and the tables stay empty rather than holding made-up numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .._checks import check_frame
from ..jspsych_statistics import (
    NO_TYPE,
    accuracy_by_trial_type,
    as_correct,
    completion,
    participant_summary,
    rt_by_trial_type,
)
from .exclusions import exclusion_note
from .methods import methods_document
from .render import Document, Items, Paragraph, Section, Table, cell, num
from .report import Report

__all__ = ["JsPsychReport", "jspsych_report"]


@dataclass
class JsPsychReport(Report):
    """Everything :func:`jspsych_report` computed: ``tables`` (completion, participants, rt, accuracy) and ``meta``
    (counts, which columns the rows hold, notes)."""

    csv_tables = ("completion", "participants", "rt", "accuracy")

    def document(self, brief: bool = False) -> Document:
        return _document(self)

    def methods(self) -> str:
        return _methods(self)

    def figures(self, out_dir) -> list[Path]:
        out = Path(out_dir)
        drawn = []
        if not self.tables["rt"].empty:
            drawn.append(rt_plot(self, out / "rt_by_trial_type.png"))
        if not self.tables["accuracy"].empty:
            drawn.append(accuracy_plot(self, out / "accuracy_by_participant.png"))
        return drawn


def jspsych_report(
    sessions: pd.DataFrame, trials: pd.DataFrame, *, meta: dict[str, Any] | None = None
) -> JsPsychReport:
    """Everything `flask analyze` reports for a jsPsych experiment.

    Parameters
    ----------
    sessions : every recruited session: participant_id, status.
    trials : the completed participants' rows: participant_id, created_at (ISO 8601, when the server stored the row)
        and whatever columns the experiment recorded (trial_type, rt, time_elapsed and correct are used if present).
    meta : counts and names from the caller (slug, title, exclusions), kept in the report's meta.

    Returns
    -------
    JsPsychReport
    """
    check_frame(sessions, keys=["participant_id", "status"], where="jspsych_report")
    check_frame(trials, keys=["participant_id"], where="jspsych_report")
    notes = []
    has = {column: column in trials for column in ("trial_type", "rt", "time_elapsed", "correct")}
    if not has["trial_type"]:
        notes.append(f"the rows hold no trial_type column: all rows are reported as {NO_TYPE!r}")
    if has["rt"]:
        rt = pd.to_numeric(trials["rt"].map(lambda v: np.nan if isinstance(v, bool) else v), errors="coerce")
        rt = rt.where(np.isfinite(rt))  # digits beyond any float (analysis.jspsych_data's cells) read as infinite
        unreadable = int((rt.isna() & trials["rt"].notna()).sum())
        if unreadable:
            notes.append(f"{unreadable} rt value(s) are not numbers and are left out of the response times")
    else:
        notes.append("the rows hold no rt column: no response times")
    if has["correct"]:
        unreadable = int((as_correct(trials["correct"]).isna() & trials["correct"].notna()).sum())
        if unreadable:
            notes.append(
                f"{unreadable} correct value(s) are neither true/false nor 1/0 and are left out of the accuracy"
            )
    else:
        notes.append("the rows hold no correct column: no accuracy")
    if not has["time_elapsed"]:
        notes.append("the rows hold no time_elapsed column: time in the experiment is from the server's clock only")
    participants = participant_summary(trials)
    if len(participants) == 1:
        notes.append("one participant: no spread between participants (SD of their accuracies) is computed")
    tables = {
        "completion": completion(sessions),
        "participants": participants,
        "rt": rt_by_trial_type(trials),
        "accuracy": accuracy_by_trial_type(trials),
    }
    meta = {
        **(meta or {}),
        "recruited": len(sessions),
        "n_participants": int(len(participants)),
        "n_rows": int(len(trials)),
        "columns": {k: bool(v) for k, v in has.items()},
        "median_time_elapsed_s": _median(participants["time_elapsed_s"]),
        "median_saved_span_s": _median(participants["saved_span_s"]),
        "notes": notes,
    }
    return JsPsychReport(meta, tables)


def _median(values: pd.Series) -> float | None:
    values = values.dropna()
    return float(values.median()) if len(values) else None


def _table(df: pd.DataFrame, columns: list[str]) -> Table:
    align = "".join("r" if pd.api.types.is_numeric_dtype(df[c]) else "l" for c in columns)
    return Table(columns, [[cell(v) for v in row] for row in df[columns].itertuples(index=False)], align)


def _document(report: JsPsychReport) -> Document:
    m, t = report.meta, report.tables
    done = t["completion"].set_index("status")["n_sessions"]
    lead = [
        f"{m['recruited']} session(s) recruited, {int(done.get('completed', 0))} completed; "
        f"{m['n_rows']} rows from {m['n_participants']} completed participant(s) analysed",
        f"median time in the experiment: {num(m['median_time_elapsed_s'], 1)} s (jsPsych's time_elapsed), "
        f"{num(m['median_saved_span_s'], 1)} s from the first to the last stored row",
        *filter(None, [exclusion_note(m)]),
    ]
    sections = [
        Section("Completion", [_table(t["completion"], ["status", "n_sessions", "share"])]),
        Section(
            "Response times by trial type (ms; rows with a numeric rt)",
            [
                _table(t["rt"], list(t["rt"].columns))
                if not t["rt"].empty
                else Paragraph("No response times: no row holds a numeric rt.")
            ],
        ),
        Section(
            "Accuracy by trial type (rows with a readable correct)",
            [
                _table(t["accuracy"], list(t["accuracy"].columns))
                if not t["accuracy"].empty
                else Paragraph(
                    "No accuracy: no row holds a readable correct value"
                    if m["columns"]["correct"]
                    else "No accuracy: the rows hold no correct column (an experiment records one in on_finish)."
                )
            ],
        ),
        Section("Participants", [_table(t["participants"], list(t["participants"].columns))]),
    ]
    if m["notes"]:
        sections.append(Section("Notes", [Items(m["notes"])]))
    return Document(f"{m.get('title', '')} ({m.get('slug', '')})", lead, sections)


def rt_plot(report: JsPsychReport, path: Path) -> Path:
    """Response times by trial type: the trial-level median with the mean of the participants' medians, as bars;
    saved as a PNG at ``path``; returns ``path``."""
    # The Figure API, not pyplot: the dashboard draws figures inside server threads, and pyplot's state is global.
    rt = report.tables["rt"]
    fig = Figure(figsize=(max(4, 1.2 * len(rt) + 2), 4))
    ax = fig.subplots()
    x = np.arange(len(rt))
    ax.bar(x - 0.2, rt["median_rt_ms"], width=0.4, label="median of trials")
    ax.bar(x + 0.2, rt["mean_of_medians_ms"], width=0.4, label="mean of participants' medians")
    ax.set_xticks(x, rt["trial_type"], rotation=20, ha="right")
    ax.set_ylabel("response time (ms)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return path


def accuracy_plot(report: JsPsychReport, path: Path) -> Path:
    """Each participant's accuracy over their scored rows, sorted, as bars; saved as a PNG at ``path``; returns
    ``path``."""
    people = report.tables["participants"].dropna(subset=["accuracy"]).sort_values("accuracy")
    fig = Figure(figsize=(max(4, 0.3 * len(people) + 2), 4))
    ax = fig.subplots()
    ax.bar(np.arange(len(people)), people["accuracy"])
    ax.set_xticks(np.arange(len(people)), people["participant_id"].astype(str), rotation=90, fontsize=7)
    ax.set_xlabel("participant")
    ax.set_ylabel("proportion correct")
    ax.set_ylim(0, 1)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return path


def _methods(report: JsPsychReport) -> str:
    """``methods.md`` of a jsPsych experiment's report, stated from what it computed."""
    m = report.meta
    paragraphs = [
        f"**Participants.** {m['recruited']} sessions were recruited; {m['n_participants']} participants completed "
        f"the experiment and their {m['n_rows']} recorded rows are analysed (sessions that did not complete, or "
        "that researchers excluded, are not). The experiment ran in jsPsych; each row is the data jsPsych recorded "
        "for one trial, stored by studyhive as the trial ended.",
        "**Time.** Time in the experiment is jsPsych's time_elapsed of a participant's last row (the page's clock, "
        "restarted by a reload) and, independently, the span from the first to the last row stored by the server.",
    ]
    if m["columns"]["rt"]:
        paragraphs.append(
            "**Response times.** Per trial type (jsPsych's trial_type), over rows with a numeric rt: the mean, SD "
            "and median of the trials and the mean of the participants' medians. No outlier rule is applied."
        )
    if m["columns"]["correct"]:
        paragraphs.append(
            "**Accuracy.** Per trial type, the share of rows whose correct value is true (true/false or 1/0; other "
            "values are left out), and the SD of the participants' own shares."
        )
    if m["notes"]:
        paragraphs.append("**Left out and degraded.** " + " ".join(f"{n[0].upper()}{n[1:]}." for n in m["notes"]))
    return methods_document(f"jsPsych experiment{' — ' + m['title'] if m.get('title') else ''}", paragraphs, [])
