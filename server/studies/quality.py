"""study.toml's `[quality]` table: the thresholds of the data-quality flags (server/results/quality.py computes
them). Each key is optional; a study without the table keeps its config, and version, as they were, and its
thresholds are the defaults resolved when the flags are computed: the task type's fast-trial threshold (or the
FAST_TRIAL_MS setting) and the DEFAULT_* values here. Flags never exclude anyone: a researcher decides."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import current_app
from pydantic import Field

from ..schema import Table
from ..tasktype.contract import TaskType

DEFAULT_TIME_AWAY_S = 30
DEFAULT_STRAIGHTLINING_SHARE = 0.9
DEFAULT_STRAIGHTLINING_MIN_RATINGS = 5
MAX_MS = 86_400_000  # a day: the longest time an interaction record's `t` may hold


class QualityTable(Table):
    fast_trial_ms: int | None = Field(
        None,
        ge=1,
        le=MAX_MS,
        description=(
            "a trial answered faster than this many milliseconds is implausibly fast (none: the task type's default, "
            "see [data-quality flags](#data-quality-flags), else the `FAST_TRIAL_MS` setting)"
        ),
    )
    time_away_s: int | None = Field(
        None,
        ge=0,
        le=MAX_MS // 1000,
        description=(
            "flag a participant away from the study's tab (hidden) longer than this many seconds in all, summed over "
            f"their trials (none: {DEFAULT_TIME_AWAY_S})"
        ),
    )
    straightlining_share: float | None = Field(
        None,
        gt=0,
        le=1,
        allow_inf_nan=False,
        description=(
            "rating tasks: flag a participant whose most frequent rating makes at least this share (at most 1) of "
            f"their ratings (none: {DEFAULT_STRAIGHTLINING_SHARE})"
        ),
    )
    straightlining_min_ratings: int | None = Field(
        None,
        ge=2,
        le=100_000,
        description=(
            "rating tasks: … when they gave at least this many test-trial ratings "
            f"(none: {DEFAULT_STRAIGHTLINING_MIN_RATINGS})"
        ),
    )


def config(table: QualityTable | None) -> dict[str, Any]:
    """The validated `[quality]` table as the config key `quality`, only the keys the file gives (nothing without the
    table), so that a default changed here applies to every study without a new version of each."""
    return {} if table is None else {"quality": table.model_dump(exclude_none=True)}


@dataclass(frozen=True)
class Thresholds:
    fast_trial_ms: int
    time_away_s: int
    straightlining_share: float
    straightlining_min_ratings: int


def thresholds(config: dict[str, Any], task: TaskType | None) -> Thresholds:
    """The thresholds a study's flags use: its `[quality]` keys, else the defaults."""
    given = config.get("quality", {})
    task_fast = task.fast_trial_ms if task is not None else None
    return Thresholds(
        fast_trial_ms=given.get("fast_trial_ms", task_fast or int(current_app.config["FAST_TRIAL_MS"])),
        time_away_s=given.get("time_away_s", DEFAULT_TIME_AWAY_S),
        straightlining_share=given.get("straightlining_share", DEFAULT_STRAIGHTLINING_SHARE),
        straightlining_min_ratings=given.get("straightlining_min_ratings", DEFAULT_STRAIGHTLINING_MIN_RATINGS),
    )
