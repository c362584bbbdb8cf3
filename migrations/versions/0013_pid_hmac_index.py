"""an index on participant_sessions.pid_hmac

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26 11:10:00

The dashboard finds returning participants by looking up one study's Prolific-id HMACs in every other study; the
unique key (study_id, pid_hmac) cannot serve a lookup by pid_hmac alone.

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index("ix_participant_sessions_pid_hmac", "participant_sessions", ["pid_hmac"])


def downgrade():
    op.drop_index("ix_participant_sessions_pid_hmac", table_name="participant_sessions")
