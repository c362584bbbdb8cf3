"""The one way a study is analysed, for `flask analyze` (server/cli/analyze.py) and, through the stored results
(stored.py), the dashboard's results page: :func:`run_analysis` finds the study's task type's analyzer
(Analysed.analyzer), refuses options it does not use, loads everything in one database snapshot (with the study's
data generation), checks that there is something to analyse, computes the report and returns it as an
:class:`AnalysisResult`; the report renders itself, the same way for every task type. Problems are AnalysisError,
with a message for the user; those of the data themselves (nothing to analyse yet, an input the statistics refuse)
are its subclass DataProblem, which carries the data generation it was found at, so that it can be stored as that
generation's outcome.

The analyzers live in the task packages (server/tasks/<type>/analyzer.py); the statistics in the Flask-free
`analysis` package. The helpers below are what several analyzers read the same way."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

# The analysis stack loads with the first analysis (`flask analyze`, the recompute process); the app workers import
# this module for Options and the stored results, and never load pandas (docs/operations.md).
if TYPE_CHECKING:
    import pandas as pd

    from analysis.reports.report import Report

from .. import identifiers
from ..db import db, snapshot
from ..exceptions import AnalysisError
from ..models import STAGES, ParticipantSession, Study, analysable_in, current_generation
from ..studies.definitions import get_study
from ..tasktype.contract import Analysed, AnalysisOption, Analyzer
from ..tasktype.registry import registry


class Options:
    """The options of one analysis: their values by name (an analyzer reads each as an attribute; one not set has
    its declared default, `AnalysisOption.default`, once `for_analysis` filled it in), the stage and which options
    the user set on the command line (`given`: refused when the study's analysis does not use them). The stage, the
    sessions analysed (those that started in it, models.STAGES, or "all"), is read by every analysis, so it is not
    an analyzer's option but always part of what tells two results apart."""

    def __init__(self, stage: str = "live", given: frozenset[str] = frozenset(), **values: Any):
        self.stage, self.given, self.values = stage, frozenset(given), values

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["values"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Options) and (self.stage, self.given, self.values) == (
            other.stage,
            other.given,
            other.values,
        )

    def __repr__(self) -> str:
        return f"Options(stage={self.stage!r}, given={set(self.given) or '{}'}, {self.values!r})"

    def for_analysis(self, analyzer: Analyzer) -> Options:
        """These options with the analysis's own that are not set at their defaults."""
        defaults = {option.name: option.default for option in analyzer.options}
        return Options(self.stage, self.given, **{**defaults, **self.values})


def declared_options() -> dict[str, AnalysisOption]:
    """Every installed analysis's options by name (`flask analyze` offers them all); ValueError when two analyses
    declare one name differently."""
    options: dict[str, AnalysisOption] = {}
    for task_id in registry().ids():
        task = registry().get(task_id)
        for option in task.analyzer.options if isinstance(task, Analysed) else ():
            if options.setdefault(option.name, option) != option:
                raise ValueError(f"task type {task_id!r} declares the analysis option {option.name!r} differently")
    return options


class DataProblem(AnalysisError):
    """The study's data cannot be analysed as they stand (at data generation `generation`)."""

    def __init__(self, message: str, generation: int):
        super().__init__(message)
        self.generation = generation


@dataclass
class AnalysisResult:
    """A computed report (analysis.reports.report.Report: text, Markdown, JSON, methods, figures, a folder), the
    study it is of and the study's data generation it was computed from (models.DataGeneration)."""

    study: Study  # detached: slug, title and task type stay readable
    report: Report
    generation: int = 0

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


def analysed_study(slug: str) -> tuple[Study, Analyzer]:
    """The study `slug` and its task type's analyzer; AnalysisError if there is no such study or its task type has
    no analysis."""
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
    return study, task.analyzer


def used_options(analyzer: Analyzer, options: Options) -> dict[str, Any]:
    """The values of the options the analysis uses (name → value, by name), the stage included: what tells two of
    its results apart."""
    values = options.for_analysis(analyzer)
    return {name: getattr(values, name) for name in sorted({*(o.name for o in analyzer.options), "stage"})}


def run_analysis(slug: str, options: Options) -> AnalysisResult:
    """Analyse study `slug` as `options` ask; raise AnalysisError saying why not."""
    identifiers.key()  # before the snapshot (rows carry participant codes): its first use writes it
    with snapshot():
        study, analyzer = analysed_study(slug)
        _check_options(analyzer, study, options)
        options = options.for_analysis(analyzer)
        data = analyzer.load(study, options)
        generation = current_generation(study.id)  # in the snapshot: the generation of exactly these data
        others = _other_stages(study, options.stage)
        db.session.expunge(study)  # keep slug/title readable after the snapshot ends
    _check_completed(study, data, generation, options.stage, others)
    try:
        report = analyzer.compute(study, data, options)
    except ValueError as exc:  # the analysis package names the input problem
        raise DataProblem(f"cannot analyse {slug!r}: {exc}", generation) from None
    return AnalysisResult(study, report, generation)


def _check_options(analyzer: Analyzer, study: Study, options: Options) -> None:
    if options.stage not in (*STAGES, "all"):
        raise AnalysisError(f"--stage: {options.stage!r} is not one of {', '.join(STAGES)} or all")
    own = {option.name: option.flag for option in analyzer.options}
    unused = sorted(options.given - set(own))
    if unused:
        flags = {name: option.flag for name, option in declared_options().items()}
        uses = ", ".join(own[name] for name in sorted(own)) or "none of them"
        raise AnalysisError(
            f"{', '.join(flags[name] for name in unused)}: not used by the analysis of "
            f"{study.task_type} studies (study {study.slug!r}; it uses {uses})"
        )
    most = analyzer.max_n_boot
    if "n_boot" in options.given and most and options.n_boot > most:
        raise AnalysisError(f"--n-boot: {study.task_type} studies take at most {most:,} resamples")


def _other_stages(study: Study, stage: str) -> dict[str, tuple[int, int]]:
    """The stages other than `stage` → (sessions, completed ones) of the study, for the message that nothing was
    found in `stage` ({} for "all": there is no other)."""
    if stage == "all":
        return {}
    PS = ParticipantSession
    rows = db.session.execute(
        db.select(PS.stage, db.func.count(), db.func.count().filter(PS.status == "completed"))
        .where(analysable_in(study.id, "all"), PS.stage != stage)
        .group_by(PS.stage)
    )
    return {other: (n, done) for other, n, done in rows}


def _check_completed(
    study: Study, data: dict[str, Any], generation: int, stage: str, others: dict[str, tuple[int, int]]
) -> None:
    """Refuse a study without a completed participant of `stage` who has a (test) trial: there is nothing to
    analyse; say how many sessions the other stage has, and how to include them."""
    sessions, trials = data["sessions"], data["trials"]
    done = set(sessions.loc[sessions["status"] == "completed", "participant_id"])
    if done and not trials.empty:
        analysed = trials["participant_id"].isin(done)
        if "practice" in trials:
            analysed &= ~trials["practice"].astype(bool)
        if analysed.any():
            return
    which = "" if stage == "all" else f" in the {stage} stage"
    hints = [
        f"the {other} stage has {n} session(s), {n_done} completed: include them with `--stage {other}` "
        f"(or `--stage all`)"
        for other, (n, n_done) in sorted(others.items())
        if n
    ]
    raise DataProblem(
        f"study {study.slug!r} has no completed participants yet ({len(sessions)} session(s) "
        f"recruited, {len(done)} completed){which}; nothing to analyse" + "".join(f"; {hint}" for hint in hints),
        generation,
    )


def load_sessions(study: Study, stage: str) -> pd.DataFrame:
    """The study's sessions of `stage` ("all": both; never a preview): id, status, exclusion reason."""
    import pandas as pd

    PS = ParticipantSession
    rows = (
        db.session.execute(
            db.select(PS.id.label("participant_id"), PS.status, PS.exclusion_reason)
            .where(analysable_in(study.id, stage))
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
