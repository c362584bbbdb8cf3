"""Between-subjects conditions (server/studies/conditions.py): balanced assignment under a crowd of simultaneous
entries, one session per PROLIFIC_PID, quotas, abandoned sessions freeing their slot, and the condition reaching the
task."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func

from server.db import db, dispose_engines, utcnow
from server.models import ParticipantSession
from server.studies.definitions import StudyFileError, load_study_file, sync_studies
from tests import jspsych_study
from tests.conftest import ROOT, make_app
from tests.helpers import enter

STUDY3 = (ROOT / "studies" / "study3" / "study.toml").read_text()
HEAD = "abandon_after_minutes = 30\n"  # top-level keys go before the [task] table
CONDITIONS = """
[[conditions]]
name = "full"
[[conditions]]
name = "short"
[conditions.task]
trials_per_type = 2
[[conditions]]
name = "capped"
quota = 1000
"""


def write_study(folder: Path, tables: str, slug="cond", head=HEAD) -> Path:
    path = folder / slug / "study.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(head + STUDY3 + tables)
    return path


@pytest.fixture
def app(tmp_path):
    """The conftest app, with a study `cond` that has three conditions (overrides the `app` fixture here)."""
    write_study(tmp_path / "studies", CONDITIONS)
    app = make_app(tmp_path, STUDIES_DIR=str(tmp_path / "studies"))
    with app.app_context():
        db.drop_all()
        db.create_all()
        sync_studies(Path(app.config["STUDIES_DIR"]))
        yield app
        db.session.remove()
        db.drop_all()
        dispose_engines()


def counts():
    db.session.rollback()
    return dict(
        db.session.execute(
            db.select(ParticipantSession.condition, func.count()).group_by(ParticipantSession.condition)
        ).all()
    )


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def enter_live(base, pid):
    try:
        urllib.request.build_opener(NoRedirect).open(f"{base}/study/cond?PROLIFIC_PID={pid}", timeout=60)
    except urllib.error.HTTPError as exc:
        assert exc.code == 303, exc.read()
        return exc.headers["Location"].rsplit("/", 1)[1]
    raise AssertionError("no redirect")


def test_study_file_conditions_are_parsed_and_checked(app, tmp_path):
    config = load_study_file(write_study(tmp_path, CONDITIONS))
    assert [c["name"] for c in config["conditions"]] == ["full", "short", "capped"]
    assert [c["quota"] for c in config["conditions"]] == [None, None, 1000]
    assert config["conditions"][1]["task"]["trials_per_type"] == 2
    assert config["conditions"][0]["task"] == config["task"] and config["abandon_after_minutes"] == 30
    plain = load_study_file(write_study(tmp_path, "", slug="plain", head=""))
    assert "conditions" not in plain and "abandon_after_minutes" not in plain  # so its version is unchanged
    tables = {
        "name": '[[conditions]]\nname = "a"\n[[conditions]]\nname = "a"\n',
        "quota": '[[conditions]]\nname = "a"\nquota = 0\n',
        "colour": '[[conditions]]\nname = "a"\ncolour = 1\n',
        "trials_per_type": '[[conditions]]\nname = "a"\n[conditions.task]\ntrials_per_type = 99\n',
    }
    for key, text in tables.items():
        with pytest.raises(StudyFileError, match=key):
            load_study_file(write_study(tmp_path, text, slug="bad"))
    for key, line in (("conditions", "conditions = []\n"), ("abandon_after_minutes", "abandon_after_minutes = 0\n")):
        with pytest.raises(StudyFileError, match=key):
            load_study_file(write_study(tmp_path, "", slug="bad", head=line))


def test_an_own_experiments_conditions_share_its_task(app, tmp_path):
    """Sync prepares an own experiment's one page for every session: a condition's [conditions.task] is refused
    (it was parsed and then never served), and conditions without one are the study's."""
    folder = tmp_path / "own"
    folder.mkdir()
    base = jspsych_study.STUDY_TOML.format(title="own", min_rows=1, resume="replay")
    (folder / "study.toml").write_text(base + '[[conditions]]\nname = "a"\n[[conditions]]\nname = "b"\n')
    assert [c["name"] for c in load_study_file(folder / "study.toml")["conditions"]] == ["a", "b"]
    changed = '[[conditions]]\nname = "a"\n[[conditions]]\nname = "b"\n[conditions.task]\nexperiment = "b.html"\n'
    (folder / "study.toml").write_text(base + changed)
    with pytest.raises(StudyFileError, match=re.escape("conditions[2].task: an own experiment's conditions cannot")):
        load_study_file(folder / "study.toml")


def test_two_hundred_simultaneous_entries_are_balanced_with_one_session_per_prolific_id(app, live_server):
    pids = [f"crowd{n:03d}" for n in range(200)]
    with ThreadPoolExecutor(64) as pool:  # every PROLIFIC_PID enters twice at once (a double-clicked link)
        tokens = list(pool.map(lambda pid: (pid, enter_live(live_server, pid)), pids + pids))
    by_pid = {}
    for pid, token in tokens:
        by_pid.setdefault(pid, set()).add(token)
    assert all(len(t) == 1 for t in by_pid.values())
    per_condition = counts()
    assert sum(per_condition.values()) == 200
    assert set(per_condition) == {"full", "short", "capped"}
    assert max(per_condition.values()) - min(per_condition.values()) <= 1


def test_condition_reaches_the_plan(app, client):
    plans = {}
    for n in range(3):
        token = enter(client, "cond", PROLIFIC_PID=f"p{n}")
        session = db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()
        plans[session.condition] = client.get(f"/api/sessions/{token}").get_json()["plan"]
    assert len(plans["full"]) == len(plans["capped"]) == 30
    assert len(plans["short"]) == 5 + 5 * 2  # practice + trials_per_type × chart types


def test_quota_and_abandoned_sessions_free_their_slot(app, client, tmp_path):
    path = tmp_path / "studies" / "cond" / "study.toml"
    path.write_text(HEAD + STUDY3 + '[[conditions]]\nname = "a"\nquota = 1\n[[conditions]]\nname = "b"\nquota = 1\n')
    sync_studies(tmp_path / "studies")
    first, second = (enter(client, "cond", PROLIFIC_PID=pid) for pid in ("one", "two"))
    assert counts() == {"a": 1, "b": 1}
    full = client.get("/study/cond", query_string={"PROLIFIC_PID": "three"})
    assert full.status_code == 503 and counts() == {"a": 1, "b": 1}  # no session written
    assert "Study full" in full.get_data(as_text=True) and full.headers["Retry-After"]
    # The participant in slot `b` completed; the one in `a` has not been seen for 31 minutes: `a` is free again.
    sessions = {s.token: s for s in db.session.scalars(db.select(ParticipantSession))}
    sessions[second].status = "completed"
    sessions[first].last_seen_at = utcnow() - timedelta(minutes=31)
    abandoned = sessions[first].condition
    db.session.commit()
    third = enter(client, "cond", PROLIFIC_PID="three")
    assert db.session.scalars(db.select(ParticipantSession).filter_by(token=third)).one().condition == abandoned
    # Resuming an existing session never needs a free slot.
    assert enter(client, "cond", PROLIFIC_PID="one") == first
