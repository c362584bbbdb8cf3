"""A study's Prolific submissions in the database: `flask prolific sync` and the dashboard's button read every one
(prolific_submissions), match it to its session by PROLIFIC_PID, and free the slots of participants who left; the
dashboard's Prolific section (:func:`reconciliation`) shows what does not add up.

Matching: a session is found by the HMAC of its PROLIFIC_PID (server/identifiers.py; one session per PROLIFIC_PID
and study), so also once `flask data purge-identifiers` has nulled the raw ids; an older session without the HMAC by
its raw PROLIFIC_PID. A stored submission is found by the HMAC of its id, and a purged one (its raw ids nulled once it
was settled) is updated without them: Prolific's raw ids are stored only for submissions no purge has reached.
A participant can have
more than one submission in a Prolific study (Prolific's SESSION_ID is the submission's id): the session's current
one is the latest started, and one whose id differs from the SESSION_ID the session entered with is reported.
A RETURNED or TIMED-OUT current submission marks a started session abandoned: its condition slot is free at once, so
the participant Prolific sends in their place finds room (conditions.occupancy also frees completed sessions whose
place Prolific reopened). A timed-out participant who still finishes completes as usual.

Sessions of both stages are matched: pilot participants recruited on Prolific are real, paid participants (synced,
approved and paid bonuses like live ones); a researcher's preview never is (models.analysable). While the study is in
pilot, the sync warns (pilot_warning): recruiting on Prolific is usually what `live` is for.

The list is read once per submission id (a submission the list shows on two pages, as it changes while it is paged
through, counts once), and the sync warns about approvals Prolific accepted that have not taken effect
(not_approved): Prolific approves in bulk asynchronously, and says nothing when one fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs, urlsplit

from .. import identifiers
from ..db import db, utcnow
from ..models import (
    PROLIFIC_STATUSES,
    ParticipantSession,
    ProlificSubmission,
    Study,
    StudyEvent,
    analysable,
    bump_generation,
)
from . import audit
from .client import ProlificClient

LEFT = ("RETURNED", "TIMED-OUT")  # the participant left: a started session is abandoned
EXPECTED_AFTER_COMPLETION = ("AWAITING REVIEW", "APPROVED")
SHOWN = 100  # rows per list on the dashboard
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def pilot_warning(study: Study) -> str | None:
    """The warning `flask prolific sync` prints and the dashboard shows while a linked study recruits in pilot."""
    if not study.prolific_study_id or study.stage != "pilot":
        return None
    return (
        f"{study.slug} is linked to Prolific study {study.prolific_study_id} but is still in the pilot stage: its "
        f"sessions are kept as pilot data, left out of `flask analyze` (which analyses live by default) and of the "
        f"live quotas. Run `flask studies stage {study.slug} live` before recruiting for the paper"
    )


class NotLinked(ValueError):
    """The study has no Prolific study to talk to."""


def linked_id(study: Study) -> str:
    if not study.prolific_study_id:
        raise NotLinked(
            f'{study.slug} is not linked to a Prolific study: add `[prolific] study_id = "…"` to its '
            f"study.toml, or run `flask prolific link {study.slug} PROLIFIC_STUDY_ID`"
        )
    return study.prolific_study_id


@dataclass
class SyncReport:
    read: int
    counts: dict[str, int]
    abandoned: int  # sessions this sync marked abandoned
    study_status: str | None = None  # the Prolific study's (ACTIVE, PAUSED, COMPLETED, …)
    places: int | None = None
    warnings: list[str] = field(default_factory=list)


def sync(study: Study, client: ProlificClient, researcher_id: int | None = None, via: str = "cli") -> SyncReport:
    """Read every submission of the linked Prolific study, store them, free the slots of those who left; all in
    one transaction after every read, so a failed read writes nothing."""
    prolific_id = linked_id(study)
    # Once per id: the list can change while it is paged through, which shows a submission on two pages (the later
    # read wins). In start order, so a participant's latest submission is the one that counts (as current_submissions)
    read = {str(item["id"]): item for item in client.submissions(prolific_id)}
    items = sorted(read.values(), key=lambda s: (_time(s.get("started_at")) or EPOCH, str(s["id"])))
    prolific_study = client.study(prolific_id)
    warnings = [w for w in (pilot_warning(study),) if w] + code_warnings(study, prolific_study)
    now = utcnow()
    PS = ParticipantSession
    sessions = {  # the HMAC of the PROLIFIC_PID -> (session id, the SESSION_ID it entered with unless purged)
        identifiers.session_key(hmac, pid): (sid, entered_with)
        for sid, hmac, pid, entered_with in db.session.execute(
            db.select(PS.id, PS.pid_hmac, PS.prolific_pid, PS.prolific_session_id).where(
                # a withdrawn participant's tombstone keeps its submission: Prolific's state stays explainable
                PS.study_id == study.id,
                analysable("all", withdrawn=True),
                identifiers.has_platform_id(),
            )
        )
    }
    stored = {}  # the HMAC of the submission id -> its row (a row older than the HMAC gets it here)
    for row in db.session.scalars(db.select(ProlificSubmission).where(ProlificSubmission.study_id == study.id)):
        row.submission_hmac = row.submission_hmac or identifiers.submission_hmac(row.submission_id)
        stored[row.submission_hmac] = row
    current: dict[int, str] = {}  # session id -> status of its latest-started submission
    mismatched = 0
    for item in items:
        submission_id = str(item["id"])
        pid = str(item.get("participant_id") or item.get("participant") or "")
        key = identifiers.submission_hmac(submission_id)
        row = stored.get(key)
        if row is None:
            row = stored[key] = ProlificSubmission(
                study_id=study.id, submission_id=submission_id, submission_hmac=key, participant_id=pid
            )
            db.session.add(row)
        # A purged row (its raw ids nulled) keeps only the hashes: the raw ids are never written again.
        row.pid_hmac = identifiers.pid_hmac(pid) if pid else None
        session_id, entered_with = sessions.get(row.pid_hmac, (None, None)) if pid else (None, None)
        row.session_id, row.status = session_id, str(item.get("status", ""))
        row.study_code = item.get("study_code") or None
        row.started_at, row.completed_at = _time(item.get("started_at")), _time(item.get("completed_at"))
        row.read_at = now
        if session_id is not None:
            current[session_id] = row.status
            mismatched += bool(entered_with and entered_with != submission_id)
    left = [sid for sid, status in current.items() if status in LEFT]
    abandoned = 0
    if left:  # only started sessions: a completion racing this sync wins
        abandoned = db.session.execute(
            db.update(PS).where(PS.id.in_(left), PS.status == "started").values(status="abandoned")
        ).rowcount
    if abandoned:  # the sessions an analysis reads changed status: a stored result is stale
        bump_generation(study.id)
    if mismatched:
        warnings.append(
            f"{mismatched} submission(s) have another id than the SESSION_ID their session entered "
            "with (a participant who took the study again, or a study URL without {{%SESSION_ID%}})"
        )
    counts = _counts(row.status for row in stored.values())
    unapproved = not_approved(study, stored)
    if unapproved:
        warnings.append(
            f"{unapproved} approvals you sent have not taken effect: Prolific still shows them AWAITING REVIEW. It "
            f"approves in the background, usually within minutes; if they stay, `flask prolific approve "
            f"{study.slug} --yes` sends them again"
        )
    audit.record(study, "prolific_sync", researcher_id, via, read=len(items), abandoned=abandoned, counts=counts)
    db.session.commit()
    return SyncReport(
        len(items),
        counts,
        abandoned,
        prolific_study.get("status"),
        prolific_study.get("total_available_places"),
        warnings,
    )


def not_approved(study: Study, stored: dict[str, ProlificSubmission]) -> int:
    """How many submissions a bulk approval Prolific accepted (the audit log's `prolific_approve`) still shows
    AWAITING REVIEW: Prolific approves asynchronously, and an approval that fails there answers nothing. The log
    names each submission by its code (identifiers.submission_code), the first digits of the HMAC `stored` is keyed
    by."""
    sent: set[str] = set()
    for detail in db.session.scalars(
        db.select(StudyEvent.detail).where(StudyEvent.study_id == study.id, StudyEvent.action == "prolific_approve")
    ):
        if detail.get("result") == "accepted":
            sent.update(detail.get("submissions") or ())
    return sum(
        1
        for key, row in stored.items()
        if key[: identifiers.CODE_HEX_DIGITS] in sent and row.status == "AWAITING REVIEW"
    )


def code_warnings(study: Study, prolific_study: dict[str, Any]) -> list[str]:
    """The study's completion codes that the Prolific study does not know: participants sent there would be
    stuck with an unrecognised code."""
    known = {c.get("code") for c in prolific_study.get("completion_codes") or [] if isinstance(c, dict)}
    return [
        f"completion code {code} ({outcome}) is not one of the Prolific study's completion codes "
        f"({', '.join(sorted(filter(None, known))) or 'none'}): add it on Prolific or fix study.toml"
        for outcome, code in sorted(study_codes(study.config).items())
        if code not in known
    ]


def study_codes(config: dict[str, Any]) -> dict[str, str]:
    """outcome -> the Prolific completion code the study sends participants to."""
    codes = dict(config.get("prolific", {}).get("codes", {}))
    url = config.get("completion_url")
    completed = parse_qs(urlsplit(url).query).get("cc") if url else None
    if completed:
        codes["completed"] = completed[0]
    return codes


def _time(value: Any) -> datetime | None:
    try:
        parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00")) if value else None
    except ValueError:
        return None
    return parsed.replace(tzinfo=UTC) if parsed and parsed.tzinfo is None else parsed


def _counts(statuses) -> dict[str, int]:
    counts: dict[str, int] = {}
    for status in statuses:
        counts[status] = counts.get(status, 0) + 1
    order = {s: i for i, s in enumerate(PROLIFIC_STATUSES)}
    return dict(sorted(counts.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])))


def current_submissions(study: Study) -> dict[int, ProlificSubmission]:
    """session id -> its current submission (the latest started; sync orders them the same way)."""
    PSub = ProlificSubmission
    rows = db.session.scalars(
        db.select(PSub)
        .where(PSub.study_id == study.id, PSub.session_id.is_not(None))
        .order_by(PSub.started_at.nulls_first(), PSub.submission_id)
    )
    return {row.session_id: row for row in rows}  # later rows replace earlier ones


def reconciliation(study: Study) -> dict[str, Any]:
    """What the dashboard shows of the last sync: submissions per status, sessions with no submission, submissions
    with no session (they never reached studyhive: a broken study URL), and completed sessions whose submission
    is neither awaiting review nor approved. Lists hold at most SHOWN rows; `n_…` are their lengths."""
    PS, PSub = ParticipantSession, ProlificSubmission
    last_sync = db.session.scalar(db.select(db.func.max(PSub.read_at)).where(PSub.study_id == study.id))
    counts = _counts(db.session.scalars(db.select(PSub.status).where(PSub.study_id == study.id)))
    no_submission = db.select(PS).where(
        PS.study_id == study.id,
        analysable("all"),
        identifiers.has_platform_id(),
        ~db.select(PSub.id).where(PSub.session_id == PS.id).exists(),
    )
    if last_sync is not None:  # sessions that began after the last read cannot have been seen yet
        no_submission = no_submission.where(PS.started_at <= last_sync)
    no_session = db.select(PSub).where(PSub.study_id == study.id, PSub.session_id.is_(None))
    out: dict[str, Any] = {"prolific_study_id": study.prolific_study_id, "last_sync": _utc(last_sync), "counts": counts}
    for name, query, order in (("no_submission", no_submission, PS.id), ("no_session", no_session, PSub.id)):
        out[f"n_{name}"] = db.session.scalar(db.select(db.func.count()).select_from(query.subquery()))
        out[name] = db.session.scalars(query.order_by(order).limit(SHOWN)).all()
    current = current_submissions(study)
    completed = db.session.execute(
        db.select(PS.id, PS.prolific_pid, PS.outcome)
        .where(PS.study_id == study.id, analysable("all"), PS.status == "completed")
        .order_by(PS.id)
    )
    unexpected = [
        (s, current[s.id])
        for s in completed
        if s.id in current and current[s.id].status not in EXPECTED_AFTER_COMPLETION
    ]
    out["n_unexpected"], out["unexpected"] = len(unexpected), unexpected[:SHOWN]
    # Only sessions that came from Prolific: a direct visit (no PROLIFIC_PID) was never sent to Prolific.
    out["outcomes"] = dict(
        db.session.execute(
            db.select(PS.outcome, db.func.count())
            .where(PS.study_id == study.id, analysable("all"), PS.outcome.is_not(None), PS.platform == "prolific")
            .group_by(PS.outcome)
            .order_by(PS.outcome)
        ).all()
    )
    return out


def _utc(value: datetime | None) -> datetime | None:
    return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value
