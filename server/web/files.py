"""Files the pages load: imported assets by content hash, each task package's page files (its `static/` folder, as
the task type's `assets` name them), and a study's vocabulary."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, jsonify, make_response, request, send_from_directory

from ..db import db
from ..exceptions import ConfigError
from ..models import Asset
from ..studies.definitions import get_study
from ..tasktype.registry import registry

bp = Blueprint("files", __name__)


def send_asset(sha: str):
    asset = db.session.get(Asset, sha)
    if asset is None:
        abort(404)
    response = make_response(asset.data)
    response.mimetype = asset.mimetype
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    # An SVG opened on its own must not run anything it carries.
    response.headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
    response.set_etag(sha)
    return response.make_conditional(request)


@bp.get("/assets/<sha>")
def asset(sha):
    return send_asset(sha)


@bp.get("/tasks/<package>/<path:filename>")
def task_file(package, filename):
    """A task package's page file (jsPsych plugin, stylesheet), from its static/ folder only."""
    folder = registry().static_folder(package)
    if folder is None:
        abort(404)
    return send_from_directory(folder, filename)


@bp.get("/vocabulary/<slug>.json")
def vocabulary(slug):
    """A study's vocabulary for its pages. Not secret and the same for every participant, so cacheable publicly;
    the ETag is the file's hash."""
    study = get_study(slug)
    task = study and registry().get(study.task_type)
    if not task:
        abort(404)
    try:
        found = task.vocabulary(study.config["task"])
    except ConfigError as exc:  # the file changed on disk since the last sync: the operator's to fix
        current_app.logger.error("vocabulary of study %s: %s", slug, exc)
        abort(503)
    if found is None:
        abort(404)
    response = jsonify(found.as_json())
    response.headers["Cache-Control"] = "public, max-age=300"
    response.set_etag(found.sha256)
    return response.make_conditional(request)
