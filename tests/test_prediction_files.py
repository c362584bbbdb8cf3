"""What a predictions file of `python -m modelruns predict` says about itself (issue #28): its unit (no --unit needed;
a conflicting one refused), its run manifest (kept with the run), and its chart types (the papers' one network per
chart type: five per-type files of one run merge by chart type; --replace replaces only the file's types)."""

import json
import random

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from server.db import db
from server.imports.predictions import MODELRUN_METADATA
from server.models import ModelRun, Prediction, Stimulus
from server.studies.definitions import get_study
from tests.helpers import take_study3_like_people
from tests.test_predictions import counts, model_run, stored


@pytest.fixture
def by_type(app):
    """study3's test stimuli: {chart type: [(key, true ratio)]}."""
    out: dict[int, list] = {}
    for stim in db.session.scalars(
        db.select(Stimulus).filter_by(study_id=get_study("study3").id, practice=False).order_by(Stimulus.key)
    ):
        out.setdefault(stim.params["chart_type"], []).append((stim.key, stim.params["true_percent"] / 100))
    return out


def write_predictions(path, rows, meta=None, run=0, condition="IID"):
    """A Parquet file laid out as modelruns/predict.py writes it: rows are (stimulus key, prediction)."""
    table = pa.table(
        {
            "stimulus_id": [k for k, _ in rows],
            "prediction": [float(v) for _, v in rows],
            "run": pa.array([run] * len(rows), pa.int64()),
            "condition": [condition] * len(rows),
        }
    )
    if meta is not None:
        table = table.replace_schema_metadata({MODELRUN_METADATA: json.dumps(meta).encode()})
    pq.write_table(table, path)
    return path


def meta(chart_types, **manifest):
    return {
        "observer": "vgg19",
        "unit": "ratio",
        "chart_types": chart_types,
        "run_manifest": {"arch": "vgg19", "chart_types": chart_types, "commit": "abc123", **manifest},
    }


def test_the_metadata_key_is_the_one_predict_writes():
    predict = pytest.importorskip("modelruns.predict")  # modelruns needs torch; the server never imports it
    assert predict.METADATA_KEY == MODELRUN_METADATA


def test_the_files_unit_is_used_and_a_conflicting_unit_refused(runner, client, by_type, tmp_path):
    rows = [(key, ratio) for stimuli in by_type.values() for key, ratio in stimuli]
    path = write_predictions(tmp_path / "p.parquet", rows, meta([1, 2, 3, 4, 5]))
    refused = runner.invoke(args=["import-predictions", "study3", str(path), "--observer", "m", "--unit", "percent"])
    assert refused.exit_code == 1
    assert "the file says its predictions are in ratio" in refused.output and "--unit says percent" in refused.output
    assert counts() == (0, 0)
    plain = write_predictions(tmp_path / "plain.parquet", rows)  # no metadata: the unit must be given
    refused = runner.invoke(args=["import-predictions", "study3", str(plain), "--observer", "m"])
    assert refused.exit_code == 1 and "--unit is required" in refused.output and counts() == (0, 0)

    # The file's unit: answers 0.05 too high give an MAE of 0.05 (read as percent they would be ~0.5 off).
    off = write_predictions(tmp_path / "off.parquet", [(k, min(r + 0.05, 1.0)) for k, r in rows], meta([1, 2, 3, 4, 5]))
    result = runner.invoke(args=["import-predictions", "study3", str(off), "--observer", "m"])
    assert result.exit_code == 0, result.output
    run = model_run("m", condition="IID")
    assert run.unit == "ratio" and run.n_predictions == len(rows)
    assert run.manifests == [{"file": "off.parquet", **meta([1, 2, 3, 4, 5])}]  # the run manifest, kept
    rng = random.Random(3)
    for _ in range(3):  # the report needs people beside the model
        take_study3_like_people(client, rng)
    report = runner.invoke(args=["analyze", "study3", "--format", "json", "--n-boot", "50", "--mlae", "participant"])
    assert report.exit_code == 0, report.output
    data = json.loads(report.stdout)
    mae = {(r["label"], r["chart_type"]): r for r in data["mae"]}
    # The analysis shows each run's manifest (the report's JSON, and report.json of --out)
    assert data["meta"]["model_manifests"] == [
        {"observer": "m", "condition": "IID", "run": 0, "files": [{"file": "off.parquet", **meta([1, 2, 3, 4, 5])}]}
    ]
    expected = sum(min(r + 0.05, 1.0) - r for _, r in rows) / len(rows)
    assert mae[("m (IID)", "all")]["mae_ratio"] == pytest.approx(expected, abs=1e-9)
    assert 0.04 < expected < 0.051  # ratio units: read as percent it would be 100 times smaller


def test_per_type_files_of_one_run_merge_by_chart_type(runner, by_type, tmp_path):
    files = {
        t: write_predictions(tmp_path / f"type{t}.parquet", [(k, 0.5) for k, _ in stimuli], meta([t], bins=t))
        for t, stimuli in by_type.items()
    }
    for path in files.values():
        result = runner.invoke(args=["import-predictions", "study3", str(path), "--observer", "vgg19"])
        assert result.exit_code == 0, result.output
    assert "chart type(s) 5 added to 1 earlier import of the same run" in result.output
    run = model_run("vgg19", condition="IID")
    total = sum(len(s) for s in by_type.values())
    assert run.n_predictions == total and counts() == (1, total)
    assert [m["run_manifest"]["bins"] for m in run.manifests] == [1, 2, 3, 4, 5]
    assert run.source == "; ".join(f"type{t}.parquet" for t in files)

    # A part imported again: refused, naming the stimuli, nothing written.
    again = runner.invoke(args=["import-predictions", "study3", str(files[4]), "--observer", "vgg19"])
    assert again.exit_code == 1
    four = [k for k, _ in by_type[4]]
    assert f"vgg19 run 0 condition 'IID' has predictions for these stimuli already: {', '.join(four[:10])}" in (
        again.output
    )
    assert "add --replace to replace that run's predictions of this file's chart types" in again.output
    assert counts() == (1, total)

    # A file whose rows are not of the chart types it declares is refused.
    wrong = write_predictions(tmp_path / "wrong.parquet", [(by_type[1][0][0], 0.3)], meta([4]))
    refused = runner.invoke(args=["import-predictions", "study3", str(wrong), "--observer", "vgg19", "--replace"])
    assert refused.exit_code == 1 and "not of the chart type(s) 4 the file's metadata declares" in refused.output
    assert counts() == (1, total)

    # --replace replaces the file's chart types only: the other four networks' predictions stay.
    new = write_predictions(tmp_path / "new4.parquet", [(k, 0.25) for k in four[:5]], meta([4], bins=40))
    result = runner.invoke(args=["import-predictions", "study3", str(new), "--observer", "vgg19", "--replace"])
    assert result.exit_code == 0, result.output
    assert "chart type(s) 4 replaced in 1 earlier import of the same run" in result.output
    values = stored("vgg19", condition="IID")
    assert {k: values[k] for k in four if k in values} == dict.fromkeys(four[:5], 25.0)
    assert all(values[k] == 50.0 for t in (1, 2, 3, 5) for k, _ in by_type[t])
    run = model_run("vgg19", condition="IID")
    db.session.refresh(run)
    assert run.n_predictions == total - len(four) + 5 == len(values)
    assert [m["run_manifest"]["bins"] for m in run.manifests] == [1, 2, 3, 5, 40]
    assert db.session.scalar(db.select(db.func.count()).select_from(Prediction)) == run.n_predictions
    assert db.session.scalar(db.select(db.func.count()).select_from(ModelRun)) == 1
