"""Every Prolific call that changes something, and every sync, goes to the study's audit log (study_events, shown
on its dashboard page) with who made it and when: the researcher account (the dashboard's, or the CLI's `--by`),
and for the command line also the operating-system user who ran it."""

from __future__ import annotations

import getpass
from typing import Any

from ..db import db
from ..models import Study, StudyEvent


def record(study: Study, action: str, researcher_id: int | None, via: str, **detail: Any) -> StudyEvent:
    """Add an event (committed with the caller's transaction)."""
    if via == "cli":
        detail["os_user"] = os_user()
    event = StudyEvent(study_id=study.id, researcher_id=researcher_id, action=action, detail={"via": via, **detail})
    db.session.add(event)
    return event


def os_user() -> str | None:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name and no passwd entry (some containers)
        return None
