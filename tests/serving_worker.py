"""One app worker's life as a participant sees it, in a fresh interpreter: create the app on a synced SQLite file,
then enter, consent, save trials or rows (and the timeline's end) and complete three demo studies (ratio
estimation, hypothesis rating, an own jsPsych experiment) through the JSON API. Prints one JSON line: the seconds
create_app() and the requests took (and their CPU seconds: wall time depends on the machine's load), the
worker's resident memory (VmRSS) and the analysis-stack packages it has imported.

Run by tests/test_serving_imports.py (sys.modules is shared inside pytest, hence a process of its own) and by
scripts/worker_footprint.py (the figures in docs/operations.md). Usage: python tests/serving_worker.py DATABASE.sqlite
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from pathlib import Path

# What the analysis set (requirements-analysis.txt) installs, and what a serving worker should never have imported.
ANALYSIS_STACK = (
    "pandas",
    "scipy",
    "pingouin",
    "statsmodels",
    "sklearn",
    "seaborn",
    "matplotlib",
    "pyarrow",
    "numpy",
    "PIL",
)


def vm_rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def participate(client) -> None:
    from tests.helpers import answer_all, answer_surveys, enter, rate_all

    for slug, answer in (("study3", answer_all), ("two4two-demo", lambda c, t: rate_all(c, t, 4))):
        token = enter(client, slug)
        answer_surveys(client, token)
        answer(client, token)
        response = client.post(f"/api/sessions/{token}/complete")
        assert response.status_code == 200, (slug, response.get_json())
    token = enter(client, "visual-search")
    for i in range(34):  # the demo's full run (studies/visual-search/study.toml)
        body = {"trial_id": str(uuid.uuid4()), "row": {"trial_type": "html-button-response", "trial_index": i}}
        assert client.post(f"/api/sessions/{token}/rows", json=body).status_code == 201
    assert client.post(f"/api/sessions/{token}/timeline-finished", json={}).status_code == 200
    response = client.post(f"/api/sessions/{token}/complete", json={})
    assert response.status_code == 200, response.get_json()


def main(database: str) -> None:
    root = os.getcwd()
    sys.path.insert(0, root)
    started, started_cpu = time.perf_counter(), time.process_time()
    from server import create_app

    app = create_app(
        {
            "SECRET_KEY": "serving-worker",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "WARM_UP": True,  # as deploy/granian.sh's workers: what it builds must not need the analysis set either
            "STUDIES_DIR": str(Path(root) / "studies"),
        }
    )
    created, created_cpu = time.perf_counter(), time.process_time()
    with app.app_context():
        participate(app.test_client())
    served, served_cpu = time.perf_counter(), time.process_time()
    loaded = sorted(name for name in ANALYSIS_STACK if name in sys.modules)
    print(
        json.dumps(
            {
                "create_app_s": created - started,
                "create_app_cpu_s": created_cpu - started_cpu,
                "participants_s": served - created,
                "participants_cpu_s": served_cpu - created_cpu,
                "vm_rss_kib": vm_rss_kib(),
                "loaded": loaded,
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1])
