"""The one way a study is analysed, for `flask analyze` (server/cli/analyze.py) and the dashboard's results page
alike: :func:`run_analysis` finds the study's task type's analyzer (Analysed.analyzer), refuses options it does not
use, loads everything in one database snapshot, checks that there is something to analyse, computes the report
and returns it as an :class:`AnalysisResult`; the report renders itself, the same way for every task type.
Problems are AnalysisError, with a message for the user.

The analyzers live in the task packages (server/tasks/<type>/analyzer.py); the statistics in the Flask-free
`analysis` package. The helpers below are what several analyzers read the same way."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.reports.report import Report

from ..db import db, snapshot
from ..exceptions import AnalysisError
from ..models import ParticipantSession, Study
from ..studies.definitions import get_study
from ..tasktype.contract import Analysed, Analyzer
from ..tasktype.registry import registry

#: The command line's spelling of each option, for messages about them.
FLAGS = {
    "mlae": "--mlae",
    "exclude_outliers": "--exclude-outliers/--keep-outliers",
    "n_boot": "--n-boot",
    "seed": "--seed",
}


@dataclass(frozen=True)
class Options:
    mlae: str = "pooled"  # the published rows' estimator (ratio estimation); --mlae participant for Haehn et al.'s
    exclude_outliers: bool = True
    n_boot: int = 10_000
    seed: int = 0
    # The options the user set (on the command line): refused when the study's analysis does not use them.
    given: frozenset[str] = frozenset()


@dataclass
class AnalysisResult:
    """A computed report (analysis.reports.report.Report: text, Markdown, JSON, methods, figures, a folder) and the
    study it is of."""

    study: Study  # detached: slug, title and task type stay readable
    report: Report

    def tables(self) -> dict[str, pd.DataFrame]:
        """The report's tables that are written as CSV, in order."""
        return {name: self.report.tables[name] for name in self.report.csv_tables}

    def figures(self) -> list[tuple[str, bytes]]:
        """(name, PNG bytes) of every figure `--out` writes."""
        with tempfile.TemporaryDirectory() as tmp:
            return [(path.stem, path.read_bytes()) for path in self.report.figures(Path(tmp))]

    def outliers(self) -> list[dict[str, Any]]:
        """Participants the analysis marks as outliers (with the reason), for the studies whose analysis has them."""
        participants = self.report.tables.get("participants")
        if participants is None or "outlier" not in participants:
            return []
        return participants.loc[participants["outlier"].astype(bool)].to_dict("records")


def run_analysis(slug: str, options: Options) -> AnalysisResult:
    """Analyse study `slug` as `options` ask; raise AnalysisError saying why not."""
    with snapshot():
        study = get_study(slug)
        if study is None:
            raise AnalysisError(f"no study named {slug!r} (see `flask studies list`)")
        task = registry().get(study.task_type)
        if not isinstance(task, Analysed):
            supported = sorted(i for i in registry().ids() if isinstance(registry().get(i), Analysed))
            raise AnalysisError(
                f"flask analyze does not support task type {study.task_type!r} (study {slug!r}) "
                f"yet; supported: {', '.join(supported)}"
            )
        analyzer = task.analyzer
        _check_options(analyzer, study, options)
        data = analyzer.load(study, options)
        db.session.expunge(study)  # keep slug/title readable after the snapshot ends
    _check_completed(study, data)
    try:
        report = analyzer.compute(study, data, options)
    except ValueError as exc:  # the analysis package names the input problem
        raise AnalysisError(f"cannot analyse {slug!r}: {exc}") from None
    return AnalysisResult(study, report)


def _check_options(analyzer: Analyzer, study: Study, options: Options) -> None:
    unused = sorted(options.given - analyzer.options)
    if unused:
        uses = ", ".join(FLAGS[name] for name in sorted(analyzer.options)) or "none of them"
        raise AnalysisError(
            f"{', '.join(FLAGS[name] for name in unused)}: not used by the analysis of "
            f"{study.task_type} studies (study {study.slug!r}; it uses {uses})"
        )
    most = analyzer.max_n_boot
    if "n_boot" in options.given and most and options.n_boot > most:
        raise AnalysisError(f"--n-boot: {study.task_type} studies take at most {most:,} resamples")


def _check_completed(study: Study, data: dict[str, Any]) -> None:
    """Refuse a study without a completed participant who has a (test) trial: there is nothing to analyse."""
    sessions, trials = data["sessions"], data["trials"]
    done = set(sessions.loc[sessions["status"] == "completed", "participant_id"])
    if done and not trials.empty:
        analysed = trials["participant_id"].isin(done)
        if "practice" in trials:
            analysed &= ~trials["practice"].astype(bool)
        if analysed.any():
            return
    raise AnalysisError(
        f"study {study.slug!r} has no completed participants yet ({len(sessions)} session(s) "
        f"recruited, {len(done)} completed); nothing to analyse"
    )


def load_sessions(study: Study) -> pd.DataFrame:
    PS = ParticipantSession
    rows = (
        db.session.execute(
            db.select(PS.id.label("participant_id"), PS.status, PS.exclusion_reason)
            .where(PS.study_id == study.id)
            .order_by(PS.id)
        )
        .mappings()
        .all()
    )
    return pd.DataFrame(rows, columns=["participant_id", "status", "exclusion_reason"])


def completed(data: dict[str, Any]) -> pd.DataFrame:
    """The trials of completed sessions."""
    sessions, trials = data["sessions"], data["trials"]
    return trials[trials["participant_id"].isin(sessions.loc[sessions["status"] == "completed", "participant_id"])]


def exclusions(sessions: pd.DataFrame) -> dict[str, Any]:
    """Sessions a researcher excluded (`flask participants exclude`), for a report's meta: how many, and how many
    for each reason given. Every analysis uses completed sessions only, so these are already left out."""
    excluded = sessions.loc[sessions["status"] == "excluded", "exclusion_reason"].fillna("")
    return {
        "session_excluded": len(excluded),
        "exclusion_reasons": {str(k): int(v) for k, v in excluded.value_counts().sort_index().items()},
    }
