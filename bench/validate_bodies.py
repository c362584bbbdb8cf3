"""CPU time of the participant API's validation of a typical /trials body (a ratio-estimation answer with three
interaction records) and a typical /rows body (a jsPsych row with two), from the request's raw bytes to the record
that is stored: session_api.save_trial and save_row with the database calls stubbed (no statement runs). Figures in
docs/operations.md.

    PYTHONPATH=. .venv/bin/python bench/validate_bodies.py                       # this checkout
    PYTHONPATH=/path/to/other/checkout .venv/bin/python bench/validate_bodies.py  # another one, to compare

Checkouts from before the schema models (server/participation/bodies.py) read the body as Flask's get_json did
(json.loads, then the nesting check) and hand the object to the same functions; from then on the functions take the
bytes."""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
import timeit
from datetime import UTC, datetime

from server import create_app
from server.participation import session_api, trialstore
from server.tasktype.registry import registry
from server.web import api, openapi

PLAN = [{"index": 0, "stimulus_id": "p1-s20-t50-v0", "practice": False, "presented": None}]
# The API document's examples (a typical ratio trial with interaction records; an own experiment's row), the row with
# a jsPsych stimulus and node id as a real row has them.
TRIAL = openapi.TRIAL_EXAMPLE
ROW = {**openapi.ROW_EXAMPLE, "row": {**openapi.ROW_EXAMPLE["row"], "stimulus": "<p>Which is larger?</p>",
       "internal_node_id": "0.0-3.0"}}  # fmt: skip


def stub_database(task_type: str, params: dict) -> None:
    """The trialstore calls save_trial and save_row make, answered without a database: the study's facts, the
    planned stimulus, consent given, every INSERT stores."""
    study = trialstore.StudyFacts(slug="bench", task_type=task_type, config={"task": params}, read_at=0.0)
    trialstore.study_facts = lambda connection, study_id: study
    trialstore.stimulus = lambda connection, study_id, key: (1, {"true_percent": 40.0})
    trialstore.consented = lambda connection, session: True
    trialstore.insert_unless_stored = lambda connection, table, row: True
    trialstore.insert_row_unless_stored = lambda connection, record: True
    trialstore.touch = lambda connection, session: None


def session() -> trialstore.SessionFacts:
    fields = trialstore.SessionFacts.__dataclass_fields__
    values = {
        "id": 1,
        "token": "t" * 32,
        "study_id": 1,
        "study_version": 1,
        "platform": "direct",
        "plan": PLAN,
        "touched_at": datetime.now(UTC),
        "consented": True,
        "preview": False,
    }
    values.update({name: {} for name in fields if name not in values})  # the raw platform ids: none
    return trialstore.SessionFacts(**values)


def saver(save, raw: bytes):
    """A call of `save` on the raw bytes as this checkout's view makes it."""
    facts = session()
    if hasattr(api, "body_bytes"):  # the schema models read the bytes themselves
        return lambda: save(None, facts, raw)

    def from_object():
        body = json.loads(raw)
        if api._nests_deeper(body, api.MAX_BODY_DEPTH):
            raise AssertionError("too deep")
        return save(None, facts, body)

    return from_object


def measure(call, repeat: int = 7, number: int = 10_000) -> float:
    """The median over `repeat` runs of microseconds of this process's CPU per call (CPU, not wall-clock time: the
    figure holds on a machine busy with other work)."""
    runs = timeit.repeat(call, repeat=repeat, number=number, timer=time.process_time)
    return statistics.median(runs) / number * 1e6


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/b"})
        with app.app_context():
            tasks = registry()
            stub_database("ratio-estimation", {})
            trial = saver(session_api.save_trial, json.dumps(TRIAL).encode())
            assert trial()[0] == 201
            trial_us = measure(trial)
            params = {"row_limit_kb": 64}
            stub_database("jspsych", params)
            assert tasks.get("jspsych").row_limit(params)
            row = saver(session_api.save_row, json.dumps(ROW).encode())
            assert row()[0] == 201
            row_us = measure(row)
    where = os.environ.get("PYTHONPATH", "")
    print(f"{where}: /trials {trial_us:.1f} µs, /rows {row_us:.1f} µs per body (CPU, median of 7 × 10,000)")


if __name__ == "__main__":
    sys.exit(main())
