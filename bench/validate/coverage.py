"""The one writer of ``analysis/data/bootstrap_coverage.csv``: the coverage of the 95 % bootstrap interval below
:data:`analysis.coverage.SMALL_SAMPLE` units, which ``analysis.coverage.small_sample_note`` quotes in the reports.

Each study family's module (``ratio.py``: participants and runs; ``sketch.py``: sketches; ``ratings.py``:
participants rating statements) measures its own (unit, statistic) rows and hands them to :func:`write_coverage`,
which replaces those keys and keeps the other modules' rows, so ``VALIDATE_MODULES=bench.validate.sketch`` does not
drop the ratio rows.

Monte Carlo interval (:func:`coverage_row`). A cohort yields several intervals (one per chart type, statement, ...)
that share its units, so they are not independent: the coverage is the mean over cohorts of each cohort's share of
intervals that cover, and its 95 % Monte Carlo interval is that mean ± 1.96 × the standard error of the shares over
the ``reps`` independent cohorts (Morris, White & Crowther 2019, Stat Med 38:2074, Table 6, with the cohort as the
replication). It is narrower than a binomial interval over ``reps`` intervals (±0.058 at 0.77 and 200) because a
cohort contributes several, and wider than one over all of them (±0.026 over 1,000) because they are correlated.
When every cohort gave the same share (e.g. no interval ever covered) the standard error is 0 and says nothing, so
the interval is then Wilson's over the ``reps`` cohorts, as if each held one interval (the conservative bound).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_confint

from analysis.coverage import COVERAGE_COLUMNS, COVERAGE_FILE, SMALL_SAMPLE

COVERAGE_PATH = Path(__file__).resolve().parents[2] / "analysis" / "data" / COVERAGE_FILE
NOMINAL = 0.95
#: Bootstrap resamples per interval in every coverage row.
N_BOOT = 1000
#: The modules whose rows the file holds (named in its header).
WRITERS = ("ratio.py", "sketch.py", "ratings.py")


def coverage_row(unit: str, statistic: str, n_units: int, shares, design: str) -> dict:
    """One row of the file from the per-cohort shares of covering intervals (see the module docstring)."""
    s = np.asarray(shares, dtype=float)
    mean = float(s.mean())
    if np.ptp(s) > 0:
        half = 1.96 * s.std(ddof=1) / np.sqrt(s.size)
        low, high = max(mean - half, 0.0), min(mean + half, 1.0)
    else:
        low, high = (float(v) for v in proportion_confint(round(mean * s.size), s.size, 1 - NOMINAL, "wilson"))
    return {
        "unit": unit,
        "statistic": statistic,
        "n_units": n_units,
        "reps": s.size,
        "nominal": NOMINAL,
        "coverage": round(mean, 4),
        "mc_low": round(float(low), 4),
        "mc_high": round(float(high), 4),
        "design": design,
    }


def write_coverage(rows: list[dict], reps: int, seed: int, path: Path = COVERAGE_PATH) -> None:
    """Write ``rows`` to the file, replacing the rows of their (unit, statistic) keys and keeping the others."""
    new = pd.DataFrame(rows, columns=COVERAGE_COLUMNS)
    if path.is_file():
        old = pd.read_csv(path, comment="#")
        keys = set(zip(new["unit"], new["statistic"]))
        old = old[[k not in keys for k in zip(old["unit"], old["statistic"])]]
        new = pd.concat([old, new], ignore_index=True)
    header = (
        f"# Written by `make validate` (VALIDATE_COVERAGE_REPS={reps} VALIDATE_SEED={seed} python -m bench.validate; "
        f"bench/validate/{', '.join(WRITERS)} through coverage.py write_coverage, each replacing its own "
        "unit/statistic rows): coverage of the 95 % percentile bootstrap interval of the population value with "
        f"n < {SMALL_SAMPLE} resampled units, {N_BOOT} resamples; reps = independent simulated cohorts, each "
        "contributing the share of its intervals that cover; mc_low/mc_high = coverage ± 1.96 SE over cohorts "
        "(Wilson over cohorts when all shares are equal). analysis.coverage quotes it. Do not edit.\n"
    )
    path.write_text(header + new.to_csv(index=False), encoding="utf-8")


def coverage_table(what: str, unit: str, coverage_rows, seed: int) -> list[tuple[str, tuple[str, ...], list[dict]]]:
    """A module's coverage table for `make validate` (``tables``): ``coverage_rows(reps, seed)`` measured with
    VALIDATE_COVERAGE_REPS cohorts, written to the data file, and returned as one titled table."""
    reps = int(os.environ.get("VALIDATE_COVERAGE_REPS", "200"))
    coverage = coverage_rows(reps, seed)
    write_coverage(coverage, reps, seed)
    title = (
        f"{what}: coverage of the 95 % bootstrap interval below {SMALL_SAMPLE} {unit} ({reps} cohorts per row; "
        "written to analysis/data/bootstrap_coverage.csv)"
    )
    return [(title, tuple(COVERAGE_COLUMNS), coverage)]
