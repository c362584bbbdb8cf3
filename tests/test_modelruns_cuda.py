"""modelruns on a CUDA device: skipped where there is none, which is everywhere CI runs. It imports nothing of the
server and its data needs no renderer, so it also runs with `pytest --noconftest` on a GPU machine that has only
PyTorch and requirements-models.txt (scripts/gpu-check, docs/models.md "On a GPU")."""

from __future__ import annotations

import csv

import numpy as np
import pytest
import torch
from PIL import Image

from modelruns.train import Options, Speed, restore_rng, train

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")

# The stated tolerance on a resumed run's validation MAE with the speed switches on (docs/models.md "Resuming").
TOLERANCE = 0.005


def random_export(folder, n, name="manifest.csv", offset=0):
    """An export of n random 100×100 charts (their content does not matter to what is tested here)."""
    rng = np.random.default_rng(offset)
    (folder / "images").mkdir(parents=True, exist_ok=True)
    with open(folder / name, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["stimulus_id", "chart_type", "true_percent", "file"])
        for i in range(offset, offset + n):
            Image.fromarray(rng.integers(0, 256, (100, 100), dtype=np.uint8)).save(folder / "images" / f"{i}.png")
            writer.writerow([f"s{i}", 1 + i % 5, f"{rng.uniform(5, 95):.2f}", f"images/{i}.png"])
    return folder


def straight_and_resumed(tmp_path, speed):
    """A VGG19 run (its dropout draws from the CUDA generator) straight through, and the same run interrupted after
    epoch 1 and resumed; returns both manifests and the interrupted run's checkpoint."""
    data = random_export(tmp_path / "data", 64)
    random_export(data, 16, name="validation.csv", offset=1000)

    def run(out, echo=lambda *_: None, resume=False):
        options = Options(data=data, arch="vgg19", epochs=3, seed=1, device="cuda", out=out, batch_size=16)
        options.speed, options.resume = speed, resume
        return train(options, echo=echo)

    straight = run(tmp_path / "a")

    def interrupt(line):
        if line.startswith("epoch 1/"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(tmp_path / "b", echo=interrupt)
    state = torch.load(tmp_path / "b" / "checkpoint.pt", map_location="cpu", weights_only=False)
    return straight, run(tmp_path / "b", resume=True), state


def differences(straight, resumed):
    gaps = [abs(a["val_mae"] - b["val_mae"]) for a, b in zip(straight["history"], resumed["history"], strict=True)]
    print(f"validation MAE, straight vs resumed, per epoch: {gaps}")  # the measured gaps, for docs/models.md
    return gaps


def test_a_checkpoint_keeps_and_restores_every_cuda_random_state(tmp_path):
    _, resumed, state = straight_and_resumed(tmp_path, Speed())
    assert len(state["cuda_rng"]) == torch.cuda.device_count()
    assert all(s.dtype == torch.uint8 and s.device.type == "cpu" for s in state["cuda_rng"])
    torch.cuda.manual_seed_all(12345)
    restore_rng(state, torch.Generator(), torch.device("cuda"))
    assert all(torch.equal(a, b) for a, b in zip(torch.cuda.get_rng_state_all(), state["cuda_rng"], strict=True))
    assert resumed["versions"]["driver"] and resumed["status"] == "complete"


def test_with_the_switches_off_a_resumed_run_repeats_the_straight_one(tmp_path):
    straight, resumed, _ = straight_and_resumed(tmp_path, Speed())
    assert differences(straight, resumed) == [0.0] * 3


def test_with_the_switches_on_a_resumed_run_stays_within_the_stated_tolerance(tmp_path):
    speed = Speed(bf16=True, tf32=True, channels_last=True, pin_memory=True)
    straight, resumed, _ = straight_and_resumed(tmp_path, speed)
    assert resumed["speed"]["bf16"] and resumed["speed"]["channels_last"]
    assert max(differences(straight, resumed)) <= TOLERANCE
