"""`make validate`: simulated cohorts at each study's published design, from known generating distributions, and
for every estimator and interval the reports print, its bias against the true population value and the coverage
of its 95 % interval. A table, not a test (tests/analysis keep small seeded versions of these checks).

    VALIDATE_REPS=500 VALIDATE_SEED=1 python -m bench.validate
    VALIDATE_MODULES=bench.validate.ratio python -m bench.validate   # one study family's rows and tables

Each module in :data:`MODULES` has ``rows(reps, seed) -> list[dict]`` with the keys of :data:`COLUMNS`; a module may
add ``tables(seed) -> list[(title, columns, rows)]``, printed after the main table (the ratio module's type-I table,
VALIDATE_TYPE1_REPS cohorts, its observer tests' type-I table below 10 runs, VALIDATE_SMALL_RUNS_REPS, and its
small-sample coverage table, VALIDATE_COVERAGE_REPS; the sketch and ratings modules' coverage tables: each writes
its rows to analysis/data/bootstrap_coverage.csv through bench/validate/coverage.py; the planning module's table of
achieved power at `flask plan`'s n, VALIDATE_PLANNING_REPS cohorts per row over VALIDATE_PLANNING_PILOTS pilots).
"""

from __future__ import annotations

import importlib
import os
import time

from bench.tables import markdown_table

MODULES = (
    "bench.validate.ratio",
    "bench.validate.hive",
    "bench.validate.sketch",
    "bench.validate.ratings",
    "bench.validate.planning",
)
COLUMNS = ("statistic", "estimator", "design", "reps", "true", "mean", "bias", "coverage", "goal", "note")


def _cell(value) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def main() -> None:
    reps = int(os.environ.get("VALIDATE_REPS", "500"))
    seed = int(os.environ.get("VALIDATE_SEED", "1"))
    start = time.perf_counter()
    modules = os.environ.get("VALIDATE_MODULES", ",".join(MODULES)).split(",")
    rows = []
    for name in modules:
        rows += importlib.import_module(name).rows(reps, seed)
    lines = [COLUMNS] + [tuple(_cell(row.get(c, "")) for c in COLUMNS) for row in rows]
    print(markdown_table(lines))
    missed = []
    for name in modules:
        module = importlib.import_module(name)
        for title, columns, table_rows in module.tables(seed) if hasattr(module, "tables") else ():
            lines = [columns] + [tuple(_cell(row.get(c, "")) for c in columns) for row in table_rows]
            print(f"\n{title}\n")
            print(markdown_table(lines))
            missed += [r for r in table_rows if r.get("goal") == "missed"]
    missed += [r for r in rows if r.get("goal") == "missed"]
    print(
        f"\n{len(rows)} rows, {reps} replications each, seed {seed}, {time.perf_counter() - start:.0f} s; "
        f"goals missed: {len(missed)}"
        + "".join(f"\n- {r.get('statistic', r.get('test'))}: {r['note']}" for r in missed)
    )


if __name__ == "__main__":
    main()
