"""gunicorn settings for the production setup (docker compose). Threads per worker let a worker keep serving while
another request waits on PostgreSQL; workers scale with the cores."""
import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", 4))
timeout = 30
graceful_timeout = 20
accesslog = "-"
