"""Participant pages: entry from a Prolific / LabInTheWild link, the jsPsych page, results, and stimuli. Their paths
are built in server/participation/links.py."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, abort, current_app, make_response, redirect, render_template, request, url_for
from flask_babel import gettext
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.datastructures import MultiDict

from .. import i18n, identifiers
from ..db import db, open_autocommit
from ..exceptions import ConfigError
from ..models import Asset, ParticipantSession, Stimulus, Study, StudyVersion
from ..participation import bodies, links, session_api, sessions, trialstore
from ..prolific import settings as prolific_settings
from ..studies import conditions
from ..studies.definitions import get_study
from ..tasktype.contract import TaskType
from ..tasktype.registry import registry
from .files import send_asset
from .security import experiment_csp
from .static_files import HASH_RECHECK_SECONDS, page_file_url

bp = Blueprint("participant", __name__)

# Prolific ids are 24 hex characters; accept any plain id, refuse unsubstituted {{%PLACEHOLDERS%}} and junk.
EXTERNAL_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
PROLIFIC_PARAMS = ("PROLIFIC_PID", "STUDY_ID", "SESSION_ID")
# The entry link's other query parameters, kept for a researcher's experiment (jsPsych.data.getURLVariable): names
# made of what a URL writes unescaped (jsPsych does not decode names), printable values, a bounded number.
URL_VARIABLE_NAME = re.compile(r"^[A-Za-z0-9._~-]{1,64}$")
MAX_URL_VARIABLES = 20
MAX_URL_VARIABLE_CHARS = 500
# Where a preview starts (the researcher bar's "Jump to"): a trial of the plan, or a step of the study's flow.
JUMP = re.compile(r"^(trial-\d{1,6}|step-[A-Za-z0-9_-]{1,64})$")
# The study page is the same for every participant of a study who entered under one version by one platform, but for
# the token: a worker keeps it, rendered with this in the token's place (random, so no study's text holds it).
PAGE_TOKEN = secrets.token_urlsafe(24)
KEPT_PAGES = "studyhive.study_pages"
# A session's statuses whose entry and page show a message (`_resume`) rather than the study.
ENDED = ("completed", "withdrawn")


def message(title: str, text: str, status: int = 200):
    return render_template("participant/message.html", title=title, text=text), status


def not_ready():
    return message(gettext("Not ready"), gettext("This study is not ready to start yet. Please try again later."), 503)


def not_found():
    return message(
        gettext("Study not found"), gettext("There is no study at this address. Please check the link."), 404
    )


def warm_up(app) -> None:
    """What a worker's first participants would each wait for, done once the app is built (the WARM_UP setting): a
    launch sends them together, and one request compiling a template or lexing the JavaScript for the page's strings
    holds the interpreter from the others (docs/operations.md, "The save path at five times psiTurk, seventh round").
    The participant templates are compiled and the page's strings built in every language now; the participant API's
    kept connections and the participant-code key are opened and read beside the worker's start, in a thread of
    their own, so a database that does not answer yet delays no start: the first requests then connect, as without
    this."""
    for name in app.jinja_env.list_templates(filter_func=lambda name: name.startswith("participant/")):
        app.jinja_env.get_template(name)
    with app.app_context():
        i18n.warm_up()
    threading.Thread(target=_connect, args=(app,), name="studyhive-warm-up", daemon=True).start()


def _connect(app) -> None:
    with app.app_context():
        try:
            open_autocommit()
            identifiers.key()
        except SQLAlchemyError as exc:
            app.logger.warning("warm-up: the database did not answer (%s); the first requests connect", exc)


@bp.get("/")
def home():
    """The site's front page, the first address README gives: what the server is and the researchers' login (their
    studies, once logged in). Participants arrive by their study's link, never here."""
    return render_template("home.html", title="Welcome")


@bp.get("/study/<slug>")
def enter(slug):
    """A participant's first request: a new session, or the one their PROLIFIC_PID has (`entry`), and the page it
    goes on to (`_resume`); server/web/hot_path.py answers a Prolific link's entry so before Flask's request
    handling."""
    entered = entry(slug, request.args, request.user_agent.string)
    return _resume(slug, entered.token, entered.status) if isinstance(entered, sessions.Entered) else entered()


def entry(slug: str, args: MultiDict, user_agent: str) -> sessions.Entered | Callable:
    """Entry's work for the link's query `args`: the session to go on with, or a function answering the page that
    entry shows instead (nothing was written then). Every participant makes it, so it reads as the participant API
    does, in Core statements on autocommit connections (the study's row, and the PROLIFIC_PID's session where it
    is looked up); only a study with conditions takes a transaction (sessions.find_or_create)."""
    with trialstore.autocommit() as connection:
        study = sessions.study_at_entry(connection, slug)
    if study is None:
        return not_found
    i18n.use_language(study.config.get("language"))
    prolific, variables, bad = None, None, []
    if "PROLIFIC_PID" in args:
        prolific = {k: args[k] for k in PROLIFIC_PARAMS if k in args}
        bad = [k for k, v in prolific.items() if not EXTERNAL_ID.match(v)]
    if not bad and _page_ends(study):
        variables, bad = _url_variables(args, prolific)
    if bad:
        return lambda: message(
            gettext("Link not valid"),
            gettext(
                "The link's %(keys)s is not a valid id. Please return to Prolific and open the study again.",
                keys=", ".join(bad),
            ),
            400,
        )
    # A returning PROLIFIC_PID resumes its session, whatever the study's status now. An open study without conditions
    # finds it in the entry's INSERT, which stores nothing for it (sessions.find_or_create): one round trip less for
    # every new participant.
    if prolific and (study.status != "open" or study.config.get("conditions")):
        with trialstore.autocommit() as connection:
            existing = sessions.by_prolific_pid(connection, study.id, prolific["PROLIFIC_PID"])
        if existing is not None:
            return existing
    if study.status != "open":
        return lambda: message(
            gettext("Not accepting participants"),
            gettext("This study is not accepting new participants at the moment. Thank you for your interest."),
        )
    try:
        return sessions.find_or_create(study, prolific, user_agent, url_variables=variables)
    except conditions.StudyFull:
        return _study_full
    except ConfigError as exc:
        problem = str(exc)  # `exc` is gone once the except block ends

        def failed():
            current_app.logger.warning("study %s cannot start a session: %s", slug, problem)
            return not_ready()

        return failed


def _study_full():
    body, status = message(
        gettext("Study full"),
        gettext(
            "Every place in this study is taken at the moment. Places of participants who stop part-way open "
            "again later: please try again in a while."
        ),
        503,
    )
    return body, status, {"Retry-After": "600"}


def _url_variables(args: MultiDict, prolific: dict[str, str] | None) -> tuple[dict[str, str] | None, list[str]]:
    """The entry link's query parameters but the Prolific ids the session keeps in columns of its own (the first
    value of a repeated one: the frame's URL gives one), and the names of those that cannot be kept:
    past MAX_URL_VARIABLES, a name URL_VARIABLE_NAME refuses, a value too long or not printable."""
    kept = {k: v for k, v in args.items() if not (prolific and k in PROLIFIC_PARAMS)}
    bad = [
        name[:64]
        for n, (name, value) in enumerate(kept.items())
        if n >= MAX_URL_VARIABLES
        or not URL_VARIABLE_NAME.match(name)
        or len(value) > MAX_URL_VARIABLE_CHARS
        or not value.isprintable()
    ]
    return kept or None, bad


@bp.get("/study/<slug>/preview/<signed>")
def preview(slug, signed):
    """A researcher's signed preview link: a new preview session, even while the study is paused, closed or full
    (it takes no condition slot and is never counted), then its page with the researcher bar; `?jump=trial-N` or
    `?jump=step-NAME` starts that page there."""
    study = get_study(slug)
    if study is None:
        return not_found()
    i18n.use_language(study.config.get("language"))  # the plan's task text is built in it
    try:
        condition = links.read_preview_link(slug, signed)
    except links.PreviewLinkError as exc:
        if exc.expired:
            return message(
                "Preview link expired",
                "This preview link has expired. Get a new one on the study's dashboard page, or with "
                f"`flask links {slug} --preview`.",
                410,
            )
        return message("Preview link not valid", f"{str(exc).capitalize()}: please copy the whole link again.", 403)
    if condition is not None and condition not in links.condition_names(study.config):
        return message(
            "Preview link out of date",
            f"This preview link runs the condition {condition!r}, which the study no longer has. Get a new link on "
            "the study's dashboard page.",
            410,
        )
    jump = request.args.get("jump", "")
    if jump and not JUMP.match(jump):
        return message("Preview link not valid", "Jump to a trial (trial-N) or a step of the flow (step-NAME).", 400)
    try:
        session = sessions.find_or_create(
            study, None, request.user_agent.string, preview=True, condition=condition, jump=jump
        )
    except sessions.UnknownJump as exc:
        return message("Preview link not valid", str(exc), 400)
    except ConfigError as exc:
        current_app.logger.warning("study %s cannot start a preview: %s", slug, exc)
        return not_ready()
    # The fragment tells the page where to start (runner.js); the server never skips anything for it.
    return redirect(url_for(".run", slug=slug, token=session.token, _anchor=f"jump={jump}" if jump else None), 303)


def _preview_bar(session, study, jumps: bool) -> dict | None:
    """What the researcher bar of a preview session's page shows (None for a participant's session): a fresh link
    for Restart (a new preview in the same condition) and, for built-in task types, the steps and trials to jump to.
    `session` and `study`: ORM rows or the participant API's facts of them (trialstore), alike in what is read."""
    if not session.preview:
        return None
    condition = session.condition if session.condition in links.condition_names(study.config) else None
    restart, _ = links.preview_link(study, condition)
    return {
        "restart": restart,
        "jumps": sessions.jumps(study, session.plan) if jumps else [],
        "condition": session.condition,
    }


def _resume(slug: str, token: str, status: str):
    if status == "completed":
        return message(
            gettext("Already completed"), gettext("You have already completed this study. Thank you for taking part!")
        )
    if status == "withdrawn":  # a returning PROLIFIC_PID too: found by its HMAC, not let in again
        return message(
            gettext("Withdrawn"),
            gettext(
                "You have withdrawn from this study: your answers were deleted and nothing more is saved. Thank you "
                "for your time."
            ),
        )
    return redirect(url_for(".run", slug=slug, token=token), 303)


def _page_ends(study: Study) -> bool:
    """Whether the study's page records rows of its own and ends itself (`TaskType.page_ends`: an own experiment,
    served on the experiment host page)."""
    return (registry().get(study.task_type) or TaskType).page_ends


def _session_or_404(slug: str, token: str) -> ParticipantSession:
    session = sessions.by_token(token)
    if session is None or session.study.slug != slug:
        abort(404)
    return session


@bp.get("/study/<slug>/s/<token>")
def run(slug, token):
    """The study's page. Read as the participant API reads (server/participation/trialstore.py): the session's and
    the study's facts from this worker's caches, the status now; the page is every participant's second request.
    A participant's page is kept (`_kept_page`): rendering it was a large part of the request (docs/operations.md,
    "The save path at five times psiTurk, eighth round"); server/web/hot_path.py answers it with the kept page
    (`kept_page`) before Flask's request handling."""
    with trialstore.autocommit() as connection:
        found = _page_session(connection, slug, token)
        if found is None:
            abort(404)
        session, study, status = found
        i18n.use_language(study.config.get("language"))
        if status in ENDED:
            return _resume(slug, token, status)
        task = registry().get(study.task_type)
        if task.page_ends and _ready_for_experiment(study.config, trialstore.surveys_done(connection, session.id)):
            return redirect(url_for(".experiment", slug=slug, token=token))
        if session.preview:
            return _study_page(connection, session, study, task, token)
        return _kept_page(connection, session, study, task).replace(PAGE_TOKEN, token)


def _page_session(connection, slug: str, token: str):
    """(session facts, study facts, status now) of the study page's session; None where the page is a 404."""
    session = trialstore.session_facts(connection, token) if sessions.well_formed(token) else None
    study = session and trialstore.session_study(connection, session)
    status = session and trialstore.status(connection, session.id)[0]
    if not session or study.slug != slug or status == trialstore.PURGED:
        return None
    return session, study, status


def kept_page(connection, slug: str, token: str, script_root: str) -> str | None:
    """The study page as `run` answers it with this worker's kept page (a participant's session that has not ended,
    of a study whose page follows a plan, whose kept page is fresh), or None when `run` answers otherwise (or must
    render the page first). For server/web/hot_path.py, which answers it so."""
    found = _page_session(connection, slug, token)
    if found is None:
        return None
    session, study, status = found
    if status in ENDED or session.preview or registry().get(study.task_type).page_ends:
        return None
    kept = current_app.extensions.get(KEPT_PAGES, {}).get(_kept_key(session, script_root))
    return kept[2].replace(PAGE_TOKEN, token) if _fresh(kept, study) else None


def _kept_key(session, script_root: str) -> tuple:
    return (session.study_id, session.study_version, session.platform, script_root)


def _fresh(kept: tuple | None, study: trialstore.StudyFacts) -> bool:
    """Whether a kept page was rendered from this copy of the study's facts, recently enough that its page files'
    URLs hold."""
    return kept is not None and kept[0] is study and time.monotonic() - kept[1] <= HASH_RECHECK_SECONDS


def _kept_page(connection, session, study: trialstore.StudyFacts, task: TaskType) -> str:
    """The page of a participant's session with PAGE_TOKEN for its token, rendered once per worker for the study's
    facts (read again after trialstore.STUDY_TTL: a synced study's page is built anew), the session's version (its
    consent text) and platform (its early ends' codes), and where the app is mounted; again after the page files'
    URLs may have changed (static_files.HASH_RECHECK_SECONDS)."""
    pages = current_app.extensions.setdefault(KEPT_PAGES, {})
    key = _kept_key(session, request.script_root)
    kept = pages.get(key)
    if not _fresh(kept, study):
        kept = pages[key] = (study, time.monotonic(), _study_page(connection, session, study, task, PAGE_TOKEN))
    return kept[2]


def _study_page(connection, session, study: trialstore.StudyFacts, task: TaskType, token: str) -> str:
    """The study page's HTML for the session, with `token` for its token."""
    # The one consent text of the session's version, whose hash its acceptance records.
    consent = trialstore.consent_html(connection, session.study_id, session.study_version)
    config = {
        "token": token,
        "api": url_for("api.get_state", token=token),
        "slug": study.slug,
        "task_type": study.task_type,
        "platform": session.platform,
        "title": study.title,
        "consent_html": consent,
        "instructions_html": study.config["instructions"],
        "min_width": study.config["min_width"],
        "min_height": study.config["min_height"],
        # Early ends after which the page sends a Prolific participant on with that outcome's completion code
        # (POST /end answers the URL); for the others it asks them to return the study.
        "coded_ends": [
            outcome
            for outcome in bodies.EARLY_OUTCOMES
            if session.platform == "prolific" and prolific_settings.completion_url(study.config, outcome)
        ],
    }
    bar = _preview_bar(session, study, jumps=not task.page_ends)
    if bar:
        config["preview"] = True
    assets = [page_file_url("files.task_file", package=p, filename=name) for p, name in registry().page_files(task)]
    return render_template(
        "participant/study.html",
        config=config,
        title=study.title,
        scripts=[url for url in assets if url.endswith(".js")],
        stylesheets=[url for url in assets if url.endswith(".css")],
        preview=bar,
        strings=i18n.page_strings(),
    )


def _ready_for_experiment(config: dict, done: set[str]) -> bool:
    """Whether studyhive's own steps before a researcher's experiment are done (`done`: the surveys answered):
    consent and the flow's surveys."""
    return "consent" in done and all(name in done for name in config["surveys"])


def _version_config(study, version: int) -> dict | None:
    """The configuration a study had at `version` (a session is served the experiment it entered under)."""
    if version == study.version:
        return study.config
    return db.session.scalar(db.select(StudyVersion.config).filter_by(study_id=study.id, version=version))


def _seed(token: str) -> str:
    """The session's seed for jsPsych's randomness: the same after every reload, and not the token itself (the
    experiment's script can read it)."""
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, b"jspsych-seed:" + token.encode(), hashlib.sha256).hexdigest()[:16]


@bp.get("/study/<slug>/s/<token>/experiment")
def experiment(slug, token):
    """The page around a researcher's jsPsych experiment: it holds the session token and the offline queue, and
    runs the experiment in a sandboxed frame (another origin) that reaches the server only through it."""
    session = _session_or_404(slug, token)
    study = session.study
    if not _page_ends(study):
        abort(404)
    i18n.use_language(study.config.get("language"))
    done = trialstore.surveys_done(db.session.connection(), session.id)
    if session.status in ENDED or not _ready_for_experiment(study.config, done):
        return redirect(url_for(".run", slug=slug, token=token))
    config = _version_config(study, session.study_version) or study.config
    frame = url_for(".experiment_file", slug=slug, version=session.study_version, name=config["task"]["experiment"])
    query = _frame_query(session)
    page = {
        "token": token,
        "api": url_for("api.get_state", token=token),
        "frame": f"{frame}{'?' + query if query else ''}#{_frame_fragment(session, config)}",
        "resume": config["task"]["resume"],
        "platform": session.platform,  # after an error of the experiment: whom a participant without a code asks
    }
    return render_template(
        "participant/experiment.html",
        config=page,
        title=study.title,
        preview=_preview_bar(session, study, jumps=False),
        strings=i18n.page_strings(),
    )


def _frame_fragment(session: ParticipantSession, config: dict[str, Any]) -> str:
    """What the frame's runtime reads of the session: its random seed, and the number of its condition among the
    version's [[conditions]] (0 for the first), which answers DataPipe's condition assignment (runtime.js)."""
    names = [condition["name"] for condition in config.get("conditions", ())]
    number = names.index(session.condition) if session.condition in names else None
    return urlencode({"seed": _seed(session.token), **({} if number is None else {"condition": number})})


def _frame_query(session: ParticipantSession) -> str:
    """The experiment's URL variables, as the entry link gave them: Prolific's ids (while the session still holds
    them) and the link's other parameters (their markers as the raw ids again). Never studyhive's token."""
    raw = {
        "PROLIFIC_PID": session.prolific_pid,
        "STUDY_ID": session.prolific_study_id,
        "SESSION_ID": session.prolific_session_id,
    }
    variables = {name: value for name, value in raw.items() if value}
    variables.update(identifiers.restore(session.url_variables or {}, raw))
    return urlencode(variables)


@bp.get("/study/<slug>/x/<int(max=2147483647):version>/<path:name>")
def experiment_file(slug, version, name):
    """A study version's experiment page, with studyhive's runtime after the jsPsych script (its packages and
    files are served by content: server/web/files.py). Its Content-Security-Policy sandboxes it (an opaque origin,
    even opened on its own): its script cannot read studyhive's pages or cookies."""
    study = get_study(slug)
    config = study and _page_ends(study) and _version_config(study, version)
    if not config or name != config["task"]["experiment"]:
        abort(404)
    prepared = config["experiment"]
    response = make_response(db.session.get(Asset, prepared["html"]).data)
    response.mimetype = "text/html"
    response.headers["Content-Security-Policy"] = experiment_csp(
        prepared["script_hashes"], prepared.get("handler_hashes")
    )
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/study/<slug>/s/<token>/results")
def results(slug, token):
    session = _session_or_404(slug, token)
    if session.status != "completed":
        return redirect(url_for(".run", slug=slug, token=token))
    i18n.use_language(session.study.config.get("language"))
    summary = session_api.summary(db.session.connection(), session.study_id, session.id)
    return render_template("participant/results.html", title=session.study.title, summary=summary)


@bp.get("/stimuli/<slug>/<key>")
def stimulus(slug, key):
    study = get_study(slug)
    task = study and registry().get(study.task_type)
    # Keys are printable ids; anything else (a NUL byte PostgreSQL would refuse) cannot name a stimulus.
    stim = (
        task
        and key.isprintable()
        and db.session.scalars(db.select(Stimulus).filter_by(study_id=study.id, key=key)).first()
    )
    if not stim:
        abort(404)
    rendered = task.render_stimulus(stim.key, stim.params)
    if isinstance(rendered, str):  # an imported image
        return send_asset(rendered)
    mimetype, body = rendered
    response = make_response(body)
    response.mimetype = mimetype
    # A stimulus id fixes its picture, so browsers may keep it.
    response.headers["Cache-Control"] = "public, max-age=86400"
    response.add_etag()
    return response.make_conditional(request)
