"""Training throughput of `python -m modelruns train` beside a bare PyTorch loop, per architecture and precision: the
first table of `make bench-models` (bench/models.py). Not a test: nothing is asserted; the goal is ≥ 0.8 of the bare
loop (docs/models.md "Speed").

Ours is `train` on an export of random images (PNG files, as `flask stimuli export` writes them; no validation set),
timed by its own epochs (their `seconds`: the training steps, after the data is read). The bare loop is the same
model, optimiser, batch size and precision on the same number of images already on the device, in order, nothing
else: no batch-order shuffle, no learning-rate schedule, no checkpoint, no progress bar, timed per epoch after a
synchronisation. Each reports its best epoch after the first (warm-up) of EPOCHS: on a shared machine the best is
the least disturbed.

BENCH_SPEED: arch:IMAGES, comma-separated [on a CPU small:1024,vgg19:64,resnet50:64; on CUDA 8192 each].
Precisions: fp32 (speed switches off) everywhere; on CUDA also bf16 with every switch but compile (TF32,
channels_last, pinned memory), the switches train refuses on a CPU.
"""

from __future__ import annotations

import csv
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
from PIL import Image

from .tables import markdown_table

CPU_DEFAULT = "small:512,vgg19:32,resnet50:32"
CUDA_DEFAULT = "small:8192,vgg19:8192,resnet50:8192"
BATCH = 32
EPOCHS = 4
FAST = {"bf16": True, "tf32": True, "channels_last": True, "pin_memory": True}


def write_images(folder: Path, n: int) -> Path:
    """An export of n random 100×100 grayscale charts (content does not change the time a step takes)."""
    rng = np.random.default_rng(0)
    (folder / "images").mkdir(parents=True)
    with open(folder / "manifest.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["stimulus_id", "chart_type", "true_percent", "file"])
        for i in range(n):
            Image.fromarray(rng.integers(0, 256, (100, 100), dtype=np.uint8)).save(folder / "images" / f"{i}.png")
            writer.writerow([f"s{i}", 1 + i % 5, f"{rng.uniform(5, 95):.2f}", f"images/{i}.png"])
    return folder


def bare(arch: str, n: int, device: torch.device, speed) -> float:
    """Images per second of the plainest loop over data already on the device (its best epoch after the first)."""
    from modelruns.architectures import build
    from modelruns.train import DEFAULTS, autocast, set_precision

    torch.manual_seed(0)
    set_precision(speed)
    memory = torch.channels_last if speed.channels_last else torch.contiguous_format
    model = build(arch).to(device, memory_format=memory).train()
    lr = DEFAULTS[arch]["lr"]
    if DEFAULTS[arch]["optimizer"] == "adam":
        optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    else:
        optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, nesterov=True)
    x = torch.randint(0, 256, (n, 1, 100, 100), dtype=torch.uint8, device=device).contiguous(memory_format=memory)
    t = torch.randint(1, 6, (n,), device=device)
    y = torch.rand(n, device=device)
    seconds = []
    for _ in range(EPOCHS):
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        tick = time.perf_counter()
        for start in range(0, n, BATCH):
            optimizer.zero_grad(set_to_none=True)
            with autocast(device, speed):
                p = model(x[start : start + BATCH], t[start : start + BATCH])
            torch.nn.functional.mse_loss(p.float(), y[start : start + BATCH]).backward()
            optimizer.step()
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        seconds.append(time.perf_counter() - tick)
    return n / min(seconds[1:])


def ours(arch: str, data: Path, n: int, device: torch.device, speed, out: Path, threads: int | None) -> float:
    from modelruns.train import Options, train

    run = train(
        Options(
            data=data,
            arch=arch,
            epochs=EPOCHS,
            seed=0,
            device=str(device),
            out=out,
            batch_size=BATCH,
            threads=threads,
            speed=speed,
            command=["bench.model_speed"],
        ),
        echo=lambda *_: None,
    )
    return n / min(h["seconds"] for h in run["history"][1:])


def speed_table() -> str:
    from modelruns.train import Speed, pick_device

    device = pick_device(os.environ.get("BENCH_DEVICE", "auto"))
    threads = int(os.environ["BENCH_THREADS"]) if os.environ.get("BENCH_THREADS") else None
    if threads:
        torch.set_num_threads(threads)
    spec = os.environ.get("BENCH_SPEED") or (CUDA_DEFAULT if device.type == "cuda" else CPU_DEFAULT)
    precisions = {"fp32": Speed()} | ({"bf16": Speed(**FAST)} if device.type == "cuda" else {})
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else f"cpu, {torch.get_num_threads()} threads"
    rows = [("arch", "precision", "device", "images", "batch", "ours images/s", "bare loop images/s", "ours / bare")]
    with tempfile.TemporaryDirectory(prefix="studyhive-bench-speed-") as scratch:
        scratch = Path(scratch)
        for item in filter(None, spec.split(",")):
            arch, n = item.split(":")
            n = int(n)
            data = scratch / f"data-{n}"
            if not data.exists():
                write_images(data, n)
            for precision, speed in precisions.items():
                a = ours(arch, data, n, device, speed, scratch / f"run-{arch}-{n}-{precision}", threads)
                b = bare(arch, n, device, speed)
                rows.append((arch, precision, name, f"{n:,}", str(BATCH), f"{a:,.1f}", f"{b:,.1f}", f"{a / b:.2f}"))
                # each row as it is measured, so a run stopped at a time limit keeps what it measured
                print("| " + " | ".join(rows[-1]) + " |", file=sys.stderr, flush=True)
    return markdown_table(rows)


if __name__ == "__main__":  # the throughput table alone: `python -m bench.model_speed`
    print(speed_table())
