"""Sample-size planning of a hypothesis-rating study (`flask plan`, server/results/sample_size.py runs it): one
statement's share agreeing against a reference share, analysis.planning.plan_ratings."""

from __future__ import annotations

from typing import Any

from analysis.planning import Plan, plan_ratings

from ...exceptions import AnalysisError
from ...models import Study
from ...results.sample_size import listed
from ...tasktype.contract import Planner


class RatingsPlanner(Planner):
    unit = "share of participants agreeing (rating 5–7) with a statement, a proportion, against --versus"
    options = frozenset({"statement", "versus"})

    def design(self, study: Study) -> dict[str, Any]:
        return {"statements": [s["id"] for s in study.config["task"].get("statements", [])]}

    def plan(self, pilot, sessions: int, design: dict[str, Any], request, common: dict[str, Any]) -> Plan:
        statements = design["statements"]
        if request.statement is not None and request.statement not in statements:
            raise AnalysisError(f"--statement: {request.statement!r} is not one of {listed(statements)}")
        trials = pilot[["participant_id", "statement_id", "rating"]].dropna() if not pilot.empty else None
        versus = {} if request.versus is None else {"versus": request.versus}
        return plan_ratings(trials, request.statement, request.effect, **versus, **common)
