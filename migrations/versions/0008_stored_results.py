"""stored results: each study's data generation, and its analyses as last computed

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 18:45:00

data_generations counts the changes an analysis would see (completions, exclusions, imports, …); a study without a
row is at generation 0, so existing studies need none. analysis_results holds the analyses `flask analyze --store`
computed; there are none yet. Downgrading drops both: the stored results are lost (they can be recomputed).

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "data_generations",
        sa.Column("study_id", sa.Integer(), nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["study_id"], ["studies.id"], name=op.f("fk_data_generations_study_id_studies"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("study_id", name=op.f("pk_data_generations")),
    )
    op.create_table(
        "analysis_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("study_id", sa.Integer(), nullable=False),
        sa.Column("options_key", sa.String(length=200), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("duration_s", sa.Double(), nullable=False),
        sa.Column("problem", sa.Text(), nullable=True),
        sa.Column("html", sa.Text(), nullable=True),
        sa.Column("figures", sa.JSON(), nullable=False),
        sa.Column("outliers", sa.JSON(), nullable=False),
        sa.Column("table_names", sa.JSON(), nullable=False),
        sa.Column("tables", sa.JSON(), nullable=False),
        sa.Column("report", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["study_id"], ["studies.id"], name=op.f("fk_analysis_results_study_id_studies"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_analysis_results")),
        sa.UniqueConstraint("study_id", "options_key", name=op.f("uq_analysis_results_study_id_options_key")),
    )


def downgrade():
    op.drop_table("analysis_results")
    op.drop_table("data_generations")
