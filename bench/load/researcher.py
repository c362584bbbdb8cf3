"""A researcher watching a study fill up, for `make bench-load`'s "launch + results" row: logged in to the dashboard,
reloading study3's results page every RELOAD_S seconds and pressing its Recompute button every RECOMPUTE_S seconds
while the Prolific launch runs. The page serves the stored result; each Recompute starts `flask analyze --store` in a
process of its own (refused while one runs), so what this adds to the participants' saves is that process's CPU and
the page's reads. What the researcher saw goes into the row's note."""

from __future__ import annotations

import re
import threading
import time

import numpy as np
import requests
import sqlalchemy as sa

from server import create_app
from server.db import dispose_engines
from server.researchers.auth import create_researcher, get_researcher

RELOAD_S = 2.0
RECOMPUTE_S = 10.0
USER, PASSWORD = "bench-researcher", "bench-load-password"
SLUG = "study3"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def ensure_account(url: str) -> None:
    """The researcher's account in the load database (the first one is an admin: it sees every study)."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench-load"})
    with app.app_context():
        if get_researcher(USER) is None:
            create_researcher(USER, PASSWORD)
        dispose_engines()


class Researcher(threading.Thread):
    """`with Researcher(base) as r:` works the results page in a thread until the block ends; r.summary(url)."""

    def __init__(self, base: str):
        super().__init__(daemon=True)
        self.base, self.stop = base, threading.Event()
        self.page_ms: list[float] = []
        self.errors: list[str] = []
        self.started = self.refused = 0
        self.http = requests.Session()

    def __enter__(self):
        login = self.http.get(f"{self.base}/researcher/login", timeout=30)
        answer = self.http.post(
            f"{self.base}/researcher/login",
            data={"username": USER, "password": PASSWORD, "csrf_token": CSRF.search(login.text).group(1)},
            timeout=30,
        )
        if answer.status_code != 200 or "/login" in answer.url:
            raise RuntimeError(f"the bench researcher could not log in ({answer.status_code})")
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.join()

    def run(self):
        page = f"{self.base}/researcher/studies/{SLUG}/results"
        token = None
        next_reload = next_recompute = time.monotonic()
        while not self.stop.is_set():
            try:
                if token and time.monotonic() >= next_recompute:
                    next_recompute += RECOMPUTE_S
                    answer = self.http.post(f"{page}/recompute", data={"csrf_token": token}, timeout=60)
                    self.started += "Recompute started" in answer.text
                    self.refused += "already running" in answer.text
                if time.monotonic() >= next_reload:
                    next_reload += RELOAD_S
                    t0 = time.monotonic()
                    answer = self.http.get(page, timeout=60)
                    self.page_ms.append((time.monotonic() - t0) * 1000)
                    if answer.status_code != 200:
                        self.errors.append(f"results page {answer.status_code}")
                    token = (CSRF.search(answer.text) or [None, token])[1]
            except requests.RequestException as exc:
                self.errors.append(type(exc).__name__)
            self.stop.wait(max(0.0, min(next_reload, next_recompute) - time.monotonic()))

    def summary(self, url: str) -> str:
        """What the researcher did and saw, and the last stored result (from the database at `url`)."""
        engine = sa.create_engine(url)
        with engine.connect() as connection:
            last = connection.execute(
                sa.text(
                    "SELECT r.generation, r.duration_s, r.problem IS NULL, g.generation FROM analysis_results r "
                    "JOIN studies s ON s.id = r.study_id LEFT JOIN data_generations g ON g.study_id = s.id "
                    "WHERE s.slug = :slug ORDER BY r.computed_at DESC LIMIT 1"
                ),
                {"slug": SLUG},
            ).first()
        engine.dispose()
        p50, p99 = np.percentile(self.page_ms, [50, 99]) if self.page_ms else (float("nan"),) * 2
        stored = (
            f"last stored: generation {last[0]} of {last[3] or 0}, computed in {last[1]:.1f} s"
            + ("" if last[2] else " (a problem, no report)")
            if last
            else "nothing stored"
        )
        return (
            f"researcher: {len(self.page_ms)} results-page loads every {RELOAD_S:g} s (p50 {p50:.0f} ms, "
            f"p99 {p99:.0f} ms, {len(self.errors)} errors), Recompute every {RECOMPUTE_S:g} s: {self.started} "
            f"started, {self.refused} refused while one ran; {stored}; the recompute processes' CPU counts as the "
            "app server's"
        )
