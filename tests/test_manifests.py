"""`flask stimuli import` and asset serving, through a small task type defined here (a photo and its label), so
the generic machinery is tested apart from any one study family."""

import csv
import io
import json
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import func

from server.db import db
from server.exceptions import ManifestError
from server.models import Asset, Stimulus, Study, current_generation
from server.studies.definitions import sync_studies
from server.tasktype.contract import Column, ImportedStimuli, ModelAnswers, PlanItem, StimulusSpec
from server.tasktype.registry import registry
from tests.helpers import enter

STUDY = """title = "Photo labels"
task_type = "photo-label"
consent = "<p>ok</p>"
flow = ["consent", "task"]
"""


class PhotoLabel(ImportedStimuli, ModelAnswers):
    id = "photo-label"
    name = "Name the photo (test task)"
    manifest_required = ("image_id", "photo", "label")
    manifest_optional = ("difficulty",)
    stimulus_columns = (Column("label", "the correct label", "text"),)

    def parse_params(self, raw):
        return {}

    def stimulus_from_manifest(self, row, files, params):
        if not row["image_id"]:
            raise ManifestError("image_id", "an id is required")
        if row["difficulty"] and row["difficulty"] not in ("easy", "hard"):
            raise ManifestError("difficulty", "must be easy or hard")
        return StimulusSpec(row["image_id"], {"photo": files.image("photo", row["photo"]), "label": row["label"]})

    def build_plan_from(self, params, stimuli, rng):
        return [PlanItem(i, s.key, False) for i, s in enumerate(stimuli)]

    def validate_response(self, response, params, shown):
        return response

    def render_stimulus(self, key, params):
        return params["photo"]

    def model_input(self, key, params):
        return params["photo"]


def png(colour):
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), colour).save(buffer, "PNG")
    return buffer.getvalue()


@pytest.fixture
def study(app, tmp_path):
    registry(app).register(PhotoLabel())
    folder = tmp_path / "studies" / "photos"
    folder.mkdir(parents=True)
    (folder / "study.toml").write_text(STUDY)
    app.config["STUDIES_DIR"] = str(folder.parent)
    sync_studies(folder.parent)
    images = tmp_path / "images"
    images.mkdir()
    (images / "red.png").write_bytes(png("red"))
    (images / "blue.png").write_bytes(png("blue"))
    (images / "copy-of-red.png").write_bytes(png("red"))
    (images / "notes.txt").write_text("not an image")
    return images


def write_manifest(path: Path, rows):
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


GOOD = [
    {"image_id": "a", "photo": "red.png", "label": "tomato"},
    {"image_id": "b", "photo": "blue.png", "label": "sky"},
    {"image_id": "c", "photo": "copy-of-red.png", "label": "apple"},
]


def counts():
    return (
        db.session.scalar(db.select(func.count(Stimulus.id))),
        db.session.scalar(db.select(func.count(Asset.sha256))),
    )


def test_import_stores_stimuli_and_deduplicated_assets(runner, client, study, tmp_path):
    before = counts()
    result = runner.invoke(
        args=["stimuli", "import", "photos", str(write_manifest(tmp_path / "m.csv", GOOD)), "--images", str(study)]
    )
    assert result.exit_code == 0, result.output
    assert "3 new" in result.output and "2 distinct images (2 new)" in result.output
    assert counts() == (before[0] + 3, before[1] + 2)
    again = runner.invoke(args=["stimuli", "import", "photos", str(tmp_path / "m.csv"), "--images", str(study)])
    assert "3 unchanged" in again.output and counts() == (before[0] + 3, before[1] + 2)

    token = enter(client, slug="photos")
    item = client.get(f"/api/sessions/{token}").get_json()["plan"][0]
    image = client.get(item["stimulus_url"])
    assert image.status_code == 200 and image.mimetype == "image/png" and image.data == png("red")
    assert "immutable" in image.headers["Cache-Control"]
    sha = db.session.scalars(db.select(Stimulus.params).filter_by(key="a")).one()["photo"]
    cached = client.get(f"/assets/{sha}", headers={"If-None-Match": f'"{sha}"'})
    assert cached.status_code == 304
    assert client.get("/assets/" + "0" * 64).status_code == 404


def test_json_manifest_is_accepted(runner, study, tmp_path):
    (tmp_path / "m.json").write_text(json.dumps(GOOD[:2]))
    result = runner.invoke(args=["stimuli", "import", "photos", str(tmp_path / "m.json"), "--images", str(study)])
    assert result.exit_code == 0 and "2 new" in result.output


@pytest.mark.parametrize(
    "rows, expected",
    [
        ([{**GOOD[0], "photo": "missing.png"}], "row 1, column photo: file 'missing.png' not found"),
        ([GOOD[0], {**GOOD[1], "photo": "notes.txt"}], "row 2, column photo: file 'notes.txt' is not a PNG"),
        ([GOOD[0], {**GOOD[1], "photo": "../../etc/passwd"}], "row 2, column photo: '../../etc/passwd' is outside"),
        ([GOOD[0], {**GOOD[1], "image_id": "a"}], "row 2: stimulus id 'a' repeats row 1"),
        ([{**GOOD[0], "difficulty": "medium"}], "row 1, column difficulty: must be easy or hard"),
        ([{"image_id": "a", "photo": "red.png"}], "missing column 'label'"),
        ([{**GOOD[0], "colour": "red"}], "unknown column 'colour'"),
    ],
)
def test_bad_manifests_import_nothing(runner, study, tmp_path, rows, expected):
    before = counts()
    result = runner.invoke(
        args=["stimuli", "import", "photos", str(write_manifest(tmp_path / "m.csv", rows)), "--images", str(study)]
    )
    assert result.exit_code != 0
    assert expected in result.output and "nothing imported" in result.output
    assert counts() == before


def test_changed_stimulus_needs_replace(runner, study, tmp_path):
    runner.invoke(
        args=["stimuli", "import", "photos", str(write_manifest(tmp_path / "m.csv", GOOD)), "--images", str(study)]
    )
    changed = write_manifest(tmp_path / "m2.csv", [{**GOOD[0], "label": "cherry"}])
    refused = runner.invoke(args=["stimuli", "import", "photos", str(changed), "--images", str(study)])
    assert refused.exit_code != 0 and "use --replace" in refused.output
    replaced = runner.invoke(args=["stimuli", "import", "photos", str(changed), "--images", str(study), "--replace"])
    assert replaced.exit_code == 0 and "1 replaced" in replaced.output
    assert db.session.scalars(db.select(Stimulus.params).filter_by(key="a")).one()["label"] == "cherry"


def test_an_import_that_changes_stimuli_bumps_the_data_generation(runner, study, tmp_path):
    """Analyses read the stimuli (their true values): a stored result is stale after an import that changes them,
    not after one that changes nothing or is refused (tests/test_stored_results.py has the other changes)."""

    def generation():
        db.session.rollback()
        return current_generation(db.session.scalars(db.select(Study.id).filter_by(slug="photos")).one())

    manifest = str(write_manifest(tmp_path / "m.csv", GOOD))
    before = generation()
    assert runner.invoke(args=["stimuli", "import", "photos", manifest, "--images", str(study)]).exit_code == 0
    assert generation() == before + 1
    assert runner.invoke(args=["stimuli", "import", "photos", manifest, "--images", str(study)]).exit_code == 0
    assert generation() == before + 1  # unchanged
    changed = str(write_manifest(tmp_path / "m2.csv", [{**GOOD[0], "label": "cherry"}]))
    assert runner.invoke(args=["stimuli", "import", "photos", changed, "--images", str(study)]).exit_code != 0
    assert generation() == before + 1  # refused: nothing written
    assert (
        runner.invoke(args=["stimuli", "import", "photos", changed, "--images", str(study), "--replace"]).exit_code == 0
    )
    assert generation() == before + 2


def test_generated_stimuli_cannot_be_imported_and_empty_study_is_not_ready(runner, client, study, tmp_path):
    result = runner.invoke(
        args=["stimuli", "import", "study3", str(write_manifest(tmp_path / "m.csv", GOOD)), "--images", str(study)]
    )
    assert result.exit_code != 0 and "generates its own stimuli" in result.output


def test_stimuli_export_writes_imported_images(runner, study, tmp_path):
    runner.invoke(
        args=["stimuli", "import", "photos", str(write_manifest(tmp_path / "m.csv", GOOD)), "--images", str(study)]
    )
    out = tmp_path / "out"
    assert runner.invoke(args=["stimuli", "export", "photos", "--out", str(out)]).exit_code == 0
    rows = list(csv.DictReader(open(out / "manifest.csv")))
    assert [r["label"] for r in rows] == ["tomato", "sky", "apple"]
    assert (out / rows[1]["file"]).read_bytes() == png("blue")
