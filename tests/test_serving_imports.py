"""A worker that has served only participants has imported none of the analysis stack (issue #40): the app factory,
the participant pages and the JSON API stay off pandas, SciPy, pingouin, matplotlib, pyarrow, numpy and Pillow,
which the analysis set installs (requirements-analysis.txt; docs/operations.md, "What a serving worker loads")."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from server import create_app
from server.cli import COMMANDS
from tests.conftest import BACKEND, ROOT


@pytest.mark.skipif(BACKEND != "sqlite", reason="the worker runs on a copy of the SQLite demo database")
def test_a_worker_serving_participants_imports_no_analysis_package(demo_database, tmp_path):
    database = tmp_path / "worker.sqlite"
    shutil.copyfile(demo_database, database)
    # A fresh interpreter: inside pytest, sys.modules already holds what other tests imported.
    child = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "serving_worker.py"), str(database)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert child.returncode == 0, child.stderr
    worker = json.loads(child.stdout.splitlines()[-1])
    assert worker["loaded"] == [], f"a participant-serving worker imported {worker['loaded']}"


def test_every_command_is_found_under_its_name():
    """The CLI's commands are imported on lookup (server/cli/__init__.py): each name finds the command it names."""
    commands = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "x"}).cli.commands
    assert set(COMMANDS) <= set(commands)
    for name in COMMANDS:
        assert commands.get(name).name == name
