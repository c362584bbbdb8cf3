"""The web layer: Flask blueprints and request handling. Views parse the request, call the domain (server/<area>/) and
render or answer JSON; no domain module imports this package."""

from __future__ import annotations

from . import api, files, guards, handlers, hot_path, openapi, participant, researcher, security, static_files


def init_app(app):
    handlers.init_app(app)
    security.init_app(app)
    guards.init_app(app)
    static_files.init_app(app)
    for blueprint in (api.bp, participant.bp, files.bp, researcher.bp, openapi.bp):
        app.register_blueprint(blueprint)
    app.wsgi_app = hot_path.HotPath(app, app.wsgi_app)
