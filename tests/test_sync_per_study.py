"""`flask studies sync` syncs each study on its own (issue #36, row 13): a study that fails keeps its previous version
whole while the others are synced, each failure is one message naming the file, the tag or key and the reason, and
`flask studies sync SLUG...` syncs the named studies only."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from server.db import db
from server.studies.definitions import get_study
from tests.jspsych_study import JSPSYCH5, jspsych5_registry, write_study

STUDY3 = Path(__file__).resolve().parent.parent / "studies" / "study3" / "study.toml"
STUDY3_TITLE = "How big is the smaller bar? (bar-chart ratio judgments)"


@pytest.fixture(scope="module")
def registry():
    fake = jspsych5_registry()
    yield fake
    fake.close()


@pytest.fixture
def studies(app, runner, tmp_path, registry):
    """study3 and an own jsPsych experiment "own", both synced (version 1)."""
    folder = tmp_path / "studies"
    (folder / "study3").mkdir(parents=True)
    shutil.copy(STUDY3, folder / "study3" / "study.toml")
    write_study(folder, "own")
    app.config.update(STUDIES_DIR=str(folder), NPM_REGISTRY_URL=registry.url)
    result = runner.invoke(args=["studies", "sync"])
    assert result.exit_code == 0, result.output
    return folder


def retitle(folder: Path, title: str) -> None:
    path = folder / "study.toml"
    text = path.read_text()
    old = next(line for line in text.splitlines() if line.startswith("title = "))
    path.write_text(text.replace(old, f'title = "{title}"', 1))


def test_a_study_that_fails_keeps_its_version_and_the_others_still_sync(runner, studies):
    retitle(studies / "study3", "Edited bar charts")
    retitle(studies / "own", "Edited own")  # an edit of the failing study: not applied, nothing of it half-written
    page = studies / "own" / "experiment.html"
    page.write_text(page.read_text().replace('<script src="https://unpkg.com/jspsych@8.3.0"></script>', JSPSYCH5))
    (studies / "new").mkdir()
    bad = STUDY3.read_text().replace("trials_per_type = 5", "trials_per_type = 9")
    (studies / "new" / "study.toml").write_text(bad)
    served = get_study("own").config["experiment"]["html"]

    result = runner.invoke(args=["studies", "sync"])

    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    lines = result.output.splitlines()
    assert "study3: updated (version 2)" in lines
    assert "Error: 2 of 3 studies not synced; each keeps the version it had:" in lines
    # one message per failing study: its file, the tag or key and the reason, each said once
    assert f"{studies / 'new' / 'study.toml'}: task.trials_per_type: expected at most 7, got 9" in lines
    assert (
        f"{studies / 'own' / 'study.toml'}: experiment.html: {JSPSYCH5.removesuffix('</script>')}: "
        "jsPsych 5 and older are not supported (this tag loads jspsych@5.0.3)"
    ) in lines
    assert result.output.count("experiment.html") == 1 and result.output.count("jsPsych 5") == 1
    db.session.expire_all()
    assert (get_study("study3").title, get_study("study3").version) == ("Edited bar charts", 2)
    own = get_study("own")
    assert (own.title, own.version, own.config["experiment"]["html"]) == ("own", 1, served)
    assert get_study("new") is None


def test_sync_with_slugs_syncs_the_named_studies_only(runner, studies):
    retitle(studies / "study3", "Edited bar charts")
    retitle(studies / "own", "Edited own")

    result = runner.invoke(args=["studies", "sync", "own"])

    assert result.exit_code == 0, result.output
    assert "own: updated (version 2)" in result.output and "study3" not in result.output
    db.session.expire_all()
    assert (get_study("own").title, get_study("own").version) == ("Edited own", 2)
    assert (get_study("study3").title, get_study("study3").version) == (STUDY3_TITLE, 1)


def test_an_unknown_slug_is_refused_before_anything_is_synced(runner, studies):
    retitle(studies / "own", "Edited own")

    result = runner.invoke(args=["studies", "sync", "own", "nope", "../own"])

    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert (
        f"Error: {studies}: no study named 'nope', '../own' (studies there: own, study3); nothing was synced"
        in result.output.splitlines()
    )
    db.session.expire_all()
    assert (get_study("own").title, get_study("own").version) == ("own", 1)
