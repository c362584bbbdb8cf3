"""Task-type registry. Built-in types are registered by the app factory; a duplicate id is refused."""
from __future__ import annotations

from .base import TaskType

EXTENSION_KEY = "studyhive.tasks"


class TaskRegistry:
    def __init__(self):
        self._types: dict[str, TaskType] = {}

    def register(self, task: TaskType) -> None:
        if task.id in self._types:
            raise ValueError(f"task type id {task.id!r} is already registered "
                             f"(by {type(self._types[task.id]).__name__})")
        self._types[task.id] = task

    def get(self, task_id: str) -> TaskType | None:
        """The task type, or None for a stored id the code no longer knows (readers fall back to raw JSON)."""
        return self._types.get(task_id)

    def __contains__(self, task_id: str) -> bool:
        return task_id in self._types

    def ids(self) -> list[str]:
        return sorted(self._types)


def registry(app=None) -> TaskRegistry:
    from flask import current_app
    return (app or current_app).extensions[EXTENSION_KEY]


def init_app(app):
    from .hive import HIVE_TASKS
    from .hypothesis_rating import HypothesisRating
    from .ratio_estimation import RatioEstimation
    from .sketch import SketchRecognition

    reg = TaskRegistry()
    reg.register(RatioEstimation())
    reg.register(HypothesisRating())
    reg.register(SketchRecognition())
    for hive_task in HIVE_TASKS:
        reg.register(hive_task())
    app.extensions[EXTENSION_KEY] = reg
