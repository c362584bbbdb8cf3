"""Vocabularies of sketch-recognition studies: the built-in THINGS list, other files, repeated labels shown apart,
repeated unique ids refused with the row named, and the cached endpoint pages load them from."""

import shutil

import pytest

from server.studies.definitions import StudyFileError, sync_studies
from server.tasktype import vocabulary as vocab


def parse(text, name="labels.tsv"):
    return vocab.parse(text.encode(), name)


def test_builtin_things_list_has_1854_unique_ids_and_tells_homonyms_apart():
    things = vocab.load_file(vocab.BUILTIN_FILE)
    assert len(things) == 1854 and len({e.unique_id for e in things.entries}) == 1854
    assert things.get("bat1").display == "bat (animal)" and things.get("bat2").display == "bat (sports equipment)"
    # Categories that do not tell namesakes apart add the unique id; unique labels show as they are.
    assert things.get("rack1").display == "rack (furniture, rack1)"
    assert things.get("bow1").display == "bow (bow1)" and things.get("bow2").display == "bow (weapon)"
    assert things.get("aardvark").display == "aardvark"
    assert len({e.display for e in things.entries}) == 1854


def test_repeated_labels_are_allowed_and_csv_works_too():
    v = parse("label,unique_id,category\nbat,bat1,animal\nbat,bat2,sports equipment\nmug,mug,\n", "x.csv")
    assert [e.display for e in v.entries] == ["bat (animal)", "bat (sports equipment)", "mug"]
    assert "bat2" in v and "bat" not in v


@pytest.mark.parametrize(
    "text, expected",
    [
        ("label\tunique_id\ncup\tcup\nmug\tcup\n", "row 2, column unique_id: 'cup' repeats row 1"),
        ("label\tunique_id\ncup\t\n", "row 1, column unique_id: empty"),
        ("label\tunique_id\n\tcup\n", "row 1, column label: empty"),
        ("label\tname\ncup\tcup\n", "missing column(s) unique_id"),
        ("label\tunique_id\n", "the file has no rows"),
    ],
)
def test_bad_vocabularies_are_refused_naming_the_row(text, expected):
    with pytest.raises(vocab.VocabularyError) as info:
        parse(text)
    assert expected in str(info.value) and "labels.tsv" in str(info.value)


def test_resolve_keeps_files_inside_the_studies_folder(tmp_path):
    assert vocab.resolve("things", tmp_path) == vocab.BUILTIN_FILE
    with pytest.raises(vocab.VocabularyError, match="outside the studies folder"):
        vocab.resolve("../secrets.tsv", tmp_path)


STUDY = """title = "Custom words"
task_type = "sketch-recognition"
consent = "<p>ok</p>"
flow = ["consent", "task"]
[task]
vocabulary = "words/labels.tsv"
"""


def make_study(app, tmp_path, labels):
    folder = tmp_path / "studies" / "words"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "study.toml").write_text(STUDY)
    (folder / "labels.tsv").write_text(labels)
    shutil.copytree(app.config["STUDIES_DIR"] + "/sketch-demo", tmp_path / "studies" / "sketch-demo")
    app.config["STUDIES_DIR"] = str(folder.parent)
    return folder


def test_study_vocabulary_file_is_served_cached_and_versions_the_study(app, client, tmp_path):
    folder = make_study(app, tmp_path, "label\tunique_id\tcategory\nbat\tbat1\tanimal\nbat\tbat2\tclub\n")
    sync_studies(folder.parent)
    response = client.get("/vocabulary/words.json")
    assert response.status_code == 200 and "public" in response.headers["Cache-Control"]
    body = response.get_json()
    assert body["entries"] == [["bat1", "bat", "bat (animal)"], ["bat2", "bat", "bat (club)"]]
    assert client.get("/vocabulary/words.json", headers={"If-None-Match": response.headers["ETag"]}).status_code == 304
    # Editing the file without a sync is refused rather than silently used; a sync makes a new study version.
    (folder / "labels.tsv").write_text("label\tunique_id\ncup\tcup\n")
    assert client.get("/vocabulary/words.json").status_code == 503
    assert "updated (version 2)" in dict(sync_studies(folder.parent))["words"]
    assert client.get("/vocabulary/words.json").get_json()["entries"] == [["cup", "cup", "cup"]]
    assert client.get("/vocabulary/study3.json").status_code == 404
    assert client.get("/vocabulary/nope.json").status_code == 404


def test_study_with_duplicate_unique_ids_does_not_sync(app, tmp_path):
    folder = make_study(app, tmp_path, "label\tunique_id\ncup\tcup\nmug\tmug\nbeaker\tcup\n")
    with pytest.raises(StudyFileError) as info:
        sync_studies(folder.parent)
    assert "task.vocabulary" in str(info.value) and "row 3, column unique_id: 'cup' repeats row 1" in str(info.value)
