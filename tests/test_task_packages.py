"""A task type is one package plus one line: a package written to a temporary folder, named in TASK_PACKAGES or
offered by an installed distribution's `studyhive.task_types` entry point, runs a participant session (plan, page
assets, trial save, completion, results summary) and shows up in the export — without a change to any generic module.
The platform asks a type's declared capabilities: one with none has no plan, and what needs stimuli refuses it."""

import re
import sys
import textwrap
from contextlib import contextmanager

import pytest

from server.db import db, dispose_engines
from server.studies.definitions import sync_studies
from server.tasks.builtin import PACKAGES
from server.tasktype.contract import TaskType
from server.tasktype.registry import registry
from tests.conftest import make_app
from tests.helpers import answer_surveys, enter

PACKAGE = '''
    """A two-stimulus yes/no task, written by tests/test_task_packages.py."""
    from server.exceptions import ConfigError, ResponseError
    from server.tasktype.contract import Column, GeneratedStimuli, PlanItem, StimulusSpec


    class TinyChoice(GeneratedStimuli):
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

STUDY = """
    title = "Dots"
    task_type = "tiny-choice"
    consent = "<p>Fine?</p>"
    flow = ["consent", "instructions", "task", "score"]
"""


def write_package(lib, name):
    """The tiny task package as `lib`/`name`, with its page files."""
    package = lib / name
    (package / "static").mkdir(parents=True)
    (package / "__init__.py").write_text(textwrap.dedent(PACKAGE))
    (package / "static" / "tiny.js").write_text('StudyhiveTasks["tiny-choice"] = {};\n')
    (package / "static" / "tiny.css").write_text(".tiny { color: black; }\n")


def write_distribution(lib, name, entry_points):
    """An installed distribution `name` 0.1 in `lib` (metadata only, as pip leaves it) with `entry_points`
    (entry_points.txt's lines for the studyhive.task_types group)."""
    info = lib / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[studyhive.task_types]\n" + "".join(f"{line}\n" for line in entry_points))


@contextmanager
def synced_app(tmp_path, task_type="tiny-choice", register=(), **config):
    """An app with a database and one study, "dots", of `task_type`, after registering the `register` instances."""
    study = tmp_path / "studies" / "dots"
    study.mkdir(parents=True)
    (study / "study.toml").write_text(textwrap.dedent(STUDY).replace("tiny-choice", task_type))
    app = make_app(tmp_path, STUDIES_DIR=str(tmp_path / "studies"), **config)
    with app.app_context():
        for task in register:
            registry().register(task)
        db.drop_all()
        db.create_all()
        sync_studies(tmp_path / "studies")
        yield app
        db.session.remove()
        db.drop_all()
        dispose_engines()


@pytest.fixture
def lib(tmp_path, monkeypatch):
    """A folder on sys.path for packages and distributions written by the test; they are forgotten afterwards."""
    folder = tmp_path / "lib"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    yield folder
    for name in [
        m for m, module in sys.modules.items() if str(getattr(module, "__file__", "")).startswith(str(folder))
    ]:
        sys.modules.pop(name)


def run_participant(app, tmp_path, package):
    """A participant through the tiny task served from `package`, then its export and `flask analyze`."""
    client, runner = app.test_client(), app.test_cli_runner()
    token = enter(client, "dots")
    page = client.get(f"/study/dots/s/{token}").get_data(as_text=True)
    # The page names the files by their content hash (server/web/static_files.py).
    script_url = re.search(rf'<script src="(/tasks/{package}/tiny\.[0-9a-f]{{12}}\.js)">', page)[1]
    assert re.search(rf'href="/tasks/{package}/tiny\.[0-9a-f]{{12}}\.css"', page)
    script = client.get(script_url)
    assert script.status_code == 200 and b'StudyhiveTasks["tiny-choice"]' in script.data
    assert client.get(f"/tasks/{package}/../__init__.py").status_code == 404  # only the static/ folder is served
    assert client.get("/tasks/nosuchpackage/tiny.js").status_code == 404

    answer_surveys(client, token)
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    assert sorted(item["stimulus_id"] for item in plan) == ["blank", "dot"]
    assert client.get(plan[0]["stimulus_url"]).mimetype == "image/svg+xml"
    bad = client.post(
        f"/api/sessions/{token}/trials",
        json={
            "trial_id": "tiny-0000",
            "trial_index": 0,
            "stimulus_id": plan[0]["stimulus_id"],
            "response": {"choice": 7},
        },
    )
    assert bad.status_code == 422 and bad.get_json()["field"] == "response.choice"
    for item in plan:
        body = {
            "trial_id": f"tiny-000{item['index']}",
            "trial_index": item["index"],
            "stimulus_id": item["stimulus_id"],
            "response": {"choice": 1},
        }
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


@pytest.mark.db
def test_a_task_package_from_a_folder_runs_a_session_and_exports(lib, tmp_path):
    write_package(lib, "tinytask")
    with synced_app(tmp_path, TASK_PACKAGES=(*PACKAGES, "tinytask")) as app:
        run_participant(app, tmp_path, "tinytask")


@pytest.mark.db
def test_a_task_type_from_an_entry_point_runs_a_session_and_exports(lib, tmp_path):
    write_package(lib, "tinyep")
    write_distribution(lib, "tinyep", ["tiny-choice = tinyep:TinyChoice"])
    with synced_app(tmp_path) as app:  # TASK_PACKAGES as by default: the type comes from the distribution
        assert registry().page_files(registry().get("tiny-choice")) == [("tinyep", "tiny.css"), ("tinyep", "tiny.js")]
        run_participant(app, tmp_path, "tinyep")


def test_a_task_type_from_two_sources_is_refused_naming_both(lib, tmp_path):
    write_package(lib, "tinytask")
    write_package(lib, "tinyep")
    write_distribution(lib, "tinyep", ["tiny-choice = tinyep:TinyChoice"])
    with pytest.raises(ValueError) as refused:
        make_app(tmp_path, TASK_PACKAGES=(*PACKAGES, "tinytask"))
    assert str(refused.value) == (
        "task type id 'tiny-choice' is already registered, from task package 'tinytask' (TASK_PACKAGES) (TinyChoice); "
        "entry point tiny-choice = tinyep:TinyChoice (studyhive.task_types) of tinyep 0.1 offers it again "
        "(TinyChoice)"
    )


@pytest.mark.parametrize(
    "line, message",
    [
        ("tiny = tinyep:TinyChoice", "the entry point's name must be the task type's id, 'tiny-choice'"),
        ("tiny-choice = tinyep:PACKAGE_NOTE", "'a note' is not a subclass of server.tasktype.contract.TaskType"),
        (
            "tiny-choice = tinyep:Unfinished",
            "task type Unfinished does not define build_plan, render_stimulus, stimuli, validate_response",
        ),
    ],
)
def test_a_bad_entry_point_is_refused_naming_it(lib, tmp_path, line, message):
    write_package(lib, "tinyep")
    with open(lib / "tinyep" / "__init__.py", "a") as fh:
        fh.write('PACKAGE_NOTE = "a note"\n\n\nclass Unfinished(GeneratedStimuli):\n    id = "unfinished"\n')
    write_distribution(lib, "tinyep", [line])
    with pytest.raises(ValueError) as refused:
        make_app(tmp_path)
    assert str(refused.value) == f"entry point {line} (studyhive.task_types) of tinyep 0.1: {message}"


class Questionnaire(TaskType):
    """A type declaring no capability: no stimuli, no fixed plan, no analysis, nothing for models."""

    id = "questionnaire"
    name = "Answer in your own words"

    def validate_response(self, response, params, shown):
        return response


@pytest.mark.db
def test_a_task_type_without_capabilities_has_no_plan_and_what_needs_one_refuses_it(tmp_path):
    with synced_app(tmp_path, "questionnaire", register=[Questionnaire()]) as app:
        client, runner = app.test_client(), app.test_cli_runner()
        token = enter(client, "dots")
        assert client.get(f"/api/sessions/{token}").get_json()["plan"] == []
        refusals = {
            ("analyze", "dots"): "does not support task type 'questionnaire'",
            ("stimuli", "export", "dots", "--out", str(tmp_path / "a")): "has no stimuli for models",
            ("stimuli", "export", "dots", "--out", str(tmp_path / "b"), "--training", "4"): "cannot draw training sets",
            (
                "stimuli",
                "import",
                "dots",
                str(tmp_path / "m.csv"),
                "--images",
                str(tmp_path),
            ): "has no stimuli to import",
            (
                "import-predictions",
                "dots",
                str(tmp_path / "p.csv"),
                "--observer",
                "m",
                "--unit",
                "percent",
            ): "has no stimuli for models to answer",
            ("import-label-predictions", "dots", str(tmp_path / "p.csv"), "--observer", "m"): "has no label vocabulary",
        }
        (tmp_path / "m.csv").write_text("image_id\nx\n")
        (tmp_path / "p.csv").write_text("stimulus_id,prediction\nx,1\n")
        for args, message in refusals.items():
            result = runner.invoke(args=list(args))
            assert result.exit_code != 0 and message in result.output, (args, result.output)
        assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_a_duplicate_task_package_is_refused(tmp_path):
    with pytest.raises(ValueError, match="two task packages are named 'hive'"):
        make_app(tmp_path, TASK_PACKAGES=(*PACKAGES, "server.tasks.hive"))
