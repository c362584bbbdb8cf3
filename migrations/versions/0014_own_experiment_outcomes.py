"""what an own jsPsych experiment's page reported about its run (issue #36)

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28 14:00:00

A session of a plan-less task (a researcher's jsPsych experiment) gains: how its timeline ended (`ending`: the
natural end, or endExperiment/abortExperiment with its message), the error that stopped the experiment's own code
(`experiment_error`: message, trial, when), the first replayed row that differed from the stored one
(`replay_divergence`) and the entry link's query parameters other than Prolific's ids (`url_variables`), which the
experiment reads with jsPsych.data.getURLVariable.

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

COLUMNS = ("ending", "experiment_error", "replay_divergence", "url_variables")


def upgrade():
    with op.batch_alter_table("participant_sessions") as batch:
        for name in COLUMNS:
            batch.add_column(sa.Column(name, sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("participant_sessions") as batch:
        for name in reversed(COLUMNS):
            batch.drop_column(name)
