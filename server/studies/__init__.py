"""Study definitions: study.toml loaded and synced (definitions.py), every synced version kept (versions.py), and
the parts a study file declares: between-subjects conditions (conditions.py) and questionnaires (surveys.py)."""
