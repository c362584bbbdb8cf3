"""The sketch-recognition task type: manifest import (good and bad, all or nothing), the demo study, plans,
response validation through the participant API, scoring by unique id and by label, and the trials export."""

import csv
import io
import uuid

import pytest
from PIL import Image
from sqlalchemy import func

from server.db import db
from server.exceptions import ConfigError
from server.models import Stimulus, Trial
from server.studies.definitions import get_study
from server.tasks.sketch_recognition import SketchRecognition
from tests.helpers import answer_surveys, enter

TASK = SketchRecognition()


def png():
    out = io.BytesIO()
    Image.new("RGB", (16, 16), "white").save(out, "PNG")
    return out.getvalue()


@pytest.fixture
def images(tmp_path):
    folder = tmp_path / "sketches"
    folder.mkdir()
    (folder / "a.png").write_bytes(png())
    (folder / "b.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0L9 9"/></svg>'
    )
    (folder / "c.gif").write_bytes(b"GIF89a" + b"\0" * 20)
    return folder


def write(path, rows):
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


GOOD = [
    {
        "sketch_id": "bat-4s",
        "image": "a.png",
        "concept": "bat2",
        "abstraction_level": "4",
        "producer": "human",
        "catch": "",
    },
    {
        "sketch_id": "bat-clipasso-8",
        "image": "b.svg",
        "concept": "bat2",
        "abstraction_level": "8",
        "producer": "clipasso",
        "catch": "false",
    },
    {
        "sketch_id": "cup-32s",
        "image": "a.png",
        "concept": "cup",
        "abstraction_level": "32",
        "producer": "human",
        "catch": "true",
    },
]


def n_stimuli():
    return db.session.scalar(db.select(func.count(Stimulus.id)).where(Stimulus.study_id == get_study("sketch-demo").id))


def test_demo_study_is_generated_on_sync(app):
    stimuli = db.session.scalars(db.select(Stimulus).filter_by(study_id=get_study("sketch-demo").id)).all()
    assert len(stimuli) == 37  # 6 concepts × 3 stroke counts × 2 producers + 1 catch
    assert {s.params["producer"] for s in stimuli} == {"human", "demo-model"}
    assert {s.params["abstraction_level"] for s in stimuli} == {2, 4, 8}
    assert sum(s.params["catch"] for s in stimuli) == 1


def test_good_manifest_imports_png_and_svg(runner, images, tmp_path):
    before = n_stimuli()
    result = runner.invoke(
        args=["stimuli", "import", "sketch-demo", str(write(tmp_path / "m.csv", GOOD)), "--images", str(images)]
    )
    assert result.exit_code == 0, result.output
    assert n_stimuli() == before + 3
    params = db.session.scalars(db.select(Stimulus.params).filter_by(key="bat-clipasso-8")).one()
    assert params["concept"] == "bat2" and params["concept_label"] == "bat" and params["abstraction_level"] == 8
    assert params["producer"] == "clipasso" and params["catch"] is False
    assert db.session.scalars(db.select(Stimulus.params).filter_by(key="cup-32s")).one()["catch"] is True


@pytest.mark.parametrize(
    "change, expected",
    [
        (
            {"concept": "bat"},
            "row 2, column concept: 'bat' is not a unique id of the vocabulary things (built in) "
            "(the label 'bat' has the unique ids bat1, bat2)",
        ),
        ({"concept": "unicorn"}, "row 2, column concept: 'unicorn' is not a unique id"),
        ({"abstraction_level": "fast"}, "row 2, column abstraction_level: 'fast' is not a positive number"),
        ({"abstraction_level": "-4"}, "row 2, column abstraction_level: '-4' is not a positive number"),
        ({"producer": ""}, "row 2, column producer: required"),
        ({"catch": "maybe"}, "row 2, column catch: 'maybe' must be true or false"),
        ({"image": "c.gif"}, "row 2, column image: 'c.gif' is image/gif; sketches are PNG or SVG"),
        ({"image": "missing.png"}, "row 2, column image: file 'missing.png' not found"),
        ({"sketch_id": "a/b"}, "row 2, column sketch_id: 'a/b' is not a valid id"),
    ],
)
def test_bad_rows_import_nothing(runner, images, tmp_path, change, expected):
    before = n_stimuli()
    rows = [GOOD[0], {**GOOD[1], **change}, GOOD[2]]
    result = runner.invoke(
        args=["stimuli", "import", "sketch-demo", str(write(tmp_path / "m.csv", rows)), "--images", str(images)]
    )
    assert result.exit_code != 0 and "nothing imported" in result.output
    assert expected in result.output
    assert n_stimuli() == before


def test_plan_spreads_concepts_and_puts_catch_trials_after_the_first():
    import random

    from server.tasktype import vocabulary
    from server.tasktype.contract import StimulusSpec

    concepts = ["apple", "bat1", "cup", "drum"]
    stimuli = [StimulusSpec(f"{c}-{i}", {"concept": c, "catch": False}) for c in concepts for i in range(3)]
    stimuli.append(StimulusSpec("catch", {"concept": "apple", "catch": True}))
    things = vocabulary.load_file(vocabulary.BUILTIN_FILE)
    params = {"trials": 4, "catch_trials": 1, "vocabulary": "things", "vocabulary_sha256": things.sha256}
    for seed in range(20):
        plan = TASK.build_plan_from(params, stimuli, random.Random(seed))
        keys = [p.stimulus_id for p in plan]
        assert len(keys) == 5 and keys[0] != "catch" and "catch" in keys
        assert sorted(k.rsplit("-", 1)[0] for k in keys if k != "catch") == concepts  # 4 trials: one per concept
    with pytest.raises(ConfigError, match="1 sketch\\(es\\) show concepts outside the vocabulary"):
        TASK.build_plan_from(
            params, [*stimuli, StimulusSpec("x", {"concept": "unicorn", "catch": False})], random.Random(0)
        )


def guess(*ids, rt=1000):
    return {"guesses": [{"label_id": i, "rt_ms": rt + 500 * n} for n, i in enumerate(ids)]}


@pytest.mark.parametrize(
    "response, field",
    [
        ({"guesses": []}, "response.guesses"),
        (guess("cup", "mug", "bowl", "plate"), "response.guesses"),
        (guess("unicorn"), "response.guesses[0].label_id"),
        (guess("cup", "bat"), "response.guesses[1].label_id"),  # a label, not a unique id
        (guess("cup", "cup"), "response.guesses[1].label_id"),
        ({"guesses": [{"label_id": "cup", "rt_ms": -1}]}, "response.guesses[0].rt_ms"),
        ({"guesses": [{"label_id": "cup"}]}, "response.guesses[0]"),
        ({"guesses": [{"label_id": "cup", "rt_ms": 5}], "extra": 1}, "response"),
        ("cup", "response"),
    ],
)
def test_invalid_responses_are_refused_and_nothing_is_stored(app, client, response, field):
    token = enter(client, slug="sketch-demo")
    answer_surveys(client, token)
    item = client.get(f"/api/sessions/{token}").get_json()["plan"][0]
    reply = client.post(
        f"/api/sessions/{token}/trials",
        json={
            "trial_id": str(uuid.uuid4()),
            "trial_index": 0,
            "stimulus_id": item["stimulus_id"],
            "response": response,
            "rt_ms": 5000,
        },
    )
    assert reply.status_code == 422 and reply.get_json()["field"] == field
    assert db.session.scalar(db.select(func.count(Trial.id))) == 0


def stimulus(concept="bat2", label="bat", catch=False):
    return {"concept": concept, "concept_label": label, "catch": catch}


def scored(stim, *ids):
    return TASK.score(stim, TASK.validate_response(guess(*ids), {}, {}))


def test_scoring_by_unique_id_and_by_label():
    assert scored(stimulus(), "bat2") == {
        "top1": True,
        "top3": True,
        "top1_label": True,
        "top3_label": True,
        "catch": False,
        "catch_failed": None,
    }
    # "bat" the animal for the club: wrong by unique id, right by label.
    assert scored(stimulus(), "bat1", "cup") == {
        "top1": False,
        "top3": False,
        "top1_label": True,
        "top3_label": True,
        "catch": False,
        "catch_failed": None,
    }
    assert scored(stimulus(), "cup", "mug", "bat2") == {
        "top1": False,
        "top3": True,
        "top1_label": False,
        "top3_label": True,
        "catch": False,
        "catch_failed": None,
    }
    assert scored(stimulus("cup", "cup", catch=True), "mug")["catch_failed"] is True
    assert scored(stimulus("cup", "cup", catch=True), "mug", "cup")["catch_failed"] is False


def test_summary_counts_top1_without_catch_trials():
    own = [{"top1": True, "catch": False}, {"top1": False, "catch": False}, {"top1": False, "catch": True}]
    cohort = [[{"top1": True, "catch": False}], [{"top1": False, "catch": False}], []]
    summary = TASK.summarise(own, cohort)
    assert summary["top1_percent"] == 50 and summary["cohort_size"] == 2 and summary["cohort_median"] == 50


def test_trials_are_stored_once_and_exported_with_ranked_guesses(app, client, runner, tmp_path):
    token = enter(client, slug="sketch-demo")
    answer_surveys(client, token)
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    params = {s.key: s.params for s in db.session.scalars(db.select(Stimulus))}
    for item in plan:
        concept = params[item["stimulus_id"]]["concept"]
        body = {
            "trial_id": f"trial-{item['index']:04d}",
            "trial_index": item["index"],
            "stimulus_id": item["stimulus_id"],
            "response": guess("bat1", concept, "cup" if concept != "cup" else "mug"),
            "rt_ms": 4000,
        }
        assert client.post(f"/api/sessions/{token}/trials", json=body).status_code == 201
        assert client.post(f"/api/sessions/{token}/trials", json=body).status_code == 200  # a retry: stored once
    assert client.post(f"/api/sessions/{token}/complete").status_code == 200
    assert db.session.scalar(db.select(func.count(Trial.id))) == len(plan) == 9
    result = runner.invoke(args=["export", "sketch-demo", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(open(tmp_path / "trials.csv")))
    assert len(rows) == 9
    row = rows[0]
    assert (row["guess_1"], row["guess_1_label"], row["guess_1_rt_ms"], row["guess_2_rt_ms"]) == (
        "bat1",
        "bat",
        "1000",
        "1500",
    )
    assert row["guess_2"] == params[row["stimulus_id"]]["concept"]
    assert (row["top1_correct"], row["top3_correct"], row["n_guesses"]) == ("False", "True", "3")
    summary = client.get(f"/api/sessions/{token}/summary").get_json()
    assert summary["top1_percent"] == 0
