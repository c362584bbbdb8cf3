"""HIVE (Kim et al., ECCV 2022): four task types on visual explanations that share one manifest, one export layout,
one analysis and one jsPsych plugin: task.py, analyzer.py, demo.py (the demo photos and explanations) and static/."""

from .task import HIVE_TASKS

TASK_TYPES = HIVE_TASKS
