"""Sample-size planning for one study (`flask plan`, the dashboard's planning page): reads the study's design from its
study file and its stimuli, and its pilot (analysable completed sessions of a stage, `models.analysable`), and hands
both to :mod:`analysis.planning`, which simulates the report's own test. Problems are AnalysisError with a message for
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

from analysis.planning import (
    DEFAULT_ALPHA,
    DEFAULT_NS,
    DEFAULT_POWER,
    DEFAULT_REPS,
    Plan,
    plan_hive,
    plan_ratings,
    plan_ratio,
    power_figure,
)

from .. import identifiers
from ..db import db, snapshot
from ..exceptions import AnalysisError
from ..models import STAGES, ParticipantSession, Stimulus, Study, analysable
from ..studies.definitions import get_study
from .export import trial_rows

#: Task type → planning kind; the effect's unit in words (the command's help and its errors quote it).
KINDS = {
    "ratio-estimation": "ratio",
    "hive-agreement": "hive",
    "hive-distinction": "hive",
    "hive-output-prediction": "hive",
    "hive-prototree": "hive",
    "hypothesis-rating": "ratings",
}
UNITS = {
    "ratio": "MLAE difference in log2 units between two chart types (--types A,B: MLAE_B − MLAE_A)",
    "hive": "mean accuracy as a proportion (0.6 = 60 %), against the task's chance",
    "ratings": "share of participants agreeing (rating 5–7) with a statement, a proportion, against --versus",
}
#: The options only some kinds use (refused by the others, not ignored), by the command line's spelling.
KIND_OPTIONS = {
    "types": ("ratio", "--types"),
    "statement": ("ratings", "--statement"),
    "versus": ("ratings", "--versus"),
}


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


def planned_study(slug: str) -> tuple[Study, str]:
    study = get_study(slug)
    if study is None:
        raise AnalysisError(f"no study named {slug!r} (see `flask studies list`)")
    kind = KINDS.get(study.task_type)
    if kind is None:
        raise AnalysisError(
            f"flask plan does not support task type {study.task_type!r} (study {slug!r}); supported: "
            f"{', '.join(sorted(KINDS))}"
        )
    return study, kind


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


def chart_types(study: Study) -> list[int]:
    """The chart types of the study's test stimuli (its design), in order."""
    value = Stimulus.params["chart_type"].as_integer()
    query = db.select(value).where(Stimulus.study_id == study.id, Stimulus.practice.is_(False)).distinct()
    return sorted(t for t in db.session.scalars(query) if t is not None)


def _refuse_unused(kind: str, request: PlanRequest, task_type: str) -> None:
    for name, (used_by, flag) in KIND_OPTIONS.items():
        if getattr(request, name) is not None and kind != used_by:
            raise AnalysisError(f"{flag}: not used when planning {task_type} studies ({UNITS[kind]})")


def plan_study(slug: str, request: PlanRequest) -> tuple[Plan, str]:
    """The plan for study `slug` and a line saying what pilot it read (or that there was none)."""
    identifiers.key()  # before the snapshot (rows carry participant codes): its first use writes it
    with snapshot():
        study, kind = planned_study(slug)
        _refuse_unused(kind, request, study.task_type)
        trials, sessions = pilot_trials(study, request.stage)
        task = study.config.get("task", {})
        types = chart_types(study) if kind == "ratio" else []
    read = (
        f"pilot: {sessions} completed session(s) of stage {request.stage} of {slug!r}"
        if sessions
        else f"no pilot data: {slug!r} has no completed session of stage {request.stage}; planned from the defaults"
    )
    common = dict(
        target=request.power, alpha=request.alpha, reps=request.reps, ns=request.ns, seed=request.seed
    )  # fmt: skip
    try:
        if kind == "ratio":
            if request.types is None:
                raise AnalysisError(f"--types A,B: name the two chart types compared (the study's: {_list(types)})")
            pilot = None
            if sessions and not trials.empty:
                pilot = trials[["participant_id", "chart_type", "log_error"]].dropna()
            plan = plan_ratio(
                pilot, types, request.types, int(task.get("trials_per_type", 5)), request.effect, **common
            )
        elif kind == "hive":
            pilot = trials[["participant_id", "model_correct", "correct"]].dropna() if not trials.empty else None
            plan = plan_hive(
                pilot, study.task_type, task.get("method"), int(task.get("n_trials", 10)), request.effect, **common
            )
        else:
            statements = [s["id"] for s in task.get("statements", [])]
            if request.statement is not None and request.statement not in statements:
                raise AnalysisError(f"--statement: {request.statement!r} is not one of {_list(statements)}")
            pilot = trials[["participant_id", "statement_id", "rating"]].dropna() if not trials.empty else None
            versus = {} if request.versus is None else {"versus": request.versus}
            plan = plan_ratings(pilot, request.statement, request.effect, **versus, **common)
    except ValueError as exc:
        if isinstance(exc, AnalysisError):
            raise
        raise AnalysisError(f"cannot plan {slug!r} ({UNITS[kind]}): {exc}") from None
    return plan, read


def _list(values) -> str:
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
