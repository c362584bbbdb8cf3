"""The contract every task type fulfils (like CTFd's BaseChallenge), and the capabilities a type may declare.

:class:`TaskType` is what every type needs: an id, a name and response validation; the rest are optional hooks with
defaults (parameters, scoring, a participant summary, export columns, page assets, flow steps, quality flags, a
vocabulary, correct answers). What a type can do beyond that it declares by subclassing capability classes (each
one a TaskType with the hooks it needs, abstract until the type defines them), and generic code asks
``isinstance(task, Capability)`` — it never calls a hook to see whether it fails, and never tests a study's
parameters for task-specific things:

- :class:`GeneratedStimuli`: it generates its stimuli from the parameters (stored once per study) and draws a
  participant's fixed plan from them (``stimuli``, ``build_plan``);
- :class:`ImportedStimuli`: its stimuli are imported from a manifest (``flask stimuli import``; ``manifest_required``,
  ``stimulus_from_manifest``) and a participant's fixed plan is drawn from those the study holds
  (``build_plan_from``); :class:`DemoStimuli` adds a demo set drawn without downloads (``demo_stimuli = true``);
- :class:`ModelAnswers`: models answer its stimuli (``model_input``, ``model_answers``: imported predictions and
  ``flask stimuli export``); :class:`TrainingSets` adds training sets for models (``flask stimuli export --training``);
- :class:`Analysed`: it has an analysis (``analyzer``: ``flask analyze`` and the dashboard's results);
- :class:`Ratings`: its answers are ratings on one scale (``ratings``), checked for straight-lining (the dashboard's
  data quality, server/results/quality.py);
- :class:`PlanLessRows`: its page records rows of its own, stored with no stimulus, whose columns come from the
  data (trials.csv, an inferred codebook; ``column_descriptions``); its folder is prepared at sync (``prepare``)
  and completion needs the page's "timeline finished" signal and ``min_rows`` rows.

A type with neither stimulus capability has no stimuli and no fixed plan: a session starts with an empty plan and
its page decides the trials. Researchers' own jsPsych experiments declare themselves so, with :class:`PlanLessRows`
(and :class:`Analysed`): their rows go through the plan-less save path, and there is no ``score``, ``summarise``
or ``trial_columns`` of their own, since their export columns come from the data.

Besides the ``TASK_PACKAGES`` setting, a type may come from an installed distribution's entry point in the group
``studyhive.task_types`` (server/tasktype/registry.py).

Task code receives parsed data only — never the request — and never commits: the caller owns the transaction. Its
errors are server.exceptions' ConfigError, ManifestError and ResponseError."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from .. import schema

if TYPE_CHECKING:
    from pathlib import Path

    from analysis.reports.report import Report

    from ..models import Study
    from .manifest_files import ManifestFiles
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
    # A model-only test drawn with the set (its own test bins rather than the study's test), written to test/
    test: list[StimulusSpec] = field(default_factory=list)


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


class Analyzer(ABC):
    """`flask analyze` and the dashboard's results for a task type: read the data, compute the report.
    server/results/analyze.py runs it (load in one snapshot, the generic checks, compute); the report, an
    analysis.reports.report.Report, renders itself (text, Markdown, JSON, methods, figures, a folder). Statistics live
    in the Flask-free `analysis` package."""

    # The `flask analyze` options this analysis uses (mlae, exclude_outliers, n_boot, seed); others are refused.
    options: ClassVar[frozenset[str]] = frozenset()
    # Most bootstrap resamples it accepts (None: no limit).
    max_n_boot: ClassVar[int | None] = None

    @abstractmethod
    def load(self, study: Study, options) -> dict[str, Any]:
        """Read what the analysis needs (inside the caller's snapshot). Must hold "sessions" (participant_id,
        status, exclusion_reason) and "trials" (participant_id, and practice if the task has practice trials)."""

    @abstractmethod
    def compute(self, study: Study, data: dict[str, Any], options) -> Report:
        """The report; a ValueError names an input the analysis refuses."""


class TaskType(ABC):
    """What every task type has: an id, a name and `validate_response`; the rest are hooks with defaults. A class
    left abstract (a family's shared base) cannot be registered."""

    id: ClassVar[str]
    name: ClassVar[str]
    # The task's page files in its package's static/ folder (its jsPsych plugin and entry in StudyhiveTasks, its
    # stylesheets), served at /tasks/<package>/<file>; the participant page links the .css and loads the .js in
    # this order.
    assets: ClassVar[tuple[str, ...]] = ()
    # Flow steps this task adds to the generic ones (consent, surveys, instructions, task, score), e.g. "preview";
    # the page runs them through the task's entry in StudyhiveTasks (static/studyhive/tasks.js).
    steps: ClassVar[tuple[str, ...]] = ()
    # Data-quality flags its scores carry (e.g. failed catch trials).
    quality_flags: ClassVar[tuple[QualityFlag, ...]] = ()
    # Response times below this many milliseconds are implausibly fast for this task (study.toml's [quality]
    # fast_trial_ms overrides it); None: the FAST_TRIAL_MS setting.
    fast_trial_ms: ClassVar[int | None] = None
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

    @abstractmethod
    def validate_response(self, response: Any, params: dict[str, Any], shown: dict[str, Any]) -> dict[str, Any]:
        """Return the cleaned response (for a study with task parameters `params`) or raise ResponseError. `shown` is
        the trial's plan item as the page got it (`PlanItem.as_json()`): an answer must fit what the trial showed,
        e.g. one rating per match shown, a choice among the options shown."""

    def score(self, stimulus: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
        """Score one validated response against its stimulus parameters (stored with the trial); by default
        nothing is scored."""
        return {}

    def summarise(self, own: list[dict[str, Any]], cohort: list[list[dict[str, Any]]]) -> dict[str, Any]:
        """Feedback for the results page: this participant's test-trial scores against each other finisher's, with
        its "lines" of text; by default none."""
        return {"lines": []}

    def trial_row(
        self,
        stimulus: dict[str, Any],
        response: dict[str, Any],
        score: dict[str, Any],
        presented: dict[str, Any] | None,
    ) -> dict[str, Any]:
        """The values of `trial_columns` for one stored trial (by default it adds none)."""
        return {}

    def correct(self, score: dict[str, Any]) -> bool | None:
        """Whether a test trial's answer counts as correct, for bonuses per correct answer (`flask prolific bonus
        --per-correct`); None: the trial has no correct answer. Task types without correct answers keep this."""
        return None

    def vocabulary(self, params: dict[str, Any]) -> Vocabulary | None:
        """The fixed set of labels responses (and models' labels) come from, for a study with task parameters
        `params`; None: the task has none. Raise ConfigError when the study's vocabulary cannot be used."""
        return None

    def attention_checks(self) -> tuple[str, ...]:
        """The score keys that mark a failed attention check (none: the task has no catch trials)."""
        return tuple(flag.score_key for flag in self.quality_flags if flag.attention_check)

    # The researchers' replay and balance pages (server/web/researcher.py, server/results/balance.py).

    def replay_images(self, item: dict[str, Any], stimulus_url: Callable[[str], str]) -> list[tuple[str, str]]:
        """(caption, URL) of the images one planned trial showed, in the order the page showed them, rebuilt from
        its plan item (`PlanItem.as_json()`); `stimulus_url` gives a stimulus key's URL. By default none."""
        return []

    def balance_item(self, item: dict[str, Any]) -> str:
        """What the balance view counts per position for one planned trial: by default its stimulus."""
        return item["stimulus_id"]

    def position_design(self, items: list[dict[str, Any]]) -> list[list[float]] | None:
        """Under this type's plan drawing, the probability that each of one plan's test trials stands at each test
        position, given which trials the plan holds: a row per trial (`items`: their stimuli's stored parameters,
        in plan order), a column per position. None (the default): the order is fixed, so there is nothing to
        test."""
        return None


def shuffled_positions(n: int) -> list[list[float]]:
    """`position_design` of a plan whose n test trials are shuffled uniformly: each at each position with 1/n."""
    return [[1 / n] * n for _ in range(n)]


class Stimuli(TaskType):
    """Shared by the two stimulus capabilities: the type has stimuli, shown one per planned trial."""

    # Stimulus parameters as columns of the model manifest (`flask stimuli export`) and of trials.csv.
    stimulus_columns: ClassVar[tuple[Column, ...]] = ()

    @abstractmethod
    def render_stimulus(self, key: str, params: dict[str, Any]) -> tuple[str, bytes] | str:
        """(mimetype, bytes) of the stimulus as shown to people, or the id of a stored asset to serve."""

    def replay_images(self, item, stimulus_url):
        return [("stimulus", stimulus_url(item["stimulus_id"]))]


class GeneratedStimuli(Stimuli):
    """Capability: the type generates its stimuli from the study's parameters and draws a fixed plan from them."""

    @abstractmethod
    def stimuli(self, params: dict[str, Any]) -> Iterable[StimulusSpec]:
        """Every stimulus the task generates for a study (stored once per study, at sync)."""

    @abstractmethod
    def build_plan(self, params: dict[str, Any], rng: random.Random) -> list[PlanItem]:
        """One participant's trial list, drawn with `rng`."""


class ImportedStimuli(Stimuli):
    """Capability: the type's stimuli are imported from a manifest (`flask stimuli import`) and a participant's fixed
    plan is drawn from those the study holds."""

    # Columns of its stimulus manifest: required, then optional.
    manifest_required: ClassVar[tuple[str, ...]]
    manifest_optional: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def stimulus_from_manifest(self, row: dict[str, str], files: ManifestFiles, params: dict[str, Any]) -> StimulusSpec:
        """One imported stimulus from a manifest row (all manifest columns present, as text), for a study with
        task parameters `params`. Image files are resolved with `files.image(column, value)`, which returns the
        stored asset's id. Raise ManifestError."""

    @abstractmethod
    def build_plan_from(
        self, params: dict[str, Any], stimuli: list[StimulusSpec], rng: random.Random
    ) -> list[PlanItem]:
        """One participant's trial list drawn from the study's stored stimuli. Raise ConfigError when they cannot
        make a plan (e.g. none imported yet)."""


class DemoStimuli(ImportedStimuli):
    """Capability: besides imports, the type can draw a small demo stimulus set itself (`demo_stimuli = true`)."""

    @abstractmethod
    def generate_demo(self, params: dict[str, Any], out_dir: Path) -> Path:
        """Draw a small demo stimulus set (images + manifest) into `out_dir`, with no downloads, and return the
        manifest's path. Used by `flask studies sync` for studies marked `demo_stimuli = true` that hold no
        stimuli yet."""


class ModelAnswers(Stimuli):
    """Capability: models answer the type's stimuli: `flask stimuli export` writes them as model inputs and
    imported predictions are read as `model_answers` says."""

    # "values" (`flask import-predictions`, a number per stimulus) or "labels" (`flask import-label-predictions`,
    # ranked ids of the task's vocabulary).
    model_answers: ClassVar[str] = "values"

    @abstractmethod
    def model_input(self, key: str, params: dict[str, Any]) -> tuple[str, bytes] | str:
        """(file extension, bytes) of a stimulus as given to models, or the id of a stored asset."""


class TrainingSets(ModelAnswers):
    """Capability: the type's generator can label new stimuli, so it draws training sets for models."""

    @abstractmethod
    def training_set(self, test: list[dict[str, Any]], options: dict[str, Any]) -> TrainingSet:
        """A training set for models that never holds a stimulus of `test` (the parameters of the study's test
        stimuli), drawn as `options` ask (`flask stimuli export --training`). Its stimuli must be renderable by
        `model_input`. Raise ConfigError naming a bad option."""


class Analysed(TaskType):
    """Capability: the type has an analysis (`flask analyze`, the dashboard's results)."""

    analyzer: ClassVar[Analyzer]


class Ratings(TaskType):
    """Capability: the type's answers are ratings on one scale (a Likert item, similarity ratings), so a participant
    who gives (nearly) the same rating throughout is flagged as straight-lining (server/results/quality.py)."""

    # The scale, as the dashboard and the docs name it, e.g. "1–7 agreement".
    rating_scale: ClassVar[str]

    @abstractmethod
    def ratings(self, response: dict[str, Any]) -> list[int]:
        """The ratings one stored (validated) response holds, in the order asked; none if the trial asked none."""


@dataclass(frozen=True)
class Prepared:
    """What a plan-less type makes of a study's folder at sync: `config` (JSON-able keys beside the study file's
    own, e.g. "experiment" and "packages") joins the study's configuration, so a changed file makes a new version;
    `files` (mimetype, bytes) by sha256 are stored as assets; `notes` are what sync tells the researcher of a file
    served otherwise than the study names it (a local copy of a library, an unminified file); `report` is what
    `flask studies check` prints of it, a line each (never stored)."""

    config: dict[str, Any]
    files: dict[str, tuple[str, bytes]]
    notes: tuple[str, ...] = ()
    report: list[str] = field(default_factory=list)


class PlanLessRows(TaskType):
    """Capability: the type's own page decides its trials (a researcher's jsPsych experiment): each row it records
    is stored whole as a trial's response with no stimulus, its trial_index drawn by the server, and the study's
    folder is prepared at sync (`flask studies sync`). Completion needs the page's "timeline finished" signal and
    `min_rows` rows; how the timeline ended decides the outcome (`ending_outcome`). trials.csv's columns come from
    those rows (server/results/export.py), and the codebook infers each one's type, levels and missing count."""

    @abstractmethod
    def prepare(self, study_dir: Path, params: dict[str, Any], previous: dict[str, Any] | None) -> Prepared:
        """Read the study's files (`previous`: the configuration of its current version, None for a new study);
        raise ConfigError naming the file (and tag) when they cannot run. Nothing is written when it raises, so the
        study's previous version keeps serving."""

    @abstractmethod
    def min_rows(self, params: dict[str, Any]) -> int:
        """Rows a session must have stored before it may complete."""

    @abstractmethod
    def row_limit(self, params: dict[str, Any]) -> int:
        """Most bytes of one row's JSON."""

    @abstractmethod
    def column_descriptions(self, params: dict[str, Any]) -> dict[str, str]:
        """The codebook's description of each data column the study describes itself, by column name (for a
        study with task parameters `params`); columns it leaves out get inferred entries only."""

    def ending_outcome(self, params: dict[str, Any], ending: dict[str, Any], last_row: dict[str, Any] | None) -> str:
        """The outcome (models.OUTCOMES) of a session whose page ended its timeline: `ending` as the page reported
        it ({"ended_early": bool, "message": str | None}), `last_row` the last row stored (None: none). By default a
        natural end completes and an early one (endExperiment / abortExperiment) is `ended_early`: never a
        completion unless the study says so."""
        return "ended_early" if ending.get("ended_early") else "completed"
