"""`flask analyze` reports model error against training–test distance (the seed paper's §7.1 and Figure 14) for runs
whose imported files carry the training bins (issue #28): per distance bin of the test stimuli, and per run with
Pearson r across runs."""

import csv
import json
import random

import numpy as np
import pytest

from server.db import db
from server.models import Stimulus
from server.studies.definitions import get_study
from server.tasks.ratio_estimation import sampling
from tests.helpers import take_study3_like_people
from tests.test_prediction_files import write_predictions


def test_error_against_training_test_distance(runner, client, tmp_path):
    rng = random.Random(11)
    for _ in range(3):
        take_study3_like_people(client, rng)
    stimuli = db.session.scalars(
        db.select(Stimulus).filter_by(study_id=get_study("study3").id, practice=False).order_by(Stimulus.key)
    ).all()
    pairs = [(s.params["short_height"], s.params["tall_height"]) for s in stimuli]
    ratio = np.array([s / t for s, t in pairs])
    expected = {}
    for regime in sampling.REGIMES:
        bins = list(sampling.plan(pairs, regime, None, 0, [1, 2, 3, 4, 5]).training_bins)
        train = np.array(sampling.training_ratios(bins, [1, 2, 3, 4, 5]))
        distance = np.abs(ratio[:, None] - train[None, :]).min(axis=1)
        # A model that errs by twice a stimulus's distance from its training ratios, plus 0.01
        predicted = np.clip(ratio + 2 * distance + 0.01, 0, 1)
        meta = {
            "unit": "ratio",
            "chart_types": [1, 2, 3, 4, 5],
            "run_manifest": {"chart_types": [1, 2, 3, 4, 5], "training_bins": bins, "regime": regime},
        }
        path = write_predictions(
            tmp_path / f"{regime}.parquet", list(zip([s.key for s in stimuli], predicted)), meta, condition=regime
        )
        result = runner.invoke(args=["import-predictions", "study3", str(path), "--observer", "small"])
        assert result.exit_code == 0, result.output
        expected[f"small ({regime})"] = (distance.mean(), np.abs(predicted - ratio).mean(), distance)
    # A run without training bins (a CSV of another tool) is analysed as before, left out of the distance tables.
    other = tmp_path / "other.csv"
    other.write_text("stimulus_id,prediction\n" + "".join(f"{s.key},50\n" for s in stimuli))
    assert (
        runner.invoke(
            args=["import-predictions", "study3", str(other), "--observer", "x", "--unit", "percent"]
        ).exit_code
        == 0
    )

    out = tmp_path / "report"
    report = runner.invoke(args=["analyze", "study3", "--format", "json", "--n-boot", "50", "--out", str(out)])
    assert report.exit_code == 0, report.output
    data = json.loads(report.stdout)
    runs = {row["label"]: row for row in data["distance_runs"]}
    assert set(runs) == set(expected)
    for label, (distance, mae, _) in expected.items():
        assert runs[label]["distance"] == pytest.approx(distance, abs=1e-9)
        assert runs[label]["mae_ratio"] == pytest.approx(mae, abs=1e-6)
    assert expected["small (OOD)"][0] > expected["small (IID)"][0]  # OOD is far from the test, as in the paper
    r = data["meta"]["distance_correlation"]
    assert r["n"] == 4 and r["r"] > 0.9
    by_bin = [row for row in data["distance"] if row["label"] == "small (OOD)"]
    distances = expected["small (OOD)"][2]
    for row in by_bin:
        inside = (distances >= row["low"]) & (distances < row["high"])
        assert row["n_cells"] == inside.sum()
    assert sum(row["n_cells"] for row in by_bin) == len(stimuli)
    assert (out / "distance_error.png").stat().st_size > 0 and (out / "distance_runs.csv").is_file()
    assert "**Training–test distance.** For the 4 run(s)" in (out / "methods.md").read_text(encoding="utf-8")
    text = runner.invoke(args=["analyze", "study3", "--n-boot", "50"]).output
    assert "Error against training–test distance" in text and "n = 4 runs" in text


def test_a_random_bins_test_for_model_only_evaluation(runner, app, tmp_path):
    stimuli = db.session.scalars(
        db.select(Stimulus).filter_by(study_id=get_study("study3").id, practice=False).order_by(Stimulus.key)
    ).all()
    pairs = [(s.params["short_height"], s.params["tall_height"]) for s in stimuli]
    # Against the study's test (bins 18–86), ADV trains mostly outside that range: partly an extrapolation regime.
    adv = sampling.plan(pairs, "ADV", None, 0, [1, 2, 3, 4, 5])
    outside = [b for b in adv.training_bins if not adv.test_bins[0] <= b <= adv.test_bins[-1]]
    assert (adv.test_bins[0], adv.test_bins[-1]) == (18, 86) and len(outside) > len(adv.training_bins) / 2

    out = tmp_path / "adv"
    result = runner.invoke(
        args=["stimuli", "export", "study3", "--training", "30", "--validation", "6", "--regime", "ADV"]
        + ["--random-test", "40", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "40 random-bins test images (test/)" in result.output
    record = json.loads((out / "sampling.json").read_text())
    assert record["test_bins"] == list(sampling.random_test_bins()) and len(record["test_bins"]) == 19
    assert not set(record["training_bins"]) & set(record["test_bins"])
    with open(out / "test" / "manifest.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 40 and all((out / "test" / row["file"]).is_file() for row in rows)
    assert {sampling.ratio_bin(int(r["short_height"]), int(r["tall_height"])) for r in rows} <= set(record["test_bins"])
    # Over the whole domain ADV's bins lie between test bins (interpolation), as in the paper.
    inside = [b for b in record["training_bins"] if record["test_bins"][0] <= b <= record["test_bins"][-1]]
    assert len(inside) > len(record["training_bins"]) / 2
    # The same test for every regime and seed
    iid = tmp_path / "iid"
    args = ["stimuli", "export", "study3", "--training", "30", "--regime", "IID", "--seed", "3"]
    assert runner.invoke(args=args + ["--random-test", "40", "--out", str(iid)]).exit_code == 0
    assert (iid / "test" / "manifest.csv").read_text() == (out / "test" / "manifest.csv").read_text()
    refused = runner.invoke(args=["stimuli", "export", "study3", "--random-test", "40", "--out", str(tmp_path / "x")])
    assert refused.exit_code != 0 and "--random-test: only with --training N" in refused.output
