"""The report of a sketch-recognition study: the measures of :mod:`analysis.sketch_statistics` for people and the
imported models, its sections, Methods paragraphs and accuracy figure (rendered as every report is:
:class:`analysis.reports.report.Report`)."""

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
from ..sketch_statistics import (
    ALIGNMENT_COLUMNS,
    CELL,
    CI_STRATIFIED,
    ENTROPY_BASES,
    RELIABILITY_COLUMNS,
    accuracy_by_level,
    catch_failures,
    human_model_alignment,
    semantic_neighbour_preference,
    sketch_measures,
    split_half_reliability,
)
from .exclusions import exclusion_note
from .methods import methods_document
from .render import Document, Items, Paragraph, Section, Table, cell
from .report import Report

__all__ = ["SketchReport", "accuracy_plot", "sketch_report"]


@dataclass
class SketchReport(Report):
    """Everything :func:`sketch_report` computed: ``tables`` (accuracy, entropy, snp, reliability, alignment, catch,
    sketches) and ``meta`` (counts, options, notes)."""

    csv_tables = ("accuracy", "entropy", "snp", "reliability", "alignment", "catch", "sketches")

    def document(self, brief: bool = False) -> Document:
        return _document(self)

    def methods(self) -> str:
        return _methods(self)

    def figures(self, out_dir) -> list[Path]:
        return [accuracy_plot(self, Path(out_dir) / "accuracy_by_level.png")]


ALIGNMENT_BOOT_SHARE = 10  # the alignment bootstrap refits a regression per resample: a tenth of n_boot


def sketch_report(
    trials: pd.DataFrame,
    model_responses: pd.DataFrame | None = None,
    similarity: pd.DataFrame | None = None,
    *,
    n_boot: int = 2000,
    n_splits: int = 100,
    seed: int = 0,
    meta: dict[str, Any] | None = None,
) -> SketchReport:
    """Everything `flask analyze` reports for a sketch study.

    Parameters
    ----------
    trials : completed participants' test trials: participant_id, sketch_id, concept, abstraction_level, producer,
        catch, catch_failed, guess_1 … guess_3.
    model_responses : models' answers in the responses format (observer, run, sketch_id, concept, …, guess_1 …
        guess_3, optional probability_entropy), or None.
    similarity : concept × concept similarity (square, ids as index and columns), or None (no SNP).
    """
    check_frame(trials, keys=["participant_id", "sketch_id"], where="sketch_report")
    catch = trials["catch"].astype(bool)
    people = trials[~catch].assign(observer="human")
    responses = (
        people
        if model_responses is None or model_responses.empty
        else pd.concat([people, model_responses], ignore_index=True)
    )
    measures = sketch_measures(responses, similarity)
    n_boot_alignment = max(1, n_boot // ALIGNMENT_BOOT_SHARE)
    notes = _catch_and_entropy_notes(catch, measures)
    snp = _snp(responses, similarity, notes)
    reliability = _reliability(people, n_splits, seed, similarity, notes)
    alignment = _alignment(measures, n_boot, n_boot_alignment, seed, notes)
    notes += _row_notes(reliability, alignment)
    accuracy = accuracy_by_level(responses, n_boot=n_boot, seed=seed)
    notes += _ci_methods(accuracy, alignment)
    notes += _few_units(accuracy, alignment)
    tables = {
        "accuracy": accuracy,
        "entropy": measures.groupby([*CELL, "entropy_basis"], as_index=False).agg(
            n_sketches=("entropy", "size"), mean_entropy=("entropy", "mean"), sd_entropy=("entropy", "std")
        ),
        "snp": snp,
        "reliability": reliability,
        "alignment": alignment,
        "catch": catch_failures(trials),
        "sketches": measures,
    }
    meta = {
        **(meta or {}),
        "n_participants": int(trials["participant_id"].nunique()),
        "n_responses": int(len(people)),
        "n_catch_responses": int(catch.sum()),
        "models": sorted(set(responses["observer"]) - {"human"}),
        "similarity": similarity is not None,
    }
    meta.update(n_boot=n_boot, n_boot_alignment=n_boot_alignment, n_splits=n_splits, seed=seed, notes=notes)
    return SketchReport(meta, tables)


def _catch_and_entropy_notes(catch: pd.Series, measures: pd.DataFrame) -> list[str]:
    """Catch answers are not measured; observers whose entropy is not a response distribution's say so."""
    notes = (
        [f"{int(catch.sum())} answer(s) to catch sketches are attention checks, not counted in the measures"]
        if catch.any()
        else []
    )
    return notes + [
        f"entropy of {observer}: {ENTROPY_BASES[basis]}"
        for (observer, basis), _ in measures.groupby(["observer", "entropy_basis"])
        if basis in ("runs", "none")
    ]


def _snp(responses: pd.DataFrame, similarity: pd.DataFrame | None, notes: list[str]) -> pd.DataFrame:
    """Mean semantic neighbour preference per observer × producer × level; empty without a semantic space."""
    if similarity is None:
        notes.append("SNP: not computed, the study names no semantic_space")
        return pd.DataFrame(columns=[*CELL, "n_groups", "mean_snp"])
    per_group = semantic_neighbour_preference(responses, similarity)
    snp = per_group.groupby(CELL, as_index=False).agg(n_groups=("snp", "size"), mean_snp=("snp", "mean"))
    groups = responses.groupby(["observer", "producer", "concept", "abstraction_level"]).ngroups
    if groups > len(per_group):
        notes.append(
            f"SNP: {groups - len(per_group)} of {groups} observer × concept × level groups have no "
            "off-target top-1 guess, so no SNP, and are left out of mean_snp"
        )
    return snp


def _reliability(people, n_splits: int, seed: int, similarity, notes: list[str]) -> pd.DataFrame:
    """Split-half reliability of people's measures; empty (and a note) with fewer than two participants."""
    n_people = int(people["participant_id"].nunique())
    if n_people >= 2:
        return split_half_reliability(people, n_splits=n_splits, seed=seed, similarity=similarity)
    notes.append(f"split-half reliability: not computed, {n_people} participant (it needs at least 2)")
    return pd.DataFrame(columns=RELIABILITY_COLUMNS)


def _alignment(measures: pd.DataFrame, n_boot: int, n_boot_alignment: int, seed: int, notes: list[str]):
    alignment = human_model_alignment(measures, n_boot=n_boot_alignment, seed=seed)
    if not alignment.empty:
        notes.append(
            f"alignment intervals: {n_boot_alignment} resamples, a tenth of n_boot = {n_boot}, since each "
            "refits the regression"
        )
    return alignment


def _row_notes(reliability: pd.DataFrame, alignment: pd.DataFrame) -> list[str]:
    notes = [
        f"reliability ({r.producer}, {r.measure}): {r.note}" for r in reliability.itertuples(index=False) if r.note
    ]
    return notes + [
        f"alignment ({r.observer}, {r.producer}, {r.measure}): {r.note}"
        for r in alignment.itertuples(index=False)
        if r.note
    ]


def _ci_methods(accuracy: pd.DataFrame, alignment: pd.DataFrame) -> list[str]:
    """One note per interval table and resampling other than the benchmark's (``ci_method``): where its strata hold
    one sketch, the stratified bootstrap would redraw the same sketches and have no width."""
    notes = []
    for name, table in (("accuracy", accuracy), ("alignment", alignment)):
        other = table[~table["ci_method"].isin([CI_STRATIFIED, ""])]
        for method, rows in other.groupby("ci_method"):
            notes.append(
                f"{name} intervals of {len(rows)} of {len(table)} rows: {method}, since sketches resampled within "
                "concept × level (the benchmark's bootstrap) would redraw the same sketches and have no width"
            )
    return notes


def _few_units(accuracy: pd.DataFrame, alignment: pd.DataFrame) -> list[str]:
    """Warnings for the intervals that resample fewer than :data:`SMALL_SAMPLE` sketches, one per number of sketches:
    the accuracy ones quote the coverage `make validate` measured at that n (analysis.coverage; issue #23 point 3);
    the alignment ones were not measured, and say so."""
    notes = []
    few = accuracy[accuracy["n_sketches"] < SMALL_SAMPLE]
    for n, cells in few.groupby("n_sketches"):
        names = ", ".join(f"{r.observer}/{r.producer}/{r.abstraction_level:g}" for r in cells.itertuples(index=False))
        measured = "; ".join(small_sample_note(int(n), "sketches", s) for s in ("top1_accuracy", "top3_accuracy"))
        notes.append(
            f"accuracy intervals of {len(cells)} of {len(accuracy)} observer × producer × level cells resample fewer "
            f"than {SMALL_SAMPLE} sketches ({names}): {measured}"
        )
    few = alignment[(alignment["n_sketches"] < SMALL_SAMPLE) & alignment["adjusted_r2_ci_low"].notna()]
    if len(few):
        rows = ", ".join(f"{r.observer}/{r.producer}/{r.measure}" for r in few.itertuples(index=False))
        notes.append(
            f"alignment intervals of {len(few)} row(s) resample fewer than {SMALL_SAMPLE} sketches ({rows}): a "
            "percentile bootstrap over so few units covers less than 95 % (its coverage is not measured)"
        )
    return notes


def _cell(column: str, value) -> str:
    """A table cell: abstraction levels as the study gives them (2, not 2.000), other floats with 3 decimals."""
    if column == "abstraction_level" and isinstance(value, (float, np.floating)) and math.isfinite(value):
        return f"{value:g}"
    return cell(value)


def _table(df: pd.DataFrame, columns: list[str], header: dict[str, str] | None = None) -> Table:
    """The columns of a result table: numbers right-aligned; ``header`` renames a column where its name alone would
    misread (a mean printed as a count)."""
    align = "".join("r" if pd.api.types.is_numeric_dtype(df[c]) else "l" for c in columns)
    rows = [[_cell(c, v) for c, v in zip(columns, row)] for row in df[columns].itertuples(index=False)]
    return Table([(header or {}).get(c, c) for c in columns], rows, align)


#: The columns each section of the report shows, in order.
ACCURACY_SHOWN = [
    "observer",
    "producer",
    "abstraction_level",
    "n_sketches",
    "n_responses",
    "top1_accuracy",
    "top1_ci_low",
    "top1_ci_high",
    "top3_accuracy",
    "ci_method",
]
ENTROPY_SHOWN = ["observer", "producer", "abstraction_level", "entropy_basis", "n_sketches", "mean_entropy"]
SNP_SHOWN = ["observer", "producer", "abstraction_level", "n_groups", "mean_snp"]
RELIABILITY_SHOWN = [
    "producer",
    "measure",
    "n_sketches",
    "pearson_r",
    "spearman_brown",
    "adjusted_r2",
    "n_splits_undefined",
]
ALIGNMENT_SHOWN = [c for c in ALIGNMENT_COLUMNS if c != "note"]  # row notes go under the table
ENTROPY_HEADING = (
    "Response entropy (bits) per sketch (basis: answers = people's top-1 guesses, probabilities = a "
    "model's class probabilities, runs = a ranks-only model's top-1 labels across runs, not a response "
    "distribution; none = one answer per sketch, not computed)"
)


def _document(report: SketchReport) -> Document:
    m, t = report.meta, report.tables
    doc = Document(
        f"{m.get('title', '')} ({m.get('slug', '')})",
        [
            f"{m['n_participants']} participants, {m['n_responses']} answers to test sketches; models: "
            f"{', '.join(m['models']) or 'none imported'}",
            *filter(None, [exclusion_note(m)]),
        ],
        [
            Section(
                "Accuracy by abstraction level (95% CI: bootstrap, resampling as ci_method says)",
                [_table(t["accuracy"], ACCURACY_SHOWN)],
            ),
            Section(ENTROPY_HEADING, [_table(t["entropy"], ENTROPY_SHOWN)]),
            Section(
                "Semantic neighbour preference (AUC; 0.5 = unrelated guesses)",
                [
                    _table(t["snp"], SNP_SHOWN)
                    if m["similarity"]
                    else Paragraph("(no semantic_space given in the study's [task] table)")
                ],
            ),
            Section(
                "Split-half human reliability (mean over splits)",
                [_table(t["reliability"], RELIABILITY_SHOWN, {"n_sketches": "n_sketches (mean over splits)"})],
            ),
            Section(
                f"Human–model alignment (adjusted R² of model ~ human × level; 95% CI: "
                f"{m.get('n_boot_alignment', '?')} resamples, as ci_method says)",
                [_table(t["alignment"], ALIGNMENT_SHOWN)],
            ),
            _catch_section(t["catch"]),
        ],
    )
    if m.get("notes"):
        doc.sections.append(Section("Notes", [Items(m["notes"])]))
    return doc


def _catch_section(catch: pd.DataFrame) -> Section:
    failed = catch[catch["n_failed"] > 0] if not catch.empty else catch
    return Section(
        f"Attention checks: {len(catch)} participants saw a catch sketch, {len(failed)} failed",
        [_table(failed, ["participant_id", "n_catch", "n_failed", "failed_sketches"])],
    )


def accuracy_plot(report: SketchReport, path: Path) -> Path:
    """Top-1 and top-3 accuracy by abstraction level, one line per observer and producer, with the bootstrap
    intervals, saved as a PNG at ``path``; returns ``path``."""
    # The Figure API, not pyplot: the dashboard draws this inside server threads, and pyplot's state is global.
    fig = Figure(figsize=(10, 4))
    axes = fig.subplots(1, 2, sharey=True)
    acc = report.tables["accuracy"]
    for ax, measure in zip(axes, ("top1", "top3")):
        for (observer, producer), group in acc.groupby(["observer", "producer"]):
            group = group.sort_values("abstraction_level")
            value = group[f"{measure}_accuracy"]
            ax.errorbar(
                group["abstraction_level"],
                value,
                marker="o",
                capsize=3,
                yerr=[value - group[f"{measure}_ci_low"], group[f"{measure}_ci_high"] - value],
                label=f"{observer} on {producer} sketches",
            )
        ax.set_xscale("log", base=2)
        ax.set_xlabel("abstraction level (drawing time s / strokes)")
        ax.set_title(f"top-{measure[-1]} accuracy")
        ax.set_ylim(0, 1)
    axes[0].set_ylabel("proportion correct")
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return path


def _methods(report: SketchReport) -> str:
    """The Methods section (``methods.md``) of a sketch-recognition report, stated from what it computed: who and
    what was analysed, each measure with its formula's source, the bootstraps (resamples, strata, seed), the
    split-half procedure, and what was left out; Markdown (:func:`analysis.methods.methods_document`)."""
    m, t = report.meta, report.tables
    models = ", ".join(m["models"]) or "none"
    paragraphs = [
        f"**Participants and answers.** {m['n_participants']} participants completed the recognition task of the "
        f"sketch-abstraction benchmark (Mukherjee et al., 2023), giving {m['n_responses']} answers to test sketches "
        f"(one to three ranked guesses from a fixed vocabulary); {m['n_catch_responses']} answers to catch sketches "
        f"are attention checks ({len(t['catch'])} participants saw one, "
        f"{int((t['catch']['n_failed'] > 0).sum()) if len(t['catch']) else 0} failed) and are not counted. There is "
        f"no outlier rule. Models compared: {models}.",
        "**Measures.** Per observer, producer and abstraction level: top-1 and top-3 accuracy (the share of answers "
        "whose first, or any, guess is the concept's unique id); per sketch, the Shannon entropy in bits of the top-1 "
        "guesses (Shannon, 1948; for models with class probabilities, of the renormalised distribution)"
        + (
            "; and the semantic neighbour preference, 1 − the mean normalised semantic rank of off-target top-1 "
            "guesses (the area under their cumulative distribution)"
            if m["similarity"]
            else "; semantic neighbour preference was not computed (no semantic space given)"
        )
        + ". An observer with one answer per sketch and no class probabilities (one participant; a model imported "
        "with ranks only and run once) has no response distribution, so no entropy; a ranks-only model run several "
        "times gets the entropy of its runs' top-1 labels, which is labelled as such (entropy_basis) and is not a "
        "response entropy.",
        f"**Intervals.** Accuracy intervals are 95 % percentile bootstrap intervals (Efron & Tibshirani, 1993) from "
        f"{m['n_boot']:,} resamples, seed {m['seed']}: of the sketches within each concept × abstraction-level "
        "stratum (each sketch bringing all its answers), as the benchmark did, where every stratum holds at least two "
        "sketches; where a stratum holds one, that bootstrap would redraw the same sketches and have no width, so the "
        "concepts were resampled instead, each with all its sketches (a cluster bootstrap, which also counts the "
        "spread between concepts), and a cell of one sketch resampled its answers; ci_method names the resampling "
        "of each interval.",
    ]
    if len(t["reliability"]):
        paragraphs.append(_ceiling_paragraph(m))
    if len(t["alignment"]):
        paragraphs.append(_alignment_paragraph(m))
    if m.get("notes"):
        paragraphs.append("**Left out and degraded.** " + " ".join(f"{n[0].upper()}{n[1:]}." for n in m["notes"]))
    return methods_document(
        f"sketch recognition{' — ' + m['title'] if m.get('title') else ''}",
        paragraphs,
        ["mukherjee2023", "shannon1948", "efron1993", "spearman1910"],
    )


def _ceiling_paragraph(m: dict[str, Any]) -> str:
    return (
        f"**Human ceiling.** Split-half reliability: in each of {m['n_splits']} random splits of the participants "
        "into halves (seed "
        f"{m['seed']}), the per-sketch measures of the halves were correlated (Pearson r), "
        "corrected by Spearman–Brown, r_sb = 2r / (1 + r) (Spearman, 1910; Brown, 1910), and compared by the "
        "adjusted R² of half_b ~ half_a × level; the means over splits are reported, splits where r is undefined "
        "left out (counted in n_splits_undefined)."
    )


def _alignment_paragraph(m: dict[str, Any]) -> str:
    return (
        "**Human–model alignment.** Per model, producer and measure, the Pearson r of the per-sketch human and "
        "model values and the adjusted R² of the OLS fit model ~ human × abstraction level, with a 95 % "
        f"percentile interval from {m['n_boot_alignment']:,} resamples (a tenth of the accuracy bootstrap's, since "
        "each resample refits the regression) of sketches within concept × level, or of concepts where a stratum "
        "holds one sketch (ci_method); sketches answered by one side "
        "only or without a defined measure are left out and counted (n_left_out)."
    )
