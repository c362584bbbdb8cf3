"""Task-type registry: the app factory registers the task packages named by the TASK_PACKAGES setting (default: the
built-in list, server/tasks/builtin.py); a duplicate id or package name is refused.

A task package is an importable package whose ``TASK_TYPES`` lists its TaskType classes; its ``static/`` folder holds
the page files its task types name in ``assets`` (served at /tasks/<package>/<file>)."""
from __future__ import annotations

import importlib
from pathlib import Path

from flask import current_app

from .tasktype import TaskType

EXTENSION_KEY = "studyhive.tasks"


class TaskRegistry:
    def __init__(self):
        self._types: dict[str, TaskType] = {}
        self._package_of: dict[str, str] = {}  # task id → package name (the last part of its dotted name)
        self._static: dict[str, Path] = {}  # package name → its static/ folder

    def register(self, task: TaskType, package: str | None = None, static: Path | None = None) -> None:
        if task.id in self._types:
            raise ValueError(f"task type id {task.id!r} is already registered "
                             f"(by {type(self._types[task.id]).__name__})")
        self._types[task.id] = task
        if package is not None:
            self._package_of[task.id] = package
            self._static[package] = static

    def register_package(self, dotted: str) -> None:
        """Import the task package `dotted` and register every type its TASK_TYPES lists."""
        package = importlib.import_module(dotted)
        name = dotted.rsplit(".", 1)[-1]
        if name in self._static:
            raise ValueError(f"two task packages are named {name!r}: their assets would share /tasks/{name}/")
        for task_type in package.TASK_TYPES:
            self.register(task_type(), name, Path(package.__file__).resolve().parent / "static")

    def get(self, task_id: str) -> TaskType | None:
        """The task type, or None for a stored id the code no longer knows (readers fall back to raw JSON)."""
        return self._types.get(task_id)

    def __contains__(self, task_id: str) -> bool:
        return task_id in self._types

    def ids(self) -> list[str]:
        return sorted(self._types)

    def asset_urls(self, task: TaskType) -> list[str]:
        """URLs of the task's page files, in the order it lists them (a type registered without a package, as tests
        do, has none)."""
        package = self._package_of.get(task.id)
        return [f"/tasks/{package}/{name}" for name in task.assets] if package else []

    def static_folder(self, package: str) -> Path | None:
        return self._static.get(package)


def registry(app=None) -> TaskRegistry:
    return (app or current_app).extensions[EXTENSION_KEY]


def init_app(app):
    reg = TaskRegistry()
    for dotted in app.config["TASK_PACKAGES"]:
        reg.register_package(dotted)
    app.extensions[EXTENSION_KEY] = reg
