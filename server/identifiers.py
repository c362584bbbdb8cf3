"""Pseudonymous participant codes (issue #26; docs/operations.md, "Data protection").

A session is named in exports by its `participant_code`: the first 64 bits (16 hex digits) of an HMAC-SHA256 of
its platform id (PROLIFIC_PID) or, without one, of its token, under a per-deployment key. The same person in two
studies of one deployment gets the same code (so returning participants stay visible), and nobody without the key
can get from a code back to a Prolific id. The full HMAC of the platform id is kept with the session (`pid_hmac`):
returning participants, the unique key per study and Prolific submissions are matched by it, so the raw ids can be
purged once payments are settled (server/participation/sessions.py purge_identifiers). Prolific's submissions keep the
HMACs of their PROLIFIC_PID and submission id likewise (`submission_hmac`), by which the sync matches Prolific's
records once their raw ids are purged; the audit log names a participant or submission only by a keyed code
(`pid_code`, `submission_code`), as it is never rewritten. Sessions older than the
hash (pid_hmac NULL, raw id kept) are still found through their raw id: `matches` and `session_key` fall back on it.

The User-Agent is exported reduced to browser and OS families with their major versions (`reduced_user_agent`, by
the maintained ua-parser rules); the full string only goes to identifiers.csv.

A researcher's own experiment may record the raw platform ids its frame's URL gives it (jsPsych.data.getURLVariable,
docs/own-experiments.md "URL variables and identifiers"). Such a row is stored with each raw id replaced by its marker
(`mark`), so the database holds the raw ids only in the session's own columns, where withdrawal and the purge reach
them; exports write a marker as the participant's code of that export (`unmark`).

The key comes from PARTICIPANT_CODE_KEY (the environment) or, without it, from `deployment_secrets`, generated once
on first use: the database is the one thing every app server and every rebuild of the containers share. Changing the
key changes every code and breaks matching by the stored HMACs, so it is set once per deployment."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import threading
from typing import Any

from flask import current_app
from sqlalchemy import bindparam, create_engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import NullPool
from ua_parser import parse_os, parse_user_agent

from .db import db, utcnow
from .models import DeploymentSecret, ParticipantSession

KEY_NAME = "participant_code_key"
CODE_HEX_DIGITS = 16  # 64 bits
# The entry link's platform ids (the session's columns prolific_pid, prolific_study_id, prolific_session_id), each
# with the marker a row holds in its place.
MARKERS = {"PROLIFIC_PID": "[PROLIFIC_PID]", "STUDY_ID": "[STUDY_ID]", "SESSION_ID": "[SESSION_ID]"}
# What a session holds about the person besides its keyed hash: the entry link's raw ids and other parameters, the
# full User-Agent, the screen and window sizes. A withdrawal and a declined consent null them all.
PERSONAL_COLUMNS = (
    "prolific_pid",
    "prolific_study_id",
    "prolific_session_id",
    "url_variables",
    "user_agent",
    "screen_width",
    "screen_height",
    "window_width",
    "window_height",
)
# A shorter id (Prolific's are 24 hex digits; only a hand-made test link has a short one) is left as it is: it
# cannot be told from the experiment's own values ("1", "test").
MIN_MARKED_LENGTH = 8
# A JSON string in JSON text (a key or a value): outside strings JSON text has no quote.
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_first_use = threading.Lock()


def key() -> bytes:
    """The deployment's key: the setting, else the database's (created by whichever app server asks first)."""
    cached = current_app.extensions.get("studyhive.participant_code_key")
    if cached is not None:
        return cached
    with _first_use:  # a burst of first requests reads it once; the others then find it cached
        cached = current_app.extensions.get("studyhive.participant_code_key")
        if cached is None:
            given = current_app.config["PARTICIPANT_CODE_KEY"]
            cached = given.encode() if given else _stored_key().encode()
            current_app.extensions["studyhive.participant_code_key"] = cached
        return cached


def _stored_key() -> str:
    table = DeploymentSecret.__table__
    select = db.select(table.c.value).where(table.c.name == KEY_NAME)
    # Read on the caller's own connection: a request holding one must not need a second from the pool (200 entries
    # at once would each wait for one the others hold).
    with db.session.no_autoflush:  # the caller's pending rows are its own to flush (some lack values yet)
        found = db.session.scalar(select)
    if found is not None:
        return found
    # Made once per deployment, in a transaction of its own (the caller's session may hold uncommitted work it has
    # not decided about) on a connection outside the pool, for the same reason.
    engine = create_engine(db.engine.url, poolclass=NullPool)
    try:
        try:
            with engine.begin() as connection:
                connection.execute(
                    table.insert().values(name=KEY_NAME, value=secrets.token_hex(32), created_at=utcnow())
                )
        except IntegrityError:
            pass  # another app server made it first: use theirs
        with engine.connect() as connection:
            return connection.scalar(select)
    finally:
        engine.dispose()


def _mac(kind: str, value: str) -> str:
    return hmac.new(key(), f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()


def pid_hmac(pid: str) -> str:
    """The HMAC (64 hex digits) a PROLIFIC_PID is stored and matched under."""
    return _mac("pid", pid)


def submission_hmac(submission_id: str) -> str:
    """The HMAC (64 hex digits) a Prolific submission's id (the study URL's SESSION_ID) is stored and matched under."""
    return _mac("submission", submission_id)


def pid_code(pid: str) -> str:
    """A PROLIFIC_PID's participant_code: how the audit log names a participant (it keeps no raw id)."""
    return pid_hmac(pid)[:CODE_HEX_DIGITS]


def submission_code(submission_id: str) -> str:
    """A submission id's short keyed code: how the audit log names a submission."""
    return submission_hmac(submission_id)[:CODE_HEX_DIGITS]


def participant_code(stored_hmac: str | None, prolific_pid: str | None, token: str, study_id: int | None = None) -> str:
    """The export's name for a session: from its platform id's HMAC (the stored one, else computed from a raw id an
    older session still holds), else from its token. With `study_id`, the study's own code (a data package's): a
    keyed hash of that, so the packages of two studies do not link one person; the deployment's key still does."""
    key = session_key(stored_hmac, prolific_pid) or _mac("token", token)
    return (key if study_id is None else _mac("study", f"{study_id}:{key}"))[:CODE_HEX_DIGITS]


def session_key(stored_hmac: str | None, prolific_pid: str | None) -> str | None:
    """The HMAC a session is matched under: the stored one, else that of the raw id an older session still holds."""
    return stored_hmac or (pid_hmac(prolific_pid) if prolific_pid else None)


# WHERE clause: the sessions of one PROLIFIC_PID (by its HMAC; an older session without one by its raw id), its values
# from match_values. Built once, as the entry's other statements are: every entry with a PROLIFIC_PID looks it up.
MATCHES = (ParticipantSession.pid_hmac == bindparam("pid_hmac")) | (
    ParticipantSession.pid_hmac.is_(None) & (ParticipantSession.prolific_pid == bindparam("prolific_pid"))
)


def match_values(pid: str) -> dict[str, str]:
    """MATCHES's values for this PROLIFIC_PID."""
    return {"pid_hmac": pid_hmac(pid), "prolific_pid": pid}


def has_platform_id():
    """WHERE clause: sessions that entered with a PROLIFIC_PID, whether or not the raw id was purged since."""
    return ParticipantSession.pid_hmac.is_not(None) | ParticipantSession.prolific_pid.is_not(None)


def reduced_user_agent(user_agent: str | None) -> str | None:
    """Browser family and major version, OS family and major version ("Chrome 120 / Windows 10"): what a browser
    check or a data-quality question needs, without the build numbers and device details that single people out.
    Parts the rules do not know are "Other"; an empty User-Agent stays empty."""
    if not user_agent:
        return None
    browser, system = parse_user_agent(user_agent), parse_os(user_agent)
    return f"{_family(browser)} / {_family(system)}"


def _family(part) -> str:
    if part is None:
        return "Other"
    return f"{part.family} {part.major}" if part.major else part.family


def mark(value: Any, raw_ids: dict[str, str | None]) -> Any:
    """JSON data with every occurrence of each raw platform id (name in MARKERS → the session's id, None: it has
    none) replaced by its marker, in keys and string values at any depth."""
    return _replace(
        value, {raw: MARKERS[name] for name, raw in raw_ids.items() if raw and len(raw) >= MIN_MARKED_LENGTH}
    )


def restore(value: Any, raw_ids: dict[str, str | None]) -> Any:
    """`mark` undone: each marker as the raw id it stands for, where the session still has it."""
    return _replace(value, {MARKERS[name]: raw for name, raw in raw_ids.items() if raw})


def unmark(value: Any, code: str) -> Any:
    """JSON data as an export writes it: the markers of the ids that name the person (PROLIFIC_PID, and SESSION_ID:
    their Prolific submission) as the participant's `code` in that export, so a column of them still links a person's
    rows; STUDY_ID's marker stays (the study's, the same for everyone: identifiers.csv has it)."""
    return _replace(value, {MARKERS["PROLIFIC_PID"]: code, MARKERS["SESSION_ID"]: code})


def _replace(value: Any, replacements: dict[str, str]) -> Any:
    """JSON data with each key of `replacements` replaced by its value in every string, object keys included. It works
    on the JSON text, string by string, so a value nested as deep as JSON allows needs no recursion here; data in
    which none occurs comes back as it is."""
    if not replacements:
        return value
    text = json.dumps(value, ensure_ascii=False)
    # What a replacement looks for is never escaped in JSON text (ids are letters, digits, _ and -; markers add [ ]),
    # so data that holds none has text that holds none.
    if not any(old in text for old in replacements):
        return value
    found = re.compile("|".join(map(re.escape, sorted(replacements, key=len, reverse=True))))

    def string(match: re.Match) -> str:
        if not found.search(match.group()):
            return match.group()
        return json.dumps(found.sub(lambda m: replacements[m.group()], json.loads(match.group())), ensure_ascii=False)

    return json.loads(_JSON_STRING.sub(string, text))
