"""Researchers' own jsPsych experiments (issue #24). experiment.py prepares a study's page and its packages (npm.py
reads the registry); the task type itself is the jsrun branch's."""
