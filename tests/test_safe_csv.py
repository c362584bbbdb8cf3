"""analysis.safe_csv, the writer of every CSV people open in a spreadsheet (#21 row 10): text a spreadsheet would run
as a formula gets a leading ', numbers stay numbers; and the results tables of `flask analyze --out` and the results
page go through it. The export's files are tested in tests/test_export.py."""

import csv
import random

import pandas as pd
import pytest

from analysis.safe_csv import frame_csv, neutralise, rows_csv, write_frame
from analysis.tables import write_tables
from tests.helpers import take_study3_like_people
from tests.test_export import formulas


@pytest.mark.parametrize(
    "cell, written",
    [
        ("=1+1", "'=1+1"),
        ("+1+1", "'+1+1"),
        ("-1+1", "'-1+1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("-", "'-"),
        ("-inf", "'-inf"),
        ("\t-3", "'\t-3"),
        ("-3.5", "-3.5"),
        ("+7", "+7"),
        ("-.5", "-.5"),
        ("-1e-3", "-1e-3"),
        ("-2.", "-2."),  # numbers
        ("Kenyan", "Kenyan"),
        ("a=1", "a=1"),
        (" =1", " =1"),
        ("", ""),
        ("'=1", "'=1"),
        (-3.5, -3.5),
        (-7, -7),
        (None, None),
        (True, True),  # not text: as they are
    ],
)
def test_neutralise(cell, written):
    assert neutralise(cell) == written


def test_rows_and_tables_are_written_through_it(tmp_path):
    rows = [
        {"participant_id": 1, "user_agent": '=HYPERLINK("http://x")', "log_error": -3.0, "note": "-2.5"},
        {"participant_id": 2, "user_agent": "Mozilla/5.0", "log_error": None, "note": "@home"},
    ]
    text = "".join(rows_csv(["participant_id", "user_agent", "log_error", "note"], rows, chunk_rows=1))
    assert text == (
        'participant_id,user_agent,log_error,note\n1,"\'=HYPERLINK(""http://x"")",-3.0,-2.5\n2,Mozilla/5.0,,\'@home\n'
    )

    frame = pd.DataFrame(
        {
            "observer": ["-cnn", "humans", None],
            "estimate": [-0.25, 1.5, float("nan")],
            "n": [-3, 4, 5],
            "kept": [True, False, True],
        }
    )
    written = write_tables({"effects": frame}, ["effects"], tmp_path)
    assert written == [tmp_path / "effects.csv"]
    assert written[0].read_text() == "observer,estimate,n,kept\n'-cnn,-0.25,-3,True\nhumans,1.5,4,False\n,,5,True\n"
    assert "".join(frame_csv(frame, chunk_rows=2)) == written[0].read_text()  # the download streams the same bytes
    assert frame["observer"][0] == "-cnn"  # the report's own table is left as it was
    write_frame(frame.iloc[:0], tmp_path / "empty.csv")
    assert (tmp_path / "empty.csv").read_text() == "observer,estimate,n,kept\n"


def test_results_tables_of_analyze_and_the_results_page(app, client, auth, runner, tmp_path):
    """A model's name is free text and reaches the MLAE table; negative effects stay numbers."""
    rng = random.Random(3)
    for _ in range(3):
        take_study3_like_people(client, rng)
    assert runner.invoke(args=["stimuli", "export", "study3", "--out", str(tmp_path / "stimuli")]).exit_code == 0
    with open(tmp_path / "stimuli" / "manifest.csv", newline="") as fh:
        manifest = list(csv.DictReader(fh))
    (tmp_path / "predictions.csv").write_text(
        "stimulus_id,prediction\n"
        + "".join(f"{m['stimulus_id']},{(float(m['true_percent']) + 2) / 100}\n" for m in manifest)
    )
    imported = runner.invoke(
        args=[
            "import-predictions",
            "study3",
            str(tmp_path / "predictions.csv"),
            "--observer",
            "@cnn-2pp",
            "--unit",
            "ratio",
        ]
    )
    assert imported.exit_code == 0, imported.output
    out = tmp_path / "out"
    result = runner.invoke(args=["analyze", "study3", "--out", str(out), "--n-boot", "200", "--store"])
    assert result.exit_code == 0, result.output

    mlae = pd.read_csv(out / "mlae.csv", keep_default_na=False)
    assert set(mlae.loc[mlae["kind"] == "model", "observer"]) == {"'@cnn-2pp"}
    effects = pd.read_csv(out / "effects.csv")
    assert effects["statistic"].dtype == float and (effects["statistic"] < 0).any()  # read back as numbers
    auth.login()
    tables = ("participants", "mlae", "mae", "effects", "consistency")
    for name in tables:
        text = (out / f"{name}.csv").read_text(encoding="utf-8")
        assert formulas(text) == [], name
        assert client.get(f"/researcher/studies/study3/results/{name}.csv").get_data(as_text=True) == text, name
