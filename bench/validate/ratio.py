"""Validation rows for the ratio-estimation report: MLAE (both estimators), MAE, model MLAE over runs and the
consistency r with its Fisher-z interval, at Jiang et al.'s Study III design (56 participants × 25 test trials, 5
random height pairs of 39 per chart type), from the generating model of tests/analysis/conftest.py (judged = true
+ N(0, (σ_type · skill)²), skill uniform over three levels), whose population values are known."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from analysis import anova_by, mae, mlae, pearson, two_sample_t
from analysis.coverage import COVERAGE_COLUMNS, COVERAGE_FILE, SMALL_SAMPLE
from analysis.inference import pairwise_within, permutation_test, random_effects_test, rm_anova
from bench.validate.coverage import coverage_row, write_coverage
from tests.analysis.conftest import PAIRS, SIGMA, SKILL, simulate_cohort, true_mlae, true_participant_mlae

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


# --------------------------------------------------------------------------------------------------
# Coverage of the bootstrap interval below ten units (written to analysis/data/bootstrap_coverage.csv, which the
# reports quote through analysis.coverage.small_sample_note).

COVERAGE_NS = tuple(range(1, SMALL_SAMPLE))
RUN_SIGMA = SIGMA / 4  # a model's runs: a quarter of people's noise, skill spread like people's


def _runs_cohort(rng: np.random.Generator, n_runs: int) -> pd.DataFrame:
    """n runs, each predicting all 39 height pairs of every chart type once, |e| ~ |N(0, (σ_type/4 · skill)²)|."""
    e = np.abs(rng.normal(0.0, 1.0, (n_runs, 5, len(PAIRS))))
    e *= RUN_SIGMA[None, :, None] * rng.choice(SKILL, n_runs)[:, None, None]
    df = pd.DataFrame(
        {
            "run": np.repeat(np.arange(n_runs), 5 * len(PAIRS)),
            "chart_type": np.tile(np.repeat(np.arange(1, 6), len(PAIRS)), n_runs),
            "abs_error": e.ravel(),
        }
    )
    df["log_error"] = np.log2(df["abs_error"] + 0.125)
    return df


def _coverage_truths(sigma: np.ndarray, per_unit: int) -> dict[str, np.ndarray]:
    return {
        "mlae_pooled": np.array([true_mlae(s) for s in sigma]),
        "mlae_participant": np.array([true_participant_mlae(s, per_participant=per_unit) for s in sigma]),
        "mae": sigma * SKILL.mean() * np.sqrt(2 / np.pi),
    }


def coverage_rows(reps: int, seed: int) -> list[dict]:
    """Coverage of the 95 % percentile interval at n = 1..9 participants (Study III design: 5 judgments per type)
    and n = 1..9 runs (39 predictions per type). Each cohort contributes the share of its 5 chart types whose
    interval covers (types of one cohort share its units, so they are not independent): 200 cohorts hold 1,000
    intervals, and the Monte Carlo interval is over cohorts (:func:`bench.validate.coverage.coverage_row`)."""
    rng = np.random.default_rng(seed)
    designs = {
        "participants": (_coverage_truths(SIGMA, 5), "Study III: n × 25, random pairs", "participant_id"),
        "runs": (_coverage_truths(RUN_SIGMA, len(PAIRS)), "n runs × 195 stimuli", "run"),
    }
    out = []
    for unit, (truths, design, column) in designs.items():
        for n in COVERAGE_NS:
            shares = {k: [] for k in truths}
            for i in range(reps):
                df = (
                    simulate_cohort(rng, n_participants=n, design="study3")
                    if unit == "participants"
                    else _runs_cohort(rng, n)
                )
                for stat in truths:
                    if stat == "mae":
                        res = mae(df, unit=column, n_boot=N_BOOT, seed=i)
                    else:
                        res = mlae(df, stat.removeprefix("mlae_"), unit=column, n_boot=N_BOOT, seed=i)
                    shares[stat].append(_covers(res, truths[stat]).mean())
            out += [coverage_row(unit, stat, n, s, design) for stat, s in shares.items()]
    return out


# --------------------------------------------------------------------------------------------------
# Type-I error of the chart-type and observer tests on null cohorts of the demo's design, vectorised: the closed
# forms below are the product's tests (analysis.inference) computed for all cohorts at once; _check_closed_forms
# compares them with the product's functions on the first cohorts.

ALPHA = 0.05
TYPE1_PARTICIPANTS = 56  # Study III's analysed participants
#: Runs of the simulated model in the observer null: below SMALL_SAMPLE the report warns that the test over runs is
#: liberal; from there on its rate must contain 0.05.
TYPE1_RUNS = (2, 5, SMALL_SAMPLE, 30)
CHUNK = 500  # cohorts simulated at once (memory: CHUNK × runs × 195 floats)
NULL_SIGMA = 4.5  # the same noise for every chart type: no type effect


def _null_people(rng: np.random.Generator, reps: int, n: int, sigma) -> tuple[np.ndarray, np.ndarray]:
    """(reps, n, 5 types, 5 trials) absolute errors of people with a random skill (the participant effect) and the
    (reps, n, 5, 5) index of the height pair each judged (5 random pairs of 39 per type)."""
    skill = rng.choice(SKILL, (reps, n, 1, 1))
    e = np.abs(rng.normal(0.0, 1.0, (reps, n, 5, 5))) * np.asarray(sigma).reshape(1, 1, -1, 1) * skill
    pairs = np.argsort(rng.random((reps, n, 5, len(PAIRS))), axis=-1)[..., :5]
    return e, pairs


def _rm_anova_p(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(reps, n, k) participant × type means -> (p_GG, p of the old one-way ANOVA), per cohort."""
    n, k = y.shape[1:]
    row, col, grand = y.mean(2, keepdims=True), y.mean(1, keepdims=True), y.mean((1, 2), keepdims=True)
    ss_eff = n * ((col - grand) ** 2).sum((1, 2))
    ss_err = ((y - row - col + grand) ** 2).sum((1, 2))
    f = (ss_eff / (k - 1)) / (ss_err / ((k - 1) * (n - 1)))
    c = y - col
    cov = np.einsum("rij,rik->rjk", c, c) / (n - 1)
    h = np.eye(k) - 1.0 / k
    s = h @ cov @ h
    eps = np.trace(s, axis1=1, axis2=2) ** 2 / ((k - 1) * np.einsum("rij,rji->r", s, s))
    p_gg = stats.f.sf(f, eps * (k - 1), eps * (k - 1) * (n - 1))
    ss_within = ((y - col) ** 2).sum((1, 2))
    f_old = (ss_eff / (k - 1)) / (ss_within / (n * k - k))
    return p_gg, stats.f.sf(f_old, k - 1, n * k - k)


def _holm_any(y: np.ndarray) -> np.ndarray:
    """Whether Holm's paired t-tests over all type pairs reject anything: iff the smallest p < α / m."""
    _, n, k = y.shape
    a, b = np.triu_indices(k, 1)
    d = y[:, :, a] - y[:, :, b]
    t = d.mean(1) / (d.std(1, ddof=1) / np.sqrt(n))
    p = 2 * stats.t.sf(np.abs(t), n - 1)
    return p.min(1) < ALPHA / len(a)


def _welch_p(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Welch's two-sided p of mean(x) − mean(y) per row."""
    vx, vy = x.var(1, ddof=1) / x.shape[1], y.var(1, ddof=1) / y.shape[1]
    t = (x.mean(1) - y.mean(1)) / np.sqrt(vx + vy)
    dof = (vx + vy) ** 2 / (vx**2 / (x.shape[1] - 1) + vy**2 / (y.shape[1] - 1))
    return 2 * stats.t.sf(np.abs(t), dof)


def _null_runs(rng, reps: int, n_runs: int) -> np.ndarray:
    """(reps, runs, 5 types, 39 pairs) absolute errors of runs from people's error population (skill × σ_type),
    each run predicting every test stimulus once."""
    run_e = np.abs(rng.normal(0.0, 1.0, (reps, n_runs, 5, len(PAIRS))))
    return run_e * SIGMA.reshape(1, 1, -1, 1) * rng.choice(SKILL, (reps, n_runs, 1, 1))


def _observer_null(rng, reps: int, n: int, n_runs: int) -> tuple[np.ndarray, np.ndarray]:
    """People and a model whose runs come from the same population (skill × σ_type): p of the new test (Welch,
    per-participant MAE vs per-run MAE, each the mean over types of the unit's MAE per type) and of the old one
    (Welch over (type, pair) cells: people's mean error per cell vs the model's, runs pooled)."""
    e, pairs = _null_people(rng, reps, n, SIGMA)
    run_e = _null_runs(rng, reps, n_runs)
    p_new = _welch_p(e.mean((2, 3)), run_e.mean((2, 3)))
    cell = (np.arange(5).reshape(1, 1, -1, 1) * len(PAIRS) + pairs).reshape(reps, -1)
    flat = (cell + np.arange(reps)[:, None] * 5 * len(PAIRS)).ravel()
    sums = np.bincount(flat, e.reshape(-1), minlength=reps * 5 * len(PAIRS)).reshape(reps, -1)
    counts = np.bincount(flat, minlength=reps * 5 * len(PAIRS)).reshape(reps, -1)
    human_cells = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    model_cells = run_e.mean(1).reshape(reps, -1)
    p_old = np.array(
        [_welch_p(model_cells[r][None], human_cells[r][~np.isnan(human_cells[r])][None])[0] for r in range(reps)]
    )
    return p_new, p_old


def _check_closed_forms(rng: np.random.Generator) -> None:
    """The vectorised tests equal the product's (analysis.inference) on a few null cohorts; stop if not."""
    e, _ = _null_people(rng, 3, TYPE1_PARTICIPANTS, NULL_SIGMA)
    y = np.log2(e + 0.125).mean(3)
    p_gg, p_old = _rm_anova_p(y)
    any_holm = _holm_any(y)
    for r in range(3):
        long = pd.DataFrame(
            {
                "pid": np.repeat(np.arange(y.shape[1]), 5),
                "chart_type": np.tile(np.arange(1, 6), y.shape[1]),
                "y": y[r].ravel(),
            }
        )
        rm = rm_anova(long, "y", "chart_type", "pid").iloc[0]
        old = anova_by(long, "y", "chart_type").iloc[0]
        holm = pairwise_within(long, "y", "chart_type", "pid")["p_holm"].min() < ALPHA
        x, z = rng.normal(0, 1, 40), rng.normal(0.3, 2, 7)
        welch = two_sample_t(x, z).iloc[0]["p_val"]
        if not (
            np.isclose(rm["p_gg"], p_gg[r], rtol=1e-9)
            and np.isclose(old["p_val"], p_old[r], rtol=1e-9)
            and holm == any_holm[r]
            and np.isclose(welch, _welch_p(x[None], z[None])[0], rtol=1e-9)
        ):
            raise AssertionError("bench/validate/ratio.py: a vectorised test differs from analysis.inference")


def _rate_row(test: str, role: str, design: str, rejected: np.ndarray, note: str = "", goal: str = "") -> dict:
    """``goal``: "" (the interval must contain 0.05), "at most" (a family-wise rate: Holm keeps it ≤ 0.05 by
    construction) or "warned" (the report warns at this design)."""
    k, n = int(rejected.sum()), rejected.size
    low, high = (float(v) for v in proportion_confint(k, n, ALPHA, method="wilson"))
    rate = k / n
    ok = low <= ALPHA if goal == "at most" else low <= ALPHA <= high
    verdict = "met" if ok else "missed"
    if role == "old":
        verdict = "at 0.05" if ok else "off 0.05"
    elif goal == "warned":
        verdict = "warned" if not ok else "met"
    return {
        "test": test,
        "role": role,
        "design": design,
        "cohorts": n,
        "type_i": rate,
        "mc_low": low,
        "mc_high": high,
        "goal": verdict,
        "note": note,
    }


TYPE1_COLUMNS = ("test", "role", "design", "cohorts", "type_i", "mc_low", "mc_high", "goal", "note")


def type1_rows(reps: int, seed: int) -> list[dict]:
    """Rejection rate at α = 0.05 on ``reps`` null cohorts (no type effect; no observer effect), with the Wilson
    95 % Monte Carlo interval; the new tests' intervals must contain 0.05."""
    rng = np.random.default_rng(seed)
    _check_closed_forms(rng)
    n = TYPE1_PARTICIPANTS
    e, _ = _null_people(rng, reps, n, NULL_SIGMA)
    y = np.log2(e + 0.125).mean(3)  # participant × type mean log error
    p_gg, p_old = _rm_anova_p(y)
    design = f"{n} participants × 5 types × 5 trials, skill random effect, no type effect"
    rows_ = [
        _rate_row("chart type: repeated-measures ANOVA, Greenhouse–Geisser", "new", design, p_gg < ALPHA),
        _rate_row(
            "chart type: one-way ANOVA over participant × type means",
            "old",
            design,
            p_old < ALPHA,
            "treats a participant's 5 means as independent",
        ),
        _rate_row(
            "chart type: paired t-tests, Holm (any pair)",
            "new",
            design,
            _holm_any(y),
            "family-wise over 10 pairs; Holm holds it at most 0.05",
            goal="at most",
        ),
    ]
    for n_runs in TYPE1_RUNS:
        p_new, p_old = (
            np.concatenate(p)
            for p in zip(*(_observer_null(rng, min(CHUNK, reps - start), n, n_runs) for start in range(0, reps, CHUNK)))
        )
        d = f"{n} participants × 25 vs {n_runs} runs × 195, same error population"
        few = n_runs < SMALL_SAMPLE
        rows_ += [
            _rate_row(
                "observer: Welch, participants vs runs (units)",
                "new",
                d,
                p_new < ALPHA,
                f"fewer than {SMALL_SAMPLE} runs: the report warns" if few else "",
                goal="warned" if few else "",
            ),
            _rate_row(
                "observer: Welch over (type, pair) cells",
                "old",
                d,
                p_old < ALPHA,
                "cells share participants and runs",
            ),
        ]
    return rows_


#: Runs at which the observer's small-sample tests (the report's row below SMALL_SAMPLE runs) are checked.
SMALL_RUNS = (2, 3, 5)


def _units(e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(reps, units, 5 types, m) absolute errors -> each unit's MAE (mean over types of its mean per type) and its
    sampling variance (the types' variances of the mean, s²_type / m, averaged over the 5 types and divided by 5),
    as the report computes them (analysis.reports.ratio_study._unit_mae and _unit_variance)."""
    return e.mean((2, 3)), (e.var(3, ddof=1) / e.shape[3]).mean(2) / 5


def small_runs_rows(reps: int, seed: int) -> list[dict]:
    """Type-I error of the observer tests below SMALL_SAMPLE runs at 2, 3 and 5 runs: the product's
    :func:`analysis.inference.random_effects_test` (the report's row) and :func:`analysis.inference.permutation_test`
    (the row it replaced), one call per cohort, on two nulls: runs exchangeable with participants (each run answers
    a participant's 25 trials) and runs of all 195 stimuli from people's error population (they vary less than
    participants). The random-effects test's rate must contain 0.05 on both; the permutation test's does on the
    first only (on the second it is conservative: why it was replaced)."""
    rng = np.random.default_rng([seed, 39])
    n, out = TYPE1_PARTICIPANTS, []
    for n_runs in SMALL_RUNS:
        people = _units(_null_people(rng, reps, n, SIGMA)[0])
        like_people = _units(_null_people(rng, reps, n_runs, SIGMA)[0])
        all_stimuli = _units(_null_runs(rng, reps, n_runs))
        for runs, design, conservative in (
            (like_people, f"{n} participants × 25 vs {n_runs} runs × 25, exchangeable", False),
            (all_stimuli, f"{n} participants × 25 vs {n_runs} runs × 195, same error population", True),
        ):
            p_re = np.array(
                [random_effects_test(runs[0][r], runs[1][r], people[0][r], people[1][r]).iloc[0]["p_val"]
                 for r in range(reps)]
            )  # fmt: skip
            p_perm = np.array([permutation_test(runs[0][r], people[0][r]).iloc[0]["p_val"] for r in range(reps)])
            out.append(_rate_row("observer: random-effects test of unit means, bootstrap-t", "new", design,
                                 p_re < ALPHA))  # fmt: skip
            note = "runs vary less than participants: conservative" if conservative else "the test's null"
            out.append(_rate_row("observer: Fisher–Pitman permutation over units", "old", design, p_perm < ALPHA,
                                 note))  # fmt: skip
    return out


def tables(seed: int) -> list[tuple[str, tuple[str, ...], list[dict]]]:
    """The type-I tables and the small-sample coverage table (also written to analysis/data/bootstrap_coverage.csv)."""
    type1_reps = int(os.environ.get("VALIDATE_TYPE1_REPS", "5000"))
    coverage_reps = int(os.environ.get("VALIDATE_COVERAGE_REPS", "200"))
    small_runs_reps = int(os.environ.get("VALIDATE_SMALL_RUNS_REPS", "4000"))
    coverage = coverage_rows(coverage_reps, seed)
    write_coverage(coverage, coverage_reps, seed)
    return [
        (
            f"Type-I error at α = 0.05 ({type1_reps} null cohorts, Wilson 95 % Monte Carlo interval)",
            TYPE1_COLUMNS,
            type1_rows(type1_reps, seed),
        ),
        (
            f"Type-I error of the observer's tests below {SMALL_SAMPLE} runs at α = 0.05 ({small_runs_reps} null "
            "cohorts each, Wilson 95 % Monte Carlo interval)",
            TYPE1_COLUMNS,
            small_runs_rows(small_runs_reps, seed),
        ),
        (
            f"Coverage of the 95 % bootstrap interval below {SMALL_SAMPLE} units ({coverage_reps} cohorts per row; "
            f"written to analysis/data/{COVERAGE_FILE})",
            tuple(COVERAGE_COLUMNS),
            coverage,
        ),
    ]
