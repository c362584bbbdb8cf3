"""Task-type registry: the app factory registers the task packages named by the TASK_PACKAGES setting (default: the
built-in list, server/tasks/builtin.py), then every task type an installed distribution offers in the entry point
group ``studyhive.task_types``. A task type id that two sources (or two packages of one name) offer is refused,
naming both.

A task package is an importable package whose ``TASK_TYPES`` lists its TaskType classes; its ``static/`` folder holds
the page files its task types name in ``assets`` (served at /tasks/<package>/<file>). An entry point names one class
and is named by its id, e.g. in a distribution's pyproject.toml::

    [project.entry-points."studyhive.task_types"]
    tiny-choice = "tinytask:TinyChoice"

its page files are in the ``static/`` folder of the package the class is defined in."""

from __future__ import annotations

import importlib
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

from flask import current_app

from .contract import TaskType

EXTENSION_KEY = "studyhive.tasks"
ENTRY_POINT_GROUP = "studyhive.task_types"


class TaskRegistry:
    def __init__(self):
        self._types: dict[str, TaskType] = {}
        self._source: dict[str, str] = {}  # task id → where it came from, for the message when another source clashes
        self._package_of: dict[str, str] = {}  # task id → package name (the last part of its dotted name)
        self._static: dict[str, Path] = {}  # package name → its static/ folder

    def register(
        self,
        task: TaskType,
        package: str | None = None,
        static: Path | None = None,
        source: str = "registered directly",
    ) -> None:
        if task.id in self._types:
            raise ValueError(
                f"task type id {task.id!r} is already registered, from {self._source[task.id]} "
                f"({type(self._types[task.id]).__name__}); {source} offers it again "
                f"({type(task).__name__})"
            )
        self._types[task.id] = task
        self._source[task.id] = source
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
            self.register(
                _instance(task_type, f"task package {dotted!r}"),
                name,
                _static_folder(package),
                f"task package {dotted!r} (TASK_PACKAGES)",
            )

    def register_entry_point(self, entry_point: EntryPoint) -> None:
        """Load one `studyhive.task_types` entry point (a TaskType class named by its id) and register it."""
        dist = entry_point.dist
        source = f"entry point {entry_point.name} = {entry_point.value} ({ENTRY_POINT_GROUP})" + (
            f" of {dist.name} {dist.version}" if dist else ""
        )
        task = _instance(entry_point.load(), source)
        if task.id != entry_point.name:
            raise ValueError(f"{source}: the entry point's name must be the task type's id, {task.id!r}")
        dotted = importlib.import_module(type(task).__module__).__spec__.parent  # the package defining the class
        if not dotted:
            raise ValueError(
                f"{source}: {type(task).__name__} must be defined in a package (its static/ folder holds "
                "the page files)"
            )
        package = importlib.import_module(dotted)
        name, static = dotted.rsplit(".", 1)[-1], _static_folder(package)
        if self._static.get(name, static) != static:
            raise ValueError(
                f"{source}: another task package is named {name!r} ({self._static[name].parent}): "
                f"their assets would share /tasks/{name}/"
            )
        self.register(task, name, static, source)

    def get(self, task_id: str) -> TaskType | None:
        """The task type, or None for a stored id the code no longer knows (readers fall back to raw JSON)."""
        return self._types.get(task_id)

    def __contains__(self, task_id: str) -> bool:
        return task_id in self._types

    def ids(self) -> list[str]:
        return sorted(self._types)

    def page_files(self, task: TaskType) -> list[tuple[str, str]]:
        """(package, file name) of the task's page files, in the order it lists them, served at /tasks/<package>/<file>
        (a type registered without a package, as tests do, has none)."""
        package = self._package_of.get(task.id)
        return [(package, name) for name in task.assets] if package else []

    def static_folder(self, package: str) -> Path | None:
        return self._static.get(package)


def _instance(task_type, source: str) -> TaskType:
    """An instance of a task type class, or a ValueError naming `source` when it is not one that can be used."""
    if not (isinstance(task_type, type) and issubclass(task_type, TaskType)):
        raise ValueError(f"{source}: {task_type!r} is not a subclass of server.tasktype.contract.TaskType")
    if task_type.__abstractmethods__:
        raise ValueError(
            f"{source}: task type {task_type.__name__} does not define "
            f"{', '.join(sorted(task_type.__abstractmethods__))}"
        )
    return task_type()


def _static_folder(package) -> Path:
    return Path(package.__file__).resolve().parent / "static"


def registry(app=None) -> TaskRegistry:
    return (app or current_app).extensions[EXTENSION_KEY]


def init_app(app):
    reg = TaskRegistry()
    for dotted in app.config["TASK_PACKAGES"]:
        reg.register_package(dotted)
    for entry_point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: (ep.value, ep.name)):
        reg.register_entry_point(entry_point)
    app.extensions[EXTENSION_KEY] = reg
