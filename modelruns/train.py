"""`python -m modelruns train`: fit a ratio regressor on a training export, with checkpoints and a run manifest.

The loop is the seed papers' (Appendix C): mean squared error on the ratio, mini-batches of 32, early stopping when
the validation loss has not improved for 10 epochs, and for VGG19/ResNet50 SGD with Nesterov momentum 0.9 at a
constant learning rate of 1e-4. `small` uses Adam with a one-cycle schedule peaking at 2e-3 (it has to learn in
minutes on a CPU: docs/models.md); every choice can be overridden and is recorded in run.json.

RUN_DIR gets: run.json (the run manifest, rewritten after every epoch: status "training", then "complete"),
checkpoint.pt (the last epoch: model, optimiser, schedule, generators, history; `--resume` continues an interrupted
run from it, given the same arguments) and model.pt (the
weights of the epoch with the lowest validation loss, or of the last epoch when there is no validation set)."""

from __future__ import annotations

import json
import os
import platform
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from .architectures import ARCHITECTURES, build
from .data import DataError, Images, read_images

PAPER_SGD = {"optimizer": "sgd", "lr": 1e-4, "schedule": "constant"}
DEFAULTS = {
    "small": {"optimizer": "adam", "lr": 2e-3, "schedule": "onecycle"},
    "vgg19": PAPER_SGD,
    "resnet50": PAPER_SGD,
}
SCHEDULES = ("constant", "onecycle")
MAX_SEED = 2**31 - 1  # a run's seed becomes its run number in `flask import-predictions` (32-bit)


class RunError(ValueError):
    """The run cannot start or continue; the message says why and what to do."""


@dataclass
class Options:
    data: Path
    arch: str
    epochs: int
    seed: int
    device: str
    out: Path
    batch_size: int = 32
    lr: float | None = None
    optimizer: str | None = None
    schedule: str | None = None
    patience: int = 10
    threads: int | None = None
    weights: Path | None = None
    observer: str | None = None
    resume: bool = False


def pick_device(name: str) -> torch.device:
    """auto: the first CUDA device when there is one, else the CPU."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        device = torch.device(name)
    except RuntimeError:
        raise RunError(f"--device {name!r}: not a device (auto, cpu, cuda, cuda:1, …)") from None
    if device.type == "cuda" and not torch.cuda.is_available():
        raise RunError(f"--device {name}: this machine has no CUDA device (torch {torch.__version__}); use auto or cpu")
    return device


def make_deterministic(seed: int) -> dict[str, Any]:
    """Seed every generator and ask PyTorch for deterministic kernels where it has them (warn where it does not);
    returns what was set, for the run manifest."""
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")  # cuBLAS's condition for reproducible matmuls
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.backends.cudnn.benchmark = False
    torch.backends.cudnn.deterministic = True
    torch.use_deterministic_algorithms(True, warn_only=True)
    return {
        "seed": seed,
        "torch.use_deterministic_algorithms": "True (warn_only)",
        "cudnn.benchmark": False,
        "CUBLAS_WORKSPACE_CONFIG": os.environ["CUBLAS_WORKSPACE_CONFIG"],
    }


def versions() -> dict[str, str]:
    import PIL
    import pyarrow

    return {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "numpy": np.__version__,
        "pillow": PIL.__version__,
        "pyarrow": pyarrow.__version__,
        "cuda": torch.version.cuda or "",
        "cudnn": str(torch.backends.cudnn.version() or ""),
    }


def load_weights(model: nn.Module, path: Path) -> dict[str, Any]:
    """Load a local state dict into the backbone; the head (`regressor.*`) and keys that are not ours are skipped
    (a torchvision ImageNet file has a classifier/fc head for 1,000 classes). Refuses a file that matches nothing."""
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except (OSError, RuntimeError, EOFError, ValueError) as exc:
        raise RunError(f"--weights {path}: not a readable PyTorch state dict: {exc}") from None
    if isinstance(state, dict) and isinstance(state.get("model"), dict):
        state = state["model"]  # one of our own checkpoints
    if not isinstance(state, dict):
        raise RunError(f"--weights {path}: expected a state dict (parameter name → tensor)")
    own = model.state_dict()
    usable = {
        k: v
        for k, v in state.items()
        if k in own and not k.startswith("regressor.") and getattr(v, "shape", None) == own[k].shape
    }
    if not usable:
        raise RunError(
            f"--weights {path}: no parameter matches this architecture's names and shapes "
            f"(e.g. {next(iter(own))}); is it for another --arch?"
        )
    model.load_state_dict(usable, strict=False)
    return {
        "file": str(path),
        "loaded": len(usable),
        "skipped": len(state) - len(usable),
        "backbone_not_loaded": sorted(k for k in own if k not in usable and not k.startswith("regressor."))[:20],
    }


def _batches(n: int, batch_size: int, generator: torch.Generator | None):
    order = torch.randperm(n, generator=generator) if generator is not None else torch.arange(n)
    for start in range(0, n, batch_size):
        yield order[start : start + batch_size]


def evaluate(model: nn.Module, data: Images, device: torch.device, batch_size: int = 256) -> dict[str, float]:
    """Mean squared error and mean absolute error (ratio units) of the model on labelled images."""
    model.eval()
    squared = absolute = 0.0
    with torch.no_grad():
        for idx in _batches(len(data), batch_size, None):
            x, t, y = _tensors(data, idx, device)
            p = model(x, t)
            squared += float(((p - y) ** 2).sum())
            absolute += float((p.clamp(0, 1) - y).abs().sum())
    return {"mse": squared / len(data), "mae": absolute / len(data)}


def _tensors(data: Images, idx: torch.Tensor, device: torch.device):
    i = idx.numpy()
    return (
        torch.from_numpy(data.ink[i]).to(device),
        torch.from_numpy(data.chart_type[i]).to(device),
        torch.from_numpy(data.ratio[i]).to(device),
    )


def _read_sampling(data_dir: Path) -> dict[str, Any]:
    path = data_dir / "sampling.json"
    if not path.is_file():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DataError(f"{path}: not readable JSON: {exc}") from None


def _write_json(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)  # a reader never sees half a manifest


def train(o: Options, echo=print) -> dict[str, Any]:
    """Train one run; returns the run manifest (also in o.out / "run.json")."""
    if o.arch not in ARCHITECTURES:
        raise RunError(f"--arch must be one of {', '.join(ARCHITECTURES)}, got {o.arch!r}")
    if o.epochs < 1 or o.batch_size < 1 or o.patience < 1:
        raise RunError("--epochs, --batch-size and --patience must be at least 1")
    if not 0 <= o.seed <= MAX_SEED:
        raise RunError(f"--seed must be 0–{MAX_SEED:,} (it becomes the run number of the imported predictions)")
    defaults = DEFAULTS[o.arch]
    optimizer_name = o.optimizer or defaults["optimizer"]
    schedule_name = o.schedule or defaults["schedule"]
    lr = o.lr if o.lr is not None else defaults["lr"]
    if optimizer_name not in ("adam", "sgd") or schedule_name not in SCHEDULES or not lr > 0:
        raise RunError(f"--optimizer must be adam or sgd, --schedule one of {', '.join(SCHEDULES)}, --lr positive")
    if o.threads is not None and o.threads < 1:
        raise RunError("--threads must be at least 1")
    device = pick_device(o.device)
    manifest_path = o.out / "run.json"
    checkpoint_path = o.out / "checkpoint.pt"
    if o.resume and not checkpoint_path.is_file():
        raise RunError(f"--resume: {checkpoint_path} does not exist")
    if not o.resume and o.out.exists() and any(o.out.iterdir()):
        raise RunError(f"{o.out} is not empty: give a new --out, or --resume to continue the run there")
    if o.threads is not None:
        torch.set_num_threads(o.threads)
    determinism = make_deterministic(o.seed)

    sampling = _read_sampling(o.data)
    started = time.perf_counter()
    training = read_images(o.data / "manifest.csv", labels=True)
    validation_path = o.data / "validation.csv"
    validation = (
        read_images(validation_path, labels=True)
        if validation_path.is_file() and validation_path.read_text(encoding="utf-8").count("\n") > 1
        else None
    )
    load_seconds = time.perf_counter() - started

    model = build(o.arch)
    weights = load_weights(model, o.weights) if o.weights else None
    model.to(device)
    if optimizer_name == "adam":
        optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    else:
        optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, nesterov=True)
    steps = o.epochs * -(-len(training) // o.batch_size)
    # One cycle (Smith & Topin 2019): warm up to lr, then anneal; the whole --epochs budget is one cycle.
    scheduler = (
        torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=lr, total_steps=steps)
        if schedule_name == "onecycle"
        else None
    )
    generator = torch.Generator().manual_seed(o.seed)
    history: list[dict[str, Any]] = []
    best = (float("inf"), -1)
    first_epoch = 0
    manifest: dict[str, Any] = {
        "status": "training",
        "observer": o.observer or o.arch,
        "arch": o.arch,
        "regime": sampling.get("regime", ""),
        "condition": sampling.get("condition", ""),
        "bins": sampling.get("bins"),
        "training_bins": sampling.get("training_bins"),  # `flask analyze`'s error against training–test distance
        "data_seed": sampling.get("seed"),
        "study": sampling.get("study", ""),
        "seed": o.seed,
        "epochs": o.epochs,
        "batch_size": o.batch_size,
        "optimizer": optimizer_name,
        "lr": lr,
        "schedule": schedule_name,
        "chart_types": sorted(int(t) for t in np.unique(training.chart_type)),
        "loss": "mse",
        "patience": o.patience if validation is not None else None,
        "data": {
            "dir": str(o.data),
            "hash": training.digest,
            "n_training": len(training),
            "validation_hash": validation.digest if validation is not None else None,
            "n_validation": len(validation) if validation is not None else 0,
            "training_test_distance": sampling.get("training_test_distance"),
        },
        "weights": weights,
        "device": str(device),
        "device_name": torch.cuda.get_device_name(device) if device.type == "cuda" else platform.processor() or "cpu",
        "threads": torch.get_num_threads(),
        "determinism": determinism,
        "versions": versions(),
        "parameters": sum(p.numel() for p in model.parameters()),
        "load_seconds": load_seconds,
    }
    if o.resume:
        # Our own checkpoint (optimiser and scheduler states included), written by this code in this folder.
        state = torch.load(checkpoint_path, map_location=device, weights_only=False)
        previous = json.loads(manifest_path.read_text(encoding="utf-8"))
        for key in ("arch", "seed", "epochs", "batch_size", "optimizer", "lr", "schedule"):
            if previous[key] != manifest[key]:
                raise RunError(f"--resume: this run was started with {key} {previous[key]!r}, not {manifest[key]!r}")
        if previous["data"]["hash"] != training.digest:
            raise RunError(f"--resume: {o.data} is not the training set this run started on (data hash differs)")
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        if scheduler is not None:
            scheduler.load_state_dict(state["scheduler"])
        generator.set_state(state["generator"])
        torch.set_rng_state(state["torch_rng"])
        history, best, first_epoch = state["history"], tuple(state["best"]), state["epoch"] + 1
        manifest["weights"] = previous.get("weights")
    o.out.mkdir(parents=True, exist_ok=True)

    loss_fn = nn.MSELoss()
    stopped_early = False
    for epoch in range(first_epoch, o.epochs):
        model.train()
        tick = time.perf_counter()
        total = 0.0
        bar = tqdm(total=len(training), desc=f"epoch {epoch + 1}/{o.epochs}", unit=" images", disable=None, leave=False)
        for idx in _batches(len(training), o.batch_size, generator):
            x, t, y = _tensors(training, idx, device)
            optimizer.zero_grad(set_to_none=True)
            loss = loss_fn(model(x, t), y)
            loss.backward()
            optimizer.step()
            if scheduler is not None:
                scheduler.step()
            total += loss.item() * len(idx)
            bar.update(len(idx))
            bar.set_postfix(loss=f"{loss.item():.4f}")
        bar.close()
        row: dict[str, Any] = {
            "epoch": epoch + 1,
            "train_mse": total / len(training),
            "seconds": time.perf_counter() - tick,
        }
        if validation is not None:
            v = evaluate(model, validation, device)
            row.update(val_mse=v["mse"], val_mae=v["mae"])
        history.append(row)
        score = row.get("val_mse", 0.0 if validation is None else float("inf"))
        if validation is None or score < best[0]:
            best = (score, epoch + 1)
            torch.save(model.state_dict(), o.out / "model.pt")
        torch.save(
            {
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "epoch": epoch,
                "history": history,
                "best": list(best),
                "generator": generator.get_state(),
                "scheduler": scheduler.state_dict() if scheduler is not None else None,
                "torch_rng": torch.get_rng_state(),
            },
            checkpoint_path,
        )
        manifest.update(history=history, best_epoch=best[1])
        _write_json(manifest_path, manifest)
        echo(
            f"epoch {epoch + 1}/{o.epochs}: train mse {row['train_mse']:.5f}"
            + (f", validation mse {row['val_mse']:.5f} mae {row['val_mae']:.4f}" if validation is not None else "")
            + f" ({row['seconds']:.1f} s)"
        )
        if validation is not None and epoch + 1 - best[1] >= o.patience:
            stopped_early = True
            break
    seconds = [h["seconds"] for h in history]
    manifest.update(
        status="complete",
        history=history,
        best_epoch=best[1],
        stopped_early=stopped_early,
        epochs_run=len(history),
        wall_seconds=sum(seconds) + load_seconds,
        seconds_per_epoch=sum(seconds) / len(seconds) if seconds else None,
    )
    _write_json(manifest_path, manifest)
    return manifest
