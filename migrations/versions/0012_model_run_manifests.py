"""model runs keep their run manifests (issue #28)

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26 02:30:00

`model_runs.manifests`: the metadata `python -m modelruns predict` stores in a predictions file (unit, chart types,
the run manifest run.json), one entry per imported file, so a run merged from per-chart-type files keeps each
network's manifest. NULL for runs imported from files without it (CSV, other tools).

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("model_runs") as batch:
        batch.add_column(sa.Column("manifests", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("model_runs") as batch:
        batch.drop_column("manifests")
