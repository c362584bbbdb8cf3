"""The task-type registry and the ratio-estimation task's contract (parameters, plan, validation, scoring)."""

import math
import random

import pytest

from server.exceptions import ConfigError, ResponseError
from server.tasks.hive.task import HiveOutputPrediction
from server.tasks.ratio_estimation import RatioEstimation
from server.tasks.ratio_estimation.charts import HEIGHTS, BarStimulus
from server.tasks.sketch_recognition.task import SketchRecognition
from server.tasktype.registry import TaskRegistry, registry


def test_registry_refuses_duplicate_ids_and_tolerates_unknown_ones(app):
    reg = TaskRegistry()
    reg.register(RatioEstimation())
    with pytest.raises(ValueError, match="already registered"):
        reg.register(RatioEstimation())
    assert reg.get("retired-task") is None and "ratio-estimation" in reg
    assert "ratio-estimation" in registry(app).ids()


def test_parameters_are_checked():
    task = RatioEstimation()
    assert task.parse_params({}) == {"trials_per_type": 5, "variants": 1, "practice": True}
    for bad in (
        {"trials_per_type": 0},
        {"trials_per_type": 8},
        {"trials_per_type": True},
        {"variants": 0},
        {"practice": "yes"},
        {"colour": "red"},
    ):
        with pytest.raises(ConfigError):
            task.parse_params(bad)


def test_plan_is_reproducible_and_uses_only_known_stimuli():
    task = RatioEstimation()
    params = task.parse_params({"variants": 3})
    keys = {s.key for s in task.stimuli(params)}
    plan_a = task.build_plan(params, random.Random(7))
    assert plan_a == task.build_plan(params, random.Random(7))
    assert plan_a != task.build_plan(params, random.Random(8))
    assert {item.stimulus_id for item in plan_a} <= keys
    test_heights = {(s.short, s.tall) for s in map(BarStimulus.parse, (i.stimulus_id for i in plan_a[5:]))}
    assert all(short in HEIGHTS and tall in HEIGHTS for short, tall in test_heights)
    practice = [BarStimulus.parse(i.stimulus_id) for i in plan_a[:5]]
    assert not any(s.short in HEIGHTS or s.tall in HEIGHTS for s in practice)


def test_validation_and_scoring():
    task = RatioEstimation()
    assert task.validate_response({"percent": 40}, {}, {}) == {"percent": 40.0}
    for bad in (None, {"percent": float("nan")}, {"percent": 100.5}, {"percent": None}, {"pct": 3}):
        with pytest.raises(ResponseError):
            task.validate_response(bad, {}, {})
    score = task.score({"true_percent": 100 * 21 / 56}, {"percent": 40.0})
    assert score["abs_error"] == pytest.approx(2.5)
    assert score["log_error"] == pytest.approx(math.log2(2.5 + 0.125))
    # A perfect answer gets the floor of the log scale, log2(1/8) = -3.
    assert task.score({"true_percent": 50.0}, {"percent": 50.0})["log_error"] == -3


def test_summary_ranks_the_participant_in_the_cohort():
    summary = RatioEstimation().summarise(
        [{"abs_error": 4.0}, {"abs_error": 6.0}], [[{"abs_error": 10.0}], [{"abs_error": 2.0}], [{"abs_error": 8.0}]]
    )
    assert summary["mean_abs_error"] == 5.0 and summary["cohort_median"] == 8.0
    assert summary["more_accurate_than_percent"] == pytest.approx(200 / 3)
    assert summary["lines"][0] == "Your judgments were off by 5.0 percentage points on average."


def test_summary_lines_name_one_other_participant_in_the_singular():
    """The results page's comparison reads right for 1 and for n others (issue #27: not "the 1 other participants"),
    in every task type that compares."""
    cases = (
        (RatioEstimation(), [{"abs_error": 4.0}], lambda e: [{"abs_error": e}]),
        (SketchRecognition(), [{"top1": True, "catch": False}], lambda e: [{"top1": e > 5, "catch": False}]),
        (HiveOutputPrediction(), [{"correct": 1}], lambda e: [{"correct": int(e > 5)}]),
    )
    for task, own, person in cases:
        one = task.summarise(own, [person(8.0)])["lines"][-1]
        many = task.summarise(own, [person(8.0), person(2.0)])["lines"][-1]
        assert one.startswith("The other participant so far "), one
        assert many.startswith(("The 2 other participants so far ", "The median of the 2 other participants")), many
