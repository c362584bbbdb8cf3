"""studyhive: a Flask server for human-subject studies of visual perception and explainable AI."""

from __future__ import annotations

import gc

from flask import Flask

from . import config
from .config import PROJECT_ROOT


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True, static_folder=str(PROJECT_ROOT / "static"))
    # A `//` (an empty id) is a bad URL, not one to redirect: the API answers it with its 404 JSON, not an HTML 308.
    app.url_map.merge_slashes = False
    config.load(app, test_config)

    # Imported here, not at the top: `import server.<module>` (modelruns, the benchmarks, the task packages' own
    # imports) must not load the whole web app and CLI, and those import server's submodules themselves.
    from . import cli, db, i18n, web
    from .tasktype import registry

    for module in (db, i18n, registry, web, cli):
        module.init_app(app)
    if app.config["WARM_UP"]:  # an app server's worker, before its first participants
        web.participant.warm_up(app)
    if app.config["GC_FREEZE"]:  # an app server's worker: what is built now lives as long as the process
        gc.collect()
        gc.freeze()
    return app
