"""Alembic: upgrade from an empty database, the schema it builds equals the models, and downgrade removes it."""

from datetime import UTC, datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import MetaData, insert, inspect, text

from server.db import db, dispose_engines
from server.models import StudyVersion
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


def insert_study(conn, study_id: int, slug: str, at: datetime) -> None:
    """A ratio-estimation study row as an older schema holds it (the columns every revision since 0001 has)."""
    conn.execute(
        text(
            "INSERT INTO studies (id, slug, title, task_type, config, config_hash, version, status, created_at,"
            " updated_at) VALUES (:id, :slug, :title, 'ratio-estimation', '{}', :h, 1, 'open', :t, :t)"
        ),
        {"id": study_id, "slug": slug, "title": slug.title(), "h": str(study_id) * 64, "t": at},
    )


def insert_session(conn, at: datetime) -> None:
    """Session 1 of study 1, completed, as an older schema holds it (the columns every revision since 0009 has)."""
    conn.execute(
        text(
            "INSERT INTO participant_sessions (id, study_id, token, platform, study_version, status, started_at,"
            " last_seen_at, plan) VALUES (1, 1, 'tok', 'direct', 1, 'completed', :t, :t, '[]')"
        ),
        {"t": at},
    )


@pytest.mark.db
def test_upgrade_matches_models_and_downgrade_empties(empty_app):
    directory = str(ROOT / "migrations")
    upgrade(directory=directory)
    tables = set(inspect(db.engine).get_table_names())
    assert {
        "studies",
        "stimuli",
        "participant_sessions",
        "survey_responses",
        "trials",
        "model_runs",
        "predictions",
        "researchers",
    } <= tables
    with db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
    assert diff == [], f"models and migrations differ: {diff}"
    downgrade(directory=directory, revision="base")
    assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}


@pytest.mark.db
def test_a_command_on_a_database_without_this_codes_schema_names_the_fix(empty_app):
    """Never migrated, or migrated by an older version (a column missing): the command says which table or column
    and that `flask db upgrade` is the fix, not SQLAlchemy's traceback; no other error is reworded."""
    runner = empty_app.test_cli_runner()
    result = runner.invoke(args=["studies", "list"])
    assert result.exit_code == 1 and result.exception.__class__ is SystemExit
    assert "Error: the database has no table studies: its schema is not this code's" in result.output
    assert "run `flask db upgrade` first" in result.output
    assert "Traceback" not in result.output and "sqlalche.me" not in result.output

    upgrade(directory=str(ROOT / "migrations"))
    with db.engine.begin() as conn:
        conn.execute(text("ALTER TABLE studies DROP COLUMN stage"))
    db.session.remove()
    result = runner.invoke(args=["studies", "list"])
    assert result.exit_code == 1 and "Error: the database has no column " in result.output
    assert "stage" in result.output and "run `flask db upgrade` first" in result.output


def test_one_alembic_head():
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(ROOT / "migrations"))
    assert len(ScriptDirectory.from_config(config).get_heads()) == 1


@pytest.mark.db
def test_0007_keeps_each_studys_current_version_and_points_its_sessions_at_it(empty_app):
    """A database at 0006 with studies, sessions of current and older versions, a trial and a survey answer:
    0007 copies each study's current version, points the sessions of that version at it (the older ones keep
    only their number), keeps every row, and its downgrade keeps them too."""
    directory = str(ROOT / "migrations")
    upgrade(directory=directory, revision="0006")
    tables = MetaData()
    tables.reflect(db.engine)
    studies, sessions, stimuli, trials, surveys = (
        tables.tables[name] for name in ("studies", "participant_sessions", "stimuli", "trials", "survey_responses")
    )
    synced = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)
    configs = {1: {"slug": "edited", "task": {"n": 3}, "title": "Edited"}, 2: {"slug": "once", "task": {"n": 1}}}
    with db.engine.begin() as conn:
        conn.execute(
            insert(studies),
            [
                {
                    "id": i,
                    "slug": c["slug"],
                    "title": c["slug"],
                    "task_type": "ratio-estimation",
                    "config": c,
                    "config_hash": f"{i}" * 64,
                    "version": version,
                    "status": "open",
                    "created_at": synced,
                    "updated_at": synced,
                }
                for (i, c), version in zip(configs.items(), (3, 1))
            ],
        )
        conn.execute(
            insert(sessions),
            [
                {
                    "id": i,
                    "study_id": study,
                    "token": f"token{i}",
                    "platform": "direct",
                    "study_version": version,
                    "status": "started",
                    "started_at": synced,
                    "last_seen_at": synced,
                    "plan": [{"index": 0}],
                }
                for i, study, version in ((1, 1, 2), (2, 1, 3), (3, 1, 3), (4, 2, 1))
            ],
        )
        conn.execute(insert(stimuli), {"id": 1, "study_id": 1, "key": "s1", "practice": False, "params": {}})
        conn.execute(
            insert(trials),
            {
                "id": 1,
                "session_id": 1,
                "trial_index": 0,
                "client_trial_id": "t1",
                "stimulus_id": 1,
                "practice": False,
                "response": {"percent": 50},
                "score": {},
                "created_at": synced,
            },
        )
        conn.execute(
            insert(surveys), {"session_id": 2, "name": "consent", "answers": {"agreed": True}, "created_at": synced}
        )

    upgrade(directory=directory)
    with db.engine.connect() as conn:
        versions = conn.execute(db.select(StudyVersion.__table__).order_by(StudyVersion.study_id)).all()
        pointers = dict(conn.execute(text("SELECT id, study_version_id FROM participant_sessions")).all())
        counts = [conn.execute(text(f"SELECT count(*) FROM {t}")).scalar() for t in ("trials", "survey_responses")]
        diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
    assert [(v.study_id, v.version, v.config_hash, v.via, v.researcher_id) for v in versions] == [
        (1, 3, "1" * 64, "migration", None),
        (2, 1, "2" * 64, "migration", None),
    ]
    assert [v.config for v in versions] == [configs[1], configs[2]]
    assert versions[0].created_at.replace(tzinfo=versions[0].created_at.tzinfo or UTC) == synced
    by_study = {v.study_id: v.id for v in versions}
    assert pointers == {1: None, 2: by_study[1], 3: by_study[1], 4: by_study[2]}  # session 1 ran version 2: lost
    assert counts == [1, 1]
    assert diff == [], f"models and migrations differ: {diff}"

    downgrade(directory=directory, revision="0006")
    with db.engine.connect() as conn:
        assert "study_versions" not in inspect(conn).get_table_names()
        assert conn.execute(text("SELECT id, study_version FROM participant_sessions ORDER BY id")).all() == [
            (1, 2),
            (2, 3),
            (3, 3),
            (4, 1),
        ]
        assert conn.execute(text("SELECT count(*) FROM trials")).scalar() == 1


@pytest.mark.db
def test_0010_backfills_existing_studies_and_sessions_live_and_new_studies_start_in_pilot(empty_app):
    """Studies and sessions that exist before stages were collecting data for real: 0010 makes them `live`, no
    session a preview. A study inserted afterwards without naming a stage starts in `pilot` (the server default)."""
    directory = str(ROOT / "migrations")
    upgrade(directory=directory, revision="0009")
    synced = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)
    with db.engine.begin() as conn:
        insert_study(conn, 1, "old", synced)
        insert_session(conn, synced)
    upgrade(directory=directory)
    with db.engine.begin() as conn:
        assert conn.execute(text("SELECT stage FROM studies")).all() == [("live",)]
        assert conn.execute(text("SELECT stage, preview FROM participant_sessions")).one() == ("live", False)
        insert_study(conn, 2, "new", synced)
        assert conn.execute(text("SELECT stage FROM studies WHERE id = 2")).scalar() == "pilot"
    downgrade(directory=directory, revision="0009")
    with db.engine.connect() as conn:
        assert "stage" not in {c["name"] for c in inspect(conn).get_columns("studies")}


@pytest.mark.db
def test_0016_keeps_submissions_and_bonus_rows_and_its_downgrade_drops_only_purged_submissions(empty_app):
    """Prolific's submissions and bonus rows from before 0016 keep their raw ids, with no hashes yet (the next sync or
    purge stores them: tests/test_purge_prolific_ids.py); the downgrade cannot give a purged submission its raw ids
    back, so it deletes it (a sync would read it anew) and keeps the others."""
    directory = str(ROOT / "migrations")
    upgrade(directory=directory, revision="0014")
    synced = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)
    with db.engine.begin() as conn:
        insert_study(conn, 1, "old", synced)
        conn.execute(
            text(
                "INSERT INTO prolific_submissions (id, study_id, submission_id, participant_id, status, read_at)"
                " VALUES (1, 1, 'sub1', 'pid1', 'APPROVED', :t)"
            ),
            {"t": synced},
        )
        conn.execute(
            text(
                "INSERT INTO bonus_batches (id, study_id, fingerprint, source, status, amount_cents, pay_attempts,"
                " created_at) VALUES (1, 1, :f, 'file b.csv', 'paid', 100, 1, :t)"
            ),
            {"f": "f" * 64, "t": synced},
        )
        conn.execute(
            text("INSERT INTO bonus_batch_rows (batch_id, participant_id, amount_cents) VALUES (1, 'pid1', 100)")
        )
    upgrade(directory=directory)
    with db.engine.begin() as conn:
        assert conn.execute(
            text("SELECT submission_id, participant_id, submission_hmac, pid_hmac FROM prolific_submissions")
        ).all() == [("sub1", "pid1", None, None)]
        assert conn.execute(text("SELECT identifiers_purged_at FROM bonus_batches")).all() == [(None,)]
        assert conn.execute(text("SELECT participant_id FROM bonus_batch_rows")).all() == [("pid1",)]
        conn.execute(
            text(
                "INSERT INTO prolific_submissions (id, study_id, submission_hmac, pid_hmac, status, read_at)"
                " VALUES (2, 1, :s, :p, 'RETURNED', :t)"
            ),
            {"s": "a" * 64, "p": "b" * 64, "t": synced},
        )
    downgrade(directory=directory, revision="0014")
    with db.engine.connect() as conn:
        assert conn.execute(text("SELECT id, submission_id FROM prolific_submissions")).all() == [(1, "sub1")]
        assert conn.execute(text("SELECT participant_id FROM bonus_batch_rows")).all() == [("pid1",)]


@pytest.mark.db
def test_0018_leaves_earlier_survey_answers_without_a_form_and_its_downgrade_keeps_them(empty_app):
    """Answers stored before 0018 do not say which form of their questions they answered: `revision` stays NULL
    (the tradeoff analysis reads that as "may have been the 60–100 % form"), and the downgrade keeps the answers."""
    directory = str(ROOT / "migrations")
    upgrade(directory=directory, revision="0017")
    synced = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)
    with db.engine.begin() as conn:
        insert_study(conn, 1, "old", synced)
        insert_session(conn, synced)
        conn.execute(
            text(
                "INSERT INTO survey_responses (session_id, name, answers, created_at)"
                " VALUES (1, 'hive_tradeoff', '{\"low_risk\": 70}', :t)"
            ),
            {"t": synced},
        )
    upgrade(directory=directory)
    with db.engine.begin() as conn:
        assert conn.execute(text("SELECT name, revision FROM survey_responses")).all() == [("hive_tradeoff", None)]
    downgrade(directory=directory, revision="0017")
    with db.engine.connect() as conn:
        assert "revision" not in {c["name"] for c in inspect(conn).get_columns("survey_responses")}
        assert conn.execute(text("SELECT name FROM survey_responses")).all() == [("hive_tradeoff",)]
