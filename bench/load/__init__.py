"""`make bench-load`: participants under load against gunicorn + PostgreSQL, faults, and pgbench's ceiling."""
