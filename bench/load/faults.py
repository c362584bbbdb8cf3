"""Fault scenarios of `make bench-load`: a worker killed with SIGKILL mid-run, PostgreSQL restarted mid-run (on a
throwaway cluster of its own: the machine's server is shared), and a browser offline for a whole minute."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import sqlalchemy as sa

from .setup import SECONDS_FAULT, Server, free_port, fresh_database
from .table import Row


def kill_worker(server: Server):
    """SIGKILL one app-server worker: its in-flight requests die with their connections; the master starts another
    (granian with --respawn-failed-workers, deploy/granian.sh; gunicorn always)."""
    victim = server.busiest_worker()
    os.kill(victim, signal.SIGKILL)
    print(f"  killed worker {victim} with SIGKILL", flush=True)


def postgres_restart(run_crowd) -> Row:
    """200 participants against a throwaway PostgreSQL cluster (Debian's pg_createcluster, run as root) restarted
    mid-run with `pg_ctlcluster … restart -m fast`; the cluster is dropped afterwards."""
    version = sorted(os.listdir("/usr/lib/postgresql"))[-1]
    name, port = f"studyhive_fault_{os.getpid()}", free_port()
    subprocess.run(
        ["pg_createcluster", version, name, "-p", str(port), "--start", "--", "--auth=trust"],
        check=True,
        capture_output=True,
    )
    try:
        url = fresh_database(f"postgresql+psycopg://postgres@127.0.0.1:{port}/studyhive_load")

        def restart(_server):
            subprocess.run(
                ["pg_ctlcluster", "--skip-systemctl-redirect", version, name, "restart", "-m", "fast"],
                check=True,
                capture_output=True,
            )
            print(f"  restarted PostgreSQL cluster {version}/{name}", flush=True)

        with Server(url) as server:
            return run_crowd(server, 200, SECONDS_FAULT, "postgres-restart", during=restart)
    finally:
        subprocess.run(["pg_dropcluster", "--stop", version, name], capture_output=True)


def offline_browser(server: Server, offline_seconds: float = 60) -> Row:
    """One participant in headless Chromium does study3; after the practice trials the network drops for a minute
    while they answer on; then it returns, the queued answers go out, and the page completes."""
    from playwright.sync_api import sync_playwright

    from tests.test_e2e_study3 import COMPLETION, answer
    from tests.test_faults import entry_url, start

    pid = f"offline{int(time.time())}"
    started = time.monotonic()
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=os.environ.get("STUDYHIVE_CHROMIUM", "/usr/bin/chromium"),
            headless=True,
            args=["--no-sandbox", "--disable-gpu"],
        )
        page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
        start(page, entry_url(server.base, pid))  # answers the completion redirect locally: nothing leaves
        for index in range(5):
            answer(page, index, practice=True)
        page.get_by_role("button", name="Start").click()
        page.context.set_offline(True)
        went_offline = time.monotonic()
        for index in range(5, 30):
            answer(page, index, practice=False)
        time.sleep(max(0.0, offline_seconds - (time.monotonic() - went_offline)))
        page.context.set_offline(False)
        page.wait_for_url(COMPLETION, timeout=120_000)
        browser.close()
    engine = sa.create_engine(server.url)
    with engine.connect() as connection:
        rows = connection.execute(
            sa.text(
                "SELECT t.trial_index, s.status FROM trials t JOIN participant_sessions s ON s.id = t.session_id "
                "WHERE s.prolific_pid = :pid"
            ),
            {"pid": pid},
        ).all()
    engine.dispose()
    indexes = {index for index, _ in rows}
    completed = sum(1 for _, status in rows[:1] if status == "completed")
    return Row(
        f"browser offline {offline_seconds:.0f} s",
        1,
        len(rows),
        time.monotonic() - started,
        lost=30 - len(indexes & set(range(30))),
        duplicated=len(rows) - len(indexes),
        completed=f"{completed}/1",
        note="25 trials answered offline, sent on reconnect (sync.js)",
        server=server.kind,
    )
