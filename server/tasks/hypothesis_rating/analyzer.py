"""The analysis of hypothesis-rating (Two4Two) studies (`flask analyze`, server/analyze.py runs it):
analysis.ratings on completed participants' ratings, with each statement's relevance taken from the study file."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from analysis.reports.ratings_study import (CSV_TABLES, likert_plot, ratings_json, ratings_methods, ratings_report,
                                            ratings_text, write_ratings)

from ...analyze import Options, completed, exclusions, load_sessions
from ...export import trial_rows
from ...models import Study
from ...tasktype import Analyzer


class HypothesisRatingAnalyzer(Analyzer):
    options = frozenset({"n_boot", "seed"})  # every rating counts: no outlier rule
    tables = CSV_TABLES

    def load(self, study: Study, options: Options) -> dict[str, Any]:
        columns = ["participant_id", "statement_id", "rating"]
        return {"sessions": load_sessions(study),
                "trials": pd.DataFrame(([r[c] for c in columns] for r in trial_rows(study)), columns=columns),
                "statements": pd.DataFrame([{"statement_id": s["id"], "text": s["text"], "relevant": s["relevant"]}
                                            for s in study.config["task"]["statements"]])}

    def compute(self, study: Study, data: dict[str, Any], options: Options):
        sessions = data["sessions"]
        return ratings_report(completed(data).astype({"rating": int}), data["statements"], n_boot=options.n_boot,
                              seed=options.seed, meta={"slug": study.slug, "title": study.title,
                                                       "task_type": study.task_type, "recruited": len(sessions),
                                                       **exclusions(sessions)})

    def text(self, report) -> str:
        return ratings_text(report)

    def json(self, report) -> dict[str, Any]:
        return ratings_json(report)

    def write(self, report, out_dir: Path) -> list[Path]:
        return write_ratings(report, out_dir)

    def figures(self, report, out_dir: Path) -> list[Path]:
        return [likert_plot(report, out_dir / "likert.png")]

    def methods(self, report) -> str:
        return ratings_methods(report)
