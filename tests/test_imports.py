"""Every module of `server` and `analysis` imports on its own, in a fresh interpreter: no module works only because
another one of ours happened to be imported first (an import cycle that the order of imports hides).

A fresh interpreter per module costs seconds each for pandas, SciPy and matplotlib, so one interpreter loads those
third-party libraries (and none of our modules), then forks a child per module, two at a time: each child starts
with none of `server` or `analysis` imported."""

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import analysis
import server

ROOT = Path(__file__).resolve().parent.parent

ZYGOTE = """
import importlib, json, multiprocessing, sys, traceback
import flask, flask_migrate, flask_sqlalchemy, flask_wtf, sqlalchemy, numpy, pandas, pyarrow, scipy.stats, pingouin
import matplotlib.figure, PIL.Image, requests, tqdm
assert not [m for m in sys.modules if m.split(".")[0] in ("server", "analysis")]

def import_alone(name):
    try:
        importlib.import_module(name)
        return name, None
    except Exception:
        return name, traceback.format_exc().strip().splitlines()[-1]

with multiprocessing.get_context("fork").Pool(2, maxtasksperchild=1) as pool:
    print(json.dumps([r for r in pool.map(import_alone, sys.argv[1:], chunksize=1) if r[1]]))
"""


def modules(package) -> list[str]:
    return [package.__name__] + sorted(m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + "."))


def test_every_module_imports_on_its_own():
    names = modules(server) + modules(analysis)
    assert {
        "server.tasks.hive.analyzer",
        "server.web.api",
        "server.participation.session_api",  # the walk reaches every area
        "server.tasktype.contract",
        "analysis.reports.ratio_study",
    } <= set(names)
    done = subprocess.run([sys.executable, "-c", ZYGOTE, *names], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
