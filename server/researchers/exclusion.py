"""Excluding a participant's session (failed attention checks, a duplicate person, a broken session) and
reinstating it, from the dashboard or `flask participants exclude|reinstate`. The reason is required and goes to
the audit log with who did it; the session keeps its rows (exports show status and reason) and every analysis leaves
it out. Reinstating restores the status it had before. Both bump the study's data generation (models.bump_generation):
a stored result is stale from then on.

An excluded session holds no condition slot (server/studies/conditions.py counts completed and running sessions only),
so the next newcomer takes its condition and a balanced design can be refilled with analysable people. It does not
reopen a Prolific place: the participant did submit; add places on Prolific to recruit a replacement. Reinstating
puts the session back in its slot, which may fill a condition past its quota."""

from __future__ import annotations

from ..db import db, utcnow
from ..models import ParticipantSession, Study, bump_generation
from ..prolific import audit


class ExclusionError(ValueError):
    """The request cannot be done as asked (no reason, already excluded, not excluded, a preview); nothing was
    written."""


def _reason(session: ParticipantSession, reason: str | None) -> str:
    # Re-read under a row lock: a withdrawal committed since the row was loaded is seen, and none commits until this
    # transaction ends (participation/withdrawal.py), so an exclusion never overwrites a withdrawal's tombstone.
    db.session.refresh(session, with_for_update=True)
    if session.preview:  # never counted anywhere, so there is nothing to exclude it from
        raise ExclusionError(f"session {session.id} is a researcher's preview, not a participant")
    if session.status == "withdrawn":  # its data is gone and no analysis counts it (participation/withdrawal.py)
        raise ExclusionError(f"participant {session.id} has withdrawn")
    reason = (reason or "").strip()
    if not reason:
        raise ExclusionError("a reason is required")
    return reason


def exclude(study: Study, session: ParticipantSession, reason: str | None, researcher_id: int | None, via: str) -> None:
    """Mark the session excluded with the reason, and log it (committed with the caller's transaction)."""
    reason = _reason(session, reason)
    if session.status == "excluded":
        raise ExclusionError(f"participant {session.id} is already excluded ({session.exclusion_reason})")
    session.status_before_exclusion = session.status
    session.status = "excluded"
    session.exclusion_reason = reason
    session.excluded_at = utcnow()
    bump_generation(study.id)
    audit.record(
        study,
        "participant_excluded",
        researcher_id,
        via,
        participant_id=session.id,
        reason=reason,
        previous_status=session.status_before_exclusion,
    )


def reinstate(
    study: Study, session: ParticipantSession, reason: str | None, researcher_id: int | None, via: str
) -> None:
    """Give the session back the status it had before its exclusion, and log it with the reason."""
    reason = _reason(session, reason)
    if session.status != "excluded":
        raise ExclusionError(f"participant {session.id} is not excluded (status {session.status})")
    restored = session.status_before_exclusion
    audit.record(
        study,
        "participant_reinstated",
        researcher_id,
        via,
        participant_id=session.id,
        reason=reason,
        excluded_for=session.exclusion_reason,
        status=restored,
    )
    session.status = restored
    session.status_before_exclusion = session.exclusion_reason = session.excluded_at = None
    bump_generation(study.id)
