"""Participants taking part: entry into a session with its plan (sessions.py), the participant API's operations
(session_api.py) on its cached data path (trialstore.py), and the participant URLs (links.py)."""
