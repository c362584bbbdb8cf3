"""pseudonymous identifiers, withdrawal and recorded consent (issue #26)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26 02:00:00

Sessions gain the keyed hash (HMAC-SHA256, hex) of their platform id, by which returning participants, the unique
key per study and Prolific submissions are matched once the raw ids are purged (`identifiers_purged_at`); the time
and reason-free mark of a withdrawal (the session row stays as a tombstone, its data deleted); and the SHA-256 of the
consent text as shown with its language. `deployment_secrets` holds the per-deployment key of those hashes when the
environment gives none, so every app server and every rebuild uses the same one. Existing sessions keep a NULL hash
until the application fills it (it cannot be computed here without the key).

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "deployment_secrets",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_deployment_secrets")),
    )
    with op.batch_alter_table("participant_sessions") as batch:
        batch.add_column(sa.Column("pid_hmac", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("identifiers_purged_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("consent_sha256", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("consent_language", sa.String(length=16), nullable=True))
        batch.create_unique_constraint("uq_participant_sessions_study_id_pid_hmac", ["study_id", "pid_hmac"])


def downgrade():
    with op.batch_alter_table("participant_sessions") as batch:
        batch.drop_constraint("uq_participant_sessions_study_id_pid_hmac", type_="unique")
        for column in ("consent_language", "consent_sha256", "withdrawn_at", "identifiers_purged_at", "pid_hmac"):
            batch.drop_column(column)
    op.drop_table("deployment_secrets")
