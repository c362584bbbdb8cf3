"""`python -m modelruns sweep SWEEP.toml`: a grid of training runs from one file, resumable, with a results table.

The grid is seeds × training sizes × regimes × architectures, and × chart types when `networks = "per-type"` (the
papers' one network per chart type, each trained on a one-type export). Every run is `train` with the file's
settings, in OUT/runs/NAME; a finished run is skipped, an interrupted one continues from its checkpoint (train's
--resume, with its checks), a run that never finished an epoch starts again. Each finished run's predictions for the
test go to OUT/predictions/NAME.parquet (`predict`, so `flask import-predictions` reads them; OUT/import.sh has the
commands), and OUT/results.csv has MAE and MLAE per architecture, regime, size and chart type: the mean over seeds
with a 95 % Student t interval over seeds (mean ± t(0.975, n − 1) · s / √n; empty with one seed). A run's MLAE is
log2(MAE in percent points + 1/8), as `flask analyze --mlae participant` scores a single model run.

The training sets come from `flask stimuli export --training` (modelruns never runs the server): `data` is a
folder pattern with {regime}, {size}, {seed} and {chart_type}; a missing folder is refused before anything runs,
with the export commands that would write it. docs/models.md has an example file.

`--executor slurm` (modelruns/cluster.py) runs the same steps, one run per task of a Slurm job array, with the
requests of the file's [slurm] table; the table is written once every run is done.
"""

from __future__ import annotations

import json
import shlex
import shutil
import string
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .architectures import ARCHITECTURES
from .train import MAX_SEED, RunError, Speed, _read_sampling, train

REGIMES = ("IID", "COV", "ADV", "OOD")
PLACEHOLDERS = ("regime", "size", "seed", "chart_type")
CONFIDENCE = 0.95


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TrainSettings(Strict):
    """train's options beyond the grid (its defaults when left out)."""

    batch_size: Annotated[int, Field(ge=1)] = 32
    lr: Annotated[float, Field(gt=0)] | None = None
    optimizer: Literal["adam", "sgd"] | None = None
    schedule: Literal["constant", "onecycle"] | None = None
    patience: Annotated[int, Field(ge=1)] = 10
    threads: Annotated[int, Field(ge=1)] | None = None
    weights: Path | None = None


class SpeedSettings(Strict):
    bf16: bool = False
    tf32: bool = False
    channels_last: bool = False
    compile: bool = False
    pin_memory: bool = False


class SlurmSettings(Strict):
    """What each array task (one run) asks Slurm for under `--executor slurm` (modelruns/cluster.py)."""

    partition: str | None = None
    # Required: submitit's default is 5 minutes, which would stop every paper-size run long before it ends.
    time_min: Annotated[int, Field(ge=1)]
    gpus_per_node: Annotated[int, Field(ge=0)] = 1
    cpus_per_task: Annotated[int, Field(ge=1)] | None = None
    mem_gb: Annotated[float, Field(gt=0)] | None = None
    account: str | None = None
    qos: str | None = None
    constraint: str | None = None
    array_parallelism: Annotated[int, Field(ge=1)] | None = None
    max_timeouts: Annotated[int, Field(ge=0)] = 3
    setup: list[str] = []
    sbatch: dict[str, str | int | bool] = {}


def _unique(values: list) -> list:
    if len(set(values)) != len(values):
        raise ValueError("has repeated values")
    return values


class SweepFile(Strict):
    out: Path
    test: str
    data: str
    seeds: Annotated[list[Annotated[int, Field(ge=0, le=MAX_SEED)]], Field(min_length=1)]
    regimes: Annotated[list[Literal[REGIMES]], Field(min_length=1)]
    sizes: Annotated[list[Annotated[int, Field(ge=1)]], Field(min_length=1)]
    archs: Annotated[list[Literal[tuple(ARCHITECTURES)]], Field(min_length=1)]
    networks: Literal["shared", "per-type"] = "shared"
    chart_types: Annotated[list[Annotated[int, Field(ge=1, le=5)]], Field(min_length=1)] = [1, 2, 3, 4, 5]
    epochs: Annotated[int, Field(ge=1)]
    device: str = "auto"
    train: TrainSettings = TrainSettings()
    speed: SpeedSettings = SpeedSettings()
    slurm: SlurmSettings | None = None

    _unique_lists = field_validator("seeds", "regimes", "sizes", "archs", "chart_types")(_unique)

    @field_validator("data", "test")
    @classmethod
    def _known_placeholders(cls, value: str) -> str:
        try:
            names = {name for _, name, _, _ in string.Formatter().parse(value) if name is not None}
        except ValueError as exc:
            raise ValueError(f"not a folder pattern: {exc}") from None
        unknown = names - set(PLACEHOLDERS)
        if unknown:
            raise ValueError(f"unknown placeholder(s) {', '.join(sorted(unknown))}; use {', '.join(PLACEHOLDERS)}")
        return value

    @model_validator(mode="after")
    def _one_folder_per_training_set(self) -> SweepFile:
        """Runs that differ in regime, size or chart type must not read one folder."""
        names = {name for _, name, _, _ in string.Formatter().parse(self.data) if name}
        needed = [
            key
            for key, values in (("regime", self.regimes), ("size", self.sizes))
            if len(values) > 1 and key not in names
        ]
        if self.networks == "per-type" and "chart_type" not in names:
            needed.append("chart_type")
        if needed:
            raise ValueError(f"data: the pattern needs {', '.join('{' + k + '}' for k in needed)} (one folder per set)")
        return self

    @model_validator(mode="after")
    def _a_gpu_for_a_cuda_device(self) -> SweepFile:
        if self.slurm is not None and self.slurm.gpus_per_node == 0 and self.device.startswith("cuda"):
            raise ValueError(f"slurm.gpus_per_node: 0, but device is {self.device} (ask for a GPU, or use the cpu)")
        return self


def read_sweep(path: Path) -> SweepFile:
    """The validated sweep file; paths in it are relative to its folder. Raises RunError naming the key."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RunError(f"{path}: cannot read: {exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RunError(f"{path}: not valid TOML: {exc}") from None
    try:
        sweep = SweepFile.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"key {'.'.join(map(str, e['loc'])) or '(top level)'}: {e['msg']}" for e in exc.errors(include_url=False)
        )
        raise RunError(f"{path}: {problems}") from None
    base = path.parent
    return sweep.model_copy(
        update={
            "out": base / sweep.out,
            "data": str(base / sweep.data),
            "test": str(base / sweep.test),
            "train": sweep.train.model_copy(
                update={"weights": base / sweep.train.weights if sweep.train.weights else None}
            ),
        }
    )


@dataclass(frozen=True)
class Run:
    arch: str
    regime: str
    size: int
    seed: int
    chart_type: int | None  # per-type networks only
    data: Path
    test: Path
    folder: Path
    predictions: Path

    @property
    def name(self) -> str:
        return f"{self.arch}-{self.regime}-{self.size}-s{self.seed}" + (
            f"-t{self.chart_type}" if self.chart_type else ""
        )


def plan(sweep: SweepFile) -> list[Run]:
    """The runs, seed by seed: a grid cut short has every condition at its first seeds."""
    types = sweep.chart_types if sweep.networks == "per-type" else [None]
    runs = []
    for seed in sweep.seeds:
        for size in sweep.sizes:
            for regime in sweep.regimes:
                for arch in sweep.archs:
                    for t in types:
                        fill = {"regime": regime, "size": size, "seed": seed, "chart_type": t or ""}
                        name = Run(arch, regime, size, seed, t, Path(), Path(), Path(), Path()).name
                        runs.append(
                            Run(
                                arch,
                                regime,
                                size,
                                seed,
                                t,
                                Path(sweep.data.format(**fill)),
                                Path(sweep.test.format(**fill)),
                                sweep.out / "runs" / name,
                                sweep.out / "predictions" / f"{name}.parquet",
                            )
                        )
    return runs


def check_inputs(runs: list[Run]) -> None:
    """Every training set and test the grid needs, before any run starts; the export commands for those missing."""
    missing: dict[Path, list[Run]] = {}
    wrong = []
    for run in runs:
        if not (run.data / "manifest.csv").is_file():
            missing.setdefault(run.data, []).append(run)
            continue
        sampling = _read_sampling(run.data)
        expected = {"regime": run.regime, "n_training": run.size}
        if run.chart_type:
            expected["chart_types"] = [run.chart_type]
        for key, value in expected.items():
            if key in sampling and sampling[key] != value:
                wrong.append(f"{run.data} holds a set with {key} {sampling[key]}, not {value} (its sampling.json)")
    tests = sorted({str(run.test) for run in runs if not (run.test / "manifest.csv").is_file()})
    problems = [*dict.fromkeys(wrong)]
    if tests:
        problems.append(f"no test export in {', '.join(tests)} (flask stimuli export SLUG --out DIR)")
    if missing:
        commands = []
        for folder, needing in missing.items():
            run, seeds = needing[0], {r.seed for r in needing}
            # Runs of several seeds sharing one folder train on one set: its sampling seed is the export's default.
            seed = f" --seed {run.seed}" if len(seeds) == 1 else ""
            types = f" --chart-type {run.chart_type}" if run.chart_type else ""
            commands.append(
                f"flask stimuli export SLUG --training {run.size} --regime {run.regime}{seed}{types} "
                f"--out {shlex.quote(str(folder))}"
            )
        problems.append("training sets missing; write them with:\n  " + "\n  ".join(commands) + "\n(SLUG: the study)")
    if problems:
        raise RunError("sweep: " + "\n".join(problems))


def state(run: Run) -> tuple[str, dict[str, Any]]:
    """done (trained), running (started: training now, or interrupted and resumed by the next sweep), pending."""
    manifest_path = run.folder / "run.json"
    if not manifest_path.is_file():
        return "pending", {}
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    return ("done" if manifest.get("status") == "complete" else "running"), manifest


def progress(runs: list[Run]) -> list[str]:
    """One line per run: its state, epochs done and the last validation MAE; predictions written or not."""
    lines = []
    for run in runs:
        what, manifest = state(run)
        history = manifest.get("history") or []
        last = history[-1] if history else {}
        lines.append(
            f"{run.name:<36} {what:<8} epoch {len(history):>3}/{manifest.get('epochs', '?'):<4}"
            + (f" val_mae {last['val_mae']:.4f}" if "val_mae" in last else "")
            + (" predicted" if run.predictions.is_file() else "")
        )
    done = sum(state(r)[0] == "done" for r in runs)
    return [*lines, f"{done}/{len(runs)} runs done"]


def run_sweep(path: Path, echo=print, status_only: bool = False) -> dict[str, Any]:
    """Train what is not trained, predict what is not predicted, write results.csv and import.sh."""
    sweep = read_sweep(path)
    runs = plan(sweep)
    if status_only:
        for line in progress(runs):
            echo(line)
        return {"runs": len(runs)}
    check_inputs(runs)
    command = ["python", "-m", "modelruns", "sweep", str(path)]
    for number, run in enumerate(runs, 1):
        if state(run)[0] != "done":
            for line in progress(runs):
                echo(line)
        advance(sweep, run, command, echo, f"[{number}/{len(runs)}] ")
    for line in progress(runs):
        echo(line)
    return {"runs": len(runs), "results": collect(sweep, runs, echo)}


def check_done(sweep: SweepFile, run: Run, manifest: dict[str, Any]) -> None:
    """A finished run counts for this sweep only if it was trained with the epochs and batch size the file says."""
    for key, want in (("epochs", sweep.epochs), ("batch_size", sweep.train.batch_size)):
        if manifest[key] != want:
            raise RunError(
                f"sweep: {run.folder} was trained with {key} {manifest[key]}, the sweep file says {want}; "
                "give the sweep another out, or remove that run"
            )


def advance(sweep: SweepFile, run: Run, command: list[str], echo, label: str = "") -> None:
    """Bring one run to done and predicted: a finished run is checked and kept, an interrupted one resumes from its
    checkpoint, one stopped before its first checkpoint starts again. The sweep's own loop and each array task of
    `--executor slurm` (modelruns/cluster.py) go through here; `command` is what run.json records."""
    from .predict import predict

    what, manifest = state(run)
    if what == "done":
        check_done(sweep, run, manifest)
    else:
        resume = (run.folder / "checkpoint.pt").is_file()
        if not resume and run.folder.exists():
            shutil.rmtree(run.folder)  # stopped before its first checkpoint: nothing to continue
        echo(f"{label}{run.name}: {'resuming' if resume else 'training'}")
        train(
            _options(sweep, run, command, resume),
            echo=lambda line, name=run.name: echo(f"  {name}: {line}"),
        )
    if not run.predictions.is_file():
        predict(run.folder, run.test, run.predictions, sweep.device)


def collect(sweep: SweepFile, runs: list[Run], echo) -> pd.DataFrame:
    """results.csv and import.sh from the runs, every one of them trained and predicted; the table."""
    table = results(runs)
    from analysis.safe_csv import write_frame

    write_frame(table, sweep.out / "results.csv")
    # An observer per architecture, and per size when the grid has several: a run is (observer, condition, run
    # number), and the condition names the regime but not the size.
    sized = len({r.size for r in runs}) > 1
    commands = [
        shlex.join(
            [
                "flask",
                "import-predictions",
                _read_sampling(r.data).get("study") or "SLUG",
                str(r.predictions),
                "--observer",
                f"{r.arch}-{r.size}" if sized else r.arch,
            ]
        )
        for r in runs
    ]
    (sweep.out / "import.sh").write_text("#!/bin/sh\nset -e\n" + "\n".join(commands) + "\n", encoding="utf-8")
    echo(f"results: {sweep.out / 'results.csv'}; predictions: {sweep.out / 'predictions'} ({sweep.out / 'import.sh'})")
    return table


def _options(sweep: SweepFile, run: Run, command: list[str], resume: bool):
    from .train import Options

    return Options(
        data=run.data,
        arch=run.arch,
        epochs=sweep.epochs,
        seed=run.seed,
        device=sweep.device,
        out=run.folder,
        batch_size=sweep.train.batch_size,
        lr=sweep.train.lr,
        optimizer=sweep.train.optimizer,
        schedule=sweep.train.schedule,
        patience=sweep.train.patience,
        threads=sweep.train.threads,
        weights=sweep.train.weights,
        observer=run.arch,
        resume=resume,
        speed=Speed(**sweep.speed.model_dump()),
        command=command,
    )


def results(runs: list[Run]) -> pd.DataFrame:
    """MAE (ratio) and MLAE per run on its test stimuli, then their mean over seeds with a t interval, per
    architecture, condition, size and chart type ("all": every chart type of the seed's network or networks)."""
    import pyarrow.parquet as pq

    from analysis.judgement_errors import LOG_OFFSET

    errors = []
    for run in runs:
        manifest = json.loads((run.folder / "run.json").read_text(encoding="utf-8"))
        test = pd.read_csv(run.test / "manifest.csv", usecols=["stimulus_id", "chart_type", "true_percent"])
        test["stimulus_id"] = test["stimulus_id"].astype(str)
        p = pq.read_table(run.predictions, columns=["stimulus_id", "prediction"]).to_pandas()
        df = test.merge(p, on="stimulus_id", validate="one_to_one")
        df = df[df["chart_type"].isin(manifest["chart_types"])]  # a per-type network answers for its type
        errors.append(
            df.assign(
                arch=run.arch,
                condition=manifest.get("condition") or run.regime,
                size=run.size,
                seed=run.seed,
                error=(df["prediction"] - df["true_percent"] / 100).abs(),
            )
        )
    err = pd.concat(errors, ignore_index=True)
    keys = ["arch", "condition", "size"]
    per_type = err.groupby([*keys, "chart_type", "seed"])["error"].mean().reset_index()
    pooled = err.groupby([*keys, "seed"])["error"].mean().reset_index().assign(chart_type="all")
    per_run = pd.concat([pooled, per_type.assign(chart_type=per_type["chart_type"].astype(str))], ignore_index=True)
    per_run["mlae"] = np.log2(per_run["error"] * 100 + LOG_OFFSET)
    rows = []
    for (arch, condition, size, chart_type), g in per_run.groupby([*keys, "chart_type"], sort=False):
        row = {"arch": arch, "condition": condition, "size": size, "chart_type": chart_type, "seeds": len(g)}
        for measure, column in (("mae", "error"), ("mlae", "mlae")):
            row[measure], row[f"{measure}_ci_low"], row[f"{measure}_ci_high"] = _t_interval(g[column].to_numpy())
        rows.append(row)
    return pd.DataFrame(rows).sort_values([*keys, "chart_type"], ignore_index=True)


def _t_interval(x: np.ndarray) -> tuple[float, float, float]:
    """Mean and the 95 % Student t interval over seeds; none from one seed, the mean itself when seeds agree."""
    from analysis import one_sample_t

    if len(x) < 2:
        return float(x.mean()), float("nan"), float("nan")
    if np.ptp(x) == 0:
        return float(x[0]), float(x[0]), float(x[0])
    t = one_sample_t(x, confidence=CONFIDENCE).iloc[0]
    return float(x.mean()), float(t["ci_low"]), float(t["ci_high"])
