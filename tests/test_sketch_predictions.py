"""`flask import-label-predictions`: top-k labels and class probabilities for a sketch study's sketches, all or
nothing, every problem named by column and row."""

import pytest
from sqlalchemy import func

from server.db import db
from server.models import LabelPrediction, ModelRun, current_generation
from server.studies.definitions import get_study


def write(path, text):
    path.write_text(text)
    return path


def stored():
    return [
        (p.rank, p.label_id, p.probability)
        for p in db.session.scalars(
            db.select(LabelPrediction).order_by(LabelPrediction.stimulus_id, LabelPrediction.rank)
        )
    ]


def generation():
    """The sketch study's data generation: an import bumps it, a refused one does not (tests/test_stored_results.py)."""
    db.session.rollback()
    return current_generation(get_study("sketch-demo").id)


def run(runner, path, *args):
    return runner.invoke(args=["import-label-predictions", "sketch-demo", str(path), "--observer", "clip", *args])


def test_top_k_labels_import(runner, tmp_path):
    path = write(
        tmp_path / "p.csv", "stimulus_id,label_id,rank\ncup-human-2,cup,1\ncup-human-2,bat2,2\nfish-human-8,fish,1\n"
    )
    before = generation()
    result = run(runner, path)
    assert result.exit_code == 0, result.output
    assert generation() == before + 1
    assert "imported 3 ranked labels for clip (1 run(s))" in result.output
    assert sorted(stored()) == [(1, "cup", None), (1, "fish", None), (2, "bat2", None)]
    model_run = db.session.scalars(db.select(ModelRun)).one()
    assert (model_run.unit, model_run.n_predictions) == ("labels", 3)


def test_probabilities_are_ranked_and_top_k_kept(runner, tmp_path):
    path = write(
        tmp_path / "p.csv",
        "stimulus_id,label_id,probability,run\ncup-human-2,mug,0.2,3\ncup-human-2,cup,0.7,3\ncup-human-2,bowl,0.1,3\n",
    )
    assert run(runner, path, "--top-k", "2").exit_code == 0
    assert stored() == [(1, "cup", 0.7), (2, "mug", 0.2)]
    assert db.session.scalars(db.select(ModelRun.run)).one() == 3
    again = run(runner, path)
    assert again.exit_code != 0 and "imported before" in again.output and "--replace" in again.output
    assert run(runner, path, "--replace").exit_code == 0
    assert len(stored()) == 3 and db.session.scalar(db.select(func.count(ModelRun.id))) == 1


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "stimulus_id,label_id,rank\ncup-human-2,cup,1\nnope,cup,1\n",
            "column stimulus_id: not a stimulus of sketch-demo (e.g. 'nope'): row 2",
        ),
        ("stimulus_id,label_id,rank\ncup-human-2,bat,1\n", "column label_id: not a unique id of the vocabulary"),
        ("stimulus_id,label_id,rank\ncup-human-2,cup,0\n", "column rank: not a whole number"),
        ("stimulus_id,label_id,probability\ncup-human-2,cup,1.5\n", "column probability: not a number from 0 to 1"),
        (
            "stimulus_id,label_id,rank\ncup-human-2,cup,1\ncup-human-2,cup,2\n",
            "column label_id: repeats an earlier row",
        ),
        ("stimulus_id,label_id,rank\ncup-human-2,cup,1\ncup-human-2,mug,1\n", "column rank: repeats an earlier row"),
        ("stimulus_id,label_id,rank\ncup-human-2,cup,1\ncup-human-2,mug,3\n", "ranks of this row's sketch are not 1…k"),
        ("stimulus_id,label_id\ncup-human-2,cup\n", "a rank or a probability column is needed"),
        ("stimulus_id,label,rank\ncup-human-2,cup,1\n", "missing column(s): label_id"),
        ("stimulus_id,label_id,rank\n", "the file has no rows"),
    ],
)
def test_bad_files_import_nothing(runner, tmp_path, text, expected):
    before = generation()
    result = run(runner, write(tmp_path / "p.csv", text))
    assert generation() == before
    assert result.exit_code != 0 and "nothing imported" in result.output
    assert expected in result.output
    assert stored() == [] and db.session.scalar(db.select(func.count(ModelRun.id))) == 0


def test_study_without_vocabulary_is_refused(runner, tmp_path):
    path = write(tmp_path / "p.csv", "stimulus_id,label_id,rank\nx,cup,1\n")
    result = runner.invoke(args=["import-label-predictions", "study3", str(path), "--observer", "clip"])
    assert result.exit_code != 0 and "has no label vocabulary" in result.output
