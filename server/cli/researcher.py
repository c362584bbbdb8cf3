"""`flask researcher …`: researcher accounts, their study access and API tokens."""

from __future__ import annotations

import click

from ..db import db
from ..models import ApiToken, Researcher, Study
from ..researchers.auth import create_researcher, create_token, grant, revoke, revoke_token, visible_studies
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


@researcher_cli.command("admin", help="Make a researcher an admin (sees every study), or not (--off).")
@click.argument("username")
@click.option("--off", is_flag=True, help="take admin rights away")
def admin_command(username, off):
    researcher = researcher_or_fail(username)
    researcher.is_admin = not off
    db.session.commit()
    click.echo(f"{username} is {'no longer ' if off else ''}an admin")


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
        click.echo(f"{researcher.username}\t{studies}")


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
