"""Researchers' own jsPsych experiments (issue #24): the task type (task.py), the page's preparation at sync
(experiment.py) and the runtime the experiment's page gets (static/)."""

from .task import JsPsychExperiment

TASK_TYPES = (JsPsychExperiment,)
