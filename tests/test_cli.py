"""CLI commands: studies sync (versions, validation), stimuli export, links."""

import csv
import shutil
from pathlib import Path

import pytest
from PIL import Image

from server.db import db
from server.models import ParticipantSession, Stimulus
from server.studies.definitions import get_study
from tests.helpers import enter

STUDY3 = Path(__file__).resolve().parent.parent / "studies" / "study3" / "study.toml"


@pytest.fixture
def studies_dir(app, tmp_path):
    folder = tmp_path / "studies"
    (folder / "study3").mkdir(parents=True)
    shutil.copy(STUDY3, folder / "study3" / "study.toml")
    app.config["STUDIES_DIR"] = str(folder)
    return folder


def test_sync_is_idempotent_and_versions_edits(runner, client, studies_dir):
    assert "unchanged (version 1)" in runner.invoke(args=["studies", "sync"]).output
    first = enter(client)
    path = studies_dir / "study3" / "study.toml"
    path.write_text(path.read_text().replace("trials_per_type = 5", "trials_per_type = 4"))
    assert "updated (version 2)" in runner.invoke(args=["studies", "sync"]).output
    second = enter(client)
    versions = {s.token: s.study_version for s in db.session.scalars(db.select(ParticipantSession))}
    assert (versions[first], versions[second]) == (1, 2)
    assert len(client.get(f"/api/sessions/{first}").get_json()["plan"]) == 30
    assert len(client.get(f"/api/sessions/{second}").get_json()["plan"]) == 25


@pytest.mark.parametrize(
    "edit, message",
    [
        (
            ('task_type = "ratio-estimation"', 'task_type = "mind-reading"'),
            'task_type: "mind-reading" is not registered',
        ),
        (("trials_per_type = 5", "trials_per_type = 9"), "task.trials_per_type: expected at most 7, got 9"),
        (("variants = 1", "variants = 1\ncolour = 2"), "task.colour: unknown key"),
        (
            ('platform = "prolific"', 'platform = "mturk"'),
            'platform: expected one of "prolific", "labinthewild" or "direct", got "mturk"',
        ),
        (('completion_code = "C3RATIO5"', ""), "needs completion_code"),
        (("title = ", "titel = "), 'titel: unknown key (did you mean "title"?)'),
        (("[task]", "[task"), "not valid TOML"),
        (
            ('flow = ["consent", "demographics", "instructions", "task"]', 'flow = ["consent", "demographics"]'),
            "contain 'task' once",
        ),
        (
            (
                'flow = ["consent", "demographics", "instructions", "task"]',
                'flow = ["demographics", "consent", "task"]',
            ),
            "must start with 'consent'",
        ),
        (
            ('flow = ["consent", "demographics", "instructions", "task"]', 'flow = ["consent", "task", "horoscope"]'),
            "flow: unknown step(s) horoscope",
        ),
    ],
)
def test_sync_refuses_bad_study_files_and_writes_nothing(runner, studies_dir, edit, message):
    (studies_dir / "new").mkdir()
    (studies_dir / "new" / "study.toml").write_text(STUDY3.read_text().replace(*edit))
    result = runner.invoke(args=["studies", "sync"])
    assert result.exit_code != 0
    assert message in result.output and "new/study.toml" in result.output
    assert get_study("new") is None


def test_stimuli_export_writes_manifest_and_matching_pngs(runner, tmp_path):
    result = runner.invoke(args=["stimuli", "export", "study3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(open(tmp_path / "manifest.csv")))
    test_stimuli = db.session.scalars(
        db.select(Stimulus.key).filter_by(practice=False, study_id=get_study("study3").id)
    ).all()
    assert sorted(r["stimulus_id"] for r in rows) == sorted(test_stimuli)
    assert list(rows[0]) == [
        "stimulus_id",
        "chart_type",
        "short_height",
        "tall_height",
        "true_percent",
        "practice",
        "file",
    ]
    for row in rows[:10]:
        assert float(row["true_percent"]) == pytest.approx(100 * int(row["short_height"]) / int(row["tall_height"]))
        image = Image.open(tmp_path / row["file"])
        assert image.size == (100, 100)
    assert runner.invoke(args=["stimuli", "export", "nope", "--out", str(tmp_path)]).exit_code != 0


def test_links_prints_prolific_and_direct_links(runner):
    output = runner.invoke(args=["links", "--base-url", "http://example.test:8000"]).output
    assert "http://example.test:8000/study/study3?PROLIFIC_PID={{%PROLIFIC_PID%}}" in output
    assert "cc=C3RATIO5" in output and "researcher create" in output
