"""Coverage of the ratings report's bootstrap intervals below ten participants (``make validate``; written through
:func:`bench.validate.coverage.write_coverage` and quoted by ``analysis.reports.ratings_study``).

The simulated cohort rates the Two4Two demo's statements (studies/two4two-demo/study.toml: which are relevant)
:data:`REPEATS` times each: the case where the report resamples participants (one rating each gets Wilson's interval
instead, which needs no warning). Participant i's chances of agreeing (5-7), neutral (4) and disagreeing (1-3) on a
statement are Dirichlet(κ·π) around the statement's π, so people differ and their repeated ratings correlate; the
rating is uniform within its band. The population values are π's agree share (% agreeing) and the agree share of a
relevant, the disagree share of an irrelevant statement (% correctly judged). The intervals are the product's own
(:func:`analysis.ratings.agreement`, :func:`analysis.ratings.correct_judgements`); a cohort contributes the share of
its statements whose interval covers."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.coverage import SMALL_SAMPLE
from analysis.ratings import agreement, correct_judgements
from bench.validate.coverage import N_BOOT, coverage_row, coverage_table

STUDY = Path(__file__).resolve().parents[2] / "studies" / "two4two-demo" / "study.toml"
REPEATS = 2
KAPPA = 4.0
#: (agree, neutral, disagree): relevant statements are mostly accepted, irrelevant ones mostly rejected
PI = {True: np.array([0.65, 0.15, 0.20]), False: np.array([0.25, 0.15, 0.60])}
BANDS = (np.array([5, 6, 7]), np.array([4]), np.array([1, 2, 3]))


def _statements() -> dict[str, bool]:
    with STUDY.open("rb") as fh:
        return {s["id"]: bool(s["relevant"]) for s in tomllib.load(fh)["task"]["statements"]}


def _cohort(rng: np.random.Generator, n: int, statements: dict[str, bool]) -> pd.DataFrame:
    rows = []
    for sid, relevant in statements.items():
        for pid in range(n):
            chances = rng.dirichlet(KAPPA * PI[relevant])
            for band in rng.choice(3, REPEATS, p=chances):
                rows.append((pid, sid, relevant, int(rng.choice(BANDS[band]))))
    return pd.DataFrame(rows, columns=["participant_id", "statement_id", "relevant", "rating"])


def coverage_rows(reps: int, seed: int) -> list[dict]:
    """Coverage of the % agreeing and % correctly judged intervals at n = 1..9 participants."""
    rng = np.random.default_rng(seed)
    statements = _statements()
    truth = {
        "percent_agree": {s: 100 * PI[r][0] for s, r in statements.items()},
        "percent_correct": {s: 100 * PI[r][0 if r else 2] for s, r in statements.items()},
    }
    design = f"Two4Two demo: n × {len(statements)} statements, each rated {REPEATS} times, Dirichlet(κ = {KAPPA:g})"
    out = []
    for n in range(1, SMALL_SAMPLE):
        shares = {k: [] for k in truth}
        for i in range(reps):
            df = _cohort(rng, n, statements)
            for stat, table in (
                ("percent_agree", agreement(df, n_boot=N_BOOT, seed=i)),
                ("percent_correct", correct_judgements(df, n_boot=N_BOOT, seed=i)),
            ):
                t = table["statement"].map(truth[stat])
                shares[stat].append(((table["ci_low"] <= t) & (t <= table["ci_high"])).mean())
        out += [coverage_row("participants", stat, n, s, design) for stat, s in shares.items()]
    return out


def rows(reps: int, seed: int) -> list[dict]:
    """No rows for the main table: the ratings' point values are checked in tests/analysis/test_analysis_ratings.py."""
    return []


def tables(seed: int) -> list[tuple[str, tuple[str, ...], list[dict]]]:
    return coverage_table("Ratings", "participants", coverage_rows, seed)
