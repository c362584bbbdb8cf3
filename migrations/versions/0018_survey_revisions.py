"""a survey answer records the form of the questions it answered (issue #39 point 4)

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-29 00:30:00

`survey_responses` gains `revision`, the number of the survey's form the answers were given under
(server/studies/surveys.py `revisions`: hive_tradeoff's accuracies accepted only 60–100 % in form 1, 0–100 % in form
2). Answers stored before keep NULL: which form they answered was not recorded.

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("survey_responses") as batch:
        batch.add_column(sa.Column("revision", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("survey_responses") as batch:
        batch.drop_column("revision")
