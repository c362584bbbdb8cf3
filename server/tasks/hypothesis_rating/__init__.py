"""Two4Two-style hypothesis rating: the task type (task.py), its analysis (analyzer.py), the demo images (demo.py)
and the page's plugin and styles (static/)."""

from .task import HypothesisRating

TASK_TYPES = (HypothesisRating,)
