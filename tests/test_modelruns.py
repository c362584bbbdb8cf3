"""modelruns without the server: reading exports (errors name the row and column), seeded training that repeats
itself, checkpoints and --resume, local weights, and the predictions file `flask import-predictions` reads."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import pyarrow.parquet as pq
import pytest
import torch

from modelruns.__main__ import main
from modelruns.architectures import ARCHITECTURES, VGG19, build
from modelruns.data import DataError, read_images
from modelruns.predict import read_metadata
from modelruns.train import Options, RunError, Speed, load_weights, pick_device, restore_rng, rng_states, train
from server.imports.predictions import OPTIONAL, REQUIRED
from server.tasks.ratio_estimation import charts as charts
from tests.conftest import ROOT

HEADER = ["stimulus_id", "chart_type", "short_height", "tall_height", "true_percent", "practice", "file"]


def write_export(folder, stimuli, name="manifest.csv"):
    """A folder laid out as `flask stimuli export` writes it, drawn with the same renderer."""
    (folder / "images").mkdir(parents=True, exist_ok=True)
    with open(folder / name, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(HEADER)
        for s in stimuli:
            (folder / "images" / f"{s.stimulus_id}.png").write_bytes(charts.render_png(charts.layout(s)))
            writer.writerow(
                [s.stimulus_id, s.chart_type, s.short, s.tall, s.true_percent, False, f"images/{s.stimulus_id}.png"]
            )
    return folder


def tiny_set(folder, n=24, offset=0):
    pairs = [(8 + i % 15, 30 + i % 20) for i in range(n)]
    return write_export(folder, [charts.BarStimulus(1 + i % 5, s, t, offset + i) for i, (s, t) in enumerate(pairs)])


def test_importing_the_server_never_loads_torch():
    code = (
        "import sys; from server import create_app; create_app({'SQLALCHEMY_DATABASE_URI': 'sqlite://', "
        "'SECRET_KEY': 'x'}); import analysis, server.results.analyze, server.stimuli.for_models, "
        "server.imports.predictions; "
        "print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_read_images_names_the_row_and_column_of_a_problem(tmp_path):
    tiny_set(tmp_path, n=3)
    images = read_images(tmp_path / "manifest.csv", labels=True)
    assert images.ink.shape == (3, 1, 100, 100) and images.ink.dtype.name == "uint8"
    assert images.ink.max() == 255 and images.ink.min() == 0 and len(images.digest) == 64
    lines = (tmp_path / "manifest.csv").read_text().splitlines()
    for row, edit, message in [
        (2, lambda r: r.replace(",False,", ",False,").replace(r.split(",")[4], "101"), "row 2, column true_percent"),
        (3, lambda r: r.rsplit(",", 1)[0] + ",images/missing.png", "row 3, column file: cannot read image"),
        (1, lambda r: "," + r.split(",", 1)[1], "row 1, column stimulus_id: empty"),
    ]:
        changed = lines.copy()
        changed[row] = edit(changed[row])
        bad = tmp_path / "bad.csv"
        bad.write_text("\n".join(changed) + "\n")
        with pytest.raises(DataError, match=message):
            read_images(bad, labels=True)
    bad = tmp_path / "nolabels.csv"
    bad.write_text("stimulus_id,chart_type,file\nx,1,images/x.png\n")
    with pytest.raises(DataError, match="missing column.s. true_percent"):
        read_images(bad, labels=True)


def test_training_repeats_itself_with_a_seed_and_resumes_from_its_checkpoint(tmp_path):
    data = tiny_set(tmp_path / "data")
    tiny_set(tmp_path / "val", n=8, offset=100)
    (tmp_path / "val" / "manifest.csv").rename(tmp_path / "data" / "validation.csv")
    for f in (tmp_path / "val" / "images").iterdir():
        f.rename(data / "images" / f.name)

    def run(out, epochs, resume=False, seed=3):
        return train(
            Options(
                data=data,
                arch="small",
                epochs=epochs,
                seed=seed,
                device="cpu",
                out=out,
                batch_size=8,
                threads=1,
                resume=resume,
            ),
            echo=lambda *_: None,
        )

    a, b = run(tmp_path / "a", 2), run(tmp_path / "b", 2)
    wa, wb = (torch.load(tmp_path / x / "model.pt", weights_only=True) for x in "ab")
    assert all(torch.equal(wa[k], wb[k]) for k in wa)
    assert [h["train_mse"] for h in a["history"]] == [h["train_mse"] for h in b["history"]]
    assert a["status"] == "complete" and a["data"]["hash"] == b["data"]["hash"] and a["data"]["n_validation"] == 8
    assert {"arch", "seed", "epochs", "device", "versions", "wall_seconds", "seconds_per_epoch"} <= set(a)
    assert a["versions"]["torch"] == torch.__version__ and a["device"] == "cpu"
    other = run(tmp_path / "c", 2, seed=4)
    assert other["history"][0]["train_mse"] != a["history"][0]["train_mse"]

    # Interrupted after its first epoch (Ctrl-C), then --resume: the metrics and weights of two epochs straight.
    def interrupt(line):
        if line.startswith("epoch 1/"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(
            Options(
                data=data, arch="small", epochs=2, seed=3, device="cpu", out=tmp_path / "d", batch_size=8, threads=1
            ),
            echo=interrupt,
        )
    assert json.loads((tmp_path / "d" / "run.json").read_text())["status"] == "training"
    with pytest.raises(RunError, match="not empty"):
        run(tmp_path / "d", 2)
    resumed = run(tmp_path / "d", 2, resume=True)
    wd = torch.load(tmp_path / "d" / "model.pt", weights_only=True)
    assert all(torch.equal(wa[k], wd[k]) for k in wa)
    assert [(h["train_mse"], h["val_mse"], h["val_mae"]) for h in resumed["history"]] == [
        (h["train_mse"], h["val_mse"], h["val_mae"]) for h in a["history"]
    ]
    log = (tmp_path / "d" / "train.log").read_text()
    assert log.count("epoch 1/2: train mse") == 1 and "resumed after epoch 1" in log and "# complete" in log
    with pytest.raises(RunError, match="not empty"):
        run(tmp_path / "a", 2)
    with pytest.raises(RunError, match="started with seed 3"):
        run(tmp_path / "d", 2, resume=True, seed=5)
    # Another validation set under the same folder: refused, both hashes named.
    first = a["data"]["validation_hash"]
    lines = (data / "validation.csv").read_text().splitlines()
    (data / "validation.csv").write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(RunError, match=f"validation data hash {first} at the start, [0-9a-f]{{64}} now"):
        run(tmp_path / "d", 2, resume=True)


def test_a_checkpoint_restores_the_random_states_bit_for_bit(tmp_path):
    data = tiny_set(tmp_path / "data", n=8)
    train(
        Options(data=data, arch="small", epochs=1, seed=1, device="cpu", out=tmp_path / "r", batch_size=4, threads=1),
        echo=lambda *_: None,
    )
    state = torch.load(tmp_path / "r" / "checkpoint.pt", map_location="cpu", weights_only=False)
    assert state["cuda_rng"] is None  # a CPU run; a CUDA run keeps torch.cuda.get_rng_state_all() there
    torch.manual_seed(12345)  # somewhere else entirely
    generator = torch.Generator().manual_seed(99)
    restore_rng(state, generator, torch.device("cpu"))
    assert torch.equal(generator.get_state(), state["generator"])
    assert torch.equal(torch.get_rng_state(), state["torch_rng"])
    saved = rng_states(torch.device("cpu"))
    assert torch.equal(saved["torch_rng"], state["torch_rng"]) and saved["torch_rng"].dtype == torch.uint8
    # what they draw next is the same as what the saved states draw
    expected = torch.Generator().manual_seed(0)
    expected.set_state(state["generator"])
    assert torch.equal(torch.randperm(50, generator=generator), torch.randperm(50, generator=expected))


def test_the_head_and_its_answer_stay_fp32_under_bf16_autocast():
    model = build("small")
    x, t = torch.randint(0, 256, (4, 1, 100, 100), dtype=torch.uint8), torch.tensor([1, 2, 3, 5])
    with torch.autocast("cpu", dtype=torch.bfloat16):
        features = model.features(torch.cat([x.float() / 255, model.coords.expand(4, -1, -1, -1)], 1))
        p = model(x, t)
    assert features.dtype == torch.bfloat16 and p.dtype == torch.float32
    p.sum().backward()
    assert model.regressor[1].weight.grad.dtype == torch.float32
    assert torch.allclose(p, model(x, t), atol=0.05)  # bf16 features, same answer to a few percent


def test_vgg19_starts_with_features_that_tell_charts_apart(tmp_path):
    """Under PyTorch's default initialisation every chart got the same VGG19 features (their spread between
    images 1e-5 of their size) and a 60,000-image run learned only the mean; Keras's, the papers', spreads them."""
    images = read_images(tiny_set(tmp_path / "data", n=12) / "manifest.csv", labels=True)
    torch.manual_seed(0)
    model = build("vgg19").eval()
    assert all(not m.bias.any() for m in model.modules() if isinstance(m, (torch.nn.Conv2d, torch.nn.Linear)))
    with torch.no_grad():
        features = model.features(torch.from_numpy(images.ink).float().div(255).expand(-1, 3, -1, -1)).flatten(1)
    spread = features.std(0).pow(2).mean().sqrt() / features.pow(2).mean().sqrt()
    assert spread > 0.05


def test_a_device_this_machine_lacks_is_refused_before_anything_is_read(tmp_path, monkeypatch):
    data = tiny_set(tmp_path / "data", n=4)

    def attempt(device, **speed):
        options = Options(data=data, arch="small", epochs=1, seed=0, device=device, out=tmp_path / "e")
        if speed:
            options.speed = Speed(**speed)
        with pytest.raises(RunError) as err:
            train(options)
        assert not (tmp_path / "e").exists()
        return str(err.value)

    if not torch.cuda.is_available():
        assert "no CUDA device" in attempt("cuda:5") and "no CUDA device" in attempt("cuda")
    assert "not a device" in attempt("gpu")
    assert attempt("cpu", bf16=True, channels_last=True) == (
        "--bf16, --channels-last: speed switches for CUDA devices; this run is on cpu (drop them there)"
    )
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    assert "has 1 CUDA device(s), cuda:0–cuda:0" in attempt("cuda:5")
    assert pick_device("cuda") == torch.device("cuda", 0) == pick_device("cuda:0")


def test_local_weights_load_into_the_backbone_by_torchvision_names(tmp_path):
    source = VGG19()
    state = {**source.state_dict(), "classifier.6.weight": torch.zeros(1000, 4096)}  # an ImageNet head: skipped
    assert "features.0.weight" in state and "features.34.weight" in state  # torchvision's VGG19 names
    torch.save(state, tmp_path / "vgg19.pt")
    target = VGG19()
    info = load_weights(target, tmp_path / "vgg19.pt")
    assert torch.equal(target.features[0].weight, source.features[0].weight)
    assert not torch.equal(target.regressor[1].weight, source.regressor[1].weight)  # the head starts fresh
    assert info["loaded"] == 32 and info["skipped"] == 5  # 16 convolutions × (weight, bias); head + ImageNet's
    assert {"conv1.weight", "layer4.2.bn3.running_var"} <= set(build("resnet50").state_dict())
    torch.save(build("small").state_dict(), tmp_path / "small.pt")
    with pytest.raises(RunError, match="no parameter matches"):
        load_weights(VGG19(), tmp_path / "small.pt")
    assert set(ARCHITECTURES) == {"small", "vgg19", "resnet50"}


def test_cli_trains_and_predicts_the_file_import_predictions_reads(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("STUDYHIVE_COMMIT", "c0ffee")  # else git's HEAD
    data = tiny_set(tmp_path / "data", n=16)
    test = tiny_set(tmp_path / "test", n=10, offset=500)
    (data / "sampling.json").write_text(json.dumps({"regime": "COV", "condition": "COV-7", "bins": 7, "seed": 1}))
    assert (
        main(
            [
                "train",
                "--data",
                str(data),
                "--arch",
                "small",
                "--epochs",
                "1",
                "--seed",
                "7",
                "--device",
                "auto",
                "--out",
                str(tmp_path / "run"),
                "--threads",
                "1",
                "--observer",
                "tiny",
            ]
        )
        == 0
    )
    assert "trained small (COV-7, seed 7) on cpu" in capsys.readouterr().out
    manifest = json.loads((tmp_path / "run" / "run.json").read_text())
    assert (
        manifest["command"].startswith("python -m modelruns train --data ") and "--observer tiny" in manifest["command"]
    )
    assert manifest["commit"] == "c0ffee" and not any(manifest["speed"].values())
    assert "epoch 1/1: train mse" in (tmp_path / "run" / "train.log").read_text()
    assert (
        main(
            [
                "predict",
                str(tmp_path / "run"),
                "--stimuli",
                str(test),
                "--out",
                str(tmp_path / "p.parquet"),
                "--threads",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "flask import-predictions SLUG" in out and out.endswith("--observer tiny\n")  # the unit is in the file
    table = pq.read_table(tmp_path / "p.parquet")
    assert set(REQUIRED) <= set(table.column_names) <= set(REQUIRED + OPTIONAL)
    df = table.to_pandas()
    assert sorted(df["stimulus_id"]) == sorted(r["stimulus_id"] for r in csv.DictReader(open(test / "manifest.csv")))
    assert df["prediction"].between(0, 1).all() and set(df["run"]) == {7} and set(df["condition"]) == {"COV-7"}
    meta = read_metadata(tmp_path / "p.parquet")
    assert meta["observer"] == "tiny" and meta["unit"] == "ratio" and meta["run_manifest"]["arch"] == "small"
    assert (
        main(["predict", str(tmp_path / "nothing"), "--stimuli", str(test), "--out", str(tmp_path / "q.parquet")]) == 2
    )
    assert "not a trained run" in capsys.readouterr().err and not (tmp_path / "q.parquet").exists()
    assert (
        main(
            [
                "train",
                "--data",
                str(tmp_path / "none"),
                "--arch",
                "small",
                "--epochs",
                "1",
                "--out",
                str(tmp_path / "r"),
            ]
        )
        == 2
    )
    assert "no such manifest" in capsys.readouterr().err
