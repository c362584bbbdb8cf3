"""The analysis of hypothesis-rating (Two4Two) studies (`flask analyze`, server/results/analyze.py runs it):
analysis.ratings on completed participants' ratings, with each statement's relevance taken from the study file."""

from __future__ import annotations

from typing import Any

import pandas as pd

from analysis.reports.ratings_study import RatingsReport, ratings_report

from ...models import Study
from ...results.analyze import Options, completed, exclusions, load_sessions
from ...results.export import trial_rows
from ...tasktype.contract import N_BOOT, SEED, Analyzer


class HypothesisRatingAnalyzer(Analyzer):
    options = (N_BOOT, SEED)  # every rating counts: no outlier rule

    def load(self, study: Study, options: Options) -> dict[str, Any]:
        columns = ["participant_id", "statement_id", "rating"]
        return {
            "sessions": load_sessions(study, options.stage),
            "trials": pd.DataFrame(
                ([r[c] for c in columns] for r in trial_rows(study, stage=options.stage)), columns=columns
            ),
            "statements": pd.DataFrame(
                [
                    {"statement_id": s["id"], "text": s["text"], "relevant": s["relevant"]}
                    for s in study.config["task"]["statements"]
                ]
            ),
        }

    def compute(self, study: Study, data: dict[str, Any], options: Options) -> RatingsReport:
        sessions = data["sessions"]
        return ratings_report(
            completed(data).astype({"rating": int}),
            data["statements"],
            n_boot=options.n_boot,
            seed=options.seed,
            meta={
                "slug": study.slug,
                "title": study.title,
                "task_type": study.task_type,
                "recruited": len(sessions),
                **exclusions(sessions),
            },
        )
