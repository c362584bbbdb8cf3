"""The numbers and plots of the researcher dashboard, aggregated in the database so the pages stay fast on a study
with thousands of participants and tens of thousands of trials (bench/dashboard_pages.py times them).

Funnel steps, per participant session:
  entered        a session exists (the entry link was opened while the study was open);
  consented      the consent form was answered;
  practice done  at least one test trial is stored (practice, if the study has any, comes first in every plan);
  finished       every planned trial is stored; for a study whose page records rows of its own (PlanLessRows: a
                 researcher's jsPsych experiment, whose sessions have empty plans) the page said its timeline finished;
  redirected     the session completed: the server checked it and sent the page to Prolific's completion URL
                 (or, off Prolific, to the results page).
"""

from __future__ import annotations

import io
import statistics
from datetime import UTC, datetime
from typing import Any

from flask import current_app
from matplotlib.figure import Figure

from ..db import db
from ..models import ParticipantSession, Study, SurveyResponse, Trial
from ..tasktype.contract import PlanLessRows, QualityFlag
from ..tasktype.registry import registry

PAGE_SIZE = 50


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


def study_summaries(studies: list[Study]) -> dict[int, dict[str, Any]]:
    """Per study: sessions started / completed / excluded, median duration of the completed ones, last activity."""
    ids = [s.id for s in studies]
    out = {
        i: {"started": 0, "completed": 0, "excluded": 0, "median_duration_s": None, "last_activity": None} for i in ids
    }
    if not ids:
        return out
    PS = ParticipantSession
    for study_id, status, n, last in db.session.execute(
        db.select(PS.study_id, PS.status, db.func.count(), db.func.max(PS.last_seen_at))
        .where(PS.study_id.in_(ids))
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
        db.select(PS.study_id, PS.started_at, PS.completed_at).where(PS.study_id.in_(ids), PS.completed_at.is_not(None))
    ):
        durations.setdefault(study_id, []).append((_utc(completed) - _utc(started)).total_seconds())
    for study_id, values in durations.items():
        out[study_id]["median_duration_s"] = statistics.median(values)
    return out


def plan_less(study: Study) -> bool:
    """Whether the study's page decides its own rows (PlanLessRows), so its sessions' plans are empty and say nothing
    about how far a participant got."""
    return isinstance(registry().get(study.task_type), PlanLessRows)


def _finished_count(study: Study, in_study) -> int:
    PS = ParticipantSession
    if plan_less(study):
        # An empty plan is "every planned trial stored" as soon as one row is: the page's own signal is the measure.
        return db.session.scalar(
            db.select(db.func.count()).where(PS.study_id == study.id, PS.timeline_finished_at.is_not(None))
        )
    stored = (
        db.select(Trial.session_id, db.func.count().label("n"))
        .where(Trial.session_id.in_(in_study))
        .group_by(Trial.session_id)
        .subquery()
    )
    return db.session.scalar(
        db.select(db.func.count())
        .select_from(PS)
        .join(stored, stored.c.session_id == PS.id)
        .where(stored.c.n >= db.func.json_array_length(PS.plan))
    )


def funnel(study: Study) -> list[tuple[str, int]]:
    PS = ParticipantSession
    in_study = db.select(PS.id).where(PS.study_id == study.id).scalar_subquery()
    entered = db.session.scalar(db.select(db.func.count()).where(PS.study_id == study.id))
    consented = db.session.scalar(
        db.select(db.func.count(db.distinct(SurveyResponse.session_id))).where(
            SurveyResponse.name == "consent", SurveyResponse.session_id.in_(in_study)
        )
    )
    practice_done = db.session.scalar(
        db.select(db.func.count(db.distinct(Trial.session_id))).where(
            Trial.practice.is_(False), Trial.session_id.in_(in_study)
        )
    )
    finished = _finished_count(study, in_study)
    redirected = db.session.scalar(db.select(db.func.count()).where(PS.study_id == study.id, PS.status == "completed"))
    return [
        ("entered", entered),
        ("consented", consented),
        ("practice done", practice_done),
        ("finished", finished),
        ("redirected", redirected),
    ]


def _quotas(config: dict[str, Any]) -> dict[str, int | None]:
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


def condition_counts(study: Study) -> list[dict[str, Any]]:
    """Per between-subjects condition: sessions started and completed, and the study file's quota if any."""
    PS = ParticipantSession
    counts: dict[str | None, dict[str, Any]] = {}
    for condition, status, n in db.session.execute(
        db.select(PS.condition, PS.status, db.func.count())
        .where(PS.study_id == study.id)
        .group_by(PS.condition, PS.status)
    ):
        row = counts.setdefault(condition, {"started": 0, "completed": 0})
        row["started"] += n
        if status == "completed":
            row["completed"] += n
    quotas = _quotas(study.config)
    names = list(quotas) + sorted((c for c in counts if c not in quotas), key=lambda c: (c is None, c or ""))
    return [
        {"condition": name, **counts.get(name, {"started": 0, "completed": 0}), "quota": quotas.get(name)}
        for name in names
    ]


def fast_ms() -> int:
    return int(current_app.config["FAST_TRIAL_MS"])


def task_flags(study: Study) -> tuple[QualityFlag, ...]:
    """The quality flags the study's task type declares (none for a task type the code no longer knows)."""
    task = registry().get(study.task_type)
    return task.quality_flags if task else ()


def _per_session_flags(study: Study, session_ids=None) -> dict[int, tuple[int, int, tuple[int, ...]]]:
    """session id → (trials, fast trials, trials per task flag), one GROUP BY."""
    threshold = fast_ms()
    PS = ParticipantSession
    query = (
        db.select(
            Trial.session_id,
            db.func.count(),
            db.func.sum(db.case((Trial.rt_ms < threshold, 1), else_=0)),
            *(
                db.func.sum(db.case((Trial.score[flag.score_key].as_boolean().is_(True), 1), else_=0))
                for flag in task_flags(study)
            ),
        )
        .join(PS, PS.id == Trial.session_id)
        .where(PS.study_id == study.id)
        .group_by(Trial.session_id)
    )
    if session_ids is not None:
        query = query.where(Trial.session_id.in_(session_ids))
    return {
        sid: (n, int(fast or 0), tuple(int(k or 0) for k in flagged))
        for sid, n, fast, *flagged in db.session.execute(query)
    }


def quality_flags(study: Study) -> dict[str, Any]:
    """Implausibly fast trials, the flags the task type adds (e.g. failed catch trials) and Prolific ids that also
    took part in other studies here (returning participants). Duplicate sessions of one PROLIFIC_PID in a study
    cannot exist (a unique key); the outliers come with the analysis (results page)."""
    flags = _per_session_flags(study)
    PS = ParticipantSession
    other = db.aliased(PS)
    returning = db.session.execute(
        db.select(PS.id, PS.prolific_pid, db.func.count(other.id))
        .join(other, (other.prolific_pid == PS.prolific_pid) & (other.study_id != PS.study_id))
        .where(PS.study_id == study.id, PS.prolific_pid.is_not(None))
        .group_by(PS.id, PS.prolific_pid)
        .order_by(PS.id)
    ).all()
    return {
        "fast_ms": fast_ms(),
        "fast_trials": sum(f[1] for f in flags.values()),
        "fast_participants": sorted(sid for sid, f in flags.items() if f[1]),
        "task": [
            {
                "label": flag.label,
                "trials": sum(f[2][i] for f in flags.values()),
                "participants": sorted(sid for sid, f in flags.items() if f[2][i]),
            }
            for i, flag in enumerate(task_flags(study))
        ],
        "returning": [{"participant_id": sid, "prolific_pid": pid, "other_studies": n} for sid, pid, n in returning],
    }


def participants_page(study: Study, page: int) -> tuple[list[dict[str, Any]], int]:
    """One page of the participant list (newest first) with each session's trial counts and flags; and the number
    of pages. `n_planned` is None for a plan-less study (its plans are empty: only the stored rows count)."""
    PS = ParticipantSession
    total = db.session.scalar(db.select(db.func.count()).where(PS.study_id == study.id))
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(page, 1), pages)
    sessions = db.session.scalars(
        db.select(PS)
        .where(PS.study_id == study.id)
        .order_by(PS.id.desc())
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
    ).all()
    flags = _per_session_flags(study, [s.id for s in sessions])
    rows = []
    none = (0, 0, (0,) * len(task_flags(study)))
    own_rows = plan_less(study)
    for s in sessions:
        n, fast, flagged = flags.get(s.id, none)
        done = _utc(s.completed_at)
        rows.append(
            {
                "session": s,
                "n_trials": n,
                "n_planned": None if own_rows else len(s.plan),
                "fast": fast,
                "flagged": flagged,
                "duration_s": (done - _utc(s.started_at)).total_seconds() if done else None,
            }
        )
    return rows, pages


# --------------------------------------------------------------------------------------------------
# Plots


def _png(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def progress_png(study: Study) -> bytes:
    """Sessions started and completed over time (cumulative), as a PNG."""
    PS = ParticipantSession
    rows = db.session.execute(db.select(PS.started_at, PS.completed_at).where(PS.study_id == study.id)).all()
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
    ax.set_title(f"{study.slug}: progress over time (UTC)")
    ax.grid(color="#e5e5e5")
    if rows:
        ax.legend(loc="upper left", frameon=False)
    fig.autofmt_xdate()
    fig.tight_layout()
    return _png(fig)
