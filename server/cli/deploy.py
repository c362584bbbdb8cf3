"""`flask deploy app-role`: the app servers' own PostgreSQL role, created or brought up to date by the migration job
(deploy/migrate.sh: docker-compose.yml's `migrate` service, and the load benchmark's two-server setup).

The app servers read and write rows and do nothing else, so their role gets exactly that: LOGIN, no superuser or
other role attributes, SELECT/INSERT/UPDATE/DELETE on the tables and USAGE on the sequences, for the tables later
migrations create too (default privileges of the role running this, the tables' owner), but only SELECT/INSERT on the
audit log (APPEND_ONLY): the app adds to the history of who did what, and cannot rewrite it. It owns nothing: whatever
it owns is handed to the owner, so a database whose app once connected as the owner (the old compose file's
superuser `studyhive`) is brought to the same state as a new one. Everything is in one transaction, and running it
again changes nothing. docs/operations.md, "Database roles".
"""

from __future__ import annotations

import os

import click
import psycopg
from psycopg import sql

from ..db import db

PASSWORD_VARIABLE = "STUDYHIVE_APP_DB_PASSWORD"
# Alembic's bookkeeping: only the migration job reads or writes it.
MIGRATIONS_TABLE = "alembic_version"
# The audit log (study changes, Prolific's payments, approvals and rejections, identifier exports): rows are added,
# never changed or deleted by the app.
APPEND_ONLY = ("study_events",)
ATTRIBUTES = sql.SQL("LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS")


@click.group("deploy", help="Deployment steps run by the migration job (deploy/migrate.sh).")
def deploy_cli():
    pass


@deploy_cli.command(
    "app-role",
    help="Create or update ROLE, the app servers' PostgreSQL login: no superuser, owning "
    "nothing, only SELECT/INSERT/UPDATE/DELETE on the tables (and on those later "
    "migrations create), SELECT/INSERT on the audit log (study_events). Run it as the tables' owner after "
    "`flask db upgrade`; running it again is harmless.",
)
@click.argument("role")
@click.option(
    "--password-env",
    default=PASSWORD_VARIABLE,
    show_default=True,
    metavar="VARIABLE",
    help="environment variable holding ROLE's password (not an option: the command line is visible to "
    "every user of the machine); unset or empty leaves the password as it is",
)
def app_role_command(role, password_env):
    connection = db.session.connection()
    if connection.dialect.name != "postgresql":
        raise click.ClickException("flask deploy app-role needs PostgreSQL (SQLite has no roles)")
    owner, database, schema = db.session.execute(
        db.text("SELECT current_user, current_database(), current_schema()")
    ).one()
    if role == owner:
        raise click.ClickException(
            f"{role!r} is the role running this command, the tables' owner: the app servers need a role of their own"
        )
    driver = connection.connection.driver_connection
    exists = db.session.scalar(db.text("SELECT 1 FROM pg_roles WHERE rolname = :role"), {"role": role})
    target, owner_id, schema_id = sql.Identifier(role), sql.Identifier(owner), sql.Identifier(schema)
    statements = [sql.SQL("ALTER ROLE {} " if exists else "CREATE ROLE {} ").format(target) + ATTRIBUTES]
    password = os.environ.get(password_env, "")
    if password:  # hashed here, as psql's \password does, so the password itself never reaches the server's logs
        hashed = driver.pgconn.encrypt_password(password.encode(), role.encode(), b"scram-sha-256").decode()
        statements.append(sql.SQL("ALTER ROLE {} PASSWORD {}").format(target, sql.Literal(hashed)))
    statements += [
        sql.SQL(text).format(role=target, owner=owner_id, schema=schema_id, database=sql.Identifier(database))
        for text in (
            "REASSIGN OWNED BY {role} TO {owner}",
            # From nothing, so that running it again, or on a database where the role had more, ends in the same state.
            "REVOKE ALL ON ALL TABLES IN SCHEMA {schema} FROM {role}",
            "REVOKE ALL ON ALL SEQUENCES IN SCHEMA {schema} FROM {role}",
            "REVOKE ALL ON SCHEMA {schema} FROM {role}",
            "ALTER DEFAULT PRIVILEGES FOR ROLE {owner} IN SCHEMA {schema} REVOKE ALL ON TABLES FROM {role}",
            "ALTER DEFAULT PRIVILEGES FOR ROLE {owner} IN SCHEMA {schema} REVOKE ALL ON SEQUENCES FROM {role}",
            "GRANT CONNECT ON DATABASE {database} TO {role}",
            "GRANT USAGE ON SCHEMA {schema} TO {role}",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {role}",
            "GRANT USAGE ON ALL SEQUENCES IN SCHEMA {schema} TO {role}",
            # Tables and sequences the owner creates later (the next `flask db upgrade`) get the same grants.
            "ALTER DEFAULT PRIVILEGES FOR ROLE {owner} IN SCHEMA {schema} "
            "GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {role}",
            "ALTER DEFAULT PRIVILEGES FOR ROLE {owner} IN SCHEMA {schema} GRANT USAGE ON SEQUENCES TO {role}",
        )
    ]
    for table, revoked in ((MIGRATIONS_TABLE, "ALL"), *((name, "UPDATE, DELETE") for name in APPEND_ONLY)):
        if db.session.scalar(db.text("SELECT to_regclass(:table)"), {"table": f"{schema}.{table}"}):
            statements.append(
                sql.SQL("REVOKE {} ON {}.{} FROM {}").format(sql.SQL(revoked), schema_id, sql.Identifier(table), target)
            )
    try:
        with driver.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
    except psycopg.errors.InsufficientPrivilege as exc:
        db.session.rollback()
        raise click.ClickException(
            f"{owner!r} may not set up role {role!r} ({exc.diag.message_primary}): run this "
            "as the tables' owner with the right to manage roles (docker-compose.yml: the "
            "database superuser, in the migrate service)"
        ) from None
    db.session.commit()
    tables = db.session.scalar(
        db.text(
            "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = :schema AND c.relkind IN ('r', 'p') AND has_table_privilege(:role, c.oid, 'INSERT')"
        ),
        {"schema": schema, "role": role},
    )
    click.echo(
        f"role {role}: {'updated' if exists else 'created'}; reads and writes {tables} tables of {database} "
        f"(owner {owner}){'; password set' if password else ''}"
    )
