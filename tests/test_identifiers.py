"""Pseudonymous exports and the retention of platform ids (issue #26; docs/operations.md, "Data protection"): the
default export and the dashboard's downloads hold no raw Prolific id and only a reduced User-Agent;
`--include-identifiers` and the dashboard's POST add identifiers.csv, audited; sessions are found by the HMAC of their
PROLIFIC_PID (older ones by the raw id); `flask data purge-identifiers` nulls the raw ids, refused while a bonus or an
approval is pending. tests/test_identifiers_browser.py drives the dashboard's purge."""

from __future__ import annotations

import csv
from datetime import timedelta

import pytest

from server import identifiers
from server.db import db, utcnow
from server.models import ParticipantSession, StudyEvent
from server.researchers.auth import create_researcher
from server.studies.definitions import get_study
from tests.helpers import PROLIFIC, answer_surveys, enter, trial_body

CHROME = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.71 "
    "Safari/537.36"
)
RAW = [PROLIFIC[k].encode() for k in ("PROLIFIC_PID", "STUDY_ID", "SESSION_ID")] + [b"120.0.6099.71"]


def code(participant: str) -> str:
    return identifiers.pid_hmac(participant)[: identifiers.CODE_HEX_DIGITS]


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def session_of(participant: str) -> ParticipantSession:
    db.session.rollback()
    return db.session.scalars(
        db.select(ParticipantSession).where(identifiers.MATCHES), identifiers.match_values(participant)
    ).one()


def age(participant: str, days: float) -> None:
    """Move the session's start `days` into the past."""
    session_of(participant).started_at = utcnow() - timedelta(days=days)
    db.session.commit()


# ------------------------------------------------------------------------------------------- exports


@pytest.fixture
def finished(client):
    entry = client.get("/study/study3", query_string=PROLIFIC, headers={"User-Agent": CHROME})
    token = entry.headers["Location"].rsplit("/", 1)[1]
    answer_surveys(client, token)
    events = [{"t": 1000, "type": "input", "target": "percent", "value": "42"}]  # events.csv gets rows
    for item in client.get(f"/api/sessions/{token}").get_json()["plan"]:
        response = client.post(f"/api/sessions/{token}/trials", json=trial_body(item, events=events))
        assert response.status_code == 201, response.get_json()
    assert client.post(f"/api/sessions/{token}/complete").status_code == 200
    return token


def test_no_default_export_or_download_holds_a_raw_id_or_the_full_user_agent(client, auth, runner, finished, tmp_path):
    tmp_path = tmp_path / "out"  # the test database lives in tmp_path
    session = session_of(PROLIFIC["PROLIFIC_PID"])
    assert session.pid_hmac == identifiers.pid_hmac(PROLIFIC["PROLIFIC_PID"])  # stored at entry
    result = runner.invoke(args=["export", "study3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["codebook.csv", "events.csv", "participants.csv", "trials.csv"]
    for path in files:
        data = path.read_bytes()
        assert not [raw for raw in RAW if raw in data], path.name
    (person,) = read_csv(tmp_path / "participants.csv")
    assert (person["participant_code"], person["user_agent"]) == (
        code(PROLIFIC["PROLIFIC_PID"]),
        "Chrome 120 / Windows 10",
    )
    assert {r["participant_code"] for r in read_csv(tmp_path / "events.csv")} == {person["participant_code"]}
    auth.login()
    for name in ("participants.csv", "trials.csv", "events.csv", "codebook.csv"):
        download = client.get(f"/researcher/studies/study3/{name}")
        assert download.status_code == 200 and not [raw for raw in RAW if raw in download.data], name
    assert client.get("/researcher/studies/study3/identifiers.csv").status_code == 404  # a POST only, never a link


def test_identifiers_csv_only_when_asked_for_and_audited(client, auth, runner, finished, tmp_path):
    tmp_path = tmp_path / "out"  # the test database lives in tmp_path
    create_researcher("bob", "correct horse")
    result = runner.invoke(args=["export", "study3", "--out", str(tmp_path), "--include-identifiers", "--by", "bob"])
    assert result.exit_code == 0, result.output
    (ids,) = read_csv(tmp_path / "identifiers.csv")
    assert ids == {
        "participant_code": code(PROLIFIC["PROLIFIC_PID"]),
        "participant_id": str(session_of(PROLIFIC["PROLIFIC_PID"]).id),
        "prolific_pid": PROLIFIC["PROLIFIC_PID"],
        "prolific_study_id": PROLIFIC["STUDY_ID"],
        "prolific_session_id": PROLIFIC["SESSION_ID"],
        "user_agent": CHROME,
        "identifiers_purged_at": "",
    }
    assert PROLIFIC["PROLIFIC_PID"] not in (tmp_path / "participants.csv").read_text()
    described = {(r["file"], r["column"]) for r in read_csv(tmp_path / "codebook.csv")}
    assert {("identifiers.csv", c) for c in ids} <= described
    (event,) = db.session.scalars(db.select(StudyEvent).filter_by(action="identifiers_exported")).all()
    assert event.researcher_id is not None and event.detail["via"] == "cli" and "os_user" in event.detail
    # a default export into the same folder leaves no identifiers.csv behind
    assert runner.invoke(args=["export", "study3", "--out", str(tmp_path)]).exit_code == 0
    assert not (tmp_path / "identifiers.csv").exists()
    assert (
        "no researcher named 'nobody'"
        in runner.invoke(
            args=["export", "study3", "--out", str(tmp_path / "x"), "--include-identifiers", "--by", "nobody"]
        ).output
    )
    assert not (tmp_path / "x").exists()

    auth.login()
    download = client.post("/researcher/studies/study3/identifiers.csv")
    assert download.status_code == 200 and PROLIFIC["PROLIFIC_PID"].encode() in download.data
    assert "attachment" in download.headers["Content-Disposition"]
    db.session.rollback()
    web = db.session.scalars(db.select(StudyEvent).filter_by(action="identifiers_exported").order_by(StudyEvent.id))
    assert [e.detail["via"] for e in web] == ["cli", "web"]
    auth.logout()
    auth.login("bob")  # no access to study3: as if it did not exist, and nothing logged
    assert client.post("/researcher/studies/study3/identifiers.csv").status_code == 404
    assert db.session.scalar(db.select(db.func.count()).where(StudyEvent.action == "identifiers_exported")) == 2


def test_the_user_agent_is_reduced_to_browser_and_os():
    assert identifiers.reduced_user_agent(CHROME) == "Chrome 120 / Windows 10"
    assert identifiers.reduced_user_agent("curl/8.5.0") == "curl 8 / Other"
    assert identifiers.reduced_user_agent("") is None and identifiers.reduced_user_agent(None) is None


def test_a_session_older_than_the_hash_is_still_found_and_matched(app, client):
    """A session stored before pid_hmac existed (NULL) is found by its raw id: the entry resumes it."""
    token = enter(client, **PROLIFIC)
    session = session_of(PROLIFIC["PROLIFIC_PID"])
    session.pid_hmac = None
    db.session.commit()
    again = client.get("/study/study3", query_string=PROLIFIC)
    assert again.headers["Location"].endswith(token)
    assert db.session.scalar(db.select(db.func.count()).select_from(ParticipantSession)) == 1


def test_returning_participants_are_found_by_hmac_across_purged_and_older_sessions(client, auth, runner):
    """One person in study3 (purged: only the hash) and in hive-distinction (older: only the raw id)."""
    enter(client, **PROLIFIC)
    enter(client, "hive-distinction", **PROLIFIC)
    older = db.session.scalars(
        db.select(ParticipantSession).where(ParticipantSession.study_id == get_study("hive-distinction").id)
    ).one()
    older.pid_hmac = None
    db.session.commit()
    result = runner.invoke(args=["data", "purge-identifiers", "study3", "--older-than", "0", "--apply"])
    assert result.exit_code == 0, result.output
    auth.login()
    html = client.get("/researcher/studies/study3/?stage=all").get_data(as_text=True)
    quality = html.split('id="quality"', 1)[1].split("</ul>", 1)[0]
    assert "Returning Prolific ids (also in other studies here): <strong>1</strong>" in quality
    assert f"participant_code {code(PROLIFIC['PROLIFIC_PID'])}" in quality and PROLIFIC["PROLIFIC_PID"] not in html


def test_returning_participants_are_looked_up_by_hmac_a_few_at_a_time(client, monkeypatch):
    """Three people in study3, two of them also in hive-distinction and one of those in hive-agreement too; the other
    studies are searched one key at a time."""
    from server.results import dashboard

    people = [{**PROLIFIC, "PROLIFIC_PID": f"{i:024x}"} for i in range(3)]
    for person in people:
        enter(client, **person)
    for person in people[:2]:
        enter(client, "hive-distinction", **person)
    enter(client, "hive-agreement", **people[0])
    monkeypatch.setattr(dashboard, "KEYS_PER_QUERY", 1)
    found = dashboard.returning_participants(get_study("study3"), None)
    assert [(r["participant_code"], r["other_studies"]) for r in found] == [
        (code(people[0]["PROLIFIC_PID"]), 2),
        (code(people[1]["PROLIFIC_PID"]), 1),
    ]
