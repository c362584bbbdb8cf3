"""`python -m modelruns train`: fit a ratio regressor on a training export, with checkpoints and a run manifest.

The loop is the seed papers' (Appendix C): mean squared error on the ratio, mini-batches of 32, early stopping when
the validation loss has not improved for 10 epochs, and for VGG19/ResNet50 SGD with Nesterov momentum 0.9 at a
constant learning rate of 1e-4. `small` uses Adam with a one-cycle schedule peaking at 2e-3 (it has to learn in
minutes on a CPU: docs/models.md); every choice can be overridden and is recorded in run.json.

RUN_DIR gets: run.json (the run manifest, rewritten after every epoch: status "training", then "complete"),
train.log (what the run printed, per-epoch metrics included, appended to on --resume), checkpoint.pt (the last
epoch: model, optimiser, schedule, the CPU, batch-order and CUDA random states, history; `--resume` continues an
interrupted run from it, given the same arguments and data) and model.pt (the weights of the epoch with the lowest
validation loss, or of the last epoch when there is no validation set).

Speed switches (`Speed`, docs/models.md "Speed switches") are for CUDA devices only and refused on a CPU: bf16
autocast (the regression head and the loss stay fp32), TF32, channels_last, torch.compile and pinned memory. Whatever
the switches, the images go to the device once per run and each batch is gathered there, and the loss is summed on
the device with one host sync per epoch."""

from __future__ import annotations

import json
import os
import platform
import random
import shlex
import subprocess
import sys
import time
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field
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


@dataclass(frozen=True)
class Speed:
    """The speed switches (CUDA only; all off reproduces the fp32 loop bit for bit on one machine)."""

    bf16: bool = False  # autocast the backbone to bfloat16; the head (architectures.Head) and the loss stay fp32
    tf32: bool = False  # TF32 tensor cores for fp32 matmuls and convolutions (off: IEEE fp32, set explicitly)
    channels_last: bool = False  # NHWC weights and batches, what cuDNN's tensor-core kernels prefer
    compile: bool = False  # torch.compile the model (minutes of compilation before the first epoch)
    pin_memory: bool = False  # copy the images to the device from pinned memory, without waiting

    def on(self) -> list[str]:
        return [k for k, v in asdict(self).items() if v]


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
    speed: Speed = field(default_factory=Speed)
    command: list[str] | None = None  # the command line, for run.json [sys.argv]


def pick_device(name: str) -> torch.device:
    """auto: the first CUDA device when there is one, else the CPU. A CUDA device this machine does not have is
    refused here, before any data is read, rather than by the first tensor moved to it."""
    if name == "auto":
        return torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    try:
        device = torch.device(name)
    except RuntimeError:
        raise RunError(f"--device {name!r}: not a device (auto, cpu, cuda, cuda:1, …)") from None
    if device.type not in ("cpu", "cuda"):
        raise RunError(f"--device {name}: only cpu and cuda devices are supported")
    if device.type == "cuda":
        if not torch.cuda.is_available():
            raise RunError(
                f"--device {name}: this machine has no CUDA device (torch {torch.__version__}); use auto or cpu"
            )
        count = torch.cuda.device_count()
        if (device.index or 0) >= count:
            raise RunError(
                f"--device {name}: this machine has {count} CUDA device(s), cuda:0–cuda:{count - 1}"
                " (CUDA_VISIBLE_DEVICES counts)"
            )
        device = torch.device("cuda", device.index or 0)
    return device


def set_precision(speed: Speed) -> None:
    """TF32 on or off explicitly: PyTorch's default lets cuDNN convolutions use TF32, which the fp32 loop must not."""
    precision = "tf32" if speed.tf32 else "ieee"
    torch.backends.cuda.matmul.fp32_precision = precision
    torch.backends.cudnn.conv.fp32_precision = precision


def autocast(device: torch.device, speed: Speed):
    """The forward pass's precision: bfloat16 autocast under --bf16, else nothing."""
    return torch.autocast(device.type, dtype=torch.bfloat16) if speed.bf16 else nullcontext()


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


def _output(*command: str) -> str:
    """A command's first output line, or "" when it is missing or fails (run.json records what it can)."""
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=20, cwd=Path(__file__).parent)
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout.strip() else ""


def commit() -> str:
    """The product's commit: STUDYHIVE_COMMIT (set where there is no git, e.g. a copied tree), else git's HEAD. The
    server's own is server/config.py `checkout_commit`; modelruns never imports the server, so a change to one is
    made in both."""
    return os.environ.get("STUDYHIVE_COMMIT") or _output("git", "rev-parse", "HEAD") or "unknown"


def versions(device: torch.device) -> dict[str, str]:
    import PIL
    import pyarrow

    found = {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "numpy": np.__version__,
        "pillow": PIL.__version__,
        "pyarrow": pyarrow.__version__,
        "cuda": torch.version.cuda or "",
        "cudnn": str(torch.backends.cudnn.version() or ""),
    }
    if device.type == "cuda":
        major, minor = torch.cuda.get_device_capability(device)
        found["compute_capability"] = f"{major}.{minor}"
        found["driver"] = _output("nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader")
    return found


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


class OnDevice:
    """A labelled set moved to the device once (600 MB of uint8 for the paper's 60,000 images); batches are gathered
    there, so a step copies nothing from the host. On the CPU the arrays are used in place."""

    def __init__(self, data: Images, device: torch.device, speed: Speed):
        def move(a: np.ndarray) -> torch.Tensor:
            t = torch.from_numpy(a)
            if device.type == "cpu":
                return t
            return t.pin_memory().to(device, non_blocking=True) if speed.pin_memory else t.to(device)

        self.ink, self.chart_type, self.ratio = move(data.ink), move(data.chart_type), move(data.ratio)
        self.device, self.speed = device, speed

    def __len__(self) -> int:
        return len(self.ratio)

    def batches(self, batch_size: int, generator: torch.Generator | None):
        """(images, chart types, ratios) per batch: in the generator's order (one index copy per epoch), or in order."""
        n = len(self)
        if generator is None:
            order = torch.arange(n, device=self.device)
        else:  # drawn on the CPU generator, so that the order does not depend on the device
            order = torch.randperm(n, generator=generator).to(self.device, non_blocking=self.speed.pin_memory)
        memory = torch.channels_last if self.speed.channels_last else torch.contiguous_format
        for start in range(0, n, batch_size):
            idx = order[start : start + batch_size]
            x = self.ink.index_select(0, idx).contiguous(memory_format=memory)
            yield x, self.chart_type.index_select(0, idx), self.ratio.index_select(0, idx)


def evaluate(model: nn.Module, data: OnDevice, batch_size: int = 256) -> dict[str, float]:
    """Mean squared error and mean absolute error (ratio units) of the model on labelled images; summed on the
    device, one host sync."""
    model.eval()
    sums = torch.zeros(2, dtype=torch.float64, device=data.device)
    with torch.no_grad():
        for x, t, y in data.batches(batch_size, None):
            with autocast(data.device, data.speed):
                p = model(x, t)
            sums[0] += ((p - y) ** 2).sum()
            sums[1] += (p.clamp(0, 1) - y).abs().sum()
    squared, absolute = sums.tolist()
    return {"mse": squared / len(data), "mae": absolute / len(data)}


def rng_states(device: torch.device) -> dict[str, Any]:
    """The random states a checkpoint keeps besides the batch-order generator: the CPU's, and every CUDA device's
    (dropout in VGG19 and ResNet-50 draws from them on a GPU). All are CPU ByteTensors."""
    return {
        "torch_rng": torch.get_rng_state(),
        "cuda_rng": torch.cuda.get_rng_state_all() if device.type == "cuda" else None,
    }


def restore_rng(state: dict[str, Any], generator: torch.Generator, device: torch.device) -> None:
    """Put back what `rng_states` saved and the batch-order generator; the checkpoint must have been loaded with
    map_location="cpu", since set_state and set_rng_state take CPU ByteTensors only. A run continued on the CPU has
    no use for the CUDA states."""
    generator.set_state(state["generator"])
    torch.set_rng_state(state["torch_rng"])
    if state.get("cuda_rng") is not None and device.type == "cuda":
        if len(state["cuda_rng"]) != torch.cuda.device_count():
            raise RunError(
                f"--resume: the run was saved with {len(state['cuda_rng'])} CUDA device(s) visible, this machine "
                f"shows {torch.cuda.device_count()}; resume it with the same CUDA_VISIBLE_DEVICES"
            )
        torch.cuda.set_rng_state_all(state["cuda_rng"])


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


def _save(state: dict[str, Any], path: Path) -> None:
    """torch.save through a temporary file: a run stopped while saving (Slurm preempting a sweep's array task
    raises SystemExit wherever the loop is) keeps the previous file whole, so it can still resume from it."""
    tmp = path.with_suffix(".pt.tmp")
    torch.save(state, tmp)
    tmp.replace(path)


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
    if o.speed.on() and device.type != "cuda":
        switches = ", ".join("--" + s.replace("_", "-") for s in o.speed.on())
        raise RunError(f"{switches}: speed switches for CUDA devices; this run is on {device} (drop them there)")
    manifest_path = o.out / "run.json"
    checkpoint_path = o.out / "checkpoint.pt"
    if o.resume and not checkpoint_path.is_file():
        raise RunError(f"--resume: {checkpoint_path} does not exist")
    if not o.resume and o.out.exists() and any(o.out.iterdir()):
        raise RunError(f"{o.out} is not empty: give a new --out, or --resume to continue the run there")
    if o.threads is not None:
        torch.set_num_threads(o.threads)
    determinism = make_deterministic(o.seed)
    set_precision(o.speed)

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
    model.to(device, memory_format=torch.channels_last if o.speed.channels_last else torch.preserve_format)
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
    command = o.command if o.command is not None else sys.argv
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
        "speed": asdict(o.speed),
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
        "commit": commit(),
        "command": shlex.join(command),
        "device": str(device),
        "device_name": torch.cuda.get_device_name(device) if device.type == "cuda" else platform.processor() or "cpu",
        "threads": torch.get_num_threads(),
        "determinism": determinism,
        "versions": versions(device),
        "parameters": sum(p.numel() for p in model.parameters()),
        "load_seconds": load_seconds,
    }
    if o.resume:
        # Our own checkpoint (optimiser and scheduler states included), written by this code in this folder. Read on
        # the CPU: the random states must stay CPU ByteTensors; the model and optimiser states move to the device
        # when loaded into it.
        state = torch.load(checkpoint_path, map_location="cpu", weights_only=False)
        previous = json.loads(manifest_path.read_text(encoding="utf-8"))
        previous.setdefault("speed", asdict(Speed()))  # runs from before the speed switches ran without them
        for key in ("arch", "seed", "epochs", "batch_size", "optimizer", "lr", "schedule", "speed"):
            if previous[key] != manifest[key]:
                raise RunError(f"--resume: this run was started with {key} {previous[key]!r}, not {manifest[key]!r}")
        for key, name in (("hash", "training"), ("validation_hash", "validation")):
            if previous["data"][key] != manifest["data"][key]:
                raise RunError(
                    f"--resume: {o.data} does not hold the {name} set this run started on ({name} data hash "
                    f"{previous['data'][key]} at the start, {manifest['data'][key]} now)"
                )
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        if scheduler is not None:
            scheduler.load_state_dict(state["scheduler"])
        restore_rng(state, generator, device)
        history, best, first_epoch = state["history"], tuple(state["best"]), state["epoch"] + 1
        manifest["weights"] = previous.get("weights")
    o.out.mkdir(parents=True, exist_ok=True)
    log_file = (o.out / "train.log").open("a", encoding="utf-8")

    def say(line: str) -> None:
        log_file.write(line + "\n")
        log_file.flush()
        echo(line)

    how = f"resumed after epoch {first_epoch}" if o.resume else "started"
    say(
        f"# {time.strftime('%Y-%m-%d %H:%M:%S %z')} {how}: {manifest['command']} (commit {manifest['commit']}, "
        f"{manifest['device_name']}, speed: "
        f"{', '.join(o.speed.on()) or 'off'})"
    )
    loss_fn = nn.MSELoss()
    stopped_early = False
    # The module that is run; `model` keeps the parameter names that model.pt and checkpoint.pt are saved under.
    forward = torch.compile(model) if o.speed.compile else model
    on_device = OnDevice(training, device, o.speed)
    validating = OnDevice(validation, device, o.speed) if validation is not None else None
    try:
        for epoch in range(first_epoch, o.epochs):
            model.train()
            tick = time.perf_counter()
            total = torch.zeros((), dtype=torch.float64, device=device)
            bar = tqdm(
                total=len(training), desc=f"epoch {epoch + 1}/{o.epochs}", unit=" images", disable=None, leave=False
            )
            for x, t, y in on_device.batches(o.batch_size, generator):
                optimizer.zero_grad(set_to_none=True)
                with autocast(device, o.speed):
                    p = forward(x, t)
                loss = loss_fn(p.float(), y)  # fp32 loss under bf16 autocast
                loss.backward()
                optimizer.step()
                if scheduler is not None:
                    scheduler.step()
                total += loss.detach() * len(y)  # no host sync per step: read once per epoch
                bar.update(len(y))
            bar.close()
            row: dict[str, Any] = {"epoch": epoch + 1, "train_mse": total.item() / len(training)}
            row["seconds"] = time.perf_counter() - tick
            if validating is not None:
                v = evaluate(forward, validating)
                row.update(val_mse=v["mse"], val_mae=v["mae"])
            history.append(row)
            score = row.get("val_mse", 0.0 if validation is None else float("inf"))
            if validation is None or score < best[0]:
                best = (score, epoch + 1)
                _save(model.state_dict(), o.out / "model.pt")
            _save(
                {
                    "model": model.state_dict(),
                    "optimizer": optimizer.state_dict(),
                    "epoch": epoch,
                    "history": history,
                    "best": list(best),
                    "generator": generator.get_state(),
                    "scheduler": scheduler.state_dict() if scheduler is not None else None,
                    **rng_states(device),
                },
                checkpoint_path,
            )
            manifest.update(history=history, best_epoch=best[1])
            _write_json(manifest_path, manifest)
            say(
                f"epoch {epoch + 1}/{o.epochs}: train mse {row['train_mse']:.5f}"
                + (f", validation mse {row['val_mse']:.5f} mae {row['val_mae']:.4f}" if validation is not None else "")
                + f" ({row['seconds']:.1f} s, {len(training) / row['seconds']:,.0f} images/s)"
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
        say(f"# complete: {len(history)} epochs, best epoch {best[1]}")
    finally:
        log_file.close()
    return manifest
