"""`flask export SLUG --package DIR` (issue #26 item 5): every demo study, given a few sessions through the JSON API,
exports a data package that frictionless validates with no error; the same data give the same bytes apart from the
one creation time; a package that cannot be written as asked is refused with nothing written."""

from __future__ import annotations

import csv
import hashlib
import json
import random
import shutil
import subprocess
import uuid
import zipfile
from datetime import UTC, datetime

from flask import Flask
from frictionless import Package

from server.config import load
from server.db import db
from server.models import ParticipantSession, Study
from server.studies.definitions import get_study
from server.studies.surveys import SURVEYS
from tests.conftest import ROOT
from tests.helpers import PROLIFIC, enter, take_study3_like_people, trial_body
from tests.test_fuzz_api import VALID_ANSWER, valid_response, vocabulary_of

FORMULA = "=1+2"


def some_sessions(client, slug):
    """Two sessions of a demo study: one from Prolific that answered its questionnaires (a formula for text) and two
    trials, one that declined consent; whether the study asks a text question."""
    token = enter(client, slug, **PROLIFIC)
    state = client.get(f"/api/sessions/{token}").get_json()
    for name in state["surveys"]:
        answers = {
            f["name"]: FORMULA if f["type"] == "text" else VALID_ANSWER[f["type"]](f) for f in SURVEYS[name]["fields"]
        }
        assert client.put(f"/api/sessions/{token}/surveys/{name}", json={"answers": answers}).status_code == 200
    plan = state["plan"]
    if plan:
        vocabulary = vocabulary_of(client, slug)
        for item in plan[:2]:
            body = {**trial_body(item), "response": valid_response(slug, item, vocabulary)}
            assert client.post(f"/api/sessions/{token}/trials", json=body).status_code == 201
    else:  # a researcher's jsPsych experiment: rows of its own
        for n in range(2):
            row = {"trial_type": "html-keyboard-response", "trial_index": n, "rt": 700 + n, "task": "search"}
            body = {"trial_id": str(uuid.uuid4()), "row": row}
            assert client.post(f"/api/sessions/{token}/rows", json=body).status_code == 201
    enter(client, slug, consent=False)
    return any(f["type"] == "text" for name in state["surveys"] for f in SURVEYS[name]["fields"])


def export(runner, slug, folder, *options):
    result = runner.invoke(args=["export", slug, "--package", str(folder), *options])
    assert result.exit_code == 0, result.output
    return result.output


def test_every_demo_study_exports_a_package_frictionless_finds_valid(app, client, runner, tmp_path):
    take_study3_like_people(client, random.Random(1))  # one study with an analysis
    slugs = db.session.scalars(db.select(Study.slug).order_by(Study.slug)).all()
    assert len(slugs) >= 8
    for slug in slugs:
        asks_text = some_sessions(client, slug)
        folder = tmp_path / slug
        output = export(runner, slug, folder, "--license", "CC0-1.0", "--with-stimuli")
        report = Package(str(folder / "datapackage.json")).validate()
        assert report.valid, (slug, report.flatten(["rowNumber", "fieldName", "type", "note"]))

        descriptor = json.loads((folder / "datapackage.json").read_text())
        assert descriptor["profile"] == "tabular-data-package"
        assert descriptor["licenses"][0]["name"] == "CC0-1.0"
        names = [r["path"] for r in descriptor["resources"]]
        assert names[:4] == ["data/participants.csv", "data/trials.csv", "data/events.csv", "data/codebook.csv"]
        participants = descriptor["resources"][0]["schema"]["fields"]
        gender = next(f for f in participants if f["name"] == "gender") if slug == "study3" else None
        if gender:  # the questionnaire's choices are the column's enum
            assert "prefer_not_to_say" in gender["constraints"]["enum"]
        if slug == "hive-distinction":  # the forms the tradeoff question has had (issue #39)
            form = next(f for f in participants if f["name"] == "hive_tradeoff_revision")
            assert (form["type"], form["constraints"]["minimum"], form["constraints"]["maximum"]) == ("integer", 1, 2)
        if asks_text:  # as the export writes it
            assert "'" + FORMULA in (folder / "data" / "participants.csv").read_text()
        assert "leading '" in descriptor["csv_neutralisation"]
        assert list((folder / "study").glob("version-*.json"))
        if (folder / "stimuli").exists():  # every file the manifest names is there, with that hash
            for stimulus in json.loads((folder / "stimuli" / "manifest.json").read_text()):
                for file in [stimulus["shown"], *stimulus["files"]]:
                    data = (folder / "stimuli" / file["file"]).read_bytes()
                    assert hashlib.sha256(data).hexdigest() == file["sha256"]
        else:
            assert slug == "visual-search"  # a jsPsych experiment's files are its own

        config = get_study(slug).config
        codes = [*((config.get("prolific") or {}).get("codes") or {}).values()]
        codes += [config["completion_url"].rsplit("cc=", 1)[-1]] if config.get("completion_url") else []
        for path in folder.rglob("*"):  # pseudonymous, and no completion code anyone could claim on Prolific with
            if path.is_file():
                data = path.read_bytes()
                assert not any(v.encode() in data for v in [*PROLIFIC.values(), *codes]), (slug, path)
        readme = (folder / "README.md").read_text()
        assert f"Sessions: {3 if slug == 'study3' else 2} " in readme
        assert "License: CC0-1.0" in readme
        assert descriptor["studyhive"]["studyhive_commit"] == app.config["COMMIT"] and app.config["COMMIT"] in readme
        analysed = (folder / "analysis" / "methods.md").exists()
        assert analysed == ("No analysis:" not in readme) == ("no analysis" not in output)
    assert (tmp_path / "study3" / "analysis" / "report.json").exists()
    resources = json.loads((tmp_path / "study3" / "datapackage.json").read_text())["resources"]
    assert any(r["path"].startswith("analysis/") for r in resources)


def test_the_same_data_give_the_same_bytes_apart_from_the_creation_time(app, client, runner, tmp_path):
    take_study3_like_people(client, random.Random(2))
    take_study3_like_people(client, random.Random(3))
    some_sessions(client, "study3")
    excluded = runner.invoke(args=["participants", "exclude", "study3", "2", "--reason", "same person twice"])
    assert excluded.exit_code == 0, excluded.output
    withdrawn = db.session.get(ParticipantSession, 4)  # a tombstone, as `flask participants withdraw` leaves it
    withdrawn.status, withdrawn.withdrawn_at = "withdrawn", datetime(2026, 11, 1, tzinfo=UTC)
    db.session.commit()
    for n in (1, 2):
        export(runner, "study3", tmp_path / f"p{n}", "--zip", "--with-stimuli")

    def files(folder):
        return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}

    first, second = files(tmp_path / "p1"), files(tmp_path / "p2")
    readme = first["README.md"].decode()
    assert "- same person twice: 1" in readme and "- completed: 1" in readme and "- excluded: 1" in readme
    assert "Sessions: 4 " in readme and readme.count("withdrawn") == 1 and "request): 1" in readme
    assert any(name.startswith("stimuli/files/") for name in first)
    assert any(name.startswith("analysis/") and name.endswith(".png") for name in first)
    descriptors = [json.loads(f.pop("datapackage.json")) for f in (first, second)]
    assert first == second
    for d in descriptors:
        del d["created"]
    assert descriptors[0] == descriptors[1]

    zips = [zipfile.ZipFile(tmp_path / f"p{n}.zip") for n in (1, 2)]
    entries = [[(i.filename, i.date_time, i.external_attr) for i in z.infolist()] for z in zips]
    assert entries[0] == entries[1] == sorted(entries[0])
    assert all(date == (1980, 1, 1, 0, 0, 0) and mode == 0o644 << 16 for _, date, mode in entries[0])
    assert {n: zips[0].read(n) for n, *_ in entries[0] if n != "datapackage.json"} == {
        n: zips[1].read(n) for n, *_ in entries[1] if n != "datapackage.json"
    }
    assert Package(str(tmp_path / "p1.zip")).validate().valid


def test_packages_name_one_person_by_codes_of_each_study_and_exports_by_one_code(app, client, runner, tmp_path):
    """The same Prolific id in study3 and hive-distinction: the two exports give it one participant_code (the lab's
    returning-participant check), the two packages two codes that match neither export's nor each other."""
    codes = {}
    for slug in ("study3", "hive-distinction"):
        some_sessions(client, slug)
        for kind in ("out", "package"):
            result = runner.invoke(args=["export", slug, f"--{kind}", str(tmp_path / f"{slug}-{kind}")])
            assert result.exit_code == 0, result.output
            folder = tmp_path / f"{slug}-{kind}" / ("data" if kind == "package" else "")
            with open(folder / "participants.csv", newline="", encoding="utf-8") as fh:
                rows = list(csv.DictReader(fh))
            codes[slug, kind] = rows[0]["participant_code"]  # the Prolific session (some_sessions enters it first)
            assert len({r["participant_code"] for r in rows}) == len(rows) == 2
            with open(folder / "trials.csv", newline="", encoding="utf-8") as fh:
                assert {r["participant_code"] for r in csv.DictReader(fh)} == {codes[slug, kind]}
            with open(folder / "codebook.csv", newline="", encoding="utf-8") as fh:
                described = next(r["description"] for r in csv.DictReader(fh) if r["column"] == "participant_code")
            assert ("another code in every other study" in described) == (kind == "package")
    assert codes["study3", "out"] == codes["hive-distinction", "out"]
    assert len({codes["study3", "out"], codes["study3", "package"], codes["hive-distinction", "package"]}) == 3
    assert all(len(code) == 16 and int(code, 16) >= 0 for code in codes.values())


def test_a_package_that_cannot_be_written_as_asked_is_refused_and_writes_nothing(app, runner, tmp_path, monkeypatch):
    tmp_path = tmp_path / "out"
    used = tmp_path / "used"
    used.mkdir(parents=True)
    (used / "old.txt").write_text("keep")
    refused = runner.invoke(args=["export", "study3", "--package", str(used)])
    assert refused.exit_code == 1 and "not an empty folder" in refused.output
    assert [p.name for p in used.iterdir()] == ["old.txt"]

    for args, message in (
        (["--out", str(tmp_path / "a"), "--package", str(tmp_path / "b")], "one of --out DIR"),
        ([], "one of --out DIR"),
        (["--out", str(tmp_path / "a"), "--zip", "--with-stimuli"], "--zip, --with-stimuli: only with --package"),
        (["--package", str(tmp_path / "b"), "--license", "MIT"], "Invalid value for '--license'"),
    ):
        result = runner.invoke(args=["export", "study3", *args])
        assert result.exit_code == 2 and message in result.output, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["used"]

    empty = tmp_path / "empty"  # a study nobody has taken: header-only CSVs, no analysis, still valid
    assert runner.invoke(args=["export", "sketch-demo", "--package", str(empty)]).exit_code == 0
    assert Package(str(empty / "datapackage.json")).validate().valid
    assert "No analysis: " in (empty / "README.md").read_text()
    shutil.rmtree(empty)

    def fails(*args):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr("server.results.package._analysis", fails)  # after the CSVs, before the descriptor
    failed = runner.invoke(args=["export", "study3", "--package", str(tmp_path / "new"), "--zip"])
    assert isinstance(failed.exception, RuntimeError)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["used"]  # no folder, no staging folder, no zip


def test_the_commit_comes_from_the_image_else_the_checkout(tmp_path, monkeypatch):
    """COMMIT: the environment's STUDYHIVE_COMMIT (the Docker image's build argument), else `git rev-parse HEAD`."""
    monkeypatch.delenv("STUDYHIVE_COMMIT", raising=False)
    checkout = Flask("commit_test", instance_path=str(tmp_path))
    load(checkout, {})
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    assert checkout.config["COMMIT"] == (head or "unknown")
    monkeypatch.setenv("STUDYHIVE_COMMIT", "0123abc")
    image = Flask("commit_test", instance_path=str(tmp_path))
    load(image, {})
    assert image.config["COMMIT"] == "0123abc"
