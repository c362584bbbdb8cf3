"""The analysis of the HIVE task types (`flask analyze`, server/analyze.py runs it): analysis.reports.hive_study on the study's
exports. The study's `dataset` parameter (e.g. "CUB") picks the published HIVE row shown beside ours."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from analysis.reports.hive_study import format_hive_markdown, format_hive_text, hive_json, hive_methods, hive_report
from analysis.reports.hive_figures import write_hive_figures
from analysis.tables import write_tables

from ...analyze import Options, exclusions, load_sessions
from ...export import participant_rows, trial_rows
from ...models import Study
from ...tasktype import Analyzer


class HiveAnalyzer(Analyzer):
    options = frozenset()  # HIVE reports means ± SD and t-tests against chance: no bootstrap, no outlier rule
    tables = ("accuracy", "per_participant", "conditions", "similarity", "understanding", "tradeoff")

    def load(self, study: Study, options: Options) -> dict[str, Any]:
        return {"sessions": load_sessions(study), "participants": pd.DataFrame(list(participant_rows(study))),
                "trials": pd.DataFrame(list(trial_rows(study)))}

    def compute(self, study: Study, data: dict[str, Any], options: Options):
        params = study.config["task"]
        return hive_report(data["participants"], data["trials"], study.task_type, params["method"],
                           params.get("dataset"), meta={"slug": study.slug, "title": study.title,
                                                        **exclusions(data["participants"])})

    def text(self, report) -> str:
        return format_hive_text(report)

    def json(self, report) -> dict[str, Any]:
        return hive_json(report)

    def methods(self, report) -> str:
        return hive_methods(report)

    def write(self, report, out_dir: Path) -> list[Path]:
        written = write_tables(report.tables, self.tables, out_dir)
        (out_dir / "report.md").write_text(format_hive_markdown(report), encoding="utf-8")
        return [*written, out_dir / "report.md", *self.figures(report, out_dir)]

    def figures(self, report, out_dir: Path) -> list[Path]:
        return write_hive_figures(report, out_dir)
