"""The contract every task type fulfils (like CTFd's BaseChallenge): parameters, stimuli, a participant's trial list,
response validation, scoring, a participant summary and the columns it adds to exports.

Task code receives parsed data only — never the request — and never commits: the caller owns the transaction."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable


class ConfigError(ValueError):
    """A study file asks for something the task type cannot do; the message names the key."""


class ResponseError(ValueError):
    """A participant's response is invalid; `field` names the offending field for the 4xx answer."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class StimulusSpec:
    key: str
    params: dict[str, Any]
    practice: bool = False


@dataclass(frozen=True)
class PlanItem:
    index: int
    stimulus_id: str
    practice: bool
    extra: dict[str, Any] = field(default_factory=dict)  # task-specific, e.g. practice feedback

    def as_json(self) -> dict[str, Any]:
        return {"index": self.index, "stimulus_id": self.stimulus_id, "practice": self.practice, **self.extra}


@dataclass(frozen=True)
class Column:
    """One export column a task type adds, with its codebook entry."""
    name: str
    description: str
    dtype: str = "number"


class TaskType:
    id: ClassVar[str]
    name: ClassVar[str]
    # Files under static/ the participant page loads for this task (its jsPsych plugin).
    assets: ClassVar[tuple[str, ...]] = ()
    # Stimulus parameters as columns of the model manifest (`flask stimuli export`) and of trials.csv.
    stimulus_columns: ClassVar[tuple[Column, ...]] = ()
    # Columns this task adds to trials.csv, in order, after the generic ones (stimulus columns first).
    trial_columns: ClassVar[tuple[Column, ...]] = ()

    def parse_params(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Validate the study file's [task] table; return the parameters with defaults filled in."""
        raise NotImplementedError

    def stimuli(self, params: dict[str, Any]) -> Iterable[StimulusSpec]:
        """Every stimulus the study can show (stored once per study)."""
        raise NotImplementedError

    def build_plan(self, params: dict[str, Any], rng: random.Random) -> list[PlanItem]:
        """One participant's trial list, drawn with `rng` (seeded per session)."""
        raise NotImplementedError

    def validate_response(self, response: Any) -> dict[str, Any]:
        """Return the cleaned response or raise ResponseError."""
        raise NotImplementedError

    def score(self, stimulus: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
        """Score one validated response against its stimulus parameters."""
        raise NotImplementedError

    def summarise(self, own: list[dict[str, Any]], cohort: list[list[dict[str, Any]]]) -> dict[str, Any]:
        """Feedback for the results page: this participant's test-trial scores against each other finisher's."""
        raise NotImplementedError

    def trial_row(self, stimulus: dict[str, Any], response: dict[str, Any], score: dict[str, Any]) -> dict[str, Any]:
        """The values of `trial_columns` for one stored trial."""
        raise NotImplementedError

    def render_stimulus(self, key: str, params: dict[str, Any]) -> tuple[str, bytes]:
        """(mimetype, bytes) of the stimulus as shown to people."""
        raise NotImplementedError

    def model_input(self, key: str, params: dict[str, Any]) -> tuple[str, bytes]:
        """(file extension, bytes) of the same stimulus as given to models."""
        raise NotImplementedError
