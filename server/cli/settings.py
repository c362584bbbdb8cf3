"""`flask settings docs`: the list of settings in docs/operations.md, generated from server/config.py's table."""

from __future__ import annotations

from pathlib import Path

import click

from ..config import docs_table

# The generated table sits between these two lines of the Markdown file (HTML comments: invisible when rendered).
BEGIN = "<!-- settings: generated from server/config.py by `flask settings docs --write docs/operations.md` -->"
END = "<!-- end of settings -->"


def with_table(text: str) -> str:
    """The Markdown text with the table between BEGIN and END replaced by the current one."""
    head, begin, rest = text.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise click.ClickException(f"the file has no {BEGIN!r} … {END!r} section to replace")
    return f"{head}{BEGIN}\n{docs_table()}{END}{tail}"


@click.group("settings", help="The app's settings (server/config.py).")
def settings_cli():
    pass


@settings_cli.command(
    "docs",
    help="Print the Markdown table of every setting, or with --write put it into a "
    "Markdown file between its settings markers.",
)
@click.option(
    "--write",
    "path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="the Markdown file to update (docs/operations.md)",
)
def docs_command(path):
    if path is None:
        click.echo(docs_table(), nl=False)
        return
    path.write_text(with_table(path.read_text()))
    click.echo(f"{path}: settings table written")
