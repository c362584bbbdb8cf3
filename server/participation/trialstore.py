"""The participant API's data path: autocommit connections, single-statement writes that ignore repeats, and
per-process caches of the rows every request needs.

Participants make tens of thousands of requests in a study, 30 trial saves each (docs/operations.md has the
figures), so a save costs one round trip to the database and no ORM unit of work. What the requests read besides
their own rows never changes, or changes rarely enough to be re-read every few seconds:

- a session's id, study, platform, plan, condition and whether it is a preview are fixed when it is created (no
  code path changes them but a withdrawal, which also closes the session, and only a researcher's preview is ever
  deleted: a write to a withdrawn or purged one finds no OPEN session), so each worker process keeps them by token
  (least recently used dropped first), with whether the participant has consented (that only goes one way, so once
  seen it is never read again); its status changes, so a write checks it in its own statement (OPEN);
- a stimulus's id and parameters are fixed once a trial points at it (`flask stimuli import --replace` refuses
  stimuli with trials, `flask studies sync` only adds stimuli);
- a kept version's consent text is fixed (study_versions rows are only ever added);
- a study's slug, task type, configuration and title change only with `flask studies sync`; a worker re-reads them
  after STUDY_TTL, so an edit reaches every worker within seconds, and at once for a session entered after it.
"""

from __future__ import annotations

import functools
import threading
import time
from collections import OrderedDict, namedtuple
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import current_app
from sqlalchemy import Connection, Integer, Table, bindparam
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError

# autocommit(): the connection every participant request runs on, each statement committing by itself (a save is one
# round trip, no BEGIN/COMMIT); its callers take it from here.
from ..db import autocommit as autocommit
from ..db import db, utcnow
from ..models import PLAN_LESS_TRIAL_INDEX, ParticipantSession, Stimulus, Study, StudyVersion, SurveyResponse, Trial

# `last_seen_at` is refreshed at most this often per session by a worker's trial saves, so a save rarely writes
# the session row too; abandonment is measured in minutes (study.toml `abandon_after_minutes`).
LAST_SEEN_RESOLUTION = timedelta(seconds=60)
STUDY_TTL = 5.0  # seconds a worker trusts its copy of a study (but not for a session of a newer version)
SESSIONS_CACHED = 20_000  # sessions per worker process (a plan is a few kB)
INSERTS = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}

# The participant API's statements, built once: constructing a statement costs more CPU than running it.
PS = ParticipantSession
# A session takes answers until it ends: completed, excluded, or ended early by the participant (/end sets the
# outcome). One that Prolific's sync marked abandoned (returned, timed out) has no outcome and still takes them, so a
# participant who carries on after a time-out loses nothing.
OPEN_STATUSES = ("started", "abandoned")
# Spelled as equalities, not IN (…): an IN list is an "expanding" parameter that SQLAlchemy rewrites on every execute
# of an already compiled statement, which cost a trial save more CPU than the rest of its parameters.
OPEN = db.or_(*(PS.status == status for status in OPEN_STATUSES)) & PS.outcome.is_(None)
CONSENTED = db.exists().where(SurveyResponse.session_id == PS.id, SurveyResponse.name == "consent")
SESSION_BY_TOKEN = db.select(
    PS.id,
    PS.study_id,
    PS.study_version,
    PS.platform,
    PS.plan,
    PS.last_seen_at,
    CONSENTED.label("consented"),
    PS.preview,
    PS.condition,
    PS.prolific_pid,
    PS.prolific_study_id,
    PS.prolific_session_id,
).where(PS.token == bindparam("token"))
SESSION_STATUS = db.select(PS.status, PS.outcome).where(PS.id == bindparam("id"))
SESSION_CONSENTED = db.select(CONSENTED).where(PS.id == bindparam("id"))
TOUCH = db.update(PS).where(PS.id == bindparam("session_id")).values(last_seen_at=bindparam("now"))
STUDY = db.select(Study.slug, Study.task_type, Study.config, Study.title, Study.version).where(
    Study.id == bindparam("id")
)
STIMULUS = db.select(Stimulus.id, Stimulus.params).where(
    Stimulus.study_id == bindparam("study_id"), Stimulus.key == bindparam("key")
)
VERSION_CONSENT = db.select(StudyVersion.config["consent"].as_string()).where(
    StudyVersion.study_id == bindparam("study_id"), StudyVersion.version == bindparam("version")
)
# Where a session stands, in one statement rather than three round trips (the state's and the completion's reads): a
# row of its (status, outcome), a row per survey answered (its name), a row per stored trial (its index), each tagged
# by what it holds (`standing`). UNION ALL, which both dialects run as it is.
STANDING = db.union_all(
    db.select(
        db.literal_column("0").label("kind"),
        PS.status.label("name"),
        PS.outcome,
        db.cast(db.null(), Integer).label("trial_index"),
    ).where(PS.id == bindparam("id")),
    db.select(db.literal_column("1"), SurveyResponse.name, db.null(), db.null()).where(
        SurveyResponse.session_id == bindparam("id")
    ),
    db.select(db.literal_column("2"), db.null(), db.null(), Trial.trial_index).where(
        Trial.session_id == bindparam("id")
    ),
)
STORED_TRIAL_ID = db.select(Trial.client_trial_id).where(
    Trial.session_id == bindparam("id"), Trial.trial_index == bindparam("index")
)
INDEX_OF_TRIAL_ID = db.select(Trial.trial_index).where(
    Trial.session_id == bindparam("id"), Trial.client_trial_id == bindparam("trial_id")
)
SURVEYS_DONE = db.select(SurveyResponse.name).where(SurveyResponse.session_id == bindparam("id"))
# A plan-less row's trial_index (migration 0009): PostgreSQL draws it from a sequence, so concurrent saves of one
# session never take the same one; SQLite writes one statement at a time, so the session's next index is free.
PLAN_LESS_INDEX = {
    "postgresql": PLAN_LESS_TRIAL_INDEX.next_value(),
    "sqlite": db.select(db.func.coalesce(db.func.max(Trial.trial_index), -1) + 1)
    .where(Trial.session_id == bindparam("session_id"))
    .scalar_subquery(),
}
STORED_ROWS = (
    db.select(Trial.client_trial_id, Trial.response, Trial.presented)
    .where(Trial.session_id == bindparam("id"))
    .order_by(Trial.trial_index)
)
ROW_COUNT = db.select(db.func.count()).where(Trial.session_id == bindparam("id"))
LAST_ROW = STORED_ROWS.with_only_columns(Trial.response).order_by(None).order_by(Trial.trial_index.desc()).limit(1)


@dataclass
class SessionFacts:
    """What the participant API needs of a session: fixed at creation, except this worker's note of its last
    write of last_seen_at and whether consent is given (one way: False is re-read, True never). Its status is not
    here: it changes, so it is read when needed."""

    id: int
    token: str
    study_id: int
    study_version: int
    platform: str
    plan: list[dict[str, Any]]
    touched_at: datetime
    consented: bool
    preview: bool  # a researcher's preview (docs/researchers.md, "Preview"): never counted anywhere
    condition: str | None
    # The entry link's raw ids (identifiers.MARKERS' names → id or None), which a saved row holds as markers. A purge
    # nulls them in the database, not here: rows this worker saves after it are still marked.
    platform_ids: dict[str, str | None]


@dataclass(frozen=True)
class StudyFacts:
    slug: str
    task_type: str
    config: dict[str, Any]
    title: str
    version: int
    read_at: float


class _Caches:
    """One per app (tests run many apps, each on its own database, in one process)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.sessions: OrderedDict[str, SessionFacts] = OrderedDict()
        self.studies: dict[int, StudyFacts] = {}
        self.stimuli: dict[tuple[int, str], tuple[int, dict[str, Any]]] = {}
        self.consents: dict[tuple[int, int], str] = {}  # (study id, version) -> its kept consent HTML
        # (statement, dialect) -> its PreparedStatement; the saves' INSERTs by (name, dialect): built from a row's keys
        self.statements: dict[tuple[Any, str], PreparedStatement] = {}


def _caches() -> _Caches:
    caches = current_app.extensions.get("studyhive.trialstore")
    if caches is None:
        caches = current_app.extensions.setdefault("studyhive.trialstore", _Caches())
    return caches


def session_facts(connection: Connection, token: str) -> SessionFacts | None:
    """The session with this token (None if there is none), from this worker's cache when it has it."""
    caches = _caches()
    facts = caches.sessions.get(token)
    if facts is not None:
        with caches.lock:
            if token in caches.sessions:
                caches.sessions.move_to_end(token)
        return facts
    row = first(connection, SESSION_BY_TOKEN, {"token": token})
    if row is None:
        return None
    seen = row.last_seen_at
    facts = SessionFacts(
        row.id,
        token,
        row.study_id,
        row.study_version,
        row.platform,
        row.plan,
        seen.replace(tzinfo=UTC) if seen.tzinfo is None else seen,  # SQLite: naive UTC
        bool(row.consented),
        row.preview,
        row.condition,
        {"PROLIFIC_PID": row.prolific_pid, "STUDY_ID": row.prolific_study_id, "SESSION_ID": row.prolific_session_id},
    )
    remember(facts)
    return facts


def remember(facts: SessionFacts) -> None:
    """Keep the facts of a session this worker has just created (its entry), so that its page and first requests
    do not read them back."""
    caches = _caches()
    with caches.lock:
        caches.sessions[facts.token] = facts
        while len(caches.sessions) > SESSIONS_CACHED:
            caches.sessions.popitem(last=False)


def study_facts(connection: Connection, study_id: int, version: int = 0) -> StudyFacts:
    """The study's facts from this worker's copy, read again after STUDY_TTL, and at once when a session entered
    under a newer `version` than the copy's: a session entered after a sync is never served the study as it was
    before."""
    caches = _caches()
    facts = caches.studies.get(study_id)
    if facts is None or facts.version < version or time.monotonic() - facts.read_at > STUDY_TTL:
        slug, task_type, config, title, current = first(connection, STUDY, {"id": study_id})
        facts = caches.studies[study_id] = StudyFacts(slug, task_type, config, title, current, time.monotonic())
    return facts


def session_study(connection: Connection, session: SessionFacts) -> StudyFacts:
    """study_facts of the session's study, at least as new as the version it entered under."""
    return study_facts(connection, session.study_id, session.study_version)


def stimulus(connection: Connection, study_id: int, key: str) -> tuple[int, dict[str, Any]]:
    """(stimulus row id, params) of a study's stimulus; the key comes from a session's plan, so it exists."""
    stimuli = _caches().stimuli
    if (study_id, key) not in stimuli:
        row = first(connection, STIMULUS, {"study_id": study_id, "key": key})
        stimuli[study_id, key] = (row.id, row.params)
    return stimuli[study_id, key]


def consent_html(connection: Connection, study_id: int, version: int) -> str:
    """The consent page's HTML as a session that entered under study `version` is shown it: that version's, else (a
    version synced before versions were kept) the study's current one."""
    consents = _caches().consents
    if (study_id, version) not in consents:
        kept = scalar(connection, VERSION_CONSENT, {"study_id": study_id, "version": version})
        if kept is None:
            return study_facts(connection, study_id).config["consent"]
        consents[study_id, version] = kept
    return consents[study_id, version]


def insert_unless_stored(connection: Connection, table: Table, row: dict[str, Any]) -> bool:
    """Store a row of the session `row["session_id"]` while that session is OPEN: True if stored now, False if it
    was not, because a unique key of the table already holds such a row (for `trials`: a repeat, a taken index, a
    reused trial id) or because the session has ended. One statement, INSERT … SELECT … WHERE EXISTS (the open
    session) ON CONFLICT DO NOTHING, so the check costs no round trip and no end can slip in between; the caller
    tells the cases apart only when nothing was stored. The row count says which, so no RETURNING result is read.
    One statement per table and dialect, built once."""
    return _insert(connection, table.name, row, lambda dialect: _insert_while_open(table, list(row), dialect))


def insert_unless_stored_setting(
    connection: Connection, table: Table, row: dict[str, Any], session_values: dict[str, Any]
) -> bool:
    """insert_unless_stored, and if it stored the row, set `session_values` (column: value) on the row's session at
    once with it: on PostgreSQL in one statement on `connection` (the INSERT in a WITH whose RETURNING the UPDATE
    reads), on SQLite in a transaction of the ORM's engine (`connection` would commit the two apart)."""
    columns = tuple(session_values)
    setting = {f"set_{column}": value for column, value in session_values.items()}
    if connection.dialect.name == "postgresql":
        values = {**row, **setting}

        def build(dialect):
            stored = _insert_while_open(table, list(row), dialect).returning(table.c.session_id).cte("stored")
            return _session_update(columns, stored.c.session_id)

        return _prepared(connection, (table.name, "setting", columns), values, build).changed(connection, values) == 1
    with db.engine.begin() as transaction:
        stored = insert_unless_stored(transaction, table, row)
        if stored:
            values = {"session_id": row["session_id"], **setting}
            key = ("sessions", "setting", columns)
            _prepared(transaction, key, values, lambda _: _session_update(columns)).changed(transaction, values)
    return stored


def _session_update(columns: tuple[str, ...], session_id=None):
    """UPDATE of a session's `columns`, each to its `set_` parameter; the session: `session_id`, a column of the
    statement it goes in (a WITH's), or else the parameter of that name."""
    where = PS.id == (bindparam("session_id") if session_id is None else session_id)
    return db.update(PS).where(where).values({c: bindparam(f"set_{c}") for c in columns})


def insert_row_unless_stored(connection: Connection, row: dict[str, Any]) -> bool:
    """insert_unless_stored for a plan-less trial (no trial_index in `row`: PLAN_LESS_INDEX draws it)."""
    return _insert(
        connection,
        "plan-less trials",
        row,
        lambda dialect: _insert_while_open(
            Trial.__table__, list(row), dialect, {"trial_index": PLAN_LESS_INDEX[dialect]}
        ),
    )


def _insert(connection: Connection, name: str, row: dict[str, Any], build) -> bool:
    return _prepared(connection, name, row, build).changed(connection, row) == 1


def changed(connection: Connection, statement, values: dict[str, Any]) -> int:
    """Run a built-once INSERT, UPDATE or DELETE of the participant API (PreparedStatement): rows changed."""
    return _prepared(connection, statement, values).changed(connection, values)


def rows(connection: Connection, statement, values: dict[str, Any]) -> list:
    """The rows of a built-once SELECT of the participant API (PreparedStatement), each a tuple whose columns are also
    attributes by their keys, as SQLAlchemy's rows are."""
    return _prepared(connection, statement, values).rows(connection, values)


def first(connection: Connection, statement, values: dict[str, Any]):
    """The first of `rows`, or None."""
    found = rows(connection, statement, values)
    return found[0] if found else None


def scalar(connection: Connection, statement, values: dict[str, Any]) -> Any:
    """The first row's first column, or None, as SQLAlchemy's `Connection.scalar`."""
    found = rows(connection, statement, values)
    return found[0][0] if found else None


def scalars(connection: Connection, statement, values: dict[str, Any]) -> list:
    """Every row's first column."""
    return [row[0] for row in rows(connection, statement, values)]


def _prepared(connection: Connection, key, values: dict[str, Any], build=None) -> PreparedStatement:
    """The PreparedStatement of `key` on the connection's dialect, as first run with `values`' names: the statement
    itself, or a name whose statement `build(dialect name)` gives."""
    statements = _caches().statements
    dialect = connection.dialect
    found = statements.get((key, dialect.name))
    if found is None:
        statement = build(dialect.name) if build else key
        found = statements[key, dialect.name] = PreparedStatement(statement, dialect, values)
    return found


class PreparedStatement:
    """A statement of the participant API, built once, as it runs on one dialect. On PostgreSQL psycopg runs it
    directly as a prepared statement on the cursor kept with the pooled connection: the SQL text SQLAlchemy compiles
    for it, each value through its column type's own bind processor (JSON serialised as SQLAlchemy does, None as
    JSON null or SQL NULL as the column says), each result column through its type's result processor for the type
    PostgreSQL answers (SQLAlchemy's own rule; psycopg's types need none but a Numeric's). SQLAlchemy's execution of
    even a cached statement costs more CPU than the round trip it makes (docs/operations.md, "The save path at five
    times psiTurk"). A lost connection is invalidated, as SQLAlchemy would, so the pool does not hand it out again,
    and an error is raised as SQLAlchemy's. SQLite, one writer and no server, runs the statement through SQLAlchemy."""

    def __init__(self, statement, dialect, values: dict[str, Any]):
        self.statement = statement
        # Compiled for the names of its first run's values, as SQLAlchemy compiles for an execute's (an INSERT names
        # the columns given). A run with other names, or a statement for which SQLAlchemy computes a column's default
        # in Python first (`compiled.insert_prefetch`), goes through SQLAlchemy, which knows what to do.
        self.keys = frozenset(values)
        compiled = (
            statement.compile(dialect=dialect, column_keys=list(values)) if dialect.name == "postgresql" else None
        )
        self.direct = compiled is not None and not (compiled.insert_prefetch or compiled.update_prefetch)
        if self.direct:
            self.sql = str(compiled)
            # By the name each parameter has in the SQL text (an anonymous one's is made up in compiling).
            self.processors = {
                name: bind.type.dialect_impl(dialect).bind_processor(dialect)
                for bind, name in compiled.bind_names.items()
            }
            # The statement's own values (OPEN's statuses, a SET flag = 'x' or NULL): the parameters not required.
            self.constants = {name: bind.value for bind, name in compiled.bind_names.items() if not bind.required}
            columns = statement.exported_columns  # a SELECT's, or what an INSERT or UPDATE returns
            self.types = [column.type.dialect_impl(dialect) for column in columns]
            self.row = namedtuple("Row", [column.key for column in columns], rename=True) if columns else None
            # Each result column's processor (None: none needed), from the first answer's types; None until then.
            self.results: list | None = None

    def parameters(self, values: dict[str, Any]) -> dict[str, Any]:
        """What psycopg is given for `values` (PostgreSQL): the statement's own values and the caller's, each
        through its column type's bind processor."""
        values = {**self.constants, **values}
        return {name: process(values[name]) if process else values[name] for name, process in self.processors.items()}

    def changed(self, connection: Connection, values: dict[str, Any]) -> int:
        if not (self.direct and values.keys() == self.keys):
            return connection.execute(self.statement, values).rowcount
        return self._execute(connection, values).rowcount

    def rows(self, connection: Connection, values: dict[str, Any]) -> list:
        if not (self.direct and values.keys() == self.keys):
            return connection.execute(self.statement, values).all()
        cursor = self._execute(connection, values)
        found = cursor.fetchall()
        if self.results is None:
            dialect = connection.dialect
            processors = [
                kind.result_processor(dialect, c.type_code) for kind, c in zip(self.types, cursor.description)
            ]
            self.results = processors if any(processors) else []
        if self.results:
            found = [tuple(p(v) if p else v for p, v in zip(self.results, row)) for row in found]
        return [self.row._make(row) for row in found]

    def _execute(self, connection: Connection, values: dict[str, Any]):
        try:
            return _kept_cursor(connection).execute(self.sql, self.parameters(values), prepare=True)
        except connection.dialect.loaded_dbapi.Error as exc:
            lost = connection.dialect.is_disconnect(exc, connection.connection.driver_connection, None)
            if lost:
                connection.invalidate(exc)
            # As SQLAlchemy raises it (an IntegrityError for a taken key, …), so callers catch one kind of error.
            raise DBAPIError.instance(
                self.sql,
                None,
                exc,
                connection.dialect.loaded_dbapi.Error,
                hide_parameters=True,
                connection_invalidated=lost,
                dialect=connection.dialect,
            ) from exc


def _kept_cursor(connection: Connection):
    """A psycopg cursor kept with the pooled connection, in the pool's `info` of it, which lives exactly as long as
    the driver's connection (a replaced one starts without). A cursor adapts each value through dumpers it looks up
    on first use and keeps, so a new cursor per statement would look them up again (docs/operations.md has what that
    cost). One thread at a time has the connection checked out, and so its cursor."""
    pooled = connection.connection
    cursor = pooled.info.get("studyhive.cursor")
    if cursor is None:
        cursor = pooled.info["studyhive.cursor"] = pooled.driver_connection.cursor()
    return cursor


def _insert_while_open(table: Table, columns: list[str], dialect: str, computed: dict[str, Any] | None = None):
    values = [bindparam(c, type_=table.c[c].type) for c in columns]
    if dialect == "postgresql":
        # A SELECT list's parameters have no column to take a type from (PostgreSQL would read them as text).
        values = [db.cast(value, table.c[c].type) for value, c in zip(values, columns)]
    if computed:
        columns, values = [*columns, *computed], [*values, *computed.values()]
    # FOR KEY SHARE, the lock the foreign key's check takes anyway: a withdrawal (server/participation/withdrawal.py)
    # holds the row FOR UPDATE, so a save racing it waits and then re-reads the status, and finds it closed. Without
    # it the save would pass on the status it read before and store an answer after the withdrawal's deletes.
    session_open = (
        db.select(PS.id)
        .where(PS.id == bindparam("session_id"), OPEN)
        .with_for_update(read=True, key_share=True)
        .exists()
    )
    # preserve_rowcount: SQLAlchemy (SQLite) reads the count only when asked.
    return (
        INSERTS[dialect](table)
        .from_select(columns, db.select(*values).where(session_open))
        .on_conflict_do_nothing()
        .execution_options(preserve_rowcount=True)
    )


def stored_trial_id(connection: Connection, session_id: int, index: int) -> str | None:
    return scalar(connection, STORED_TRIAL_ID, {"id": session_id, "index": index})


def index_of_trial_id(connection: Connection, session_id: int, trial_id: str) -> int | None:
    return scalar(connection, INDEX_OF_TRIAL_ID, {"id": session_id, "trial_id": trial_id})


def stored_rows(connection: Connection, session_id: int) -> list[tuple[str, dict[str, Any], dict[str, Any] | None]]:
    """(client trial id, row, replay position) of a plan-less session's stored rows, in the order they were stored."""
    return [tuple(row) for row in rows(connection, STORED_ROWS, {"id": session_id})]


def last_row(connection: Connection, session_id: int) -> dict[str, Any] | None:
    """The row a plan-less session stored last (None: none)."""
    return scalar(connection, LAST_ROW, {"id": session_id})


def row_count(connection: Connection, session_id: int) -> int:
    return scalar(connection, ROW_COUNT, {"id": session_id})


def surveys_done(connection: Connection, session_id: int) -> set[str]:
    return set(scalars(connection, SURVEYS_DONE, {"id": session_id}))


@functools.cache
def _flagged(keys: tuple[str, ...]):
    """Count of a session's trials whose score holds any of `keys` true (one statement per task type's keys)."""
    flagged = db.or_(*(Trial.score[key].as_boolean().is_(True) for key in keys))
    return db.select(db.func.count()).where(Trial.session_id == bindparam("id"), flagged)


def attention_check_failures(connection: Connection, session_id: int, keys: tuple[str, ...]) -> int:
    """Stored trials whose score marks a failed attention check under one of the task type's `keys` (read once,
    at completion)."""
    return scalar(connection, _flagged(keys), {"id": session_id})


#: The status of a session whose row is gone: a researcher's preview purged (`flask sessions purge-previews`) while
#: a worker still knew its token. Never stored; not OPEN, so such a session has ended.
PURGED = "purged"


def status(connection: Connection, session_id: int) -> tuple[str, str | None]:
    """(status, outcome) of the session, read now."""
    row = first(connection, SESSION_STATUS, {"id": session_id})
    return (PURGED, None) if row is None else tuple(row)


@dataclass(frozen=True)
class Standing:
    status: str
    outcome: str | None
    surveys_done: frozenset[str]
    stored_indexes: list[int]  # ascending


def standing(connection: Connection, session_id: int) -> Standing:
    """The session's status and outcome (PURGED, None for a row that is gone), the surveys it answered and the
    trial indexes it stored, read now in one statement (STANDING)."""
    status, outcome, surveys, indexes = PURGED, None, set(), []
    for kind, name, row_outcome, index in rows(connection, STANDING, {"id": session_id}):
        if kind == 0:
            status, outcome = name, row_outcome
        elif kind == 1:
            surveys.add(name)
        else:
            indexes.append(index)
    return Standing(status, outcome, frozenset(surveys), sorted(indexes))


def is_open(status: str, outcome: str | None) -> bool:
    """OPEN for a (status, outcome) already read."""
    return status in OPEN_STATUSES and outcome is None


def consented(connection: Connection, facts: SessionFacts) -> bool:
    """Whether the participant has consented: from this worker's cache once it knows, else read (consent may have
    reached another worker)."""
    if not facts.consented:
        facts.consented = bool(scalar(connection, SESSION_CONSENTED, {"id": facts.id}))
    return facts.consented


def touch(connection: Connection, facts: SessionFacts) -> None:
    """Mark the session as seen now, unless this worker did so within LAST_SEEN_RESOLUTION."""
    now = utcnow()
    if now - facts.touched_at >= LAST_SEEN_RESOLUTION:
        changed(connection, TOUCH, {"session_id": facts.id, "now": now})
        facts.touched_at = now
