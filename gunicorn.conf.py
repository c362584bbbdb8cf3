"""gunicorn settings: granian serves the production setup (deploy/granian.sh); `make bench-load` measures both.

The participant API is CPU-bound Python, so a worker per core plus one keeps every core busy while another waits on
PostgreSQL, and a few threads per worker overlap the database round trips; other worker and thread counts and gevent
workers were no faster (docs/operations.md, "Second round", has the figures). gthread keeps idle
keep-alive connections in a poller, not in threads, so 1,000 participants do not need 1,000 threads. Each worker's
SQLAlchemy pools (the ORM's and the participant API's autocommit one) hold one connection per thread each
(server/config.py reads GUNICORN_THREADS), so PostgreSQL sees workers × 2 × (threads + 2) connections at most."""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() + 1))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", 4))
worker_connections = 2000  # open (mostly idle keep-alive) connections per worker
keepalive = 30  # seconds; participants save a trial every few seconds over one connection
backlog = 2048
timeout = 30
graceful_timeout = 20
# gunicorn 27's control socket lives at one path per user (~/.gunicorn): two servers on a machine would fight over it.
control_socket_disable = True
# One line per request to stdout; STUDYHIVE_ACCESS_LOG=0 turns it off (the load benchmark does).
accesslog = "-" if os.environ.get("STUDYHIVE_ACCESS_LOG", "1") != "0" else None
# Each worker's app, once built, does its first participants' first-use work before they come (server/config.py
# WARM_UP), and is then left out of the garbage collector's full collections (GC_FREEZE).
os.environ.setdefault("STUDYHIVE_GC_FREEZE", "1")
os.environ.setdefault("STUDYHIVE_WARM_UP", "1")
