"""`make corpus` (python -m bench.corpus): every experiment of corpus/manifest.toml run unchanged through studyhive
(issue #37). Each is copied into a study folder in a scratch directory with a study.toml written here (task_type
jspsych, flow consent and task, no minimum window size) and its pinned npm packages in the folder's packages/
(bench/corpus/packages.py: the manifest's `packages`, corpus/packages/ tarballs), synced with no network: sync takes
those packages before any registry, and the registry it is given (tests/fake_npm_registry.py) serves nothing, only
recording what else sync asked for. Then taken in headless Chromium by a generic participant
(bench/corpus/participant.py) from the entry link to studyhive's Continue button. One markdown table, also saved
in bench-results/. Not a test: nothing here fails the build (tests/test_corpus_browser.py runs a few rows in
`make test`).

    CORPUS_ONLY=stroop-color,jatos-rt7   # only these experiments
    CORPUS_SECONDS=600                   # budget of one experiment's run in the browser (a stuck one stops sooner)
    CORPUS_FAULTS=0                      # skip the second run (three reloads and 30 s offline)
    CORPUS_DIR=/some/folder              # another corpus: experiment folders and a manifest.toml of the same shape

An experiment that syncs is taken twice, each time by a new participant: once straight through (completed, rows =
jsPsych.data, the bytes of the first visit up to the experiment's first screen), once with three reloads and 30 s
offline spread over the first run's length (class Disturbance; rows = jsPsych.data at the end, replayed ones
included).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import tomllib
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from server.config import PROJECT_ROOT
from server.db import db, dispose_engines
from server.studies.definitions import SyncFailed, sync_studies
from tests.conftest import CHROMIUM, make_app
from tests.fake_npm_registry import FakeRegistry, Quiet
from tests.test_jspsych_browser import rows_arrive, session, start

from .packages import CORPUS, carry
from .participant import run_through

STUDY_TOML = """title = "{name}"
task_type = "jspsych"
consent = "<p>Do you agree to take part?</p>"
min_width = 0
min_height = 0
flow = ["consent", "task"]

[task]
experiment = "{experiment}"
resume = "{resume}"
"""
# Sync errors by what causes them, named first in a row's note.
CAUSES = (
    ("jsPsych 5 and older are not supported", "jsPsych 5 or older (studyhive runs 6, 7 and 8)"),
    ("is not an npm CDN", "a host that is not an npm CDN or a library host (a lab's own server)"),
    ("a GitHub repository's files", "a file from jsDelivr's /gh/ (a GitHub repository, not an npm package)"),
    ("no script tag loads jsPsych", "no jsPsych found (not a build of jsPsych studyhive recognises)"),
    ("package not found", "a package the corpus does not pin (manifest `packages`)"),
    ("satisfies", "a version the corpus does not pin (manifest `packages`)"),
)
COLUMNS = (
    "experiment",
    "jsPsych",
    "synced unchanged",
    "completed",
    "rows = jsPsych.data",
    "3 reloads + 30 s offline: rows = jsPsych.data",
    "first visit KB",
    "sync s",
    "note",
)
OFFLINE_S = 30
IDLE_STEPS = 150  # steps without a new row after which the participant is stuck (about 30 s)


def main() -> int:
    only = [name for name in os.environ.get("CORPUS_ONLY", "").split(",") if name]
    chosen = [e for e in experiments() if not only or e["name"] in only]
    seconds = float(os.environ.get("CORPUS_SECONDS", "600"))
    faults = os.environ.get("CORPUS_FAULTS", "1") != "0"
    rows = []
    with (
        tempfile.TemporaryDirectory(prefix="studyhive-corpus-") as scratch,
        site(Path(scratch)) as (base, registry),
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
        for experiment in chosen:
            row = run_one(experiment, Path(scratch) / "studies", registry, browser, base, seconds, faults)
            print(" | ".join(row), flush=True)
            rows.append(row)
        browser.close()
    out = io.StringIO()
    out.write(f"`make corpus`, {time.strftime('%Y-%m-%d')}, {len(rows)} experiments\n\n")
    out.write("| " + " | ".join(COLUMNS) + " |\n|" + "---|" * len(COLUMNS) + "\n")
    out.writelines("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |\n" for row in rows)
    print("\n" + out.getvalue(), end="")
    saved = PROJECT_ROOT / "bench-results" / f"corpus-{time.strftime('%Y%m%d-%H%M%S')}.md"
    saved.parent.mkdir(exist_ok=True)
    saved.write_text(out.getvalue())
    print(f"(saved as {saved.relative_to(PROJECT_ROOT)})")
    return 0


def experiments() -> list[dict]:
    """The manifest's experiments."""
    return tomllib.loads((CORPUS / "manifest.toml").read_text())["experiment"]


@contextmanager
def site(scratch: Path):
    """studyhive on a loopback port, its studies in scratch/studies and its database in scratch, synced against a
    fake npm registry that serves nothing (a corpus experiment's packages are its own, in the study's packages/),
    inside the app's context: (base URL, registry)."""
    registry = FakeRegistry(folders=())
    app = make_app(scratch, STUDIES_DIR=str(scratch / "studies"), NPM_REGISTRY_URL=registry.url)
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with app.app_context():
            db.create_all()
            yield f"http://127.0.0.1:{server.server_port}", registry
            db.session.remove()
            dispose_engines()
    finally:
        server.shutdown()
        registry.close()


def run_one(
    experiment: dict,
    studies: Path,
    registry: FakeRegistry,
    browser,
    base: str,
    seconds: float,
    faults: bool,
    offline_s: float = OFFLINE_S,
) -> list:
    """The experiment's row of the table (COLUMNS): copied as it is into a study folder with a study.toml and its
    pinned packages, synced, and taken by a participant, then (`faults`) by another with reloads and `offline_s`
    seconds offline."""
    name = experiment["name"]
    folder = studies / name
    shutil.copytree(CORPUS / name, folder)
    # `resume`: the manifest names another setting than replay for an experiment replay cannot resume (its timeline
    # drawn from the clock, say); the table then names it beside the reloads
    resume = experiment.get("resume", "replay")
    (folder / "study.toml").write_text(STUDY_TOML.format(name=name, experiment=experiment["experiment"], resume=resume))
    carry(experiment, folder)
    # `seconds`: the manifest's budget for an experiment longer than CORPUS_SECONDS (hundreds of animated trials)
    seconds = max(seconds, float(experiment.get("seconds", 0)))
    asked = len(registry.requests)
    began = time.monotonic()
    try:
        sync_studies(studies, slugs=[name])
        synced, note = "yes", ""
    except SyncFailed as exc:
        errors = [error.split("\n")[0] for error in exc.errors]
        # the manifest's `unavailable` first: what nothing could serve, which is why the corpus pins no package for it
        unavailable = experiment.get("unavailable", [])
        named = [unavailable] if isinstance(unavailable, str) else list(unavailable)
        causes = dict.fromkeys([*named, *(cause for error in errors for text, cause in CAUSES if text in error)])
        errors = [error.replace(f"the npm registry {registry.url}", "the offline registry") for error in errors]
        # sync's own words in backticks: they quote tags, which markdown would otherwise take for HTML
        synced, note = "no", "; ".join([*causes, *(f"`{error[:300]}`" for error in errors)])
    sync_s = f"{time.monotonic() - began:.1f}"
    asked_for = sorted({path.strip("/") for path in registry.requests[asked:]})
    if asked_for:  # a local jsPsych copy is compared with its version's package, which the corpus may not pin
        note += f" (the registry was asked for packages the corpus does not pin: {', '.join(asked_for)})"
    if synced == "no":
        return [name, experiment["jspsych"], "no", "-", "-", "-", "-", sync_s, note.strip()]
    completed, equal, kb, why, steps = take(browser, base, name, seconds)
    faulted = "-"
    if faults:
        disturbance = Disturbance(steps, offline_s)
        _, faulted, _, faulted_why, _ = take(browser, base, name, seconds + offline_s, disturbance)
        faulted += f" with resume = {resume}" if resume != "replay" else ""
        why += f" (with faults: {faulted_why})" if faulted_why else ""
    return [name, experiment["jspsych"], "yes", completed, equal, faulted, kb, sync_s, (note + " " + why).strip()]


class Disturbance:
    """each_step for the second run, placed by the first run's length in steps: a reload at a quarter, half and three
    quarters of it, and from a third the connection cut for `offline_s` seconds, two screens answered offline and then
    waiting (a reload due meanwhile comes once back online). Counts what it did: a short experiment ends sooner."""

    def __init__(self, steps: int, offline_s: float = OFFLINE_S):
        self.due = sorted({max(1, steps * k // 4) for k in (1, 2, 3)})
        self.offline_for = offline_s
        self.offline_at, self.online_at, self.answered_offline = max(1, steps // 3), None, 0
        self.reloads, self.offline_s = 0, 0.0

    def __call__(self, page, step):
        if step == self.offline_at:
            page.context.set_offline(True)
            self.online_at = time.monotonic() + self.offline_for
        elif self.online_at:
            self.answered_offline += 1
            if self.answered_offline >= 2:
                time.sleep(max(0.0, self.online_at - time.monotonic()))
                self.online(page)
        if self.due and self.due[0] <= step and not self.online_at:  # offline, a reload shows an error page
            self.due.pop(0)
            page.reload()
            self.reloads += 1

    def online(self, page):
        if self.online_at:
            page.context.set_offline(False)
            self.offline_s += self.offline_for - max(0.0, self.online_at - time.monotonic())
            self.online_at = None

    def __str__(self):
        return f"{self.reloads} reloads, {self.offline_s:.0f} s offline"


def take(browser, base: str, name: str, seconds: float, faults: Disturbance | None = None) -> tuple:
    """A generic participant through the study: (completed, rows equal jsPsych.data, first-visit KB, why not,
    steps taken)."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc).split("\n")[0][:120]))
    sizes: list[int] = []

    def measure(request):
        sizes.append(sum(request.sizes().values()))

    page.on("requestfinished", measure)
    try:
        token = start(page, base, name)
        frame = page.wait_for_selector("#studyhive-experiment").content_frame()
        try:  # the experiment's first screen and what it preloads; an experiment that keeps polling never idles
            frame.wait_for_load_state("load", timeout=15000)
            page.wait_for_load_state("networkidle", timeout=15000)
        except PlaywrightTimeout:
            pass
        kb = f"{sum(sizes) / 1024:.0f}"
        # the first visit is measured; a request still finishing when the context closes would fail to give its sizes
        page.remove_listener("requestfinished", measure)
        continue_button = page.get_by_role("button", name="Continue")
        stopped = page.locator("#studyhive-stopped")
        reached, steps, last = run_through(page, continue_button, seconds, IDLE_STEPS, faults, stopped)
        if faults:
            faults.online(page)
        frame = page.wait_for_selector("#studyhive-experiment").content_frame()
        try:
            # as JSON writes it, which is what the page sends and jsPsych's own .json() writes: Playwright would hand
            # an `undefined` value over as None, where JSON leaves the key out
            data = json.loads(frame.evaluate("JSON.stringify(jsPsych.data.get().values())"))
        except Exception as exc:
            data, errors = None, [*errors, f"jsPsych.data unreadable: {str(exc).splitlines()[0][:80]}"]
        # values no trial recorded (an experiment's own push() into jsPsych's data, which jQuery's $.param does to
        # the DataCollection it is handed): not rows, so not compared, but named
        others = sum(not isinstance(value, dict) for value in data or ())
        data = data and [value for value in data if isinstance(value, dict)]
        rows = rows_arrive(page, token, len(data or ()))
        if data is None:
            equal = f"? ({len(rows)} stored)"
        elif rows == data:
            equal = f"yes ({len(rows)}{f'; {faults}' if faults else ''})"
        else:
            first = next((i for i, (a, b) in enumerate(zip(rows, data)) if a != b), min(len(rows), len(data)))
            equal = f"no ({len(rows)} stored, {len(data)} in jsPsych; first differs at {first}"
            if first < min(len(rows), len(data)):
                stored, recorded = rows[first], data[first]
                missing = "(none)"
                fields = sorted(k for k in {*stored, *recorded} if stored.get(k, missing) != recorded.get(k, missing))
                shown = (f"{k} {stored.get(k, missing)!r:.40} ≠ {recorded.get(k, missing)!r:.40}" for k in fields)
                equal += ": " + ", ".join(shown)
            equal += ")"
        completed = "no"
        if reached:
            continue_button.click()
            # gone once the server has answered: the results page for a completion, a notice for an early end
            continue_button.wait_for(state="hidden", timeout=10000)
            page.wait_for_load_state()
            person = session(token)
            completed = "yes" if person.status == "completed" else f"no ({person.status}, {person.outcome})"
        stuck = "" if reached else last if stopped.is_visible() else f"no Continue button after {steps} steps: {last}"
        not_rows = (
            f"jsPsych.data also holds {others} value(s) no trial recorded (null, …): not compared" if others else ""
        )
        why = "; ".join(part for part in (stuck, not_rows) if part)
        if errors and not reached:
            why += f"; page error: {errors[0]}"
        return completed, equal, kb, why, steps
    except Exception as exc:
        return "no", "-", "-", f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}", 0
    finally:
        context.close()


if __name__ == "__main__":
    sys.exit(main())
