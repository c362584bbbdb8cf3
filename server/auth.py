"""Researcher accounts: hashed passwords (werkzeug's scrypt), per-study access, API tokens for scripted exports,
the decorators that guard the researcher pages, and the CLI (`flask researcher …`).

Access: an admin sees every study; any other researcher sees only the studies granted to them in study_access.
A study a researcher may not see answers 404, exactly like a study that does not exist.

API tokens: 32 random bytes shown once; the database keeps only their SHA-256, so a leaked database does not leak
working tokens. A token is accepted only by the views marked :func:`token_or_login_required` (the exports), as
`Authorization: Bearer <token>`.
"""
from __future__ import annotations

import hashlib
import secrets
from functools import wraps

import click
from flask import abort, g, redirect, request, session, url_for
from flask.sessions import SecureCookieSessionInterface
from werkzeug.security import check_password_hash, generate_password_hash

from . import api
from .db import db, utcnow
from .models import ApiToken, Researcher, Study, StudyAccess

MIN_PASSWORD = 8
TOKEN_PREFIX = "shk_"  # recognisable in a leaked script or a secret scanner


def create_researcher(username: str, password: str, admin: bool = False) -> Researcher:
    """A new account; the very first account is always an admin (someone must be able to grant access)."""
    if len(password) < MIN_PASSWORD:
        raise ValueError(f"the password must have at least {MIN_PASSWORD} characters")
    if get_researcher(username):
        raise ValueError(f"a researcher named {username!r} exists already")
    first = db.session.scalar(db.select(db.func.count(Researcher.id))) == 0
    researcher = Researcher(username=username, password_hash=generate_password_hash(password),
                            is_admin=admin or first)
    db.session.add(researcher)
    db.session.commit()
    return researcher


def get_researcher(username: str) -> Researcher | None:
    return db.session.scalars(db.select(Researcher).filter_by(username=username)).first()


def check_login(username: str, password: str) -> Researcher | None:
    researcher = get_researcher(username)
    if researcher and check_password_hash(researcher.password_hash, password):
        return researcher
    return None


# --------------------------------------------------------------------------------------------------
# Per-study access


def visible_studies(researcher: Researcher):
    """A SELECT of the studies this researcher may see, ordered by slug."""
    query = db.select(Study).order_by(Study.slug)
    if not researcher.is_admin:
        query = query.join(StudyAccess, StudyAccess.study_id == Study.id).where(
            StudyAccess.researcher_id == researcher.id)
    return query


def can_see(researcher: Researcher, study: Study) -> bool:
    return researcher.is_admin or db.session.get(StudyAccess, (researcher.id, study.id)) is not None


def study_or_404(slug: str) -> Study:
    """The study named in the URL if the current researcher may see it; 404 otherwise (existence is not revealed)."""
    study = db.session.scalars(db.select(Study).filter_by(slug=slug)).first()
    if study is None or not can_see(g.researcher, study):
        abort(404)
    return study


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


def revoke_token(researcher: Researcher, name: str) -> bool:
    token = db.session.scalars(db.select(ApiToken).filter_by(researcher_id=researcher.id, name=name)).first()
    if token is None:
        return False
    db.session.delete(token)
    db.session.commit()
    return True


def researcher_from_bearer() -> Researcher | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    token = db.session.scalars(db.select(ApiToken).filter_by(token_hash=_digest(value.strip()))).first()
    if token is None:
        return None
    token.last_used_at = utcnow()
    db.session.commit()
    return db.session.get(Researcher, token.researcher_id)


# --------------------------------------------------------------------------------------------------
# Guards


class ResearcherCookies(SecureCookieSessionInterface):
    """The signed session cookie holds only the logged-in researcher. The participant API never reads it, so its
    requests skip opening it (a serializer and a signature check on each of thousands of trial saves)."""

    def open_session(self, app, request):
        if request.path.startswith(api.PREFIX):
            return self.make_null_session(app)
        return super().open_session(app, request)


def load_researcher():
    rid = session.get("researcher_id")
    g.researcher = db.session.get(Researcher, rid) if rid else None


def login_required(view):
    @wraps(view)
    def wrapper(*args, **kwargs):
        if g.get("researcher") is None:
            return redirect(url_for("researcher.login", next=request.path))
        return view(*args, **kwargs)
    return wrapper


def admin_required(view):
    @wraps(view)
    def wrapper(*args, **kwargs):
        if g.get("researcher") is None:
            return redirect(url_for("researcher.login", next=request.path))
        if not g.researcher.is_admin:
            abort(403)
        return view(*args, **kwargs)
    return wrapper


def token_or_login_required(view):
    """For exports scripts fetch: a logged-in session, or `Authorization: Bearer <token>` (401 if it is wrong)."""
    @wraps(view)
    def wrapper(*args, **kwargs):
        if "Authorization" in request.headers:
            g.researcher = researcher_from_bearer()
            if g.researcher is None:
                return {"error": "invalid_token", "message": "unknown or revoked API token"}, 401, {
                    "WWW-Authenticate": 'Bearer realm="studyhive"'}
        elif g.get("researcher") is None:
            return redirect(url_for("researcher.login", next=request.path))
        return view(*args, **kwargs)
    return wrapper


# --------------------------------------------------------------------------------------------------
# CLI


def _researcher_or_fail(username: str) -> Researcher:
    researcher = get_researcher(username)
    if researcher is None:
        raise click.ClickException(f"no researcher named {username!r}")
    return researcher


def _study_or_fail(slug: str) -> Study:
    study = db.session.scalars(db.select(Study).filter_by(slug=slug)).first()
    if study is None:
        raise click.ClickException(f"no study named {slug!r} (see `flask studies list`)")
    return study


@click.group("researcher", help="Manage researcher accounts, their study access and API tokens.")
def researcher_cli():
    pass


@researcher_cli.command("create", help="Create a researcher account (asks for the password). The first is an admin.")
@click.argument("username")
@click.password_option(help="the password (asked for when omitted)")
@click.option("--admin", is_flag=True, help="may see every study and grant access")
def create_command(username, password, admin):
    try:
        researcher = create_researcher(username, password, admin=admin)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"researcher {username!r} created" + (" (admin: sees every study)" if researcher.is_admin else
                                                      f"; grant studies with `flask researcher grant {username} SLUG`"))


@researcher_cli.command("admin", help="Make a researcher an admin (sees every study), or not (--off).")
@click.argument("username")
@click.option("--off", is_flag=True, help="take admin rights away")
def admin_command(username, off):
    researcher = _researcher_or_fail(username)
    researcher.is_admin = not off
    db.session.commit()
    click.echo(f"{username} is {'no longer ' if off else ''}an admin")


@researcher_cli.command("grant", help="Let a researcher see a study (its pages, exports and controls).")
@click.argument("username")
@click.argument("slug")
def grant_command(username, slug):
    added = grant(_researcher_or_fail(username), _study_or_fail(slug))
    click.echo(f"{username} {'can now see' if added else 'could already see'} {slug}")


@researcher_cli.command("revoke", help="Take a researcher's access to a study away.")
@click.argument("username")
@click.argument("slug")
def revoke_command(username, slug):
    removed = revoke(_researcher_or_fail(username), _study_or_fail(slug))
    click.echo(f"{username} {'can no longer see' if removed else 'had no access to'} {slug}")


@researcher_cli.command("list", help="List researcher accounts and the studies each may see.")
def list_command():
    for researcher in db.session.scalars(db.select(Researcher).order_by(Researcher.username)):
        studies = "all studies (admin)" if researcher.is_admin else (
            ", ".join(db.session.scalars(visible_studies(researcher).with_only_columns(Study.slug))) or "no studies")
        click.echo(f"{researcher.username}\t{studies}")


@researcher_cli.group("token", help="API tokens for scripted exports (Authorization: Bearer …).")
def token_cli():
    pass


@token_cli.command("create", help="Create an API token for a researcher and print it (shown only once).")
@click.argument("username")
@click.argument("name")
def token_create_command(username, name):
    try:
        token = create_token(_researcher_or_fail(username), name)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(token)
    click.echo(f"token {name!r} for {username}: store it now, it is not shown again", err=True)


@token_cli.command("revoke", help="Revoke a researcher's API token by name.")
@click.argument("username")
@click.argument("name")
def token_revoke_command(username, name):
    if not revoke_token(_researcher_or_fail(username), name):
        raise click.ClickException(f"{username} has no token named {name!r}")
    click.echo(f"token {name!r} of {username} revoked")


@token_cli.command("list", help="List a researcher's API tokens (names and dates; the tokens are not stored).")
@click.argument("username")
def token_list_command(username):
    researcher = _researcher_or_fail(username)
    for t in db.session.scalars(db.select(ApiToken).filter_by(researcher_id=researcher.id).order_by(ApiToken.name)):
        click.echo(f"{t.name}\tcreated {t.created_at:%Y-%m-%d %H:%M}\tlast used "
                   f"{t.last_used_at.strftime('%Y-%m-%d %H:%M') if t.last_used_at else 'never'}")


def init_app(app):
    app.session_interface = ResearcherCookies()
    app.before_request(load_researcher)
    app.cli.add_command(researcher_cli)
