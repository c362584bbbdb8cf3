"""Sample-size planning of a HIVE study (`flask plan`, server/results/sample_size.py runs it): the mean accuracy's
test against the task's chance, analysis.planning.plan_hive."""

from __future__ import annotations

from typing import Any

from analysis.planning import Plan, plan_hive

from ...models import Study
from ...tasktype.contract import Planner


class HivePlanner(Planner):
    unit = "mean accuracy as a proportion (0.6 = 60 %), against the task's chance"

    def design(self, study: Study) -> dict[str, Any]:
        task = study.config["task"]
        return {"task_type": study.task_type, "method": task.get("method"), "n_trials": int(task.get("n_trials", 10))}

    def plan(self, pilot, sessions: int, design: dict[str, Any], request, common: dict[str, Any]) -> Plan:
        trials = pilot[["participant_id", "model_correct", "correct"]].dropna() if not pilot.empty else None
        return plan_hive(trials, design["task_type"], design["method"], design["n_trials"], request.effect, **common)
