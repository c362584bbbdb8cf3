"""Researcher accounts: hashed passwords (werkzeug's scrypt), a login-required decorator, and the CLI that creates
the first account."""
from __future__ import annotations

from functools import wraps

import click
from flask import g, redirect, request, session, url_for
from werkzeug.security import check_password_hash, generate_password_hash

from .db import db
from .models import Researcher

MIN_PASSWORD = 8


def create_researcher(username: str, password: str) -> Researcher:
    if len(password) < MIN_PASSWORD:
        raise ValueError(f"the password must have at least {MIN_PASSWORD} characters")
    if db.session.scalars(db.select(Researcher).filter_by(username=username)).first():
        raise ValueError(f"a researcher named {username!r} exists already")
    researcher = Researcher(username=username, password_hash=generate_password_hash(password))
    db.session.add(researcher)
    db.session.commit()
    return researcher


def check_login(username: str, password: str) -> Researcher | None:
    researcher = db.session.scalars(db.select(Researcher).filter_by(username=username)).first()
    if researcher and check_password_hash(researcher.password_hash, password):
        return researcher
    return None


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


@click.group("researcher", help="Manage researcher accounts.")
def researcher_cli():
    pass


@researcher_cli.command("create", help="Create a researcher account (asks for the password).")
@click.argument("username")
@click.password_option(help="the password (asked for when omitted)")
def create_command(username, password):
    try:
        create_researcher(username, password)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"researcher {username!r} created")


def init_app(app):
    app.before_request(load_researcher)
    app.cli.add_command(researcher_cli)
