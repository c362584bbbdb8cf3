"""Researchers' accounts and actions: accounts, study access and API tokens (auth.py), and excluding or reinstating
participants' sessions (exclusion.py)."""
