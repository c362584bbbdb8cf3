"""The analysis of the HIVE task types (`flask analyze`, server/results/analyze.py runs it): analysis.reports.hive_study
on the study's exports. The study's `dataset` parameter (e.g. "CUB") and `show_labels` pick the published HIVE rows
shown beside ours (ImageNet studies ran with and without class labels)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from analysis.reports.hive_study import HiveReport, hive_report

from ...models import Study
from ...results.analyze import Options, exclusions, load_sessions
from ...results.export import participant_rows, trial_rows
from ...tasktype.contract import Analyzer


class HiveAnalyzer(Analyzer):
    options = ()  # HIVE reports means ± SD and t-tests against chance: no bootstrap, no outlier rule

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
            study.task_type,
            params["method"],
            params.get("dataset"),
            meta={"slug": study.slug, "title": study.title, **exclusions(data["participants"])},
            labels=bool(params.get("show_labels")),
        )
