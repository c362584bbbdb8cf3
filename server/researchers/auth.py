"""Researcher accounts: hashed passwords (werkzeug's scrypt), per-study access and API tokens for scripted exports.
The guards of the researcher pages are in server/web/guards.py, the CLI (`flask researcher …`) in
server/cli/researcher.py.

Access: an admin sees every study; any other researcher sees only the studies granted to them in study_access.
A study a researcher may not see answers 404, exactly like a study that does not exist.

Sessions: the signed session cookie holds the researcher's id, the account's session epoch when they logged in and
when they were last seen. A cookie whose epoch is not the account's current one is no longer a session, so raising
the epoch ends every session of the account at once, copies of its cookie included: logout does, and so do a new
password, taking admin rights away and disabling the account. An idle session (RESEARCHER_IDLE_HOURS) ends too
(server/web/guards.py checks both on each request).

API tokens: 32 random bytes shown once; the database keeps only their SHA-256, so a leaked database does not leak
working tokens. A token is accepted only by the views marked :func:`token_or_login_required` (the exports), as
`Authorization: Bearer <token>`.
"""

from __future__ import annotations

import hashlib
import secrets

from werkzeug.security import check_password_hash, generate_password_hash

from ..db import db, utcnow
from ..models import ApiToken, Researcher, Study, StudyAccess

MIN_PASSWORD = 8
TOKEN_PREFIX = "shk_"  # recognisable in a leaked script or a secret scanner


def _check_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise ValueError(f"the password must have at least {MIN_PASSWORD} characters")


def create_researcher(username: str, password: str, admin: bool = False) -> Researcher:
    """A new account; the very first account is always an admin (someone must be able to grant access)."""
    _check_password(password)
    if get_researcher(username):
        raise ValueError(f"a researcher named {username!r} exists already")
    first = db.session.scalar(db.select(db.func.count(Researcher.id))) == 0
    researcher = Researcher(username=username, password_hash=generate_password_hash(password), is_admin=admin or first)
    db.session.add(researcher)
    db.session.commit()
    return researcher


def get_researcher(username: str) -> Researcher | None:
    return db.session.scalars(db.select(Researcher).filter_by(username=username)).first()


def check_login(username: str, password: str) -> Researcher | None:
    """The account these credentials open; None for a wrong password or a disabled account (the login page says the
    same for both, so it does not tell which accounts exist)."""
    researcher = get_researcher(username)
    if researcher and researcher.disabled_at is None and check_password_hash(researcher.password_hash, password):
        return researcher
    return None


# --------------------------------------------------------------------------------------------------
# Sessions


def end_sessions(researcher: Researcher) -> None:
    """End every session of the account (not committed: the caller commits it with the change that asks for it)."""
    researcher.session_epoch += 1


def session_valid(researcher: Researcher | None, epoch: object) -> bool:
    """Whether a cookie of `epoch` is still a session of this account."""
    return researcher is not None and researcher.disabled_at is None and epoch == researcher.session_epoch


def set_password(researcher: Researcher, password: str) -> None:
    """A new password; every session of the account ends."""
    _check_password(password)
    researcher.password_hash = generate_password_hash(password)
    end_sessions(researcher)
    db.session.commit()


def set_admin(researcher: Researcher, admin: bool) -> None:
    """Give or take admin rights; taking them ends every session of the account, so no open page keeps them."""
    if researcher.is_admin and not admin:
        end_sessions(researcher)
    researcher.is_admin = admin
    db.session.commit()


def set_disabled(researcher: Researcher, disabled: bool) -> bool:
    """Disable the account (no login, every session ended, its API tokens refused) or enable it again; False if it
    was so already."""
    if (researcher.disabled_at is not None) == disabled:
        return False
    researcher.disabled_at = utcnow() if disabled else None
    if disabled:
        end_sessions(researcher)
    db.session.commit()
    return True


# --------------------------------------------------------------------------------------------------
# Per-study access


def visible_studies(researcher: Researcher):
    """A SELECT of the studies this researcher may see, ordered by slug."""
    query = db.select(Study).order_by(Study.slug)
    if not researcher.is_admin:
        query = query.join(StudyAccess, StudyAccess.study_id == Study.id).where(
            StudyAccess.researcher_id == researcher.id
        )
    return query


def can_see(researcher: Researcher, study: Study) -> bool:
    return researcher.is_admin or db.session.get(StudyAccess, (researcher.id, study.id)) is not None


def grant(researcher: Researcher, study: Study) -> bool:
    """Give access; False if the researcher had it already."""
    if db.session.get(StudyAccess, (researcher.id, study.id)):
        return False
    db.session.add(StudyAccess(researcher_id=researcher.id, study_id=study.id))
    db.session.commit()
    return True


def revoke(researcher: Researcher, study: Study) -> bool:
    access = db.session.get(StudyAccess, (researcher.id, study.id))
    if access is None:
        return False
    db.session.delete(access)
    db.session.commit()
    return True


# --------------------------------------------------------------------------------------------------
# API tokens


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(researcher: Researcher, name: str) -> str:
    """Store a new token's hash; return the token itself (the only time it is known)."""
    name = name.strip()
    if not name or len(name) > 80:
        raise ValueError("a token needs a name of 1–80 characters")
    if db.session.scalars(db.select(ApiToken).filter_by(researcher_id=researcher.id, name=name)).first():
        raise ValueError(f"{researcher.username} has a token named {name!r} already")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    db.session.add(ApiToken(researcher_id=researcher.id, name=name, token_hash=_digest(token)))
    db.session.commit()
    return token


def token_owner(token: str) -> Researcher | None:
    """The researcher whose API token this is (None if it is unknown or revoked, or the account is disabled); notes
    when it was last used."""
    found = db.session.scalars(db.select(ApiToken).filter_by(token_hash=_digest(token))).first()
    owner = found and db.session.get(Researcher, found.researcher_id)
    if owner is None or owner.disabled_at is not None:
        return None
    found.last_used_at = utcnow()
    db.session.commit()
    return owner


def revoke_token(researcher: Researcher, name: str) -> bool:
    token = db.session.scalars(db.select(ApiToken).filter_by(researcher_id=researcher.id, name=name)).first()
    if token is None:
        return False
    db.session.delete(token)
    db.session.commit()
    return True
