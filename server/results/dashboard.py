"""The numbers and plots of the researcher dashboard, aggregated in the database so the pages stay fast on a study
with thousands of participants and tens of thousands of trials (bench/dashboard_pages.py times them).

Funnel steps, per participant session:
  entered        a session exists (the entry link was opened while the study was open);
  consented      the consent form was answered;
  practice done  at least one test trial is stored (practice, if the study has any, comes first in every plan);
  finished       every planned trial is stored; for a study whose page records rows of its own (its task type's
                 `page_ends`: a researcher's jsPsych experiment, whose sessions have empty plans) the page said its
                 timeline finished;
  redirected     the session completed: the server checked it and sent the page to Prolific's completion URL
                 (or, off Prolific, to the results page).

The steps' names are the task type's (`progress_steps`): a researcher's own experiment's mean something for it
instead: entered, consented, first row (stored), timeline finished (the page said so, naturally or early),
completed. Its runs that need a look are marked (RUN_MARKS), counted on the study page and shown per participant.
"""

from __future__ import annotations

import io
import statistics
from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # drawn on request (the progress chart): the study page's counts need no matplotlib
    from matplotlib.figure import Figure

from .. import identifiers
from ..db import db, utcnow
from ..models import STAGES, ParticipantSession, Study, SurveyResponse, Trial, analysable, analysable_in
from ..studies.conditions import DEFAULT_ABANDON_MINUTES
from ..studies.surveys import SURVEYS
from ..tasktype.contract import Ratings, TaskType
from ..tasktype.registry import registry
from . import quality

PAGE_SIZE = 50
KEYS_PER_QUERY = 500  # bound parameters per IN list: SQLite allows 32,766 a statement
#: The dashboard's `?stage=` choices: a stage (models.STAGES), or both.
STAGE_CHOICES = (*STAGES, "all")
# Runs of an own experiment that need a look, by the mark the participants list shows: what each means.
RUN_MARKS = {
    "ended_early": "ended early: the experiment called endExperiment / abortExperiment, and study.toml's "
    "[[task.endings]] made it no other outcome",
    "stranded": "stranded: rows stored, the timeline not finished, and no activity for longer than the study's "
    "abandon_after_minutes",
    "experiment_error": "an error in the experiment's own code stopped it",
    "replay_diverged": "after a reload, a replayed row differed from the stored one",
}


def _utc(value: datetime | None) -> datetime | None:
    if value is not None and value.tzinfo is None:  # SQLite drops the zone; everything is stored in UTC
        value = value.replace(tzinfo=UTC)
    return value


def age(when: datetime) -> str:
    """How long ago `when` was, for a reader: "40 s", "12 min", "3 h", "2 days"."""
    seconds = max(0, int((datetime.now(UTC) - _utc(when)).total_seconds()))
    for unit, size in (("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds // size} {unit}"
    return f"{seconds} s"


def stage_counts(study: Study) -> dict[str, int]:
    """stage → the study's sessions that started in it (previews never count), for the dashboard's stage badge."""
    PS = ParticipantSession
    counts = dict(
        db.session.execute(
            db.select(PS.stage, db.func.count()).where(analysable_in(study.id, "all")).group_by(PS.stage)
        ).all()
    )
    return {stage: counts.get(stage, 0) for stage in STAGES}


def withdrawn_count(study: Study, stage: str | None) -> int:
    """The study's withdrawn participants of `stage`: tombstones every other count leaves out (models.analysable)."""
    PS = ParticipantSession
    return db.session.scalar(
        db.select(db.func.count()).where(
            PS.study_id == study.id, analysable(stage, withdrawn=True), PS.withdrawn_at.is_not(None)
        )
    )


def _ids_by_stage(studies: list[Study], stage: str | None) -> dict[str, list[int]]:
    """stage → ids of the studies to count in it: `stage` for all of them, or (None) each study's current one."""
    if stage is not None:
        return {stage: [s.id for s in studies]} if studies else {}
    out: dict[str, list[int]] = {}
    for s in studies:
        out.setdefault(s.stage, []).append(s.id)
    return out


def study_summaries(studies: list[Study], stage: str | None = None) -> dict[int, dict[str, Any]]:
    """Per study: sessions started / completed / excluded, median duration of the completed ones, last activity; of
    `stage` ("pilot", "live" or "all"), by default each study's current stage."""
    out = {
        s.id: {"started": 0, "completed": 0, "excluded": 0, "median_duration_s": None, "last_activity": None}
        for s in studies
    }
    if not out:
        return out
    PS = ParticipantSession
    counted = db.or_(*(PS.study_id.in_(ids) & analysable(s) for s, ids in _ids_by_stage(studies, stage).items()))
    for study_id, status, n, last in db.session.execute(
        db.select(PS.study_id, PS.status, db.func.count(), db.func.max(PS.last_seen_at))
        .where(counted)
        .group_by(PS.study_id, PS.status)
    ):
        row = out[study_id]
        row["started"] += n  # every session was started; completed and excluded ones too
        if status in ("completed", "excluded"):
            row[status] = n
        last = _utc(last)
        if last and (row["last_activity"] is None or last > row["last_activity"]):
            row["last_activity"] = last
    # A median is not portable SQL (SQLite has none); the completed sessions' two timestamps are few and small.
    durations: dict[int, list[float]] = {}
    for study_id, started, completed in db.session.execute(
        db.select(PS.study_id, PS.started_at, PS.completed_at).where(counted, PS.completed_at.is_not(None))
    ):
        durations.setdefault(study_id, []).append((_utc(completed) - _utc(started)).total_seconds())
    for study_id, values in durations.items():
        out[study_id]["median_duration_s"] = statistics.median(values)
    return out


def plan_less(study: Study) -> bool:
    """Whether the study's page decides its own rows and says when it ended (`TaskType.page_ends`), so its
    sessions' plans are empty and say nothing about how far a participant got."""
    return (registry().get(study.task_type) or TaskType).page_ends


def _finished_count(study: Study, stage: str | None, ids) -> int:
    PS = ParticipantSession
    if plan_less(study):
        # An empty plan is "every planned trial stored" as soon as one row is: the page's own signal is the measure.
        return db.session.scalar(
            db.select(db.func.count()).where(analysable_in(study.id, stage), PS.timeline_finished_at.is_not(None))
        )
    stored = (
        db.select(Trial.session_id, db.func.count().label("n"))
        .where(Trial.session_id.in_(ids))
        .group_by(Trial.session_id)
        .subquery()
    )
    return db.session.scalar(
        db.select(db.func.count())
        .select_from(PS)
        .join(stored, stored.c.session_id == PS.id)
        .where(stored.c.n >= db.func.json_array_length(PS.plan))
    )


def funnel(study: Study, stage: str | None) -> list[tuple[str, int]]:
    PS = ParticipantSession
    ids = db.select(PS.id).where(analysable_in(study.id, stage)).scalar_subquery()
    entered = db.session.scalar(db.select(db.func.count()).where(analysable_in(study.id, stage)))
    consented = db.session.scalar(
        db.select(db.func.count(db.distinct(SurveyResponse.session_id))).where(
            SurveyResponse.name == "consent", SurveyResponse.session_id.in_(ids)
        )
    )
    practice_done = db.session.scalar(
        db.select(db.func.count(db.distinct(Trial.session_id))).where(
            Trial.practice.is_(False), Trial.session_id.in_(ids)
        )
    )
    finished = _finished_count(study, stage, ids)
    redirected = db.session.scalar(
        db.select(db.func.count()).where(analysable_in(study.id, stage), PS.status == "completed")
    )
    steps = (registry().get(study.task_type) or TaskType).progress_steps
    return list(zip(steps, (entered, consented, practice_done, finished, redirected), strict=True))


def _run_clauses(study: Study) -> dict[str, Any]:
    """RUN_MARKS' conditions on participant_sessions."""
    PS = ParticipantSession
    idle = utcnow() - timedelta(minutes=study.config.get("abandon_after_minutes", DEFAULT_ABANDON_MINUTES))
    return {
        "ended_early": PS.ending["ended_early"].as_boolean().is_(True),
        "stranded": (PS.status == "started")
        & PS.timeline_finished_at.is_(None)
        & (PS.last_seen_at < idle)
        & db.exists().where(Trial.session_id == PS.id),
        "experiment_error": PS.experiment_error.is_not(None),
        "replay_diverged": PS.replay_divergence.is_not(None),
    }


def run_marks(study: Study, stage: str | None, ids: list[int] | None = None) -> dict[int, list[str]]:
    """session id → its RUN_MARKS (in that order), for the study's sessions of `stage` (or those of `ids`) that have
    any; none for a study with a plan."""
    if not plan_less(study):
        return {}
    PS = ParticipantSession
    clauses = _run_clauses(study)
    query = db.select(PS.id, *(clause.label(name) for name, clause in clauses.items())).where(
        analysable_in(study.id, stage), db.or_(*clauses.values())
    )
    if ids is not None:
        query = query.where(PS.id.in_(ids))
    return {row.id: [name for name in clauses if row._mapping[name]] for row in db.session.execute(query)}


def own_runs(study: Study, stage: str | None) -> list[dict[str, Any]]:
    """The study page's marked runs of an own experiment: per mark its name, label and participants (by id)."""
    marks = run_marks(study, stage)
    return [
        {"name": name, "label": label, "participants": sorted(sid for sid, own in marks.items() if name in own)}
        for name, label in RUN_MARKS.items()
    ]


def condition_quotas(config: dict[str, Any]) -> dict[str, int | None]:
    """condition → quota (None: no quota) from study.toml `conditions`: a list of names, a table name → quota or
    name → {quota = N}, or a list of tables with `name` (and `quota`)."""
    conditions = config.get("conditions") or {}
    if isinstance(conditions, dict):
        return {
            str(k): (v.get("quota") if isinstance(v, dict) else v if isinstance(v, int) else None)
            for k, v in conditions.items()
        }
    out: dict[str, int | None] = {}
    for item in conditions if isinstance(conditions, list) else []:
        if isinstance(item, dict) and "name" in item:
            out[str(item["name"])] = item.get("quota")
        elif isinstance(item, str):
            out[item] = None
    return out


def condition_rows(
    counts: Iterable[tuple[str | None, str, int]], quotas: dict[str, int | None]
) -> list[dict[str, Any]]:
    """Per condition (the study file's, in its order, then any other a session holds, sorted, no condition last):
    sessions started and completed, its quota, and whether the study file names it. `counts`: (condition, status,
    number of sessions)."""
    tally: dict[str | None, dict[str, int]] = {}
    for condition, status, n in counts:
        row = tally.setdefault(condition, {"started": 0, "completed": 0})
        row["started"] += n
        row["completed"] += n if status == "completed" else 0
    names = list(quotas) + sorted((c for c in tally if c not in quotas), key=lambda c: (c is None, c or ""))
    return [
        {
            "condition": name,
            **tally.get(name, {"started": 0, "completed": 0}),
            "quota": quotas.get(name),
            "in_study": name in quotas,
        }
        for name in names
    ]


def condition_counts(study: Study, stage: str | None) -> list[dict[str, Any]]:
    """`condition_rows` of the study's sessions in `stage` (quotas count the study's current stage:
    studies/conditions.py)."""
    PS = ParticipantSession
    counts = db.session.execute(
        db.select(PS.condition, PS.status, db.func.count())
        .where(analysable_in(study.id, stage))
        .group_by(PS.condition, PS.status)
    )
    return condition_rows(counts, condition_quotas(study.config))


def rating_task(study: Study) -> bool:
    """Whether the study's answers are ratings, checked for straight-lining."""
    return isinstance(registry().get(study.task_type), Ratings)


def quality_flags(study: Study, stage: str | None) -> dict[str, Any]:
    """Per flag (server/results/quality.py: fast trials, the task type's own such as failed catch trials, time away
    from the tab, straight-lining) its label and the participants who raised it; and Prolific ids that also took
    part in other studies here (returning participants). Duplicate sessions of one PROLIFIC_PID in a study cannot
    exist (a unique key); the outliers come with the analysis (results page). Sessions of `stage`, never previews."""
    per = quality.per_session(study, stage)
    limits = quality.study_thresholds(study)
    returning = returning_participants(study, stage)
    trials = {quality.FAST: sum(q.fast for q in per.values())}
    trials.update({f.score_key: sum(q.task[i] for q in per.values()) for i, f in enumerate(quality.task_flags(study))})
    return {
        "thresholds": limits,
        "flags": [
            {
                "name": name,
                "label": label,
                "trials": trials.get(name),  # None: a flag of participants, not of trials
                "participants": sorted(sid for sid, q in per.items() if name in q.flags),
            }
            for name, label in quality.flag_labels(study, limits).items()
            if name != quality.STRAIGHTLINING or rating_task(study)
        ],
        "not_recorded": sum(1 for q in per.values() if q.time_away_s is None),
        "returning": returning,
    }


def returning_participants(study: Study, stage: str | None) -> list[dict[str, Any]]:
    """The study's sessions of `stage` whose Prolific id also took part in other studies here, matched by the id's
    HMAC (an older session without one: by the HMAC of its raw id, computed here), with their participant_code.
    Reads this study's sessions, the other studies' sessions under those HMACs (by index), and the older sessions
    that have only a raw id."""
    PS = ParticipantSession
    mine: dict[int, str] = {  # session id -> the HMAC its PROLIFIC_PID is matched under
        sid: identifiers.session_key(hmac, pid)
        for sid, hmac, pid in db.session.execute(
            db.select(PS.id, PS.pid_hmac, PS.prolific_pid).where(
                analysable_in(study.id, stage), identifiers.has_platform_id()
            )
        )
    }
    keys = sorted(set(mine.values()))
    elsewhere: Counter[str] = Counter()  # HMAC -> sessions in other studies
    others = (PS.study_id != study.id) & analysable("all")
    for chunk in range(0, len(keys), KEYS_PER_QUERY):
        elsewhere.update(
            db.session.scalars(
                db.select(PS.pid_hmac).where(others, PS.pid_hmac.in_(keys[chunk : chunk + KEYS_PER_QUERY]))
            )
        )
    if keys:
        for pid in db.session.scalars(
            db.select(PS.prolific_pid).where(others, PS.pid_hmac.is_(None), PS.prolific_pid.is_not(None))
        ):
            elsewhere[identifiers.session_key(None, pid)] += 1
    return [
        {"participant_id": sid, "participant_code": key[: identifiers.CODE_HEX_DIGITS], "other_studies": elsewhere[key]}
        for sid, key in sorted(mine.items())
        if elsewhere[key]
    ]


def participants_page(study: Study, page: int, stage: str | None) -> tuple[list[dict[str, Any]], int]:
    """One page of the participant list of `stage` (newest first; never a preview) with each session's trial counts,
    flags and an own experiment's RUN_MARKS; and the number of pages. `n_planned` is None for a plan-less study (its
    plans are empty: only the stored rows count)."""
    PS = ParticipantSession
    total = db.session.scalar(db.select(db.func.count()).where(analysable_in(study.id, stage)))
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(page, 1), pages)
    sessions = db.session.scalars(
        db.select(PS)
        .where(analysable_in(study.id, stage))
        .order_by(PS.id.desc())
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
    ).all()
    per = quality.per_session(study, stage, [s.id for s in sessions])
    marks = run_marks(study, stage, [s.id for s in sessions])
    rows = []
    none = quality.empty(study)
    own_rows = plan_less(study)
    for s in sessions:
        q = per.get(s.id, none)
        done = _utc(s.completed_at)
        rows.append(
            {
                "session": s,
                "n_trials": q.trials,
                "n_planned": None if own_rows else len(s.plan),
                "quality": q,
                "duration_s": (done - _utc(s.started_at)).total_seconds() if done else None,
                "marks": marks.get(s.id, []),
            }
        )
    return rows, pages


def survey_answers(session_id: int) -> list[dict[str, Any]]:
    """The participant page's survey answers: each survey the session answered (consent, demographics…), in the
    order answered, with its answers as (question as the participant read it, answer), in the survey's order. A
    field the definition no longer has keeps its stored name; an optional question left out is None."""
    shown = []
    for response in db.session.scalars(
        db.select(SurveyResponse).where(SurveyResponse.session_id == session_id).order_by(SurveyResponse.id)
    ):
        fields = SURVEYS.get(response.name, {}).get("fields", [])
        labels = {f["name"]: f["label"] for f in fields}
        order = {name: n for n, name in enumerate(labels)}
        names = sorted(response.answers, key=lambda name: order.get(name, len(order)))
        if names:
            shown.append(
                {
                    "name": response.name,
                    "answers": [(labels.get(name, name), response.answers[name]) for name in names],
                }
            )
    return shown


# --------------------------------------------------------------------------------------------------
# Plots


def png(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def progress_png(study: Study, stage: str | None) -> bytes:
    """Sessions of `stage` started and completed over time (cumulative), as a PNG."""
    from matplotlib.figure import Figure

    PS = ParticipantSession
    rows = db.session.execute(db.select(PS.started_at, PS.completed_at).where(analysable_in(study.id, stage))).all()
    fig = Figure(figsize=(8, 3), dpi=100)
    ax = fig.add_subplot()
    for label, times, color in (
        ("started", [_utc(r[0]) for r in rows], "#1f77b4"),
        ("completed", [_utc(r[1]) for r in rows if r[1]], "#2ca02c"),
    ):
        times = sorted(times)
        if times:
            ax.step(times, range(1, len(times) + 1), where="post", label=f"{label} ({len(times)})", color=color)
    if not rows:
        ax.text(0.5, 0.5, "no participants yet", ha="center", va="center", transform=ax.transAxes)
    ax.set_ylabel("participants")
    ax.set_title(f"{study.slug} ({stage or 'all'} sessions): progress over time (UTC)")
    ax.grid(color="#e5e5e5")
    if rows:
        ax.legend(loc="upper left", frameon=False)
    fig.autofmt_xdate()
    fig.tight_layout()
    return png(fig)
