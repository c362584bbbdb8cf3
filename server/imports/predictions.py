"""`flask import-predictions`: load a model's predictions for a study's stimuli, at the seed study's scale.

    flask import-predictions study3 preds.csv --observer vgg19-iid-large --unit ratio [--run 0] [--condition IID]
                             [--replace] [--disable-fk-triggers]

The file (CSV, optionally .gz/.bz2/.zst, or Parquet) has the columns `stimulus_id` (the ids of `flask stimuli
export`) and `prediction` (percent 0–100 or ratio 0–1: a file of 0.3s is ambiguous, so `--unit` is required unless
the file says its unit), plus optional `run` and `condition` columns, so one file may hold several runs and
conditions of one observer; `--run`/`--condition` fill in a column the file lacks, and must agree with it when both
are given. Values are stored as percent, like a human response. Each (observer, run, condition) becomes one
`model_runs` row.

A Parquet file of `python -m modelruns predict` carries metadata under "studyhive.modelrun" (MODELRUN_METADATA): its
unit (a `--unit` that disagrees is refused, naming both), the chart types it answers, and the run manifest, kept in
`model_runs.manifests`. Such a file is one part of its run: the papers trained one network per chart type, so the
five per-type files of one run merge into one `model_runs` row by chart type. A stimulus the run already has a
prediction for is refused (by name) unless `--replace`, which replaces that run's predictions of the file's chart
types only. A file without the metadata replaces whole runs with `--replace`, as before.

Why it is built this way:

- Scale. The seed study has 16 million predictions from 800 models. Python objects per row (ORM inserts, csv
  module, pandas.to_sql) cost seconds per million rows, so the file is streamed in Arrow record batches
  (pyarrow.csv.open_csv, ParquetFile.iter_batches), validated with vectorised numpy/pyarrow operations per batch,
  and written to PostgreSQL with COPY in binary format, built by numpy as one structured array per batch (see
  `_copy_binary`; measured against text COPY of pyarrow-written CSV by `make bench`). SQLite, used for
  development and tests, gets executemany on the raw DB-API connection.
- Foreign keys checked once per stimulus, not once per row. PostgreSQL checks each new row's two foreign keys with
  a trigger each, which is most of COPY's time. This import has already checked them, so with
  `--disable-fk-triggers`, which only a superuser may use, it sets those triggers aside inside its own transaction
  (see `_set_row_checks_aside` for why that is safe). It is an explicit option, never a consequence of whom the app
  connects as: without it the checks stay on (docs/operations.md has both speeds).
- All or nothing. Everything runs in the session's one transaction: COPY goes through the session's own
  connection (`driver_connection`), so the model_runs rows, any rows replaced with --replace, and the predictions
  commit together or not at all. A file with any problem writes nothing; the error names each problem's column
  and its first data rows (row 1 is the first row after the header), with a count of the rest.
- Every problem at once. After the first problem nothing more is written, but the rest of the file is still
  checked, so one run of the command lists all that is wrong with a file instead of one thing per attempt.
- Strict numbers, cheaply. CSV columns are first read with their types (prediction as float64, run as int64),
  Arrow's fast path. If Arrow refuses a value it cannot say in which row, so the import starts again reading those
  columns as text and converting with pandas.to_numeric, which marks each bad row; a file that is merely spelled
  unusually (e.g. a run written 3.0) still imports, a bad one gets row numbers.
"""

from __future__ import annotations

import io
import json
import re
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
from sqlalchemy import func
from tqdm import tqdm

from ..db import db
from ..exceptions import ImportRefused
from ..models import LabelPrediction, ModelRun, Prediction, Stimulus, bump_generation
from ..studies.definitions import get_study
from ..tasktype.contract import ModelAnswers
from ..tasktype.registry import registry

REQUIRED = ("stimulus_id", "prediction")
OPTIONAL = ("run", "condition")
UNITS = {"percent": (0.0, 100.0, 1.0), "ratio": (0.0, 1.0, 100.0)}  # unit → (low, high, factor to percent)
MAX_ROWS_SHOWN = 10
MAX_RUN = 2**31 - 1  # model_runs.run is a 32-bit integer
CONDITION_LENGTH = ModelRun.__table__.c.condition.type.length
OBSERVER_LENGTH = ModelRun.__table__.c.observer.type.length
MAX_CONDITIONS = 1 << 16  # distinct conditions in one file: a group key is run * MAX_CONDITIONS + condition number
# ≈ 150,000 rows per batch. Arrow's CSV reader parses ~32 blocks ahead in background threads (which overlaps parsing
# with COPY), so this also sets the memory used; larger blocks were no faster (docs/operations.md, "Figures behind
# choices in the code").
CSV_BLOCK_BYTES = 4 << 20
PARQUET_BATCH_ROWS = 256 * 1024
# The key of `python -m modelruns predict`'s metadata in a Parquet file (modelruns/predict.py METADATA_KEY: the server
# never imports modelruns, which needs torch).
MODELRUN_METADATA = b"studyhive.modelrun"
PANDAS_INDEX = re.compile(r"^__index_level_\d+__$")  # DataFrame.to_parquet writes a non-default index as a column
COMPRESSION = {".gz": "gzip", ".bz2": "bz2", ".zst": "zstd"}
COPY_FORMAT = "binary"  # or "csv": kept so `make bench` can measure the two ways of feeding COPY against each other

# COPY's binary format (PostgreSQL docs, "COPY … Binary Format"): a header, then per row a 16-bit field count and
# each field as a 32-bit length plus big-endian bytes, then a -1 trailer. predictions is (int4, int4, float8).
PG_BINARY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack("!ii", 0, 0)
PG_BINARY_TRAILER = struct.pack("!h", -1)
PG_BINARY_ROW = np.dtype(
    [
        ("fields", ">i2"),
        ("run_len", ">i4"),
        ("run_id", ">i4"),
        ("stim_len", ">i4"),
        ("stimulus_id", ">i4"),
        ("value_len", ">i4"),
        ("value", ">f8"),
    ]
)


# --------------------------------------------------------------------------------------------------- problems


class Problems:
    """Everything wrong with a file, gathered over all its batches: per (column, problem) the first row numbers,
    how many rows in all, and one offending value; plus problems that are not about one row."""

    def __init__(self):
        self.rows: dict[tuple[str, str], list] = {}  # (column, problem) → [count, first rows, example]
        self.other: list[str] = []
        self.imported_before: list[str] = []  # runs that exist already (and no --replace)
        self.overlap: dict[str, list[str]] = {}  # run described → stimuli it has predictions for already

    def __bool__(self):
        return bool(self.rows or self.other or self.imported_before or self.overlap)

    def add(self, column: str, problem: str, mask: np.ndarray, first_row: int, values: pa.Array | None = None):
        """Record the rows of one batch where `mask` is true; `first_row` is the batch's first data row number."""
        where = np.flatnonzero(mask)
        if not where.size:
            return
        entry = self.rows.setdefault((column, problem), [0, [], None])
        entry[0] += where.size
        room = MAX_ROWS_SHOWN - len(entry[1])
        if room > 0:
            entry[1].extend((first_row + where[:room]).tolist())
        if entry[2] is None and values is not None:
            entry[2] = (values[int(where[0])].as_py(),)

    def message(self, name: str) -> str:
        lines = [f"{name}: nothing imported."]
        if self.rows:
            lines[0] += " Rows are numbered from 1, the first row of data (a CSV header is not counted):"
        for (column, problem), (count, rows, example) in self.rows.items():
            shown = ", ".join(f"{r:,}" for r in rows)
            more = f" and {count - len(rows):,} more" if count > len(rows) else ""
            eg = "" if example is None else " (e.g. an empty cell)" if example[0] is None else f" (e.g. {example[0]!r})"
            lines.append(f"  column {column}: {problem}{eg}: row{'s' if count > 1 else ''} {shown}{more}")
        lines += [f"  {line}" for line in self.other]
        before = self.imported_before
        if before:
            more = f" and {len(before) - MAX_ROWS_SHOWN:,} more" if len(before) > MAX_ROWS_SHOWN else ""
            lines.append(
                f"  imported before: {'; '.join(before[:MAX_ROWS_SHOWN])}{more}: add --replace to replace "
                f"{'it' if len(before) == 1 else 'them'}"
            )
        for run, keys in self.overlap.items():
            more = f" and {len(keys) - MAX_ROWS_SHOWN:,} more" if len(keys) > MAX_ROWS_SHOWN else ""
            lines.append(
                f"  {run} has predictions for these stimuli already: {', '.join(keys[:MAX_ROWS_SHOWN])}{more}: "
                "add --replace to replace that run's predictions of this file's chart types"
            )
        return "\n".join(lines)


# ------------------------------------------------------------------------------------------------ file reading


class _Retry(Exception):
    """Arrow refused a typed CSV value: read the file again with its columns as text to find the rows."""


def file_kind(path: Path) -> str:
    with open(path, "rb") as fh:
        return "parquet" if fh.read(4) == b"PAR1" else "csv"


def _check_columns(path: Path, names: list[str], ignore_pandas_index: bool) -> list[str]:
    """The file's known columns; refuse a missing required column, an unknown column or a repeated one."""
    names = [n for n in names if not (ignore_pandas_index and PANDAS_INDEX.match(n))]
    repeated = sorted({n for n in names if names.count(n) > 1})
    missing = [c for c in REQUIRED if c not in names]
    unknown = [n for n in names if n not in REQUIRED + OPTIONAL]
    problems = []
    if missing:
        problems.append(f"missing column{'s' if len(missing) > 1 else ''}: {', '.join(missing)}")
    if unknown:
        problems.append(f"unknown column{'s' if len(unknown) > 1 else ''}: {', '.join(map(repr, unknown))}")
    if repeated:
        problems.append(f"column{'s' if len(repeated) > 1 else ''} given twice: {', '.join(repeated)}")
    if problems:
        raise ImportRefused(
            f"{path.name}: nothing imported: {'; '.join(problems)} (a prediction file has the "
            f"columns {', '.join(REQUIRED)} and optionally {', '.join(OPTIONAL)}; this one has: "
            f"{', '.join(names) or 'none'})"
        )
    return names


def _csv_batches(path: Path, typed: bool, progress: tqdm) -> Iterator[pa.RecordBatch]:
    # Typed: Arrow parses numbers while reading (fast). Untyped: every column as text, converted by the caller.
    types = (
        {"stimulus_id": pa.string(), "prediction": pa.float64(), "run": pa.int64(), "condition": pa.string()}
        if typed
        else {c: pa.string() for c in REQUIRED + OPTIONAL}
    )
    raw = pa.OSFile(str(path))
    codec = COMPRESSION.get(path.suffix.lower())
    source = pa.CompressedInputStream(raw, codec) if codec else raw
    # Only the empty field is missing: "NA" or "null" must not silently become a missing stimulus or condition.
    convert = pacsv.ConvertOptions(
        column_types=types, null_values=[""], strings_can_be_null=False, quoted_strings_can_be_null=False
    )
    try:
        reader = pacsv.open_csv(
            source, read_options=pacsv.ReadOptions(block_size=CSV_BLOCK_BYTES), convert_options=convert
        )
        _check_columns(path, reader.schema.names, ignore_pandas_index=False)
        done = 0
        for batch in reader:
            yield batch
            position = raw.tell()  # bytes of the file read so far: runs ahead of the batches by Arrow's readahead
            progress.update(position - done)
            done = position
    except (pa.ArrowException, OSError) as exc:
        if typed and isinstance(exc, pa.ArrowInvalid) and "conversion error" in str(exc):
            raise _Retry() from exc
        raise ImportRefused(f"{path.name}: nothing imported: not a readable CSV file: {exc}") from None
    finally:
        source.close()


def _parquet_rows(path: Path) -> int | None:
    """Rows in a Parquet file, for the progress bar (None if unreadable: _parquet_batches will say why)."""
    try:
        return pq.ParquetFile(path).metadata.num_rows
    except (pa.ArrowException, OSError):
        return None


def _parquet_batches(path: Path, progress: tqdm) -> Iterator[pa.RecordBatch]:
    try:
        parquet = pq.ParquetFile(path)
    except (pa.ArrowException, OSError) as exc:
        raise ImportRefused(f"{path.name}: nothing imported: not a readable Parquet file: {exc}") from None
    names = _check_columns(path, parquet.schema_arrow.names, ignore_pandas_index=True)
    try:
        for batch in parquet.iter_batches(batch_size=PARQUET_BATCH_ROWS, columns=names):
            yield batch
            progress.update(batch.num_rows)
    except (pa.ArrowException, OSError) as exc:
        raise ImportRefused(f"{path.name}: nothing imported: not a readable Parquet file: {exc}") from None


def file_metadata(path: Path) -> dict[str, Any] | None:
    """A Parquet file's MODELRUN_METADATA (None for CSV, or a file without it); refuses metadata that is not what
    `python -m modelruns predict` writes."""
    if file_kind(path) != "parquet":
        return None
    try:
        raw = (pq.read_schema(path).metadata or {}).get(MODELRUN_METADATA)
    except (pa.ArrowException, OSError):
        return None  # _parquet_batches says why the file is unreadable
    if raw is None:
        return None
    where = f"{path.name}: nothing imported: its {MODELRUN_METADATA.decode()} metadata"
    try:
        meta = json.loads(raw)
    except ValueError as exc:
        raise ImportRefused(f"{where} is not JSON: {exc}") from None
    if not isinstance(meta, dict):
        raise ImportRefused(f"{where} is not a JSON object")
    if meta.get("unit") is not None and meta["unit"] not in UNITS:
        raise ImportRefused(f"{where} has unit {meta['unit']!r}, not one of {', '.join(UNITS)}")
    types = meta.get("chart_types")
    if types is not None and not (
        isinstance(types, list) and types and all(isinstance(t, int) and not isinstance(t, bool) for t in types)
    ):
        raise ImportRefused(f"{where} has chart_types {types!r}, not a list of chart type numbers")
    return meta


def file_unit(path: Path, unit: str | None, meta: dict[str, Any] | None) -> str:
    """The unit of the prediction column: the file's own (its metadata) or --unit; refused when they disagree or
    when neither says."""
    said = (meta or {}).get("unit")
    if said and unit and said != unit:
        raise ImportRefused(
            f"{path.name}: nothing imported: the file says its predictions are in {said} "
            f"({MODELRUN_METADATA.decode()} metadata), but --unit says {unit}; leave --unit out to use the file's"
        )
    if said or unit:
        return said or unit
    raise ImportRefused(
        f"{path.name}: nothing imported: --unit is required ({' or '.join(UNITS)}): the file does not say what its "
        "prediction column holds"
    )


# ------------------------------------------------------------------------------------- column conversions


def numeric_column(column: pa.Array) -> np.ndarray:
    """Any column as float64; NaN where a row is empty or not a number (callers refuse non-finite values)."""
    kind = column.type
    if pa.types.is_dictionary(kind):
        column, kind = column.dictionary_decode(), kind.value_type
    if pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_decimal(kind):
        return column.cast(pa.float64()).fill_null(np.nan).to_numpy(zero_copy_only=False)
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return pd.to_numeric(column.to_pandas(), errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    return np.full(len(column), np.nan)  # booleans, dates, …: not numbers


def text_column(column: pa.Array) -> pa.Array:
    """A column as (dictionary-encoded) text with missing cells as ''."""
    if pa.types.is_dictionary(column.type):
        column = column.dictionary_decode()
    if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
        column = column.cast(pa.string())
    return column.fill_null("").dictionary_encode()


def _grown(array: np.ndarray, size: int) -> np.ndarray:
    """`array` with room for at least `size` items, doubling: growing costs O(final size) in all."""
    if size <= array.size:
        return array
    grown = np.zeros(max(size, 2 * array.size), dtype=array.dtype)
    grown[: array.size] = array
    return grown


# ----------------------------------------------------------------------------------------------- the import


class StimulusKeys:
    """The study's stimuli for an import: locked until it commits (FOR KEY SHARE, PostgreSQL; ignored by SQLite: no
    one can delete them meanwhile, the lock each row's foreign-key check would take, taken once per stimulus), and a
    lookup of a file's stimulus keys: key → position 0…K-1 by pc.index_in (a hash lookup in C), position →
    stimuli.id by numpy. `columns`: more of each stimulus to read (`rows` holds them, in `ids`' order)."""

    def __init__(self, study, *columns):
        self.study = study
        self.rows = db.session.execute(
            db.select(Stimulus.key, Stimulus.id, *columns)
            .where(Stimulus.study_id == study.id)
            .order_by(Stimulus.id)
            .with_for_update(read=True, key_share=True)
        ).all()
        self.keys = pa.array([row[0] for row in self.rows], pa.string())
        self.ids = np.array([row[1] for row in self.rows], dtype=np.int32)

    def positions(self, stimulus: pa.Array, problems: Problems, first_row: int) -> tuple[np.ndarray, np.ndarray]:
        """Each row's stimulus position (0 for a key the study lacks) and whether the study lacks it, which
        `problems` notes ("stimulus_id", by row from `first_row`); `stimulus`: the file's column as text."""
        position = pc.index_in(stimulus, value_set=self.keys)
        unknown = position.is_null().to_numpy(zero_copy_only=False)
        problems.add("stimulus_id", f"not a stimulus of {self.study.slug}", unknown, first_row, stimulus)
        return position.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64), unknown


@dataclass
class Group:
    """One (run, condition) of the file: becomes one model_runs row."""

    run: int
    condition: str
    existing: tuple | None  # (id, n_predictions, source, manifests) of an earlier import of the same run
    run_id: int | None = None  # model_runs.id once written
    count: int = 0
    merged: bool = False  # this file's chart types go into the existing run (the file declares its chart types)


class Importer:
    def __init__(
        self,
        study,
        observer: str,
        run: int | None,
        condition: str | None,
        unit: str,
        replace: bool,
        source: str,
        disable_fk_triggers: bool = False,
        meta: dict[str, Any] | None = None,
    ):
        self.study, self.observer, self.unit, self.replace, self.source = study, observer, unit, replace, source
        self.cli_run, self.cli_condition = run, condition
        self.meta = meta
        # The chart types a file of modelruns declares: it is that part of its run (see the module's docstring).
        self.part = sorted(set(meta["chart_types"])) if meta and meta.get("chart_types") else None
        self.low, self.high, self.factor = UNITS[unit]
        self.connection = db.session.connection()
        self.driver = self.connection.connection.driver_connection
        self.postgres = self.connection.dialect.name == "postgresql"
        # Locked as each row's foreign-key check would (StimulusKeys), once per stimulus (_set_row_checks_aside).
        self.stimuli = StimulusKeys(study, self._chart_type())
        self.keys, self.stimulus_ids = self.stimuli.keys, self.stimuli.ids
        self.in_part = np.array([row[2] in (self.part or ()) for row in self.stimuli.rows], dtype=bool)
        self.existing = {
            (r.run, r.condition): (r.id, r.n_predictions, r.source, r.manifests)
            for r in db.session.execute(
                db.select(
                    ModelRun.id,
                    ModelRun.run,
                    ModelRun.condition,
                    ModelRun.n_predictions,
                    ModelRun.source,
                    ModelRun.manifests,
                ).filter_by(study_id=study.id, observer=observer)
            )
        }
        self.conditions: dict[str, int] = {}  # condition text → number within this import
        self.condition_names: list[str] = []
        self.groups: dict[int, int] = {}  # group key → index into group_list
        self.group_list: list[Group] = []
        self.run_ids = np.zeros(0, dtype=np.int32)  # group index → model_runs.id
        self.unwritten: list[int] = []  # groups without a model_runs row yet
        # Duplicate check: one flag per (group, stimulus position), groups × K booleans (800 × 20,000 = 16 MB).
        self.seen = np.zeros(0, dtype=bool)
        # The same for the stimuli an existing run merged into already has (a part of it imported before).
        self.taken = np.zeros(0, dtype=bool)
        self.problems = Problems()
        self.rows = 0
        self.checks_set_aside = self._set_row_checks_aside() if disable_fk_triggers else []

    @staticmethod
    def _chart_type():
        # A ratio-estimation stimulus's chart type: what the parts of a per-type run are split by.
        return Stimulus.params["chart_type"].as_integer()

    # ------------------------------------------------------------------ per batch

    def batch(self, batch: pa.RecordBatch):
        first_row = self.rows + 1
        n = batch.num_rows
        self.rows += n
        if not n:
            return
        problems = self.problems
        columns = dict(zip(batch.schema.names, batch.columns))

        stimulus = columns["stimulus_id"]
        kind = stimulus.type.value_type if pa.types.is_dictionary(stimulus.type) else stimulus.type
        if kind != pa.string():  # index_in wants the value set's type (large_string, numbers: cast)
            stimulus = stimulus.cast(pa.string())
        position, bad_stimulus = self.stimuli.positions(stimulus, problems, first_row)
        if self.part is not None:
            other_type = ~bad_stimulus & ~self.in_part[position]
            problems.add(
                "stimulus_id",
                f"not of the chart type(s) {', '.join(map(str, self.part))} the file's metadata declares",
                other_type,
                first_row,
                stimulus,
            )

        value = numeric_column(columns["prediction"])
        not_number = ~np.isfinite(value)
        problems.add("prediction", "not a number", not_number, first_row, columns["prediction"])
        with np.errstate(invalid="ignore"):
            out_of_range = (value < self.low) | (value > self.high)
        problems.add(
            "prediction",
            f"outside {self.low:g}–{self.high:g} (--unit {self.unit})",
            out_of_range,
            first_row,
            columns["prediction"],
        )

        if "run" in columns:
            run = numeric_column(columns["run"])
            with np.errstate(invalid="ignore"):
                bad_run = ~((run >= 0) & (run <= MAX_RUN) & (np.floor(run) == run))
            problems.add("run", "not a whole number from 0", bad_run, first_row, columns["run"])
            run = np.where(bad_run, 0, run).astype(np.int64)
            if self.cli_run is not None:
                other = ~bad_run & (run != self.cli_run)
                problems.add("run", f"differs from --run {self.cli_run}", other, first_row, columns["run"])
                bad_run |= other
        else:
            run = np.full(n, self.cli_run or 0, dtype=np.int64)
            bad_run = np.zeros(n, dtype=bool)

        if "condition" in columns:
            condition, bad_condition = self._conditions(columns["condition"], first_row)
        else:
            condition = np.full(n, self._condition_number(self.cli_condition or ""), dtype=np.int64)
            bad_condition = np.zeros(n, dtype=bool)

        # Rows whose (run, condition, stimulus) is known can be checked for repeats; the others are already wrong.
        keyed = ~(bad_stimulus | bad_run | bad_condition)
        group_key = run * MAX_CONDITIONS + condition
        group = self._group_indices(group_key, keyed)
        self._repeats(group, position, keyed, first_row, stimulus)
        self._overlaps(group, position, keyed)

        if problems:  # stop writing at the first problem, but keep reading: the report lists them all
            return
        # No problem so far, so every row of this batch is good.
        counts = np.bincount(group, minlength=len(self.group_list))
        for index in np.flatnonzero(counts):
            self.group_list[index].count += int(counts[index])
        self._write_runs()
        self._write(self.run_ids[group], self.stimulus_ids[position], value * self.factor)

    def _condition_number(self, text: str) -> int:
        number = self.conditions.get(text)
        if number is None:
            if len(self.conditions) >= MAX_CONDITIONS:
                raise ImportRefused(f"more than {MAX_CONDITIONS:,} different conditions in one file")
            number = self.conditions[text] = len(self.condition_names)
            self.condition_names.append(text)
        return number

    def _conditions(self, column: pa.Array, first_row: int) -> tuple[np.ndarray, np.ndarray]:
        encoded = text_column(column)
        names = encoded.dictionary.to_pylist()  # the batch's distinct conditions: few, so Python is fine here
        lut = np.array([self._condition_number(name) for name in names], dtype=np.int64)
        too_long = np.array([len(name) > CONDITION_LENGTH for name in names], dtype=bool)
        indices = encoded.indices.to_numpy(zero_copy_only=False)
        bad = too_long[indices]
        self.problems.add("condition", f"longer than {CONDITION_LENGTH} characters", bad, first_row, column)
        if self.cli_condition is not None:
            other = np.array([name != self.cli_condition for name in names], dtype=bool)[indices] & ~bad
            self.problems.add("condition", f"differs from --condition {self.cli_condition}", other, first_row, column)
            bad |= other
        return lut[indices], bad

    def _group_indices(self, group_key: np.ndarray, keyed: np.ndarray) -> np.ndarray:
        """Each row's group index (0 for rows that are not keyed), registering groups seen for the first time."""
        keys = group_key[keyed]
        group = np.zeros(len(group_key), dtype=np.int64)
        if not keys.size:
            return group
        # Model output comes a run at a time, so a batch is a few stretches of equal keys: look those up (O(n)).
        # Rows interleaving many runs get np.unique (a sort) instead.
        starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
        if starts.size <= 1024:
            lut = np.array([self._group(int(key)) for key in keys[starts]], dtype=np.int64)
            group[keyed] = np.repeat(lut, np.diff(np.append(starts, keys.size)))
        else:
            distinct, inverse = np.unique(keys, return_inverse=True)
            lut = np.array([self._group(int(key)) for key in distinct], dtype=np.int64)
            group[keyed] = lut[inverse]
        return group

    def _group(self, key: int) -> int:
        index = self.groups.get(key)
        if index is None:
            run, condition = key // MAX_CONDITIONS, self.condition_names[key % MAX_CONDITIONS]
            existing = self.existing.get((run, condition))
            index = self.groups[key] = len(self.group_list)
            merged = existing is not None and self.part is not None
            self.group_list.append(Group(run, condition, existing, merged=merged))
            self.unwritten.append(index)
            if existing and not self.replace and not merged:
                self.problems.imported_before.append(
                    f"{self._describe(run, condition)} ({existing[1]:,} prediction{'s' if existing[1] != 1 else ''} "
                    f"from {existing[2] or '?'})"
                )
            self.seen = _grown(self.seen, len(self.group_list) * len(self.keys))
            self.taken = _grown(self.taken, len(self.group_list) * len(self.keys))
            self.run_ids = _grown(self.run_ids, len(self.group_list))
            if merged and not self.replace:
                have = db.session.scalars(db.select(Prediction.stimulus_id).filter_by(run_id=existing[0])).all()
                self.taken[index * len(self.keys) + np.searchsorted(self.stimulus_ids, np.array(have, np.int32))] = True
        return index

    def _overlaps(self, group: np.ndarray, position: np.ndarray, keyed: np.ndarray):
        """Name the stimuli a run merged into has predictions for already (refused without --replace)."""
        flat = group * len(self.keys) + position
        hit = keyed & self.taken[flat]
        for index in np.unique(group[hit]):
            g = self.group_list[int(index)]
            names = self.problems.overlap.setdefault(self._describe(g.run, g.condition), [])
            names.extend(self.keys.take(pa.array(position[hit & (group == index)])).to_pylist())

    def _repeats(self, group: np.ndarray, position: np.ndarray, keyed: np.ndarray, first_row: int, stimulus: pa.Array):
        """Refuse a (run, condition, stimulus) given twice. Fast path: look up and set the seen flags, and count the
        flags set in the groups touched before and after: if the count grew by the number of rows and none was set
        already, there is no repeat. Only when there is one are the rows found by sorting."""
        rows = np.flatnonzero(keyed) if not keyed.all() else None
        flat = group * len(self.keys) + position
        if rows is not None:
            flat = flat[rows]
        if not flat.size:
            return
        before_flags = self.seen[flat]
        low, high = int(flat.min()) // len(self.keys) * len(self.keys), int(flat.max()) + 1
        before = np.count_nonzero(self.seen[low:high])
        self.seen[flat] = True
        if not before_flags.any() and np.count_nonzero(self.seen[low:high]) - before == flat.size:
            return
        order = np.argsort(flat, kind="stable")
        ordered = flat[order]
        later = np.zeros(flat.size, dtype=bool)  # a row repeating an earlier row of this batch
        later[order[1:]] = ordered[1:] == ordered[:-1]
        repeat = before_flags | later
        mask = np.zeros(len(keyed), dtype=bool)
        mask[rows if rows is not None else slice(None)] = repeat
        self.problems.add(
            "stimulus_id", "repeats an earlier row's run, condition and stimulus_id", mask, first_row, stimulus
        )

    # ------------------------------------------------------------------ writing

    def _write_runs(self):
        """model_runs rows for the groups new in this batch, in one statement (first deleting earlier imports of the
        same runs: only reached with --replace); a group merged into an existing run (a per-type part) takes that
        run's id instead, after --replace deleted the run's predictions of this file's chart types."""
        if not self.unwritten:
            return
        merged = []
        for index in self.unwritten:
            g = self.group_list[index]
            if g.merged:  # written into the existing run: no new model_runs row
                g.run_id = self.run_ids[index] = g.existing[0]
                merged.append(g)
        if merged and self.replace:  # only the file's chart types: the run's other parts stay
            db.session.execute(
                db.delete(Prediction).where(
                    Prediction.run_id.in_([g.run_id for g in merged]),
                    Prediction.stimulus_id.in_(
                        db.select(Stimulus.id).where(
                            Stimulus.study_id == self.study.id, self._chart_type().in_(self.part)
                        )
                    ),
                )
            )
        self.unwritten = [index for index in self.unwritten if not self.group_list[index].merged]
        if not self.unwritten:
            return
        groups = [self.group_list[index] for index in self.unwritten]
        old = [g.existing[0] for g in groups if g.existing]
        if old:  # explicitly, not by ON DELETE CASCADE: SQLite here does not enforce foreign keys
            db.session.execute(db.delete(Prediction).where(Prediction.run_id.in_(old)))
            db.session.execute(db.delete(LabelPrediction).where(LabelPrediction.run_id.in_(old)))
            db.session.execute(db.delete(ModelRun).where(ModelRun.id.in_(old)))
        ids = db.session.scalars(
            db.insert(ModelRun).returning(ModelRun.id, sort_by_parameter_order=True),
            [
                {
                    "study_id": self.study.id,
                    "observer": self.observer,
                    "run": g.run,
                    "condition": g.condition,
                    "unit": self.unit,
                    "source": self.source,
                    "n_predictions": 0,
                    "manifests": self._manifests(None),
                }
                for g in groups
            ],
        ).all()
        for index, group, run_id in zip(self.unwritten, groups, ids):
            group.run_id = self.run_ids[index] = run_id
        self.unwritten = []

    def _write(self, run_id: np.ndarray, stimulus_id: np.ndarray, value: np.ndarray):
        dialect = self.connection.dialect
        if self.postgres and dialect.driver == "psycopg":
            (self._copy_csv if COPY_FORMAT == "csv" else self._copy_binary)(run_id, stimulus_id, value)
        elif dialect.name == "sqlite":
            # One executemany on the sqlite3 connection: no SQLAlchemy per-row work, same transaction.
            self.driver.executemany(
                "INSERT INTO predictions (run_id, stimulus_id, value) VALUES (?, ?, ?)",
                zip(run_id.tolist(), stimulus_id.tolist(), value.tolist()),
            )
        else:  # any other database: correct, if slower
            db.session.execute(
                db.insert(Prediction),
                [
                    {"run_id": r, "stimulus_id": s, "value": v}
                    for r, s, v in zip(run_id.tolist(), stimulus_id.tolist(), value.tolist())
                ],
            )

    def _copy_binary(self, run_id: np.ndarray, stimulus_id: np.ndarray, value: np.ndarray):
        """COPY one batch in PostgreSQL's binary format, laid out by numpy: no per-row Python, no number printing
        or parsing (text COPY spends most of its time formatting floats here and parsing them there)."""
        rows = np.empty(len(value), dtype=PG_BINARY_ROW)
        rows["fields"], rows["run_len"], rows["stim_len"], rows["value_len"] = 3, 4, 4, 8
        rows["run_id"], rows["stimulus_id"], rows["value"] = run_id, stimulus_id, value
        with self.driver.cursor() as cursor:
            with cursor.copy("COPY predictions (run_id, stimulus_id, value) FROM STDIN (FORMAT binary)") as copy:
                copy.write(PG_BINARY_HEADER)
                copy.write(rows.data)
                copy.write(PG_BINARY_TRAILER)

    def _copy_csv(self, run_id: np.ndarray, stimulus_id: np.ndarray, value: np.ndarray):
        """Text COPY of a batch written by pyarrow's CSV writer: the alternative `make bench` measures."""
        sink = io.BytesIO()
        pacsv.write_csv(
            pa.table({"r": run_id, "s": stimulus_id, "v": value}), sink, pacsv.WriteOptions(include_header=False)
        )
        with self.driver.cursor() as cursor:
            with cursor.copy("COPY predictions (run_id, stimulus_id, value) FROM STDIN (FORMAT csv)") as copy:
                copy.write(sink.getbuffer())

    def _set_row_checks_aside(self) -> list[str]:
        """--disable-fk-triggers, on PostgreSQL, as a superuser (import_predictions checks): switch off, inside this
        transaction only, the triggers that check each new prediction's foreign keys; `finish` switches them on
        again before the commit.

        Why: those triggers run one lookup per row per key, which is most of COPY's time here (docs/operations.md,
        "Prediction imports: the foreign-key checks", has the times). They are redundant for
        this import: every stimulus id comes from this study's stimuli, read with FOR KEY SHARE so none can be
        deleted before we commit (the very lock each trigger would take), and every run id is a model_runs row this
        transaction inserted. ALTER TABLE … DISABLE TRIGGER is transactional: no other session ever sees the triggers
        off (a rollback restores them too), and its lock (SHARE ROW EXCLUSIVE on predictions only) lets readers
        through; it only makes a second import wait for this one. PostgreSQL's documented alternative for bulk
        loads, dropping and re-adding the constraints, would lock stimuli against all reads (participants' pages)
        and re-check the whole table each time. An option, not the default: the app's own role is no superuser
        (docker-compose.yml), and a superuser connection should be asked for, not taken as permission."""
        if not self.postgres:  # SQLite does not enforce these foreign keys here: nothing to set aside
            return []
        names = db.session.scalars(
            db.text(
                "SELECT t.tgname FROM pg_trigger t JOIN pg_constraint c ON c.oid = t.tgconstraint "
                "WHERE t.tgrelid = 'predictions'::regclass AND c.contype = 'f' AND t.tgenabled <> 'D' "
                "AND t.tgfoid = 'pg_catalog.\"RI_FKey_check_ins\"'::regproc"
            )
        ).all()
        for name in names:
            db.session.execute(db.text(f'ALTER TABLE predictions DISABLE TRIGGER "{name}"'))
        return list(names)

    def finish(self):
        """After the last batch: refuse the file if anything was wrong, else record the counts."""
        if not self.rows and not self.problems:
            self.problems.other.append("the file has no rows")
        if self.problems:
            raise ImportRefused(self.problems.message(self.source))
        for name in self.checks_set_aside:
            db.session.execute(db.text(f'ALTER TABLE predictions ENABLE TRIGGER "{name}"'))
        new = [g for g in self.group_list if not g.merged]
        if new:
            db.session.execute(db.update(ModelRun), [{"id": g.run_id, "n_predictions": g.count} for g in new])
        for g in self.group_list:
            if g.merged:
                manifests = self._manifests(g.existing[3])
                db.session.execute(
                    db.update(ModelRun)
                    .where(ModelRun.id == g.run_id)
                    .values(
                        n_predictions=db.select(func.count())
                        .select_from(Prediction)
                        .where(Prediction.run_id == g.run_id)
                        .scalar_subquery(),
                        manifests=manifests,
                        source="; ".join(m["file"] for m in manifests) if manifests else self.source,
                    )
                )

    def _manifests(self, before: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
        """A run's manifests after this file: the earlier files' (those whose chart types it replaces dropped),
        then this file's metadata, named."""
        if self.meta is None:
            return before
        kept = [m for m in before or [] if not (self.replace and set(m.get("chart_types") or ()) <= set(self.part))]
        return [*kept, {"file": self.source, **self.meta}]

    def _describe(self, run: int, condition: str) -> str:
        return f"{self.observer} run {run}" + (f" condition {condition!r}" if condition else "")

    def summary(self) -> str:
        if len(self.group_list) == 1:
            g = self.group_list[0]
            what = f"run {g.run}" + (f", {g.condition}" if g.condition else "")
        else:
            runs = sorted({g.run for g in self.group_list})
            conditions = sorted({g.condition for g in self.group_list} - {""})
            what = (
                f"{len(self.group_list):,} model runs: run{'s' if len(runs) > 1 else ''} "
                + (f"{runs[0]}–{runs[-1]}" if len(runs) > 2 else ", ".join(map(str, runs)))
                + (
                    f"; {', '.join(conditions)}"
                    if 0 < len(conditions) <= 5
                    else f"; {len(conditions)} conditions"
                    if conditions
                    else ""
                )
            )
        replaced = sum(1 for g in self.group_list if g.existing and not g.merged)
        merged = sum(1 for g in self.group_list if g.merged)
        types = ", ".join(map(str, self.part or ()))
        return (
            f"{self.rows:,} predictions for {self.observer} ({what})"
            + (f", replacing {replaced:,} earlier import{'s' if replaced > 1 else ''}" if replaced else "")
            + (
                f", chart type(s) {types} {'replaced in' if self.replace else 'added to'} {merged:,} earlier "
                f"import{'s' if merged > 1 else ''} of the same run"
                if merged
                else ""
            )
        )


def check_run_options(observer: str, run: int | None, condition: str | None) -> None:
    """The options every prediction import shares (this one and `flask import-label-predictions`)."""
    if not observer.strip() or len(observer) > OBSERVER_LENGTH:
        raise ImportRefused(f"--observer must be 1–{OBSERVER_LENGTH} characters")
    if condition is not None and len(condition) > CONDITION_LENGTH:
        raise ImportRefused(f"--condition must be at most {CONDITION_LENGTH} characters")
    if run is not None and not 0 <= run <= MAX_RUN:
        raise ImportRefused("--run must be a whole number from 0")


def check_fk_trigger_privilege() -> None:
    """--disable-fk-triggers: refused, before anything is read or written, unless this connection may ALTER the
    foreign-key triggers, which PostgreSQL allows superusers only."""
    if db.session.get_bind().dialect.name != "postgresql":
        return
    role, superuser = db.session.execute(db.text("SELECT current_user, current_setting('is_superuser')")).one()
    if superuser != "on":
        raise ImportRefused(
            f"--disable-fk-triggers needs a PostgreSQL superuser (only one may switch off foreign-key triggers), and "
            f"the database role {role!r} is not one: import without it (the checks stay on, the import is slower) "
            "or run the import as the superuser (docs/operations.md)"
        )


def import_predictions(
    slug: str,
    path: Path,
    observer: str,
    unit: str | None,
    run: int | None = None,
    condition: str | None = None,
    replace: bool = False,
    disable_fk_triggers: bool = False,
) -> Importer:
    """Import one file in one transaction; raise ImportRefused (after rolling back) if anything is wrong."""
    study = get_study(slug)
    if study is None:
        raise ImportRefused(f"no study named {slug!r} (see `flask studies list`)")
    task = registry().get(study.task_type)
    if task is not None and not isinstance(task, ModelAnswers):
        raise ImportRefused(f"study {slug!r} ({study.task_type}) has no stimuli for models to answer")
    if task is not None and task.model_answers == "labels":
        raise ImportRefused(
            f"study {slug!r} ({study.task_type}) has a label vocabulary: use `flask import-label-predictions`"
        )
    check_run_options(observer, run, condition)
    if disable_fk_triggers:
        check_fk_trigger_privilege()
    kind = file_kind(path)
    meta = file_metadata(path)
    unit = file_unit(path, unit, meta)
    for typed in (True, False):
        importer = Importer(study, observer, run, condition, unit, replace, path.name, disable_fk_triggers, meta)
        total = path.stat().st_size if kind == "csv" else _parquet_rows(path)
        # disable=None: a bar on a terminal only, so logs and pipes get just the final line.
        with tqdm(
            total=total,
            unit="B" if kind == "csv" else " rows",
            unit_scale=True,
            file=None,
            disable=None,
            desc=path.name,
            leave=False,
        ) as progress:
            try:
                batches = _csv_batches(path, typed, progress) if kind == "csv" else _parquet_batches(path, progress)
                for batch in batches:
                    importer.batch(batch)
                importer.finish()
            except _Retry:
                db.session.rollback()
                continue
            except BaseException:
                db.session.rollback()
                raise
        bump_generation(study.id)  # the analysis compares people with the models: a stored result is stale
        db.session.commit()
        return importer
    raise AssertionError("the text reading of a CSV file does not retry")
