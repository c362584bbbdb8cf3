"""Validation rows for the ratio-estimation report: MLAE (both estimators), MAE, model MLAE over runs and the
consistency r with its Fisher-z interval, at Jiang et al.'s Study III design (56 participants × 25 test trials, 5
random height pairs of 39 per chart type), from the generating model of tests/analysis/conftest.py (judged = true
+ N(0, (σ_type · skill)²), skill uniform over three levels), whose population values are known."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from analysis import mae, mlae, pearson
from tests.analysis.conftest import SIGMA, SKILL, simulate_cohort, true_mlae, true_participant_mlae

N_PARTICIPANTS = 56
N_BOOT = 1000
MLAE_BIAS_GOAL = 0.02
DESIGN = f"Study III: {N_PARTICIPANTS} × 25, random pairs"


def _row(statistic, estimator, design, reps, truth, estimates, hits, bias_goal=None, note=""):
    estimates = np.asarray(estimates, dtype=float)
    bias = float(np.mean(estimates) - truth)
    coverage = float(np.mean(hits)) if hits is not None else float("nan")
    problems = []
    if bias_goal is not None and abs(bias) > bias_goal:
        problems.append(f"|bias| {abs(bias):.3f} > {bias_goal}")
    if hits is not None and not 0.93 <= coverage <= 0.97:
        mc_se = float(np.sqrt(coverage * (1 - coverage) / len(hits)))  # of the coverage estimate itself
        problems.append(f"coverage {coverage:.3f} outside 0.93–0.97 (Monte Carlo SE {mc_se:.3f})")
    return {
        "statistic": statistic,
        "estimator": estimator,
        "design": design,
        "reps": reps,
        "true": float(truth),
        "mean": float(np.mean(estimates)),
        "bias": bias,
        "coverage": coverage,
        "goal": "missed" if problems else "met",
        "note": "; ".join(problems + ([note] if note else [])),
    }


def _covers(out: pd.DataFrame, truth) -> np.ndarray:
    return ((out["ci_low"] <= truth) & (truth <= out["ci_high"])).to_numpy()


def _human_rows(reps: int, rng: np.random.Generator) -> list[dict]:
    truths = {
        "pooled": np.array([true_mlae(s) for s in SIGMA]),
        "participant": np.array([true_participant_mlae(s) for s in SIGMA]),
    }
    true_mae = SIGMA * SKILL.mean() * np.sqrt(2 / np.pi)
    est = {k: [] for k in ("pooled", "participant", "mae", "per-stimulus")}
    hit = {k: [] for k in ("pooled", "participant", "mae")}
    for i in range(reps):
        df = simulate_cohort(rng, n_participants=N_PARTICIPANTS, design="study3")
        for name in ("pooled", "participant"):
            out = mlae(df, name, n_boot=N_BOOT, seed=i)
            est[name].append(out["mlae"].to_numpy())
            hit[name].append(_covers(out, truths[name]))
        out = mae(df, n_boot=N_BOOT, seed=i)
        est["mae"].append(out["mae"].to_numpy())
        hit["mae"].append(_covers(out, true_mae))
        # the estimator the report used to print: midmean per stimulus, mean over stimuli (point only)
        per_stimulus = df.groupby(["chart_type", "stimulus_id"])["log_error"].apply(lambda v: stats.trim_mean(v, 0.25))
        est["per-stimulus"].append(per_stimulus.groupby("chart_type").mean().to_numpy())
    rows = []
    for t in range(5):
        for name in ("pooled", "participant"):
            rows.append(
                _row(
                    f"human MLAE, type {t + 1}",
                    name,
                    DESIGN,
                    reps,
                    truths[name][t],
                    [e[t] for e in est[name]],
                    [h[t] for h in hit[name]],
                    MLAE_BIAS_GOAL,
                )
            )
        removed = _row(
            f"human MLAE, type {t + 1}",
            "per-stimulus (removed)",
            DESIGN,
            reps,
            truths["pooled"][t],
            [e[t] for e in est["per-stimulus"]],
            None,
            None,
            "the estimator the report printed before; bias against the pooled value; no longer offered",
        )
        rows.append({**removed, "goal": "removed"})
    for t in range(5):
        rows.append(
            _row(
                f"human MAE, type {t + 1}",
                "mean of judgments",
                DESIGN,
                reps,
                true_mae[t],
                [e[t] for e in est["mae"]],
                [h[t] for h in hit["mae"]],
            )
        )
    return rows


def _model_rows(reps: int, rng: np.random.Generator, n_runs: int) -> list[dict]:
    """A model whose runs differ in skill like people do, 195 test stimuli per run (39 pairs × 5 types); type 3."""
    sigma = SIGMA[2] / 4
    truth = true_participant_mlae(sigma, per_participant=39)
    estimates, hits = [], []
    for i in range(reps):
        rows = []
        for run in range(n_runs):
            scale = sigma * rng.choice(SKILL)
            rows.append(pd.DataFrame({"chart_type": 3, "run": run, "abs_error": np.abs(rng.normal(0, scale, 39))}))
        out = mlae(pd.concat(rows), "participant", unit="run", n_boot=N_BOOT, seed=i)
        estimates.append(out["mlae"].iloc[0])
        hits.append(_covers(out, truth)[0])
    why = (
        "a percentile bootstrap over so few runs is too narrow (it cannot see run-to-run spread it did not draw)"
        if n_runs < 20
        else ""
    )
    return [
        _row(
            "model MLAE, type 3",
            "participant (runs)",
            f"{n_runs} runs × 39 stimuli",
            reps,
            truth,
            estimates,
            hits,
            MLAE_BIAS_GOAL,
            why,
        )
    ]


def _consistency_rows(reps: int, rng: np.random.Generator) -> list[dict]:
    """Pearson r of 39 height pairs' mean errors, humans vs a model, with the Fisher-z interval."""
    rows = []
    for rho, label in ((0.5, "bivariate normal"), (0.8, "bivariate normal")):
        cov = [[1, rho], [rho, 1]]
        rs, hits = [], []
        for _ in range(reps):
            x = rng.multivariate_normal([0, 0], cov, 39)
            res = pearson(x[:, 0], x[:, 1]).iloc[0]
            rs.append(res["r"])
            hits.append(res["ci_low"] <= rho <= res["ci_high"])
        rows.append(
            _row(
                "consistency r",
                "Pearson, Fisher-z CI",
                f"39 pairs, {label}, ρ = {rho}",
                reps,
                rho,
                rs,
                hits,
                note="r is biased towards 0 by O(1/n); the interval is on the z scale",
            )
        )
    return rows


def rows(reps: int, seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    return (
        _human_rows(reps, rng) + _model_rows(reps, rng, 5) + _model_rows(reps, rng, 30) + _consistency_rows(reps, rng)
    )
