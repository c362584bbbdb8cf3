"""Cleveland–McGill position–length ratio estimation ("Study III" of the ratio-sampling paper, human half).

A participant sees 5 practice trials (one per chart type, heights outside the C–M ten, with feedback), then
`trials_per_type` test trials per chart type, each from a different ratio group, all types intermixed."""

from __future__ import annotations

import statistics
from typing import Any

from flask_babel import gettext, ngettext
from pydantic import Field

from analysis.judgement_errors import log_error

from ...exceptions import ResponseError
from ...schema import Table
from ...tasktype.contract import (
    Analysed,
    Column,
    GeneratedStimuli,
    PlanItem,
    Planned,
    StimulusSpec,
    TrainingSet,
    TrainingSets,
    shuffled_positions,
)
from . import charts, sampling

MAX_GROUPS = min(len(charts.ratio_groups_for_type(t)) for t in charts.CHART_TYPES)


class RatioParams(Table):
    trials_per_type: int = Field(
        5,
        ge=1,
        le=MAX_GROUPS,
        description=(f"test trials per chart type; each from a different ratio group (at most {MAX_GROUPS})"),
    )
    variants: int = Field(
        1, ge=1, le=1000, description=("renderings (random unmarked bars) per chart type × height pair")
    )
    practice: bool = Field(
        True, description=("5 practice trials first, one per chart type, heights outside the ten, with feedback")
    )


class RatioEstimation(GeneratedStimuli, TrainingSets, Analysed, Planned):
    id = "ratio-estimation"
    name = "Ratio estimation on bar charts (Cleveland–McGill position–length)"
    assets = ("ratio-estimate.js",)

    @property
    def analyzer(self):
        """Imported when an analysis runs: the analyzer's pandas and report stay out of app workers."""
        from .analyzer import RatioEstimationAnalyzer

        return RatioEstimationAnalyzer()

    @property
    def planner(self):
        """Imported when a plan is made: the planner's SciPy and pandas stay out of app workers."""
        from .planner import RatioPlanner

        return RatioPlanner()

    # Looking at the chart and typing a number takes longer than half a second.
    fast_trial_ms = 500
    Params = RatioParams
    stimulus_columns = (
        Column(
            "chart_type",
            "Cleveland–McGill bar-chart type 1–5 (1 adjacent, 2 aligned stacked, 3 separated, "
            "4 unaligned stacked, 5 divided bar)",
            "integer",
        ),
        Column("short_height", "height of the shorter marked bar, pixels of the 100×100 chart", "integer"),
        Column("tall_height", "height of the taller marked bar, pixels of the 100×100 chart", "integer"),
        Column("true_percent", "100 × short_height / tall_height"),
    )
    trial_columns = stimulus_columns + (
        Column("response_percent", "the participant's judgment, percent (0–100)"),
        Column("abs_error", "|response_percent − true_percent|, percentage points"),
        Column("log_error", "log2(abs_error + 1/8), Cleveland & McGill 1984"),
    )

    def stimuli(self, params):
        if params["practice"]:
            for stim in charts.practice_stimuli():
                yield StimulusSpec(stim.stimulus_id, _stimulus_params(stim), practice=True)
        for chart_type in charts.CHART_TYPES:
            for group, pairs in charts.ratio_groups_for_type(chart_type).items():
                for short, tall in pairs:
                    for variant in range(params["variants"]):
                        stim = charts.BarStimulus(chart_type, short, tall, variant)
                        yield StimulusSpec(stim.stimulus_id, {**_stimulus_params(stim), "ratio_group": group})

    def build_plan(self, params, rng):
        items = []
        if params["practice"]:
            practice = list(charts.practice_stimuli())
            rng.shuffle(practice)
            items += [(s.stimulus_id, True, {"feedback": {"true_percent": round(s.true_percent, 2)}}) for s in practice]
        test = []
        for chart_type in charts.CHART_TYPES:
            groups = charts.ratio_groups_for_type(chart_type)
            for group in rng.sample(sorted(groups), params["trials_per_type"]):
                short, tall = rng.choice(groups[group])
                test.append(charts.stimulus_id(chart_type, short, tall, rng.randrange(params["variants"])))
        rng.shuffle(test)
        items += [(stimulus_id, False, {}) for stimulus_id in test]
        return [PlanItem(i, stimulus_id, practice, extra) for i, (stimulus_id, practice, extra) in enumerate(items)]

    def position_design(self, items):
        return shuffled_positions(len(items))  # the test trials are shuffled after the practice ones

    def validate_response(self, response, params, shown):
        if not isinstance(response, dict):
            raise ResponseError("response", 'response must be an object like {"percent": 42.5}')
        unknown = set(response) - {"percent"}
        if unknown:
            raise ResponseError("response", f"unknown response field(s): {', '.join(sorted(unknown))}")
        value = response.get("percent")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ResponseError("response.percent", "response.percent must be a number")
        # Compared as they came: an integer beyond float range (10**400) has no float, and NaN fails the comparison.
        if not 0 <= value <= 100:
            raise ResponseError("response.percent", "response.percent must be between 0 and 100")
        return {"percent": float(value)}

    def score(self, stimulus, response):
        abs_error = abs(response["percent"] - stimulus["true_percent"])
        return {"abs_error": abs_error, "log_error": float(log_error(response["percent"], stimulus["true_percent"]))}

    def summarise(self, own, cohort):
        def mean_error(scores):
            return statistics.fmean(s["abs_error"] for s in scores)

        mine = mean_error(own) if own else None
        others = [mean_error(person) for person in cohort if person]
        summary = {
            "mean_abs_error": mine,
            "cohort_size": len(others),
            "cohort_median": statistics.median(others) if others else None,
            "more_accurate_than_percent": (
                100 * sum(o > mine for o in others) / len(others) if others and mine is not None else None
            ),
        }
        lines = []
        if mine is not None:
            lines.append(
                gettext("Your judgments were off by %(error)s percentage points on average.", error=f"{mine:.1f}")
            )
        if summary["more_accurate_than_percent"] is not None:
            lines.append(
                ngettext(
                    "The other participant so far was off by %(median)s points: you were more accurate than "
                    "%(percent)s %% of them.",
                    "The median of the %(num)d other participants so far is %(median)s points: you were more "
                    "accurate than %(percent)s %% of them.",
                    len(others),
                    median=f"{summary['cohort_median']:.1f}",
                    percent=f"{summary['more_accurate_than_percent']:.0f}",
                )
            )
        return {**summary, "lines": lines}

    def trial_row(self, stimulus, response, score, presented):
        return {
            "chart_type": stimulus.get("chart_type"),
            "short_height": stimulus.get("short_height"),
            "tall_height": stimulus.get("tall_height"),
            "true_percent": stimulus.get("true_percent"),
            "response_percent": response.get("percent"),
            "abs_error": score.get("abs_error"),
            "log_error": score.get("log_error"),
        }

    def render_stimulus(self, key, params):
        return "image/svg+xml", charts.render_svg(charts.layout(charts.BarStimulus.parse(key))).encode()

    def model_input(self, key, params):
        return "png", charts.render_png(charts.layout(charts.BarStimulus.parse(key)))

    def training_set(self, test, options):
        training, validation, how, test = sampling.training_set(
            [(p["short_height"], p["tall_height"]) for p in test],
            options["n"],
            options["validation"],
            options["regime"],
            options["bins"],
            options["seed"],
            options["chart_types"] or charts.CHART_TYPES,
            options.get("random_test"),
        )
        return TrainingSet(
            [StimulusSpec(s.stimulus_id, _stimulus_params(s)) for s in training],
            [StimulusSpec(s.stimulus_id, _stimulus_params(s)) for s in validation],
            how,
            [StimulusSpec(s.stimulus_id, _stimulus_params(s)) for s in test],
        )


def _stimulus_params(stim: charts.BarStimulus) -> dict[str, Any]:
    return {
        "chart_type": stim.chart_type,
        "short_height": stim.short,
        "tall_height": stim.tall,
        "variant": stim.variant,
        "true_percent": stim.true_percent,
    }
