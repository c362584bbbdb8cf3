"""Models take the same test, end to end: a training set from the test's own generator (`flask stimuli export
--training`), the `small` CNN trained on it on the CPU (`python -m modelruns train`), its predictions for the
exported test (`python -m modelruns predict`), imported (`flask import-predictions`) and analysed beside a cohort
of people who took the study through the participant API (`flask analyze`).

The cohort is simulated with the seed paper's human error (tests/helpers.py, PAPER_SIGMA): each answer is the true
percent plus Gaussian noise whose SD grows with the chart type, so its expected mean absolute error is the paper's
human MAE of 0.056 (reference/published_results.csv).

CI cost: about a minute on two idle cores (four when other work shares them), nearly all of it training (6,000
images, 4 epochs); the per-type path adds about 50 s on a busy machine (five exports and one-epoch runs of 32 images,
which need not learn: they test the path, not the model). It runs in the PostgreSQL pass only, the shorter of the two
`make test` runs side by side (docs/operations.md, "`make test`'s two pytest passes"): the SQLite pass would train the
same models again, and SQLite's import and analysis of these files are covered by test_predictions.py,
test_prediction_files.py and test_analyze.py."""

from __future__ import annotations

import csv
import json
import random

import numpy as np
import pytest

from modelruns.__main__ import main as modelruns
from tests.conftest import BACKEND
from tests.helpers import take_study3_like_people

pytestmark = pytest.mark.skipif(
    BACKEND != "postgresql", reason="trains a CNN: once per `make test`, in the PostgreSQL pass"
)

N_TRAINING, N_VALIDATION, EPOCHS = 6000, 600, 4
PEOPLE = 12


def test_a_cnn_trained_on_studyhive_stimuli_takes_the_test_beside_people(app, client, runner, tmp_path):
    rng = random.Random(17)
    for _ in range(PEOPLE):
        take_study3_like_people(client, rng)

    test, data_dir, run, preds = tmp_path / "test", tmp_path / "iid", tmp_path / "run", tmp_path / "preds.parquet"
    assert runner.invoke(args=["stimuli", "export", "study3", "--out", str(test)]).exit_code == 0
    result = runner.invoke(
        args=[
            "stimuli",
            "export",
            "study3",
            "--training",
            str(N_TRAINING),
            "--regime",
            "IID",
            "--seed",
            "0",
            "--validation",
            str(N_VALIDATION),
            "--out",
            str(data_dir),
        ]
    )
    assert result.exit_code == 0, result.output
    with open(test / "manifest.csv", newline="") as fh:
        test_ids = {row["stimulus_id"] for row in csv.DictReader(fh)}
    with open(data_dir / "manifest.csv", newline="") as fh:
        assert not test_ids & {row["stimulus_id"] for row in csv.DictReader(fh)}

    assert (
        modelruns(
            [
                "train",
                "--data",
                str(data_dir),
                "--arch",
                "small",
                "--epochs",
                str(EPOCHS),
                "--seed",
                "0",
                "--device",
                "auto",
                "--threads",
                "2",
                "--out",
                str(run),
            ]
        )
        == 0
    )
    manifest = json.loads((run / "run.json").read_text())
    assert manifest["status"] == "complete" and manifest["condition"] == "IID" and manifest["epochs_run"] == EPOCHS
    assert modelruns(["predict", str(run), "--stimuli", str(test), "--out", str(preds)]) == 0

    imported = runner.invoke(
        args=["import-predictions", "study3", str(preds), "--observer", "small", "--unit", "ratio"]
    )
    assert imported.exit_code == 0 and f"{len(test_ids)} predictions for small (run 0, IID)" in imported.output, (
        imported.output
    )
    report = runner.invoke(args=["analyze", "study3", "--format", "json", "--n-boot", "1000"])
    assert report.exit_code == 0, report.output
    data = json.loads(report.stdout)

    label = "small (IID)"
    mlae = [row for row in data["mlae"] if row["label"] == label]
    assert [row["chart_type"] for row in mlae] == [1, 2, 3, 4, 5] and all(row["mlae"] is not None for row in mlae)
    mae = {row["label"]: row for row in data["mae"] if row["chart_type"] == "all"}
    people, model = mae["humans"], mae[label]
    assert people["n_units"] >= PEOPLE - 2 and model["n_judgments"] == len(test_ids)
    assert 0.04 < people["mae_ratio"] < 0.07  # the simulated cohort errs like the paper's people
    # The model has learned to read the charts: always answering the training set's mean ratio would err by
    # about 0.17 on this test. (Beating the people takes a longer run than CI's: `make bench-models`.)
    with open(data_dir / "manifest.csv", newline="") as fh:
        mean_ratio = np.mean([float(row["true_percent"]) / 100 for row in csv.DictReader(fh)])
    with open(test / "manifest.csv", newline="") as fh:
        constant = np.mean([abs(float(row["true_percent"]) / 100 - mean_ratio) for row in csv.DictReader(fh)])
    print(
        f"MAE: small (IID) {model['mae_ratio']:.4f}, simulated people {people['mae_ratio']:.4f}, "
        f"constant answer {constant:.4f}"
    )
    assert constant > 0.15 and model["mae_ratio"] < 0.10, (model["mae_ratio"], constant)
    observer = [row for row in data["effects"] if row["effect"] == "observer" and row["term"] == f"{label} - humans"]
    assert len(observer) == 1 and observer[0]["p_val"] is not None
    inter = [row for row in data["consistency"] if row["kind"] == "inter" and row["observer"] == label]
    assert len(inter) == 1 and inter[0]["r"] is not None and -1 <= inter[0]["r"] <= 1 and inter[0]["n"] >= 20
    text = runner.invoke(args=["analyze", "study3", "--n-boot", "200"]).output
    assert "small (IID)" in text and "r with humans" in text


def test_the_papers_one_network_per_chart_type_end_to_end(app, client, runner, tmp_path):
    """Five per-type runs of one seed (the smallest size: they need not learn), each predicting the whole test, which
    answers its own type's stimuli only; the five files import as one run, merged by chart type, without --unit."""
    rng = random.Random(5)
    for _ in range(3):
        take_study3_like_people(client, rng)
    test = tmp_path / "test"
    assert runner.invoke(args=["stimuli", "export", "study3", "--out", str(test)]).exit_code == 0
    four = tmp_path / "test4"
    result = runner.invoke(args=["stimuli", "export", "study3", "--chart-type", "4", "--out", str(four)])
    assert result.exit_code == 0, result.output
    with open(four / "manifest.csv", newline="") as fh:
        assert {row["chart_type"] for row in csv.DictReader(fh)} == {"4"}
    for chart_type in range(1, 6):
        data_dir, run = tmp_path / f"data{chart_type}", tmp_path / f"run{chart_type}"
        exported = runner.invoke(
            args=["stimuli", "export", "study3", "--training", "32", "--validation", "8", "--regime", "IID"]
            + ["--chart-type", str(chart_type), "--out", str(data_dir)]
        )
        assert exported.exit_code == 0, exported.output
        trained = modelruns(
            ["train", "--data", str(data_dir), "--arch", "small", "--epochs", "1", "--threads", "2"]
            + ["--device", "cpu", "--out", str(run)]
        )
        assert trained == 0
        preds = tmp_path / f"small-{chart_type}.parquet"
        assert modelruns(["predict", str(run), "--stimuli", str(test), "--out", str(preds), "--device", "cpu"]) == 0
        imported = runner.invoke(args=["import-predictions", "study3", str(preds), "--observer", "small"])
        assert imported.exit_code == 0, imported.output
    assert "chart type(s) 5 added to 1 earlier import of the same run" in imported.output
    report = runner.invoke(args=["analyze", "study3", "--format", "json", "--n-boot", "50"])
    assert report.exit_code == 0, report.output
    data = json.loads(report.stdout)
    mae = {row["label"]: row for row in data["mae"] if row["chart_type"] == "all"}
    with open(test / "manifest.csv", newline="") as fh:
        assert mae["small (IID)"]["n_judgments"] == sum(1 for _ in csv.DictReader(fh))
    mlae = [row for row in data["mlae"] if row["label"] == "small (IID)"]
    assert [row["chart_type"] for row in mlae] == [1, 2, 3, 4, 5]
