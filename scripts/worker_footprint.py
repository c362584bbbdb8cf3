"""An app worker's start time and resident memory (docs/operations.md, "What a serving worker loads"): the demo
studies synced once into a SQLite file, then RUNS fresh interpreters of tests/serving_worker.py, each creating the
app and serving three participants; the medians, and the analysis-stack packages the workers imported.

Run from the checkout to measure, with its virtualenv: .venv/bin/python scripts/worker_footprint.py [RUNS]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = Path(__file__).resolve().parent.parent / "tests" / "serving_worker.py"


def demo_database(folder: Path) -> Path:
    """studies/ synced and put live, as the test suite's demo database (tests/conftest.py)."""
    sys.path.insert(0, os.getcwd())
    from tests.conftest import build_demo_database

    build_demo_database(folder)
    return folder / "test.sqlite"


def main(runs: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        template = demo_database(Path(scratch))
        results = []
        for i in range(runs):
            database = Path(scratch) / f"run{i}.sqlite"
            database.write_bytes(template.read_bytes())
            child = subprocess.run([sys.executable, str(CHILD), str(database)], capture_output=True, text=True)
            if child.returncode:
                sys.exit(f"{CHILD} failed:\n{child.stderr}")
            results.append(json.loads(child.stdout.splitlines()[-1]))
    for key in ("create_app_s", "create_app_cpu_s", "participants_s", "participants_cpu_s", "vm_rss_kib"):
        print(f"{key}: median {statistics.median(r[key] for r in results):.3f} (runs: {[r[key] for r in results]})")
    print("analysis stack imported:", sorted({name for r in results for name in r["loaded"]}))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
