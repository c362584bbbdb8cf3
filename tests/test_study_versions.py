"""Every synced version of a study is kept (study_versions): a changed file adds one, an unchanged re-sync none, and
each session points at the version it entered under; `flask studies versions` lists and shows them."""

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest

from server.db import db
from server.models import ParticipantSession, StudyVersion
from server.researchers.auth import create_researcher
from server.studies.definitions import get_study
from tests.helpers import enter

STUDY3 = Path(__file__).resolve().parent.parent / "studies" / "study3" / "study.toml"


@pytest.fixture
def study_file(app, tmp_path):
    folder = tmp_path / "studies" / "study3"
    folder.mkdir(parents=True)
    shutil.copy(STUDY3, folder / "study.toml")
    app.config["STUDIES_DIR"] = str(folder.parent)
    return folder / "study.toml"


def kept(slug="study3"):
    return db.session.scalars(
        db.select(StudyVersion).filter_by(study_id=get_study(slug).id).order_by(StudyVersion.version)
    ).all()


def edit(path, old, new):
    path.write_text(path.read_text().replace(old, new))


def test_a_changed_file_adds_a_version_and_an_unchanged_one_none(runner, study_file):
    create_researcher("ada", "correct horse")
    assert [v.version for v in kept()] == [1]  # the app fixture's sync created study3
    assert "unchanged (version 1)" in runner.invoke(args=["studies", "sync"]).output
    assert [v.version for v in kept()] == [1]
    edit(study_file, "trials_per_type = 5", "trials_per_type = 4")
    result = runner.invoke(args=["studies", "sync", "--by", "ada"])
    assert "updated (version 2)" in result.output, result.output
    assert "unchanged (version 2)" in runner.invoke(args=["studies", "sync"]).output
    db.session.expire_all()
    first, second = kept()
    study = get_study("study3")
    assert (first.version, second.version, study.version) == (1, 2, 2)
    assert (first.config["task"]["trials_per_type"], second.config["task"]["trials_per_type"]) == (5, 4)
    assert second.config == study.config and second.config_hash == study.config_hash != first.config_hash
    # SHA-256 of the configuration as canonical JSON (sorted keys), recomputed here
    assert second.config_hash == hashlib.sha256(json.dumps(second.config, sort_keys=True).encode()).hexdigest()
    assert second.researcher_id is not None and second.via == "cli" and first.researcher_id is None


def test_reverting_a_file_is_a_new_version_like_the_counter(runner, study_file):
    edit(study_file, "trials_per_type = 5", "trials_per_type = 4")
    runner.invoke(args=["studies", "sync"])
    edit(study_file, "trials_per_type = 4", "trials_per_type = 5")
    assert "updated (version 3)" in runner.invoke(args=["studies", "sync"]).output
    versions = kept()
    assert [v.version for v in versions] == [1, 2, 3]
    assert versions[0].config == versions[2].config and versions[0].config_hash == versions[2].config_hash


def test_a_session_points_at_the_version_it_entered_under(runner, client, study_file):
    first = enter(client)
    edit(study_file, "trials_per_type = 5", "trials_per_type = 4")
    runner.invoke(args=["studies", "sync"])
    second = enter(client)
    db.session.expire_all()
    sessions = {s.token: s for s in db.session.scalars(db.select(ParticipantSession))}
    one, two = kept()
    assert (sessions[first].study_version_id, sessions[second].study_version_id) == (one.id, two.id)
    assert (sessions[first].study_version, sessions[second].study_version) == (1, 2)
    assert len(client.get(f"/api/sessions/{second}").get_json()["plan"]) == 25  # 5 practice, 5 types × 4


def test_a_study_with_conditions_sets_the_version_too(runner, client, study_file):
    # entries of a study with conditions take the study's row lock first (server/studies/conditions.py): the other path
    study_file.write_text(study_file.read_text() + '[[conditions]]\nname = "a"\n[[conditions]]\nname = "b"\n')
    assert "updated (version 2)" in runner.invoke(args=["studies", "sync"]).output
    token = enter(client)
    session = db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()
    assert session.condition in ("a", "b") and session.study_version_id == kept()[1].id


def test_versions_lists_and_shows_them(runner, client, study_file):
    create_researcher("ada", "correct horse")
    enter(client)
    edit(study_file, "trials_per_type = 5", "trials_per_type = 4")
    runner.invoke(args=["studies", "sync", "--by", "ada"])
    enter(client)
    enter(client)
    # a session of a version synced before study_versions existed (what migration 0007 leaves without a row)
    db.session.add(
        ParticipantSession(study_id=get_study("study3").id, token="o" * 20, platform="direct", study_version=0, plan=[])
    )
    db.session.commit()
    one, two = kept()
    result = runner.invoke(args=["studies", "versions", "study3"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "version\thash\tsynced (UTC)\tby\tsessions"
    rows = [line.split("\t") for line in lines[1:3]]
    assert [(r[0], r[1], r[4]) for r in rows] == [("1", one.config_hash[:12], "1"), ("2", two.config_hash[:12], "2")]
    assert rows[1][3].startswith("ada, cli") and rows[0][3].startswith("cli")
    assert rows[1][2] == two.created_at.strftime("%Y-%m-%d %H:%M:%S")
    assert lines[3].startswith("1 session(s) entered under an earlier version that was not kept")
    assert "cannot be recovered" in lines[3] and len(lines) == 4

    shown = runner.invoke(args=["studies", "versions", "study3", "--show", "1"])
    assert shown.exit_code == 0 and json.loads(shown.output) == one.config
    assert (
        json.loads(runner.invoke(args=["studies", "versions", "study3", "--show", "2"]).output)["task"][
            "trials_per_type"
        ]
        == 4
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (["study3", "--show", "3"], "study3 has no kept version 3 (kept: 1)"),
        (["study3", "--show", "nine"], "'nine' is not a valid integer"),
        (["nope"], "no study named 'nope'"),
    ],
)
def test_versions_refuses_what_is_not_there(runner, args, message):
    result = runner.invoke(args=["studies", "versions", *args])
    assert result.exit_code != 0 and message in result.output, result.output
    assert isinstance(result.exception, SystemExit)  # a click error, not an uncaught exception


def test_a_version_older_than_the_table_says_it_is_lost(runner):
    study = get_study("study3")
    db.session.execute(db.update(StudyVersion).filter_by(study_id=study.id).values(version=4))
    db.session.commit()
    result = runner.invoke(args=["studies", "versions", "study3", "--show", "2"])
    assert result.exit_code != 0
    assert "no kept version 2 (kept: 4); versions synced before study versions were kept" in result.output
    assert "cannot be recovered" in result.output


def test_sync_by_an_unknown_researcher_writes_nothing(runner, study_file):
    edit(study_file, "trials_per_type = 5", "trials_per_type = 4")
    result = runner.invoke(args=["studies", "sync", "--by", "nobody"])
    assert result.exit_code != 0 and "no researcher named 'nobody'" in result.output
    db.session.expire_all()
    assert [v.version for v in kept()] == [1] and get_study("study3").version == 1


def test_a_sync_racing_another_one_writes_nothing(runner, study_file):
    # what a second sync finds when the first stored version 2 after this one read version 1
    study = get_study("study3")
    db.session.add(StudyVersion(study_id=study.id, version=2, config={}, config_hash="0" * 64, via="cli"))
    db.session.commit()
    edit(study_file, "trials_per_type = 5", "trials_per_type = 4")
    result = runner.invoke(args=["studies", "sync"])
    assert result.exit_code != 0 and "another sync changed the studies at the same time" in result.output
    assert isinstance(result.exception, SystemExit)  # a click error, not an uncaught exception
    db.session.expire_all()
    assert get_study("study3").version == 1 and get_study("study3").config["task"]["trials_per_type"] == 5


def test_a_session_is_shown_and_records_the_consent_of_its_version(runner, client, study_file):
    token = enter(client, consent=False)
    shown = get_study("study3").config["consent"]
    edit(study_file, 'consent = """', 'consent = """<p>Edited after this participant entered.</p>')
    assert runner.invoke(args=["studies", "sync"]).exit_code == 0
    assert "Edited after" in get_study("study3").config["consent"]
    page = client.get(f"/study/study3/s/{token}").data.decode()
    config = json.loads(re.search(r'id="studyhive-config">(.*?)</script>', page, re.S).group(1))
    assert config["consent_html"] == shown
    assert client.put(f"/api/sessions/{token}/surveys/consent", json={"answers": {"agreed": True}}).status_code == 200
    db.session.expire_all()
    recorded = db.session.scalars(db.select(ParticipantSession.consent_sha256).filter_by(token=token)).one()
    assert recorded == hashlib.sha256(shown.encode()).hexdigest()


def page_config(client, token: str) -> dict:
    page = client.get(f"/study/study3/s/{token}").data.decode()
    return json.loads(re.search(r'id="studyhive-config">(.*?)</script>', page, re.S).group(1))


def test_participants_pages_differ_by_their_token_and_platform_alone(client):
    """A worker keeps a study's page (server/web/participant.py, _kept_page): each participant still gets their own
    token, and a Prolific participant the Prolific page."""
    one, two = enter(client, consent=False), enter(client, consent=False)
    prolific = enter(client, consent=False, PROLIFIC_PID="a" * 24, STUDY_ID="s", SESSION_ID="x")
    first, second = (client.get(f"/study/study3/s/{token}").data.decode() for token in (one, two))
    assert one in first and two not in first and two in second
    assert second == first.replace(one, two)
    configs = {token: page_config(client, token) for token in (one, two, prolific)}
    assert [configs[t]["token"] for t in (one, two, prolific)] == [one, two, prolific]
    assert [configs[t]["api"] for t in (one, two, prolific)] == [f"/api/sessions/{t}" for t in (one, two, prolific)]
    assert [configs[t]["platform"] for t in (one, two, prolific)] == ["direct", "direct", "prolific"]


def test_a_kept_page_follows_a_synced_study(runner, client, study_file):
    """The study's instructions as they are now, on the page of a participant who entered before the sync too, as
    every page showed them before pages were kept."""
    before = enter(client, consent=False)
    assert "Edited" not in page_config(client, before)["instructions_html"][0]
    edit(study_file, '"""<h2>Your task</h2>', '"""<p>Edited instructions.</p><h2>Your task</h2>')
    assert runner.invoke(args=["studies", "sync"]).exit_code == 0
    after = enter(client, consent=False)  # entered under the new version: the worker reads the study again
    assert "Edited instructions" in page_config(client, after)["instructions_html"][0]
    assert "Edited instructions" in page_config(client, before)["instructions_html"][0]
