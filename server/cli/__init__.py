"""The CLI layer: `flask <command>` for researchers and operators. Commands parse their options, call the domain
(server/<area>/) and turn its errors into click errors; no domain module imports this package."""

from __future__ import annotations

import importlib

# Each command's name, and the module of this package and the attribute that define it. Every app registers them,
# app workers too; a command's module (and the domain modules it needs: `flask analyze`'s pandas and reports,
# `flask import-predictions`' pyarrow, `flask plan`'s SciPy) is imported when the command is looked up, so that a
# worker serving participants never loads the analysis stack (docs/operations.md, "What a serving worker loads").
COMMANDS = {
    "researcher": ("researcher", "researcher_cli"),
    "studies": ("studies", "studies_cli"),
    "export": ("export", "export_command"),
    "participants": ("participants", "participants_cli"),
    "stimuli": ("stimuli", "stimuli_cli"),
    "links": ("links", "links_command"),
    "import-predictions": ("predictions", "import_predictions_command"),
    "analyze": ("analyze", "analyze_command"),
    "plan": ("plan", "plan_command"),
    "hypoml": ("hypoml_command", "hypoml_command"),
    "import-label-predictions": ("predictions", "import_label_predictions_command"),
    "prolific": ("prolific", "prolific_cli"),
    "deploy": ("deploy", "deploy_cli"),
    "settings": ("settings", "settings_cli"),
    "sessions": ("sessions", "sessions_cli"),
    "data": ("data", "data_cli"),
}


class LazyCommands(dict):
    """A click group's `commands` (name to command) whose commands of COMMANDS are imported on first lookup: click
    groups find a command with `commands.get(name)` and list them with `sorted(commands)`."""

    def __init__(self, commands):
        super().__init__(dict.fromkeys(COMMANDS), **commands)

    def __getitem__(self, name):
        command = super().__getitem__(name)
        if command is None:
            module, attribute = COMMANDS[name]
            command = self[name] = getattr(importlib.import_module(f".{module}", __name__), attribute)
        return command

    def get(self, name, default=None):
        return self[name] if name in self else default

    def values(self):
        return [self[name] for name in self]

    def items(self):
        return [(name, self[name]) for name in self]


def init_app(app):
    app.cli.commands = LazyCommands(app.cli.commands)
