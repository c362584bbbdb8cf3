"""Researcher pages behind a login: the studies list, a dashboard page per study (progress, funnel, conditions,
data quality, participants, stored results and their recompute, links, open/pause/close), the export downloads (also
by API token) and the researcher's API tokens. Every study URL answers 404 to a researcher without access to that
study."""

from __future__ import annotations

from urllib.parse import urlparse

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    stream_with_context,
    url_for,
)

from ..config import child_environment
from ..db import db
from ..exceptions import AnalysisError
from ..models import (
    STUDY_STATUSES,
    ApiToken,
    ParticipantSession,
    Researcher,
    StoredResult,
    StudyEvent,
    current_generation,
)
from ..participation.links import study_links
from ..prolific import submissions as prolific_submissions
from ..prolific.client import ProlificError, from_config
from ..researchers import auth, exclusion
from ..results import dashboard, stored
from ..results.analyze import Options
from ..results.export import export_files, snapshot_csv, trial_columns, trial_rows
from ..studies.definitions import set_status
from .guards import login_required, study_or_404, token_or_login_required
from .security import login_limit

bp = Blueprint("researcher", __name__, url_prefix="/researcher")
EXPORT_FILES = ("participants.csv", "trials.csv", "codebook.csv")
STATUS_ACTIONS = {"open": "Open", "paused": "Pause", "closed": "Close"}


@bp.route("/login", methods=["GET", "POST"])
def login():
    if request.method == "POST":
        limit = login_limit()
        if limit.exhausted():  # even a correct password, until the window passes
            abort(429, description="Too many failed logins from your address; try again later.")
        researcher = auth.check_login(request.form.get("username", ""), request.form.get("password", ""))
        if researcher is None:
            limit.failed()
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
@login_required
def index():
    studies = db.session.scalars(auth.visible_studies(g.researcher)).all()
    return render_template(
        "researcher/index.html",
        title="Studies",
        studies=studies,
        summaries=dashboard.study_summaries(studies),
        researcher=g.researcher,
    )


@bp.get("/studies/<slug>/")
@login_required
def study(slug):
    study = study_or_404(slug)
    events = db.session.execute(
        db.select(StudyEvent, Researcher.username)
        .outerjoin(Researcher, Researcher.id == StudyEvent.researcher_id)
        .where(StudyEvent.study_id == study.id)
        .order_by(StudyEvent.id.desc())
        .limit(20)
    ).all()
    prolific = None
    if study.prolific_study_id or study.config.get("platform") == "prolific":
        prolific = prolific_submissions.reconciliation(study)
    return render_template(
        "researcher/study.html",
        title=study.slug,
        study=study,
        summary=dashboard.study_summaries([study])[study.id],
        funnel=dashboard.funnel(study),
        plan_less=dashboard.plan_less(study),
        conditions=dashboard.condition_counts(study),
        flags=dashboard.quality_flags(study),
        links=study_links(study, request.url_root),
        events=events,
        statuses=STATUS_ACTIONS,
        files=EXPORT_FILES,
        researcher=g.researcher,
        prolific=prolific,
    )


@bp.get("/studies/<slug>/progress.png")
@login_required
def progress_png(slug):
    return Response(
        dashboard.progress_png(study_or_404(slug)), mimetype="image/png", headers={"Cache-Control": "no-store"}
    )


@bp.post("/studies/<slug>/status")
@login_required
def change_status(slug):
    study = study_or_404(slug)
    status = request.form.get("status", "")
    if status not in STUDY_STATUSES:
        abort(400)
    if set_status(study, status, g.researcher.id):
        flash(f"{study.slug} is now {status}.")
    return redirect(url_for(".study", slug=slug), 303)


@bp.post("/studies/<slug>/prolific/sync")
@login_required
def prolific_sync(slug):
    """The dashboard's "Sync with Prolific" button: `flask prolific sync`, logged as this researcher."""
    study = study_or_404(slug)
    try:
        report = prolific_submissions.sync(study, from_config(current_app.config), g.researcher.id, via="web")
    except (ProlificError, prolific_submissions.NotLinked) as exc:
        flash(f"Prolific sync failed: {exc}")
    else:
        flash(
            f"Read {report.read} submission(s) from Prolific"
            + (f"; {report.abandoned} returned or timed-out session(s) freed their slots." if report.abandoned else ".")
        )
        for warning in report.warnings:
            flash(f"Warning: {warning}")
    return redirect(url_for(".study", slug=slug, _anchor="prolific"), 303)


@bp.get("/studies/<slug>/participants")
@login_required
def participants(slug):
    study = study_or_404(slug)
    page = request.args.get("page", 1, type=int)
    rows, pages = dashboard.participants_page(study, page)
    return render_template(
        "researcher/participants.html",
        title=f"{study.slug}: participants",
        study=study,
        rows=rows,
        page=min(max(page, 1), pages),
        pages=pages,
        fast_ms=dashboard.fast_ms(),
        task_flags=dashboard.task_flags(study),
        plan_less=dashboard.plan_less(study),
    )


@bp.get("/studies/<slug>/participants/<int:participant_id>")
@login_required
def participant(slug, participant_id):
    study = study_or_404(slug)
    person = db.session.get(ParticipantSession, participant_id)
    if person is None or person.study_id != study.id:
        abort(404)
    columns = [c.name for c in trial_columns(study, person.id)]
    return render_template(
        "researcher/participant.html",
        title=f"{study.slug}: participant {person.id}",
        study=study,
        person=person,
        columns=columns,
        rows=list(trial_rows(study, session_id=person.id)),
        fast_ms=dashboard.fast_ms(),
        plan_less=dashboard.plan_less(study),
    )


@bp.post("/studies/<slug>/participants/<int:participant_id>/<any(exclude, reinstate):action>")
@login_required
def exclusion_change(slug, participant_id, action):
    """The participant page's Exclude / Reinstate buttons: a reason is required; the audit log names this
    researcher."""
    study = study_or_404(slug)
    person = db.session.get(ParticipantSession, participant_id)
    if person is None or person.study_id != study.id:
        abort(404)
    change = exclusion.exclude if action == "exclude" else exclusion.reinstate
    try:
        change(study, person, request.form.get("reason"), g.researcher.id, via="web")
    except exclusion.ExclusionError as exc:
        db.session.rollback()
        flash(f"Nothing changed: {exc}.")
        return redirect(url_for(".participant", slug=slug, participant_id=participant_id), 303)
    db.session.commit()
    flash(f"Participant {person.id} {'excluded' if action == 'exclude' else 'reinstated'}.")
    return redirect(url_for(".participant", slug=slug, participant_id=participant_id), 303)


def _recompute_options(shown: StoredResult | None) -> Options:
    """What the Recompute button computes: the options of the result on the page, or at first the dashboard's
    (fewer bootstrap resamples than the command line's publication numbers)."""
    if shown is None:
        return Options(n_boot=current_app.config["DASHBOARD_N_BOOT"])
    return Options(**shown.options)


@bp.get("/studies/<slug>/results")
@login_required
def results(slug):
    """The study's stored result (the latest `flask analyze --store`, or the Recompute button's), its age and whether
    the data changed since: never computed on the request."""
    study = study_or_404(slug)
    shown = stored.latest(study.id)
    generation = current_generation(study.id)
    return render_template(
        "researcher/results.html",
        title=f"{study.slug}: results",
        study=study,
        shown=shown,
        stale=shown is not None and shown.generation < generation,
        generation=generation,
        age=dashboard.age(shown.computed_at) if shown else None,
        running=stored.running(study.id),
    )


@bp.post("/studies/<slug>/results/recompute")
@login_required
def recompute(slug):
    """The results page's Recompute button: `flask analyze SLUG --store` in a process of its own (one at a time
    per study); the page shows its result once stored."""
    study = study_or_404(slug)
    if stored.running(study.id):
        flash("A recompute is already running; reload this page in a moment.")
    else:
        try:
            stored.launch(
                study.slug, _recompute_options(stored.latest(study.id)), child_environment(current_app.config)
            )
        except AnalysisError as exc:
            flash(f"Cannot recompute: {exc}")
        else:
            flash("Recompute started; reload this page in a moment to see its result.")
    return redirect(url_for(".results", slug=slug), 303)


@bp.get("/studies/<slug>/results/<table>.csv")
@token_or_login_required
def results_table(slug, table):
    """One table of the stored result as CSV: 404 for a table it does not have, 409 (JSON) while none is stored."""
    study = study_or_404(slug)
    shown = stored.latest(study.id)
    if shown is None or shown.problem is not None:
        why = "no result is stored" if shown is None else f"the stored result has no tables: {shown.problem}"
        return {
            "error": "no_stored_result",
            "message": f"{why}; recompute it on the results page or with `flask analyze {slug} --store`",
        }, 409
    if table not in shown.table_names:
        abort(404)
    # The same bytes as the table's file from `flask analyze --out` (one writer), stored when computed.
    return Response(
        shown.tables[table],
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{slug}-results-{table}.csv"'},
    )


@bp.get("/studies/<slug>/<name>")
@token_or_login_required
def download(slug, name):
    study = study_or_404(slug)
    if name not in export_files(study):
        abort(404)
    return Response(
        stream_with_context(snapshot_csv(study, name)),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{slug}-{name}"'},
    )


@bp.route("/tokens", methods=["GET", "POST"])
@login_required
def tokens():
    new_token = None
    if request.method == "POST":
        try:
            new_token = auth.create_token(g.researcher, request.form.get("name", ""))
        except ValueError as exc:
            flash(str(exc))
    rows = db.session.scalars(
        db.select(ApiToken).filter_by(researcher_id=g.researcher.id).order_by(ApiToken.created_at)
    ).all()
    return render_template(
        "researcher/tokens.html",
        title="API tokens",
        tokens=rows,
        new_token=new_token,
        example_study=db.session.scalars(auth.visible_studies(g.researcher)).first(),
    )


@bp.post("/tokens/revoke")
@login_required
def revoke_token():
    name = request.form.get("name", "")
    flash(f"Token {name!r} revoked." if auth.revoke_token(g.researcher, name) else f"No token named {name!r}.")
    return redirect(url_for(".tokens"), 303)
