"""The export, codebook and `flask analyze` of a study whose rows are its page's own (PlanLessRows: a researcher's
jsPsych experiment), with rows stored as the save path stores them: a trial with no stimulus, the server's sequence
as trial_index, the client's id, and jsPsych's row object as the response.
The study is a real `jspsych` one (tests/jspsych_study.py's experiment, synced against the fake npm registry)."""

import csv
import json
import textwrap
from datetime import UTC, datetime, timedelta

import pytest

from server.db import db, dispose_engines
from server.models import ParticipantSession, Trial
from server.researchers.auth import create_researcher
from server.results.export import snapshot_csv, trial_rows
from server.studies.definitions import get_study, sync_studies
from server.tasks.jspsych.analyzer import JsPsychAnalyzer
from server.tasktype.contract import Analysed, PlanLessRows
from server.tasktype.registry import registry
from tests.conftest import make_app
from tests.helpers import go_live
from tests.jspsych_study import EXPERIMENT

STUDY = """
    title = "Rows of their own"
    task_type = "jspsych"
    consent = "<p>Fine?</p>"
    flow = ["consent", "task"]

    [task.columns]
    word = "the colour word shown"
    participant_id = "the id the experiment drew itself"
"""


def _row(i, **extra):
    return {"trial_type": "html-keyboard-response", "trial_index": i, "time_elapsed": 1000 * (i + 1), **extra}


ROWS = {
    # a completed participant: instructions, two Stroop trials (one right), a survey, and a replayed row repeating
    # jsPsych's trial_index after a reload
    "done": [
        _row(0, trial_type="instructions", rt=3000, view_history=[{"page_index": 0, "viewing_time": 3000}]),
        _row(1, rt=512, word="RED", correct=True, response="f", participant_id="X7"),
        _row(2, rt=845.5, word="=1+2", correct=False, response="j", participant_id="X7"),
        _row(2, rt=845.5, word="=1+2", correct=False, response="j", participant_id="X7"),
        _row(3, trial_type="survey-text", rt=4000, response={"Q0": "@SUM(A1)", "Q1": "fine"}),
    ],
    # one who left after a trial: recruited, not analysed, but exported
    "left": [_row(0, rt=None, word="BLUE", correct=None, response=None)],
}


@pytest.fixture
def app(tmp_path):
    study = tmp_path / "studies" / "own"
    study.mkdir(parents=True)
    (study / "study.toml").write_text(textwrap.dedent(STUDY))
    (study / "experiment.html").write_text(EXPERIMENT)
    app = make_app(tmp_path, STUDIES_DIR=str(tmp_path / "studies"))
    with app.app_context():
        db.drop_all()
        db.create_all()
        sync_studies(tmp_path / "studies")
        go_live()  # the sessions below are live ones (the model's default)
        s = get_study("own")
        start = datetime(2026, 1, 1, tzinfo=UTC)
        for n, (name, rows) in enumerate(ROWS.items()):
            person = ParticipantSession(
                study_id=s.id,
                token=f"token-{name}",
                platform="direct",
                study_version=1,
                status="completed" if name == "done" else "abandoned",
                plan=[],
            )
            db.session.add(person)
            db.session.flush()
            for i, row in enumerate(rows):
                db.session.add(
                    Trial(
                        session_id=person.id,
                        trial_index=100 * n + 7 * i,  # the server's sequence: increasing, not consecutive
                        client_trial_id=f"{name}-{i}",
                        stimulus_id=None,
                        practice=False,
                        response=row,
                        score={},
                        rt_ms=row["rt"] if isinstance(row.get("rt"), int) else None,
                        created_at=start + timedelta(seconds=10 * i),
                    )
                )
        db.session.commit()
        yield app
        db.session.remove()
        db.drop_all()
        dispose_engines()


def read(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.mark.db
def test_trials_csv_holds_every_jspsych_column_with_nested_values_as_json_text(app, tmp_path):
    result = app.test_cli_runner().invoke(args=["export", "own", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    with open(tmp_path / "out" / "trials.csv", newline="", encoding="utf-8") as fh:
        header = next(csv.reader(fh))
    assert header == [
        "participant_id",
        "participant_code",
        "study_version",
        "stage",
        "saved_seq",
        "client_time",
        "created_at",
        "trial_type",
        "trial_index",
        "time_elapsed",
        "rt",
        "view_history",
        "word",
        "correct",
        "response",
        "jspsych_participant_id",  # the experiment's own, renamed: studyhive's participant_id comes first
        "response.Q0",
        "response.Q1",
    ]
    rows = read(tmp_path / "out" / "trials.csv")
    assert len(rows) == 6  # every stored row once, the replayed duplicate included (it was stored twice)
    first, stroop, survey = rows[0], rows[2], rows[4]
    assert json.loads(first["view_history"]) == [{"page_index": 0, "viewing_time": 3000}]
    assert first["view_history"] == '[{"page_index":0,"viewing_time":3000}]'  # as JSON.stringify writes it
    assert [r["saved_seq"] for r in rows[:5]] == ["0", "7", "14", "21", "28"]
    assert stroop["word"] == "'=1+2" and stroop["rt"] == "845.5" and stroop["correct"] == "false"
    assert survey["response.Q0"] == "'@SUM(A1)" and survey["response.Q1"] == "fine"
    assert survey["response"].startswith("{") and json.loads(survey["response"])["Q1"] == "fine"
    assert rows[1]["jspsych_participant_id"] == "X7" and rows[1]["participant_id"] != "X7"


@pytest.mark.db
def test_the_codebook_infers_type_levels_missing_and_takes_the_studys_descriptions(app, tmp_path):
    app.test_cli_runner().invoke(args=["export", "own", "--out", str(tmp_path / "out")])
    book = {r["column"]: r for r in read(tmp_path / "out" / "codebook.csv") if r["file"] == "trials.csv"}
    trials_header = list(read(tmp_path / "out" / "trials.csv")[0])
    assert list(book) == trials_header  # one entry per column, in the file's order
    # the instructions and the survey show no word; 3 words on 4 rows are not a factor
    assert (book["word"]["type"], book["word"]["levels"], book["word"]["missing"]) == ("text", "", "2")
    assert book["trial_type"]["levels"] == '["html-keyboard-response","instructions","survey-text"]'

    assert book["word"]["description"].startswith("the colour word shown")
    assert book["jspsych_participant_id"]["description"].startswith("the id the experiment drew itself")
    assert (book["correct"]["type"], book["correct"]["levels"], book["correct"]["missing"]) == (
        "boolean",
        "[false,true]",
        "3",
    )
    assert (book["rt"]["type"], book["rt"]["missing"]) == ("number", "1")
    assert "leading '" in book["word"]["description"] and "leading '" not in book["rt"]["description"]
    assert book["saved_seq"]["levels"] == "" and book["saved_seq"]["type"] == "integer"


@pytest.mark.db
def test_the_download_and_one_participants_rows_agree_with_the_export(app, tmp_path):
    app.test_cli_runner().invoke(args=["export", "own", "--out", str(tmp_path / "out")])
    study = get_study("own")
    for name in ("trials.csv", "codebook.csv"):
        assert "".join(snapshot_csv(study, name)) == (tmp_path / "out" / name).read_text(encoding="utf-8")
    left = db.session.scalar(db.select(ParticipantSession.id).filter_by(token="token-left"))
    own = list(trial_rows(study, session_id=left))  # the dashboard's participant page
    assert len(own) == 1 and own[0]["word"] == "BLUE" and own[0]["response"] is None


@pytest.mark.db
def test_the_researcher_pages_show_the_rows_and_the_results(app):
    create_researcher("ada", "correct horse")
    client = app.test_client()
    client.post("/researcher/login", data={"username": "ada", "password": "correct horse"})
    done = db.session.scalar(db.select(ParticipantSession.id).filter_by(token="token-done"))
    person = client.get(f"/researcher/studies/own/participants/{done}")
    assert person.status_code == 200
    page = person.get_data(as_text=True)
    assert "<th>response.Q0</th>" in page and "@SUM(A1)" in page and "html-keyboard-response" in page
    left = db.session.scalar(db.select(ParticipantSession.id).filter_by(token="token-left"))
    # one participant's columns: only those their rows hold
    assert "<th>response.Q0</th>" not in client.get(f"/researcher/studies/own/participants/{left}").get_data(True)
    stored = app.test_cli_runner().invoke(args=["analyze", "own", "--store"])  # the page serves stored results
    assert stored.exit_code == 0, stored.output
    results = client.get("/researcher/studies/own/results")
    assert results.status_code == 200 and "html-keyboard-response" in results.get_data(as_text=True)
    download = client.get("/researcher/studies/own/codebook.csv")
    assert download.status_code == 200 and "response.Q1" in download.get_data(as_text=True)


@pytest.mark.db
def test_flask_analyze_reports_completion_time_rt_and_accuracy(app, tmp_path):
    result = app.test_cli_runner().invoke(args=["analyze", "own", "--out", str(tmp_path / "a")])
    assert result.exit_code == 0, result.output
    assert "2 session(s) recruited, 1 completed; 5 rows from 1 completed participant(s)" in result.output
    report = json.loads((tmp_path / "a" / "report.json").read_text())
    rt = {r["trial_type"]: r for r in report["rt"]}
    assert rt["html-keyboard-response"]["n_trials"] == 3
    assert rt["html-keyboard-response"]["median_rt_ms"] == 845.5
    accuracy = report["accuracy"][0]
    assert (accuracy["trial_type"], accuracy["n_trials"], accuracy["accuracy"]) == ("html-keyboard-response", 3, 1 / 3)
    assert accuracy["sd_participant_accuracy"] is None  # one participant: no spread, null not NaN
    assert report["participants"][0]["time_elapsed_s"] == 4.0 and report["participants"][0]["saved_span_s"] == 40.0
    assert (tmp_path / "a" / "rt_by_trial_type.png").stat().st_size > 0


def test_the_jspsych_type_declares_the_data_rows_and_analysis_capabilities(tmp_path):
    app = make_app(tmp_path)
    with app.app_context():
        task = registry().get("jspsych")
    assert isinstance(task, PlanLessRows) and isinstance(task, Analysed)
    assert isinstance(task.analyzer, JsPsychAnalyzer)
    assert task.column_descriptions(task.parse_params({"columns": {"rt": "ms"}})) == {"rt": "ms"}
