"""Alembic: upgrade from an empty database, the schema it builds equals the models, and downgrade removes it."""
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, text

from server.db import db, dispose_engines
from tests.conftest import ROOT, make_app


@pytest.fixture
def empty_app(tmp_path):
    app = make_app(tmp_path)
    with app.app_context():
        db.drop_all()
        with db.engine.begin() as conn:
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
        yield app
        db.session.remove()
        db.drop_all()
        with db.engine.begin() as conn:
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
        dispose_engines()


@pytest.mark.db
def test_upgrade_matches_models_and_downgrade_empties(empty_app):
    directory = str(ROOT / "migrations")
    upgrade(directory=directory)
    tables = set(inspect(db.engine).get_table_names())
    assert {"studies", "stimuli", "participant_sessions", "survey_responses", "trials", "model_runs",
            "predictions", "researchers"} <= tables
    with db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
    assert diff == [], f"models and migrations differ: {diff}"
    downgrade(directory=directory, revision="base")
    assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}


def test_one_alembic_head():
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    config = Config()
    config.set_main_option("script_location", str(ROOT / "migrations"))
    assert len(ScriptDirectory.from_config(config).get_heads()) == 1
