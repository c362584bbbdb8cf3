"""What researchers read from a study: its analysis (analyze.py), tidy exports (export.py) and the dashboard's
numbers and plots (dashboard.py)."""
