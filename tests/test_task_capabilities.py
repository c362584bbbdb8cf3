"""README's "no generic module changes for a new type", for every capability: a distribution written to a temporary
folder offers, through its `studyhive.task_types` entry points, a type with a plan and every capability a planned
type may declare, and a type whose page records rows of its own. Nothing else is changed, and export, completion,
the dashboard's funnel, the codebook, `flask plan` and `flask analyze`'s options all take them as they take the
built-in ones: what differs is their own hooks (server/tasktype/contract.py)."""

from __future__ import annotations

import csv
import textwrap
import uuid

import pytest

from server.db import db, dispose_engines
from server.models import Study
from server.results import dashboard
from server.studies.definitions import sync_studies
from tests.conftest import make_app
from tests.helpers import answer_surveys, enter, go_live
from tests.test_task_packages import lib, write_distribution  # noqa: F401 (lib: the fixture)

PACKAGE = '''
    """Two task types with every capability, written by tests/test_task_capabilities.py."""
    from analysis.planning import plan_ratings
    from analysis.reports.jspsych_study import jspsych_report
    from server.exceptions import ResponseError
    from server.results.analyze import completed, load_sessions
    from server.results.export import trial_rows
    from server.tasktype.contract import (
        N_BOOT, Analysed, AnalysisOption, Analyzer, Column, GeneratedStimuli, ModelAnswers, PlanItem, PlanLessRows,
        Planned, Planner, Prepared, QualityFlag, Ratings, StimulusSpec,
    )

    SEEN = []  # the options each analysis was given, for the test
    LENIENCY = AnalysisOption("leniency", "--leniency", 2, "how many wrong answers a participant may give", minimum=0)


    class EveryAnalyzer(Analyzer):
        options = (LENIENCY, N_BOOT)

        def load(self, study, options):
            return {"sessions": load_sessions(study, options.stage), "trials": __import__("pandas").DataFrame(
                list(trial_rows(study, stage=options.stage)))}

        def compute(self, study, data, options):
            SEEN.append({o.name: getattr(options, o.name) for o in self.options})
            return jspsych_report(data["sessions"], completed(data), meta={"slug": study.slug, "title": study.title,
                "task_type": study.task_type, "session_excluded": 0, "exclusion_reasons": {}})


    class EveryPlanner(Planner):
        unit = "share agreeing with the dot, a proportion, against --versus"
        options = frozenset({"versus"})

        def design(self, study):
            return {"dots": len(study.config["task"])}

        def plan(self, pilot, sessions, design, request, common):
            ratings = pilot.rename(columns={"dot": "statement_id"}) if sessions else None
            return plan_ratings(ratings, 1, request.effect, versus=request.versus, **common)


    class EveryChoice(GeneratedStimuli, ModelAnswers, Analysed, Planned, Ratings):
        id = "every-choice"
        name = "Rate the dot"
        rating_scale = "1–7 agreement"
        trial_columns = (Column("dot", "1: a dot was shown", "integer"), Column("rating", "1–7", "integer"))
        session_columns = (Column("first_rating", "the participant's first rating", "integer"),)
        progress_steps = ("in", "agreed", "rated once", "rated all", "done")
        quality_flags = (QualityFlag("doubt", "Doubtful ratings", "Doubt"),)
        analyzer = EveryAnalyzer()
        planner = EveryPlanner()

        def stimuli(self, params):
            return [StimulusSpec("dot", {"dot": 1}), StimulusSpec("blank", {"dot": 0})]

        def build_plan(self, params, rng):
            return [PlanItem(0, "dot", False), PlanItem(1, "blank", False)]

        def validate_response(self, response, params, shown):
            if response.get("rating") not in range(1, 8):
                raise ResponseError("response.rating", "response.rating must be 1–7")
            return {"rating": response["rating"]}

        def score(self, stimulus, response):
            return {"doubt": response["rating"] == 4}

        def trial_row(self, stimulus, response, score, presented):
            return {"dot": stimulus["dot"], "rating": response["rating"]}

        def ratings(self, response):
            return [response["rating"]]

        def session_cells(self, session):
            return {"first_rating": 7}

        def render_stimulus(self, key, params):
            return "image/svg+xml", b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"/>'

        def model_input(self, key, params):
            return "svg", self.render_stimulus(key, params)[1]


    class OwnAnalyzer(EveryAnalyzer):
        options = ()


    class OwnRows(PlanLessRows, Analysed):
        id = "own-rows"
        name = "A page of its own"
        analyzer = OwnAnalyzer()

        def prepare(self, study_dir, params, previous):
            return Prepared({"page": "own"}, {}, report=["page: own"])

        def min_rows(self, params):
            return 2

        def row_limit(self, params):
            return 1024

        def column_descriptions(self, params):
            return {"word": "the word shown"}

        def validate_response(self, response, params, shown):
            return response
'''

STUDY = """
    title = "{slug}"
    task_type = "{task_type}"
    consent = "<p>Fine?</p>"
    flow = {flow}
"""


@pytest.fixture
def app(lib, tmp_path):  # noqa: F811 (lib: the fixture imported above)
    (lib / "everytask").mkdir()
    (lib / "everytask" / "__init__.py").write_text(textwrap.dedent(PACKAGE))
    write_distribution(lib, "everytask", ["every-choice = everytask:EveryChoice", "own-rows = everytask:OwnRows"])
    for slug, task_type, flow in (
        ("dots", "every-choice", '["consent", "task"]'),
        ("own", "own-rows", '["consent", "task"]'),
    ):
        folder = tmp_path / "studies" / slug
        folder.mkdir(parents=True)
        (folder / "study.toml").write_text(textwrap.dedent(STUDY.format(slug=slug, task_type=task_type, flow=flow)))
    app = make_app(tmp_path, STUDIES_DIR=str(tmp_path / "studies"))
    with app.app_context():
        db.drop_all()
        db.create_all()
        sync_studies(tmp_path / "studies")
        go_live()
        yield app
        db.session.remove()
        db.drop_all()
        dispose_engines()


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def study(slug):
    return db.session.scalars(db.select(Study).filter_by(slug=slug)).one()


@pytest.mark.db
def test_a_planned_type_with_every_capability_needs_no_generic_change(app, tmp_path):
    import everytask

    client, runner = app.test_client(), app.test_cli_runner()
    for ratings in ((7, 4), (6, 5), (2, 4)):
        token = enter(client, "dots")
        answer_surveys(client, token)
        for item, rating in zip(client.get(f"/api/sessions/{token}").get_json()["plan"], ratings, strict=True):
            body = {"trial_id": str(uuid.uuid4()), "trial_index": item["index"], "stimulus_id": item["stimulus_id"]}
            assert (
                client.post(f"/api/sessions/{token}/trials", json={**body, "response": {"rating": rating}}).status_code
                == 201
            )
        assert client.post(f"/api/sessions/{token}/complete").get_json()["outcome"] == "completed"

    assert runner.invoke(args=["export", "dots", "--out", str(tmp_path / "out")]).exit_code == 0
    trials = read_csv(tmp_path / "out" / "trials.csv")
    assert [(t["stimulus_id"], t["dot"], t["rating"]) for t in trials[:2]] == [("dot", "1", "7"), ("blank", "0", "4")]
    assert {p["first_rating"] for p in read_csv(tmp_path / "out" / "participants.csv")} == {"7"}
    codebook = {(e["file"], e["column"]): e for e in read_csv(tmp_path / "out" / "codebook.csv")}
    assert codebook["trials.csv", "dot"]["description"] == "1: a dot was shown"
    assert codebook["participants.csv", "first_rating"]["type"] == "integer"
    funnel = dashboard.funnel(study("dots"), "live")
    assert funnel == [("in", 3), ("agreed", 3), ("rated once", 3), ("rated all", 3), ("done", 3)]

    planned = runner.invoke(
        args=["plan", "dots", "--effect", "0.3", "--versus", "0.4", "--stage", "live", "--reps", "100", "--n-max", "20"]
    )
    assert planned.exit_code == 0, planned.output
    assert "pilot: 3 completed session(s)" in planned.output
    refused = runner.invoke(args=["plan", "dots", "--effect", "0.3", "--types", "1,2"])
    assert "--types: not used when planning every-choice studies (share agreeing with the dot" in refused.output
    assert "every-choice: share agreeing with the dot" in " ".join(
        runner.invoke(args=["plan", "--help"]).output.split()
    )

    analysed = runner.invoke(args=["analyze", "dots", "--leniency", "5", "--n-boot", "50"])
    assert analysed.exit_code == 0, analysed.output
    assert everytask.SEEN[-1] == {"leniency": 5, "n_boot": 50}
    assert "--leniency INTEGER RANGE" in runner.invoke(args=["analyze", "--help"]).output
    unused = runner.invoke(args=["analyze", "dots", "--mlae", "participant"])  # ratio estimation's option
    assert "--mlae: not used by the analysis of every-choice studies (study 'dots'; it uses --leniency, --n-boot)" in (
        unused.output
    )


@pytest.mark.db
def test_a_type_whose_page_records_its_rows_needs_no_generic_change(app, tmp_path):
    client, runner = app.test_client(), app.test_cli_runner()
    assert "page: own" in runner.invoke(args=["studies", "check", str(tmp_path / "studies" / "own")]).output
    for words in (["sun", "moon"], ["sun"]):
        token = enter(client, "own")
        for word in words:
            body = {"trial_id": str(uuid.uuid4()), "row": {"word": word, "participant_id": "mine"}}
            assert client.post(f"/api/sessions/{token}/rows", json=body).status_code == 201
        assert client.post(f"/api/sessions/{token}/timeline-finished", json={}).status_code == 200
        done = client.post(f"/api/sessions/{token}/complete", json={})
        assert done.get_json().get("outcome") == "completed" if len(words) == 2 else done.status_code == 409
    planned_only = client.post(f"/api/sessions/{enter(client, 'dots')}/rows", json={"trial_id": "x", "row": {}})
    assert planned_only.status_code == 404

    assert runner.invoke(args=["export", "own", "--out", str(tmp_path / "out")]).exit_code == 0
    trials = read_csv(tmp_path / "out" / "trials.csv")
    assert [(t["saved_seq"] != "", t["word"], t["jspsych_participant_id"]) for t in trials] == [
        (True, "sun", "mine"),
        (True, "moon", "mine"),
        (True, "sun", "mine"),
    ]
    assert "ended_early" in read_csv(tmp_path / "out" / "participants.csv")[0]
    codebook = {(e["file"], e["column"]): e for e in read_csv(tmp_path / "out" / "codebook.csv")}
    assert codebook["trials.csv", "word"]["description"].startswith("the word shown")
    assert (codebook["trials.csv", "word"]["type"], codebook["trials.csv", "word"]["missing"]) == ("text", "0")
    assert codebook["trials.csv", "jspsych_participant_id"]["levels"] == '["mine"]'
    steps = [name for name, _ in dashboard.funnel(study("own"), "live")]
    assert steps == ["entered", "consented", "first row", "timeline finished", "completed"]

    analysed = runner.invoke(args=["analyze", "own", "--format", "json"])
    assert analysed.exit_code == 0, analysed.output
    refused = runner.invoke(args=["analyze", "own", "--leniency", "1"])  # its analysis declares no option
    assert "--leniency: not used by the analysis of own-rows studies (study 'own'; it uses none of them)" in (
        refused.output
    )
