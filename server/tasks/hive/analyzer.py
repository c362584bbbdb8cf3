"""The analysis of the HIVE task types (`flask analyze`, server/results/analyze.py runs it): analysis.reports.hive_study
on the study's exports. The study's `dataset` parameter (e.g. "CUB") and `show_labels` pick the published HIVE rows
shown beside ours (ImageNet studies ran with and without class labels)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from analysis.hive_statistics import HiveTask as StatisticsTask
from analysis.reports.hive_study import HiveReport, hive_report

from ...models import Study
from ...results.analyze import Options, exclusions, load_sessions
from ...results.export import participant_rows, trial_rows
from ...tasktype.contract import Analyzer


class HiveAnalyzer(Analyzer):
    options = ()  # HIVE reports means ± SD and t-tests against chance: no bootstrap, no outlier rule

    def __init__(self, task: StatisticsTask, output_task: StatisticsTask):
        # the study's task type's HIVE task, and the one output prediction asked in its trials is analysed as
        # (HiveTask.statistics_task)
        self.task, self.output_task = task, output_task

    def load(self, study: Study, options: Options) -> dict[str, Any]:
        return {
            "sessions": load_sessions(study, options.stage),
            "participants": pd.DataFrame(list(participant_rows(study, options.stage))),
            "trials": pd.DataFrame(list(trial_rows(study, stage=options.stage))),
        }

    def compute(self, study: Study, data: dict[str, Any], options: Options) -> HiveReport:
        params = study.config["task"]
        return hive_report(
            data["participants"],
            data["trials"],
            self.task,
            params["method"],
            params.get("dataset"),
            meta={
                "slug": study.slug,
                "title": study.title,
                **exclusions(data["participants"]),
                "task_type": study.task_type,
            },
            labels=bool(params.get("show_labels")),
            output_task=self.output_task,
        )
