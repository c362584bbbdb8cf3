"""Every synced version of a study (study_versions): a sync that changes a study's parsed configuration (its hash)
stores it as a new row, and each session points at the row it entered under. Versions synced before the table
existed (migration 0007) were overwritten and cannot be recovered; the migration kept each study's version of then."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam

from ..db import db
from ..models import ParticipantSession, Researcher, Study, StudyVersion, analysable
from ..prolific.audit import os_user


def record(study: Study, researcher_id: int | None, via: str) -> StudyVersion:
    """Keep the study's current configuration as its version `study.version` (committed with the caller's
    transaction). Who: the researcher (`--by`), how ("cli"…) and, from the command line, the operating-system user."""
    version = StudyVersion(
        study_id=study.id,
        version=study.version,
        config=study.config,
        config_hash=study.config_hash,
        researcher_id=researcher_id,
        via=via,
        os_user=os_user() if via == "cli" else None,
    )
    db.session.add(version)
    return version


# The id of a study's version (bound parameters `version_of_study` and `version`) as a subquery, so a new session's
# INSERT sets it in the same statement (no query of its own on the entry path); NULL if the version is not kept.
CURRENT_ID = (
    db.select(StudyVersion.id)
    .where(StudyVersion.study_id == bindparam("version_of_study"), StudyVersion.version == bindparam("version"))
    .scalar_subquery()
)


@dataclass(frozen=True)
class VersionRow:
    version: int
    config_hash: str
    created_at: datetime
    researcher: str | None  # the username
    via: str
    os_user: str | None
    sessions: int


def session_counts(study: Study) -> dict[int | None, int]:
    """Sessions per study_versions id (None: entered before versions were kept), previews and withdrawals not
    counted (models.analysable)."""
    return dict(
        db.session.execute(
            db.select(ParticipantSession.study_version_id, db.func.count())
            .where(ParticipantSession.study_id == study.id, analysable("all"))
            .group_by(ParticipantSession.study_version_id)
        ).all()
    )


def versions(study: Study) -> tuple[list[VersionRow], int]:
    """The study's kept versions, oldest first, each with the number of sessions that entered under it; and the
    number of sessions that entered under a version older than study_versions (not kept). Researchers' previews
    are not counted (models.analysable)."""
    sessions = session_counts(study)
    rows = db.session.execute(
        db.select(
            StudyVersion.id,
            StudyVersion.version,
            StudyVersion.config_hash,
            StudyVersion.created_at,
            Researcher.username,
            StudyVersion.via,
            StudyVersion.os_user,
        )
        .outerjoin(Researcher, Researcher.id == StudyVersion.researcher_id)
        .where(StudyVersion.study_id == study.id)
        .order_by(StudyVersion.version)
    )
    return ([VersionRow(*row[1:], sessions=sessions.get(row.id, 0)) for row in rows], sessions.get(None, 0))


def get_version(study: Study, number: int) -> StudyVersion | None:
    return db.session.scalars(db.select(StudyVersion).filter_by(study_id=study.id, version=number)).first()
