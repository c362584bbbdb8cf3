"""Files the pages load: imported assets by content hash, each task package's page files (its `static/` folder, as
the task type's `assets` name them), a study's vocabulary, and a jsPsych experiment's npm package files and study
files (server/tasks/jspsych/experiment.py stores them and writes their URLs into the page)."""

from __future__ import annotations

import json
import re

from flask import Blueprint, abort, current_app, jsonify, make_response, request

from ..db import db
from ..exceptions import ConfigError
from ..models import Asset
from ..studies.definitions import get_study
from ..tasks.jspsych.experiment import STUDY_FILES_MIMETYPE
from ..tasktype.registry import registry
from .static_files import send_page_file

# The types a browser runs a script of (the HTML standard's JavaScript MIME type essences, the common ones).
SCRIPT_TYPES = {"text/javascript", "application/javascript", "application/x-javascript", "text/ecmascript"}

bp = Blueprint("files", __name__)
SHA256 = re.compile(r"[0-9a-f]{64}")


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


def send_public(sha: str):
    """An experiment's file: any origin may load it (a sandboxed page's origin is opaque, and a tag copied from a CDN
    may say crossorigin) — it is content every participant gets, named by its hash."""
    if not SHA256.fullmatch(sha):
        abort(404)
    response = send_asset(sha)
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


def preflight():
    """The answer to a browser's CORS preflight (OPTIONS) for an experiment's file: a GET from the sandboxed frame
    (an opaque origin) that sets a header beyond the CORS-safelisted ones (a JSON Content-Type on a fetch of the
    study's own data.json, as pages written for one origin send) is asked first; without this answer the browser
    refuses the GET. The files are public (send_public), so any header may come with a GET of them."""
    response = make_response("", 204)
    response.headers["Access-Control-Allow-Origin"] = "*"
    response.headers["Access-Control-Allow-Methods"] = "GET, HEAD"
    response.headers["Access-Control-Allow-Headers"] = request.headers.get("Access-Control-Request-Headers", "*")
    response.headers["Access-Control-Max-Age"] = "86400"
    return response


@bp.route("/pkg/<sha>/<path:filename>", methods=["OPTIONS"], provide_automatic_options=False)
@bp.route("/study-files/<manifest>/<path:name>", methods=["OPTIONS"], provide_automatic_options=False)
def public_file_preflight(**_):
    return preflight()


@bp.get("/pkg/<sha>/<path:filename>")
def package_file(sha, filename):
    """A file of an npm package a jsPsych experiment loads; the file name is for the browser's tools only."""
    return send_public(sha)


@bp.get("/study-files/<manifest>/<path:name>")
def study_file(manifest, name):
    """A jsPsych experiment's own file by its path in the study folder, through the list of them (a stored asset)
    that the page's <base> names: the URL names content, so it is cached as immutable like the file itself."""
    listing = db.session.get(Asset, manifest) if SHA256.fullmatch(manifest) else None
    if listing is None or listing.mimetype != STUDY_FILES_MIMETYPE:
        abort(404)
    sha = json.loads(listing.data)["files"].get(name)
    if sha is None:
        # A file the page names and the folder lacks: a 404 the frame may read (its script tags say crossorigin),
        # so the browser says "404" rather than a CORS refusal.
        response = make_response("not in the study folder\n", 404)
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.mimetype = "text/plain"
        return response
    response = send_public(sha)
    # A script tag may name a file of any type (`<script src="data/words.json">` holding `var words = …`), which a
    # static host's answer lets the browser run; studyhive's nosniff would refuse a JSON type, so a script's request
    # gets the file as JavaScript. What the browser caches differs by the request's destination.
    if request.headers.get("Sec-Fetch-Dest") == "script" and response.mimetype not in SCRIPT_TYPES:
        response.mimetype = "text/javascript"
    response.vary.add("Sec-Fetch-Dest")
    return response


@bp.get("/tasks/<package>/<path:filename>")
def task_file(package, filename):
    """A task package's page file (jsPsych plugin, stylesheet), from its static/ folder only, by a hashed name as
    url_for builds it (server/web/static_files.py)."""
    folder = registry().static_folder(package)
    if folder is None:
        abort(404)
    response = send_page_file(str(folder), filename)
    # Public files; the own-experiment frame (an opaque origin) loads jspsych's runtime.js and stand-ins with CORS, so
    # that what they throw or reject reaches its error handlers with the message.
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


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
