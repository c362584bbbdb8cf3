"""Sketch recognition with a fixed vocabulary: the task type (task.py), its analysis (analyzer.py), the demo
sketches (demo.py) and the page's plugin and styles (static/). The vocabulary files are
server/tasktype/vocabulary.py's."""

from .task import SketchRecognition

TASK_TYPES = (SketchRecognition,)
