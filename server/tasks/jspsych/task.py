"""A researcher's own jsPsych 6, 7 or 8 experiment, run unchanged (docs/own-experiments.md).

It has no plan and no stimuli: the experiment's page decides its trials and every row jsPsych records is stored as
one plan-less trial (server/participation/session_api.py, `save_row`). At sync the experiment file is prepared
(experiment.py: the runtime's place, the inline scripts' hashes, the files it loads), stored as assets and kept in
the study's version, so a session is served the version it entered under."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Literal

from flask import current_app
from pydantic import Field, model_serializer, model_validator

from analysis.jspsych_data import flat_row

from ...exceptions import ResponseError
from ...models import OUTCOMES
from ...schema import JsonData, NonBlank, Table, problem
from ...tasktype.contract import Analysed, PlanLessRows, Prepared
from . import check
from .experiment import RUNTIME_MARKER, prepare_experiment
from .npm import Registry

RESUME = ("replay", "restart", "none")
# studyhive's runtime, right after the jsPsych script (a task package's page file: server/tasktype/registry.py), with
# CORS: a rejection of a promise it makes for the experiment (its fetch's) reaches the frame's handlers unmuted.
RUNTIME_TAG = '<script src="/tasks/jspsych/runtime.js" crossorigin="anonymous"></script>'
# Outcomes an ending rule may give: every outcome but the one studyhive gives when the experiment's own code fails.
ENDING_OUTCOMES = tuple(outcome for outcome in OUTCOMES if outcome != "experiment_error")
ENDED = ("early", "naturally", "either")
# A value of the last row an ending rule looks for: one cell of trials.csv (a TOML string, integer, number or boolean).
Cell = str | bool | int | float


class Ending(Table):
    """`[[task.endings]]`: an ending of the experiment that means an outcome of its own (docs/own-experiments.md,
    "Completion"). Every condition given must hold; the first rule that holds decides."""

    outcome: Literal[ENDING_OUTCOMES] = Field(
        description="the session's outcome for this ending (each has its own `[prolific.codes]` key)"
    )
    ended: Literal[ENDED] = Field(
        "early",
        description="which endings the rule looks at: `early` (endExperiment / abortExperiment), `naturally` (the "
        "timeline ran to its end) or `either`",
    )
    message_contains: NonBlank | None = Field(
        None, description="the end message (endExperiment's / abortExperiment's) contains this text, in any case"
    )
    last_row: dict[str, Cell] | None = Field(
        None, min_length=1, description="the last stored row holds these values (by trials.csv's column names)"
    )

    @model_validator(mode="after")
    def _has_a_condition(self):
        if self.message_contains is None and self.last_row is None:
            raise problem("an ending needs a condition: message_contains, last_row or both")
        if self.message_contains is not None and self.ended == "naturally":
            raise problem("message_contains needs an early end: a timeline that ends naturally has no end message")
        return self


class JatosInput(Table):
    """`[task.jatos]`: the JSON inputs JATOS's GUI gives an experiment written for JATOS, answered by studyhive's
    jatos object (docs/own-experiments.md, "Experiments written for JATOS"); JATOS's default `{}` where not given. Each
    is a TOML table, or any other value JSON can hold (`component_input = [1, 2]`)."""

    study_input: JsonData = Field({}, description="`jatos.studyInput` (and `studyJsonInput`): the study's JSON input")
    component_input: JsonData = Field(
        {}, description="`jatos.componentInput` (and `componentJsonInput`): the component's JSON input"
    )
    batch_input: JsonData = Field({}, description="`jatos.batchInput` (and `batchJsonInput`): the batch's JSON input")


class JsPsychParams(Table):
    experiment: str = Field("experiment.html", description="the experiment's HTML file in the study's folder")
    resume: Literal[RESUME] = Field(
        "replay",
        description=(
            "after a reload: `replay` runs the stored trials again at once and continues after them, `restart` "
            "starts the experiment over (rows already stored are kept), `none` does not continue the session"
        ),
    )
    min_rows: int = Field(1, ge=0, description="rows a session must store before it can complete")
    row_limit_kb: int = Field(64, ge=1, le=1024, description="most kilobytes of one row's JSON")
    columns: dict[str, str] = Field(
        {}, description="the codebook's description of a data column, by column name (`[task.columns]`)"
    )
    endings: list[Ending] = Field(
        [],
        description="`[[task.endings]]`: endings that mean an outcome of their own, tried in order (`outcome`, "
        "`ended`, `message_contains`, `last_row`); otherwise an early end is `ended_early` and a natural one completes",
    )
    jatos: JatosInput = Field(
        JatosInput(),
        description="`[task.jatos]`: what an experiment written for JATOS reads as its JSON inputs (`study_input`, "
        "`component_input`, `batch_input`)",
    )

    @model_serializer(mode="wrap")
    def _without_default_jatos(self, handler):
        """The stored configuration, without `jatos` when study.toml gives none: the configuration's hash versions
        the study, and a study synced before [task.jatos] existed keeps its version."""
        dumped = handler(self)
        if dumped.get("jatos") == JatosInput().model_dump():
            del dumped["jatos"]
        return dumped


class JsPsychExperiment(PlanLessRows, Analysed):
    id = "jspsych"
    name = "Own jsPsych experiment"
    assets = ("start.js",)
    Params = JsPsychParams

    @property
    def analyzer(self):
        """Imported when an analysis runs: the analyzer's pandas and report stay out of app workers."""
        from .analyzer import JsPsychAnalyzer

        return JsPsychAnalyzer()

    def prepare(self, study_dir: Path, params: dict[str, Any], previous: dict[str, Any] | None) -> Prepared:
        """The page with every URL served by studyhive and the runtime after jsPsych's script (experiment.py), its
        packages pinned (checked against the previous version's pins when the study carries them itself)."""
        registry = Registry(current_app.config["NPM_REGISTRY_URL"], timeout=current_app.config["NPM_REGISTRY_TIMEOUT"])
        packages = study_dir / "packages"
        page = prepare_experiment(
            study_dir,
            params["experiment"],
            registry=registry,
            offline_packages_dir=packages if packages.is_dir() else None,
            pinned=(previous or {}).get("packages"),
            jatos_input=params.get("jatos"),
        )
        html = page.html.replace(RUNTIME_MARKER, RUNTIME_TAG, 1).encode()
        sha = hashlib.sha256(html).hexdigest()
        files = {key: (page.mimetypes[key], data) for key, data in page.files.items()}
        files[sha] = ("text/html", html)
        experiment = {
            "html": sha,
            "jspsych_version": page.jspsych_version,
            "jspsych_major": page.jspsych_major,
            "study_files": page.study_files_manifest,
            "script_hashes": page.inline_script_hashes,
        }
        if page.handler_hashes:  # only then: a page without handlers keeps its configuration, and so its version
            experiment["handler_hashes"] = page.handler_hashes
        return Prepared(
            {"experiment": experiment, "packages": page.pins},
            files,
            notes=tuple(page.notes),
            report=check.report(page, params, study_dir),
        )

    def min_rows(self, params: dict[str, Any]) -> int:
        return params["min_rows"]

    def row_limit(self, params: dict[str, Any]) -> int:
        return params["row_limit_kb"] * 1024

    def column_descriptions(self, params: dict[str, Any]) -> dict[str, str]:
        return params["columns"]

    def ending_outcome(self, params: dict[str, Any], ending: dict[str, Any], last_row: dict[str, Any] | None) -> str:
        """The outcome of the first `[[task.endings]]` rule that holds for this ending, else the default."""
        cells = flat_row(last_row or {})
        for rule in params.get("endings", ()):
            if _holds(rule, ending, cells):
                return rule["outcome"]
        return super().ending_outcome(params, ending, last_row)

    def validate_response(self, response: Any, params: dict[str, Any], shown: dict[str, Any]) -> dict[str, Any]:
        """A row as jsPsych recorded it, any JSON object (its size is checked against `row_limit` before)."""
        if not isinstance(response, dict):
            raise ResponseError("row", "a row must be a JSON object (one entry of jsPsych.data)")
        return response


def _holds(rule: dict[str, Any], ending: dict[str, Any], cells: dict[str, Any]) -> bool:
    """Whether every condition of an ending rule holds for the ending and the last row's cells."""
    early = bool(ending.get("ended_early"))
    if rule["ended"] != "either" and (rule["ended"] == "early") != early:
        return False
    wanted = rule["message_contains"]
    if wanted is not None and wanted.casefold() not in (ending.get("message") or "").casefold():
        return False
    return all(key in cells and _same(cells[key], value) for key, value in (rule["last_row"] or {}).items())


def _same(cell: Any, value: Cell) -> bool:
    """A row's cell equals a rule's value as JSON compares them: true is not 1, 1 is 1.0."""
    return isinstance(cell, bool) == isinstance(value, bool) and cell == value
