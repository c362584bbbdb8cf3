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


@pytest.mark.any_db
@pytest.mark.parametrize("missing, status", [("pandas", 503), ("scipy.stats", 503), ("somethingelse", 500)])
def test_a_page_needing_the_analysis_set_on_a_serving_only_install_says_so(app, missing, status):
    """A researcher page that computes, on a worker installed with requirements.txt alone, answers 503 naming the
    analysis set to install; any other missing module is the server's own failure, a 500 without its trace."""

    def needs_it():
        raise ModuleNotFoundError(f"No module named {missing!r}", name=missing)

    app.add_url_rule("/researcher/needs-analysis", "needs_analysis", needs_it)
    app.add_url_rule("/api/needs-analysis", "api_needs_analysis", needs_it)
    page, api = app.test_client().get("/researcher/needs-analysis"), app.test_client().get("/api/needs-analysis")
    assert page.status_code == api.status_code == status
    if status == 503:
        assert "pip install -r requirements-analysis.txt" in page.get_data(as_text=True)
        assert api.get_json()["error"] == "analysis_not_installed"
    else:
        assert missing not in page.get_data(as_text=True) and api.get_json()["error"] == "internal_error"
