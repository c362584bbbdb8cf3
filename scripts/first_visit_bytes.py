"""Page weight per demo study (issue #27, "Light"; `make bench-weight`): the bytes a participant's browser downloads
from the entry link until the consent screen is interactive (its "I agree" button shown), with an empty cache, and
again on a second visit with the cache the first left. Stimuli (the task's images) are not counted: they are the
study's content, not the page's. The goal is under 250 KB for every study's first visit; the second should be
little more than the page's HTML, since the page files are cached as immutable (server/web/static_files.py).

Not a test: it syncs studies/ into a scratch SQLite database against the tests' fake npm registry (which packs the
same package versions from node_modules/, so the bytes are unpkg's), runs the app on a loopback port (the app
compresses its own responses, as it does behind nginx) and drives headless Chromium. "As sent" is headers plus body
as they crossed the wire (Playwright's request sizes).

    .venv/bin/python scripts/first_visit_bytes.py [--slug study3 ...] [--each]
"""

from __future__ import annotations

import argparse
import secrets
import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server import create_app  # noqa: E402
from server.db import db  # noqa: E402
from server.studies.definitions import sync_studies  # noqa: E402
from tests.conftest import CHROMIUM  # noqa: E402
from tests.fake_npm_registry import FakeRegistry, Quiet  # noqa: E402

GOAL = 250_000
# studyhive's own files; any other image is a stimulus (stored assets, a study's files).
PAGE_FILES = ("/static/", "/tasks/", "/favicon.ico")


def visit(context, base_url: str, slug: str) -> list[dict]:
    """Each response from the entry link until the consent screen's button is shown: kind, URL, bytes as sent."""
    rows = []

    def record(request):
        try:
            sizes = request.sizes()
        except PlaywrightError:  # finished as the page closed: after the measured span anyway
            return
        rows.append(
            {
                "kind": request.resource_type,
                "url": request.url.removeprefix(base_url),
                "sent": sizes["responseHeadersSize"] + sizes["responseBodySize"],
            }
        )

    context.on("requestfinished", record)
    page = context.new_page()
    # A Prolific study's entry link carries the participant's ids; a fresh one each visit, so each sees consent.
    page.goto(f"{base_url}/study/{slug}?PROLIFIC_PID={secrets.token_hex(12)}&STUDY_ID=bench&SESSION_ID=weight")
    page.get_by_role("button", name="I agree").wait_for()
    seen = list(rows)
    context.remove_listener("requestfinished", record)
    page.close()
    return seen


def stimulus(row: dict) -> bool:
    return row["kind"] in ("image", "media") and not row["url"].startswith(PAGE_FILES)


def measure(base_url: str, slugs: list[str], each: bool) -> list[tuple]:

    results = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
        for slug in slugs:
            context = browser.new_context(viewport={"width": 1366, "height": 900})  # an empty cache per study
            first, second = visit(context, base_url, slug), visit(context, base_url, slug)
            context.close()
            if each:
                for name, rows in (("first", first), ("second", second)):
                    for row in rows:
                        print(f"{slug:>24} {name:>6} {row['kind']:>10} {row['sent']:>9,}  {row['url'][:90]}")
            counted = [row for row in first if not stimulus(row)]
            results.append(
                (
                    slug,
                    len(counted),
                    sum(row["sent"] for row in counted),
                    sum(row["sent"] for row in first if stimulus(row)),
                    sum(row["sent"] for row in second if not stimulus(row)),
                    sum(row["sent"] for row in second if row["url"].startswith(PAGE_FILES)),
                )
            )
        browser.close()
    return results


def table(results: list[tuple]) -> str:
    lines = [
        "| study | first visit: responses | first visit: bytes as sent | stimuli (not counted) | under 250 KB "
        "| second visit: bytes | of which page files |",
        "|---|---|---|---|---|---|---|",
    ]
    for slug, n, sent, stimuli, again, files_again in results:
        lines.append(
            f"| {slug} | {n} | {sent:,} | {stimuli:,} | {'yes' if sent < GOAL else '**no**'} "
            f"| {again:,} | {files_again:,} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slug", action="append", help="a study (repeatable); default every study in studies/")
    parser.add_argument("--each", action="store_true", help="also list every response")
    args = parser.parse_args()
    slugs = args.slug or sorted(path.parent.name for path in (ROOT / "studies").glob("*/study.toml"))
    registry = FakeRegistry()
    with tempfile.TemporaryDirectory() as scratch:
        app = create_app(
            {
                "SECRET_KEY": "first-visit-bytes",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(scratch) / 'bytes.sqlite'}",
                "STUDIES_DIR": str(ROOT / "studies"),
                "NPM_REGISTRY_URL": registry.url,
            }
        )
        with app.app_context():
            db.create_all()
            sync_studies(ROOT / "studies")
        server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=Quiet)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            results = measure(f"http://127.0.0.1:{server.server_port}", slugs, args.each)
        finally:
            server.shutdown()
            registry.close()
    print(table(results))
    if any(row[2] >= GOAL for row in results):
        sys.exit(f"a first visit weighs {GOAL:,} bytes or more")


if __name__ == "__main__":
    main()
