"""Where a save's server CPU goes: py-spy samples the app server's workers while wrk drives participants, and each
sample is charged to the layer that was running.

A sample is charged to the innermost frame that belongs to a known layer (so `socket.send` under gunicorn is
gunicorn's, `json.dumps` under Flask is JSON's): the HTTP server (gunicorn or granian), Flask and Werkzeug, JSON,
SQLAlchemy, psycopg, and studyhive's own code (server/). PostgreSQL's share comes from /proc (bench/load/wrk.py),
not from here. Only the thread holding the GIL is sampled (`--gil`): what a worker runs, not what it waits on.
py-spy slows what it samples a little; the shares, not the rate, are what this run is for.
"""

from __future__ import annotations

import collections
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from server.config import PROJECT_ROOT

# Checked in this order on each frame's file, from the innermost frame outwards.
LAYERS = [
    ("JSON encoding/decoding", re.compile(r"(^|/)(json|orjson)/")),
    ("psycopg (driver)", re.compile(r"(^|/)(psycopg|psycopg_binary|psycopg_pool)/")),
    ("SQLAlchemy", re.compile(r"(^|/)sqlalchemy/")),
    ("Flask/Werkzeug", re.compile(r"(^|/)(flask|werkzeug|flask_sqlalchemy|jinja2|markupsafe|itsdangerous)/")),
    ("HTTP server (gunicorn/granian)", re.compile(r"(^|/)(gunicorn|granian)/")),
    ("studyhive (server/)", re.compile(r"(^|/)server/")),
]
FRAME = re.compile(r"^(?P<function>.*) \((?P<file>[^()]*):\d+\)$")


def hot_operation(frames: list[str]) -> str | None:
    """`before Flask: <operation>` for a request the hot path answered (server/web/hot_path.py): the operation it ran
    (server/web/api.py's or session_api's function, the session's lookup aside); None for any other. One it handed
    on to Flask reaches a view."""
    matched = [m for f in frames if (m := FRAME.match(f))]
    start = next(
        (
            n
            for n, m in enumerate(matched)
            if m.group("file").endswith("server/web/hot_path.py")
            and m.group("function").rpartition(".")[2] == "_answered"
        ),
        None,
    )
    if start is None:
        return None
    operation = next(
        (
            m.group("function").rpartition(".")[2]
            for m in matched[start + 1 :]
            if m.group("file").endswith(("server/web/api.py", "server/participation/session_api.py"))
            and not m.group("function").endswith("lookup")
        ),
        "connection, lookup, answer",
    )
    return f"before Flask: {operation}"


def py_spy() -> str:
    found = shutil.which("py-spy") or str(PROJECT_ROOT / ".venv/bin/py-spy")
    if not Path(found).exists():
        raise RuntimeError("py-spy is missing: pip install -r requirements-dev.txt")
    return found


def layer_of(stack: list[str]) -> str:
    files = [m.group("file") if (m := FRAME.match(frame)) else frame for frame in stack]
    for file in reversed(files):  # innermost first
        for name, pattern in LAYERS:
            if pattern.search(file):
                return name
    return "other (interpreter, stdlib)"


class Profile:
    """`with Profile(master_pid, seconds):` samples every process under the server's master for `seconds`."""

    def __init__(self, pid: int, seconds: float, rate: int = 100):
        self.pid, self.seconds, self.rate = pid, seconds, rate
        self.out = Path(tempfile.mkdtemp(prefix="studyhive-pyspy-")) / "stacks.txt"
        self.process = None
        self.layers: collections.Counter = collections.Counter()
        self.views: collections.Counter = collections.Counter()

    def start(self):
        self.process = subprocess.Popen(
            [
                py_spy(),
                "record",
                "--subprocesses",
                "--format",
                "raw",
                "--rate",
                str(self.rate),
                "--gil",
                "--duration",
                str(int(self.seconds)),
                "--pid",
                str(self.pid),
                "--output",
                str(self.out),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def finish(self) -> dict[str, float]:
        _, err = self.process.communicate(timeout=self.seconds + 60)
        if not self.out.exists():
            raise RuntimeError(f"py-spy wrote nothing: {err.decode()[-300:]}")
        for line in self.out.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            frames = stack.split(";")
            self.layers[layer_of(frames)] += int(count)
            view = hot_operation(frames) or next(
                (
                    m.group("function")
                    for f in frames
                    if (m := FRAME.match(f))
                    and m.group("file").endswith("server/web/api.py")
                    and m.group("function").startswith(("post_", "put_", "get_"))
                ),
                None,
            )
            view = view or next(
                (
                    m.group("function")
                    for f in frames
                    if (m := FRAME.match(f)) and m.group("file").endswith("server/web/participant.py")
                ),
                None,
            )
            self.views[view or "outside a view (HTTP, WSGI, routing)"] += int(count)
        shutil.rmtree(self.out.parent, ignore_errors=True)
        return self.shares()

    def shares(self) -> dict[str, float]:
        total = sum(self.layers.values()) or 1
        return {name: count / total for name, count in self.layers.most_common()}

    def view_shares(self) -> dict[str, float]:
        total = sum(self.views.values()) or 1
        return {name: count / total for name, count in self.views.most_common()}


def profile_table(kind: str, row, layers: dict[str, float], views: dict[str, float], out):
    """The split of a save's server CPU: the app server's share by layer (py-spy), PostgreSQL's from /proc."""
    from ..tables import markdown_table

    app_ms = (row.cpu_ms or 0) - (row.pg_ms or 0)
    lines = [("where a save's server CPU goes", "share", "ms per save")]
    lines += [(name, f"{share:.0%}", f"{share * app_ms:.2f}") for name, share in layers.items()]
    lines.append(("PostgreSQL backends (/proc)", "–", f"{row.pg_ms or 0:.2f}"))
    lines.append(("total (app server + PostgreSQL)", "", f"{row.cpu_ms or 0:.2f}"))
    print(
        f"\n{kind}, capacity-{row.participants} under py-spy ({row.rate:,.0f} saves/s; every participant request "
        f"counted, 37 per 30 saves). App server samples by request handler: "
        + ", ".join(f"{name} {share:.0%}" for name, share in views.items())
        + "\n",
        file=out,
    )
    print(markdown_table(lines), file=out)
