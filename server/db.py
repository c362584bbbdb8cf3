"""The SQLAlchemy handle, migrations and read snapshots; models live in models.py."""

import math
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime

from flask import current_app
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import Connection, MetaData, event, exc
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.pool import QueuePool

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
    return datetime.now(UTC)


@contextmanager
def snapshot() -> Iterator[None]:
    """Run the enclosed reads in one transaction that sees one snapshot of the database, then end it. Exports and
    analyses read through this, so their numbers never mix two moments of a running study.

    PostgreSQL: REPEATABLE READ (set as the transaction's first statement). SQLite: the driver runs SELECTs
    outside a transaction unless one is open, so an explicit BEGIN makes every read see the same database state.
    """
    db.session.rollback()
    conn = db.session.connection()
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        # the analysis's GROUP BY over millions of predictions hashes ~10^5 groups; the default 4MB spills to disk
        conn.exec_driver_sql("SET LOCAL work_mem = '64MB'")
    elif conn.dialect.name == "sqlite" and not conn.connection.driver_connection.in_transaction:
        conn.exec_driver_sql("BEGIN")
    try:
        yield
    finally:
        db.session.rollback()  # read only: nothing to commit; releases the snapshot (and SQLite's read lock)


# The participant API's engine (server/participation/trialstore.py): the same database through a pool of its own whose
# connections are in autocommit mode from the start. Switching a pooled connection into autocommit and back costs more
# CPU than the trial save's INSERT itself; the ORM's engine keeps transactions.
AUTOCOMMIT_BIND = "autocommit"
_KEPT = "studyhive.autocommit_kept"


class _Kept:
    """The autocommit engine's connections not in use, kept open (checked out of its pool once) for the next
    request, and a semaphore of the pool's limit (`pool_size` + `max_overflow`) that a request holds while it has
    one. The pool's own checkout and checkin cost a request about 30 µs of CPU (docs/operations.md, "The save path at
    five times psiTurk, sixth round"); a list and a semaphore cost a few. A list rather than one per thread: any
    thread takes any idle connection, so there are never more open than requests were in flight at once, and a
    server thread's end strands none. The semaphore is where a request waits when all are in use (the pool, whose
    connections are kept here, would not hand one back in time), for as long as the pool would (`pool_timeout`)."""

    def __init__(self, engine):
        self.engine, self.idle = engine, []
        pool = engine.pool
        # At most `pool_size` kept idle; more, at a peak, go back to the pool, which leaves its overflow to the
        # engine's other users (flask-sqlalchemy's create_all and drop_all connect to every bind).
        self.keep = pool.size()
        self.slots = threading.BoundedSemaphore(pool.size() + pool._max_overflow) if pool._max_overflow >= 0 else None
        self.timeout = pool.timeout()

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        if self.slots and not self.slots.acquire(timeout=self.timeout):
            raise exc.TimeoutError(f"no autocommit connection free within {self.timeout:g} s (the pool's limit)")
        try:
            try:
                connection = self.idle.pop()  # atomic: two threads never take the same one
            except IndexError:
                connection = self.engine.connect()
            try:
                yield connection
            finally:
                if connection.invalidated or connection.closed:
                    # Lost (PostgreSQL restarted?): the idle ones too, as the pool drops its older connections then.
                    connection.close()
                    self.close_idle(invalidate=True)
                elif len(self.idle) >= self.keep:
                    connection.close()
                else:
                    if connection.in_transaction():  # SQLAlchemy's begun marker (in autocommit, none in the database)
                        connection.rollback()
                    self.idle.append(connection)
        finally:
            if self.slots:
                self.slots.release()

    def close_idle(self, invalidate: bool = False) -> None:
        while self.idle:
            try:
                connection = self.idle.pop()
            except IndexError:  # another thread took the last one
                return
            if invalidate:  # so the pool drops its driver connection rather than handing it out again
                connection.invalidate()
            connection.close()


def autocommit():
    """A connection of the autocommit engine, each statement committing by itself, as `with autocommit() as
    connection:`; given back when the block ends and kept open for the next (_Kept), where the engine pools it
    (QueuePool: PostgreSQL and a SQLite file)."""
    kept = current_app.extensions.get(_KEPT)
    if kept is None:
        engine = db.engines[AUTOCOMMIT_BIND]
        if not isinstance(engine.pool, QueuePool):
            return engine.connect()
        kept = current_app.extensions.setdefault(_KEPT, _Kept(engine))
    return kept.connection()


def open_autocommit() -> None:
    """Open the autocommit connections a worker keeps idle (`pool_size`, _Kept) now, so that its first requests do
    not each wait to connect (in an app context; the WARM_UP setting)."""
    pool = db.engines[AUTOCOMMIT_BIND].pool
    with ExitStack() as stack:
        for _ in range(pool.size() if isinstance(pool, QueuePool) else 0):
            stack.enter_context(autocommit())


def dispose_engines() -> None:
    """Close every pooled connection of the app's engines, the idle autocommit ones first (tests end with this, so
    no database is left held)."""
    kept = current_app.extensions.get(_KEPT)
    if kept is not None:
        kept.close_idle()
    for engine in db.engines.values():
        engine.dispose()


def _sqlite_ln(x):
    return math.log(x) if x is not None and x > 0 else None


def _add_sqlite_math(dbapi_connection, connection_record) -> None:
    """SQLite builds without the math functions lack ln(); register a deterministic Python one there only."""
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    try:
        dbapi_connection.execute("select ln(2)").fetchone()
    except sqlite3.OperationalError:
        dbapi_connection.create_function("ln", 1, _sqlite_ln, deterministic=True)


def init_app(app):
    binds = app.config["SQLALCHEMY_BINDS"]
    # No ROLLBACK when a connection goes back to the pool: in autocommit no transaction is ever left open.
    binds.setdefault(
        AUTOCOMMIT_BIND,
        {
            **app.config["SQLALCHEMY_ENGINE_OPTIONS"],
            "url": app.config["SQLALCHEMY_DATABASE_URI"],
            "isolation_level": "AUTOCOMMIT",
            "pool_reset_on_return": None,
        },
    )
    db.init_app(app)
    migrate.init_app(app, db, directory=app.config["MIGRATIONS_DIR"], render_as_batch=True)
    # The analyses' GROUP BY takes ln() in the database (server/tasks/ratio_estimation/analyzer.py).
    with app.app_context():
        engine = db.engine
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _add_sqlite_math)
