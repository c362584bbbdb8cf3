"""`flask analyze` on a sketch study: people through the participant API, a model through
`flask import-label-predictions`, a semantic space from the study's [task] table; text, JSON, CSVs and the figure."""

import json
import shutil

import numpy as np

from server.db import db
from server.models import Stimulus
from server.studies.definitions import get_study, sync_studies
from tests.helpers import answer_surveys, enter


def take_part(client, answer):
    token = enter(client, slug="sketch-demo")
    answer_surveys(client, token)
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    for item in plan:
        params = db.session.scalars(db.select(Stimulus.params).filter_by(key=item["stimulus_id"])).first()
        guesses = [{"label_id": g, "rt_ms": 900 + 100 * i} for i, g in enumerate(answer(params))]
        body = {
            "trial_id": f"t-{token[:8]}-{item['index']}",
            "trial_index": item["index"],
            "stimulus_id": item["stimulus_id"],
            "response": {"guesses": guesses},
        }
        assert client.post(f"/api/sessions/{token}/trials", json=body).status_code == 201
    assert client.post(f"/api/sessions/{token}/complete").status_code == 200


def test_analyze_sketch_study(app, client, runner, tmp_path):
    # A semantic space for the demo's concepts and a few distractors (embedding: id, dimensions).
    studies = tmp_path / "studies"
    shutil.copytree(app.config["STUDIES_DIR"] + "/sketch-demo", studies / "sketch-demo")
    ids = ["fish", "cup", "ladder", "mushroom", "umbrella", "envelope", "mug", "bowl", "shark", "tree"]
    rng = np.random.default_rng(1)
    lines = ["id,d1,d2,d3"] + [f"{i},{','.join(f'{v:.3f}' for v in rng.normal(size=3))}" for i in ids]
    (studies / "sketch-demo" / "space.csv").write_text("\n".join(lines) + "\n")
    toml = studies / "sketch-demo" / "study.toml"
    toml.write_text(
        toml.read_text().replace("catch_trials = 1", 'catch_trials = 1\nsemantic_space = "sketch-demo/space.csv"')
    )
    app.config["STUDIES_DIR"] = str(studies)
    sync_studies(studies)

    wrong = {
        "fish": "shark",
        "cup": "mug",
        "ladder": "tree",
        "mushroom": "tree",
        "umbrella": "mushroom",
        "envelope": "mug",
    }
    # People: right on detailed sketches (8 strokes), wrong (a near concept) on sparse ones; one fails the catch.
    for n in range(6):
        take_part(
            client,
            lambda p, n=n: (
                [p["concept"]]
                if p["abstraction_level"] >= 4 and not (p["catch"] and n == 0)
                else [wrong[p["concept"]], p["concept"] if n % 2 else "bowl"]
            ),
        )
    preds = tmp_path / "preds.csv"
    rows = ["stimulus_id,label_id,probability"]
    for key, params in db.session.execute(
        db.select(Stimulus.key, Stimulus.params).filter_by(study_id=get_study("sketch-demo").id)
    ):
        top = params["concept"] if params["abstraction_level"] == 8 else wrong[params["concept"]]
        rows += [f"{key},{top},0.6", f"{key},{'cup' if top != 'cup' else 'mug'},0.3", f"{key},bowl,0.1"]
    preds.write_text("\n".join(rows) + "\n")
    imported = runner.invoke(args=["import-label-predictions", "sketch-demo", str(preds), "--observer", "toy-model"])
    assert imported.exit_code == 0, imported.output

    out = tmp_path / "report"
    result = runner.invoke(args=["analyze", "sketch-demo", "--out", str(out), "--n-boot", "200"])
    assert result.exit_code == 0, result.output
    assert "Accuracy by abstraction level" in result.output and "toy-model" in result.output
    assert "Attention checks: " in result.output and "1 failed" in result.output
    for name in (
        "accuracy.csv",
        "entropy.csv",
        "snp.csv",
        "reliability.csv",
        "alignment.csv",
        "catch.csv",
        "sketches.csv",
        "report.md",
        "accuracy_by_level.png",
    ):
        assert (out / name).stat().st_size > 0, name
    as_json = json.loads(
        runner.invoke(args=["analyze", "sketch-demo", "--format", "json", "--n-boot", "50"]).output.split("\nwrote")[0]
    )
    human = [r for r in as_json["accuracy"] if r["observer"] == "human"]
    assert {r["abstraction_level"]: r["top1_accuracy"] for r in human if r["producer"] == "human"} == {
        2.0: 0.0,
        4.0: 1.0,
        8.0: 1.0,
    }
    model = {
        r["abstraction_level"]: r["top1_accuracy"]
        for r in as_json["accuracy"]
        if r["observer"] == "toy-model" and r["producer"] == "human"
    }
    assert model == {2.0: 0.0, 4.0: 0.0, 8.0: 1.0}
    assert as_json["snp"] and all(0 <= r["mean_snp"] <= 1 for r in as_json["snp"])
    assert {r["measure"] for r in as_json["alignment"]} == {"top1", "top3", "entropy", "snp"}


def test_analyze_one_participant_and_a_ranks_only_model_says_there_is_no_entropy(app, client, runner, tmp_path):
    # #23 row 13 and point 1: one run of ranked labels (no probabilities) and one participant; each gives one
    # answer per sketch, whose "entropy" was printed as 0.000 bits at every level.
    take_part(client, lambda p: [p["concept"]])
    preds = tmp_path / "ranks.csv"
    rows = ["stimulus_id,label_id,rank"]
    for key, params in db.session.execute(
        db.select(Stimulus.key, Stimulus.params).filter_by(study_id=get_study("sketch-demo").id)
    ):
        rows += [f"{key},{params['concept']},1", f"{key},bowl,2"]
    preds.write_text("\n".join(rows) + "\n")
    imported = runner.invoke(args=["import-label-predictions", "sketch-demo", str(preds), "--observer", "ranker"])
    assert imported.exit_code == 0, imported.output

    result = runner.invoke(args=["analyze", "sketch-demo", "--format", "json", "--n-boot", "40"])
    assert result.exit_code == 0, result.output

    def refuse(constant):
        raise AssertionError(f"{constant} in the JSON")

    report = json.loads(result.output.split("\nwrote")[0], parse_constant=refuse)
    assert report["entropy"] and all(r["mean_entropy"] is None for r in report["entropy"])
    assert {r["entropy_basis"] for r in report["entropy"]} == {"none"}
    notes = report["meta"]["notes"]
    for observer in ("human", "ranker"):
        assert any(n.startswith(f"entropy of {observer}: not computed: one answer per sketch") for n in notes)
    assert any("split-half reliability: not computed, 1 participant" in n for n in notes)
    text = runner.invoke(args=["analyze", "sketch-demo", "--n-boot", "40"])
    assert text.exit_code == 0 and "entropy of ranker: not computed" in text.output
    assert "0.000" not in text.output.split("Response entropy")[1].split("Semantic neighbour")[0]
