"""label predictions: models' ranked labels (and probabilities) per sketch

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22 17:45:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "label_predictions",
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("stimulus_id", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("label_id", sa.String(length=128), nullable=False),
        sa.Column("probability", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(
            ["run_id"], ["model_runs.id"], name=op.f("fk_label_predictions_run_id_model_runs"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["stimulus_id"], ["stimuli.id"], name=op.f("fk_label_predictions_stimulus_id_stimuli")),
        sa.PrimaryKeyConstraint("run_id", "stimulus_id", "rank", name=op.f("pk_label_predictions")),
    )


def downgrade():
    op.drop_table("label_predictions")
