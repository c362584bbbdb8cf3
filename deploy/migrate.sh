#!/bin/sh
# The migration job: run once per deployment, before any app server starts, connected (DATABASE_URL) as the role that
# owns the tables. docker-compose.yml's `migrate` service runs it, and so does the load benchmark's two-server setup
# (bench/load/setup.py). It migrates the schema, loads studies/, then creates or updates the app servers' own role
# (the argument): no superuser, owning nothing, SELECT/INSERT/UPDATE/DELETE on the tables (server/cli/deploy.py),
# its password from STUDYHIVE_APP_DB_PASSWORD. Every step may be run again: an unchanged database stays as it is.
# docs/operations.md, "Database roles and the migration job".
set -eu
[ $# = 1 ] || { echo "usage: deploy/migrate.sh APP_ROLE" >&2; exit 2; }
cd "$(dirname "$0")/.."  # the project root: the migrations and studies folders
export FLASK_APP=server
flask="${FLASK:-flask}"
"$flask" db upgrade --directory migrations
"$flask" studies sync
exec "$flask" deploy app-role "$1"
