"""Prolific submissions and bonus batches keep keyed hashes once their raw ids are purged (issue #38)

Revision ID: 0016
Revises: 0014
Create Date: 2026-11-28 17:30:00

`prolific_submissions` gains the HMACs of its submission id and PROLIFIC_PID (server/identifiers.py), by which the
sync matches Prolific's records, so `flask data purge-identifiers` can null the raw ids of settled submissions (both
become nullable). `bonus_batches.identifiers_purged_at` says when a paid batch's rows had their PROLIFIC_PIDs replaced
by their HMACs. Existing rows get their hashes from the next sync or purge (they cannot be computed here without the
key).

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0016"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("prolific_submissions") as batch:
        batch.add_column(sa.Column("submission_hmac", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("pid_hmac", sa.String(length=64), nullable=True))
        batch.alter_column("submission_id", existing_type=sa.String(length=64), nullable=True)
        batch.alter_column("participant_id", existing_type=sa.String(length=64), nullable=True)
        batch.create_unique_constraint(
            "uq_prolific_submissions_study_id_submission_hmac", ["study_id", "submission_hmac"]
        )
    with op.batch_alter_table("bonus_batches") as batch:
        batch.add_column(sa.Column("identifiers_purged_at", sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table("bonus_batches") as batch:
        batch.drop_column("identifiers_purged_at")
    # A purged submission has no raw ids to restore: its row goes, as a sync would read it anew.
    op.execute("DELETE FROM prolific_submissions WHERE submission_id IS NULL OR participant_id IS NULL")
    with op.batch_alter_table("prolific_submissions") as batch:
        batch.drop_constraint("uq_prolific_submissions_study_id_submission_hmac", type_="unique")
        batch.alter_column("participant_id", existing_type=sa.String(length=64), nullable=False)
        batch.alter_column("submission_id", existing_type=sa.String(length=64), nullable=False)
        batch.drop_column("pid_hmac")
        batch.drop_column("submission_hmac")
