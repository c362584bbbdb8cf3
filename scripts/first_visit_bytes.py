"""The bytes a participant's browser downloads on a first visit to the demo study visual-search (issue #24), from the
entry link to the experiment's first screen: studyhive's own pages (browser check, consent), the experiment page in
its frame, the jsPsych packages studyhive serves, styles, images and the API calls on the way.

Not a test: it syncs studies/ into a scratch SQLite database against the tests' fake npm registry (which packs the
same package versions from node_modules/, so the bytes are unpkg's), runs the app on a loopback port, drives headless
Chromium through consent with an empty cache, and prints one table: per kind of response, the count, the body's
bytes uncompressed, the bytes as sent (headers and body as they crossed the wire: studyhive compresses nothing
itself) and the body gzipped at level 6, what a compressing proxy in front would send.

    .venv/bin/python scripts/first_visit_bytes.py [--slug visual-search]
"""

from __future__ import annotations

import argparse
import gzip
import sys
import tempfile
import threading
from collections import defaultdict
from pathlib import Path

from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server import create_app  # noqa: E402
from server.db import db  # noqa: E402
from server.studies.definitions import sync_studies  # noqa: E402
from tests.conftest import CHROMIUM  # noqa: E402
from tests.fake_npm_registry import FakeRegistry, Quiet  # noqa: E402

KINDS = ("document", "script", "stylesheet", "image", "font", "fetch", "xhr")


def first_visit(base_url: str, slug: str) -> list[dict]:
    """Each response from the entry link to the experiment's first screen: kind, URL, body and wire bytes."""
    from playwright.sync_api import sync_playwright

    rows = []

    def record(request):
        # Read as each request finishes: a page's bodies are gone once the browser has navigated away from it.
        response = request.response()
        body = b"" if 300 <= response.status < 400 else response.body()
        sizes = request.sizes()
        rows.append(
            {
                "kind": request.resource_type,
                "url": request.url.removeprefix(base_url),
                "body": len(body),
                "sent": sizes["responseHeadersSize"] + sizes["responseBodySize"],
                "gzip": len(gzip.compress(body, 6)) if body else 0,
            }
        )

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport={"width": 1366, "height": 900})
        context.on("requestfinished", record)
        page = context.new_page()
        page.goto(f"{base_url}/study/{slug}")
        page.get_by_role("button", name="I agree").click()
        page.get_by_role("button", name="Start").click()
        page.frame_locator("#studyhive-experiment").locator("#jspsych-content").wait_for()
        page.wait_for_load_state("networkidle")
        browser.close()
    return rows


def table(rows: list[dict]) -> str:
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for row in rows:
        for key in (row["kind"], "total"):
            totals[key][0] += 1
            totals[key][1] += row["body"]
            totals[key][2] += row["sent"]
            totals[key][3] += row["gzip"]
    lines = [
        "| kind | responses | body bytes | as sent (headers + body) | body gzipped (-6) |",
        "|---|---|---|---|---|",
    ]
    order = [k for k in KINDS if k in totals] + sorted(set(totals) - set(KINDS) - {"total"}) + ["total"]
    for kind in order:
        n, body, sent, gz = totals[kind]
        lines.append(f"| {kind} | {n} | {body:,} | {sent:,} | {gz:,} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slug", default="visual-search")
    parser.add_argument("--each", action="store_true", help="also list every response")
    args = parser.parse_args()
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
            rows = first_visit(f"http://127.0.0.1:{server.server_port}", args.slug)
        finally:
            server.shutdown()
            registry.close()
    if args.each:
        for row in rows:
            print(f"{row['kind']:>10} {row['body']:>9,} {row['sent']:>9,} {row['gzip']:>9,}  {row['url'][:100]}")
        print()
    print(table(rows))


if __name__ == "__main__":
    main()
