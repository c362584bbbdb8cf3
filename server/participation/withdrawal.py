"""A participant's withdrawal (issue #26; docs/researchers.md, "Withdrawal"), from `flask participants withdraw` or
the dashboard's participant page: the session's trials (their interaction records with them) and survey answers are
deleted in one transaction, and the session row stays as a tombstone with status `withdrawn`, so counts and Prolific's
records stay explainable: its study, condition, stage, version, times and outcome, the HMAC of its PROLIFIC_PID
(`pid_hmac`: a returning participant is recognised and not let in again) and the consent hash. Its personal data goes:
the raw Prolific ids, the entry link's other parameters (`url_variables`), the User-Agent, the screen and window sizes,
the trial plan, and the researchers' exclusion note.
Prolific's own record of the submission (`prolific_submissions` and a bonus batch's rows) keeps its raw ids until
`flask data purge-identifiers` finds it settled: docs/operations.md, "Data protection".
An audit entry records who, how and why.

A tombstone is left out of everything `models.analysable` governs (exports, analyses, quotas, the dashboard's lists),
and every later save of the session is refused: the participant API's writes take answers only from an OPEN session
(server/participation/trialstore.py), in the statement that stores them."""

from __future__ import annotations

import re

from .. import identifiers
from ..db import db, utcnow
from ..models import ParticipantSession, Study, SurveyResponse, Trial, bump_generation
from ..prolific import audit

PS = ParticipantSession
CODE = re.compile(r"^[0-9a-fA-F]{16}$")
SESSION_ID = re.compile(r"^[0-9]{1,10}$")
# The id column's largest value: a larger number names no session (PostgreSQL would refuse to compare it).
MAX_SESSION_ID = 2**31 - 1


class WithdrawalError(ValueError):
    """The withdrawal cannot be done as asked (no reason, an unknown or ambiguous participant, a preview); nothing
    was written."""


def find(study: Study, identifier: str) -> ParticipantSession:
    """The study's session that `identifier` names: a PROLIFIC_PID (by its HMAC, or as stored in an older row), a
    participant_code (16 hex digits, as the exports write it) or a session id (participant_id). A string that names
    two sessions in different readings, or none, is an error."""
    identifier = identifier.strip()
    if not identifier:
        raise WithdrawalError("name the participant: a PROLIFIC_PID, a participant_code or a session id")
    found = set(
        db.session.scalars(
            db.select(PS.id).where(
                PS.study_id == study.id,
                (PS.pid_hmac == identifiers.pid_hmac(identifier)) | (PS.prolific_pid == identifier),
            )
        )
    )
    if SESSION_ID.match(identifier) and int(identifier) <= MAX_SESSION_ID:
        found |= set(db.session.scalars(db.select(PS.id).where(PS.study_id == study.id, PS.id == int(identifier))))
    if CODE.match(identifier):
        found |= _by_code(study, identifier.lower())
    if not found:
        raise WithdrawalError(
            f"study {study.slug!r} has no participant {identifier!r} (give a PROLIFIC_PID, a participant_code or a "
            "participant_id from participants.csv)"
        )
    if len(found) > 1:
        raise WithdrawalError(
            f"{identifier!r} names more than one participant of study {study.slug!r} "
            f"(sessions {', '.join(map(str, sorted(found)))}): name it by another of its identifiers (its "
            "participant_code, PROLIFIC_PID or session id)"
        )
    return db.session.get(PS, found.pop())


def _by_code(study: Study, code: str) -> set[int]:
    """Sessions whose participant_code is `code`: a prefix of the stored HMAC, or computed for older rows that
    have none (their raw PROLIFIC_PID, or their token)."""
    found = set(db.session.scalars(db.select(PS.id).where(PS.study_id == study.id, PS.pid_hmac.startswith(code))))
    for session_id, pid, token in db.session.execute(
        db.select(PS.id, PS.prolific_pid, PS.token).where(PS.study_id == study.id, PS.pid_hmac.is_(None))
    ):
        if identifiers.participant_code(None, pid, token) == code:
            found.add(session_id)
    return found


def withdraw(
    study: Study, session: ParticipantSession, reason: str | None, researcher_id: int | None, via: str
) -> bool:
    """Delete the session's data and leave its tombstone, with an audit entry (committed with the caller's
    transaction). False, changing nothing, if it was withdrawn already."""
    if session.preview:  # no participant: `flask sessions purge-previews` deletes previews
        raise WithdrawalError(f"session {session.id} is a researcher's preview, not a participant")
    reason = (reason or "").strip()
    if not reason:
        raise WithdrawalError("a reason is required")
    # The row lock makes a save racing this wait for it, then find the session closed (trialstore.OPEN):
    # no answer can be stored after the deletes below.
    session = db.session.scalars(
        db.select(PS).where(PS.id == session.id).with_for_update().execution_options(populate_existing=True)
    ).one()
    if session.withdrawn_at is not None:
        return False
    previous = session.status
    session.status, session.withdrawn_at = "withdrawn", utcnow()
    # The HMAC stays (filled here for a session older than it) so the PROLIFIC_PID is still recognised.
    if session.pid_hmac is None and session.prolific_pid:
        session.pid_hmac = identifiers.pid_hmac(session.prolific_pid)
    for column in identifiers.PERSONAL_COLUMNS:  # url_variables too: the person's link, whatever they say
        setattr(session, column, None)
    session.exclusion_reason = session.status_before_exclusion = None
    session.plan = []
    db.session.flush()  # the status first, so the row is closed before its data goes
    trials = db.session.execute(db.delete(Trial).where(Trial.session_id == session.id)).rowcount
    surveys = db.session.execute(db.delete(SurveyResponse).where(SurveyResponse.session_id == session.id)).rowcount
    bump_generation(study.id)
    audit.record(
        study,
        "participant_withdrawn",
        researcher_id,
        via,
        participant_id=session.id,
        reason=reason,
        previous_status=previous,
        trials_deleted=trials,
        surveys_deleted=surveys,
    )
    return True
