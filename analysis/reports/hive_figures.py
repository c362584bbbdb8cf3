"""PNG bar plots of a :class:`analysis.reports.hive_study.HiveReport` (matplotlib without pyplot: safe in a server
process).

* ``accuracy.png``: mean accuracy per condition (model correct / incorrect / all), error bars ± 1 SD over
  participants (ddof = 1), HIVE's published mean ± SD beside ours where the study matches, chance as a line.
* ``understanding.png``: self-rated understanding at the three points, ± 1 SD.
* ``tradeoff.png``: required accuracy gain per risk level, ± 1 SD, HIVE's published means as markers.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from ..hive_statistics import METHOD_NAMES
from .hive_study import HiveReport

__all__ = ["write_hive_figures"]

DPI = 120
OURS, THEIRS = "#1f5fbf", "#9aa4ae"


def _bars(path: Path, labels, means, sds, title: str, ylabel: str, published=None, hline=None, ylim=None) -> Path:
    fig = Figure(figsize=(6, 4), dpi=DPI)
    ax = fig.add_subplot()
    x = np.arange(len(labels))
    width = 0.38 if published is not None else 0.6
    ax.bar(x - (width / 2 if published is not None else 0), means, width, yerr=np.nan_to_num(sds), capsize=4,
           color=OURS, label="ours (± 1 SD)")
    if published is not None:
        pub_means, pub_sds = published
        ax.bar(x + width / 2, pub_means, width, yerr=np.nan_to_num(pub_sds), capsize=4, color=THEIRS,
               label="HIVE 2022 (± 1 SD)")
    if hline is not None:
        ax.axhline(hline, color="black", linestyle="--", linewidth=1, label=f"chance ({hline:g})")
    ax.set_xticks(x, labels)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if ylim:
        ax.set_ylim(*ylim)
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    fig.savefig(path)
    return path


def write_hive_figures(report: HiveReport, out_dir: Path) -> list[Path]:
    """Write the report's bar plots into ``out_dir``; return their paths (plots without data are skipped)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    acc = report.tables["accuracy"]
    m = report.meta
    has_published = acc["published_mean"].notna().any()
    written.append(_bars(
        out_dir / "accuracy.png", [f"model {c}" if c != "all" else "all" for c in acc["condition"]],
        acc["mean"].to_numpy(float), acc["sd"].to_numpy(float),
        f"{METHOD_NAMES[m['method']]}: accuracy by model prediction (n = {m['n_participants']})", "accuracy (%)",
        published=(acc["published_mean"].to_numpy(float), acc["published_sd"].to_numpy(float))
        if has_published else None, hline=m["chance"], ylim=(0, 110)))
    und = report.tables["understanding"]
    points = und[und["kind"] == "point"]
    if len(points):
        written.append(_bars(out_dir / "understanding.png", list(points["point"]), points["mean"].to_numpy(float),
                             points["sd"].to_numpy(float), "Self-rated understanding", "rating (1–5)", ylim=(0, 5.5)))
    trade = report.tables["tradeoff"]
    if len(trade):
        written.append(_bars(out_dir / "tradeoff.png", [f"{r} risk" for r in trade["risk"]],
                             trade["mean_gain"].to_numpy(float), trade["sd_gain"].to_numpy(float),
                             "Accuracy a model without explanations must gain", "gain (points)",
                             published=(trade["published_gain"].to_numpy(float), np.full(len(trade), np.nan))))
    return written
