"""Sample-size planning of a HIVE study (`flask plan`, server/results/sample_size.py runs it): the mean accuracy's
test against the task's chance, analysis.planning.plan_hive."""

from __future__ import annotations

from typing import Any

from analysis.hive_statistics import HiveTask as StatisticsTask
from analysis.planning import Plan, plan_hive

from ...models import Study
from ...tasktype.contract import Planner


class HivePlanner(Planner):
    unit = "mean accuracy as a proportion (0.6 = 60 %), against the task's chance"

    def __init__(self, task: StatisticsTask):
        self.task = task  # the study's task type's HIVE task (HiveTask.statistics_task)

    def design(self, study: Study) -> dict[str, Any]:
        task = study.config["task"]
        return {"method": task.get("method"), "n_trials": int(task.get("n_trials", 10))}

    def plan(self, pilot, sessions: int, design: dict[str, Any], request, common: dict[str, Any]) -> Plan:
        trials = pilot[["participant_id", "model_correct", "correct"]].dropna() if not pilot.empty else None
        return plan_hive(trials, self.task, design["method"], design["n_trials"], request.effect, **common)
