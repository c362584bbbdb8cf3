"""Researcher pages behind a login: the study list and the export downloads."""
from __future__ import annotations

from urllib.parse import urlparse

from flask import Blueprint, Response, abort, flash, g, redirect, render_template, request, session, url_for

from . import auth
from .db import db
from .export import csv_stream, export_files
from .models import ParticipantSession, Study, Trial
from .studies import get_study

bp = Blueprint("researcher", __name__, url_prefix="/researcher")


@bp.route("/login", methods=["GET", "POST"])
def login():
    if request.method == "POST":
        researcher = auth.check_login(request.form.get("username", ""), request.form.get("password", ""))
        if researcher is None:
            flash("Unknown username or wrong password.")
            return render_template("researcher/login.html", title="Log in"), 401
        session.clear()
        session["researcher_id"] = researcher.id
        target = request.args.get("next", "")
        # Only same-site paths, so the login cannot be used as an open redirect.
        return redirect(target if target.startswith("/") and not urlparse(target).netloc else url_for(".index"))
    return render_template("researcher/login.html", title="Log in")


@bp.post("/logout")
def logout():
    session.clear()
    return redirect(url_for(".login"))


@bp.get("/")
@auth.login_required
def index():
    counts = db.session.execute(
        db.select(ParticipantSession.study_id, ParticipantSession.status, db.func.count())
        .group_by(ParticipantSession.study_id, ParticipantSession.status)).all()
    trials = dict(db.session.execute(
        db.select(ParticipantSession.study_id, db.func.count(Trial.id)).join(Trial)
        .group_by(ParticipantSession.study_id)).all())
    by_study: dict[int, dict[str, int]] = {}
    for study_id, status, n in counts:
        by_study.setdefault(study_id, {})[status] = n
    studies = db.session.scalars(db.select(Study).order_by(Study.slug)).all()
    return render_template("researcher/index.html", title="Studies", studies=studies, counts=by_study,
                           trials=trials, researcher=g.researcher)


@bp.get("/studies/<slug>/<name>")
@auth.login_required
def download(slug, name):
    study = get_study(slug)
    files = export_files(study) if study else {}
    if name not in files:
        abort(404)
    header, rows = files[name]
    return Response(csv_stream(header, rows), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{slug}-{name}"'})


def init_app(app):
    app.register_blueprint(bp)
