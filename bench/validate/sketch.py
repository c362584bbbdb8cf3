"""Coverage of the sketch report's accuracy intervals below ten sketches (``make validate``; written through
:func:`bench.validate.coverage.write_coverage` and quoted by ``analysis.reports.sketch_study``).

The simulated cohort has the demo study's layout (studies/sketch-demo, server/tasks/sketch_recognition/demo.py): one
sketch per concept in each observer × producer × level cell, so a cell of n sketches holds n concepts. Concept c's
sketch is recognised with probability ``expit(a + b_c + e)``, ``e ~ N(0, τ²)`` the sketch's own difficulty, and top-3
with ``expit(a + 1 + b_c + e)``; each sketch gets :data:`ANSWERS` people's answers. The population value is the
accuracy over sketches of those concepts (the concepts fixed, as in the benchmark; with one sketch per concept the
interval resamples the concepts, or a single sketch's answers: ``ci_method``):
``(1/n) Σ_c E_e[expit(a + b_c + e)]``, by Gauss–Hermite quadrature. The interval is the product's own
(:func:`analysis.sketch_statistics.accuracy_by_level`), one per cohort and statistic."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import expit

from analysis.coverage import SMALL_SAMPLE
from analysis.sketch_statistics import accuracy_by_level
from bench.validate.coverage import N_BOOT, coverage_row, coverage_table

ANSWERS = 4  # people per sketch: the demo's 8 trials per person over 36 sketches, at about 20 participants
INTERCEPT, TOP3_SHIFT, SKETCH_SD = 0.3, 1.0, 1.0  # 0.3: no concept mix lands on a round accuracy
CONCEPT_EFFECT = np.linspace(-1.0, 1.0, SMALL_SAMPLE - 1)[[4, 0, 8, 2, 6, 1, 7, 3, 5]]  # mixed easy and hard first
DESIGN = f"sketch demo layout: n concepts × 1 sketch per cell, {ANSWERS} answers each"
_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(60)


def _truth(shift: float, n: int) -> float:
    """Population accuracy of a cell of the first n concepts: the mean over concepts of E_e[expit(·)]."""
    eta = INTERCEPT + shift + CONCEPT_EFFECT[:n, None] + SKETCH_SD * _NODES[None, :]
    return float((expit(eta) @ _WEIGHTS).mean() / _WEIGHTS.sum())


def _cohort(rng: np.random.Generator, n: int) -> pd.DataFrame:
    """n sketches (one per concept), ANSWERS answers each: the concept as first guess (top-1), as second (top-3
    only) or not at all."""
    e = rng.normal(0.0, SKETCH_SD, n)
    p1 = expit(INTERCEPT + CONCEPT_EFFECT[:n] + e).repeat(ANSWERS)
    p3 = expit(INTERCEPT + TOP3_SHIFT + CONCEPT_EFFECT[:n] + e).repeat(ANSWERS)
    u = rng.random(n * ANSWERS)
    concept = np.array([f"c{c}" for c in range(n)]).repeat(ANSWERS)
    return pd.DataFrame(
        {
            "observer": "human",
            "sketch_id": [f"{c}-human-4" for c in concept],
            "concept": concept,
            "abstraction_level": 4.0,
            "producer": "human",
            "guess_1": np.where(u < p1, concept, "other"),
            "guess_2": np.where((u >= p1) & (u < p3), concept, None),
        }
    )


def coverage_rows(reps: int, seed: int) -> list[dict]:
    """Coverage of the top-1 and top-3 accuracy intervals of one cell at n = 1..9 sketches."""
    rng = np.random.default_rng(seed)
    out = []
    for n in range(1, SMALL_SAMPLE):
        truth = {"top1": _truth(0.0, n), "top3": _truth(TOP3_SHIFT, n)}
        hits = {k: [] for k in truth}
        for i in range(reps):
            acc = accuracy_by_level(_cohort(rng, n), n_boot=N_BOOT, seed=i).iloc[0]
            for k, t in truth.items():
                hits[k].append(acc[f"{k}_ci_low"] <= t <= acc[f"{k}_ci_high"])
        out += [coverage_row("sketches", f"{k}_accuracy", n, h, DESIGN) for k, h in hits.items()]
    return out


def rows(reps: int, seed: int) -> list[dict]:
    """No rows for the main table: the sketch measures' bias is checked in tests/analysis/test_analysis_sketch.py."""
    return []


def tables(seed: int) -> list[tuple[str, tuple[str, ...], list[dict]]]:
    return coverage_table("Sketch accuracy", "sketches", coverage_rows, seed)
