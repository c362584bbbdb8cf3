"""A jsPsych experiment's rows as columns (analysis.jspsych_data), the codebook inferred from them, and the
descriptive report (analysis.jspsych_statistics, analysis.reports.jspsych_study) on ordinary and degenerate data."""

import csv
import io
import json

import numpy as np
import pandas as pd
import pytest

from analysis.jspsych_data import MAX_LEVELS, Codebook, flat_row
from analysis.jspsych_statistics import (
    accuracy_by_trial_type,
    as_correct,
    completion,
    participant_summary,
    rt_by_trial_type,
)
from analysis.reports.jspsych_study import jspsych_report
from analysis.safe_csv import rows_csv

SURVEY_ROW = {
    "rt": 4120,
    "response": {"Q0": '=HYPERLINK("http://x")', "age": 31, "likes": ["red", "blue"], "note": "süß"},
    "trial_type": "survey-text",
    "trial_index": 3,
}


def test_a_row_is_written_as_jspsych_csv_writes_it_with_a_column_per_survey_question():
    flat = flat_row(SURVEY_ROW)
    # JSON.stringify's compact form, characters kept as they are
    assert flat["response"] == '{"Q0":"=HYPERLINK(\\"http://x\\")","age":31,"likes":["red","blue"],"note":"süß"}'
    assert json.loads(flat["response"]) == SURVEY_ROW["response"]
    assert list(flat) == [
        "rt",
        "response",
        "response.Q0",
        "response.age",
        "response.likes",
        "response.note",
        "trial_type",
        "trial_index",
    ]
    assert flat["response.age"] == 31 and flat["response.likes"] == '["red","blue"]'
    assert flat_row({"response": "f", "stimulus": ["a.png", "b.png"]}) == {
        "response": "f",
        "stimulus": '["a.png","b.png"]',
    }
    # a row's own key of that name is not overwritten by the expansion
    assert flat_row({"response": {"Q0": 1}, "response.Q0": "own"})["response.Q0"] == "own"


def test_a_participants_formula_in_a_survey_answer_reaches_the_csv_neutralised():
    text = "".join(rows_csv(["response.Q0", "response.age"], [flat_row(SURVEY_ROW)]))
    row = next(csv.DictReader(io.StringIO(text)))
    assert row["response.Q0"] == '\'=HYPERLINK("http://x")' and row["response.age"] == "31"


def test_the_codebook_infers_order_types_levels_and_missing_counts():
    rows = [
        {"trial_type": "html-keyboard-response", "rt": 512, "correct": True, "word": "RED", "key": "f"},
        {"trial_type": "html-keyboard-response", "rt": 730.5, "correct": False, "word": "BLUE", "key": None},
        {"trial_type": "html-keyboard-response", "rt": None, "correct": True, "word": "RED", "key": 1},
        {"trial_type": "survey-text", "rt": 3000, "extra": None, "response.Q0": "hi"},
        {"trial_type": "html-keyboard-response", "rt": 600, "correct": False, "word": "BLUE", "key": "f"},
    ]
    book = Codebook().extend(rows)
    entries = {e["column"]: e for e in book.entries({"word": "the colour word shown"})}
    assert list(entries) == ["trial_type", "rt", "correct", "word", "key", "extra", "response.Q0"]
    assert book.rows == 5
    expected = {
        "trial_type": ("text", '["html-keyboard-response","survey-text"]', 0),
        "rt": ("number", None, 1),  # integers and decimals: a number, no levels
        "correct": ("boolean", "[false,true]", 1),
        "word": ("text", '["BLUE","RED"]', 1),
        "key": ("mixed", None, 2),  # 2 values on 3 rows: not a factor
        "extra": ("empty", None, 5),  # first seen in the fourth row: missing from the three before it too
        "response.Q0": ("text", None, 4),  # free text, given once
    }
    assert {k: (e["type"], e["levels"], e["missing"]) for k, e in entries.items()} == expected
    assert entries["word"]["description"] == "the colour word shown"  # the study's own words first
    assert entries["rt"]["description"].startswith("response time in milliseconds")  # then jsPsych's standard ones
    assert entries["key"]["description"] == "values of several types: integer (1), text (2)"
    assert "question 'Q0'" in entries["response.Q0"]["description"]


def test_levels_are_listed_for_factors_up_to_the_limit_and_true_is_not_one():
    many = Codebook().extend({"word": f"w{i % 21}", "n": i % 21} for i in range(2 * (MAX_LEVELS + 1)))
    few = Codebook().extend({"word": f"w{i % 20}", "n": i % 20} for i in range(2 * MAX_LEVELS))
    assert [e["levels"] for e in many.entries()] == [None, None]
    assert "more than 20 distinct values" in many.entries()[0]["description"]
    assert json.loads(few.entries()[1]["levels"]) == list(range(MAX_LEVELS))
    # response times: integers, but most of them distinct, so no levels
    assert Codebook().extend({"rt": rt} for rt in (412, 388, 412, 530)).entries()[0]["levels"] is None
    # jsPsych's measurements are never factors, even when a scripted run repeats its few response times
    repeated = Codebook().extend({"rt": rt, "time_elapsed": 1000, "trial_index": 0} for rt in (330, 331) * 4)
    assert [e["levels"] for e in repeated.entries()] == [None, None, None]
    assert Codebook().extend({"n_items": n} for n in (330, 331) * 4).entries()[0]["levels"] == "[330,331]"
    mixed = Codebook().extend([{"c": True}, {"c": 1}, {"c": True}, {"c": 1}])
    assert mixed.entries()[0]["type"] == "mixed" and mixed.entries()[0]["levels"] == "[true,1]"
    assert Codebook().extend([{"ok": True}]).entries()[0]["levels"] == "[true]"  # true/false always


def _trials():
    """Two participants: p1 answers all four test trials (3 right), p2 two of them (1 right, one rt missing)."""
    rows = [
        (1, "instructions", 2000, None, 2000),
        (1, "keyboard", 400, True, 2600),
        (1, "keyboard", 600, True, 3400),
        (1, "keyboard", 500, False, 4100),
        (1, "keyboard", 700, True, 5000),
        (2, "instructions", 1000, None, 1000),
        (2, "keyboard", 800, False, 2000),
        (2, "keyboard", None, True, 9000),
    ]
    frame = pd.DataFrame(rows, columns=["participant_id", "trial_type", "rt", "correct", "time_elapsed"])
    frame["created_at"] = [f"2026-01-01T00:00:{i:02d}+00:00" for i in (0, 1, 2, 3, 10, 20, 30, 50)]
    return frame


def test_response_times_and_accuracy_per_trial_type():
    rt = rt_by_trial_type(_trials()).set_index("trial_type")
    keyboard = rt.loc["keyboard"]
    assert (keyboard["n_participants"], keyboard["n_trials"]) == (2, 5)
    assert keyboard["mean_rt_ms"] == pytest.approx(600) and keyboard["median_rt_ms"] == 600
    assert keyboard["sd_rt_ms"] == pytest.approx(np.std([400, 600, 500, 700, 800], ddof=1))
    assert keyboard["mean_of_medians_ms"] == pytest.approx((550 + 800) / 2)  # each participant once
    accuracy = accuracy_by_trial_type(_trials()).set_index("trial_type")
    assert list(accuracy.index) == ["keyboard"]  # instructions have no correct value
    assert accuracy.loc["keyboard", "accuracy"] == pytest.approx(4 / 6)
    assert accuracy.loc["keyboard", "sd_participant_accuracy"] == pytest.approx(np.std([0.75, 0.5], ddof=1))


def test_participants_time_on_task_and_completion():
    people = participant_summary(_trials()).set_index("participant_id")
    assert people.loc[1, "n_rows"] == 5 and people.loc[1, "time_elapsed_s"] == 5.0
    assert people.loc[1, "saved_span_s"] == 10.0 and people.loc[2, "saved_span_s"] == 30.0
    assert people.loc[2, "n_rt"] == 2 and people.loc[2, "accuracy"] == 0.5
    sessions = pd.DataFrame({"participant_id": [1, 2, 3, 4], "status": ["completed", "completed", "abandoned", "x"]})
    table = completion(sessions).set_index("status")
    assert table.loc["completed", "n_sessions"] == 2 and table.loc["completed", "share"] == 0.5
    assert table.loc["started", "n_sessions"] == 0 and table.loc["x", "n_sessions"] == 1


def test_correct_is_read_from_booleans_numbers_and_words_only():
    values = as_correct(pd.Series([True, False, 1, 0.0, "TRUE", " false ", "1", 2, "maybe", None, [1]], dtype=object))
    assert values.tolist()[:7] == [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    assert values.iloc[7:].isna().all()


def test_the_report_renders_its_tables_figures_and_json(tmp_path):
    sessions = pd.DataFrame({"participant_id": [1, 2, 3], "status": ["completed", "completed", "started"]})
    report = jspsych_report(sessions, _trials(), meta={"slug": "stroop", "title": "Stroop"})
    assert report.meta["recruited"] == 3 and report.meta["n_rows"] == 8
    text = report.text()
    assert "3 session(s) recruited, 2 completed" in text and "keyboard" in text and "nan" not in text.lower()
    written = {p.name for p in report.write(tmp_path)}
    assert {"rt_by_trial_type.png", "accuracy_by_participant.png", "rt.csv", "report.json"} <= written
    assert json.loads((tmp_path / "report.json").read_text())["accuracy"][0]["accuracy"] == pytest.approx(4 / 6)


@pytest.mark.parametrize(
    ("trials", "says"),
    [
        (pd.DataFrame({"participant_id": [1, 1]}), ["no trial_type column", "no rt column", "no correct column"]),
        (
            pd.DataFrame({"participant_id": [1], "trial_type": ["k"], "rt": ["n/a"], "correct": ["maybe"]}),
            ["1 rt value(s) are not numbers", "1 correct value(s) are neither", "one participant"],
        ),
        (
            pd.DataFrame({"participant_id": [1, 2], "rt": [None, None], "time_elapsed": [None, None]}),
            ["no correct column"],
        ),
    ],
)
def test_degenerate_data_give_words_not_numbers_or_crashes(tmp_path, trials, says):
    sessions = pd.DataFrame({"participant_id": [1, 2], "status": ["completed", "completed"]})
    report = jspsych_report(sessions, trials)
    for words in says:
        assert any(words in note for note in report.meta["notes"]), (words, report.meta["notes"])
    written = report.write(tmp_path)  # report.json is written with allow_nan=False: a NaN would raise
    assert not any(p.suffix == ".png" for p in written)
    assert "No response times" in report.text() and "No accuracy" in report.text()
    assert "NaN" not in (tmp_path / "report.json").read_text()
