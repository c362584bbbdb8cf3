"""`flask import-label-predictions`: a model's answers to a sketch-recognition study, as ranked labels.

    flask import-label-predictions sketch-demo preds.csv --observer clip-vit-b32 [--run 0] [--condition ""]
        [--top-k 10] [--replace]

The file (CSV, optionally .gz/.bz2/.zst, or Parquet) has the columns `stimulus_id` (the ids of `flask stimuli
export`) and `label_id` (a unique id of the study's vocabulary), plus `rank` (1 = the model's top-1 answer) and/or
`probability` (0–1), and optionally `run` and `condition` like `flask import-predictions`. Two shapes are meant:

- top-k labels: rows with rank 1…k per sketch (probability optional);
- class probabilities: rows with probability and no rank; the ranks are then assigned by descending probability
  (ties in file order). `--top-k N` keeps only the N most probable labels per sketch (all by default).

Import rules are those of `flask import-predictions` (server/imports/predictions.py), whose problem report, column
conversions and file sniffing are reused here: nothing is written unless the whole file is good; every problem is
reported with its column and first data rows; each (observer, run, condition) becomes one `model_runs` row
(unit "labels"), replacing an earlier import only with --replace; rows go to PostgreSQL by COPY. The file is read
in Arrow record batches, but the rows are kept until the end, because ranks from probabilities and the checks of
repeated labels need every row of a sketch; label files (sketches × k per model) are far smaller than the
ratio study's millions of percent predictions.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from ..db import db
from ..exceptions import ConfigError, ImportRefused
from ..models import LabelPrediction, ModelRun, Prediction, bump_generation
from ..studies.definitions import get_study
from ..tasktype.contract import ModelAnswers
from ..tasktype.registry import registry
from .predictions import (
    COMPRESSION,
    CONDITION_LENGTH,
    MAX_RUN,
    Problems,
    StimulusKeys,
    check_run_options,
    file_kind,
    numeric_column,
    text_column,
)

REQUIRED = ("stimulus_id", "label_id")
OPTIONAL = ("rank", "probability", "run", "condition")
UNIT = "labels"
MAX_RANK = 100_000
BATCH_ROWS = 256 * 1024


def _columns(path: Path, names: list[str]) -> None:
    missing = [c for c in REQUIRED if c not in names]
    unknown = [n for n in names if n not in REQUIRED + OPTIONAL]
    repeated = sorted({n for n in names if names.count(n) > 1})
    problems = []
    if missing:
        problems.append(f"missing column(s): {', '.join(missing)}")
    if not {"rank", "probability"} & set(names):
        problems.append("a rank or a probability column is needed")
    if unknown:
        problems.append(f"unknown column(s): {', '.join(map(repr, unknown))}")
    if repeated:
        problems.append(f"column(s) given twice: {', '.join(repeated)}")
    if problems:
        raise ImportRefused(
            f"{path.name}: nothing imported: {'; '.join(problems)} (a label prediction file has "
            f"the columns {', '.join(REQUIRED)}, rank and/or probability, and optionally run and "
            f"condition; this one has: {', '.join(names) or 'none'})"
        )


def _batches(path: Path):
    if file_kind(path) == "parquet":
        try:
            parquet = pq.ParquetFile(path)
        except pa.ArrowException as exc:
            raise ImportRefused(f"{path.name} is not a readable Parquet file: {exc}") from None
        _columns(path, parquet.schema_arrow.names)
        yield from parquet.iter_batches(batch_size=BATCH_ROWS)
        return
    raw = pa.OSFile(str(path))
    codec = COMPRESSION.get(path.suffix.lower())
    source = pa.CompressedInputStream(raw, codec) if codec else raw
    # Everything as text, converted per column below, so each bad value gets its row number.
    convert = pacsv.ConvertOptions(
        column_types={c: pa.string() for c in REQUIRED + OPTIONAL},
        null_values=[""],
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
    )
    try:
        reader = pacsv.open_csv(source, convert_options=convert)
        _columns(path, reader.schema.names)
        yield from reader
    except pa.ArrowInvalid as exc:
        raise ImportRefused(f"{path.name} is not a readable CSV file: {exc}") from None
    finally:
        source.close()


class LabelImporter:
    def __init__(
        self,
        study,
        observer: str,
        run: int | None,
        condition: str | None,
        top_k: int | None,
        replace: bool,
        source: str,
    ):
        self.study, self.observer, self.top_k, self.replace, self.source = study, observer, top_k, replace, source
        self.cli_run, self.cli_condition = run, condition
        self.stimuli = StimulusKeys(study)
        try:
            self.vocabulary = registry().get(study.task_type).vocabulary(study.config["task"])
        except ConfigError as exc:
            raise ImportRefused(str(exc)) from None
        self.label_ids = pa.array([e.unique_id for e in self.vocabulary.entries], pa.string())
        self.problems = Problems()
        self.parts: list[pd.DataFrame] = []
        self.rows = 0

    def batch(self, batch: pa.RecordBatch) -> None:
        first_row, n = self.rows + 1, batch.num_rows
        self.rows += n
        if not n:
            return
        columns = dict(zip(batch.schema.names, batch.columns))
        add = self.problems.add
        stimulus = text_column(columns["stimulus_id"]).dictionary_decode()
        position, _ = self.stimuli.positions(stimulus, self.problems, first_row)
        label = text_column(columns["label_id"]).dictionary_decode()
        label_position = pc.index_in(label, value_set=self.label_ids)
        add(
            "label_id",
            f"not a unique id of the vocabulary {self.vocabulary.name}",
            label_position.is_null().to_numpy(zero_copy_only=False),
            first_row,
            label,
        )
        part = {
            "row": np.arange(first_row, first_row + n),
            "stimulus": position,
            "label": label_position.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64),
        }
        if "rank" in columns:
            rank = numeric_column(columns["rank"])
            with np.errstate(invalid="ignore"):
                add(
                    "rank",
                    f"not a whole number 1–{MAX_RANK:,}",
                    ~((rank >= 1) & (rank <= MAX_RANK) & (np.floor(rank) == rank)),
                    first_row,
                    columns["rank"],
                )
            part["rank"] = rank
        if "probability" in columns:
            probability = numeric_column(columns["probability"])
            with np.errstate(invalid="ignore"):
                add(
                    "probability",
                    "not a number from 0 to 1",
                    ~((probability >= 0) & (probability <= 1)),
                    first_row,
                    columns["probability"],
                )
            part["probability"] = probability
        if "run" in columns:
            run = numeric_column(columns["run"])
            with np.errstate(invalid="ignore"):
                bad = ~((run >= 0) & (run <= MAX_RUN) & (np.floor(run) == run))
            add("run", "not a whole number from 0", bad, first_row, columns["run"])
            if self.cli_run is not None:
                add(
                    "run", f"differs from --run {self.cli_run}", ~bad & (run != self.cli_run), first_row, columns["run"]
                )
            part["run"] = np.where(bad, 0, run).astype(np.int64)
        else:
            part["run"] = np.full(n, self.cli_run or 0, dtype=np.int64)
        if "condition" in columns:
            condition = text_column(columns["condition"]).dictionary_decode()
            names = condition.to_numpy(zero_copy_only=False)
            add(
                "condition",
                f"longer than {CONDITION_LENGTH} characters",
                pc.greater(pc.utf8_length(condition), CONDITION_LENGTH).to_numpy(zero_copy_only=False),
                first_row,
                condition,
            )
            if self.cli_condition is not None:
                add(
                    "condition",
                    f"differs from --condition {self.cli_condition}",
                    names != self.cli_condition,
                    first_row,
                    condition,
                )
            part["condition"] = names
        else:
            part["condition"] = np.full(n, self.cli_condition or "", dtype=object)
        if not self.problems:  # after the first problem only checking goes on: keep no more rows
            self.parts.append(pd.DataFrame(part))

    def finish(self) -> pd.DataFrame:
        """Whole-file checks (a label or rank given twice for a sketch, ranks not 1…k), ranks from probabilities,
        --top-k; raises ImportRefused with every problem. Returns the rows to write."""
        if not self.rows and not self.problems:
            self.problems.other.append("the file has no rows")
        if self.problems:
            raise ImportRefused(self.problems.message(self.source))
        rows = pd.concat(self.parts, ignore_index=True)
        sketch = ["run", "condition", "stimulus"]
        mask = rows.duplicated(sketch + ["label"]).to_numpy()
        self.problems.add(
            "label_id",
            "repeats an earlier row's run, condition, stimulus_id and label_id",
            mask,
            1,
            pa.array(rows["row"]),
        )
        if "rank" in rows:
            self.problems.add(
                "rank",
                "repeats an earlier row's run, condition, stimulus_id and rank",
                rows.duplicated(sketch + ["rank"]).to_numpy(),
                1,
                pa.array(rows["rank"]),
            )
            # Ranks of one sketch must be 1…k: a gap would make "top-3" mean fewer than three answers.
            grouped = rows.groupby(sketch)["rank"]
            gap = (grouped.transform("max") != grouped.transform("size")).to_numpy() & ~mask
            self.problems.add(
                "rank", "the ranks of this row's sketch are not 1…k without gaps", gap, 1, pa.array(rows["rank"])
            )
        else:
            rows = rows.sort_values(
                sketch + ["probability", "row"], ascending=[True, True, True, False, True], kind="stable"
            )
            rows["rank"] = rows.groupby(sketch).cumcount() + 1
        if self.problems:
            raise ImportRefused(self.problems.message(self.source))
        if self.top_k:
            rows = rows[rows["rank"] <= self.top_k]
        existing = {
            (r.run, r.condition): r
            for r in db.session.execute(
                db.select(
                    ModelRun.id, ModelRun.run, ModelRun.condition, ModelRun.n_predictions, ModelRun.source
                ).filter_by(study_id=self.study.id, observer=self.observer)
            )
        }
        groups = rows.groupby(["run", "condition"]).size()
        before = [existing[key] for key in groups.index if key in existing]
        if before and not self.replace:
            self.problems.imported_before += [
                f"{self.observer} run {r.run}"
                + (f" condition {r.condition!r}" if r.condition else "")
                + f" ({r.n_predictions:,} from {r.source or '?'})"
                for r in before
            ]
            raise ImportRefused(self.problems.message(self.source))
        old = [r.id for r in before]
        if old:
            db.session.execute(db.delete(LabelPrediction).where(LabelPrediction.run_id.in_(old)))
            db.session.execute(db.delete(Prediction).where(Prediction.run_id.in_(old)))
            db.session.execute(db.delete(ModelRun).where(ModelRun.id.in_(old)))
        self.replaced = len(old)
        self.runs = len(groups)
        return rows

    def write(self, rows: pd.DataFrame) -> None:
        groups = rows.groupby(["run", "condition"]).size()
        ids = db.session.scalars(
            db.insert(ModelRun).returning(ModelRun.id, sort_by_parameter_order=True),
            [
                {
                    "study_id": self.study.id,
                    "observer": self.observer,
                    "run": int(run),
                    "condition": condition,
                    "unit": UNIT,
                    "source": self.source,
                    "n_predictions": int(count),
                }
                for (run, condition), count in groups.items()
            ],
        ).all()
        runs = groups.index.to_frame(index=False).assign(run_id=ids)
        rows = rows.merge(runs, on=["run", "condition"], how="inner")
        table = pd.DataFrame(
            {
                "run_id": rows["run_id"].to_numpy(),
                "stimulus_id": self.stimuli.ids[rows["stimulus"].to_numpy()].astype(np.int64),
                "rank": rows["rank"].astype(np.int64).to_numpy(),
                "label_id": np.array([e.unique_id for e in self.vocabulary.entries], dtype=object)[rows["label"]],
                "probability": rows["probability"].to_numpy() if "probability" in rows else np.nan,
            }
        )
        connection = db.session.connection()
        if connection.dialect.name == "postgresql" and connection.dialect.driver == "psycopg":
            sink = io.BytesIO()  # text COPY of a pyarrow-written CSV: no per-row Python
            pacsv.write_csv(
                pa.Table.from_pandas(table, preserve_index=False), sink, pacsv.WriteOptions(include_header=False)
            )
            with connection.connection.driver_connection.cursor() as cursor:
                with cursor.copy(
                    "COPY label_predictions (run_id, stimulus_id, rank, label_id, probability) FROM STDIN (FORMAT csv)"
                ) as copy:
                    copy.write(sink.getbuffer())
        else:
            records = table.astype(object).where(table.notna(), None).to_dict("records")
            db.session.execute(db.insert(LabelPrediction), records)
        self.written = len(table)


def import_label_predictions(
    slug: str,
    path: Path,
    observer: str,
    run: int | None = None,
    condition: str | None = None,
    top_k: int | None = None,
    replace: bool = False,
) -> LabelImporter:
    """Import one file in one transaction; raise ImportRefused (after rolling back) if anything is wrong."""
    study = get_study(slug)
    if study is None:
        raise ImportRefused(f"no study named {slug!r} (see `flask studies list`)")
    task = registry().get(study.task_type)
    if not (isinstance(task, ModelAnswers) and task.model_answers == "labels"):
        raise ImportRefused(
            f"study {slug!r} ({study.task_type}) has no label vocabulary: use `flask import-predictions`"
        )
    check_run_options(observer, run, condition)
    try:
        importer = LabelImporter(study, observer, run, condition, top_k, replace, path.name)
        for batch in _batches(path):
            importer.batch(batch)
        importer.write(importer.finish())
        bump_generation(study.id)  # the analysis compares people with the models: a stored result is stale
    except BaseException:
        db.session.rollback()
        raise
    db.session.commit()
    return importer
