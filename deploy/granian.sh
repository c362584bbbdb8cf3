#!/bin/sh
# The production app server: granian's WSGI interface in front of the Flask app, chosen over gunicorn gthread for
# more saves per CPU second and for answering every keep-alive connection of a Prolific launch (docs/operations.md,
# "The production setup", has the figures).
# Docker's CMD and `make bench-load` both start it through this file. Arguments are passed on (e.g. --port, the app);
# workers, threads, host and port also come from granian's own GRANIAN_* variables.
# GRANIAN_BLOCKING_THREADS is exported because server/config.py sizes the database pools by it.
export GRANIAN_WORKERS="${GRANIAN_WORKERS:-$(nproc)}"
export GRANIAN_BLOCKING_THREADS="${GRANIAN_BLOCKING_THREADS:-4}"
# Each worker's app, once built, does its first participants' first-use work before they come (server/config.py
# WARM_UP), and is then left out of the garbage collector's full collections (GC_FREEZE).
export STUDYHIVE_GC_FREEZE="${STUDYHIVE_GC_FREEZE:-1}"
export STUDYHIVE_WARM_UP="${STUDYHIVE_WARM_UP:-1}"
# A worker that dies (SIGKILL, out of memory) is started again, as gunicorn's master does. A worker respawned under
# load can ignore the SIGTERM of a later shutdown (granian 2.8.7; tests/test_faults.py hung on it), so shutdown
# kills workers still running after 8 s: in-flight saves take milliseconds, and Docker's stop gives 10 s.
set -- --interface wsgi --backlog 2048 --respawn-failed-workers --workers-kill-timeout 8 "$@"
[ "${STUDYHIVE_ACCESS_LOG:-1}" = 0 ] || set -- --access-log "$@"
exec "${GRANIAN:-granian}" "$@"
