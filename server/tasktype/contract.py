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
  and completion needs the page's "timeline finished" signal and ``min_rows`` rows;
- :class:`Planned`: it has a sample-size planning (``planner``: ``flask plan`` and the dashboard's planning page).

What differs between a type with a plan and one whose page records its own rows is not asked with ``isinstance``
but is a hook every type has, with the planned types' behaviour as default and :class:`PlanLessRows` overriding
it: how a stored trial is read and exported (``trial_cells``, ``describe_trials``, ``csv_cells``,
``generic_trial_cells``), what participants.csv adds per session (``session_columns``, ``session_cells``), when a
session may complete (``page_ends``, ``ending_outcome``, ``min_rows``), its dashboard funnel's steps
(``progress_steps``) and what its folder gives at sync (``prepare``). Generic code (server/results,
server/participation, server/web) calls them the same way for every type.

A type with neither stimulus capability has no stimuli and no fixed plan: a session starts with an empty plan and
its page decides the trials. Researchers' own jsPsych experiments declare themselves so, with :class:`PlanLessRows`
(and :class:`Analysed`): their rows go through the plan-less save path, and there is no ``score``, ``summarise``
or ``trial_columns`` of their own, since their export columns come from the data.

Besides the ``TASK_PACKAGES`` setting, a type may come from an installed distribution's entry point in the group
``studyhive.task_types`` (server/tasktype/registry.py).

Task code receives parsed data only — never the request — and never commits: the caller owns the transaction. Its
errors are server.exceptions' ConfigError, ManifestError and ResponseError."""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from .. import identifiers, schema

if TYPE_CHECKING:
    from pathlib import Path

    from analysis.planning import Plan
    from analysis.reports.report import Report

    from ..models import ParticipantSession, Study
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


@dataclass(frozen=True)
class StoredTrial:
    """One stored trial as the export reads it (server/results/export.py), for `TaskType.trial_cells`."""

    participant_code: str  # the code the export names its participant by
    stimulus: dict[str, Any] | None  # its stimulus's stored parameters; None: the type's trials name no stimulus
    response: dict[str, Any]
    score: dict[str, Any]
    presented: dict[str, Any] | None


# The generic cells of a trials.csv row of a type with a plan (server/results/export.py's TRIAL_COLUMNS), in order.
PLANNED_TRIAL_CELLS = (
    "participant_id",
    "participant_code",
    "study_version",
    "stage",
    "trial_index",
    "practice",
    "stimulus_id",
    "rt_ms",
    "client_time",
    "created_at",
)
# The dashboard's funnel steps of a type with a plan (server/results/dashboard.py says what each counts).
PLANNED_STEPS = ("entered", "consented", "practice done", "finished", "redirected")


@dataclass(frozen=True)
class AnalysisOption:
    """A `flask analyze` option an analysis uses (`Analyzer.options`): the name the analyzer reads it by (an
    attribute of the options it is given), its click declaration (``--n-boot``; a boolean's ``--on/--off``), its
    default and help, and its values (`choices`, or a whole number of at least `minimum`; otherwise by the
    default's type). An option of one name is one option wherever it is declared: `flask analyze` offers every
    installed analysis's."""

    name: str
    flag: str
    default: Any
    help: str
    choices: tuple[str, ...] | None = None
    minimum: int | None = None

    def args(self, value: Any) -> list[str]:
        """The command line that sets the option to `value`."""
        if isinstance(self.default, bool):
            on, off = self.flag.split("/")
            return [on if value else off]
        return [self.flag, str(value)]


# The bootstrap's options, which every analysis with bootstrap intervals declares.
N_BOOT = AnalysisOption("n_boot", "--n-boot", 10_000, "bootstrap resamples per confidence interval", minimum=1)
SEED = AnalysisOption("seed", "--seed", 0, "seed of the bootstrap")


class Analyzer(ABC):
    """`flask analyze` and the dashboard's results for a task type: read the data, compute the report.
    server/results/analyze.py runs it (load in one snapshot, the generic checks, compute); the report, an
    analysis.reports.report.Report, renders itself (text, Markdown, JSON, methods, figures, a folder). Statistics live
    in the Flask-free `analysis` package."""

    # The `flask analyze` options this analysis uses; another analysis's, given, is refused.
    options: ClassVar[tuple[AnalysisOption, ...]] = ()
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
    # The generic cells (server/results/export.py fills them by these names) of each trials.csv row, in order, and
    # those of them kept in the row but not written as a column (the dashboard's fast-trial flag reads them). A
    # cell of the type's own named like one of them gets the prefix CLASH_PREFIX.
    generic_trial_cells: ClassVar[tuple[str, ...]] = PLANNED_TRIAL_CELLS
    hidden_trial_cells: ClassVar[tuple[str, ...]] = ()
    # Columns this task adds to participants.csv after the generic ones (`session_cells` fills them).
    session_columns: ClassVar[tuple[Column, ...]] = ()
    # The researcher dashboard's funnel steps: five counts, each a subset of the one before (entered, consented,
    # a first test trial stored, finished, completed), as this type names them.
    progress_steps: ClassVar[tuple[str, ...]] = PLANNED_STEPS
    # False: a session follows its fixed plan, finished when every planned trial is stored. True: its page records
    # rows of its own (sessions start with an empty plan) and says when its timeline ended; completion waits for
    # that signal (`ending_outcome`, `min_rows`), and the rows are sent to /rows, not /trials.
    page_ends: ClassVar[bool] = False
    # Whether a condition's `[conditions.task]` may change the study's [task] (server/studies/conditions.py). False:
    # sync prepares one page from the study's folder for every session, so it refuses a condition's changes.
    condition_params: ClassVar[bool] = True

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

    def trial_cells(self, trial: StoredTrial) -> dict[str, Any]:
        """The cells one stored trial adds to its trials.csv row after the generic ones: by default `trial_row`'s."""
        return self.trial_row(trial.stimulus, trial.response, trial.score, trial.presented)

    def describe_trials(
        self, cells: Callable[[], Iterable[dict[str, Any]]], descriptions: dict[str, str]
    ) -> list[dict[str, Any]]:
        """The codebook entries (column, type, description; levels and missing where known) of the columns the
        type adds to trials.csv. `cells` reads every row's `trial_cells` again (a type whose columns come from the
        data profiles them); `descriptions` are `column_descriptions`' by column name. By default `trial_columns`,
        reading nothing."""
        return [{"column": c.name, "type": c.dtype, "description": c.description} for c in self.trial_columns]

    def column_descriptions(self, params: dict[str, Any]) -> dict[str, str]:
        """The codebook's description of each data column the study describes itself (for a study with task
        parameters `params`), by column name; by default none (the type's `trial_columns` describe themselves)."""
        return {}

    def csv_cells(self, row: dict[str, Any]) -> dict[str, Any]:
        """A trials.csv row's cells as the file writes them (the rows `trial_cells` made, read for analyses and
        the dashboard as they are); by default unchanged."""
        return row

    def session_cells(self, session: ParticipantSession) -> dict[str, Any]:
        """The values of `session_columns` for one session (a datetime column's as stored ISO 8601 text)."""
        return {}

    def prepare(self, study_dir: Path, params: dict[str, Any], previous: dict[str, Any] | None) -> Prepared | None:
        """What the type makes of the study's folder at sync (`flask studies sync`; `previous`: the configuration of
        its current version, None for a new study); None (the default): nothing, the study file says all. Raise
        ConfigError naming the file when it cannot run: nothing is written then, so the previous version keeps
        serving."""
        return None

    def min_rows(self, params: dict[str, Any]) -> int:
        """Rows a session whose page ends it (`page_ends`) must have stored before it may complete."""
        return 0

    def ending_outcome(self, params: dict[str, Any], ending: dict[str, Any], last_row: dict[str, Any] | None) -> str:
        """The outcome (models.OUTCOMES) of a session whose page ended its timeline (`page_ends`): `ending` as the
        page reported it ({"ended_early": bool, "message": str | None}), `last_row` the last row stored (None:
        none). By default a natural end completes and an early one (endExperiment / abortExperiment) is
        `ended_early`: never a completion unless the study says so."""
        return "ended_early" if ending.get("ended_early") else "completed"

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


class Planner(ABC):
    """`flask plan` and the dashboard's planning page for a task type: server/results/sample_size.py reads the
    study's pilot (its completed sessions' test trials as trials.csv has them) and `design` in one snapshot, then
    `plan` simulates the report's own test (analysis.planning)."""

    # The effect's unit in words (the command's errors and the planning page quote it).
    unit: ClassVar[str]
    # The `flask plan` options this planning uses besides the effect and the common ones (types, statement,
    # versus); another one given is refused, not ignored.
    options: ClassVar[frozenset[str]] = frozenset()

    @abstractmethod
    def design(self, study: Study) -> dict[str, Any]:
        """What the planning reads of the study besides its pilot: its parameters, its stimuli's (inside the
        caller's snapshot)."""

    @abstractmethod
    def plan(self, pilot: Any, sessions: int, design: dict[str, Any], request: Any, common: dict[str, Any]) -> Plan:
        """The plan for `request` (server/results/sample_size.PlanRequest) from the pilot's test trials (a
        DataFrame, empty without a completed session: `sessions` of them), `design`'s facts and `common` (the
        target power, alpha, reps, ns and seed every planning passes on). A ValueError names an input the planning
        refuses (AnalysisError: with its own whole message)."""


class Planned(TaskType):
    """Capability: the type has a sample-size planning (`flask plan`, the dashboard's planning page)."""

    planner: ClassVar[Planner]


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


# participants.csv's columns of a session whose page records its own rows (`PlanLessRows.session_cells`): how its
# timeline ended (the session's `ending`), which with the study's endings decided the outcome; a replay that diverged;
# the error of its code the page reported (server/participation/session_api.py record_error).
OWN_SESSION_COLUMNS = (
    Column(
        "ended_early",
        "true: the experiment ended itself early (jsPsych's endExperiment / abortExperiment); false: its timeline ran "
        "to the end; empty: the experiment never said that its timeline finished",
        "boolean",
    ),
    Column(
        "end_message",
        "the message the experiment ended early with (its first 4,000 characters); study.toml's [[task.endings]] say "
        "which outcome it means",
        "text",
    ),
    Column(
        "replay_divergence",
        "a replay after a reload computed other data for a stored row than the row holds (docs/own-experiments.md, "
        '"Reloads and resume"), as JSON: the first such row\'s jsPsych trial_index, the fields that differed and when '
        "it was recorded (UTC); empty when every replay matched or there was none",
        "json",
    ),
    Column(
        "experiment_error",
        "the message of the error in the experiment's own code that stopped it (fatal) or that the page caught while "
        "it went on (the first one; a fatal one replaces it); empty: none was reported. The participant page shows "
        "its stack",
        "text",
    ),
    Column(
        "experiment_error_trial_index", "jsPsych's trial_index of the trial it happened in (empty: none)", "integer"
    ),
    Column(
        "experiment_error_fatal",
        "true: it stopped the experiment (the participant was offered to end with outcome experiment_error)",
        "boolean",
    ),
    Column("experiment_error_at", "when the server recorded it, UTC ISO 8601", "datetime"),
)


class PlanLessRows(TaskType):
    """Capability: the type's own page decides its trials (a researcher's jsPsych experiment): each row it records
    is stored whole as a trial's response with no stimulus, its trial_index drawn by the server, and the study's
    folder is prepared at sync (`flask studies sync`). Completion needs the page's "timeline finished" signal and
    `min_rows` rows; how the timeline ended decides the outcome (`ending_outcome`). trials.csv's columns come from
    those rows, and the codebook infers each one's type, levels and missing count."""

    page_ends = True
    condition_params = False
    # An own experiment's rows are all test trials: its third step counts sessions with a first row.
    progress_steps = ("entered", "consented", "first row", "timeline finished", "completed")
    # The page's own trial_index is a column of its rows; the server's order of them is saved_seq.
    generic_trial_cells = (
        "participant_id",
        "participant_code",
        "study_version",
        "stage",
        "saved_seq",
        "rt_ms",
        "client_time",
        "created_at",
    )
    hidden_trial_cells = ("rt_ms",)
    session_columns = OWN_SESSION_COLUMNS

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

    def trial_cells(self, trial: StoredTrial) -> dict[str, Any]:
        """A stored row's cells (analysis.jspsych_data.flat_row), the platform ids it holds as markers written as
        the participant's code."""
        from analysis.jspsych_data import flat_row  # with pandas behind it: only when rows are read

        return flat_row(identifiers.unmark(trial.response, trial.participant_code))

    def describe_trials(self, cells, descriptions):
        """Every column the rows hold, its type, levels and missing count inferred from them in a first pass."""
        from analysis.jspsych_data import Codebook

        return Codebook().extend(cells()).entries(descriptions)

    def csv_cells(self, row):
        """Booleans as jsPsych's own .csv() writes them (analysis.jspsych_data.json_scalars)."""
        from analysis.jspsych_data import json_scalars

        return json_scalars(row)

    def session_cells(self, session: ParticipantSession) -> dict[str, Any]:
        ending, error = session.ending or {}, session.experiment_error or {}
        return {
            "ended_early": ending.get("ended_early"),
            "end_message": ending.get("message"),
            "replay_divergence": None if session.replay_divergence is None else json.dumps(session.replay_divergence),
            "experiment_error": error.get("message"),
            "experiment_error_trial_index": error.get("trial_index"),
            "experiment_error_fatal": error.get("fatal"),
            "experiment_error_at": error.get("at"),
        }
