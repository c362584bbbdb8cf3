"""The SQLAlchemy handle and migrations; models live in models.py."""
from datetime import datetime, timezone

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

# Named constraints so Alembic can drop them again on every backend (SQLite batch mode needs the names).
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


db = SQLAlchemy(model_class=Base)
migrate = Migrate()


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def init_app(app):
    db.init_app(app)
    migrate.init_app(app, db, directory=str(app.config.get("MIGRATIONS_DIR", "migrations")),
                     render_as_batch=True)
