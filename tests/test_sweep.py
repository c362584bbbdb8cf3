"""`python -m modelruns sweep`: a grid from one TOML file, validated key by key, resumable, with a results table and
predictions for `flask import-predictions`."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from modelruns.__main__ import main
from modelruns.predict import read_metadata
from modelruns.sweep import run_sweep
from modelruns.train import RunError
from server.tasks.ratio_estimation import charts
from tests.test_modelruns import tiny_set, write_export

GRID = """
out = "grid"
test = "sets/test"
data = "sets/{regime}-{size}"
seeds = [0, 1]
regimes = ["IID", "OOD"]
sizes = [16]
archs = ["small"]
epochs = 2
device = "cpu"

[train]
batch_size = 8
threads = 1
"""


def sets(root, regimes=("IID", "OOD")):
    for i, regime in enumerate(regimes):
        folder = tiny_set(root / "sets" / f"{regime}-16", n=16, offset=100 * i)
        (folder / "sampling.json").write_text(json.dumps({"regime": regime, "condition": regime, "study": "study3"}))
    tiny_set(root / "sets" / "test", n=10, offset=900)


def test_a_sweep_file_is_checked_key_by_key(tmp_path):
    path = tmp_path / "sweep.toml"
    for edit, message in [
        (lambda s: s.replace("seeds = [0, 1]", 'seeds = ["a"]'), "key seeds.0: Input should be a valid integer"),
        (lambda s: s.replace("seeds =", "sedes ="), "key sedes: Extra inputs are not permitted"),
        (lambda s: s.replace('"OOD"', '"XYZ"'), "key regimes.1: Input should be 'IID', 'COV', 'ADV' or 'OOD'"),
        (lambda s: s.replace("{regime}-", ""), r"data: the pattern needs \{regime\}"),
        (lambda s: s.replace("{size}", "{sizes}"), "key data: Value error, unknown placeholder.s. sizes"),
        (lambda s: s.replace("batch_size = 8", "batch_size = 0"), "key train.batch_size: Input should be greater"),
        (lambda s: s.replace("seeds = [0, 1]", "seeds = [1, 1]"), "key seeds: Value error, has repeated values"),
        (lambda s: s + "[", "not valid TOML"),
    ]:
        path.write_text(edit(GRID))
        with pytest.raises(RunError, match=message):
            run_sweep(path)
    path.write_text(GRID)
    sets(tmp_path, regimes=("IID",))
    with pytest.raises(RunError) as err:
        run_sweep(path)
    # Both seeds train on the one set the pattern gives them, so one export, at the default sampling seed.
    assert f"flask stimuli export SLUG --training 16 --regime OOD --out {tmp_path}/sets/OOD-16\n" in str(err.value)
    assert not (tmp_path / "grid").exists()  # nothing trained before every input is there
    (tmp_path / "sets" / "OOD-16").mkdir()
    tiny_set(tmp_path / "sets" / "OOD-16", n=4)
    for sampling, message in [
        ({"regime": "IID"}, "OOD-16 holds a set with regime IID, not OOD"),
        ({"regime": "OOD", "n_training": 4000}, "OOD-16 holds a set with n_training 4000, not 16"),
    ]:
        (tmp_path / "sets" / "OOD-16" / "sampling.json").write_text(json.dumps(sampling))
        with pytest.raises(RunError, match=message):
            run_sweep(path)


def test_a_two_by_two_grid_runs_resumes_after_an_interruption_and_then_skips_everything(tmp_path, capsys):
    sets(tmp_path)
    path = tmp_path / "sweep.toml"
    path.write_text(GRID)

    def interrupt_the_last_run(line):
        if "small-OOD-16-s1: epoch 1/2" in line:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(path, echo=interrupt_the_last_run)
    assert main(["sweep", str(path), "--status"]) == 0
    view = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in view[:4]] == [
        ["small-IID-16-s0", "done"],
        ["small-OOD-16-s0", "done"],
        ["small-IID-16-s1", "done"],
        ["small-OOD-16-s1", "running"],
    ]
    assert "epoch   1/2" in view[3] and "val_mae" not in view[3] and view[-1] == "3/4 runs done"

    lines = []
    run_sweep(path, echo=lines.append)
    assert [line for line in lines if line.startswith("[")] == ["[4/4] small-OOD-16-s1: resuming"]
    log = (tmp_path / "grid" / "runs" / "small-OOD-16-s1" / "train.log").read_text()
    assert log.count("epoch 1/2:") == 1 and log.count("epoch 2/2:") == 1 and "resumed after epoch 1" in log
    assert json.loads((tmp_path / "grid" / "runs" / "small-OOD-16-s1" / "run.json").read_text())["command"] == (
        f"python -m modelruns sweep {path}"
    )

    table = pd.read_csv(tmp_path / "grid" / "results.csv", dtype={"chart_type": str})
    assert set(table.columns) == {
        *("arch", "condition", "size", "chart_type", "seeds", "mae", "mae_ci_low", "mae_ci_high"),
        *("mlae", "mlae_ci_low", "mlae_ci_high"),
    }
    assert len(table) == 2 * 6  # two conditions × (all + five chart types)
    row = table[(table["condition"] == "IID") & (table["chart_type"] == "all")].iloc[0]
    assert row["seeds"] == 2 and row["mae_ci_low"] <= row["mae"] <= row["mae_ci_high"]
    # the mean over the two seeds of each run's MAE on the ten test stimuli, recomputed from the predictions
    test = pd.read_csv(tmp_path / "sets" / "test" / "manifest.csv")
    maes = []
    for seed in (0, 1):
        p = pd.read_parquet(tmp_path / "grid" / "predictions" / f"small-IID-16-s{seed}.parquet")
        df = test.merge(p, on="stimulus_id")
        maes.append((df["prediction"] - df["true_percent"] / 100).abs().mean())
    assert math.isclose(row["mae"], sum(maes) / 2)
    assert math.isclose(row["mlae"], sum(math.log2(m * 100 + 0.125) for m in maes) / 2)
    meta = read_metadata(tmp_path / "grid" / "predictions" / "small-OOD-16-s1.parquet")
    assert meta["run"] == 1 and meta["condition"] == "OOD" and meta["observer"] == "small"
    script = (tmp_path / "grid" / "import.sh").read_text()
    assert f"flask import-predictions study3 {tmp_path}/grid/predictions/small-IID-16-s0.parquet --observer small" in (
        script
    )

    before = (tmp_path / "grid" / "results.csv").read_bytes()
    lines = []
    run_sweep(path, echo=lines.append)
    assert not [line for line in lines if line.startswith("[")]  # nothing trained again
    assert (tmp_path / "grid" / "results.csv").read_bytes() == before
    path.write_text(GRID.replace("epochs = 2", "epochs = 3"))
    with pytest.raises(RunError, match="was trained with epochs 2, the sweep file says 3"):
        run_sweep(path)


def test_per_type_networks_train_one_network_per_chart_type_and_pool_them_per_seed(tmp_path):
    for t in (1, 2):
        stimuli = [charts.BarStimulus(t, 8 + i, 30 + 2 * i, 200 * t + i) for i in range(8)]
        write_export(tmp_path / "sets" / f"IID-t{t}", stimuli)
        (tmp_path / "sets" / f"IID-t{t}" / "sampling.json").write_text(json.dumps({"regime": "IID"}))
        write_export(tmp_path / "sets" / f"test-t{t}", [charts.BarStimulus(t, 9 + i, 41, 900 + i) for i in range(4)])
    path = tmp_path / "sweep.toml"
    path.write_text(
        GRID.replace("seeds = [0, 1]", "seeds = [0]")
        .replace('["IID", "OOD"]', '["IID"]')
        .replace('"sets/{regime}-{size}"', '"sets/{regime}-t{chart_type}"')
        .replace('"sets/test"', '"sets/test-t{chart_type}"')
        .replace("epochs = 2", 'epochs = 1\nnetworks = "per-type"\nchart_types = [1, 2]')
    )
    run_sweep(path, echo=lambda *_: None)
    table = pd.read_csv(tmp_path / "grid" / "results.csv", dtype={"chart_type": str}).set_index("chart_type")
    assert list(table.index) == ["1", "2", "all"] and set(table["seeds"]) == {1}
    assert math.isclose(table.loc["all", "mae"], (table.loc["1", "mae"] + table.loc["2", "mae"]) / 2)  # 4 + 4 stimuli
    assert math.isnan(table.loc["all", "mae_ci_low"])  # no interval from one seed
    for t in (1, 2):
        manifest = json.loads((tmp_path / "grid" / "runs" / f"small-IID-16-s0-t{t}" / "run.json").read_text())
        assert manifest["chart_types"] == [t]
