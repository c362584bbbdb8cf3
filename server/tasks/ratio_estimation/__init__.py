"""Ratio estimation on Cleveland–McGill bar charts: the task type (task.py), its chart generator (charts.py), the
training-set sampling for models (sampling.py), the Study III analysis (analyzer.py) and the page's plugin
(static/ratio-estimate.js)."""

from .task import RatioEstimation

TASK_TYPES = (RatioEstimation,)
