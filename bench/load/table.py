"""One row per scenario, printed as a Markdown table."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..tables import markdown_table


@dataclass
class Row:
    scenario: str
    participants: int | str
    saves: int  # acknowledged trial saves in the measured window
    seconds: float
    p50: float | None = None  # ms
    p95: float | None = None
    p99: float | None = None
    retries: int = 0
    errors: int = 0
    lost: int | None = None
    duplicated: int | None = None
    completed: str = ""
    note: str = ""
    server: str = "gunicorn"
    entry_p50: float | None = None  # ms, the entry link (session created, 303 to the page)
    entry_p99: float | None = None
    cpu_ms: float | None = None  # server CPU per acknowledged save: app server(s) + PostgreSQL backends, ms
    pg_ms: float | None = None  # of which PostgreSQL's backends
    client_cpu: float | None = None  # the load generator's CPU, share of the machine's cores
    load: str = ""  # /proc/loadavg's 1-minute figure when the scenario started
    request_cpu_ms: float | None = None  # the empty view (floor): app server CPU per request, ms

    @property
    def rate(self) -> float:
        return self.saves / self.seconds if self.seconds else float("nan")

    @property
    def ok(self) -> bool:
        return not self.errors and not self.lost and not self.duplicated

    @classmethod
    def from_tally(cls, name, concurrency, seconds, start, elapsed, tally, check, note=""):
        # The window opens when the client says (paced: every seat taken), else with the first acknowledged save.
        first = tally.window or min(tally.save_times, default=start)
        in_window = sum(1 for t in tally.save_times if first <= t <= first + seconds)
        latencies = [seconds_ for t, seconds_ in tally.save_latencies if first <= t <= first + seconds]
        p50, p95, p99 = np.percentile(latencies, [50, 95, 99]) * 1000 if latencies else (None, None, None)
        return cls(
            name,
            concurrency,
            in_window,
            seconds,
            p50,
            p95,
            p99,
            tally.retries,
            len(tally.errors),
            check["lost"],
            check["duplicated"],
            f"{check['completed']}/{tally.started}",
            "; ".join(filter(None, [note, check["note"], *sorted(set(tally.errors))[:3]])),
        )


HEADER = (
    "scenario",
    "server",
    "participants",
    "trial saves",
    "seconds",
    "saves/s",
    "p50 ms",
    "p95 ms",
    "p99 ms",
    "entry p50 ms",
    "entry p99 ms",
    "server CPU ms/save",
    "of which PostgreSQL",
    "client CPU",
    "retries",
    "errors",
    "lost",
    "duplicated",
    "completed",
    "load avg",
    "note",
)


def _cell(value, fmt="{:,.1f}"):
    return "–" if value is None else fmt.format(value)


def print_table(rows: list[Row], out=None):
    lines = [HEADER] + [
        (
            r.scenario,
            r.server,
            str(r.participants),
            f"{r.saves:,}",
            f"{r.seconds:.0f}",
            f"{r.rate:,.0f}",
            _cell(r.p50),
            _cell(r.p95),
            _cell(r.p99),
            _cell(r.entry_p50),
            _cell(r.entry_p99),
            _cell(r.cpu_ms, "{:.2f}"),
            _cell(r.pg_ms, "{:.2f}"),
            _cell(r.client_cpu, "{:.0%}"),
            str(r.retries),
            str(r.errors),
            _cell(r.lost, "{}"),
            _cell(r.duplicated, "{}"),
            r.completed,
            r.load,
            r.note,
        )
        for r in rows
    ]
    print(markdown_table(lines), file=out, flush=True)
