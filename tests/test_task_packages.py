"""A task type is one package plus one line: a package written to a temporary folder, named in TASK_PACKAGES, runs a
participant session (plan, page assets, trial save, completion, results summary) and shows up in the export —
without a change to any generic module."""
import sys
import textwrap

import pytest

from server.db import db, dispose_engines
from server.studies import sync_studies
from server.tasks.builtin import PACKAGES
from tests.conftest import make_app
from tests.helpers import answer_surveys, enter

PACKAGE = '''
    """A two-stimulus yes/no task, written by tests/test_task_packages.py."""
    from server.exceptions import ConfigError, ResponseError
    from server.tasktype import Column, PlanItem, StimulusSpec, TaskType


    class TinyChoice(TaskType):
        id = "tiny-choice"
        name = "Is there a dot?"
        assets = ("tiny.css", "tiny.js")
        trial_columns = (Column("choice", "1 yes, 0 no", "integer"), Column("correct", "1 if right", "integer"))

        def parse_params(self, raw):
            if raw:
                raise ConfigError("tiny-choice takes no parameters")
            return {}

        def stimuli(self, params):
            return [StimulusSpec("dot", {"dot": 1}), StimulusSpec("blank", {"dot": 0})]

        def build_plan(self, params, rng):
            keys = ["dot", "blank"]
            rng.shuffle(keys)
            return [PlanItem(i, key, False) for i, key in enumerate(keys)]

        def validate_response(self, response, params, shown):
            if not isinstance(response, dict) or response.get("choice") not in (0, 1):
                raise ResponseError("response.choice", "response.choice must be 0 or 1")
            return {"choice": response["choice"]}

        def score(self, stimulus, response):
            return {"correct": int(response["choice"] == stimulus["dot"])}

        def summarise(self, own, cohort):
            right = sum(s["correct"] for s in own)
            return {"right": right, "lines": [f"{right} of {len(own)} right."]}

        def trial_row(self, stimulus, response, score, presented):
            return {"choice": response.get("choice"), "correct": score.get("correct")}

        def render_stimulus(self, key, params):
            return "image/svg+xml", b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"/>'


    TASK_TYPES = (TinyChoice,)
'''

STUDY = '''
    title = "Dots"
    task_type = "tiny-choice"
    consent = "<p>Fine?</p>"
    flow = ["consent", "instructions", "task", "score"]
'''


@pytest.fixture
def tiny_app(tmp_path, monkeypatch):
    package = tmp_path / "lib" / "tinytask"
    (package / "static").mkdir(parents=True)
    (package / "__init__.py").write_text(textwrap.dedent(PACKAGE))
    (package / "static" / "tiny.js").write_text('StudyhiveTasks["tiny-choice"] = {};\n')
    (package / "static" / "tiny.css").write_text(".tiny { color: black; }\n")
    study = tmp_path / "studies" / "dots"
    study.mkdir(parents=True)
    (study / "study.toml").write_text(textwrap.dedent(STUDY))
    monkeypatch.syspath_prepend(str(tmp_path / "lib"))
    app = make_app(tmp_path, TASK_PACKAGES=(*PACKAGES, "tinytask"), STUDIES_DIR=str(tmp_path / "studies"))
    with app.app_context():
        db.drop_all()
        db.create_all()
        sync_studies(tmp_path / "studies")
        yield app
        db.session.remove()
        db.drop_all()
        dispose_engines()
    sys.modules.pop("tinytask", None)


def test_a_task_package_from_a_folder_runs_a_session_and_exports(tiny_app, tmp_path):
    client, runner = tiny_app.test_client(), tiny_app.test_cli_runner()
    token = enter(client, "dots")
    page = client.get(f"/study/dots/s/{token}").get_data(as_text=True)
    assert '<script src="/tasks/tinytask/tiny.js">' in page and 'href="/tasks/tinytask/tiny.css"' in page
    script = client.get("/tasks/tinytask/tiny.js")
    assert script.status_code == 200 and b'StudyhiveTasks["tiny-choice"]' in script.data
    assert client.get("/tasks/tinytask/../__init__.py").status_code == 404  # only the static/ folder is served
    assert client.get("/tasks/nosuchpackage/tiny.js").status_code == 404

    answer_surveys(client, token)
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    assert sorted(item["stimulus_id"] for item in plan) == ["blank", "dot"]
    assert client.get(plan[0]["stimulus_url"]).mimetype == "image/svg+xml"
    bad = client.post(f"/api/sessions/{token}/trials", json={
        "trial_id": "tiny-0000", "trial_index": 0, "stimulus_id": plan[0]["stimulus_id"], "response": {"choice": 7}})
    assert bad.status_code == 422 and bad.get_json()["field"] == "response.choice"
    for item in plan:
        body = {"trial_id": f"tiny-000{item['index']}", "trial_index": item["index"],
                "stimulus_id": item["stimulus_id"], "response": {"choice": 1}}
        assert client.post(f"/api/sessions/{token}/trials", json=body).status_code == 201
    assert client.post(f"/api/sessions/{token}/complete").get_json()["outcome"] == "completed"
    assert client.get(f"/api/sessions/{token}/summary").get_json() == {"right": 1, "lines": ["1 of 2 right."]}

    result = runner.invoke(args=["export", "dots", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    trials = (tmp_path / "out" / "trials.csv").read_text().splitlines()
    assert trials[0].endswith(",choice,correct") and len(trials) == 3
    assert sorted(line.rsplit(",", 2)[1:] for line in trials[1:]) == [["1", "0"], ["1", "1"]]
    # no analysis declared: flask analyze says so instead of failing
    refused = runner.invoke(args=["analyze", "dots"])
    assert refused.exit_code != 0 and "does not support task type 'tiny-choice'" in refused.output


def test_a_duplicate_task_package_is_refused(tmp_path):
    with pytest.raises(ValueError, match="two task packages are named 'hive'"):
        make_app(tmp_path, TASK_PACKAGES=(*PACKAGES, "server.tasks.hive"))
