"""study stages, preview sessions and interaction records (issue #25)

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25 22:20:00

Studies gain a data stage (pilot or live) and sessions the stage they started in and whether a researcher's preview
link opened them. Studies and sessions that exist are backfilled `live`: they were collecting data for real before
stages existed. A study made from now on starts in `pilot` (the application's default; the column's server default
becomes `pilot` after the backfill). Trials gain the interaction records the page sends with each answer.

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("studies") as batch:
        batch.add_column(sa.Column("stage", sa.String(length=8), nullable=False, server_default="live"))
    with op.batch_alter_table("studies") as batch:
        batch.alter_column("stage", existing_type=sa.String(length=8), server_default="pilot")
    with op.batch_alter_table("participant_sessions") as batch:
        batch.add_column(sa.Column("stage", sa.String(length=8), nullable=False, server_default="live"))
        batch.add_column(sa.Column("preview", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("trials") as batch:
        batch.add_column(sa.Column("events", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("trials") as batch:
        batch.drop_column("events")
    # Previews go (the older schema cannot tell them apart), their rows first: SQLite cascades only when asked to.
    previews = "SELECT id FROM participant_sessions WHERE preview"
    op.execute(f"DELETE FROM trials WHERE session_id IN ({previews})")
    op.execute(f"DELETE FROM survey_responses WHERE session_id IN ({previews})")
    op.execute("DELETE FROM participant_sessions WHERE preview")
    with op.batch_alter_table("participant_sessions") as batch:
        batch.drop_column("preview")
        batch.drop_column("stage")
    with op.batch_alter_table("studies") as batch:
        batch.drop_column("stage")
