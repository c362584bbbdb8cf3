"""`flask import-predictions`: good CSV and Parquet files land as percent with one model_runs row per (observer,
run, condition); every kind of bad file is refused with its rows and column named and the database left as it was;
--replace; files holding several runs and conditions."""

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import server.imports.predictions
from server.db import db
from server.models import ModelRun, Prediction, Stimulus, Study
from server.studies.definitions import get_study
from tests.conftest import BACKEND


@pytest.fixture
def keys(app):
    """The 192 test stimulus ids of study3, as `flask stimuli export` lists them."""
    return db.session.scalars(
        db.select(Stimulus.key).filter_by(study_id=get_study("study3").id, practice=False).order_by(Stimulus.key)
    ).all()


def write_csv(path, header, rows):
    path.write_text(",".join(header) + "\n" + "".join(",".join(map(str, row)) + "\n" for row in rows))
    return path


def invoke(runner, path, *options, observer="vgg19-iid-large", unit="percent"):
    return runner.invoke(
        args=["import-predictions", "study3", str(path), "--observer", observer, "--unit", unit, *options]
    )


def counts():
    return (
        db.session.scalar(db.select(db.func.count()).select_from(ModelRun)),
        db.session.scalar(db.select(db.func.count()).select_from(Prediction)),
    )


def stored(observer, run=0, condition=""):
    """{stimulus key: value} of one model run."""
    return dict(
        db.session.execute(
            db.select(Stimulus.key, Prediction.value)
            .join(Prediction, Prediction.stimulus_id == Stimulus.id)
            .join(ModelRun, ModelRun.id == Prediction.run_id)
            .filter(ModelRun.observer == observer, ModelRun.run == run, ModelRun.condition == condition)
        ).all()
    )


def model_run(observer, run=0, condition=""):
    return db.session.scalars(db.select(ModelRun).filter_by(observer=observer, run=run, condition=condition)).one()


@pytest.fixture(params=[[], ["--disable-fk-triggers"]], ids=["fk-checks-on", "fk-triggers-disabled"])
def fk_options(request):
    """Both ways of loading on PostgreSQL: the per-row foreign-key checks on (the default) or set aside (the tests
    connect as a superuser; tests/test_deploy.py has the refusal for a role that is not one)."""
    return request.param


def test_csv_import_converts_ratio_to_percent(runner, keys, tmp_path, fk_options):
    ratio = {key: round(i / 191, 6) for i, key in enumerate(keys)}
    path = write_csv(tmp_path / "vgg19.csv", ["stimulus_id", "prediction"], ratio.items())
    result = invoke(runner, path, "--condition", "IID", *fk_options, unit="ratio")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("imported 192 predictions for vgg19-iid-large (run 0, IID) in ")
    assert stored("vgg19-iid-large", condition="IID") == pytest.approx({k: 100 * v for k, v in ratio.items()})
    run = model_run("vgg19-iid-large", condition="IID")
    assert (run.unit, run.source, run.n_predictions, run.study_id) == (
        "ratio",
        "vgg19.csv",
        192,
        get_study("study3").id,
    )
    assert counts() == (1, 192)


def test_parquet_import_keeps_percent(runner, keys, tmp_path):
    values = np.linspace(0, 100, len(keys))
    path = tmp_path / "resnet.parquet"
    pq.write_table(pa.table({"stimulus_id": keys, "prediction": values}), path)
    result = invoke(runner, path, "--run", "3", observer="resnet50")
    assert result.exit_code == 0, result.output
    assert "imported 192 predictions for resnet50 (run 3) in" in result.output
    assert stored("resnet50", run=3) == pytest.approx(dict(zip(keys, values)))
    run = model_run("resnet50", run=3)
    assert (run.unit, run.source, run.n_predictions) == ("percent", "resnet.parquet", 192)


def test_parquet_with_dictionary_columns_and_pandas_index(runner, keys, tmp_path):
    """What pandas writes: categorical columns (Arrow dictionaries) and, for a filtered frame, its index."""
    import pandas as pd

    frame = pd.DataFrame(
        {
            "stimulus_id": pd.Categorical(keys * 2),
            "prediction": [0.5] * 384,
            "run": [0] * 192 + [1] * 192,
            "condition": pd.Categorical(["OOD"] * 384),
        }
    )
    frame = frame[frame["prediction"] > 0]  # a non-default index, written as __index_level_0__
    frame.to_parquet(tmp_path / "p.parquet")
    result = invoke(runner, tmp_path / "p.parquet", unit="ratio")
    assert result.exit_code == 0, result.output
    assert counts() == (2, 384)
    assert set(stored("vgg19-iid-large", run=1, condition="OOD").values()) == {50.0}


def test_file_with_run_and_condition_columns_creates_several_model_runs(runner, keys, tmp_path):
    rows = [
        (key, run * 10 + c, run, condition)
        for run in (0, 1, 2)
        for c, condition in enumerate(["IID", "OOD"])
        for key in keys[:50]
    ]
    path = write_csv(tmp_path / "runs.csv", ["stimulus_id", "prediction", "run", "condition"], rows)
    result = invoke(runner, path)
    assert result.exit_code == 0, result.output
    assert "imported 300 predictions for vgg19-iid-large (6 model runs: runs 0–2; IID, OOD)" in result.output
    runs = db.session.execute(
        db.select(ModelRun.run, ModelRun.condition, ModelRun.n_predictions).order_by(ModelRun.run, ModelRun.condition)
    ).all()
    assert runs == [(r, c, 50) for r in (0, 1, 2) for c in ("IID", "OOD")]
    assert set(stored("vgg19-iid-large", run=2, condition="OOD").values()) == {21.0}
    assert counts() == (6, 300)


def test_options_fill_in_missing_columns_and_must_agree_with_present_ones(runner, keys, tmp_path):
    path = write_csv(
        tmp_path / "c.csv", ["stimulus_id", "prediction", "condition"], [(key, 50, "IID") for key in keys[:5]]
    )
    result = invoke(runner, path, "--run", "7", "--condition", "IID")
    assert result.exit_code == 0, result.output
    assert model_run("vgg19-iid-large", run=7, condition="IID").n_predictions == 5
    path = write_csv(
        tmp_path / "d.csv", ["stimulus_id", "prediction", "run"], [(keys[0], 50, 1), (keys[1], 50, 2), (keys[2], 50, 2)]
    )
    before = counts()
    result = invoke(runner, path, "--run", "1")
    assert result.exit_code != 0
    assert "column run: differs from --run 1 (e.g. 2): rows 2, 3" in result.output
    assert counts() == before


def test_lenient_spellings_after_the_typed_read_fails(runner, keys, tmp_path):
    """Arrow's typed CSV read refuses a run written 1.0; the text read accepts it (and would name bad rows)."""
    path = write_csv(tmp_path / "r.csv", ["stimulus_id", "prediction", "run"], [(k, " 12.5", "1.0") for k in keys])
    result = invoke(runner, path)
    assert result.exit_code == 0, result.output
    assert set(stored("vgg19-iid-large", run=1).values()) == {12.5}


@pytest.fixture
def earlier(runner, keys, tmp_path):
    """An earlier import, so that 'unchanged' means more than 'empty'."""
    path = write_csv(tmp_path / "earlier.csv", ["stimulus_id", "prediction"], [(k, 1) for k in keys])
    assert invoke(runner, path, observer="alexnet").exit_code == 0
    return counts()


S, P = "stimulus_id", "prediction"
BAD_FILES = {
    # name: (header, {row number: {column: value}} changing 20 good rows, --unit, options, expected message parts);
    # a value "KEY3" means keys[3], to repeat a stimulus
    "unknown stimulus": (
        [S, P],
        {2: {S: "t9-s1-t2-v0"}, 5: {S: "nope"}},
        "percent",
        (),
        ["column stimulus_id: not a stimulus of study3 (e.g. 't9-s1-t2-v0'): rows 2, 5"],
    ),
    "duplicate": (
        [S, P],
        {4: {S: "KEY0"}},
        "percent",
        (),
        ["column stimulus_id: repeats an earlier row's run, condition and stimulus_id", "row 4"],
    ),
    "not a number": (
        [S, P],
        {3: {P: "abc"}, 7: {P: ""}},
        "percent",
        (),
        ["column prediction: not a number (e.g. 'abc'): rows 3, 7"],
    ),
    "empty cell": (
        [S, P],
        {2: {P: ""}},
        "percent",
        (),
        ["column prediction: not a number (e.g. an empty cell): row 2"],
    ),
    "nan and inf": (
        [S, P],
        {2: {P: "nan"}, 6: {P: "inf"}},
        "percent",
        (),
        ["column prediction: not a number", "rows 2, 6"],
    ),
    "percent out of range": (
        [S, P],
        {1: {P: 100.5}, 8: {P: -1}},
        "percent",
        (),
        ["column prediction: outside 0–100 (--unit percent)", "rows 1, 8"],
    ),
    "ratio out of range": (
        [S, P],
        {4: {P: 50}},
        "ratio",
        (),
        ["column prediction: outside 0–1 (--unit ratio) (e.g. 50.0): row 4"],
    ),
    "run not whole": (
        [S, P, "run"],
        {5: {"run": 1.5}, 6: {"run": -1}},
        "percent",
        (),
        ["column run: not a whole number from 0", "rows 5, 6"],
    ),
    "condition differs": (
        [S, P, "condition"],
        {3: {"condition": "OOD"}},
        "percent",
        ("--condition", "IID"),
        ["column condition: differs from --condition IID (e.g. 'OOD'): row 3"],
    ),
    "many rows": (
        [S, P],
        {i: {S: f"bad{i}"} for i in range(3, 18)},
        "percent",
        (),
        ["rows 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 5 more"],
    ),
    "several problems": (
        [S, P],
        {2: {S: "x"}, 3: {P: "y"}},
        "percent",
        (),
        ["stimulus_id: not a stimulus of study3 (e.g. 'x'): row 2", "not a number (e.g. 'y'): row 3"],
    ),
    "missing column": (
        [S, "pred"],
        {},
        "percent",
        (),
        ["missing column: prediction", "this one has: stimulus_id, pred"],
    ),
    "unknown column": ([S, P, "confidence"], {}, "percent", (), ["unknown column: 'confidence'"]),
    "repeated column": ([S, P, P], {}, "percent", (), ["column given twice: prediction"]),
}


@pytest.mark.parametrize("case", BAD_FILES, ids=list(BAD_FILES))
def test_bad_csv_is_refused_naming_rows_and_column_and_nothing_is_written(runner, keys, tmp_path, earlier, case):
    header, changes, unit, options, messages = BAD_FILES[case]
    good = {S: None, P: 0.5 if unit == "ratio" else 50, "run": 0, "condition": "IID"}
    rows = []
    for number, key in enumerate(keys[:20], 1):
        row = {**good, S: key, **changes.get(number, {})}
        row = {c: keys[int(v[3:])] if isinstance(v, str) and v.startswith("KEY") else v for c, v in row.items()}
        rows.append([row.get(column, 0) for column in header])
    path = write_csv(tmp_path / "bad.csv", header, rows)
    result = invoke(runner, path, *options, unit=unit)
    assert result.exit_code == 1, result.output
    assert "bad.csv: nothing imported" in result.output
    for message in messages:
        assert message in result.output
    assert counts() == earlier


def test_compressed_csv_and_unreadable_files(runner, keys, tmp_path, earlier):
    import gzip

    with gzip.open(tmp_path / "p.csv.gz", "wt") as fh:
        fh.write("stimulus_id,prediction\n" + "".join(f"{k},0.25\n" for k in keys))
    result = invoke(runner, tmp_path / "p.csv.gz", unit="ratio")
    assert result.exit_code == 0, result.output
    assert set(stored("vgg19-iid-large").values()) == {25.0}
    before = counts()
    (tmp_path / "ragged.csv").write_text(f"stimulus_id,prediction\n{keys[0]},1\n{keys[1]},2,3\n")
    result = invoke(runner, tmp_path / "ragged.csv")
    assert "ragged.csv: nothing imported: not a readable CSV file" in result.output
    assert "Expected 2 columns, got 3" in result.output
    (tmp_path / "broken.parquet").write_bytes(b"PAR1" + b"\0" * 100)
    result = invoke(runner, tmp_path / "broken.parquet")
    assert "broken.parquet: nothing imported: not a readable Parquet file" in result.output
    assert counts() == before


def test_bad_parquet_is_refused(runner, keys, tmp_path, earlier):
    values = [50.0] * 20
    values[4], values[9] = float("nan"), 101.0
    ids = list(keys[:20])
    ids[0] = "t0-nothing"
    pq.write_table(pa.table({"stimulus_id": ids, "prediction": values}), tmp_path / "bad.parquet")
    result = invoke(runner, tmp_path / "bad.parquet")
    assert result.exit_code == 1
    assert "column stimulus_id: not a stimulus of study3 (e.g. 't0-nothing'): row 1" in result.output
    assert "column prediction: not a number (e.g. nan): row 5" in result.output
    assert "column prediction: outside 0–100 (--unit percent) (e.g. 101.0): row 10" in result.output
    assert counts() == earlier


@pytest.mark.parametrize("kind", ["csv", "parquet"])
@pytest.mark.parametrize(
    "last_row, message",
    [
        (("t1-s1-t2-v9", 50, 4), "column stimulus_id: not a stimulus of study3 (e.g. 't1-s1-t2-v9'): row 960"),
        (("KEY", "oops", 4), "column prediction: not a number (e.g. 'oops'): row 960"),  # CSV: the typed read fails
    ],
)
def test_problem_in_a_late_batch_rolls_back_batches_already_written(
    runner, keys, tmp_path, earlier, monkeypatch, kind, last_row, message
):
    """Small batches, so the first runs are COPYed/inserted before the bad last row is read: all must go."""
    monkeypatch.setattr(server.imports.predictions, "CSV_BLOCK_BYTES", 2048)
    monkeypatch.setattr(server.imports.predictions, "PARQUET_BATCH_ROWS", 100)
    written, write = [], server.imports.predictions.Importer._write

    def counting_write(self, run_id, stimulus_id, value):
        written.append(len(value))
        write(self, run_id, stimulus_id, value)

    monkeypatch.setattr(server.imports.predictions.Importer, "_write", counting_write)
    rows = [(key, 50, run) for run in range(5) for key in keys]
    rows[-1] = (keys[-1] if last_row[0] == "KEY" else last_row[0], *last_row[1:])
    path = tmp_path / f"late.{kind}"
    if kind == "csv":
        write_csv(path, ["stimulus_id", "prediction", "run"], rows)
    else:
        pq.write_table(
            pa.table(
                {
                    "stimulus_id": [r[0] for r in rows],
                    "prediction": [str(r[1]) for r in rows],
                    "run": [r[2] for r in rows],
                }
            ),
            path,
        )
    result = invoke(runner, path)
    assert result.exit_code == 1
    assert message in result.output
    assert sum(written) > 500  # most rows were written before the problem turned up…
    assert counts() == earlier  # …and rolled back


def test_reimport_needs_replace(runner, keys, tmp_path, earlier):
    path = write_csv(tmp_path / "again.csv", ["stimulus_id", "prediction"], [(k, 99) for k in keys[:10]])
    result = invoke(runner, path, observer="alexnet")
    assert result.exit_code == 1
    assert (
        "imported before: alexnet run 0 (192 predictions from earlier.csv): add --replace to replace it"
        in result.output
    )
    assert counts() == earlier

    result = invoke(runner, path, "--replace", observer="alexnet")
    assert result.exit_code == 0, result.output
    assert "imported 10 predictions for alexnet (run 0), replacing 1 earlier import" in result.output
    assert stored("alexnet") == dict.fromkeys(keys[:10], 99)
    run = model_run("alexnet")
    assert (run.n_predictions, run.source) == (10, "again.csv")
    assert counts() == (1, 10)


def test_replace_touches_only_the_runs_in_the_file(runner, keys, tmp_path):
    both = write_csv(
        tmp_path / "both.csv", ["stimulus_id", "prediction", "run"], [(k, 10, r) for r in (0, 1) for k in keys]
    )
    assert invoke(runner, both).exit_code == 0
    one = write_csv(tmp_path / "one.csv", ["stimulus_id", "prediction"], [(k, 20) for k in keys])
    assert invoke(runner, one, "--run", "1", "--replace").exit_code == 0
    assert set(stored("vgg19-iid-large", run=0).values()) == {10}
    assert set(stored("vgg19-iid-large", run=1).values()) == {20}
    assert counts() == (2, 384)
    many = write_csv(tmp_path / "many.csv", ["stimulus_id", "prediction", "run"], [(keys[0], 30, r) for r in range(12)])
    result = invoke(runner, many)
    assert (
        "imported before: vgg19-iid-large run 0 (192 predictions from both.csv); vgg19-iid-large run 1 (192 "
        "predictions from one.csv): add --replace to replace them"
    ) in result.output
    assert counts() == (2, 384)
    assert invoke(runner, many, "--replace").exit_code == 0
    assert counts() == (12, 12)
    result = invoke(runner, many)
    assert "vgg19-iid-large run 9 (1 prediction from many.csv) and 2 more: add --replace" in result.output
    assert counts() == (12, 12)
    # --replace on a run that was never imported simply imports it
    assert invoke(runner, one, "--run", "20", "--replace").exit_code == 0
    assert counts() == (13, 204)


def test_empty_file_unknown_study_and_bad_options(runner, keys, tmp_path, earlier):
    empty = write_csv(tmp_path / "empty.csv", ["stimulus_id", "prediction"], [])
    assert "the file has no rows" in invoke(runner, empty).output
    result = runner.invoke(args=["import-predictions", "nope", str(empty), "--observer", "x", "--unit", "percent"])
    assert "no study named 'nope'" in result.output
    assert "--unit" in runner.invoke(args=["import-predictions", "study3", str(empty), "--observer", "x"]).output
    assert "--observer must be" in invoke(runner, empty, observer="x" * 129).output
    assert counts() == earlier


@pytest.mark.skipif(BACKEND != "postgresql", reason="PostgreSQL's foreign-key triggers")
def test_foreign_key_checks_are_back_on_after_imports(runner, keys, tmp_path, earlier):
    bad = write_csv(tmp_path / "bad.csv", ["stimulus_id", "prediction"], [(keys[0], "x")])
    assert invoke(runner, bad, "--disable-fk-triggers").exit_code == 1
    disabled = db.session.scalar(
        db.text("SELECT count(*) FROM pg_trigger WHERE tgrelid = 'predictions'::regclass AND tgenabled = 'D'")
    )
    assert disabled == 0
    with pytest.raises(Exception, match="foreign key"):
        db.session.execute(db.text("INSERT INTO predictions (run_id, stimulus_id, value) VALUES (999999, 1, 1)"))
    db.session.rollback()


def test_studies_answered_with_labels_are_refused(runner, tmp_path):
    labelled = [s.slug for s in db.session.scalars(db.select(Study)) if "vocabulary" in s.config.get("task", {})]
    if not labelled:
        pytest.skip("no study with a label vocabulary")
    path = write_csv(tmp_path / "p.csv", ["stimulus_id", "prediction"], [("x", 1)])
    result = runner.invoke(args=["import-predictions", labelled[0], str(path), "--observer", "m", "--unit", "ratio"])
    assert result.exit_code == 1
    assert "has a label vocabulary: use `flask import-label-predictions`" in result.output
