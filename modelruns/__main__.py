"""python -m modelruns train|predict|sweep: see modelruns/__init__.py and docs/models.md."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .data import DataError

SPEED_HELP = {
    "bf16": "bfloat16 autocast for the backbone; the regression head and the loss stay fp32",
    "tf32": "TF32 tensor cores for fp32 matrix products and convolutions",
    "channels_last": "channels_last (NHWC) weights and batches",
    "compile": "torch.compile the model (compiles for minutes before the first epoch)",
    "pin_memory": "copy the images to the device from pinned memory, without waiting",
}


def add_speed_switches(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("speed switches", "CUDA devices only, refused on a CPU (docs/models.md)")
    for name, text in SPEED_HELP.items():
        g.add_argument("--" + name.replace("_", "-"), dest=name, action="store_true", help=text)


def parser() -> argparse.ArgumentParser:
    from .architectures import ARCHITECTURES

    p = argparse.ArgumentParser(
        prog="python -m modelruns",
        description="Train CNN ratio regressors on a studyhive "
        "training export and predict an exported test (docs/models.md).",
    )
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train a regressor of the ratio on `flask stimuli export --training` output")
    t.add_argument("--data", type=Path, required=True, help="the training export (manifest.csv, validation.csv)")
    t.add_argument("--arch", required=True, choices=list(ARCHITECTURES))
    t.add_argument("--epochs", type=int, required=True)
    t.add_argument("--seed", type=int, default=0, help="seed of initialisation and batch order; the run number [0]")
    t.add_argument("--device", default="auto", help="auto (CUDA when there is one), cpu, cuda, cuda:N [auto]")
    t.add_argument("--out", type=Path, required=True, help="run folder (run.json, model.pt, checkpoint.pt)")
    t.add_argument("--batch-size", type=int, default=32, help="[32, the papers']")
    t.add_argument("--lr", type=float, help="(peak) learning rate [small: 2e-3; vgg19/resnet50: 1e-4, the papers']")
    t.add_argument("--optimizer", choices=("adam", "sgd"), help="[small: adam; vgg19/resnet50: sgd (Nesterov 0.9)]")
    t.add_argument(
        "--schedule",
        choices=("constant", "onecycle"),
        help="learning-rate schedule [small: onecycle; vgg19/resnet50: constant, the papers']",
    )
    t.add_argument(
        "--patience",
        type=int,
        default=10,
        help="early stopping: epochs without a better validation loss [10, the papers']",
    )
    t.add_argument("--threads", type=int, help="CPU threads for PyTorch [all cores]")
    t.add_argument(
        "--weights",
        type=Path,
        help="local state dict for the backbone (e.g. torchvision's ImageNet "
        "VGG19/ResNet50 weights saved with torch.save); nothing is downloaded",
    )
    t.add_argument("--observer", help="observer name for the imported predictions [the architecture]")
    t.add_argument("--resume", action="store_true", help="continue the run in --out from its checkpoint.pt")
    add_speed_switches(t)
    r = sub.add_parser(
        "predict", help="write a run's predictions for an export as Parquet for `flask import-predictions`"
    )
    r.add_argument("run_dir", type=Path)
    r.add_argument("--stimuli", type=Path, required=True, help="the export of `flask stimuli export SLUG`")
    r.add_argument("--out", type=Path, required=True, help="predictions file (.parquet)")
    r.add_argument("--device", default="auto")
    r.add_argument("--run", type=int, help="run number in the file [the run's training seed]")
    r.add_argument("--threads", type=int, help="CPU threads for PyTorch [all cores]")
    w = sub.add_parser(
        "sweep", help="train, predict and tabulate a grid of runs from a TOML file, resumably (docs/models.md)"
    )
    w.add_argument("file", type=Path, help="the sweep file (SWEEP.toml)")
    w.add_argument("--status", action="store_true", help="print the progress view only; train nothing")
    w.add_argument(
        "--executor",
        choices=("local", "slurm"),
        default="local",
        help="local: train the runs here, one after another; slurm: submit them as a job array with the file's "
        "[slurm] requests, or write the table once all are done [local]",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parser().parse_args(argv)
    from .train import Options, RunError, Speed, train

    try:
        if args.command == "train":
            manifest = train(
                Options(
                    data=args.data,
                    arch=args.arch,
                    epochs=args.epochs,
                    seed=args.seed,
                    device=args.device,
                    out=args.out,
                    batch_size=args.batch_size,
                    lr=args.lr,
                    optimizer=args.optimizer,
                    schedule=args.schedule,
                    patience=args.patience,
                    threads=args.threads,
                    weights=args.weights,
                    observer=args.observer,
                    resume=args.resume,
                    speed=Speed(**{name: getattr(args, name) for name in SPEED_HELP}),
                    command=["python", "-m", "modelruns", *argv],
                )
            )
            last = manifest["history"][-1] if manifest["history"] else {}
            print(
                f"trained {manifest['arch']} ({manifest['condition'] or 'no sampling record'}, seed "
                f"{manifest['seed']}) on {manifest['device']}: {manifest['epochs_run']} epochs in "
                f"{manifest['wall_seconds']:.0f} s"
                + (f", validation MAE {last['val_mae']:.4f}" if "val_mae" in last else "")
                + f"; best epoch {manifest['best_epoch']} in {args.out / 'model.pt'}"
            )
        elif args.command == "sweep" and args.executor == "slurm" and not args.status:
            from .cluster import submit

            submit(args.file)
        elif args.command == "sweep":
            from .sweep import run_sweep

            run_sweep(args.file, status_only=args.status)
        else:
            import torch

            from .predict import predict

            if args.threads:
                torch.set_num_threads(args.threads)
            s = predict(args.run_dir, args.stimuli, args.out, args.device, args.run)
            print(
                f"{s['rows']:,} predictions of {s['observer']} ({s['condition'] or 'no condition'}, run {s['run']}) "
                f"written to {args.out}"
                + (f"; MAE on these stimuli {s['mae']:.4f}" if "mae" in s else "")
                + (f"; {s['clipped']} clipped to 0–1" if s["clipped"] else "")
                + (
                    f"; {s['skipped']:,} stimuli of other chart types left out (trained on type(s) "
                    f"{', '.join(map(str, s['chart_types']))})"
                    if s["skipped"]
                    else ""
                )
            )
            print(f"import: flask import-predictions SLUG {args.out} --observer {s['observer']}")
    except (DataError, RunError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
