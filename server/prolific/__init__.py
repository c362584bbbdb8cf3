"""Prolific from end to end (docs/prolific.md): the researcher API client (client.py, no Flask), the study file's
`[prolific]` table (settings.py), reading submissions into the database (submissions.py), approvals and rejections
(reviews.py), bonus batches paid at most once (bonuses.py), the audit log of every call (audit.py), and
`flask prolific …` (cli.py)."""
