"""Import benchmark: `flask import-predictions` against pandas.DataFrame.to_sql and psql's raw \\copy.

For each size (BENCH_SIZES, default 1M and 16M predictions = 50 and 800 model runs of 20,000 stimuli) it writes one
prediction file (stimulus_id, prediction as a ratio, run: what a model run exports) as CSV and as Parquet, and the
same rows already resolved to database ids (run_id, stimulus_id, value in percent) for psql. Then, each time into
an emptied `predictions` table (TRUNCATE, CHECKPOINT), it times:

- `flask import-predictions` on the CSV and on the Parquet file: a fresh process, start-up included, every check
  done; binary COPY (the default) and, on the CSV, text COPY of pyarrow-written CSV (the alternative we measured).
  With `--disable-fk-triggers` (a superuser's shortcut: server/imports/predictions.py, _set_row_checks_aside) and, up to
  FK_CHECKS_ON_MAX_ROWS, without it, as the app's own role imports (PostgreSQL's per-row foreign-key triggers on),
  and as a table owner who is no superuser could speed that up: the two foreign keys dropped, the import, the keys
  re-added NOT VALID and VALIDATEd (one join over the table instead of a lookup per row; emulated around the command);
- pandas: read_csv, map stimulus keys to ids, create the model runs, DataFrame.to_sql (no checks at all). On more
  than TO_SQL_MAX_ROWS rows it is run on the first TO_SQL_MAX_ROWS rows and extrapolated linearly (says so);
- psql `\\copy … CSV` of the resolved file: the issue's baseline, PostgreSQL's own loader, no lookups or checks.

All load into the same table, primary key and foreign keys in place. psql and to_sql pay PostgreSQL's per-row
foreign-key triggers, which are most of the time here; our command checks the keys itself and, with
`--disable-fk-triggers` (the bench connects as a superuser), sets those triggers aside in its transaction. The
files are deleted after each size.
The last thing left in the database is the largest import by our command (observer `bench`), for benchmarks that
run after this one (e.g. `flask analyze`).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import sqlalchemy as sa

from server.db import db

from .common import SLUG, STIMULI_PER_RUN, Bench, Result, remove, timer

NAME = "import predictions"
OBSERVER = "bench"
TO_SQL_MAX_ROWS = 1_000_000
FK_CHECKS_ON_MAX_ROWS = 1_000_000  # as slow as raw COPY (both check every row's keys): 2–4 minutes at 16M
RAW = "psql \\copy (raw COPY)"
OURS = "flask import-predictions"
SHORTCUT = "--disable-fk-triggers"


def make_files(bench: Bench, rows: int, folder: Path) -> dict[str, Path]:
    """The prediction file as CSV and Parquet, plus the same rows resolved to ids for psql."""
    keys, ids = bench.stimuli()
    runs = -(-rows // STIMULI_PER_RUN)
    position = np.tile(np.arange(STIMULI_PER_RUN), runs)[:rows]
    run = np.repeat(np.arange(runs), STIMULI_PER_RUN)[:rows]
    ratio = np.random.default_rng(3).random(rows).round(6)  # what a model writes: 6 decimals
    table = pa.table({"stimulus_id": pa.array(keys).take(position), "prediction": ratio, "run": run})
    files = {
        "csv": folder / f"predictions-{rows}.csv",
        "parquet": folder / f"predictions-{rows}.parquet",
        "resolved": folder / f"resolved-{rows}.csv",
    }
    pacsv.write_csv(table, files["csv"])
    pq.write_table(table, files["parquet"])
    # model_runs ids are 1…runs after TRUNCATE … RESTART IDENTITY (see prepare_runs)
    resolved = pa.table(
        {"run_id": run + 1, "stimulus_id": np.asarray(ids, dtype=np.int32)[position], "value": ratio * 100}
    )
    pacsv.write_csv(resolved, files["resolved"], pacsv.WriteOptions(include_header=False))
    return files


def reset(bench: Bench):
    """Empty tables, a fresh index, no checkpoint pending from the previous method."""
    bench.execute("TRUNCATE predictions, model_runs RESTART IDENTITY CASCADE", "CHECKPOINT")


def count(bench: Bench) -> int:
    with bench.app.app_context():
        return db.session.scalar(sa.text("SELECT count(*) FROM predictions"))


def prepare_runs(bench: Bench, runs: int, observer: str):
    """model_runs rows 1…runs, for the methods that do not create their own (pandas, psql)."""
    with bench.app.app_context():
        study_id = db.session.scalar(sa.text("SELECT id FROM studies WHERE slug = :slug"), {"slug": SLUG})
        db.session.execute(
            sa.text(
                "INSERT INTO model_runs (study_id, observer, run, condition, unit, source, n_predictions, imported_at) "
                "SELECT :study, :observer, r, '', 'ratio', 'bench', :n, now() FROM generate_series(0, :last) AS r"
            ),
            {"study": study_id, "observer": observer, "n": STIMULI_PER_RUN, "last": runs - 1},
        )
        db.session.commit()


def import_command(bench: Bench, file: Path, *options: str, prelude: str | None = None) -> str:
    return bench.flask(
        "import-predictions",
        SLUG,
        str(file),
        "--observer",
        OBSERVER,
        "--unit",
        "ratio",
        *options,
        python_prelude=prelude,
    ).stdout


def bench_command(
    bench: Bench, file: Path, rows: int, method: str, *options: str, prelude: str | None = None, note: str = ""
) -> Result:
    reset(bench)
    with timer() as elapsed:
        output = import_command(bench, file, *options, prelude=prelude)
    assert count(bench) == rows, output
    inside = output.strip().rsplit(" in ", 1)[-1]  # the command's own clock: without Python/Flask start-up
    return Result(
        NAME,
        method,
        rows,
        elapsed(),
        f"{note}; {inside} inside the command" if note else f"{inside} inside the command",
        baseline=RAW,
        details={"inside": float(inside.split()[0])},
    )


def bench_owner_constraints(bench: Bench, file: Path, rows: int) -> Result:
    """Without superuser, as the table owner: the foreign keys dropped, the import (no per-row triggers then), the
    keys re-added NOT VALID and VALIDATEd, which checks every row of the table in one join. Emulated around the
    command, in separate transactions; an import option would need them in its own one (docs/operations.md)."""
    reset(bench)
    with bench.app.app_context():
        keys = db.session.execute(
            sa.text(
                "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                "WHERE conrelid = 'predictions'::regclass AND contype = 'f'"
            )
        ).all()
    with timer() as elapsed:
        bench.execute(*(f'ALTER TABLE predictions DROP CONSTRAINT "{name}"' for name, _ in keys))
        output = import_command(bench, file)
        with timer() as validating:
            bench.execute(
                *(
                    f'ALTER TABLE predictions ADD CONSTRAINT "{name}" {definition} NOT VALID'
                    for name, definition in keys
                ),
                *(f'ALTER TABLE predictions VALIDATE CONSTRAINT "{name}"' for name, _ in keys),
            )
    assert count(bench) == rows, output
    return Result(
        NAME,
        OURS + " (CSV, FKs dropped, re-added NOT VALID + VALIDATE)",
        rows,
        elapsed(),
        f"VALIDATE {validating():.1f} s (grows with the whole table, not the import)",
        baseline=RAW,
    )


def bench_to_sql(bench: Bench, file: Path, rows: int) -> Result:
    measured = min(rows, TO_SQL_MAX_ROWS)
    if rows > measured and bench.extra.get("to_sql", (0,))[0] == measured:  # measured already at this size
        seconds = bench.extra["to_sql"][1]
        return Result(
            NAME,
            "pandas DataFrame.to_sql",
            rows,
            seconds * rows / measured,
            f"EXTRAPOLATED linearly from the {measured:,}-row run above (not run: too slow)",
            baseline=RAW,
        )
    reset(bench)
    keys, ids = bench.stimuli()
    engine = sa.create_engine(bench.url)
    with timer() as elapsed:
        frame = pd.read_csv(file, nrows=measured)
        frame = pd.DataFrame(
            {
                "run_id": frame["run"] + 1,
                "stimulus_id": frame["stimulus_id"].map(dict(zip(keys, ids))),
                "value": frame["prediction"] * 100,
            }
        )
        prepare_runs(bench, int(frame["run_id"].max()), "pandas")
        frame.to_sql("predictions", engine, if_exists="append", index=False)
    engine.dispose()
    assert count(bench) == measured
    bench.extra["to_sql"] = (measured, elapsed())
    seconds = elapsed() * rows / measured
    note = "read_csv + key map + to_sql, no checks"
    if measured < rows:
        note = f"EXTRAPOLATED linearly from {measured:,} rows in {elapsed():.1f} s (not run: too slow)"
    return Result(NAME, "pandas DataFrame.to_sql", rows, seconds, note, baseline=RAW)


def bench_psql(bench: Bench, resolved: Path, rows: int, note: str) -> Result:
    reset(bench)
    prepare_runs(bench, -(-rows // STIMULI_PER_RUN), "psql")
    with timer() as elapsed:
        subprocess.run(
            [
                "psql",
                bench.psql_url,
                "-v",
                "ON_ERROR_STOP=1",
                "-qc",
                f"\\copy predictions(run_id, stimulus_id, value) FROM '{resolved}' CSV",
            ],
            check=True,
        )
    assert count(bench) == rows
    return Result(NAME, RAW, rows, elapsed(), f"{note} (ids already resolved, no checks)")


def run(bench: Bench) -> list[Result]:
    results = []
    for rows in bench.sizes:
        folder = bench.scratch / f"import-{rows}"
        folder.mkdir()
        try:
            files = make_files(bench, rows, folder)
            size = {kind: f"{kind} {path.stat().st_size / 1e6:,.0f} MB" for kind, path in files.items()}
            results.append(bench_psql(bench, files["resolved"], rows, size["resolved"]))
            results.append(bench_to_sql(bench, files["csv"], rows))
            results.append(
                bench_command(
                    bench,
                    files["csv"],
                    rows,
                    f"{OURS} (CSV, text COPY, {SHORTCUT})",
                    SHORTCUT,
                    prelude="import server.imports.predictions as p; p.COPY_FORMAT = 'csv'",
                )
            )
            if rows <= FK_CHECKS_ON_MAX_ROWS:
                results.append(
                    bench_command(
                        bench, files["csv"], rows, OURS + " (CSV, FK checks on: the default)", note=size["csv"]
                    )
                )
                results.append(bench_owner_constraints(bench, files["csv"], rows))
            results.append(
                bench_command(
                    bench, files["parquet"], rows, f"{OURS} (Parquet, {SHORTCUT})", SHORTCUT, note=size["parquet"]
                )
            )
            results.append(
                bench_command(bench, files["csv"], rows, f"{OURS} (CSV, {SHORTCUT})", SHORTCUT, note=size["csv"])
            )
        finally:
            remove(folder)
    return results


def summary(results: list[Result]) -> list[str]:
    """The issue's goals for the CSV import: within 2× of raw COPY's time, and ≥ 10× the rate of to_sql; counted
    on the command's wall-clock time (Python and Flask start-up included) and on its own clock, for the shortcut
    and for the default (FK checks on)."""
    lines = []
    by = {(r.method, r.rows): r for r in results if r.benchmark == NAME}
    for (method, rows), r in by.items():
        raw, pandas = by.get((RAW, rows)), by.get(("pandas DataFrame.to_sql", rows))
        way = {f"{OURS} (CSV, {SHORTCUT})": SHORTCUT, OURS + " (CSV, FK checks on: the default)": "FK checks on"}
        if method not in way or not (raw and pandas):
            continue
        for clock, seconds in (("wall clock", r.seconds), ("inside the command", r.details["inside"])):
            time_ratio, speedup = seconds / raw.seconds, pandas.seconds / seconds
            lines.append(
                f"{rows:>10,} rows, {way[method]:>21}, {clock:>18}: {time_ratio:.2f}× the time of raw COPY "
                f"(goal ≤ 2×: {'met' if time_ratio <= 2 else 'NOT met'}), {speedup:.1f}× to_sql's rate "
                f"(goal ≥ 10×: {'met' if speedup >= 10 else 'NOT met'})"
            )
    return lines
