"""The participant pages' weight (issue #27, "Light"): jsPsych's CSS without its inlined fonts, page files under
content-hashed names cached as immutable, gzip, the favicon, and nginx compressing too (server/web/static_files.py,
scripts/strip_fonts.py, deploy/nginx-proxy.conf)."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from pathlib import Path

from flask import url_for

from scripts.strip_fonts import strip_inlined_fonts
from server.web import static_files
from tests.helpers import enter

ROOT = Path(__file__).resolve().parent.parent
GZIP = {"Accept-Encoding": "gzip, deflate, br"}
IMMUTABLE = "public, max-age=31536000, immutable"
HASHED = re.compile(r'(?:src|href)="(/(?:static|tasks)/[^"]+\.[0-9a-f]{12}\.(?:js|css|svg))"')


def test_strip_fonts_drops_only_inlined_font_faces():
    css = (ROOT / "node_modules/jspsych/css/jspsych.css").read_text()
    assert css.count("@font-face") == 32
    stripped = strip_inlined_fonts(css + "@font-face { font-family: Own; src: url(own.woff2); }\n")
    assert "base64" not in stripped and "data:" not in stripped
    assert stripped.count("@font-face") == 1 and "url(own.woff2)" in stripped  # a font file by URL stays
    assert ".jspsych-btn {" in stripped and len(stripped) < 10_000


def file_of(url: str) -> Path:
    """The file on disk a hashed page-file URL names."""
    path = re.sub(r"\.[0-9a-f]{12}(\.\w+)$", r"\1", url)
    if path.startswith("/static/"):
        return ROOT / path.removeprefix("/")
    package, name = path.removeprefix("/tasks/").split("/", 1)
    return ROOT / "server/tasks" / package / "static" / name  # the built-in task packages


def test_a_page_files_url_names_an_edit_once_built_again(app, tmp_path, monkeypatch):
    # The participant's page keeps each file's URL HASH_RECHECK_SECONDS (static_files.page_file_url): an edit within
    # that keeps the URL of the content before (still served: a hash that is not the file's is a 404, the plain name
    # revalidates), and the first page built after it names the new content. url_for itself looks each time.
    def hashed(content: str) -> str:
        return f"/static/edited.{hashlib.sha256(content.encode()).hexdigest()[:12]}.js"

    app.static_folder = str(tmp_path)
    (tmp_path / "edited.js").write_text("one")
    with app.test_request_context():
        assert static_files.page_file_url("static", filename="edited.js") == hashed("one")
        (tmp_path / "edited.js").write_text("two, longer")
        assert static_files.page_file_url("static", filename="edited.js") == hashed("one")
        assert url_for("static", filename="edited.js") == hashed("two, longer")
        monkeypatch.setattr(static_files, "HASH_RECHECK_SECONDS", -1.0)
        assert static_files.page_file_url("static", filename="edited.js") == hashed("two, longer")
    with app.test_request_context(base_url="http://localhost/mounted/"):  # the app under a prefix: its own URL
        assert static_files.page_file_url("static", filename="edited.js") == "/mounted" + hashed("two, longer")


def test_page_files_are_hashed_immutable_and_gzipped_as_are_pages(client, auth):
    page = client.get(f"/study/study3/s/{enter(client, 'study3')}", headers=GZIP)
    assert page.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in page.vary
    html = gzip.decompress(page.data).decode()
    urls = HASHED.findall(html)
    # Every script, stylesheet and the icon the page links is hashed: none left plain.
    assert len(urls) == len(re.findall(r'(?:src|href)="/(?:static|tasks)/', html)) >= 12
    assert "/static/studyhive/favicon." in html
    experiment = client.get("/tasks/jspsych/host.js")  # a task package's file: the same rules
    assert experiment.status_code == 200 and experiment.headers["Cache-Control"] == "no-cache"

    for url in urls:
        plain = client.get(url)
        assert plain.status_code == 200 and plain.headers["Cache-Control"] == IMMUTABLE, url
        assert plain.data == file_of(url).read_bytes() and "Content-Encoding" not in plain.headers
    css_url = next(url for url in urls if "/vendor/jspsych." in url)
    css = client.get(css_url).data
    assert b"base64" not in css and b"@font-face" not in css  # the Makefile's copy, without the 32 fonts

    js_url = next(url for url in urls if "/studyhive/runner." in url)
    packed = client.get(js_url, headers=GZIP)
    assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.vary
    runner = file_of(js_url).read_bytes()
    assert gzip.decompress(packed.data) == runner and len(packed.data) < len(runner) / 2
    # A revalidation with the compressed copy's (weak) ETag still gets a 304; a Range request the plain bytes.
    assert client.get(js_url, headers={**GZIP, "If-None-Match": packed.headers["ETag"]}).status_code == 304
    part = client.get(js_url, headers={**GZIP, "Range": "bytes=0-9"})
    assert part.status_code == 206 and part.data == runner[:10]

    # The plain name (a page rendered before a deploy) still works, revalidated; any other hash is a 404.
    plain = client.get("/static/studyhive/runner.js")
    assert plain.status_code == 200 and plain.headers["Cache-Control"] == "no-cache"
    wrong = re.sub(r"\.[0-9a-f]{12}\.", ".0123456789ab.", js_url)
    for url in (wrong, "/static/studyhive/runner.0123456789ab.css", "/static/studyhive/nothing.0123456789ab.js"):
        assert client.get(url).status_code == 404, url
    assert client.get("/tasks/jspsych/host.0123456789ab.js").status_code == 404
    assert client.get("/static/../server/__init__.py").status_code == 404

    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml" and b"<svg" in icon.data

    # Other whole responses: a researcher's page is compressed, a small JSON answer is not worth it.
    auth.login()
    dashboard = client.get("/researcher/", headers=GZIP)
    assert dashboard.status_code == 200 and dashboard.headers["Content-Encoding"] == "gzip"
    researcher_html = gzip.decompress(dashboard.data).decode()
    assert len(HASHED.findall(researcher_html)) == 2  # base.html's stylesheet and icon
    # The researcher's cookie is not read for page files: a `Vary: Cookie` would make the browser revalidate them.
    assert "Cookie" not in client.get(js_url).vary and "Cookie" in dashboard.vary
    small = client.get("/api/sessions/nosuchtoken", headers=GZIP)  # a 4xx JSON error: small, sent as it is
    assert small.status_code == 404 and "Content-Encoding" not in small.headers and small.get_json()["error"]


def test_deploy_builds_the_stripped_css_and_nginx_compresses_what_the_app_leaves_plain():
    static_stage = (ROOT / "Dockerfile").read_text().split("\nFROM ")[1]
    assert static_stage.index("scripts/strip_fonts.py") < static_stage.index("make static/vendor/.installed")
    conf = (ROOT / "deploy/nginx-proxy.conf").read_text()
    assert re.search(r"^\s*gzip on;", conf, re.M) and re.search(r"^\s*gzip_vary on;", conf, re.M)
    assert re.search(r"^\s*gzip_proxied any;", conf, re.M)
    types = re.search(r"^\s*gzip_types ([^;]+);", conf, re.M)[1].split()
    assert {"text/css", "text/javascript", "application/javascript", "application/json", "image/svg+xml"} <= set(types)


def test_package_json_names_only_files_that_exist():
    description = json.loads((ROOT / "package.json").read_text())["description"]
    named = re.findall(r"\b(?:scripts|tests|server)/[\w/.-]+\.(?:py|js)\b", description)
    assert "scripts/strip_fonts.py" in named
    assert [path for path in named if not (ROOT / path).is_file()] == []
    assert "static/vendor/.installed:" in (ROOT / "Makefile").read_text()
