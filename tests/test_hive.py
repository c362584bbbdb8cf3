"""HIVE task types: manifest import (good and every bad case), plans (balance, randomised and recorded option
order, hidden labels, preview), validation and scoring per task, trials stored once through the API, exports and
`flask analyze` on a study."""

import csv
import json
import random
import uuid
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PIL import Image
from scipy import stats

from server.db import db
from server.exceptions import ConfigError, ResponseError
from server.models import Stimulus, SurveyResponse, Trial
from server.studies.definitions import get_study
from server.tasks.hive.demo import write_demo
from server.tasktype.registry import registry
from tests.helpers import enter

ROW = {
    "image_id": "bird-1",
    "photo": "photo.png",
    "ground_truth": "2",
    "model_correct": "true",
    "candidate1_rank": "3",
    "candidate1_explanation": "e1.png",
    "candidate2_rank": "1",
    "candidate2_explanation": "e2.png",
    "candidate3_rank": "2",
    "candidate3_explanation": "e3.png",
    "candidate4_rank": "4",
    "candidate4_explanation": "e4.png",
}


@pytest.fixture
def images(tmp_path):
    folder = tmp_path / "images"
    folder.mkdir()
    for n, name in enumerate(["photo.png", "e1.png", "e2.png", "e3.png", "e4.png", "m2.png", "root.png"]):
        Image.new("RGB", (8, 8), (n * 30, 0, 0)).save(folder / name)
    (folder / "notes.txt").write_text("not an image")
    return folder


def write(path: Path, rows):
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def run_import(runner, slug, manifest, images):
    return runner.invoke(args=["stimuli", "import", slug, str(manifest), "--images", str(images)])


def count(slug):
    return db.session.scalar(db.select(db.func.count(Stimulus.id)).filter_by(study_id=get_study(slug).id))


def test_demo_studies_are_generated_on_sync(app):
    for slug in ("hive-agreement", "hive-distinction", "hive-output-prediction", "hive-prototree"):
        assert count(slug) == 14  # 12 test photos (6 correct, 6 incorrect) + 2 preview examples


def test_good_manifest_imports_with_labels_and_similarity(app, runner, images, tmp_path):
    rows = [
        {
            **ROW,
            "candidate2_label": "Cardinal",
            "candidate2_explanation": "e2.png;m2.png",
            "candidate2_similarity": "3.5;1.25",
            "preview": "no",
        },
        {
            **ROW,
            "image_id": "bird-2",
            "ground_truth": "1",
            "model_correct": "0",
            "candidate2_label": "",
            "candidate2_explanation": "e2.png",
            "candidate2_similarity": "",
            "preview": "yes",
        },
    ]
    before = count("hive-distinction")
    result = run_import(runner, "hive-distinction", write(tmp_path / "m.csv", rows), images)
    assert result.exit_code == 0, result.output
    assert count("hive-distinction") == before + 2
    study_id = get_study("hive-distinction").id
    stim = db.session.scalars(db.select(Stimulus).filter_by(key="bird-1", study_id=study_id)).one()
    by_number = {c["candidate"]: c for c in stim.params["candidates"].values()}
    assert by_number[2]["label"] == "Cardinal" and by_number[2]["similarity"] == [3.5, 1.25]
    assert len(by_number[2]["explanation"]) == 2 and by_number[2]["rank"] == 1
    assert sorted(stim.params["candidates"]) == ["a", "b", "c", "d"]
    assert stim.params["model_correct"] is True and not stim.practice
    assert db.session.scalars(db.select(Stimulus).filter_by(key="bird-2")).one().practice


BAD = [
    ({"candidate3_rank": "1"}, "candidate1_rank", "ranks must be 1, 2, 3 and 4"),
    ({"candidate3_rank": "5"}, "candidate1_rank", "ranks must be 1, 2, 3 and 4"),
    ({"candidate3_rank": "two"}, "candidate3_rank", "integer 1–4"),
    ({"ground_truth": "7"}, "ground_truth", "candidate number"),
    ({"ground_truth": "0", "model_correct": "false"}, "ground_truth", "among the four"),
    ({"model_correct": "false"}, "model_correct", "rank 1"),
    ({"ground_truth": "1"}, "model_correct", "rank 3"),
    ({"model_correct": "maybe"}, "model_correct", "true or false"),
    ({"photo": "missing.png"}, "photo", "not found"),
    ({"photo": "notes.txt"}, "photo", "not a PNG"),
    ({"photo": "../images/photo.png/../../x.png"}, "photo", "outside"),
    ({"candidate4_explanation": ""}, "candidate4_explanation", "file name is required"),
    ({"candidate1_similarity": "0.5;0.7"}, "candidate1_similarity", "2 score(s) for 1 explanation"),
    ({"candidate1_similarity": "high"}, "candidate1_similarity", "numbers separated"),
    ({"image_id": ""}, "image_id", "id of 1–100"),
    ({"preview": "sometimes"}, "preview", "true or false"),
]


@pytest.mark.parametrize("change,column,message", BAD)
def test_bad_rows_are_refused_naming_row_and_column(app, runner, images, tmp_path, change, column, message):
    before = count("hive-distinction")
    base = {**ROW, "candidate1_similarity": "", "preview": ""}
    rows = [{**base, "image_id": "fine"}, {**base, **change}]
    result = run_import(runner, "hive-distinction", write(tmp_path / "m.csv", rows), images)
    assert result.exit_code != 0
    assert f"row 2, column {column}: " in result.output and message in result.output, result.output
    assert "row 1" not in result.output
    assert count("hive-distinction") == before  # nothing partly imported


def test_whole_manifest_problems_are_refused(app, runner, images, tmp_path):
    missing = {k: v for k, v in ROW.items() if k != "candidate4_rank"}
    result = run_import(runner, "hive-distinction", write(tmp_path / "m.csv", [missing]), images)
    assert "missing column 'candidate4_rank'" in result.output
    extra = write(tmp_path / "m.csv", [{**ROW, "candidate5_rank": "5"}])
    result = run_import(runner, "hive-distinction", extra, images)
    assert "unknown column 'candidate5_rank'" in result.output
    # ProtoTree needs its node prototypes
    result = run_import(runner, "hive-prototree", write(tmp_path / "m.csv", [ROW]), images)
    assert "missing column 'node_root'" in result.output
    result = run_import(runner, "hive-distinction", write(tmp_path / "m.csv", [ROW, ROW]), images)
    assert "row 2: stimulus id 'bird-1' repeats row 1" in result.output


def test_agreement_accepts_ground_truth_outside_the_four(app, runner, images, tmp_path):
    row = {**ROW, "ground_truth": "0", "model_correct": "false"}
    result = run_import(runner, "hive-agreement", write(tmp_path / "m.csv", [row]), images)
    assert result.exit_code == 0, result.output


def test_prototree_manifest(app, runner, images, tmp_path):
    row = {**ROW, "node_root": "root.png", "node_present": "e1.png", "node_absent": "e2.png", "path": ""}
    result = run_import(runner, "hive-prototree", write(tmp_path / "m.csv", [row]), images)
    assert result.exit_code == 0, result.output
    stim = db.session.scalars(db.select(Stimulus).filter_by(key="bird-1")).one()
    assert set(stim.params["nodes"]) == {"root", "present", "absent"} and stim.params["path"] is None


def specs(task, tmp_path, method="gradcam"):
    """The demo set as stored stimuli (parsed by the task itself)."""
    from server.tasktype.manifest_files import ManifestFiles, read_manifest

    manifest = write_demo(task.id, method, tmp_path / task.id)
    files = ManifestFiles(manifest.parent)
    allowed = (*task.manifest_required, *task.manifest_optional)
    return [
        task.stimulus_from_manifest({c: row.get(c, "") for c in allowed}, files, {}) for row in read_manifest(manifest)
    ]


def test_plan_is_balanced_randomised_and_hides_answers(app, tmp_path):
    task = registry().get("hive-distinction")
    params = task.parse_params({})
    stimuli = specs(task, tmp_path)
    orders = set()
    for seed in range(20):
        plan = task.build_plan_from(params, stimuli, random.Random(seed))
        by_key = {s.key: s.params for s in stimuli}
        assert len(plan) == 10
        assert sum(by_key[item.stimulus_id]["model_correct"] for item in plan) == 5
        for item in plan:
            assert [o["key"] for o in item.extra["options"]] == item.extra["presented"]["options"]
            assert all(o["label"] is None for o in item.extra["options"])  # labels hidden by default
            assert "rank" not in json.dumps(item.extra["options"]) and "ground_truth" not in json.dumps(item.extra)
            orders.add(tuple(item.extra["presented"]["options"]))
        assert [e["model_correct"] for e in plan[0].extra["preview"]] == [True, False]
    assert len(orders) > 12  # option order really varies between trials
    shown = task.build_plan_from(task.parse_params({"show_labels": True}), stimuli, random.Random(1))
    assert all(o["label"] for item in shown for o in item.extra["options"])


def test_plan_refuses_what_the_study_cannot_give(app, tmp_path):
    task = registry().get("hive-distinction")
    stimuli = specs(task, tmp_path)
    with pytest.raises(ConfigError, match="needs 10 correct and 0 incorrect"):
        task.build_plan_from(task.parse_params({"correct_share": 1.0}), stimuli, random.Random(0))
    with pytest.raises(ConfigError, match="preview"):
        task.build_plan_from(task.parse_params({}), [s for s in stimuli if not s.practice], random.Random(0))
    plan = task.build_plan_from(
        task.parse_params({"preview": False, "n_trials": 4, "correct_share": 0.25}),
        [s for s in stimuli if not s.practice],
        random.Random(0),
    )
    assert len(plan) == 4 and "preview" not in plan[0].extra
    for bad in (
        {"method": "lime"},
        {"n_trials": 0},
        {"correct_share": 2},
        {"show_labels": "yes"},
        {"dataset": "COCO"},
        {"colour": 1},
    ):
        with pytest.raises(ConfigError):
            task.parse_params(bad)


def stim(ranks=(3, 1, 2, 4), truth=2, similarity=None):
    letters = "dcab"  # candidate k is shown as letters[k - 1]
    return {
        "ground_truth": truth,
        "model_correct": truth != 0 and ranks[truth - 1] == 1,
        "candidates": {
            letters[k - 1]: {
                "candidate": k,
                "rank": ranks[k - 1],
                "explanation": ["x"],
                "label": None,
                "similarity": similarity,
            }
            for k in range(1, 5)
        },
    }


def shown(keys="abcd", matches=1, similarity_ratings=False, output_prediction=False):
    """A plan item as the page gets it: what validate_response checks an answer against."""
    return {
        "options": [{"key": k, "explanation": ["x"] * matches} for k in keys],
        "similarity_ratings": similarity_ratings,
        "output_prediction": output_prediction,
    }


def test_agreement_scoring(app):
    task = registry().get("hive-agreement")
    right, wrong = stim(truth=2), stim(truth=1)  # the prediction (candidate 2) is right / wrong
    assert task.score(right, task.validate_response({"confidence": 2}, {}, shown("c"))) == {
        "judged_correct": 1,
        "correct": 1,
        "model_similarity": None,
    }
    assert task.score(wrong, {"confidence": 2})["correct"] == 0  # believed a wrong prediction
    assert task.score(wrong, {"confidence": 3})["correct"] == 1
    scored = task.score(stim(similarity=[2.5, 0.5]), {"confidence": 4, "similarity": [3, 1]})
    assert scored["model_similarity"] == [2.5, 0.5] and scored["correct"] == 0
    rated = shown("c", matches=2, similarity_ratings=True)
    assert task.validate_response({"confidence": 4, "similarity": [3, 1]}, {}, rated) == {
        "confidence": 4,
        "similarity": [3, 1],
    }
    for bad, where in (
        ({"confidence": 5}, "response.confidence"),
        ({"confidence": True}, "response.confidence"),
        ({"confidence": 1, "similarity": [0, 1]}, "response.similarity"),
        ({"confidence": 1, "similarity": [1]}, "response.similarity"),
        ({"confidence": 1, "similarity": [1] * 10}, "response.similarity"),
        ({"confidence": 1}, "response.similarity"),
        ({"confidence": 1, "choice": "a"}, "response"),
        ([1], "response"),
    ):
        with pytest.raises(ResponseError) as exc:
            task.validate_response(bad, {}, rated)
        assert exc.value.field == where
    with pytest.raises(ResponseError, match="no similarity"):  # ratings where the trial asked none
        task.validate_response({"confidence": 1, "similarity": [1]}, {}, shown("c"))


def test_distinction_and_output_prediction_scoring(app):
    distinction, output = registry().get("hive-distinction"), registry().get("hive-output-prediction")
    s = stim(ranks=(3, 1, 2, 4), truth=3)  # the model predicts candidate 2 ("c"); the truth is candidate 3 ("a")
    assert distinction.score(s, {"choice": "a", "confidence": 5})["correct"] == 1
    assert distinction.score(s, {"choice": "c", "confidence": 5})["correct"] == 0
    assert output.score(s, {"choice": "c", "confidence": 1})["correct"] == 1
    assert output.score(s, {"choice": "a", "confidence": 1})["correct"] == 0
    assert distinction.validate_response({"choice": "a", "confidence": 5}, {}, shown()) == {
        "choice": "a",
        "confidence": 5,
    }
    for bad in (
        {"choice": "e", "confidence": 3},
        {"choice": "a", "confidence": 0},
        {"choice": "a"},
        {"choice": ["a"], "confidence": 3},
    ):
        with pytest.raises(ResponseError):
            distinction.validate_response(bad, {}, shown())
    with pytest.raises(ResponseError, match="options shown: b, c"):
        distinction.validate_response({"choice": "a", "confidence": 3}, {}, shown("bc"))


def test_prototree_scoring(app):
    task = registry().get("hive-prototree")
    s = stim(ranks=(3, 1, 2, 4), truth=3)  # leaf 3 = absent, present
    answer = task.validate_response({"decisions": ["absent", "present"], "confidence": 2}, {}, shown())
    assert task.score(s, answer) == {"choice": "a", "correct": 1}
    assert task.score(s, {"decisions": ["present", "absent"], "confidence": 2})["correct"] == 0
    with pytest.raises(ResponseError, match="present"):
        task.validate_response({"decisions": ["present"], "confidence": 2}, {}, shown())


def test_trial_row_exposes_every_option_and_its_order(app):
    task = registry().get("hive-distinction")
    s = stim(ranks=(3, 1, 2, 4), truth=3)
    presented = {"options": ["b", "a", "d", "c"], "labels_shown": False}  # candidates 4, 3, 1, 2
    row = task.trial_row(s, {"choice": "a", "confidence": 4}, {"choice": "a", "correct": 1}, presented)
    assert [row[f"option_{p}"] for p in range(1, 5)] == [4, 3, 1, 2]
    assert [row[f"option_{p}_rank"] for p in range(1, 5)] == [4, 2, 3, 1]
    assert (row["choice_candidate"], row["choice_position"], row["choice_rank"], row["correct"]) == (3, 2, 2, 1)
    assert (row["predicted_candidate"], row["ground_truth"], row["model_correct"]) == (2, 3, 0)
    assert set(row) == {c.name for c in task.trial_columns}


def answer_everything(client, slug, respond):
    """One participant through the API: every survey, then every trial with respond(item)."""
    token = enter(client, slug)
    state = client.get(f"/api/sessions/{token}").get_json()
    answers = {
        "consent": {"agreed": True},
        "hive_demographics": {"ml_experience": 3},
        "hive_tradeoff": {"low_risk": 66, "medium_risk": 68, "high_risk": 71, "reason": "risk"},
        "hive_feedback": {},
    }
    for n in (1, 2, 3):
        answers[f"hive_understanding_{n}"] = {"understanding": n + 1}
    for name in ["consent", *state["surveys"]]:
        assert client.put(f"/api/sessions/{token}/surveys/{name}", json={"answers": answers[name]}).status_code == 200
    for item in state["plan"]:
        body = {
            "trial_id": str(uuid.uuid4()),
            "trial_index": item["index"],
            "stimulus_id": item["stimulus_id"],
            "response": respond(item),
            "rt_ms": 900,
        }
        assert client.post(f"/api/sessions/{token}/trials", json=body).status_code == 201
        assert client.post(f"/api/sessions/{token}/trials", json=body).status_code == 200  # a retry: stored once
    assert client.post(f"/api/sessions/{token}/complete", json={}).status_code == 200
    return token


def test_api_cohort_export_and_flask_analyze(app, client, runner, tmp_path):
    rng = random.Random(5)
    for _ in range(6):
        answer_everything(
            client,
            "hive-distinction",
            lambda item: {"choice": rng.choice(item["presented"]["options"]), "confidence": 3},
        )
    assert db.session.scalar(db.select(db.func.count(Trial.id))) == 60
    token = enter(client, "hive-distinction")
    bad = client.post(
        f"/api/sessions/{token}/trials",
        json={
            "trial_id": str(uuid.uuid4()),
            "trial_index": 0,
            "stimulus_id": client.get(f"/api/sessions/{token}").get_json()["plan"][0]["stimulus_id"],
            "response": {"choice": "z", "confidence": 3},
        },
    )
    assert bad.status_code == 422 and bad.get_json()["field"] == "response.choice"

    result = runner.invoke(args=["analyze", "hive-distinction", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "Table 2 (distinction)" in result.output and "Interpretability–accuracy tradeoff" in result.output
    for name in (
        "accuracy.csv",
        "per_participant.csv",
        "report.md",
        "accuracy.png",
        "tradeoff.png",
        "understanding.png",
    ):
        assert (tmp_path / "out" / name).stat().st_size > 0
    data = json.loads(runner.invoke(args=["analyze", "hive-distinction", "--format", "json"]).output)
    acc = {r["condition"]: r for r in data["accuracy"]}
    assert acc["all"]["n"] == 6 and data["meta"]["chance"] == 25.0
    trade = {r["risk"]: r for r in data["tradeoff"]}
    assert trade["high"]["mean_gain"] == 11.0  # 71 − 60 for everyone
    und = {r["point"]: r for r in data["understanding"]}
    assert und["after score"]["mean"] == 4.0
    # the accuracy agrees with the stored scores
    stored = [t.score["correct"] for t in db.session.scalars(db.select(Trial))]
    assert acc["all"]["mean"] == pytest.approx(100 * sum(stored) / len(stored))


def test_analyze_without_participants_says_so(app, runner):
    result = runner.invoke(args=["analyze", "hive-agreement"])
    assert result.exit_code != 0 and "no completed participants" in result.output


@pytest.mark.parametrize("flag", [["--n-boot", "500"], ["--seed", "3"], ["--keep-outliers"]])
def test_analyze_refuses_options_hive_does_not_use(app, runner, flag):
    result = runner.invoke(args=["analyze", "hive-agreement", *flag])
    assert result.exit_code != 0
    assert f"{flag[0].split('/')[0]}" in result.output and "not used by the analysis of hive-agreement" in result.output


def test_analyze_option_limits_per_task_type(app, runner):
    outliers = runner.invoke(args=["analyze", "sketch-demo", "--keep-outliers"])
    assert outliers.exit_code != 0 and "--exclude-outliers/--keep-outliers: not used" in outliers.output
    too_many = runner.invoke(args=["analyze", "sketch-demo", "--n-boot", "5000"])
    assert too_many.exit_code != 0 and "at most 2,000 resamples" in too_many.output
    # Options the analysis uses pass the check and reach the data (none here yet).
    used = runner.invoke(args=["analyze", "two4two-demo", "--n-boot", "200", "--seed", "1"])
    assert used.exit_code != 0 and "no completed participants" in used.output


def test_agreement_similarity_ratings_reach_the_report(app, client, runner):
    for _ in range(3):
        answer_everything(
            client,
            "hive-agreement",
            lambda item: {
                "confidence": 2,
                "similarity": [(i % 4) + 1 for i in range(len(item["options"][0]["explanation"]))],
            },
        )
    data = json.loads(runner.invoke(args=["analyze", "hive-agreement", "--format", "json"]).output)
    assert [r["method"] for r in data["similarity"]] == ["spearman", "pearson"]  # ProtoPNet: HIVE's is Spearman
    # one value per match, as HIVE's p-values: n is the number of matches rated, not participants × photos × matches
    seen = set(
        db.session.scalars(db.select(Stimulus.key).join(Trial, Trial.stimulus_id == Stimulus.id).where(~Trial.practice))
    )
    sim = data["similarity"][0]
    assert sim["n"] == 2 * len(seen) < 3 * 10 * 2  # the demo's photos have 2 matches each
    assert sim["n_ratings"] == 3 * 10 * 2 and sim["n_participants"] == 3 and sim["hive_choice"]
    acc = {r["condition"]: r for r in data["accuracy"]}
    assert acc["incorrect"]["judged_correct_percent"] == 100.0 and acc["incorrect"]["mean"] == 0.0
    assert acc["correct"]["published_mean"] == 73.2  # the demo study compares with HIVE's ProtoPNet CUB row


def test_stimuli_export_gives_models_the_photos(app, runner, tmp_path):
    result = runner.invoke(args=["stimuli", "export", "hive-distinction", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    with open(tmp_path / "manifest.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 12  # the test photos; previews only with --include-practice
    assert {r["model_correct"] for r in rows} == {"True", "False"}
    assert all(r["ground_truth"] in "1234" and r["predicted_candidate"] in "1234" for r in rows)
    assert (tmp_path / rows[0]["file"]).read_bytes()[:3] == b"\xff\xd8\xff"  # the JPEG photo itself


def stimulus_params(slug):
    study_id = get_study(slug).id
    return {s.key: s.params for s in db.session.scalars(db.select(Stimulus).filter_by(study_id=study_id))}


def code(text):
    return sum(map(ord, text))


def t_test_by_hand(acc, chance, alternative):
    """HIVE Sec. 5.1: a 1-sample t-test against chance, t = (ā − c)/(s/√n) with s over participants (n − 1)."""
    acc = np.asarray(acc, dtype=float)
    n = acc.size
    s = np.sqrt(((acc - acc.mean()) ** 2).sum() / (n - 1))
    t = (acc.mean() - chance) / (s / np.sqrt(n))
    p = stats.t.sf(t, n - 1) if alternative == "greater" else 2 * stats.t.sf(abs(t), n - 1)
    return {"mean": acc.mean(), "sd": s, "t": t, "dof": n - 1, "p_val": p, "n": n}


def correlation_by_hand(human, model, spearman):
    """HIVE Sec. 5.4 on one value per match: Spearman's rho = Pearson's r of average ranks; p from
    t = r √((n − 2)/(1 − r²)), two-sided; Pearson's Fisher-z interval tanh(artanh r ± z_.975/√(n − 3))."""
    x, y = (stats.rankdata(human), stats.rankdata(model)) if spearman else (np.asarray(human), np.asarray(model))
    x, y = x - x.mean(), y - y.mean()
    r = (x * y).sum() / np.sqrt((x * x).sum() * (y * y).sum())
    n = len(human)
    t = r * np.sqrt((n - 2) / (1 - r * r))
    half = stats.norm.ppf(0.975) / np.sqrt(n - 3)
    return {
        "r": r,
        "p_val": 2 * stats.t.sf(abs(t), n - 2),
        "n": n,
        "ci_low": None if spearman else np.tanh(np.arctanh(r) - half),
        "ci_high": None if spearman else np.tanh(np.arctanh(r) + half),
    }


def assert_matches(got, want):
    for key, value in want.items():
        if value is None:
            assert got[key] is None, key
        else:
            assert got[key] == pytest.approx(value, rel=1e-9, abs=1e-12), key


def test_flask_analyze_agreement_equals_hives_formulas_computed_by_hand(app, client, runner):
    """A fixed synthetic cohort on the ProtoPNet agreement demo: the JSON's accuracy test (two-sided, Table 1) and
    per-match Spearman/Pearson equal the formulas applied here to what the participants sent and the manifest."""
    params = stimulus_params("hive-agreement")
    sent = []
    for k in range(9):

        def respond(item, k=k):
            key = item["stimulus_id"]
            n = len(item["options"][0]["explanation"])
            ratings = [1 + (3 * k + 5 * m + code(key)) % 4 for m in range(n)]
            confidence = 1 + (k * k + code(key)) % 4
            sent.append((k, key, ratings, confidence))
            return {"confidence": confidence, "similarity": ratings}

        answer_everything(client, "hive-agreement", respond)
    result = runner.invoke(args=["analyze", "hive-agreement", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)

    right = {}
    for k, key, _, confidence in sent:
        right.setdefault(k, []).append((confidence <= 2) == params[key]["model_correct"])
    acc = [100 * np.mean(v) for v in right.values()]
    row = {r["condition"]: r for r in data["accuracy"]}["all"]
    assert row["alternative"] == "two-sided"
    assert_matches(row, t_test_by_hand(acc, 50.0, "two-sided"))

    ratings = {}
    for _, key, values, _ in sent:
        for m, v in enumerate(values):
            ratings.setdefault((key, m), []).append(v)
    matches = sorted(ratings)
    human = [np.mean(ratings[m]) for m in matches]
    model = [
        next(c for c in params[key]["candidates"].values() if c["rank"] == 1)["similarity"][m] for key, m in matches
    ]
    sim = {r["method"]: r for r in data["similarity"]}
    assert sim["spearman"]["hive_choice"] and not sim["pearson"]["hive_choice"]
    assert_matches(sim["spearman"], correlation_by_hand(human, model, spearman=True))
    assert_matches(sim["pearson"], correlation_by_hand(human, model, spearman=False))
    assert sim["spearman"]["n"] == len(matches) == 2 * len({key for _, key, _, _ in sent})
    assert sim["spearman"]["n_ratings"] == sum(len(v) for v in ratings.values())


def test_flask_analyze_distinction_tests_outperforming_chance_one_sided(app, client, runner, tmp_path):
    params = stimulus_params("hive-distinction")
    sent = []
    for k in range(7):

        def respond(item, k=k, done=[0]):  # noqa: B006 (a counter of its own: each k defines a new respond)
            stim = params[item["stimulus_id"]]
            truth = next(letter for letter, c in stim["candidates"].items() if c["candidate"] == stim["ground_truth"])
            done[0] += 1
            correct = done[0] <= k + 1 + (k % 3)
            choice = truth if correct else next(x for x in item["presented"]["options"] if x != truth)
            sent.append((k, stim["model_correct"], correct))
            return {"choice": choice, "confidence": 3}

        answer_everything(client, "hive-distinction", respond)
    data = json.loads(runner.invoke(args=["analyze", "hive-distinction", "--format", "json"]).output)
    rows = {r["condition"]: r for r in data["accuracy"]}
    for condition, keep in (("all", lambda mc: True), ("correct", bool), ("incorrect", lambda mc: not mc)):
        by = {}
        for k, model_correct, correct in sent:
            if keep(model_correct):
                by.setdefault(k, []).append(correct)
        want = t_test_by_hand([100 * np.mean(v) for v in by.values()], 25.0, "greater")
        assert rows[condition]["alternative"] == "greater"
        assert_matches(rows[condition], want)
        assert rows[condition]["significant"] == (want["p_val"] < 0.05)
    text = runner.invoke(args=["analyze", "hive-distinction", "--out", str(tmp_path)]).output
    assert "above chance (p < 0.05)?" in text and "p (one-sided)" in text


def test_tradeoff_answers_record_their_form_and_only_unrecorded_ones_get_the_note(app, client, runner, tmp_path):
    """Issue #39 point 4: an answer stores the form of the questions it answered (hive_tradeoff's 2: accuracies
    0–100 %; surveys that never changed, 1), exported as hive_tradeoff_revision; answers all of form 2 get no note
    about the old 60–100 % form, the same answers stored before forms were recorded (NULL, as migration 0018 leaves
    them) do."""
    rng = random.Random(3)
    for _ in range(3):
        answer_everything(
            client,
            "hive-distinction",
            lambda item: {"choice": rng.choice(item["presented"]["options"]), "confidence": 3},
        )
    forms = set(db.session.execute(db.select(SurveyResponse.name, SurveyResponse.revision)).all())
    assert ("hive_tradeoff", 2) in forms and ("consent", 1) in forms and len(forms) == 7  # one form per survey

    def exported() -> tuple[pd.DataFrame, dict[str, str], str]:
        out = tmp_path / str(len(list(tmp_path.iterdir())))
        assert runner.invoke(args=["export", "hive-distinction", "--out", str(out)]).exit_code == 0
        people = pd.read_csv(out / "participants.csv", dtype=str, keep_default_na=False)
        codebook = pd.read_csv(out / "codebook.csv", dtype=str, keep_default_na=False)
        described = dict(zip(codebook["column"], codebook["description"]))
        result = runner.invoke(args=["analyze", "hive-distinction", "--out", str(out / "analysis")])
        assert result.exit_code == 0, result.output
        return people, described, result.output

    people, described, text = exported()
    assert [c for c in people.columns if c.endswith("_revision")] == ["hive_tradeoff_revision"]
    assert people["hive_tradeoff_revision"].tolist() == ["2"] * 3
    assert described["hive_tradeoff_revision"].startswith(
        "the form of the hive_tradeoff questions the answers were given under: 1 the accuracies accepted only "
        "60–100 % (until issue #23); 2 the accuracies accept 0–100 %"
    )
    assert "could not go below" not in text

    db.session.execute(db.update(SurveyResponse).values(revision=None))
    db.session.commit()
    people, _, text = exported()
    assert people["hive_tradeoff_revision"].tolist() == [""] * 3
    assert "3 of 3 answers were stored before the question's form was recorded" in text


def test_tradeoff_accepts_any_accuracy_and_states_the_reference(app):
    """Issue #23 row 11: a gain below 0 (an accuracy under the stated 60 %) can be entered, so the one-sided test of
    gain > 0 is not decided by the form; the question says what the answer is compared with."""
    from server.studies.surveys import SURVEYS, validate_answers

    intro = SURVEYS["hive_tradeoff"]["intro"]
    assert "correct 60 times out of 100" in intro and "0–100 %" in intro and "below 60" in intro
    answers = {"low_risk": 0, "medium_risk": 45, "high_risk": 100, "reason": "explanations matter"}
    assert validate_answers("hive_tradeoff", answers) == answers
    for value in (-1, 101):
        with pytest.raises(ResponseError, match="between 0 and 100"):
            validate_answers("hive_tradeoff", {**answers, "low_risk": value})


def test_distinction_can_ask_similarity_ratings_and_output_prediction_in_the_same_trial(app):
    """Issue #23 row 12: HIVE's ProtoPNet distinction collected similarity ratings of every option's matches, and
    its GradCAM / BagNet participants said which option is correct and which the model predicts: both are options of
    hive-distinction, refused elsewhere."""
    task = registry().get("hive-distinction")
    params = task.parse_params({"method": "protopnet", "similarity_ratings": True, "output_prediction": True})
    assert params["similarity_ratings"] and params["output_prediction"]
    assert not task.parse_params({"method": "protopnet"})["similarity_ratings"]  # off unless asked for
    for other in ("hive-output-prediction", "hive-prototree"):
        for bad in ({"similarity_ratings": True}, {"output_prediction": True}):
            with pytest.raises(ConfigError):
                registry().get(other).parse_params(bad)
    with pytest.raises(ConfigError, match="beside distinction only"):
        registry().get("hive-agreement").parse_params({"output_prediction": True})

    plan = shown("bdac", matches=2, similarity_ratings=True, output_prediction=True)
    ratings = {"b": [1, 2], "d": [3, 4], "a": [4, 4], "c": [2, 1]}
    answer = {"choice": "a", "confidence": 4, "predicted": "c", "predicted_confidence": 2, "similarity": ratings}
    assert task.validate_response(answer, {}, plan) == answer
    for change, field in (
        ({"predicted": None}, "response.predicted"),
        ({"predicted": "e"}, "response.predicted"),
        ({"predicted_confidence": 6}, "response.predicted_confidence"),
        ({"similarity": {**ratings, "b": [1]}}, "response.similarity.b"),
        ({"similarity": {**ratings, "b": [1, 5]}}, "response.similarity.b"),
        ({"similarity": {"a": [1, 1]}}, "response.similarity"),
        ({"similarity": [1, 2, 3, 4, 4, 4, 2, 1]}, "response.similarity"),
    ):
        with pytest.raises(ResponseError) as err:
            task.validate_response({**answer, **change}, {}, plan)
        assert err.value.field == field, change
    with pytest.raises(ResponseError, match="unknown"):  # neither is asked unless the study says so
        task.validate_response(answer, {}, shown("bdac", matches=2))

    # candidates 1–4 are letters d, c, a, b; the model predicts candidate 2 (c); the truth is candidate 3 (a)
    s = stim(ranks=(3, 1, 2, 4), truth=3)
    for k, letter in enumerate("dcab", 1):
        s["candidates"][letter]["similarity"] = [k + 0.1, k + 0.2]
    score = task.score(s, answer)
    assert (score["correct"], score["output_choice"], score["output_correct"]) == (1, "c", 1)
    assert score["model_similarity"] == [1.1, 1.2, 2.1, 2.2, 3.1, 3.2, 4.1, 4.2]  # candidate order, not display
    row = task.trial_row(s, answer, score, {"options": list("bdac"), "labels_shown": False})
    assert row["similarity_ratings"] == "3;4;2;1;4;4;1;2"  # d, c, a, b: the same matches as model_similarity
    assert row["model_similarity"] == "1.1;1.2;2.1;2.2;3.1;3.2;4.1;4.2"
    assert (row["output_choice_candidate"], row["output_confidence"], row["output_correct"]) == (2, 2, 1)
    assert set(row) == {c.name for c in task.trial_columns}


def truth_of(item):
    """The option key of the true class of a plan item (the page never gets it; the test reads the stimulus)."""
    params = stimulus_params("hive-distinction")[item["stimulus_id"]]
    return next(k for k, c in params["candidates"].items() if c["candidate"] == params["ground_truth"])


def ratings_for(item):
    matches = len(item["options"][0]["explanation"])
    return {"similarity": [2] * matches} if item["similarity_ratings"] else {}


@pytest.mark.parametrize(
    ("slug", "n", "respond", "words"),
    [
        ("hive-agreement", 1, lambda item: {"confidence": 1, **ratings_for(item)}, "1 participant: a t-test needs"),
        ("hive-agreement", 3, lambda item: {"confidence": 2, **ratings_for(item)}, "all 3 participants at 100 %"),
        ("hive-distinction", 3, lambda item: {"choice": truth_of(item), "confidence": 5}, "at 100 %"),
        (
            "hive-distinction",
            3,
            lambda item: {
                "choice": next(k for k in item["presented"]["options"] if k != truth_of(item)),
                "confidence": 1,
            },
            "all 3 participants at 0 %",
        ),
    ],
    ids=["one participant", "all equal answers", "all correct", "all wrong"],
)
def test_flask_analyze_degenerate_cohorts_exit_0_and_say_what_is_missing(
    app, client, runner, tmp_path, slug, n, respond, words
):
    """Issue #23 point 1 for HIVE: `flask analyze` on degenerate cohorts exits 0, writes every output, and says in
    words what could not be computed; its JSON has no NaN."""
    for _ in range(n):
        answer_everything(client, slug, respond)
    result = runner.invoke(args=["analyze", slug, "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert words in result.output
    out = runner.invoke(args=["analyze", slug, "--format", "json"])
    assert out.exit_code == 0
    data = json.loads(out.output, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    assert any(words in note for note in data["notes"])
    for name in ("report.txt", "report.md", "methods.md"):
        assert "nan" not in (tmp_path / "out" / name).read_text().lower().split()


def test_analyzer_compares_a_labelled_imagenet_study_with_hives_with_labels_row(app):
    """study.toml `show_labels` picks HIVE's ImageNet studies that showed class labels (Table 2's with-labels
    columns) for the published comparison."""
    from types import SimpleNamespace

    trials = pd.DataFrame(
        {"participant_id": [1, 1, 2, 2], "practice": False, "model_correct": 1, "correct": [1, 0, 1, 1]}
    )
    data = {
        "participants": pd.DataFrame({"participant_id": [1, 2], "status": "completed", "exclusion_reason": None}),
        "trials": trials.assign(stimulus_id="img", confidence=3),
    }
    for labels, published in ((True, 49.2), (False, 51.2)):
        study = SimpleNamespace(
            slug="s",
            title="S",
            task_type="hive-distinction",
            config={"task": {"method": "gradcam", "dataset": "ImageNet", "show_labels": labels}},
        )
        report = registry().get("hive-distinction").analyzer.compute(study, data, None)
        assert report.tables["accuracy"].iloc[0]["published_mean"] == published


def test_each_task_type_gives_the_statistics_its_hive_task(app):
    """Which HIVE task (name, chance, test) each type runs is the hive package's knowledge (analysis keys nothing by
    task id); the analysis tests' tasks are these."""
    from tests.analysis.test_analysis_hive import AGREEMENT, DISTINCTION, OUTPUT_PREDICTION

    given = {
        task_id: registry().get(task_id).statistics_task()
        for task_id in ("hive-agreement", "hive-distinction", "hive-output-prediction", "hive-prototree")
    }
    assert given == {
        "hive-agreement": AGREEMENT,
        "hive-distinction": DISTINCTION,
        "hive-output-prediction": OUTPUT_PREDICTION,
        "hive-prototree": DISTINCTION,
    }
    assert registry().get("hive-prototree").analyzer.task == DISTINCTION
    assert registry().get("hive-agreement").planner.task == AGREEMENT
