"""plan-less trials: rows of researchers' own jsPsych experiments (issue #24)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 19:40:00

A jsPsych experiment's rows name no planned stimulus, so trials.stimulus_id may be NULL. Their trial_index comes
from the server, not the page (jsPsych's own trial_index restarts after a reload): on PostgreSQL from the sequence
plan_less_trial_index, so two requests of one session never draw the same index; SQLite writes one at a time and
takes the session's next index. Sessions gain the time the page said the timeline finished and a flag a refused
completion sets (fewer rows than the study needs).

Downgrading deletes the plan-less rows (they cannot satisfy NOT NULL) and drops the sequence and columns.

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("trials") as batch:
        batch.alter_column("stimulus_id", existing_type=sa.Integer(), nullable=True)
    with op.batch_alter_table("participant_sessions") as batch:
        batch.add_column(sa.Column("timeline_finished_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("flag", sa.String(length=32), nullable=True))
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE SEQUENCE plan_less_trial_index AS integer")


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP SEQUENCE plan_less_trial_index")
    op.execute("DELETE FROM trials WHERE stimulus_id IS NULL")
    with op.batch_alter_table("participant_sessions") as batch:
        batch.drop_column("flag")
        batch.drop_column("timeline_finished_at")
    with op.batch_alter_table("trials") as batch:
        batch.alter_column("stimulus_id", existing_type=sa.Integer(), nullable=False)
