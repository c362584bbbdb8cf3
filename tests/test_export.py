"""`flask export` and the researcher downloads: columns, values, codebook, and robustness to unknown task types."""
import csv
import io
import math

import pytest

from server.db import db
from server.studies import get_study
from tests.helpers import PROLIFIC, answer_all, answer_surveys, enter


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture
def finished(client):
    token = enter(client, **PROLIFIC)
    answer_surveys(client, token, demographics={
        "gender": "male", "age": 51, "education": "high school", "nationality": "Kenyan"})
    client.put(f"/api/sessions/{token}/environment", json={
        "screen_width": 1920, "screen_height": 1080, "window_width": 1400, "window_height": 900})
    state = answer_all(client, token, lambda item: 25.0)
    client.post(f"/api/sessions/{token}/complete")
    return state


def test_export_writes_tidy_trials_with_correct_values(runner, finished, tmp_path):
    result = runner.invoke(args=["export", "study3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    trials = read_csv(tmp_path / "trials.csv")
    assert len(trials) == 30
    required = ["participant_id", "prolific_pid", "trial_index", "practice", "chart_type", "stimulus_id",
                "short_height", "tall_height", "true_percent", "response_percent", "abs_error", "log_error",
                "rt_ms", "created_at"]
    assert all(col in trials[0] for col in required)
    for row, item in zip(trials, finished["plan"]):
        assert row["stimulus_id"] == item["stimulus_id"] and int(row["trial_index"]) == item["index"]
        assert row["prolific_pid"] == PROLIFIC["PROLIFIC_PID"]
        assert row["practice"] == str(item["practice"])
        short, tall = int(row["short_height"]), int(row["tall_height"])
        assert row["stimulus_id"] == f"{'p' if item['practice'] else 't'}{row['chart_type']}-s{short}-t{tall}-v0"
        assert float(row["true_percent"]) == pytest.approx(100 * short / tall)
        assert float(row["response_percent"]) == 25.0
        assert float(row["abs_error"]) == pytest.approx(abs(25.0 - 100 * short / tall))
        assert float(row["log_error"]) == pytest.approx(math.log2(abs(25.0 - 100 * short / tall) + 0.125))
        assert row["rt_ms"] == "1234"
        assert row["created_at"].endswith("+00:00")


def test_export_participants_and_codebook(runner, finished, tmp_path):
    runner.invoke(args=["export", "study3", "--out", str(tmp_path)])
    (person,) = read_csv(tmp_path / "participants.csv")
    assert person["prolific_pid"] == PROLIFIC["PROLIFIC_PID"] and person["status"] == "completed"
    assert (person["gender"], person["age"], person["education"], person["nationality"]) == (
        "male", "51", "high school", "Kenyan")
    assert (person["n_trials"], person["screen_width"], person["consent_agreed"]) == ("30", "1920", "True")
    assert float(person["duration_s"]) >= 0
    codebook = read_csv(tmp_path / "codebook.csv")
    described = {(r["file"], r["column"]) for r in codebook if r["description"]}
    for name in ("participants.csv", "trials.csv"):
        header = next(csv.reader(open(tmp_path / name)))
        assert {(name, c) for c in header} <= described, name


def test_export_survives_a_task_type_the_code_no_longer_knows(runner, finished, tmp_path):
    study = get_study("study3")
    study.task_type = "retired-task"
    db.session.commit()
    result = runner.invoke(args=["export", "study3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    trials = read_csv(tmp_path / "trials.csv")
    assert len(trials) == 30 and '"percent": 25.0' in trials[0]["response"]


def test_export_unknown_study_is_a_clear_error(runner, tmp_path):
    result = runner.invoke(args=["export", "nope", "--out", str(tmp_path)])
    assert result.exit_code != 0 and "no study named 'nope'" in result.output


def test_researcher_download_matches_cli_export(client, auth, runner, finished, tmp_path):
    assert client.get("/researcher/studies/study3/trials.csv").status_code == 302  # logged out
    auth.login()
    download = client.get("/researcher/studies/study3/trials.csv")
    assert download.status_code == 200 and download.mimetype == "text/csv"
    runner.invoke(args=["export", "study3", "--out", str(tmp_path)])
    assert download.get_data(as_text=True) == (tmp_path / "trials.csv").read_text()
    assert list(csv.DictReader(io.StringIO(download.get_data(as_text=True))))[0]["participant_id"]
    assert client.get("/researcher/studies/study3/secrets.csv").status_code == 404
