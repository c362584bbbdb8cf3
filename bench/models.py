"""`make bench-models`: CNNs trained on studyhive's own stimuli under each ratio-sampling regime, scored on the test
people took. One Markdown table: per architecture and regime, the training size, seconds per epoch, MAE and MLAE
on study3's 192 test stimuli, and the training–test distance; then the comparison with people and the held-out
(OOD) regime's effect next to the seed paper's direction. Not a test: nothing is asserted.

    make bench-models                                      # defaults below; about 10 minutes on 2 idle cores
    BENCH_MODELS=small:4000x4:IID+OOD make bench-models
    BENCH_MODELS=vgg19:60000x100,resnet50:60000x100 BENCH_DEVICE=cuda make bench-models   # the paper's, on a GPU

BENCH_MODELS: arch:IMAGESxEPOCHS[:REGIME+REGIME…], comma-separated (all four regimes unless named).
BENCH_THREADS: CPU threads. BENCH_DEVICE: auto, cpu, cuda. On a CPU VGG19 and ResNet-50 train at a few images per
second, so their default sizes only time an epoch: their errors there are those of barely trained networks, not of
the architectures.

Scores use the statistics `flask analyze` prints for a model (analysis/report.py, MODEL_MLAE_METHOD): the errors of
each (chart type, height pair) cell are averaged first, then MAE (analysis.mae) and MLAE (analysis.mlae, one row per
cell) average the cells. Everything runs in a scratch folder with its own SQLite database.
"""
from __future__ import annotations

import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
from flask_migrate import upgrade

from analysis import mae, mlae, published
from analysis.errors import log_error
from server import create_app
from server.config import PROJECT_ROOT
from server.studies import sync_studies

from .common import markdown_table

DEFAULT_MODELS = "small:8000x5,vgg19:64x1:IID,resnet50:64x1:IID"
REGIMES = ("IID", "COV", "ADV", "OOD")
SLUG = "study3"


def sizes(spec: str) -> list[tuple[str, int, int, list[str]]]:
    """"small:8000x5,vgg19:64x1:IID" → [("small", 8000, 5, all regimes), ("vgg19", 64, 1, ["IID"])]."""
    out = []
    for item in filter(None, spec.split(",")):
        arch, size, *regimes = item.split(":")
        images, epochs = size.lower().split("x")
        out.append((arch, int(images), int(epochs), regimes[0].upper().split("+") if regimes else list(REGIMES)))
    return out


def flask(runner, *args: str) -> str:
    result = runner.invoke(args=list(args))
    if result.exit_code:
        raise RuntimeError(f"flask {' '.join(args)} failed:\n{result.output}")
    return result.output


def score(predictions: Path, test: pd.DataFrame) -> dict[str, float]:
    """MAE (ratio units) and MLAE over (chart type, height pair) cells, as `flask analyze` scores a model."""
    p = pq.read_table(predictions, columns=["stimulus_id", "prediction"]).to_pandas()
    df = test.merge(p, on="stimulus_id", validate="one_to_one")
    judged = 100 * df["prediction"]
    df = df.assign(abs_error=(judged - df["true_percent"]).abs(), log_error=log_error(judged, df["true_percent"]))
    cells = df.groupby(["chart_type", "short_height", "tall_height"], as_index=False)[["abs_error", "log_error"]].mean()
    cells["cell"] = np.arange(len(cells))
    m = mae(cells, value="abs_error", group=None, unit=None, n_boot=1)["mae"].iloc[0] / 100
    lae = mlae(cells, value="log_error", stimulus="cell", group=None, unit=None, n_boot=1)["mlae"].iloc[0]
    return {"mae": float(m), "mlae": float(lae), "df": df}


def main() -> int:
    from modelruns.predict import predict
    from modelruns.train import Options, train

    plan = sizes(os.environ.get("BENCH_MODELS", DEFAULT_MODELS))
    threads = int(os.environ["BENCH_THREADS"]) if os.environ.get("BENCH_THREADS") else None
    device = os.environ.get("BENCH_DEVICE", "auto")
    rows, results = [], []
    with tempfile.TemporaryDirectory(prefix="studyhive-bench-models-") as scratch:
        scratch = Path(scratch)
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{scratch / 'bench.sqlite'}", "SECRET_KEY": "bench"})
        with app.app_context():
            upgrade(directory=app.config["MIGRATIONS_DIR"])
            sync_studies(Path(app.config["STUDIES_DIR"]))
            runner = app.test_cli_runner()
            flask(runner, "stimuli", "export", SLUG, "--out", str(scratch / "test"))
            test = pd.read_csv(scratch / "test" / "manifest.csv")
            for arch, n, epochs, regimes in plan:
                for regime in regimes:
                    data = scratch / f"{regime}-{n}"
                    if not data.exists():
                        flask(runner, "stimuli", "export", SLUG, "--training", str(n), "--regime", regime,
                              "--validation", str(max(1, n // 4)), "--seed", "0", "--out", str(data))
                    sampling = json.loads((data / "sampling.json").read_text())
                    print(f"{arch} {sampling['condition']}: {n:,} images × {epochs} epochs …", file=sys.stderr,
                          flush=True)
                    run = train(Options(data=data, arch=arch, epochs=epochs, seed=0, device=device,
                                        out=scratch / "runs" / f"{arch}-{regime}-{n}", threads=threads),
                                echo=lambda line: print("  " + line, file=sys.stderr, flush=True))
                    out = scratch / "preds" / f"{arch}-{regime}-{n}.parquet"
                    predict(Path(scratch / "runs" / f"{arch}-{regime}-{n}"), scratch / "test", out, device)
                    s = score(out, test)
                    results.append({"arch": arch, "regime": regime, "condition": sampling["condition"], **s,
                                    "training_bins": sampling["training_bins"]})
                    per_1000 = 1000 * run["seconds_per_epoch"] / n
                    rows.append((arch, sampling["condition"], f"{n:,} × {run['epochs_run']}", run["device"],
                                 f"{run['seconds_per_epoch']:.1f}", f"{per_1000:.1f}", f"{s['mae']:.3f}",
                                 f"{s['mlae']:.2f}", f"{sampling['training_test_distance']['bins']:.3f}"))
    header = ("arch", "regime", "images × epochs", "device", "s/epoch", "s per 1,000 images", "MAE (ratio)", "MLAE",
              "train–test distance")
    out = io.StringIO()
    print(markdown_table([header, *rows]), file=out)
    for line in summary(results):
        print(line, file=out)
    print("\n" + out.getvalue(), end="")
    saved = PROJECT_ROOT / "bench-results" / f"bench-models-{time.strftime('%Y%m%d-%H%M%S')}.md"
    saved.parent.mkdir(exist_ok=True)
    saved.write_text(f"BENCH_MODELS={os.environ.get('BENCH_MODELS', DEFAULT_MODELS)}, {os.cpu_count()} CPUs\n\n"
                     + out.getvalue())
    print(f"(saved as {saved.relative_to(PROJECT_ROOT)})")
    return 0


def summary(results: list[dict]) -> list[str]:
    pub = published(source="JiangEtAl2025", study="ratio-sampling study III", measure="MAE").set_index("condition")
    humans, cnn = float(pub.loc["humans", "value"]), float(pub.loc["CNN IID-large", "value"])
    lines = ["", f"People, as published (Jiang et al., Study III): MAE {humans:.3f}; their CNN (VGG19, IID-large) "
             f"{cnn:.3f}."]
    by = {(r["arch"], r["regime"]): r for r in results}
    for arch in dict.fromkeys(r["arch"] for r in results):
        iid, ood = by.get((arch, "IID")), by.get((arch, "OOD"))
        if iid:
            lines.append(f"{arch} IID: MAE {iid['mae']:.3f} vs people's {humans:.3f}: "
                         f"{'lower' if iid['mae'] < humans else 'NOT lower'}.")
        if iid and ood:
            top = max(ood["training_bins"]) / 100 + 0.005
            df = ood["df"]
            inside = df["true_percent"] / 100 < top
            err = (100 * df["prediction"] - df["true_percent"]).abs() / 100
            lines.append(
                f"{arch} held-out regime (OOD, the lowest half of the bins, up to {top:.3f}): MAE {ood['mae']:.3f} vs "
                f"IID {iid['mae']:.3f} ({ood['mae'] - iid['mae']:+.3f}); on test ratios inside its training range "
                f"{err[inside].mean():.3f} (n={int(inside.sum())}), beyond it {err[~inside].mean():.3f} "
                f"(n={int((~inside).sum())}). Paper's direction: OOD errs more than IID, and its errors grow with the "
                f"distance beyond the training range while in-range test ratios stay accurate (Study I, H2).")
    return lines


if __name__ == "__main__":
    sys.exit(main())
