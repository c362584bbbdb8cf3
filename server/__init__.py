"""studyhive: a Flask server for human-subject studies of visual perception and explainable AI."""
from __future__ import annotations

from pathlib import Path

from flask import Flask

from .config import PROJECT_ROOT, default_config, secret_key
from .tasks.builtin import PACKAGES


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True, static_folder=str(PROJECT_ROOT / "static"))
    # A `//` (an empty id) is a bad URL, not one to redirect: the API answers it with its 404 JSON, not an HTML 308.
    app.url_map.merge_slashes = False
    app.config.from_mapping(default_config(Path(app.instance_path)))
    app.config["MIGRATIONS_DIR"] = str(PROJECT_ROOT / "migrations")
    # The task packages to register (server/registry.py): the built-in ones unless the configuration names others.
    app.config["TASK_PACKAGES"] = PACKAGES
    if test_config:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(Path(app.instance_path))

    # Imported here, not at the top: `import server.<module>` (modelruns, the benchmarks, the task packages' own
    # imports) must not load the whole web app and CLI, and those import server's submodules themselves.
    from . import cli, db, registry, web

    for module in (db, registry, web, cli):
        module.init_app(app)
    return app
