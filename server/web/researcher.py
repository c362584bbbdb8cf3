"""Researcher pages behind a login: the studies list, a dashboard page per study (progress, funnel, conditions,
data quality, participants, stored results and their recompute, links, open/pause/close), the export downloads (also
by API token) and the researcher's API tokens. Every study URL answers 404 to a researcher without access to that
study."""

from __future__ import annotations

from datetime import timedelta

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
    STAGES,
    STUDY_STATUSES,
    ApiToken,
    ParticipantSession,
    Researcher,
    StoredResult,
    StudyEvent,
    current_generation,
)
from ..participation import withdrawal
from ..participation.links import condition_names, preview_link, study_links
from ..participation.sessions import purge_identifiers
from ..prolific import audit
from ..prolific import submissions as prolific_submissions
from ..prolific.client import ProlificError, from_config
from ..researchers import auth, exclusion
from ..results import dashboard, quality, stored
from ..results.analyze import Options
from ..results.balance import ALPHA as BALANCE_ALPHA
from ..results.balance import heatmap_png, study_balance
from ..results.export import IDENTIFIERS, export_files, snapshot_csv, trial_columns, trial_rows
from ..results.replay import steps as replay_steps
from ..studies import diff as version_diff
from ..studies.definitions import set_stage, set_status
from .guards import login_required, start_session, study_or_404, token_or_login_required
from .security import login_limit

bp = Blueprint("researcher", __name__, url_prefix="/researcher")
EXPORT_FILES = ("participants.csv", "trials.csv", "events.csv", "codebook.csv")
PURGE_DAYS = 30  # the study page's purge form starts at the age `flask data purge-identifiers` defaults to
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
        start_session(researcher)
        target = request.args.get("next", "")
        return redirect(target if _same_site_path(target) else url_for(".index"))
    return render_template("researcher/login.html", title="Log in")


def _same_site_path(target: str) -> bool:
    """Whether the login's `next` is a path of this site, so the login cannot be used as an open redirect. Browsers
    read `//host` and `///host` as another site, a backslash as a slash and drop tabs and line breaks, so
    `/\\evil.example` or `/<TAB>/evil.example` would leave it too; a CR or LF would also split the Location header
    (Werkzeug refuses that with a 500)."""
    return (
        target.startswith("/")
        and not target.startswith("//")
        and "\\" not in target
        and all(ch.isprintable() and not ch.isspace() for ch in target)
    )


@bp.post("/logout")
def logout():
    """End the session for good: every session of the account ends with it, so a copy of the cookie (another
    browser, a leaked one) no longer logs anyone in."""
    if g.researcher is not None:
        auth.end_sessions(g.researcher)
        db.session.commit()
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


def _stage(default: str, values=None) -> str:
    """The request's `stage` (pilot, live or all; `default` without one), from the query string or `values`; 400
    for any other value."""
    stage = (request.args if values is None else values).get("stage", default)
    if stage not in dashboard.STAGE_CHOICES:
        abort(400, description=f"stage must be one of {', '.join(dashboard.STAGE_CHOICES)}, not {stage!r}")
    return stage


@bp.get("/studies/<slug>/")
@login_required
def study(slug):
    study = study_or_404(slug)
    stage = _stage(study.stage)
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
        summary=dashboard.study_summaries([study], stage)[study.id],
        withdrawn=dashboard.withdrawn_count(study, stage),
        funnel=dashboard.funnel(study, stage),
        plan_less=dashboard.plan_less(study),
        own_runs=dashboard.own_runs(study, stage),
        conditions=dashboard.condition_counts(study, stage),
        flags=dashboard.quality_flags(study, stage),
        stage=stage,
        stages=STAGES,
        stage_choices=dashboard.STAGE_CHOICES,
        stage_counts=dashboard.stage_counts(study),
        pilot_warning=prolific_submissions.pilot_warning(study),
        links=study_links(study, request.url_root),
        events=events,
        statuses=STATUS_ACTIONS,
        files=EXPORT_FILES,
        researcher=g.researcher,
        prolific=prolific,
        previews=_preview_links(study),
        purge_days=PURGE_DAYS,
        purge=purge_identifiers(study, timedelta(days=PURGE_DAYS), g.researcher.id, "web"),
    )


def _preview_links(study) -> list[dict]:
    """The study page's signed preview links: one per condition (the first is what a link without one runs), or
    one for a study without conditions; each with its expiry."""
    links = []
    for condition in condition_names(study.config) or [None]:
        path, expires = preview_link(study, condition)
        links.append({"condition": condition, "url": request.url_root.rstrip("/") + path, "expires": expires})
    return links


@bp.get("/studies/<slug>/progress.png")
@login_required
def progress_png(slug):
    study = study_or_404(slug)
    return Response(
        dashboard.progress_png(study, _stage(study.stage)), mimetype="image/png", headers={"Cache-Control": "no-store"}
    )


@bp.get("/studies/<slug>/versions")
@login_required
def versions(slug):
    """Two kept versions side by side (`flask studies diff`): by default the two newest; ?a=V1&b=V2 picks them."""
    study = study_or_404(slug)
    kept = version_diff.all_kept(study)
    numbers = [v.version for v in kept]
    a = request.args.get("a", numbers[-2] if len(numbers) > 1 else study.version, type=int)
    b = request.args.get("b", numbers[-1] if numbers else study.version, type=int)
    change, problem = None, None
    try:
        change = version_diff.diff(study, a, b)
    except version_diff.UnknownVersion as exc:
        problem = str(exc)
    return render_template(
        "researcher/versions.html",
        title=f"{study.slug}: versions",
        study=study,
        kept=kept,
        sessions=version_diff.sessions_per_version(study, kept),
        a=a,
        b=b,
        change=change,
        absent=version_diff.ABSENT,
        problem=problem,
    ), (404 if problem else 200)


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


@bp.post("/studies/<slug>/stage")
@login_required
def change_stage(slug):
    """The dashboard's "Put live" / "Back to pilot" button: `flask studies stage`, logged as this researcher."""
    study, stage = study_or_404(slug), request.form.get("stage", "")
    try:
        changed = set_stage(study, stage, g.researcher.id, via="web")
    except ValueError as exc:
        abort(400, description=str(exc))
    news = "is now in the {} stage: new sessions are {} sessions" if changed else "is in the {} stage already"
    flash(f"{study.slug} {news.format(stage, stage)}.")
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
    stage = _stage("all")
    rows, pages = dashboard.participants_page(study, page, stage)
    return render_template(
        "researcher/participants.html",
        title=f"{study.slug}: participants",
        study=study,
        rows=rows,
        page=min(max(page, 1), pages),
        pages=pages,
        stage=stage,
        stage_choices=dashboard.STAGE_CHOICES,
        limits=quality.study_thresholds(study),
        task_flags=quality.task_flags(study),
        rating_task=dashboard.rating_task(study),
        plan_less=dashboard.plan_less(study),
        run_labels=dashboard.RUN_MARKS,
    )


@bp.get("/studies/<slug>/participants/<int(max=2147483647):participant_id>")
@login_required
def participant(slug, participant_id):
    study = study_or_404(slug)
    person = db.session.get(ParticipantSession, participant_id)
    if person is None or person.study_id != study.id or person.preview:  # previews are never shown (analysable)
        abort(404)
    columns = [c.name for c in trial_columns(study, person.id)]
    limits = quality.study_thresholds(study)
    person_quality = quality.per_session(study, None, [person.id]).get(person.id, quality.empty(study))
    return render_template(
        "researcher/participant.html",
        title=f"{study.slug}: participant {person.id}",
        study=study,
        person=person,
        columns=columns,
        rows=list(trial_rows(study, session_id=person.id)),
        surveys=dashboard.survey_answers(person.id),
        limits=limits,
        quality=person_quality,
        flag_labels=quality.flag_labels(study, limits),
        reason=quality.exclusion_reason(study, person_quality, limits) if person_quality.flags else "",
        rating_task=dashboard.rating_task(study),
        plan_less=dashboard.plan_less(study),
        marks=dashboard.run_marks(study, None, [person.id]).get(person.id, []),
        run_labels=dashboard.RUN_MARKS,
    )


@bp.post("/studies/<slug>/participants/<int(max=2147483647):participant_id>/<any(exclude, reinstate):action>")
@login_required
def exclusion_change(slug, participant_id, action):
    """The participant page's Exclude / Reinstate buttons: a reason is required; the audit log names this
    researcher."""
    study = study_or_404(slug)
    person = db.session.get(ParticipantSession, participant_id)
    if person is None or person.study_id != study.id or person.preview:
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


@bp.post("/studies/<slug>/participants/<int(max=2147483647):participant_id>/withdraw")
@login_required
def withdraw(slug, participant_id):
    """The participant page's Withdraw button (`flask participants withdraw`): a reason and the confirmation box are
    required; the audit log names this researcher. A repeat changes nothing."""
    study = study_or_404(slug)
    person = db.session.get(ParticipantSession, participant_id)
    if person is None or person.study_id != study.id or person.preview:
        abort(404)
    back = redirect(url_for(".participant", slug=slug, participant_id=participant_id), 303)
    if request.form.get("confirm") != "yes":
        flash("Nothing changed: tick the box to confirm that the participant's answers are deleted for good.")
        return back
    try:
        done = withdrawal.withdraw(study, person, request.form.get("reason"), g.researcher.id, via="web")
    except withdrawal.WithdrawalError as exc:
        db.session.rollback()
        flash(f"Nothing changed: {exc}.")
        return back
    db.session.commit()
    flash(
        f"Participant {participant_id} withdrawn: their trials and survey answers are deleted."
        if done
        else f"Participant {participant_id} was already withdrawn."
    )
    return back


def _recompute_options(shown: StoredResult | None, stage: str) -> Options:
    """What the Recompute button computes for the page's stage: the options of the result on the page, or at first
    the dashboard's (fewer bootstrap resamples than the command line's publication numbers)."""
    if shown is None:
        return Options(n_boot=current_app.config["DASHBOARD_N_BOOT"], stage=stage)
    return Options(**{**shown.options, "stage": stage})


@bp.get("/studies/<slug>/results")
@login_required
def results(slug):
    """The study's stored result (the latest `flask analyze --store`, or the Recompute button's), its age and whether
    the data changed since: never computed on the request."""
    study = study_or_404(slug)
    stage = _stage(study.stage)
    shown = stored.latest(study.id, stage)
    generation = current_generation(study.id)
    return render_template(
        "researcher/results.html",
        title=f"{study.slug}: results",
        study=study,
        stage=stage,
        stage_choices=dashboard.STAGE_CHOICES,
        shown=shown,
        stale=shown is not None and shown.generation < generation,
        generation=generation,
        age=dashboard.age(shown.computed_at) if shown else None,
        running=stored.running(study.id),
        recompute=stored.last_recompute(study.id, stage, shown),
    )


@bp.post("/studies/<slug>/results/recompute")
@login_required
def recompute(slug):
    """The results page's Recompute button: `flask analyze SLUG --store` in a process of its own (one at a time
    per study); the page says it is running (and reloads itself) until it has failed, with its error, or is done."""
    study = study_or_404(slug)
    stage = _stage(study.stage, request.form)
    if stored.running(study.id):
        flash("A recompute is already running; reload this page in a moment.")
    else:
        options = _recompute_options(stored.latest(study.id, stage), stage)
        try:
            stored.launch(study.slug, options, child_environment(current_app.config), g.researcher.id)
        except AnalysisError as exc:
            flash(f"Cannot recompute: {exc}")
        else:
            flash("Recompute started.")
    return redirect(url_for(".results", slug=slug, stage=stage), 303)


@bp.get("/studies/<slug>/plan")
@login_required
def plan(slug):
    """Sample-size planning (`flask plan` with DASHBOARD_PLAN_REPS cohorts per n, computed on the request): a form,
    and with an effect given the power table and curve, or the problem with the form's values."""
    from ..results import sample_size  # its simulations' SciPy and pandas: imported by the first plan, not at start

    study = study_or_404(slug)
    form, result, problem = sample_size.form_values(request.args), None, None
    if form["effect"]:
        try:
            result = sample_size.dashboard_plan(study.slug, form, current_app.config["DASHBOARD_PLAN_REPS"])
        except AnalysisError as exc:
            problem = str(exc)
    return render_template(
        "researcher/plan.html",
        title=f"{study.slug}: sample size",
        study=study,
        planner=sample_size.planner_of(study),
        form=form,
        result=result,
        problem=problem,
    )


@bp.get("/studies/<slug>/results/<table>.csv")
@token_or_login_required
def results_table(slug, table):
    """One table of the stored result of `?stage=` (the study's current stage without one) as CSV: 404 for a table it
    does not have, 409 (JSON) while none is stored."""
    study = study_or_404(slug)
    stage = _stage(study.stage)
    shown = stored.latest(study.id, stage)
    if shown is None or shown.problem is not None:
        why = f"no {stage} result is stored" if shown is None else f"the stored result has no tables: {shown.problem}"
        return {
            "error": "no_stored_result",
            "message": f"{why}; recompute it on the results page or with "
            f"`flask analyze {slug} --stage {stage} --store`",
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
    return _csv_download(study, name, _stage("all"))


def _csv_download(study, name: str, stage: str) -> Response:
    """One export file, streamed from its own snapshot, as an attachment named after the study."""
    return Response(
        stream_with_context(snapshot_csv(study, name, stage)),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{study.slug}-{name}"'},
    )


@bp.post("/studies/<slug>/identifiers.csv")
@login_required
def download_identifiers(slug):
    """The study page's "Download identifiers.csv" button: raw Prolific ids and full User-Agents, for a researcher
    with access, only by this POST (CSRF-checked, so no link or image can fetch it) and logged in the audit log."""
    study = study_or_404(slug)
    stage = _stage("all", request.form)
    audit.record(study, "identifiers_exported", g.researcher.id, "web", stage=stage)
    db.session.commit()
    return _csv_download(study, IDENTIFIERS, stage)


@bp.post("/studies/<slug>/identifiers/purge")
@login_required
def purge_study_identifiers(slug):
    """The study page's "Purge identifiers" button: `flask data purge-identifiers --apply`, logged as this
    researcher, with the same refusals."""
    study = study_or_404(slug)
    try:
        older_than = timedelta(days=float(request.form.get("older_than_days", "")))
    except (ValueError, OverflowError):  # not a number, NaN, or past what a timedelta holds
        older_than = None
    try:
        if older_than is None:
            raise ValueError("the age must be a number of days")
        report = purge_identifiers(study, older_than, g.researcher.id, "web", apply=True)
    except ValueError as exc:
        flash(f"Nothing purged: {exc}.")
        return redirect(url_for(".study", slug=slug, _anchor="data-protection"), 303)
    if report.refusals:
        flash("Nothing purged: " + "; ".join(report.refusals) + ".")
    else:
        days = older_than / timedelta(days=1)
        note = f" Prolific: {report.prolific_note}." if report.prolific_note else ""
        flash(f"Purged the identifiers of {report.total} session(s) older than {days:g} days.{note}")
    return redirect(url_for(".study", slug=slug, _anchor="data-protection"), 303)


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


@bp.get("/studies/<slug>/participants/<int(max=2147483647):participant_id>/replay")
@login_required
def replay(slug, participant_id):
    """One session's trials, one at a time (keyboard: ← →, Home, End): what each showed as far as the stored data
    tells, the answer, and the events the page recorded. Any session, previews and pilots too, labelled."""
    study = study_or_404(slug)
    person = db.session.get(ParticipantSession, participant_id)
    if person is None or person.study_id != study.id:
        abort(404)
    return render_template(
        "researcher/replay.html",
        title=f"{study.slug}: replay of participant {person.id}",
        study=study,
        person=person,
        steps=replay_steps(person, lambda key: url_for("participant.stimulus", slug=study.slug, key=key)),
        plan_less=dashboard.plan_less(study),
    )


@bp.get("/studies/<slug>/balance")
@login_required
def balance(slug):
    """Conditions' imbalance and quotas, and each item's positions with their test against the design."""
    study = study_or_404(slug)
    shown = study_balance(study, _stage(study.stage))
    return render_template(
        "researcher/balance.html",
        title=f"{study.slug}: balance",
        study=study,
        balance=shown,
        stages=(*STAGES, "all"),
        alpha=BALANCE_ALPHA,
    )


@bp.get("/studies/<slug>/balance.png")
@login_required
def balance_png(slug):
    study = study_or_404(slug)
    return Response(
        heatmap_png(study, study_balance(study, _stage(study.stage))),
        mimetype="image/png",
        headers={"Cache-Control": "no-store"},
    )
