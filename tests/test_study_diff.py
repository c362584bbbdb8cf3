"""What changed between two kept versions of a study: `flask studies diff SLUG V1 V2` and the dashboard's versions
page — changed keys as dotted paths, stimuli added and removed, sessions per version (previews not counted)."""

import shutil
from pathlib import Path

import pytest

from server.db import db
from server.models import ParticipantSession, Stimulus, StudyVersion
from server.researchers.auth import create_researcher
from server.studies.definitions import get_study
from server.studies.diff import ABSENT, KeyChange, flatten, key_changes
from tests.helpers import enter

ROOT = Path(__file__).resolve().parent.parent


def copy_study(app, tmp_path, slug):
    folder = tmp_path / "studies" / slug
    shutil.copytree(ROOT / "studies" / slug, folder)
    app.config["STUDIES_DIR"] = str(folder.parent)
    return folder / "study.toml"


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_flatten_names_every_leaf_by_a_dotted_path():
    config = {"title": "T", "task": {"n": 5, "statements": [{"id": "a"}, {"id": "b"}], "edges": []}, "flow": ["x"]}
    assert flatten(config) == {
        "title": "T",
        "task.n": 5,
        "task.statements[0].id": "a",
        "task.statements[1].id": "b",
        "task.edges": [],
        "flow[0]": "x",
    }
    new = {"title": "T", "task": {"n": 5.0, "statements": [{"id": "a"}], "edges": [1]}, "quality": {"x": True}}
    assert key_changes(config, new) == [
        KeyChange("flow[0]", "x", ABSENT),
        KeyChange("quality.x", ABSENT, True),
        KeyChange("task.edges", [], ABSENT),
        KeyChange("task.edges[0]", ABSENT, 1),
        KeyChange("task.n", 5, 5.0),  # the file wrote 5.0: a number of another type
        KeyChange("task.statements[1].id", "b", ABSENT),
    ]


def test_cli_diff_of_a_generated_study_lists_keys_stimuli_and_sessions(app, client, runner, tmp_path):
    path = copy_study(app, tmp_path, "study3")
    enter(client)
    edit(path, "variants = 1 ", "variants = 2 ")
    edit(path, "practice = true ", "practice = false ")
    assert "updated (version 2)" in runner.invoke(args=["studies", "sync"]).output
    enter(client)
    enter(client)
    preview = enter(client)
    db.session.scalars(db.select(ParticipantSession).filter_by(token=preview)).one().preview = True
    db.session.commit()
    study = get_study("study3")
    practice = set(db.session.scalars(db.select(Stimulus.key).filter_by(study_id=study.id, practice=True)))
    second_variants = set(db.session.scalars(db.select(Stimulus.key).where(Stimulus.key.like("%-v1"))))

    result = runner.invoke(args=["studies", "diff", "study3", "1", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:4] == [
        "study3: version 1 → version 2",
        "keys changed: 2",
        "  task.practice: true → false",
        "  task.variants: 1 → 2",
    ]
    assert (
        f"stimuli: {len(second_variants)} added, {len(practice)} removed "
        "(generated from each version's [task] parameters)" in lines
    )
    assert {line[4:] for line in lines if line.startswith("  + ")} == second_variants
    assert {line[4:] for line in lines if line.startswith("  - ")} == practice and len(practice) == 5
    assert lines[-1] == "sessions (previews not counted): version 1: 1, version 2: 2"

    backwards = runner.invoke(args=["studies", "diff", "study3", "2", "1"]).output
    assert "  task.practice: false → true" in backwards and f"{len(practice)} added" in backwards
    same = runner.invoke(args=["studies", "diff", "study3", "2", "2"]).output
    assert "keys changed: 0" in same and "stimuli: 0 added, 0 removed" in same


def test_cli_diff_of_an_imported_study_compares_the_stimuli_of_the_plans(app, client, runner, tmp_path):
    path = copy_study(app, tmp_path, "sketch-demo")
    edit(path, 'title = "', 'title = "New: ')
    assert "updated (version 2)" in runner.invoke(args=["studies", "sync"]).output
    study = get_study("sketch-demo")
    ids = dict(db.session.execute(db.select(StudyVersion.version, StudyVersion.id).filter_by(study_id=study.id)).all())
    for n, (version, keys, preview) in enumerate(
        ((1, ["a", "b"], False), (2, ["b", "c"], False), (2, ["d"], True))  # a preview's plan does not count
    ):
        db.session.add(
            ParticipantSession(
                study_id=study.id,
                token=f"plan-{n}",
                platform="direct",
                study_version=version,
                study_version_id=ids[version],
                plan=[{"index": i, "stimulus_id": k, "practice": False} for i, k in enumerate(keys)],
                preview=preview,
            )
        )
    db.session.commit()
    result = runner.invoke(args=["studies", "diff", "sketch-demo", "1", "2"])
    assert result.exit_code == 0, result.output
    assert "stimuli: 1 added, 1 removed (in the plans of the sessions that entered under each version" in result.output
    assert "  + c\n  - a\n" in result.output
    assert '  title: "' in result.output and '→ "New: ' in result.output
    assert result.output.endswith("sessions (previews not counted): version 1: 1, version 2: 1\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope", "1", "2"], "no study named 'nope'"),
        (["study3", "1", "7"], "study3 has no kept version 7 (kept: 1)"),
        (["study3", "0", "1"], "study3 has no kept version 0 (kept: 1); versions synced before study versions"),
        (["study3", "one", "1"], "'one' is not a valid integer"),
    ],
)
def test_cli_diff_names_an_unknown_study_or_version(runner, args, message):
    result = runner.invoke(args=["studies", "diff", *args])
    assert result.exit_code != 0 and message in result.output, result.output


def test_dashboard_versions_page_shows_the_same_diff(app, client, runner, auth, tmp_path):
    path = copy_study(app, tmp_path, "study3")
    enter(client)
    edit(path, "trials_per_type = 5", "trials_per_type = 4")
    runner.invoke(args=["studies", "sync"])
    auth.login()
    study_page = client.get("/researcher/studies/study3/").get_data(as_text=True)
    assert 'href="/researcher/studies/study3/versions"' in study_page
    page = client.get("/researcher/studies/study3/versions").get_data(as_text=True)  # the two newest by default
    assert "Version 1 → version 2" in page
    assert "<td><code>task.trials_per_type</code></td><td>5</td><td>4</td>" in page
    assert "version 1: <strong>1</strong>, version 2: <strong>0</strong>" in page
    assert "0 added, 0 removed" in page
    same = client.get("/researcher/studies/study3/versions?a=2&b=2").get_data(as_text=True)
    assert "The configurations are the same." in same
    missing = client.get("/researcher/studies/study3/versions?a=1&b=9")
    assert missing.status_code == 404 and "study3 has no kept version 9 (kept: 1, 2)" in missing.get_data(as_text=True)
    # another researcher without access to the study sees no such page
    auth.logout()
    create_researcher("bob", "battery staple")
    auth.login("bob", "battery staple")
    assert client.get("/researcher/studies/study3/versions").status_code == 404
