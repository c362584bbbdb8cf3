"""The data-quality flags of each participant session, as the dashboard (study page, participant list and page) and
participants.csv show them. The thresholds come from study.toml's `[quality]` table (server/studies/quality.py has
the defaults). A flag never excludes anyone: the participant page offers the exclusion form, prefilled, and a
researcher decides.

  fast_trials     trials answered faster than `fast_trial_ms` (practice included); raised by one such trial;
  <score key>     trials whose score holds a flag the task type declares (QualityFlag, e.g. failed catch
                  trials); raised by one such trial;
  time_away       time away from the study's tab within trials, from the interaction records (trials.events,
                  docs/participant-api.md): per trial the sum over hidden→visible pairs of visible.t − hidden.t, a
                  trailing hidden counting until the trial's rt_ms; summed over the session's trials that recorded
                  events; raised above `time_away_s`. A session none of whose trials recorded events (an older page)
                  has no time away ("not recorded"), never 0;
  straightlining  tasks whose answers are ratings on one scale (tasktype.contract.Ratings): the share of the
                  session's test-trial ratings equal to its most frequent rating; raised at `straightlining_share` or
                  more once the session gave `straightlining_min_ratings` ratings.

The counts are one GROUP BY in the database, which also counts each session's trials with interaction records; time
away needs the records' JSON only of trials that hold a hidden event, and straight-lining the responses of a rating
task's test trials: one pass over (session id, practice, rt_ms, events, response) of those trials."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..db import db
from ..models import ParticipantSession, Study, Trial, analysable_in
from ..studies.quality import Thresholds, thresholds
from ..tasktype.contract import Column, QualityFlag, Ratings
from ..tasktype.registry import registry

FAST = "fast_trials"
TIME_AWAY = "time_away"
STRAIGHTLINING = "straightlining"
REASON_LENGTH = 500  # the exclusion form's limit


def task_flags(study: Study) -> tuple[QualityFlag, ...]:
    """The quality flags the study's task type declares (none for a task type the code no longer knows)."""
    task = registry().get(study.task_type)
    return task.quality_flags if task else ()


def study_thresholds(study: Study) -> Thresholds:
    return thresholds(study.config, registry().get(study.task_type))


@dataclass(frozen=True)
class SessionQuality:
    trials: int
    fast: int
    task: tuple[int, ...]  # trials per task flag, in task_flags' order
    time_away_s: float | None  # None: no trial of the session recorded events
    ratings: int  # test-trial ratings (rating tasks)
    straightlining_share: float | None  # share of the most frequent rating; None: no ratings
    flags: tuple[str, ...]  # the flags raised: FAST, each task flag's score key, TIME_AWAY, STRAIGHTLINING


def time_away_ms(events: list[dict[str, Any]], rt_ms: int | None) -> int:
    """Milliseconds the trial's page was hidden: over hidden→visible pairs, visible.t − hidden.t; a hidden with no
    visible after it counts until `rt_ms` (the answer; none: not counted). A repeated hidden keeps the first."""
    away, hidden_at = 0, None
    for event in events:
        if event.get("type") == "hidden" and hidden_at is None:
            hidden_at = event["t"]
        elif event.get("type") == "visible" and hidden_at is not None:
            away += max(0, event["t"] - hidden_at)
            hidden_at = None
    if hidden_at is not None and rt_ms is not None:
        away += max(0, rt_ms - hidden_at)
    return away


def per_session(study: Study, stage: str | None = None, session_ids=None) -> dict[int, SessionQuality]:
    """session id → its quality, for the study's sessions with stored trials (or those of `session_ids`)."""
    limits = study_thresholds(study)
    flags = task_flags(study)
    task = registry().get(study.task_type)
    rated = isinstance(task, Ratings)
    in_study = Trial.session_id.in_(db.select(ParticipantSession.id).where(analysable_in(study.id, stage)))
    where = [in_study] if session_ids is None else [in_study, Trial.session_id.in_(session_ids)]
    events_text = db.cast(Trial.events, db.Text)
    # A page that sent no records stores NULL, or JSON null when the save wrote its None
    recorded = Trial.events.is_not(None) & (events_text != "null")
    counts = db.session.execute(
        db.select(
            Trial.session_id,
            db.func.count(),
            db.func.sum(db.case((recorded, 1), else_=0)),
            db.func.sum(db.case((Trial.rt_ms < limits.fast_trial_ms, 1), else_=0)),
            *(db.func.sum(db.case((Trial.score[f.score_key].as_boolean().is_(True), 1), else_=0)) for f in flags),
        )
        .where(*where)
        .group_by(Trial.session_id)
    ).all()
    away: dict[int, int] = {}
    ratings: dict[int, list[int]] = {}
    # Only a trial with a hidden event can have time away: the text test keeps the JSON of the others unread (a
    # "hidden" that is some event's value passes too, and counts nothing).
    wanted = events_text.like('%"hidden"%')
    if rated:
        wanted = wanted | Trial.practice.is_(False)
    for sid, practice, rt_ms, events, response in db.session.execute(
        db.select(Trial.session_id, Trial.practice, Trial.rt_ms, Trial.events, Trial.response if rated else db.null())
        .where(*where, wanted)
        .execution_options(yield_per=2000)
    ):
        if events:
            away[sid] = away.get(sid, 0) + time_away_ms(events, rt_ms)
        if rated and not practice:
            ratings.setdefault(sid, []).extend(task.ratings(response))
    out = {}
    for sid, n, n_recorded, fast, *flagged in counts:
        fast, flagged = int(fast or 0), tuple(int(k or 0) for k in flagged)
        away_s = away.get(sid, 0) / 1000 if n_recorded else None
        given = ratings.get(sid, [])
        share = Counter(given).most_common(1)[0][1] / len(given) if given else None
        raised = [FAST] if fast else []
        raised += [f.score_key for f, k in zip(flags, flagged) if k]
        if away_s is not None and away_s > limits.time_away_s:
            raised.append(TIME_AWAY)
        enough = len(given) >= limits.straightlining_min_ratings
        if share is not None and enough and share >= limits.straightlining_share:
            raised.append(STRAIGHTLINING)
        out[sid] = SessionQuality(n, fast, flagged, away_s, len(given), share, tuple(raised))
    return out


def empty(study: Study) -> SessionQuality:
    """The quality of a session with no stored trials."""
    return SessionQuality(0, 0, (0,) * len(task_flags(study)), None, 0, None, ())


def flag_labels(study: Study, limits: Thresholds) -> dict[str, str]:
    """flag name → how the dashboard names it (with this study's threshold)."""
    return {
        FAST: f"Implausibly fast trials (response time < {limits.fast_trial_ms} ms)",
        **{f.score_key: f.label for f in task_flags(study)},
        TIME_AWAY: f"Away from the tab more than {limits.time_away_s} s (summed over trials)",
        STRAIGHTLINING: (
            f"Straight-lining (one rating in ≥ {limits.straightlining_share:.0%} of ≥ "
            f"{limits.straightlining_min_ratings} ratings)"
        ),
    }


def columns(study: Study) -> tuple[Column, ...]:
    """participants.csv's quality columns for the study (its thresholds in their codebook entries)."""
    limits = study_thresholds(study)
    rated = isinstance(registry().get(study.task_type), Ratings)
    return (
        Column(FAST, f"trials answered faster than {limits.fast_trial_ms} ms (practice included)", "integer"),
        *(Column(f"{f.score_key}_trials", f"trials flagged: {f.label}", "integer") for f in task_flags(study)),
        Column(
            "time_away_s",
            "seconds the study's tab was hidden during trials, summed over the trials whose page sent interaction "
            "records (empty: none did, not recorded)",
        ),
        *(
            (
                Column("n_ratings", "test-trial ratings given", "integer"),
                Column(
                    "straightlining_share",
                    "share of the test-trial ratings equal to the participant's most frequent rating (empty: none)",
                ),
            )
            if rated
            else ()
        ),
        Column(
            "quality_flags",
            "the data-quality flags raised, ';'-separated: fast_trials, "
            + "".join(f"{f.score_key}, " for f in task_flags(study))
            + f"time_away (over {limits.time_away_s} s)"
            + (
                f", straightlining (one rating in ≥ {limits.straightlining_share:g} of ≥ "
                f"{limits.straightlining_min_ratings} ratings)"
                if rated
                else ""
            )
            + "; study.toml [quality] sets the thresholds. No flag excludes anyone: status says who was",
            "text",
        ),
    )


def cells(study: Study, quality: SessionQuality) -> dict[str, Any]:
    """One participants.csv row's quality cells."""
    return {
        FAST: quality.fast,
        **{f"{f.score_key}_trials": k for f, k in zip(task_flags(study), quality.task)},
        "time_away_s": quality.time_away_s,
        "n_ratings": quality.ratings,
        "straightlining_share": quality.straightlining_share,
        "quality_flags": ";".join(quality.flags),
    }


def exclusion_reason(study: Study, quality: SessionQuality, limits: Thresholds) -> str:
    """A reason for the exclusion form, prefilled from the flags raised (the researcher edits it or not)."""
    details = {
        FAST: f"{quality.fast} trial(s) faster than {limits.fast_trial_ms} ms",
        **{f.score_key: f"{f.label.lower()}: {k}" for f, k in zip(task_flags(study), quality.task)},
        TIME_AWAY: f"away from the tab {quality.time_away_s or 0:.0f} s (> {limits.time_away_s} s)",
        STRAIGHTLINING: (
            f"straight-lining: {quality.straightlining_share or 0:.0%} of {quality.ratings} ratings identical"
        ),
    }
    return ("quality flags: " + "; ".join(details[name] for name in quality.flags))[:REASON_LENGTH]
