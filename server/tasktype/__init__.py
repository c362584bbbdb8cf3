"""The task-type contract and what task packages build on: the contract and its capability classes (contract.py),
the registry of task types (registry.py), label vocabularies (vocabulary.py), stimulus manifest files
(manifest_files.py) and content-addressed assets (assets.py). Below every other area: it imports only the
foundation (db, models, exceptions, schema)."""
