"""The CLI layer: `flask <command>` for researchers and operators. Commands parse their options, call the domain
(server/<area>/) and turn its errors into click errors; no domain module imports this package."""

from __future__ import annotations

import importlib
import re

import click
from sqlalchemy import exc

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
            command = getattr(importlib.import_module(f".{module}", __name__), attribute)
            command = self[name] = _schema_said(command)
        return command

    def get(self, name, default=None):
        return self[name] if name in self else default

    def values(self):
        return [self[name] for name in self]

    def items(self):
        return [(name, self[name]) for name in self]


def init_app(app):
    app.cli.commands = LazyCommands(app.cli.commands)


# What the database says of a table or column this code expects and the schema lacks: SQLite's messages, and
# PostgreSQL's SQLSTATEs (undefined_table, undefined_column) with the name in their message.
SQLITE_MISSING = re.compile(r"no such (table|column): (\S+)")
POSTGRES_MISSING = {
    "42P01": ("table", re.compile(r'relation "([^"]+)"')),
    "42703": ("column", re.compile(r'column "?([^" ]+)"?')),
}


def _missing(error: exc.DBAPIError) -> str | None:
    """ "table x" / "column y" when the error is the schema lacking it, else None."""
    found = SQLITE_MISSING.search(str(error.orig))
    if found:
        return f"{found[1]} {found[2]}"
    kind, pattern = POSTGRES_MISSING.get(getattr(error.orig, "sqlstate", None), (None, None))
    named = pattern and pattern.search(str(error.orig))
    return f"{kind} {named[1]}" if named else None


def _schema_said(command: click.Command) -> click.Command:
    """The command, whose run on a database without studyhive's schema (never migrated, or migrated by older code)
    ends with a message that names the fix instead of SQLAlchemy's traceback. `flask db` (Flask-Migrate's), which
    makes the schema, is not among COMMANDS."""
    invoke = command.invoke

    def invoke_said(ctx: click.Context):
        try:
            return invoke(ctx)
        except exc.DBAPIError as error:
            missing = _missing(error)
            if missing is None:
                raise
            raise click.ClickException(
                f"the database has no {missing}: its schema is not this code's (never migrated, or by an older "
                "version); run `flask db upgrade` first (`make run` does)"
            ) from None

    command.invoke = invoke_said
    return command
