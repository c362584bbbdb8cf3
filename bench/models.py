"""`make bench-models`: first the training throughput beside a bare PyTorch loop (bench/model_speed.py; BENCH_SPEED),
then CNNs trained on studyhive's own stimuli under each ratio-sampling regime take the test people
took, beside a demo cohort of simulated people with the seed paper's human error (tests/helpers.py, PAPER_SIGMA).
One Markdown table: per architecture and regime, the training size, seconds per epoch, MAE and MLAE per chart type
on study3's 192 test stimuli, and the training–test distance; then the comparison with people and the held-out
(OOD) regime's effect next to the seed paper's direction. Not a test: nothing is asserted.

    make bench-models                                      # defaults below; about 10 minutes on 2 idle cores
    BENCH_MODELS=small:4000x4:IID+OOD make bench-models
    BENCH_MODELS=vgg19:60000x100,resnet50:60000x100 BENCH_DEVICE=cuda make bench-models   # the paper's, on a GPU

BENCH_MODELS: arch:IMAGESxEPOCHS[:REGIME+REGIME…], comma-separated (all four regimes unless named).
BENCH_ACCURACY=0: the throughput table only.
BENCH_THREADS: CPU threads. BENCH_DEVICE: auto, cpu, cuda. On a CPU VGG19 and ResNet-50 train at a few images per
second, so their default sizes only time an epoch: their errors there are those of barely trained networks, not of
the architectures.

Every model is imported (`flask import-predictions`) and the scores are those `flask analyze study3 --format json`
reports for it and for the cohort: MAE over all chart types and MLAE per chart type, whatever estimator the report
uses. The OOD line splits that model's absolute errors by whether a test ratio lies inside its training range.
Everything runs in a scratch folder with its own SQLite database.
"""

from __future__ import annotations

import io
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
from flask_migrate import upgrade

from analysis import published
from server import create_app
from server.config import PROJECT_ROOT
from server.studies.definitions import sync_studies
from tests.helpers import go_live, take_study3_like_people

from .model_speed import speed_table
from .tables import markdown_table

DEFAULT_MODELS = "small:8000x5,vgg19:64x1:IID,resnet50:64x1:IID"
REGIMES = ("IID", "COV", "ADV", "OOD")
SLUG = "study3"
PEOPLE = 40  # the demo cohort (the paper analysed 56 of 63)
N_BOOT = 1000


def sizes(spec: str) -> list[tuple[str, int, int, list[str]]]:
    """ "small:8000x5,vgg19:64x1:IID" → [("small", 8000, 5, all regimes), ("vgg19", 64, 1, ["IID"])]."""
    out = []
    for item in filter(None, spec.split(",")):
        arch, size, *regimes = item.split(":")
        images, epochs = size.lower().split("x")
        out.append((arch, int(images), int(epochs), regimes[0].upper().split("+") if regimes else list(REGIMES)))
    return out


def flask(runner, *args: str) -> str:
    """Run a flask command in-process, as the tests do; its standard output."""
    result = runner.invoke(args=list(args))
    if result.exit_code:
        raise RuntimeError(f"flask {' '.join(args)} failed:\n{result.output}")
    return result.stdout


def out_of_range(predictions: Path, test: pd.DataFrame, top: float) -> tuple[pd.Series, pd.Series]:
    """Absolute errors (ratio units) on the test stimuli whose ratio is inside [0, top) and beyond it."""
    p = pq.read_table(predictions, columns=["stimulus_id", "prediction"]).to_pandas()
    df = test.merge(p, on="stimulus_id", validate="one_to_one")
    err = (df["prediction"] - df["true_percent"] / 100).abs()
    inside = df["true_percent"] / 100 < top
    return err[inside], err[~inside]


def main() -> int:
    from modelruns.predict import predict
    from modelruns.train import Options, train

    speed = "Training throughput (bench/model_speed.py), ours beside a bare PyTorch loop:\n\n" + speed_table() + "\n"
    print("\n" + speed, flush=True)
    if os.environ.get("BENCH_ACCURACY") == "0":
        return 0
    plan = sizes(os.environ.get("BENCH_MODELS", DEFAULT_MODELS))
    threads = int(os.environ["BENCH_THREADS"]) if os.environ.get("BENCH_THREADS") else None
    device = os.environ.get("BENCH_DEVICE", "auto")
    runs = []
    with tempfile.TemporaryDirectory(prefix="studyhive-bench-models-") as scratch:
        scratch = Path(scratch)
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{scratch / 'bench.sqlite'}", "SECRET_KEY": "bench"})
        with app.app_context():
            upgrade(directory=app.config["MIGRATIONS_DIR"])
            sync_studies(Path(app.config["STUDIES_DIR"]))
            go_live()  # the simulated people are the live data `flask analyze` reads
            runner, client, rng = app.test_cli_runner(), app.test_client(), random.Random(0)
            for _ in range(PEOPLE):
                take_study3_like_people(client, rng, SLUG)
            flask(runner, "stimuli", "export", SLUG, "--out", str(scratch / "test"))
            test = pd.read_csv(scratch / "test" / "manifest.csv")
            for arch, n, epochs, regimes in plan:
                for regime in regimes:
                    data = scratch / f"{regime}-{n}"
                    if not data.exists():
                        flask(
                            runner,
                            "stimuli",
                            "export",
                            SLUG,
                            "--training",
                            str(n),
                            "--regime",
                            regime,
                            "--validation",
                            str(max(1, n // 4)),
                            "--seed",
                            "0",
                            "--out",
                            str(data),
                        )
                    sampling = json.loads((data / "sampling.json").read_text())
                    name = f"{arch}-{n}x{epochs}"
                    print(f"{name} {sampling['condition']} …", file=sys.stderr, flush=True)
                    run_dir = scratch / "runs" / f"{name}-{regime}"
                    run = train(
                        Options(
                            data=data,
                            arch=arch,
                            epochs=epochs,
                            seed=0,
                            device=device,
                            out=run_dir,
                            threads=threads,
                            observer=name,
                        ),
                        echo=lambda line: print("  " + line, file=sys.stderr, flush=True),
                    )
                    preds = scratch / "preds" / f"{name}-{regime}.parquet"
                    predict(run_dir, scratch / "test", preds, device)
                    flask(runner, "import-predictions", SLUG, str(preds), "--observer", name, "--unit", "ratio")
                    runs.append(
                        {
                            "arch": arch,
                            "name": name,
                            "n": n,
                            "regime": regime,
                            "run": run,
                            "sampling": sampling,
                            "preds": preds,
                            "label": f"{name} ({sampling['condition']})",
                        }
                    )
            report = json.loads(flask(runner, "analyze", SLUG, "--format", "json", "--n-boot", str(N_BOOT)))
            for r in runs:  # what the OOD line needs, read before the scratch folder goes
                top = max(r["sampling"]["training_bins"]) / 100 + 0.005
                r["inside"], r["beyond"] = out_of_range(r["preds"], test, top)
                r["top"] = top
    mae = {row["label"]: row["mae_ratio"] for row in report["mae"] if row["chart_type"] == "all"}
    mlae = {(row["label"], row["chart_type"]): row["mlae"] for row in report["mlae"]}
    types = sorted({row["chart_type"] for row in report["mlae"]})
    rows = [
        (
            "people (demo cohort)",
            "",
            f"{PEOPLE} simulated",
            "",
            "",
            "",
            f"{mae['humans']:.3f}",
            *(f"{mlae[('humans', t)]:.2f}" for t in types),
            "",
        )
    ]
    for r in runs:
        run, label = r["run"], r["label"]
        rows.append(
            (
                r["arch"],
                r["sampling"]["condition"],
                f"{r['n']:,} × {run['epochs_run']}",
                run["device"],
                f"{run['seconds_per_epoch']:.1f}",
                f"{1000 * run['seconds_per_epoch'] / r['n']:.1f}",
                f"{mae[label]:.3f}",
                *(f"{mlae[(label, t)]:.2f}" for t in types),
                f"{r['sampling']['training_test_distance']['bins']:.3f}",
            )
        )
    header = (
        "arch",
        "regime",
        "images × epochs",
        "device",
        "s/epoch",
        "s per 1,000 images",
        "MAE (ratio)",
        *(f"MLAE type {t}" for t in types),
        "train–test distance",
    )
    out = io.StringIO()
    print(markdown_table([header, *rows]), file=out)
    for line in summary(runs, mae):
        print(line, file=out)
    print("\n" + out.getvalue(), end="")
    saved = PROJECT_ROOT / "bench-results" / f"bench-models-{time.strftime('%Y%m%d-%H%M%S')}.md"
    saved.parent.mkdir(exist_ok=True)
    saved.write_text(
        f"BENCH_MODELS={os.environ.get('BENCH_MODELS', DEFAULT_MODELS)}, {os.cpu_count()} CPUs\n\n{speed}\n"
        + out.getvalue()
    )
    print(f"(saved as {saved.relative_to(PROJECT_ROOT)})")
    return 0


def summary(runs: list[dict], mae: dict[str, float]) -> list[str]:
    pub = published(source="JiangEtAl2025", study="ratio-sampling study III", measure="MAE").set_index("condition")
    humans, cnn = float(pub.loc["humans", "value"]), float(pub.loc["CNN IID-large", "value"])
    cohort = mae["humans"]
    lines = [
        "",
        f"People: the demo cohort's MAE {cohort:.3f}; published (Jiang et al., Study III) {humans:.3f}, and "
        f"their CNN (VGG19, IID-large) {cnn:.3f}. MLAE: the estimator `flask analyze` reports.",
    ]
    by = {(r["name"], r["regime"]): r for r in runs}
    for name in dict.fromkeys(r["name"] for r in runs):
        iid, ood = by.get((name, "IID")), by.get((name, "OOD"))
        if iid:
            lines.append(
                f"{name} IID: MAE {mae[iid['label']]:.3f} vs the demo cohort's {cohort:.3f}: "
                f"{'lower' if mae[iid['label']] < cohort else 'NOT lower'}."
            )
        if iid and ood:
            a, b = mae[iid["label"]], mae[ood["label"]]
            lines.append(
                f"{name} held-out regime (OOD, the lowest half of the bins, ratios below {ood['top']:.3f}): MAE "
                f"{b:.3f} vs IID {a:.3f} ({b - a:+.3f}); absolute error on test ratios inside its training range "
                f"{ood['inside'].mean():.3f} (n={len(ood['inside'])}), beyond it {ood['beyond'].mean():.3f} "
                f"(n={len(ood['beyond'])}). The paper's direction (Study I, H2): OOD errs more than IID, its errors "
                f"grow with the distance beyond the training range, and in-range test ratios stay accurate."
            )
    return lines


if __name__ == "__main__":
    sys.exit(main())
