"""`flask researcher …`: researcher accounts, their study access and API tokens."""

from __future__ import annotations

import click

from ..db import db
from ..models import ApiToken, Researcher, Study
from ..researchers.auth import (
    create_researcher,
    create_token,
    grant,
    revoke,
    revoke_token,
    set_admin,
    set_disabled,
    set_password,
    visible_studies,
)
from .common import researcher_or_fail, study_or_fail


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
    click.echo(
        f"researcher {username!r} created"
        + (
            " (admin: sees every study)"
            if researcher.is_admin
            else f"; grant studies with `flask researcher grant {username} SLUG`"
        )
    )


@researcher_cli.command(
    "admin", help="Make a researcher an admin (sees every study), or not (--off: every session of theirs ends)."
)
@click.argument("username")
@click.option("--off", is_flag=True, help="take admin rights away")
def admin_command(username, off):
    researcher = researcher_or_fail(username)
    was_admin = researcher.is_admin
    set_admin(researcher, not off)
    ended = "; every session of theirs has ended" if off and was_admin else ""
    click.echo(f"{username} is {'no longer ' if off else ''}an admin{ended}")


@researcher_cli.command("password", help="Set a new password for a researcher (asks for it); every session ends.")
@click.argument("username")
@click.password_option(help="the new password (asked for when omitted)")
def password_command(username, password):
    try:
        set_password(researcher_or_fail(username), password)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"new password for {username}; every session of theirs has ended")


@researcher_cli.command(
    "disable", help="Disable a researcher account: no login, every session ends, its API tokens are refused."
)
@click.argument("username")
def disable_command(username):
    changed = set_disabled(researcher_or_fail(username), True)
    click.echo(
        f"{username} disabled: every session has ended, no login, API tokens refused"
        if changed
        else f"{username} was already disabled"
    )


@researcher_cli.command("enable", help="Let a disabled researcher account log in (and use its API tokens) again.")
@click.argument("username")
def enable_command(username):
    changed = set_disabled(researcher_or_fail(username), False)
    click.echo(f"{username} may log in again" if changed else f"{username} was not disabled")


@researcher_cli.command("grant", help="Let a researcher see a study (its pages, exports and controls).")
@click.argument("username")
@click.argument("slug")
def grant_command(username, slug):
    added = grant(researcher_or_fail(username), study_or_fail(slug))
    click.echo(f"{username} {'can now see' if added else 'could already see'} {slug}")


@researcher_cli.command("revoke", help="Take a researcher's access to a study away.")
@click.argument("username")
@click.argument("slug")
def revoke_command(username, slug):
    removed = revoke(researcher_or_fail(username), study_or_fail(slug))
    click.echo(f"{username} {'can no longer see' if removed else 'had no access to'} {slug}")


@researcher_cli.command("list", help="List researcher accounts and the studies each may see.")
def list_command():
    for researcher in db.session.scalars(db.select(Researcher).order_by(Researcher.username)):
        studies = (
            "all studies (admin)"
            if researcher.is_admin
            else (
                ", ".join(db.session.scalars(visible_studies(researcher).with_only_columns(Study.slug))) or "no studies"
            )
        )
        disabled = " (disabled)" if researcher.disabled_at else ""
        click.echo(f"{researcher.username}{disabled}\t{studies}")


@researcher_cli.group("token", help="API tokens for scripted exports (Authorization: Bearer …).")
def token_cli():
    pass


@token_cli.command("create", help="Create an API token for a researcher and print it (shown only once).")
@click.argument("username")
@click.argument("name")
def token_create_command(username, name):
    try:
        token = create_token(researcher_or_fail(username), name)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(token)
    click.echo(f"token {name!r} for {username}: store it now, it is not shown again", err=True)


@token_cli.command("revoke", help="Revoke a researcher's API token by name.")
@click.argument("username")
@click.argument("name")
def token_revoke_command(username, name):
    if not revoke_token(researcher_or_fail(username), name):
        raise click.ClickException(f"{username} has no token named {name!r}")
    click.echo(f"token {name!r} of {username} revoked")


@token_cli.command("list", help="List a researcher's API tokens (names and dates; the tokens are not stored).")
@click.argument("username")
def token_list_command(username):
    researcher = researcher_or_fail(username)
    for t in db.session.scalars(db.select(ApiToken).filter_by(researcher_id=researcher.id).order_by(ApiToken.name)):
        click.echo(
            f"{t.name}\tcreated {t.created_at:%Y-%m-%d %H:%M}\tlast used "
            f"{t.last_used_at.strftime('%Y-%m-%d %H:%M') if t.last_used_at else 'never'}"
        )
