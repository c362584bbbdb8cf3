"""The entry link's query parameters for a researcher's jsPsych experiment, and the consent's promise for the platform
ids it records (issue #36, row 4; docs/own-experiments.md, "URL variables and identifiers"): the other parameters are
kept with the session (bounded) and given to the frame's URL with Prolific's ids; a row's raw PROLIFIC_PID, STUDY_ID
and SESSION_ID are stored as markers, which exports write as the participant's code of that export; withdrawal and
`flask data purge-identifiers` leave nothing in the database to recognise the raw ids by.
tests/test_own_url_variables_browser.py runs an experiment that reads them in Chromium."""

from __future__ import annotations

import csv
import json
import re
from urllib.parse import parse_qsl, urlsplit

import pytest

from server import identifiers
from server.db import db
from server.models import ParticipantSession
from server.researchers.auth import create_researcher
from tests.jspsych_study import EXPERIMENT, jspsych_app
from tests.test_jspsych_browser import stored_rows as stored

SLUG = "urlvars"
PID, STUDY, SUBMISSION = "5f0a1b2c3d4e5f6a7b8c9d0e", "65aa1b2c3d4e5f6a7b8c9d01", "66bb1b2c3d4e5f6a7b8c9d02"
PROLIFIC = {"PROLIFIC_PID": PID, "STUDY_ID": STUDY, "SESSION_ID": SUBMISSION}
RAW_IDS = (PID, STUDY, SUBMISSION)


@pytest.fixture
def app(tmp_path):
    with jspsych_app(tmp_path, **{SLUG: (EXPERIMENT, 1)}) as app:
        yield app


def enter(client, **params) -> str:
    response = client.get(f"/study/{SLUG}", query_string=params)
    assert response.status_code == 303, response.data
    token = response.headers["Location"].rsplit("/", 1)[1]
    agree = client.put(f"/api/sessions/{token}/surveys/consent", json={"answers": {"agreed": True}})
    assert agree.status_code == 200, agree.get_json()
    return token


def save(client, token, n, row):
    response = client.post(f"/api/sessions/{token}/rows", json={"trial_id": f"row-{token[:8]}-{n:04d}", "row": row})
    assert response.status_code == 201, response.get_json()


def session_of(token) -> ParticipantSession:
    db.session.rollback()
    return db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()


def frame_query(client, token) -> tuple[str, dict[str, str]]:
    """The experiment page's frame URL and its query, as host.js sets the frame's src."""
    page = client.get(f"/study/{SLUG}/s/{token}/experiment")
    assert page.status_code == 200
    found = re.search(rb'<script type="application/json" id="studyhive-config">(.*?)</script>', page.data, re.S)
    frame = json.loads(found.group(1))["frame"]
    return frame, dict(parse_qsl(urlsplit(frame).query))


def anywhere(*raw: str) -> list[tuple[str, str]]:
    """(table, column) of every value in the whole database, in any table, that holds one of the `raw` strings."""
    db.session.rollback()
    found = []
    for table in db.metadata.sorted_tables:
        for row in db.session.execute(db.select(table)).mappings():
            found += [(table.name, column) for column, value in row.items() if any(r in repr(value) for r in raw)]
    return found


def recorded(n: int) -> dict:
    """A row an experiment records after `addProperties` of the URL's ids, with them in text, keys and depth."""
    return {
        "trial_type": "html-button-response",
        "trial_index": n,
        "rt": 500 + n,
        "subject": PID,
        "study": STUDY,
        "submission": SUBMISSION,
        "note": f"participant {PID} in {SUBMISSION}, again {PID}",
        "nested": {"deep": [[{f"seen_{PID}": PID}], 12345678]},
        "group": "b c",
    }


def test_entry_keeps_the_link_s_parameters_and_the_frame_url_gives_them_with_prolific_s_ids(client):
    token = enter(client, **PROLIFIC, group="b c", lang="de")
    assert session_of(token).url_variables == {"group": "b c", "lang": "de"}
    frame, query = frame_query(client, token)
    assert query == {**PROLIFIC, "group": "b c", "lang": "de"}
    assert token not in frame and urlsplit(frame).fragment.startswith("seed=")

    direct = enter(client, group="a")  # not from Prolific: its own parameters only
    assert session_of(direct).url_variables == {"group": "a"}
    assert frame_query(client, direct)[1] == {"group": "a"}
    plain = enter(client)
    assert session_of(plain).url_variables is None and "?" not in frame_query(client, plain)[0]


def test_entry_refuses_parameters_out_of_bounds_and_stores_nothing(client):
    for params in (
        {f"v{n}": "x" for n in range(21)},  # too many
        {"group": "x" * 501},  # too long
        {"a b": "x"},  # a name the experiment would not read back as given
        {"group": "line\nbreak"},  # not printable
    ):
        response = client.get(f"/study/{SLUG}", query_string={**PROLIFIC, **params})
        assert response.status_code == 400 and b"Link not valid" in response.data, params
    db.session.rollback()
    assert db.session.scalar(db.select(db.func.count()).select_from(ParticipantSession)) == 0


def test_rows_hold_markers_for_the_raw_ids_in_values_and_keys_at_any_depth(client):
    token = enter(client, **PROLIFIC, ref=PID)
    save(client, token, 0, recorded(0))
    assert stored(token) == [
        {
            **recorded(0),
            "subject": "[PROLIFIC_PID]",
            "study": "[STUDY_ID]",
            "submission": "[SESSION_ID]",
            "note": "participant [PROLIFIC_PID] in [SESSION_ID], again [PROLIFIC_PID]",
            "nested": {"deep": [[{"seen_[PROLIFIC_PID]": "[PROLIFIC_PID]"}], 12345678]},
        }
    ]
    assert session_of(token).url_variables == {"ref": "[PROLIFIC_PID]"}  # the parameter itself names the person
    assert frame_query(client, token)[1]["ref"] == PID  # and the experiment still reads it as given
    # only the session's own columns hold the raw ids
    assert sorted(anywhere(*RAW_IDS)) == [
        ("participant_sessions", "prolific_pid"),
        ("participant_sessions", "prolific_session_id"),
        ("participant_sessions", "prolific_study_id"),
    ]


def test_what_the_page_reports_besides_rows_holds_markers_too(client):
    """The experiment's own text reaches the server in its end message, its errors and a replay's divergence too: a
    raw id there is kept as its marker, so the purge's promise holds for every column."""
    token = enter(client, **PROLIFIC)
    error = {"message": f"TypeError: no {PID}", "stack": f"at {SUBMISSION}", "trial_index": 0, "fatal": False}
    assert client.post(f"/api/sessions/{token}/experiment-error", json=error).get_json() == {"recorded": True}
    diverged = {"trial_index": 0, "fields": [f"seen_{PID}"]}
    assert client.post(f"/api/sessions/{token}/replay-diverged", json=diverged).get_json() == {"recorded": True}
    ending = {"ended_early": True, "message": f"Thanks, {PID}. Please return this study."}
    assert client.post(f"/api/sessions/{token}/timeline-finished", json=ending).status_code == 200
    session = session_of(token)
    assert session.ending["message"] == "Thanks, [PROLIFIC_PID]. Please return this study."
    assert (session.experiment_error["message"], session.experiment_error["stack"]) == (
        "TypeError: no [PROLIFIC_PID]",
        "at [SESSION_ID]",
    )
    assert session.replay_divergence["fields"] == ["seen_[PROLIFIC_PID]"]
    assert sorted(anywhere(*RAW_IDS)) == [
        ("participant_sessions", "prolific_pid"),
        ("participant_sessions", "prolific_session_id"),
        ("participant_sessions", "prolific_study_id"),
    ]


def test_markers_replace_ids_in_text_only_and_an_export_writes_the_code():
    """Pure functions (no database): an id that looks like a number, or sits right after an escape, is found in text
    and nowhere else; a short id is left alone; unmark and restore undo what mark did."""
    digits = {"PROLIFIC_PID": "12345678", "STUDY_ID": None, "SESSION_ID": "abc"}
    row = {"n": 12345678, "text": "\n12345678\t", "list": [12345678, "x12345678y"], "short": "abc"}
    marked = identifiers.mark(row, digits)
    assert marked == {
        "n": 12345678,
        "text": "\n[PROLIFIC_PID]\t",
        "list": [12345678, "x[PROLIFIC_PID]y"],
        "short": "abc",
    }
    assert identifiers.restore(marked, digits) == row
    assert identifiers.unmark({"a": "[PROLIFIC_PID]/[SESSION_ID]/[STUDY_ID]"}, "c0de") == {"a": "c0de/c0de/[STUDY_ID]"}
    assert identifiers.mark(row, {"PROLIFIC_PID": None}) is row  # nothing to look for: the row as it is


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_exports_write_the_markers_as_the_participant_s_code_of_that_export(app, client, runner, tmp_path):
    token = enter(client, **PROLIFIC)
    for n in range(2):
        save(client, token, n, recorded(n))
    person = session_of(token)
    code = identifiers.participant_code(person.pid_hmac, None, token)

    result = runner.invoke(args=["export", SLUG, "--out", str(tmp_path / "out"), "--include-identifiers"])
    assert result.exit_code == 0, result.output
    rows = read_csv(tmp_path / "out" / "trials.csv")
    assert [r["subject"] for r in rows] == [code, code] and [r["participant_code"] for r in rows] == [code, code]
    assert rows[0]["submission"] == code and rows[0]["study"] == "[STUDY_ID]"
    assert rows[0]["note"] == f"participant {code} in {code}, again {code}"
    assert json.loads(rows[0]["nested"]) == {"deep": [[{f"seen_{code}": code}], 12345678]}
    assert [r["column"] for r in read_csv(tmp_path / "out" / "codebook.csv")].count("subject") == 1
    (ids,) = read_csv(tmp_path / "out" / "identifiers.csv")
    assert (ids["participant_code"], ids["prolific_pid"], ids["prolific_session_id"]) == (code, PID, SUBMISSION)
    assert not any(raw in (tmp_path / "out" / "trials.csv").read_text() for raw in RAW_IDS)

    result = runner.invoke(args=["export", SLUG, "--package", str(tmp_path / "package")])
    assert result.exit_code == 0, result.output
    (participant,) = read_csv(tmp_path / "package" / "data" / "participants.csv")
    own = participant["participant_code"]
    assert own != code and {r["subject"] for r in read_csv(tmp_path / "package" / "data" / "trials.csv")} == {own}

    # the dashboard's participant and replay pages write the deployment's code (the former shows the session's own
    # PROLIFIC_PID above its rows, as for every study)
    create_researcher("ada", "correct horse")
    client.post("/researcher/login", data={"username": "ada", "password": "correct horse"})
    for page in ("", "/replay"):
        shown = client.get(f"/researcher/studies/{SLUG}/participants/{person.id}{page}")
        assert shown.status_code == 200 and code.encode() in shown.data
        assert b"[PROLIFIC_PID]" not in shown.data and f"participant {code} in {code}".encode() in shown.data


def test_withdrawal_deletes_the_rows_and_the_link_s_parameters(client, runner):
    token = enter(client, **PROLIFIC, group="cohort-7q")
    save(client, token, 0, recorded(0))
    assert session_of(token).url_variables == {"group": "cohort-7q"}
    result = runner.invoke(args=["participants", "withdraw", SLUG, PID, "--reason", "asked by email"])
    assert result.exit_code == 0, result.output
    assert stored(token) == [] and session_of(token).url_variables is None
    assert anywhere(*RAW_IDS, "cohort-7q") == []


def test_purge_identifiers_leaves_nothing_to_recognise_the_raw_ids_by(client, runner):
    token = enter(client, **PROLIFIC, ref=PID)
    for n in range(2):
        save(client, token, n, recorded(n))
    result = runner.invoke(args=["data", "purge-identifiers", SLUG, "--older-than", "0", "--apply"])
    assert result.exit_code == 0 and "purged the identifiers of 1" in result.output, result.output
    assert anywhere(*RAW_IDS) == []
    assert stored(token)[0]["subject"] == "[PROLIFIC_PID]"  # the rows stay, still linked by the code
    assert frame_query(client, token)[1] == {"ref": "[PROLIFIC_PID]"}  # nothing left to put back
