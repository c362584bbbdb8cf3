"""The task packages: one folder per task type (or family of types) with its TaskType, analyzer, demo generator and
page files. builtin.py lists the ones the app registers by default (server/tasktype/registry.py)."""
