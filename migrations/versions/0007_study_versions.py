"""study versions: every synced configuration of a study, and the version each session entered under

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 16:41:03

Until now a sync overwrote studies.config and only the counter studies.version remained, so the configurations of
earlier versions are gone and cannot be recovered: each study gets one row, its current version (config, hash and
number as stored), with via "migration" and the study's updated_at as its time (the time of that sync was not
stored; a later open/pause/close also moved updated_at). Sessions that ran under that version point at it; sessions
of earlier versions keep their study_version number and no study_version_id.

Downgrading drops the table: the versions synced since are lost, only studies.config (the current one) remains.

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "study_versions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("study_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("config_hash", sa.String(length=64), nullable=False),
        sa.Column("researcher_id", sa.Integer(), nullable=True),
        sa.Column("via", sa.String(length=16), nullable=False),
        sa.Column("os_user", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["researcher_id"],
            ["researchers.id"],
            name=op.f("fk_study_versions_researcher_id_researchers"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["study_id"], ["studies.id"], name=op.f("fk_study_versions_study_id_studies"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_study_versions")),
        sa.UniqueConstraint("study_id", "version", name=op.f("uq_study_versions_study_id_version")),
    )
    op.execute(
        sa.text(
            "INSERT INTO study_versions (study_id, version, config, config_hash, via, created_at) "
            "SELECT id, version, config, config_hash, 'migration', updated_at FROM studies"
        )
    )

    with op.batch_alter_table("participant_sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("study_version_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_participant_sessions_study_version_id_study_versions"),
            "study_versions",
            ["study_version_id"],
            ["id"],
        )
    kept = (
        "SELECT v.id FROM study_versions v WHERE v.study_id = participant_sessions.study_id "
        "AND v.version = participant_sessions.study_version"
    )
    op.execute(sa.text(f"UPDATE participant_sessions SET study_version_id = ({kept}) WHERE EXISTS ({kept})"))


def downgrade():
    with op.batch_alter_table("participant_sessions", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_participant_sessions_study_version_id_study_versions"), type_="foreignkey"
        )
        batch_op.drop_column("study_version_id")

    op.drop_table("study_versions")
