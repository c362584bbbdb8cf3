"""researcher sessions that end, and the results page's recomputes (issue #38 points 7 and 10)

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28 17:00:00

`researchers` gains `session_epoch`, which every login's cookie carries and which logout, a password reset, taking
admin rights away and disabling the account raise (ending every session of the account at once), and `disabled_at`
(a disabled account cannot log in, and its API tokens are refused). `recomputes` keeps each recompute the results
page's button started, with when it ended and its error, so the page can say running, failed or done.

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("researchers") as batch:
        batch.add_column(sa.Column("session_epoch", sa.Integer(), server_default="0", nullable=False))
        batch.add_column(sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "recomputes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("study_id", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(length=8), nullable=False),
        sa.Column("researcher_id", sa.Integer(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["researcher_id"],
            ["researchers.id"],
            name=op.f("fk_recomputes_researcher_id_researchers"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["study_id"], ["studies.id"], name=op.f("fk_recomputes_study_id_studies"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_recomputes")),
    )
    with op.batch_alter_table("recomputes") as batch:
        batch.create_index(batch.f("ix_recomputes_study_id"), ["study_id"], unique=False)


def downgrade():
    with op.batch_alter_table("recomputes") as batch:
        batch.drop_index(batch.f("ix_recomputes_study_id"))
    op.drop_table("recomputes")
    with op.batch_alter_table("researchers") as batch:
        batch.drop_column("disabled_at")
        batch.drop_column("session_epoch")
