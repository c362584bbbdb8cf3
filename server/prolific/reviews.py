"""Approving and rejecting Prolific submissions (`flask prolific approve` / `reject`), on the statuses the sync has
just read. Prolific's transitions cannot be undone, so approval takes only what the study's data supports: an
AWAITING REVIEW submission that is its session's current one, whose session completed with the outcome
`completed` and is not excluded. Every call goes to the audit log, whether Prolific accepted it or not, naming
participants and submissions by keyed codes (identifiers.pid_code, submission_code): the log is never rewritten, so it
holds no raw Prolific id for `flask data purge-identifiers` to leave behind."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .. import identifiers
from ..db import db
from ..models import ParticipantSession, ProlificSubmission, Study, analysable
from . import audit
from .client import BULK_APPROVE_MAX, MIN_REJECTION_MESSAGE, REJECTION_CATEGORIES, ProlificClient, ProlificError
from .submissions import current_submissions


@dataclass
class ApprovalPlan:
    approve: list[ProlificSubmission]
    skipped: dict[str, list[str]] = field(default_factory=dict)  # reason -> PROLIFIC_PIDs


def approval_plan(study: Study) -> ApprovalPlan:
    """Which AWAITING REVIEW submissions to approve, and why each other one is left for the researcher."""
    PS = ParticipantSession
    # Pilot sessions too (real, paid Prolific participants), and withdrawn ones (skipped with that reason, for the
    # researcher to decide); a researcher's preview never.
    sessions = {
        sid: (status, outcome)
        for sid, status, outcome in db.session.execute(
            db.select(PS.id, PS.status, PS.outcome).where(PS.study_id == study.id, analysable("all", withdrawn=True))
        )
    }
    current = current_submissions(study)
    plan = ApprovalPlan([])
    waiting = db.session.scalars(
        db.select(ProlificSubmission)
        .where(ProlificSubmission.study_id == study.id, ProlificSubmission.status == "AWAITING REVIEW")
        .order_by(ProlificSubmission.participant_id)
    )
    for row in waiting:
        status, outcome = sessions.get(row.session_id, (None, None))
        if row.session_id is None:
            reason = "no studyhive session (never reached the study)"
        elif current[row.session_id] is not row:
            reason = "an earlier submission of a participant who took the study again"
        elif status == "excluded":
            reason = "session excluded"
        elif status == "withdrawn":
            reason = withdrawn_guidance(outcome)
        elif status != "completed":  # e.g. ended early (an own experiment's endExperiment), its outcome said
            reason = f"session {status}{f' with outcome {outcome}' if outcome else ''}, not completed"
        elif outcome != "completed":
            reason = f"outcome {outcome}"
        else:
            plan.approve.append(row)
            continue
        plan.skipped.setdefault(reason, []).append(row.participant_id)
    return plan


def approve(
    study: Study, client: ProlificClient, plan: ApprovalPlan, researcher_id: int | None, via: str = "cli"
) -> int:
    """Approve the plan's submissions in bulk calls of at most BULK_APPROVE_MAX; returns the number of calls.
    Prolific approves them asynchronously: the next sync shows them APPROVED."""
    ids = [row.submission_id for row in plan.approve]
    calls = 0
    for start in range(0, len(ids), BULK_APPROVE_MAX):
        chunk = ids[start : start + BULK_APPROVE_MAX]
        # _audited calls the lambda before the loop moves on
        _audited(
            study,
            "prolific_approve",
            researcher_id,
            via,
            lambda: client.bulk_approve(chunk),  # noqa: B023
            n=len(chunk),
            submissions=[identifiers.submission_code(sid) for sid in chunk],
        )
        calls += 1
    return calls


def withdrawn_guidance(outcome: str | None) -> str:
    """What to do about the submission of a participant who withdrew (their data deleted at their request):
    studyhive has nothing left to approve it on, so the researcher decides on Prolific's site."""
    if outcome == "completed":
        return (
            "withdrawn after completing the study (outcome completed; their data were deleted at their request): "
            "they did the work, and withdrawing is their right, not a reason to reject: approve it on Prolific's site"
        )
    return (
        f"withdrawn (outcome {outcome or 'none'}; their data were deleted at their request): decide on Prolific's "
        "site as for that outcome"
    )


def check_rejection(category: str, message: str) -> None:
    """Refuse what Prolific would refuse, before anything is sent."""
    if category not in REJECTION_CATEGORIES:
        raise ValueError(f"the category must be one of {', '.join(REJECTION_CATEGORIES)}")
    if len(message.strip()) < MIN_REJECTION_MESSAGE:
        raise ValueError(
            f"the message has {len(message.strip())} characters; Prolific requires at least "
            f"{MIN_REJECTION_MESSAGE}, explaining to the participant why they are rejected"
        )


def reject(
    study: Study,
    client: ProlificClient,
    participant_id: str,
    category: str,
    message: str,
    researcher_id: int | None,
    via: str = "cli",
    despite_withdrawal: bool = False,
    confirm: Callable[[], None] = lambda: None,
) -> tuple[ProlificSubmission, bool]:
    """Reject one participant's current submission (it must be AWAITING REVIEW) once `confirm` returns; returns it
    and whether a rejection was sent. One Prolific shows REJECTED already (e.g. an earlier rejection it carried out
    although its answer was an error) sends nothing. A withdrawn participant's is refused with guidance unless
    `despite_withdrawal`."""
    check_rejection(category, message)
    row = db.session.scalars(
        db.select(ProlificSubmission)
        .where(ProlificSubmission.study_id == study.id, ProlificSubmission.participant_id == participant_id)
        .order_by(ProlificSubmission.started_at.desc().nulls_last(), ProlificSubmission.submission_id.desc())
    ).first()
    if row is None:
        raise ValueError(f"{participant_id} has no submission in the Prolific study {study.prolific_study_id}")
    if row.status == "REJECTED":
        return row, False
    if row.status != "AWAITING REVIEW":
        raise ValueError(
            f"{participant_id}'s submission {row.submission_id} is {row.status}: only a submission "
            "awaiting review can be rejected"
        )
    session = db.session.get(ParticipantSession, row.session_id) if row.session_id is not None else None
    withdrawn = session is not None and session.status == "withdrawn"
    if withdrawn and not despite_withdrawal:
        raise ValueError(
            f"{participant_id}: {withdrawn_guidance(session.outcome)}. Nothing sent; to reject it all the same, "
            "for a reason other than the withdrawal, add --despite-withdrawal (written to the audit log)"
        )
    confirm()
    answer = _audited(
        study,
        "prolific_reject",
        researcher_id,
        via,
        lambda: client.reject(row.submission_id, message.strip(), category),
        participant_code=identifiers.pid_code(participant_id),
        submission=identifiers.submission_code(row.submission_id),
        category=category,
        message=message.strip(),
        **({"despite_withdrawal": True} if withdrawn else {}),
    )
    row.status = answer.get("status") or "REJECTED"
    db.session.commit()
    return row, True


def _audited(study: Study, action: str, researcher_id: int | None, via: str, call, **detail):
    """Make a call to Prolific and log it with its result; a refusal is logged, then raised."""
    try:
        answer = call()
    except ProlificError as exc:
        audit.record(study, action, researcher_id, via, result=f"failed: {exc}", **detail)
        db.session.commit()
        raise
    audit.record(study, action, researcher_id, via, result="accepted", **detail)
    db.session.commit()
    return answer
