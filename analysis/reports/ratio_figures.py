"""PNG figures of a :class:`analysis.reports.ratio_study.RatioReport` (matplotlib, no pyplot: safe in a server process).

* :func:`mlae_dot_plot` -- the classic Cleveland & McGill dot plot: MLAE per chart type with 95 % intervals for
  people, every model and the published results.
* :func:`error_by_ratio_plot` -- mean absolute error against the true ratio (per height pair).
* :func:`human_model_scatter` -- each model's mean absolute error per height pair against people's, with r.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from .ratio_study import CHART_TYPES, HUMANS, PUBLISHED_LABELS, RatioReport, model_order
from .render import with_interval

__all__ = ["error_by_ratio_plot", "human_model_scatter", "mlae_dot_plot", "write_figures"]

TYPE_NAMES = {1: "1 adjacent", 2: "2 aligned stacked", 3: "3 separated", 4: "4 unaligned stacked", 5: "5 divided"}
HUMAN_COLOR = "black"
PUBLISHED_STYLE = {"Cleveland & McGill 1984": ("#7f7f7f", "s"), "Heer & Bostock 2010": ("#bcbcbc", "D")}
MODEL_COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
                "#bcbd22", "#393b79"]
DPI = 120


def _models(report: RatioReport, max_models: int) -> list[str]:
    return model_order(report)[:max_models]


def _color(i: int) -> str:
    return MODEL_COLORS[i % len(MODEL_COLORS)]


def mlae_dot_plot(report: RatioReport, path: Path, max_models: int = 8) -> Path:
    """MLAE per chart type (rows) for every observer, with 95 % CIs; published values as grey squares/diamonds."""
    models = _models(report, max_models)
    series = [(HUMANS, HUMAN_COLOR, "o", True), *[(m, _color(i), "o", True) for i, m in enumerate(models)],
              *[(label, *PUBLISHED_STYLE[label], False) for label in PUBLISHED_LABELS.values()]]
    ml = report.tables["mlae"]
    fig = Figure(figsize=(8, 1.2 + 0.9 * len(CHART_TYPES) + 0.12 * len(series)), dpi=DPI)
    ax = fig.add_subplot()
    k = len(series)
    offsets = np.linspace(-0.3, 0.3, k) if k > 1 else np.zeros(1)
    handles = []
    for (label, color, marker, filled), off in zip(series, offsets):
        sub = ml[ml["label"] == label].set_index("chart_type")
        ys, xs, lo, hi = [], [], [], []
        for j, ct in enumerate(CHART_TYPES):
            if ct in sub.index:
                r = sub.loc[ct]
                ys.append(j + off)
                xs.append(r["mlae"])
                lo.append(r["mlae"] - r["ci_low"] if math.isfinite(r["ci_low"]) else 0)
                hi.append(r["ci_high"] - r["mlae"] if math.isfinite(r["ci_high"]) else 0)
        if not xs:
            continue
        ax.errorbar(xs, ys, xerr=[lo, hi], fmt=marker, color=color, ecolor=color, capsize=2, markersize=6,
                    markerfacecolor=color if filled else "white", linewidth=1.2)
        handles.append(Line2D([], [], color=color, marker=marker, linestyle="-",
                              markerfacecolor=color if filled else "white", label=label))
    ax.set_yticks(range(len(CHART_TYPES)), [f"type {TYPE_NAMES[ct]}" for ct in CHART_TYPES])
    ax.invert_yaxis()
    ax.set_xlabel("MLAE: log2(|judged − true| + 1/8), percent units  (lower is better)")
    ax.set_ylabel("bar-chart type")
    ax.grid(axis="x", color="#e5e5e5")
    ax.set_axisbelow(True)
    title = f"{report.meta.get('slug', '')}: MLAE by chart type, 95% CIs".lstrip(": ")
    more = len(model_order(report)) - len(models)
    if more > 0:
        title += f" (best {len(models)} models of {len(models) + more})"
    ax.set_title(title)
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False,
              title="observer", title_fontsize=9)
    fig.text(0.01, 0.005, "models: mean over height pairs of pooled log error (CI over pairs); "
             "humans: midmean per stimulus (CI over participants)", fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path)
    return path


def error_by_ratio_plot(report: RatioReport, path: Path, max_models: int = 8) -> Path:
    """Mean absolute error (percentage points) per height pair against the true ratio, all chart types pooled."""
    models = _models(report, max_models)
    fig = Figure(figsize=(8, 4.8), dpi=DPI)
    ax = fig.add_subplot()
    hp = report.cells["pairs"]
    mp = report.cells["model_pairs"]
    series = [(HUMANS, HUMAN_COLOR, hp["true_percent"], hp[f"{HUMANS}_abs_error"])]
    for i, label in enumerate(models):
        sub = mp[mp["label"] == label]
        series.append((label, _color(i), sub["true_percent"], sub["mean_abs_error"]))
    for label, color, true_percent, error in series:
        ratio = true_percent.to_numpy(dtype=float) / 100
        err = error.to_numpy(dtype=float)
        ax.scatter(ratio, err, s=10, color=color, alpha=0.35, linewidths=0)
        bins = np.floor(ratio * 10)  # ratio bins 0.1 wide
        xs = [ratio[bins == b].mean() for b in np.unique(bins)]
        ys = [err[bins == b].mean() for b in np.unique(bins)]
        ax.plot(xs, ys, "o-", color=color, label=label, markersize=5, linewidth=1.5)
    ax.set_xlabel("true ratio (shorter / taller bar)")
    ax.set_ylabel("mean absolute error (percentage points)")
    ax.set_ylim(bottom=0)
    ax.grid(color="#e5e5e5")
    ax.set_axisbelow(True)
    ax.set_title(f"{report.meta.get('slug', '')}: error by true ratio".lstrip(": "))
    fig.text(0.01, 0.005, "dots: height pairs (mean over chart types); lines: mean per 0.1-wide ratio bin",
             fontsize=7, color="#555555")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False, title="observer",
              title_fontsize=9)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path)
    return path


def human_model_scatter(report: RatioReport, path: Path, max_models: int = 6) -> Path:
    """One panel per model: its mean absolute error per height pair (y) against people's (x), with Pearson r."""
    models = _models(report, max_models)
    n = max(len(models), 1)
    cols = min(n, 3)
    rows = math.ceil(n / cols)
    fig = Figure(figsize=(3.6 * cols + 0.6, 3.4 * rows + 0.6), dpi=DPI)
    hp = report.cells["pairs"].set_index(["short_height", "tall_height"])
    mp = report.cells["model_pairs"]
    inter = report.tables["consistency"]
    inter = inter[inter["kind"] == "inter"].set_index("observer")
    if not models:
        ax = fig.add_subplot()
        ax.text(0.5, 0.5, "no model predictions imported", ha="center", va="center")
        ax.set_axis_off()
    for i, label in enumerate(models):
        ax = fig.add_subplot(rows, cols, i + 1)
        sub = mp[mp["label"] == label].set_index(["short_height", "tall_height"])
        both = hp.join(sub[["mean_abs_error"]], how="inner")
        ax.scatter(both[f"{HUMANS}_abs_error"], both["mean_abs_error"], s=14, color=_color(i), alpha=0.8)
        r = inter.loc[label] if label in inter.index else None
        if r is not None and math.isfinite(r["r"]):
            txt = f"r = {with_interval(r['r'], r['ci_low'], r['ci_high'])}\nn = {int(r['n'])} height pairs"
        else:
            txt = "r not defined\n(constant errors or < 3 pairs)"
        ax.text(0.03, 0.97, txt, transform=ax.transAxes, va="top", fontsize=8,
                bbox={"facecolor": "white", "edgecolor": "#cccccc", "boxstyle": "round,pad=0.3"})
        ax.set_title(label, fontsize=9)
        ax.set_xlabel("humans: mean abs. error (pp)", fontsize=8)
        ax.set_ylabel("model: mean abs. error (pp)", fontsize=8)
        ax.tick_params(labelsize=8)
        ax.grid(color="#eeeeee")
        ax.set_axisbelow(True)
    title = f"{report.meta.get('slug', '')}: human vs model error per height pair (short, tall)".lstrip(": ")
    more = len(model_order(report)) - len(models)
    if more > 0:
        title += f", best {len(models)} of {len(models) + more} models"
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    return path


def write_figures(report: RatioReport, out_dir: Path) -> list[Path]:
    """Write mlae.png, error_by_ratio.png and human_vs_model.png into ``out_dir``; return their paths."""
    out_dir = Path(out_dir)
    return [mlae_dot_plot(report, out_dir / "mlae.png"),
            error_by_ratio_plot(report, out_dir / "error_by_ratio.png"),
            human_model_scatter(report, out_dir / "human_vs_model.png")]
