"""The analysis of a researcher's own jsPsych experiment (`flask analyze`, server/results/analyze.py runs it):
analysis.reports.jspsych_study on the completed participants' rows, read as trials.csv holds them
(server.results.export.trial_rows: jsPsych's columns, nested values as JSON text)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from analysis.reports.jspsych_study import JsPsychReport, jspsych_report

from ...models import Study
from ...results.analyze import Options, completed, exclusions, load_sessions
from ...results.export import trial_rows
from ...tasktype.contract import Analyzer


class JsPsychAnalyzer(Analyzer):
    # Descriptive only: no outlier rule, no bootstrap, nothing seeded.
    options = ()

    def load(self, study: Study, options: Options) -> dict[str, Any]:
        return {
            "sessions": load_sessions(study, options.stage),
            "trials": pd.DataFrame(list(trial_rows(study, stage=options.stage))),
        }

    def compute(self, study: Study, data: dict[str, Any], options: Options) -> JsPsychReport:
        s = data["sessions"]
        return jspsych_report(
            s,
            completed(data),
            meta={"slug": study.slug, "title": study.title, "task_type": study.task_type, **exclusions(s)},
        )
