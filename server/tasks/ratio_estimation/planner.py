"""Sample-size planning of a ratio-estimation study (`flask plan`, server/results/sample_size.py runs it): the
paired test of two chart types' MLAE, analysis.planning.plan_ratio."""

from __future__ import annotations

from typing import Any

from analysis.planning import Plan, plan_ratio

from ...db import db
from ...exceptions import AnalysisError
from ...models import Stimulus, Study
from ...results.sample_size import listed
from ...tasktype.contract import Planner


class RatioPlanner(Planner):
    unit = "MLAE difference in log2 units between two chart types (--types A,B: MLAE_B − MLAE_A)"
    options = frozenset({"types"})

    def design(self, study: Study) -> dict[str, Any]:
        """The chart types of the study's test stimuli, in order, and its trials per chart type."""
        value = Stimulus.params["chart_type"].as_integer()
        query = db.select(value).where(Stimulus.study_id == study.id, Stimulus.practice.is_(False)).distinct()
        types = sorted(t for t in db.session.scalars(query) if t is not None)
        return {"chart_types": types, "trials_per_type": int(study.config["task"].get("trials_per_type", 5))}

    def plan(self, pilot, sessions: int, design: dict[str, Any], request, common: dict[str, Any]) -> Plan:
        types = design["chart_types"]
        if request.types is None:
            raise AnalysisError(f"--types A,B: name the two chart types compared (the study's: {listed(types)})")
        trials = None
        if sessions and not pilot.empty:
            trials = pilot[["participant_id", "chart_type", "log_error"]].dropna()
        return plan_ratio(trials, types, request.types, design["trials_per_type"], request.effect, **common)
