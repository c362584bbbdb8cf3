"""studyhive: a Flask server for human-subject studies of visual perception and explainable AI."""
from __future__ import annotations

from pathlib import Path

from flask import Flask

from .config import PROJECT_ROOT, default_config, secret_key


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True, static_folder=str(PROJECT_ROOT / "static"))
    # A `//` (an empty id) is a bad URL, not one to redirect: the API answers it with its 404 JSON, not an HTML 308.
    app.url_map.merge_slashes = False
    app.config.from_mapping(default_config(Path(app.instance_path)))
    app.config["MIGRATIONS_DIR"] = str(PROJECT_ROOT / "migrations")
    if test_config:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(Path(app.instance_path))

    from . import analyze, api, assets, auth, db, errors, exclusion, export, hypoml, label_predictions, links, openapi, participant, predictions, researcher, security, stimuli, studies, tasks, vocabulary
    from .prolific import cli as prolific

    for module in (db, errors, tasks, security, auth, api, participant, assets, researcher, studies, export, exclusion, stimuli, links, predictions, analyze, hypoml, vocabulary, label_predictions, openapi, prolific):
        module.init_app(app)
    return app
