"""Sample-size planning for one study (`flask plan`, the dashboard's planning page): reads the study's design from its
study file and its stimuli, and its pilot (analysable completed sessions of a stage, `models.analysable`), and hands
both to its task type's planner (`Planned.planner`, declared in the task's package), which simulates the report's
own test with :mod:`analysis.planning`. Problems are AnalysisError with a message for
the user (unknown study, a task type without planning, an option its planning does not use, an effect in the wrong
unit)."""

from __future__ import annotations

import base64
import math
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.planning import DEFAULT_ALPHA, DEFAULT_NS, DEFAULT_POWER, DEFAULT_REPS, Plan, power_figure

from .. import identifiers
from ..db import db, snapshot
from ..exceptions import AnalysisError
from ..models import STAGES, ParticipantSession, Study, analysable
from ..studies.definitions import get_study
from ..tasktype.contract import Planned, Planner
from ..tasktype.registry import registry
from .export import trial_rows

#: The options only some plannings use (`Planner.options`: refused by the others, not ignored), by their spelling on
#: the command line.
OPTION_FLAGS = {"types": "--types", "statement": "--statement", "versus": "--versus"}


@dataclass(frozen=True)
class PlanRequest:
    effect: float
    power: float = DEFAULT_POWER
    alpha: float = DEFAULT_ALPHA
    reps: int = DEFAULT_REPS
    stage: str = "pilot"
    types: tuple[int, int] | None = None
    statement: str | None = None
    versus: float | None = None
    ns: tuple[int, ...] = DEFAULT_NS
    seed: int = 0


def planned_study(slug: str) -> tuple[Study, Planner]:
    study = get_study(slug)
    if study is None:
        raise AnalysisError(f"no study named {slug!r} (see `flask studies list`)")
    task = registry().get(study.task_type)
    if not isinstance(task, Planned):
        supported = [task_id for task_id in registry().ids() if isinstance(registry().get(task_id), Planned)]
        raise AnalysisError(
            f"flask plan does not support task type {study.task_type!r} (study {slug!r}); supported: "
            f"{', '.join(supported)}"
        )
    return study, task.planner


def planner_of(study: Study) -> Planner | None:
    """The study's planning (None: its task type has none), for the planning page's form."""
    task = registry().get(study.task_type)
    return task.planner if isinstance(task, Planned) else None


def pilot_trials(study: Study, stage: str) -> tuple[pd.DataFrame, int]:
    """The test trials of the study's completed, analysable sessions of `stage` ("pilot", "live" or "all"), and
    how many such sessions there are."""
    done = set(
        db.session.scalars(
            db.select(ParticipantSession.id).where(
                ParticipantSession.study_id == study.id,
                ParticipantSession.status == "completed",
                analysable(stage),
            )
        )
    )
    rows = (
        [r for r in trial_rows(study, stage=stage) if r["participant_id"] in done and not r.get("practice")]
        if done
        else []
    )
    return pd.DataFrame(rows), len(done)


def _refuse_unused(planner: Planner, request: PlanRequest, task_type: str) -> None:
    for name, flag in OPTION_FLAGS.items():
        if getattr(request, name) is not None and name not in planner.options:
            raise AnalysisError(f"{flag}: not used when planning {task_type} studies ({planner.unit})")


def plan_study(slug: str, request: PlanRequest) -> tuple[Plan, str]:
    """The plan for study `slug` and a line saying what pilot it read (or that there was none)."""
    identifiers.key()  # before the snapshot (rows carry participant codes): its first use writes it
    with snapshot():
        study, planner = planned_study(slug)
        _refuse_unused(planner, request, study.task_type)
        trials, sessions = pilot_trials(study, request.stage)
        design = planner.design(study)
    read = (
        f"pilot: {sessions} completed session(s) of stage {request.stage} of {slug!r}"
        if sessions
        else f"no pilot data: {slug!r} has no completed session of stage {request.stage}; planned from the defaults"
    )
    common = dict(
        target=request.power, alpha=request.alpha, reps=request.reps, ns=request.ns, seed=request.seed
    )  # fmt: skip
    try:
        plan = planner.plan(trials, sessions, design, request, common)
    except ValueError as exc:
        if isinstance(exc, AnalysisError):
            raise
        raise AnalysisError(f"cannot plan {slug!r} ({planner.unit}): {exc}") from None
    return plan, read


def listed(values) -> str:
    """Values as a planning's errors list them."""
    return ", ".join(str(v) for v in values) or "none"


# The dashboard's planning page: the form's fields as text, and the plan they ask for.
FORM_FIELDS = {"effect": "", "power": str(DEFAULT_POWER), "stage": "pilot", "types": "", "statement": "", "versus": ""}


def form_values(args) -> dict[str, str]:
    """The planning form's fields from a query string (defaults for those not given), stripped."""
    return {name: str(args.get(name, default)).strip() for name, default in FORM_FIELDS.items()}


def parse_types(text: str | None) -> tuple[int, int] | None:
    """The two chart types of `--types A,B` (or the form's field); None when not given."""
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise AnalysisError(f"chart types: two as A,B (e.g. 1,2), not {text!r}")
    return int(parts[0]), int(parts[1])


def _number(form: dict[str, str], name: str) -> float | None:
    if not form[name]:
        return None
    try:
        value = float(form[name])
    except ValueError:
        raise AnalysisError(f"{name}: a number, not {form[name]!r}") from None
    if not math.isfinite(value):
        raise AnalysisError(f"{name}: a finite number, not {form[name]!r}")
    return value


def dashboard_plan(slug: str, form: dict[str, str], reps: int) -> dict[str, Any]:
    """The plan the form asks for, with `reps` cohorts per n: the plan, the line on its pilot, and the power curve
    as base64 PNG; AnalysisError for a field the planning refuses."""
    power = _number(form, "power")
    if power is None or not 0 < power < 1:
        raise AnalysisError(f"power: a proportion between 0 and 1 (e.g. 0.8), not {form['power']!r}")
    if form["stage"] not in (*STAGES, "all"):
        raise AnalysisError(f"stage: one of {', '.join(STAGES)} or all, not {form['stage']!r}")
    request = PlanRequest(
        effect=_number(form, "effect"),
        power=power,
        reps=reps,
        stage=form["stage"],
        types=parse_types(form["types"] or None),
        statement=form["statement"] or None,
        versus=_number(form, "versus"),
    )
    plan, read = plan_study(slug, request)
    with tempfile.TemporaryDirectory() as tmp:
        png = power_figure(plan, Path(tmp) / "power.png").read_bytes()
    return {"plan": plan, "read": read, "png": base64.b64encode(png).decode()}
