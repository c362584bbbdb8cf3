"""In Chromium: a few rows of `make corpus` (issue #37), run by the bench's own machinery (bench/corpus/). Each
experiment is a published one kept unchanged in corpus/ (corpus/manifest.toml); it syncs as it is, from its pinned
packages (corpus/packages/, put in the study's packages/; the fake registry serves nothing, so nothing reaches the
network), a generic participant takes it from the entry link to its end, the stored rows equal jsPsych.data (count,
order, values) and Continue completes the session. One is taken again with three reloads and a stretch offline.
The whole corpus is `make corpus`, a bench of several minutes."""

from __future__ import annotations

import re

import pytest

from bench.corpus.__main__ import COLUMNS, experiments, run_one, site

# Experiment → the rows jsPsych.data holds at its end. One line adds an experiment.
SUBSET = {
    "jatos-gonogo6": 23,  # jsPsych 6.0.4 (jsPsych.init) as a local copy, written for JATOS, timeline variables
    "contrib-vas": 5,  # jsPsych 8 from unpkg by its major version, a custom plugin beside the page
    "contrib-ios": 1,  # the same, a plugin dragged with the mouse
    "contrib-libet": 4,  # pinned plugins from unpkg, preload of audio, instructions
    "psychophysics-survey": 11,  # a local jsPsych 8 copy one folder up, a pinned unpkg plugin, survey plugins
}
# Taken a second time with three reloads and OFFLINE_S offline (jsPsych 6 reloads: test_own_jspsych6_browser.py).
FAULTS = ("contrib-vas",)
OFFLINE_S = 5  # the bench's 30 s would double this file's time; the reload and offline path is the same
SECONDS = 30  # budget of one run in the browser; each of these ends in a few seconds


@pytest.mark.parametrize("name", SUBSET)
def test_corpus_experiment_runs_unchanged(name, browser, tmp_path):
    experiment = next(e for e in experiments() if e["name"] == name)
    with site(tmp_path) as (base, registry):
        cells = run_one(experiment, tmp_path / "studies", registry, browser, base, SECONDS, name in FAULTS, OFFLINE_S)
    row = dict(zip(COLUMNS, cells, strict=True))
    rows = SUBSET[name]
    assert row["synced unchanged"] == "yes", row["note"]
    assert row["rows = jsPsych.data"] == f"yes ({rows})", row["note"]
    assert row["completed"] == "yes", row["note"]
    faulted = row["3 reloads + 30 s offline: rows = jsPsych.data"]
    if name in FAULTS:
        assert re.fullmatch(rf"yes \({rows}; [1-3] reloads, [1-9]\d* s offline\)", faulted), (faulted, row["note"])
    else:
        assert faulted == "-"
