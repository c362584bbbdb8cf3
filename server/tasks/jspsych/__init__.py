"""Researchers' own jsPsych experiments (issue #24): the task type (task.py); experiment.py prepares a study's page
and its packages at sync (npm.py reads the registry); static/ holds the page around the experiment (host.js) and the
runtime injected into it (runtime.js)."""

from .task import JsPsychExperiment

TASK_TYPES = (JsPsychExperiment,)
