"""Study files checked against their schema (server/schema.py and the models of study.toml's tables): one message
per problem, `FILE: KEY: what`, every problem of a file at once; `flask studies schema` and the generated key
reference in docs/studies.md."""

import json
import tomllib
from pathlib import Path

import jsonschema
import pytest

from server.db import db, dispose_engines
from server.studies.definitions import StudyFileError, get_study, load_study_file, with_key_reference
from tests.conftest import ROOT, make_app

BASE = """title = "Bars"
task_type = "ratio-estimation"
platform = "prolific"
completion_code = "C3RATIO5"
consent = "<p>Consent</p>"

[task]
trials_per_type = 5
"""


@pytest.fixture
def studies(tmp_path):
    """An app context (validation needs its task registry, not its database) whose studies folder is empty
    (tmp_path/studies); yields the folder."""
    folder = tmp_path / "studies"
    folder.mkdir()
    with make_app(tmp_path, STUDIES_DIR=str(folder)).app_context():
        yield folder


@pytest.fixture
def database(studies):
    db.drop_all()
    db.create_all()
    yield
    db.session.remove()
    db.drop_all()
    dispose_engines()


def write(folder: Path, text: str, slug: str = "bars") -> Path:
    path = folder / slug / "study.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def errors_of(path: Path) -> list[str]:
    with pytest.raises(StudyFileError) as caught:
        load_study_file(path)
    lines = str(caught.value).split("\n")
    assert all(line.startswith(f"{path}: ") for line in lines), lines
    assert caught.value.errors == [line.removeprefix(f"{path}: ") for line in lines]
    return caught.value.errors


@pytest.mark.parametrize(
    "edit, error",
    [
        # wrong type: the case that ended `flask studies sync` with a traceback
        (("[task]", 'min_width = "wide"\n[task]'), 'min_width: expected an integer, got "wide"'),
        (("[task]", "demo_stimuli = 1\n[task]"), "demo_stimuli: expected true or false, got 1"),
        (
            ("[task]", 'instructions = "<p>one page</p>"\n[task]'),
            'instructions: expected a list, got "<p>one page</p>"',
        ),
        (("[task]", "instructions = [1]\n[task]"), "instructions[1]: expected text, got 1"),
        # out of range: negative sizes were accepted
        (("[task]", "min_height = -5\n[task]"), "min_height: expected at least 0, got -5"),
        (("[task]", "abandon_after_minutes = 0\n[task]"), "abandon_after_minutes: expected at least 1, got 0"),
        (('"prolific"', '"mturk"'), 'platform: expected one of "prolific", "labinthewild" or "direct", got "mturk"'),
        # unknown keys, with a did-you-mean for a near miss
        (("title =", "titel ="), ["title: required", 'titel: unknown key (did you mean "title"?)']),
        (("[task]", "colour = 1\n[task]"), "colour: unknown key"),
        # missing or blank required keys
        (('consent = "<p>Consent</p>"\n', ""), "consent: required"),
        (('"Bars"', '"  "'), 'title: expected text that is not blank, got "  "'),
        # URLs: only http(s)
        (
            ("[task]", 'completion_url = "javascript:alert(1)"\n[task]'),
            'completion_url: expected an http:// or https:// URL, got "javascript:alert(1)"',
        ),
        (
            ("[task]", 'completion_url = "https://"\n[task]'),
            'completion_url: expected an http:// or https:// URL, got "https://"',
        ),
        (
            ('"C3RATIO5"', '"C3 RATIO"'),
            'completion_code: expected a completion code (letters and digits), got "C3 RATIO"',
        ),
        (
            ("[task]", 'completion_url = "http://[::1"\n[task]'),
            'completion_url: expected an http:// or https:// URL, got "http://[::1"',
        ),
        (
            ('"C3RATIO5"', '"C3RATIO5\\n"'),  # a code travels in the completion URL: no trailing line break
            'completion_code: expected a completion code (letters and digits), got "C3RATIO5\\n"',
        ),
        # the task type's [task] table
        (("trials_per_type = 5", "trials_per_type = 8"), "task.trials_per_type: expected at most 7, got 8"),
        (("trials_per_type = 5", "trials_per_type = 5.0"), "task.trials_per_type: expected an integer, got 5.0"),
        (("trials_per_type = 5", 'practice = "yes"'), 'task.practice: expected true or false, got "yes"'),
        (("trials_per_type = 5", "variant = 2"), 'task.variant: unknown key (did you mean "variants"?)'),
        (
            ('"ratio-estimation"', '"mind-reading"'),
            'task_type: "mind-reading" is not registered (known: hive-agreement, '
            "hive-distinction, hive-output-prediction, hive-prototree, hypothesis-rating, jspsych, ratio-estimation, "
            "sketch-recognition)",
        ),
        # [[conditions]]
        (("[task]", "abandon_after_minutes = 30\n[task]"), None),
        (
            ("trials_per_type = 5", 'trials_per_type = 5\n[[conditions]]\nname = "a"\nquota = 0'),
            "conditions[1].quota: expected at least 1, got 0",
        ),
        (
            ("trials_per_type = 5", 'trials_per_type = 5\n[[conditions]]\nname = "a"\n[[conditions]]\nname = "b c"'),
            'conditions[2].name: expected an id (letters, digits, _ . -; at most 64), got "b c"',
        ),
        (
            ("trials_per_type = 5", 'trials_per_type = 5\n[[conditions]]\nname = "a"\n[[conditions]]\nname = "a"'),
            "conditions: condition 2's name 'a' repeats condition 1's",
        ),
        (
            (
                "trials_per_type = 5",
                'trials_per_type = 5\n[[conditions]]\nname = "a"\n[[conditions]]\nname = "b"\n'
                "[conditions.task]\nvariants = 0",
            ),
            "conditions[2].task.variants: expected at least 1, got 0",
        ),
        (("[task]", "conditions = []\n[task]"), "conditions: expected at least 1 item, got []"),
        # [prolific]
        (
            ("trials_per_type = 5", 'trials_per_type = 5\n[prolific]\nmax_bonus = "lots"'),
            'prolific.max_bonus: expected a number, got "lots"',
        ),
        (
            ("trials_per_type = 5", "trials_per_type = 5\n[prolific]\nmax_bonus = 0.001"),
            "prolific.max_bonus: expected a positive amount up to 1000000 with at most 2 decimals, got 0.001",
        ),
        (
            ("trials_per_type = 5", "trials_per_type = 5\n[prolific]\nmax_bonus = inf"),
            "prolific.max_bonus: expected a positive amount up to 1000000 with at most 2 decimals, got Infinity",
        ),
        (
            ("trials_per_type = 5", 'trials_per_type = 5\n[prolific.codes]\ncomplete = "C1"'),
            'prolific.codes.complete: unknown key (did you mean "completed"?)',
        ),
        (
            ("trials_per_type = 5", 'trials_per_type = 5\n[prolific]\ncodes = "C1"'),
            'prolific.codes: expected a table, got "C1"',
        ),
        # across keys
        (
            ("[task]", "demo_stimuli = true\n[task]"),
            "demo_stimuli: only for task types that draw demo stimuli, not ratio-estimation",
        ),
        (
            ('completion_code = "C3RATIO5"\n', ""),
            "a Prolific study needs completion_code ([prolific.codes] completed) or completion_url",
        ),
    ],
)
def test_each_kind_of_error_names_the_key_and_what_is_wrong(studies, edit, error):
    assert edit[0] in BASE
    path = write(studies, BASE.replace(*edit, 1))
    if error is None:  # the edit is valid: the case shows that the table around it is fine
        assert load_study_file(path)["abandon_after_minutes"] == 30
    else:
        assert errors_of(path) == (error if isinstance(error, list) else [error])


def test_every_error_of_a_file_is_reported_at_once(studies):
    text = (
        BASE.replace("title =", "titel =")
        .replace(
            "[task]",
            """min_width = "wide"
min_height = -1
completion_url = "ftp://example.org/done"
[prolific]
attention_check_failures = 0
[task]""",
        )
        .replace("trials_per_type = 5", 'trials_per_type = 0\ncolour = "red"')
    )
    assert errors_of(write(studies, text)) == [
        "title: required",
        'completion_url: expected an http:// or https:// URL, got "ftp://example.org/done"',
        'min_width: expected an integer, got "wide"',
        "min_height: expected at least 0, got -1",
        "prolific.attention_check_failures: expected at least 1, got 0",
        'titel: unknown key (did you mean "title"?)',
        "task.trials_per_type: expected at least 1, got 0",
        "task.colour: unknown key",
    ]
    # every condition's [conditions.task] at once, with the file's checks across keys
    text = BASE.replace(
        "trials_per_type = 5",
        """trials_per_type = 5
[[conditions]]
name = "a"
[conditions.task]
variants = 0
[[conditions]]
name = "b"
[conditions.task]
practice = 1""",
    ).replace("[task]", "demo_stimuli = true\n[task]")
    assert errors_of(write(studies, text)) == [
        "demo_stimuli: only for task types that draw demo stimuli, not ratio-estimation",
        "conditions[1].task.variants: expected at least 1, got 0",
        "conditions[2].task.practice: expected true or false, got 1",
    ]


def test_each_task_types_table_is_checked_by_its_own_model(studies):
    head = 'title = "T"\nconsent = "c"\n'
    cases = {
        "hive-output-prediction": (
            'method = "lime"\nn_trials = 500\nsimilarity_ratings = true\noutput_prediction = true',
            [
                'task.method: expected one of "gradcam", "bagnet", "protopnet" or "prototree", got "lime"',
                "task.n_trials: expected at most 200, got 500",
                "task.similarity_ratings: similarity ratings are asked in the agreement and distinction tasks only",
                "task.output_prediction: output prediction is asked beside distinction only (alone: task type "
                "hive-output-prediction)",
            ],
        ),
        "hive-prototree": (
            'method = "gradcam"\ncorrect_share = 1.5',
            [
                'task.method: expected one of "prototree", got "gradcam"',
                "task.correct_share: expected at most 1, got 1.5",
            ],
        ),
        "hypothesis-rating": (
            'columns = 3\nscore_edges = [0.5, 0.2]\n[[task.statements]]\nid = "a"\ntext = "A"',
            [
                "task.score_edges: expected 2 increasing numbers (the boundaries between the columns), got [0.5, 0.2]",
                "task.statements[1].relevant: required",
            ],
        ),
        "sketch-recognition": (
            'vocabulary = ""\ntrials = 0\nsemantic_space = "nowhere.csv"',
            [
                'task.vocabulary: expected text that is not blank, got ""',
                "task.trials: expected at least 1, got 0",
                "task.semantic_space: expected a concept similarity or embedding CSV that exists (a path relative to "
                'the studies folder), got "nowhere.csv"',
            ],
        ),
        "jspsych": (
            "min_rows = 1\n[task.jatos]\ncomponent_input = {a = [1, 1979-05-27]}\nbatch_input = nan\nstudy_inpt = 1",
            [
                "task.jatos.component_input: expected what JSON can hold at a[1] (not a TOML date or time, nan or "
                "inf: write it as text), got a table",
                "task.jatos.batch_input: expected what JSON can hold (not a TOML date or time, nan or inf: write it "
                "as text), got NaN",
                'task.jatos.study_inpt: unknown key (did you mean "study_input"?)',
            ],
        ),
    }
    for task_type, (table, expected) in cases.items():
        path = write(studies, f'{head}task_type = "{task_type}"\n[task]\n{table}\n', slug=task_type)
        assert errors_of(path) == expected, task_type


@pytest.mark.db
def test_sync_reports_a_bad_file_without_a_traceback_and_writes_nothing_of_it(studies, database):
    """A bad study file is reported with every error it has and writes nothing; the other studies sync all the same
    (each on its own: tests/test_sync_per_study.py)."""
    from flask import current_app

    write(studies, BASE, slug="good")
    write(studies, BASE.replace("[task]", 'min_width = "wide"\n[task]').replace("= 5", "= -5"), slug="bad")
    result = current_app.test_cli_runner().invoke(args=["studies", "sync"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    bad = studies / "bad" / "study.toml"
    assert result.output == (
        "good: created (version 1), 197 new stimuli\n"
        "previews unseen for 24 h: deleted 0 session(s)\n"
        "Error: 1 of 2 studies not synced; each keeps the version it had:\n"
        f'{bad}: min_width: expected an integer, got "wide"\n'
        f"{bad}: task.trials_per_type: expected at least 1, got -5\n"
    )
    assert get_study("good").config["min_width"] == 1280 and get_study("bad") is None
    (studies / "bad" / "study.toml").unlink()
    result = current_app.test_cli_runner().invoke(args=["studies", "sync"])
    assert result.exit_code == 0 and result.output.startswith("good: unchanged"), result.output


def test_the_json_schema_takes_the_demo_studies_and_refuses_what_sync_refuses(studies, tmp_path):
    from flask import current_app

    out = tmp_path / "study.schema.json"
    result = current_app.test_cli_runner().invoke(args=["studies", "schema", "--out", str(out)])
    assert result.exit_code == 0, result.output
    schema = json.loads(out.read_text())
    printed = current_app.test_cli_runner().invoke(args=["studies", "schema"]).output
    assert json.loads(printed) == schema
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    demos = sorted((ROOT / "studies").glob("*/study.toml"))
    assert len(demos) >= 7
    for path in demos:
        assert not list(validator.iter_errors(tomllib.loads(path.read_text()))), path
    base = tomllib.loads(BASE)
    for bad in (
        {"min_width": "wide"},
        {"min_height": -1},
        {"titel": "x"},
        {"platform": "mturk"},
        {"completion_url": "javascript:alert(1)"},
        {"task": {"trials_per_type": 8}},
        {"task": {"colour": 1}},
        {"task_type": "mind-reading"},
        {"conditions": [{"name": "a", "quota": 0}]},
        {"prolific": {"codes": {"complete": "C1"}}},
    ):
        assert list(validator.iter_errors({**base, **bad})), bad
        with pytest.raises(StudyFileError):
            load_study_file(write(studies, _toml({**base, **bad}), slug="probe"))


def _toml(table: dict) -> str:
    """A flat TOML writer for the probes above: top-level values, then one level of tables and arrays of tables."""
    lines, tables = [], []
    for key, value in table.items():
        if isinstance(value, dict):
            tables.append(f"[{key}]\n" + "".join(f"{k} = {_value(v)}\n" for k, v in value.items()))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            tables += [f"[[{key}]]\n" + "".join(f"{k} = {_value(v)}\n" for k, v in item.items()) for item in value]
        else:
            lines.append(f"{key} = {_value(value)}\n")
    return "".join(lines) + "".join(tables)


def _value(value) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_value(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def test_the_key_reference_in_the_docs_is_current(studies):
    docs = (ROOT / "docs" / "studies.md").read_text(encoding="utf-8")
    assert with_key_reference(docs) == docs, "run: flask studies keys --update docs/studies.md"
    for key in (
        "`min_width`",
        "`abandon_after_minutes`",
        "`max_bonus`",
        "`trials_per_type`",
        "`semantic_space`",
        "`similarity_ratings`",
        "`statements`",
        "`incompatible_device`",
    ):
        assert key in docs
    with pytest.raises(ValueError, match="markers are missing"):
        with_key_reference("# no markers\n")
