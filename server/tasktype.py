"""The contract every task type fulfils (like CTFd's BaseChallenge): parameters, stimuli, a participant's trial list,
response validation, scoring, a participant summary, the columns it adds to exports, its page assets, its analysis
(:class:`Analyzer`) and what generic code must know about it (a vocabulary, catch trials, quality flags, how models
answer). Generic code asks the task type; it never tests a study's parameters for task-specific things.

Task code receives parsed data only — never the request — and never commits: the caller owns the transaction. Its
errors are server.exceptions' ConfigError, ManifestError and ResponseError."""
from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from . import schema

if TYPE_CHECKING:
    from pathlib import Path

    from analysis.reports.report import Report

    from .manifest_files import ManifestFiles
    from .models import Study
    from .vocabulary import Vocabulary


@dataclass(frozen=True)
class StimulusSpec:
    key: str
    params: dict[str, Any]
    practice: bool = False


@dataclass(frozen=True)
class TrainingSet:
    """Labelled stimuli for training models (`TaskType.training_set`), and how they were drawn."""
    training: list[StimulusSpec]
    validation: list[StimulusSpec]
    sampling: dict[str, Any]  # JSON-able; written beside the manifest


@dataclass(frozen=True)
class PlanItem:
    index: int
    stimulus_id: str
    practice: bool
    # Task-specific data for the page, e.g. practice feedback. A "presented" entry (say, the options in their
    # shuffled order) is also copied by the server into the stored trial row.
    extra: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"index": self.index, "stimulus_id": self.stimulus_id, "practice": self.practice, **self.extra}


@dataclass(frozen=True)
class Column:
    """One export column a task type adds, with its codebook entry."""
    name: str
    description: str
    dtype: str = "number"


@dataclass(frozen=True)
class QualityFlag:
    """A data-quality flag a task type adds to the dashboard (beside the generic fast trials and returning ids):
    the trials whose score holds `score_key` true."""
    score_key: str
    label: str  # the study page's line, e.g. "Failed attention checks (catch trials)"
    column: str  # its column heading in the participant list
    # A flagged trial is a failed attention check: completion counts them against the study's
    # attention_check_failures (a Prolific outcome of its own).
    attention_check: bool = False


class Analyzer:
    """`flask analyze` and the dashboard's results for a task type: read the data, compute the report. server/analyze.py
    runs it (load in one snapshot, the generic checks, compute); the report, an analysis.reports.report.Report,
    renders itself (text, Markdown, JSON, methods, figures, a folder). Statistics live in the Flask-free `analysis`
    package."""
    # The `flask analyze` options this analysis uses (mlae, exclude_outliers, n_boot, seed); others are refused.
    options: ClassVar[frozenset[str]] = frozenset()
    # Most bootstrap resamples it accepts (None: no limit).
    max_n_boot: ClassVar[int | None] = None

    def load(self, study: Study, options) -> dict[str, Any]:
        """Read what the analysis needs (inside the caller's snapshot). Must hold "sessions" (participant_id,
        status, exclusion_reason) and "trials" (participant_id, and practice if the task has practice trials)."""
        raise NotImplementedError

    def compute(self, study: Study, data: dict[str, Any], options) -> Report:
        """The report; a ValueError names an input the analysis refuses."""
        raise NotImplementedError


class TaskType:
    id: ClassVar[str]
    name: ClassVar[str]
    # The task's page files in its package's static/ folder (its jsPsych plugin and entry in StudyhiveTasks, its
    # stylesheets), served at /tasks/<package>/<file>; the participant page links the .css and loads the .js in
    # this order.
    assets: ClassVar[tuple[str, ...]] = ()
    # Flow steps this task adds to the generic ones (consent, surveys, instructions, task, score), e.g. "preview";
    # the page runs them through the task's entry in StudyhiveTasks (static/studyhive/tasks.js).
    steps: ClassVar[tuple[str, ...]] = ()
    # Its analysis (`flask analyze`, the dashboard's results); None: the task type has none yet.
    analyzer: ClassVar[Analyzer | None] = None
    # Data-quality flags its scores carry (e.g. failed catch trials).
    quality_flags: ClassVar[tuple[QualityFlag, ...]] = ()
    # How models answer it in imported predictions: "values" (`flask import-predictions`, a number per stimulus)
    # or "labels" (`flask import-label-predictions`, ranked ids of the task's vocabulary).
    model_answers: ClassVar[str] = "values"
    # Columns of an imported stimulus manifest (`flask stimuli import`): required, then optional. Empty for
    # tasks that generate their stimuli.
    manifest_required: ClassVar[tuple[str, ...]] = ()
    manifest_optional: ClassVar[tuple[str, ...]] = ()
    # Stimulus parameters as columns of the model manifest (`flask stimuli export`) and of trials.csv.
    stimulus_columns: ClassVar[tuple[Column, ...]] = ()
    # Columns this task adds to trials.csv, in order, after the generic ones (stimulus columns first).
    trial_columns: ClassVar[tuple[Column, ...]] = ()

    # The study file's [task] table: its keys, types, ranges and defaults (a schema.Table declared in the task's
    # package; the JSON Schema and docs/studies.md's key reference are made from it). Table itself has no keys.
    Params: ClassVar[type[schema.Table]] = schema.Table

    def parse_params(self, raw: dict[str, Any]) -> dict[str, Any]:
        """The study file's [task] table checked against `Params`: the parameters with defaults filled in. Raises
        schema.SchemaError listing every problem, each named `task.<key>`. Validators see the task type's id as
        the context's "task_type". Override to add what needs more than the table (a file's hash), calling this."""
        return schema.validate(self.Params, raw, "task.", {"task_type": self.id}).model_dump()

    def stimuli(self, params: dict[str, Any]) -> Iterable[StimulusSpec]:
        """Every stimulus the task generates for a study (stored once per study); none for imported stimuli."""
        return ()

    def stimulus_from_manifest(self, row: dict[str, str], files: ManifestFiles,
                               params: dict[str, Any]) -> StimulusSpec:
        """One imported stimulus from a manifest row (all manifest columns present, as text), for a study with
        task parameters `params`. Image files are resolved with `files.image(column, value)`, which returns the
        stored asset's id. Raise ManifestError."""
        raise NotImplementedError

    def generate_demo(self, params: dict[str, Any], out_dir: Path) -> Path:
        """For tasks with imported stimuli: draw a small demo stimulus set (images + manifest) into `out_dir`, with
        no downloads, and return the manifest's path. Used by `flask studies sync` for studies marked
        `demo_stimuli = true` that hold no stimuli yet."""
        raise NotImplementedError

    def build_plan_from(self, params: dict[str, Any], stimuli: list[StimulusSpec],
                        rng: random.Random) -> list[PlanItem]:
        """For tasks with imported stimuli: one participant's trial list drawn from the study's stored stimuli.
        Raise ConfigError when they cannot make a plan (e.g. none imported yet)."""
        raise NotImplementedError

    def build_plan(self, params: dict[str, Any], rng: random.Random) -> list[PlanItem]:
        """For tasks that generate their stimuli: one participant's trial list, drawn with `rng`."""
        raise NotImplementedError

    def validate_response(self, response: Any, params: dict[str, Any], shown: dict[str, Any]) -> dict[str, Any]:
        """Return the cleaned response (for a study with task parameters `params`) or raise ResponseError. `shown` is
        the trial's plan item as the page got it (`PlanItem.as_json()`): an answer must fit what the trial showed,
        e.g. one rating per match shown, a choice among the options shown."""
        raise NotImplementedError

    def score(self, stimulus: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
        """Score one validated response against its stimulus parameters."""
        raise NotImplementedError

    def correct(self, score: dict[str, Any]) -> bool | None:
        """Whether a test trial's answer counts as correct, for bonuses per correct answer (`flask prolific bonus
        --per-correct`); None: the trial has no correct answer. Task types without correct answers keep this."""
        return None

    def summarise(self, own: list[dict[str, Any]], cohort: list[list[dict[str, Any]]]) -> dict[str, Any]:
        """Feedback for the results page: this participant's test-trial scores against each other finisher's."""
        raise NotImplementedError

    def trial_row(self, stimulus: dict[str, Any], response: dict[str, Any], score: dict[str, Any],
                  presented: dict[str, Any] | None) -> dict[str, Any]:
        """The values of `trial_columns` for one stored trial."""
        raise NotImplementedError

    def render_stimulus(self, key: str, params: dict[str, Any]) -> tuple[str, bytes] | str:
        """(mimetype, bytes) of the stimulus as shown to people, or the id of a stored asset to serve."""
        raise NotImplementedError

    def model_input(self, key: str, params: dict[str, Any]) -> tuple[str, bytes] | str:
        """(file extension, bytes) of the same stimulus as given to models, or the id of a stored asset."""
        raise NotImplementedError

    def vocabulary(self, params: dict[str, Any]) -> Vocabulary | None:
        """The fixed set of labels responses (and models' labels) come from, for a study with task parameters
        `params`; None: the task has none. Raise ConfigError when the study's vocabulary cannot be used."""
        return None

    def attention_checks(self) -> tuple[str, ...]:
        """The score keys that mark a failed attention check (none: the task has no catch trials)."""
        return tuple(flag.score_key for flag in self.quality_flags if flag.attention_check)

    def training_set(self, test: list[dict[str, Any]], options: dict[str, Any]) -> TrainingSet:
        """For tasks whose generator can label new stimuli: a training set for models that never holds a stimulus of
        `test` (the parameters of the study's test stimuli), drawn as `options` ask (`flask stimuli export
        --training`). Its stimuli must be renderable by `model_input`. Raise ConfigError naming a bad option."""
        raise NotImplementedError
