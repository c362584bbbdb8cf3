"""The hypothesis-rating task (Two4Two-style): study parameters, manifest import, the grid and statement order of a
participant's plan, rating validation, idempotent storage with `presented`, the export, and `flask analyze` on a
simulated cohort against analysis.ratings."""

import csv
import io
import json
import random
import re
import uuid

import numpy as np
import pandas as pd
import pytest
from PIL import Image
from scipy import stats
from sqlalchemy import func

from analysis.ratings import agreement
from server.db import db
from server.exceptions import ConfigError, ResponseError
from server.models import Asset, ParticipantSession, Stimulus, Study, Trial
from server.tasks.hypothesis_rating import HypothesisRating
from server.tasks.hypothesis_rating.demo import demo_images, write_demo
from server.tasktype.contract import StimulusSpec
from tests.helpers import answer_surveys, enter

SLUG = "two4two-demo"
STATEMENTS = [{"id": "arms", "text": "Arms.", "relevant": True}, {"id": "bg", "text": "Background.", "relevant": False}]


def params(**overrides):
    return HypothesisRating().parse_params({"statements": STATEMENTS, **overrides})


def specs(scores, column=None):
    return [
        StimulusSpec(f"img-{i:03d}", {"image": "0" * 64, "score": s, "label": "x", "column": column})
        for i, s in enumerate(scores)
    ]


# --------------------------------------------------------------------------------------------------
# Parameters


def test_parameters_default_to_the_papers_30_by_5_grid():
    p = params()
    assert (p["rows"], p["columns"], p["sampling"]) == (30, 5, "fixed")
    assert p["statements"] == STATEMENTS


@pytest.mark.parametrize(
    "raw, message",
    [
        ({}, "task.statements: required"),
        ({"statements": []}, "task.statements: expected at least 1 item, got []"),
        ({"statements": [{"id": "a", "text": "x"}]}, "task.statements[1].relevant: required"),
        (
            {"statements": [{"id": "a", "text": "x", "relevant": "yes"}]},
            'task.statements[1].relevant: expected true or false, got "yes"',
        ),
        (
            {"statements": [STATEMENTS[0], STATEMENTS[0]]},
            "task.statements: statement 2's id 'arms' repeats statement 1's",
        ),
        (
            {"statements": [{"id": "Not ok!", "text": "x", "relevant": True}]},
            'task.statements[1].id: expected a short id (a–z, 0–9, - and _), got "Not ok!"',
        ),
        (
            {"statements": [{"id": "a", "text": " ", "relevant": True}]},
            'task.statements[1].text: expected text that is not blank, got " "',
        ),
        (
            {"statements": [{"id": "a", "text": "x", "relevant": True, "colour": 1}]},
            "task.statements[1].colour: unknown key",
        ),
        ({"statements": STATEMENTS, "rows": 0}, "task.rows: expected at least 1, got 0"),
        ({"statements": STATEMENTS, "columns": True}, "task.columns: expected an integer, got true"),
        (
            {"statements": STATEMENTS, "sampling": "random"},
            'task.sampling: expected one of "fixed" or "per-participant", got "random"',
        ),
        ({"statements": STATEMENTS, "score_edges": [0.2, 0.4]}, "task.score_edges: expected 4 increasing numbers"),
        (
            {"statements": STATEMENTS, "score_edges": [0.2, 0.4, 0.3, 0.8]},
            "task.score_edges: expected 4 increasing numbers",
        ),
        (
            {"statements": STATEMENTS, "column_labels": ["a"]},
            'task.column_labels: expected 5 texts, one per column, got ["a"]',
        ),
        (
            {"statements": STATEMENTS, "scale_labels": ["only one"]},
            'task.scale_labels: expected at least 2 items, got ["only one"]',
        ),
        ({"statements": STATEMENTS, "grid": 3}, "task.grid: unknown key"),
    ],
)
def test_bad_parameters_are_refused_with_the_key(raw, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        HypothesisRating().parse_params(raw)


# --------------------------------------------------------------------------------------------------
# The participant's grid and statement order


def test_grid_bins_by_score_rank_and_fixed_sampling_is_the_same_for_everyone():
    p = params(rows=3, columns=4)
    stimuli = specs(random.Random(1).sample([i / 100 for i in range(40)], 40))  # 10 images per quantile column
    score = {s.key: s.params["score"] for s in stimuli}
    plan = HypothesisRating().build_plan_from(p, stimuli, random.Random(1))
    grid = plan[0].extra["presented"]["grid"]
    assert [len(col) for col in grid] == [3, 3, 3, 3]
    # columns run from low to high score; within a column, higher scores higher up; fixed: ends of each bin
    for left, right in zip(grid, grid[1:]):
        assert max(score[k] for k in left) < min(score[k] for k in right)
    assert all([score[k] for k in col] == sorted((score[k] for k in col), reverse=True) for col in grid)
    assert [score[k] for k in grid[0]] == [0.09, 0.05, 0.0]  # ranks 0, 4 and 9 of the column's 10
    other = HypothesisRating().build_plan_from(p, stimuli, random.Random(99))
    assert other[0].extra["presented"]["grid"] == grid
    assert plan[0].extra["column_labels"] == ["0.00 – 0.09", "0.10 – 0.19", "0.20 – 0.29", "0.30 – 0.39"]


def test_per_participant_sampling_and_shuffled_statements_are_recorded():
    many = [{"id": f"s{i}", "text": f"Statement {i}.", "relevant": i % 2 == 0} for i in range(6)]
    p = HypothesisRating().parse_params({"statements": many, "rows": 2, "columns": 2, "sampling": "per-participant"})
    stimuli = specs([i / 20 for i in range(20)])
    plans = [HypothesisRating().build_plan_from(p, stimuli, random.Random(seed)) for seed in range(8)]
    grids = {json.dumps(plan[0].extra["presented"]["grid"]) for plan in plans}
    orders = {tuple(plan[0].extra["presented"]["statement_order"]) for plan in plans}
    assert len(grids) > 1 and len(orders) > 1
    for plan in plans:
        shown = plan[0].extra["presented"]
        assert sorted(shown["statement_order"]) == [s["id"] for s in many]
        assert [item.extra["presented"]["statement_id"] for item in plan] == shown["statement_order"]
        assert [item.extra["presented"]["statement_position"] for item in plan] == list(range(6))
        assert all(item.stimulus_id == shown["grid"][0][0] for item in plan)
        # the answer key never reaches the page
        assert "relevant" not in json.dumps([item.as_json() for item in plan])


def test_manifest_columns_and_score_edges_place_images():
    p = params(rows=1, columns=2, score_edges=[0.5])
    stimuli = specs([0.1, 0.2, 0.9]) + [
        StimulusSpec("pinned", {"image": "0" * 64, "score": 0.0, "label": "x", "column": 2})
    ]
    grid = HypothesisRating().build_plan_from(p, stimuli, random.Random(0))[0].extra["presented"]["grid"]
    assert grid == [["img-001"], ["img-002"]]  # fixed: the top score of each column
    labels = HypothesisRating().build_plan_from(p, stimuli, random.Random(0))[0].extra["column_labels"]
    assert labels == ["score < 0.5", "score ≥ 0.5"]


@pytest.mark.parametrize(
    "stimuli, message",
    [
        ([], "no images imported yet"),
        (specs([0.1] * 5), "grid column 1 holds 1 image(s), fewer than task.rows = 2"),
        (specs([0.1] * 20, column=7), "is in column 7, but the grid has 5 columns"),
    ],
)
def test_plans_that_cannot_be_made_name_the_reason(stimuli, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        HypothesisRating().build_plan_from(params(rows=2), stimuli, random.Random(0))


# --------------------------------------------------------------------------------------------------
# Ratings: 1-7 integers only


@pytest.mark.parametrize("good", [1, 4, 7])
def test_ratings_1_to_7_are_accepted_and_scored(good):
    task = HypothesisRating()
    assert task.validate_response({"rating": good}, {}, {}) == {"rating": good}
    assert task.score({}, {"rating": good}) == {"agree": good >= 5}


@pytest.mark.parametrize(
    "bad",
    [
        None,
        3,
        {"rating": 0},
        {"rating": 8},
        {"rating": 5.5},
        {"rating": 5.0},
        {"rating": "5"},
        {"rating": True},
        {"rating": None},
        {"rating": 5, "why": "x"},
    ],
)
def test_other_ratings_are_refused(bad):
    with pytest.raises(ResponseError):
        HypothesisRating().validate_response(bad, {}, {})


def test_summary_counts_agreements():
    summary = HypothesisRating().summarise([{"agree": True}, {"agree": False}, {"agree": True}], [[{"agree": 1}], []])
    assert summary["lines"] == ["You agreed with 2 of the 3 statements."] and summary["cohort_size"] == 1


# --------------------------------------------------------------------------------------------------
# Manifest import (the demo study already holds the drawn demo set)


def demo_counts(study_id):
    return (
        db.session.scalar(db.select(func.count(Stimulus.id)).filter_by(study_id=study_id)),
        db.session.scalar(db.select(func.count(Asset.sha256))),
    )


def test_demo_study_holds_the_drawn_images_and_reimport_changes_nothing(app, runner, client, tmp_path):
    study = db.session.scalars(db.select(Study).filter_by(slug=SLUG)).one()
    before = demo_counts(study.id)
    assert before[0] == 100
    labels = db.session.scalars(db.select(Stimulus.params).filter_by(study_id=study.id)).all()
    assert {p["label"] for p in labels} == {"peaky", "stretchy"}
    manifest = write_demo(tmp_path / "demo")
    result = runner.invoke(args=["stimuli", "import", SLUG, str(manifest), "--images", str(manifest.parent)])
    assert result.exit_code == 0 and "100 unchanged" in result.output
    assert demo_counts(study.id) == before
    token = enter(client, slug=SLUG)
    item = client.get(f"/api/sessions/{token}").get_json()["plan"][0]
    image = client.get(item["stimulus_url"])
    assert image.status_code == 200 and image.mimetype == "image/png"


def test_demo_images_plant_a_colour_bias_in_the_score():
    """The simulated model's score follows the class and, within each class, the animal's colour (redness)."""
    rows = []
    for row, png in demo_images():
        pixels = np.asarray(Image.open(io.BytesIO(png)).convert("HSV")).reshape(-1, 3)
        animal = pixels[pixels[:, 1] > 150]  # saturated pixels: the animal, not the pale background
        red = np.mean((animal[:, 0] > 200) | (animal[:, 0] < 15))
        rows.append((row["label"], float(row["score"]), red))
    df = pd.DataFrame(rows, columns=["label", "score", "red"])
    assert df.groupby("label")["score"].mean()["peaky"] > 0.7 > 0.3 > df.groupby("label")["score"].mean()["stretchy"]
    assert df.groupby("label")["red"].mean()["peaky"] > df.groupby("label")["red"].mean()["stretchy"]
    for _, group in df.groupby("label"):  # within a class, the colour still moves the score
        assert stats.spearmanr(group["red"], group["score"]).statistic > 0.2


def write_manifest(path, rows):
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


@pytest.mark.parametrize(
    "change, expected",
    [
        ({"score": "high"}, "row 2, column score: 'high' is not a number"),
        ({"score": "nan"}, "row 2, column score: the score must be a finite number"),
        ({"label": ""}, "row 2, column label: the image's class is required"),
        ({"column": "two"}, "row 2, column column: 'two' is not a column number"),
        ({"column": "0"}, "row 2, column column: columns are numbered from 1"),
        ({"file": "missing.png"}, "row 2, column file: file 'missing.png' not found"),
        ({"image_id": "a b"}, "row 2, column image_id: an id of letters"),
        ({"image_id": "peaky-000"}, "row 2: stimulus id 'peaky-000' repeats row 1"),
    ],
)
def test_bad_manifest_rows_are_named_and_nothing_is_written(app, runner, tmp_path, change, expected):
    study = db.session.scalars(db.select(Study).filter_by(slug=SLUG)).one()
    images = write_demo(tmp_path / "img").parent
    rows = [
        {"image_id": "new-1", "file": "peaky-000.png", "score": "0.5", "label": "peaky", "column": ""},
        {"image_id": "new-2", "file": "stretchy-001.png", "score": "0.4", "label": "stretchy", "column": "", **change},
    ]
    if change.get("image_id") == "peaky-000":
        rows[0]["image_id"] = "peaky-000"
    before = demo_counts(study.id)
    result = runner.invoke(
        args=["stimuli", "import", SLUG, str(write_manifest(tmp_path / "m.csv", rows)), "--images", str(images)]
    )
    assert result.exit_code != 0 and "nothing imported" in result.output
    assert expected in result.output
    assert demo_counts(study.id) == before


def test_a_good_manifest_with_columns_is_imported(app, runner, tmp_path):
    study = db.session.scalars(db.select(Study).filter_by(slug=SLUG)).one()
    images = write_demo(tmp_path / "img").parent
    rows = [
        {"image_id": "extra.1", "file": "peaky-000.png", "score": "-2.5", "label": "peaky", "column": "5"},
        {"image_id": "extra.2", "file": "stretchy-001.png", "score": "1e-3", "label": "stretchy", "column": ""},
    ]
    path = tmp_path / "m.json"
    path.write_text(json.dumps(rows))
    result = runner.invoke(args=["stimuli", "import", SLUG, str(path), "--images", str(images)])
    assert result.exit_code == 0 and "2 new" in result.output and "(0 new)" in result.output  # images known
    stored = dict(
        db.session.execute(
            db.select(Stimulus.key, Stimulus.params).filter(Stimulus.study_id == study.id, Stimulus.key.like("extra.%"))
        ).all()
    )
    assert {k: (p["score"], p["label"], p["column"]) for k, p in stored.items()} == {
        "extra.1": (-2.5, "peaky", 5),
        "extra.2": (0.001, "stretchy", None),
    }


def test_manifest_columns_are_checked(app, runner, tmp_path):
    images = write_demo(tmp_path / "img").parent
    rows = [{"image_id": "n", "file": "peaky-000.png", "model_score": "0.5", "label": "peaky"}]
    result = runner.invoke(
        args=["stimuli", "import", SLUG, str(write_manifest(tmp_path / "m.csv", rows)), "--images", str(images)]
    )
    assert result.exit_code != 0
    assert "missing column 'score'" in result.output and "unknown column 'model_score'" in result.output


# --------------------------------------------------------------------------------------------------
# Storage through the API, export, and flask analyze


def rate(client, token, item, rating, trial_id=None):
    return client.post(
        f"/api/sessions/{token}/trials",
        json={
            "trial_id": trial_id or str(uuid.uuid4()),
            "trial_index": item["index"],
            "stimulus_id": item["stimulus_id"],
            "response": {"rating": rating},
            "rt_ms": 2000,
            "client_time": "2026-11-22T12:00:00+00:00",
        },
    )


def test_ratings_are_stored_once_with_what_was_shown(app, client, runner, tmp_path):
    token = enter(client, slug=SLUG)
    answer_surveys(client, token)
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    assert len(plan) == 5 and [len(col) for col in plan[0]["presented"]["grid"]] == [8] * 5
    for bad in (0, 8, 4.5, "6"):
        response = rate(client, token, plan[0], bad)
        assert response.status_code == 422 and response.get_json()["field"] == "response.rating"
    trial_id = str(uuid.uuid4())
    assert rate(client, token, plan[0], 6, trial_id).status_code == 201
    repeat = rate(client, token, plan[0], 6, trial_id)
    assert repeat.status_code == 200 and repeat.get_json()["duplicate"]
    assert rate(client, token, plan[0], 2).status_code == 409  # a second answer to the same statement
    for item in plan[1:]:
        assert rate(client, token, item, 3).status_code == 201
    assert client.post(f"/api/sessions/{token}/complete").status_code == 200
    trials = db.session.scalars(db.select(Trial).order_by(Trial.trial_index)).all()
    assert [t.response["rating"] for t in trials] == [6, 3, 3, 3, 3]
    assert [t.presented for t in trials] == [item["presented"] for item in plan]

    assert runner.invoke(args=["export", SLUG, "--out", str(tmp_path)]).exit_code == 0
    with open(tmp_path / "trials.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["statement_id"], r["statement_position"], r["rating"], r["agree"]) for r in rows] == [
        (item["presented"]["statement_id"], str(i), str(rating), str(int(rating >= 5)))
        for i, (item, rating) in enumerate(zip(plan, [6, 3, 3, 3, 3]))
    ]


RELEVANT = {"arms": True, "colour": True, "background": False, "blocks": False, "rotation": False}


@pytest.fixture
def cohort(app, client):
    """12 completed participants whose ratings are known (relevant statements rated higher, with noise), one who
    stopped after two ratings (left out), returned as a tidy frame of the completed ratings."""
    rng = np.random.default_rng(3)
    rows = []
    for person in range(13):
        token = enter(client, slug=SLUG)
        answer_surveys(client, token)
        plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
        for item in plan[:2] if person == 12 else plan:
            statement = item["presented"]["statement_id"]
            rating = int(np.clip(round(rng.normal(5.2 if RELEVANT[statement] else 3.0, 1.4)), 1, 7))
            assert rate(client, token, item, rating).status_code == 201
            if person < 12:
                rows.append({"token": token, "statement_id": statement, "rating": rating})
        if person < 12:
            assert client.post(f"/api/sessions/{token}/complete").status_code == 200
    return pd.DataFrame(rows)


def test_flask_analyze_reports_the_simulated_cohort(cohort, runner, tmp_path):
    result = runner.invoke(
        args=["analyze", SLUG, "--format", "json", "--n-boot", "500", "--seed", "4", "--out", str(tmp_path / "out")]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["meta"]["n_participants"] == 12 and report["meta"]["n_ratings"] == 60
    assert report["meta"]["recruited"] == 13
    statements = {r["statement"]: r for r in report["statements"]}
    assert list(statements) == list(RELEVANT)  # the study file's order
    for key, group in cohort.groupby("statement_id"):
        row = statements[key]
        assert row["relevant"] == RELEVANT[key] and row["n_ratings"] == 12
        assert row["percent_agree"] == pytest.approx(100 * (group["rating"] >= 5).mean())
        assert row["mean_rating"] == pytest.approx(group["rating"].mean())
        assert row["ci_low"] <= row["percent_agree"] <= row["ci_high"]
    # the paired test: each participant's mean over relevant vs irrelevant statements, against scipy
    means = (
        cohort.assign(relevant=cohort["statement_id"].map(RELEVANT))
        .groupby(["token", "relevant"])["rating"]
        .mean()
        .unstack()
    )
    expected = stats.ttest_rel(means[True], means[False])
    test = report["test"][0]
    assert test["n"] == 12 and test["dof"] == 11
    assert test["t"] == pytest.approx(expected.statistic) and test["p_val"] == pytest.approx(expected.pvalue)
    assert test["estimate"] == pytest.approx((means[True] - means[False]).mean()) and test["estimate"] > 1
    assert len(report["distribution"]) == 5 * 7
    # the same intervals as the analysis function given the same seed (participants resampled)
    ids = dict(db.session.execute(db.select(ParticipantSession.token, ParticipantSession.id)).all())
    frame = cohort.assign(participant_id=cohort["token"].map(ids))
    direct = agreement(frame, n_boot=500, seed=4).set_index("statement")
    assert statements["arms"]["ci_low"] == pytest.approx(direct.loc["arms", "ci_low"])
    # Two4Two's measure: relevant statements correctly accepted (5-7), irrelevant ones correctly rejected (1-3)
    for key, group in cohort.groupby("statement_id"):
        hit = group["rating"] >= 5 if RELEVANT[key] else group["rating"] <= 3
        row = statements[key]
        assert row["correct_judgement"] == ("accepted" if RELEVANT[key] else "rejected")
        assert row["n_correct"] == hit.sum() and row["percent_correct"] == pytest.approx(100 * hit.mean())
        assert row["correct_ci_low"] <= row["percent_correct"] <= row["correct_ci_high"]
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == [
        "distribution.csv",
        "likert.png",
        "methods.md",
        "participants.csv",
        "report.json",
        "report.md",
        "report.txt",
        "statements.csv",
        "test.csv",
    ]
    assert "Schuessler" in (tmp_path / "out" / "methods.md").read_text()
    assert "correctly judged" in (tmp_path / "out" / "report.md").read_text()
    text = runner.invoke(args=["analyze", SLUG, "--n-boot", "200"])
    assert text.exit_code == 0 and "Relevant vs irrelevant statements" in text.output
    assert "The model uses the colour of the animal." in text.output


def test_flask_analyze_refuses_a_study_without_completed_participants(app, runner):
    result = runner.invoke(args=["analyze", SLUG])
    assert result.exit_code != 0 and "no completed participants yet" in result.output


@pytest.mark.parametrize("n_people", [1, 3])
def test_flask_analyze_of_one_participant_or_equal_answers_says_what_is_missing(app, client, runner, n_people):
    # #23 point 1: one participant (no paired test), or everyone answering 4 (no variance): exit 0, said in words.
    for _ in range(n_people):
        token = enter(client, slug=SLUG)
        answer_surveys(client, token)
        for item in client.get(f"/api/sessions/{token}").get_json()["plan"]:
            assert rate(client, token, item, 4).status_code == 201
        assert client.post(f"/api/sessions/{token}/complete").status_code == 200
    result = runner.invoke(args=["analyze", SLUG, "--format", "json", "--n-boot", "100"])
    assert result.exit_code == 0, result.output

    def refuse(constant):
        raise AssertionError(f"{constant} in the JSON")

    report = json.loads(result.stdout, parse_constant=refuse)
    why = "got 1" if n_people == 1 else "no variance, so t is undefined"
    assert any(why in n for n in report["meta"]["notes"])
    assert report["test"][0]["t"] is None
    text = runner.invoke(args=["analyze", SLUG, "--n-boot", "100"])
    assert text.exit_code == 0 and why in text.output
