"""studyhive's own page files (static/ and the task packages' static/ folders, files.task_file) under content-hashed
names, and gzip for what the app sends itself.

`url_for('static', filename='studyhive/runner.js')` builds /static/studyhive/runner.<12 hex>.js: the name carries the
first 12 hex digits of the file's SHA-256, so the file is cached for a year as immutable (a returning participant
downloads nothing twice) and a deploy that changes it changes its URL. The unhashed name still answers, revalidated
on every use (`no-cache`), for pages rendered before a deploy; a hash that is not the file's is a 404. Each file is
read, hashed and gzipped once per process and kept in memory (they are small: about 220 KB in all), keyed by its
modification time and size so an edited file is read again. The participant's page builds its 16 such URLs with
`page_file_url`, which keeps each for HASH_RECHECK_SECONDS.

Compression: the page files from that cache, and any other response the app builds whole (HTML, JSON, a researcher's
experiment files and stylesheets) when the client accepts gzip and the body is worth it. Streamed responses (CSV
exports), files sent from disk and Range requests are left as they are. nginx in front (deploy/nginx-proxy.conf)
passes the app's gzip through and compresses what the app left plain.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
import re
import time
from dataclasses import dataclass
from functools import lru_cache

from flask import Response, abort, current_app, request, url_for
from werkzeug.http import parse_accept_header
from werkzeug.security import safe_join

from ..tasktype.registry import registry

HASH_LENGTH = 12
HASHED = re.compile(rf"(?P<stem>.+)\.(?P<digest>[0-9a-f]{{{HASH_LENGTH}}})(?P<ext>\.[A-Za-z0-9]+)")
IMMUTABLE = "public, max-age=31536000, immutable"
COMPRESSIBLE = frozenset(
    {"text/html", "text/css", "text/javascript", "application/javascript", "application/json", "image/svg+xml"}
)
# Below this a gzip header and the CPU cost more than they save (the participant API's trial saves answer less).
MIN_COMPRESS_BYTES = 1024


@dataclass(frozen=True)
class PageFile:
    digest: str
    mimetype: str
    data: bytes
    gzipped: bytes | None  # None when the type does not compress


@lru_cache(maxsize=512)
def _read(path: str, mtime_ns: int, size: int) -> PageFile:
    with open(path, "rb") as file:
        data = file.read()
    mimetype = mimetypes.guess_type(path)[0] or "application/octet-stream"
    gzipped = gzip.compress(data, 9, mtime=0) if mimetype in COMPRESSIBLE else None
    return PageFile(hashlib.sha256(data).hexdigest()[:HASH_LENGTH], mimetype, data, gzipped)


def page_file(path: str) -> PageFile:
    stat = os.stat(path)
    return _read(path, stat.st_mtime_ns, stat.st_size)


def _folder(endpoint: str, values: dict) -> str | None:
    if endpoint == "static":
        return current_app.static_folder
    if endpoint == "files.task_file":
        folder = registry().static_folder(values.get("package", ""))
        return folder and str(folder)
    return None


def _existing(folder: str | None, filename: str | None) -> str | None:
    path = safe_join(folder, filename) if folder and filename else None
    return path if path and os.path.isfile(path) else None


def hash_filename(endpoint: str, values: dict) -> None:
    """url_defaults hook: the page files' URLs name their content."""
    path = _existing(_folder(endpoint, values), values.get("filename"))
    if path:
        stem, ext = os.path.splitext(values["filename"])
        values["filename"] = f"{stem}.{page_file(path).digest}{ext}"


# (where the app is mounted, endpoint, values) -> (page_file_url's URL, when it was built).
_urls: dict[tuple, tuple[str, float]] = {}
HASH_RECHECK_SECONDS = 2.0


def page_file_url(endpoint: str, **values) -> str:
    """url_for of a page file (`static` or `files.task_file`), as the participant's page names its 16: each built
    at most every HASH_RECHECK_SECONDS per process, not for every participant's page (a URL build, a path join and
    two stats each). An edited file gets its new URL on the first page built after that."""
    key = (request.script_root, endpoint, *sorted(values.items()))
    now = time.monotonic()
    known = _urls.get(key)
    if known is None or now - known[1] > HASH_RECHECK_SECONDS:
        known = _urls[key] = (url_for(endpoint, **values), now)
    return known[0]


def gzip_accepted(accept_encoding: str | None) -> bool:
    """Whether an Accept-Encoding header's value takes gzip (Werkzeug's parsing, as `request.accept_encodings`)."""
    return parse_accept_header(accept_encoding).quality("gzip") > 0


def accepts_gzip() -> bool:
    return gzip_accepted(request.headers.get("Accept-Encoding"))


def gzipped(data: bytes, accepted: bool) -> bytes | None:
    """A whole text body as it is sent compressed (see `compress`), or None when it goes plain: below
    MIN_COMPRESS_BYTES, or gzip not `accepted`. server/web/hot_path.py compresses its answers by this too."""
    if len(data) < MIN_COMPRESS_BYTES or not accepted:
        return None
    return gzip.compress(data, 6)


def send_page_file(folder: str | None, filename: str) -> Response:
    """A page file by its hashed name (immutable) or its plain one (revalidated each time); 404 for any other."""
    path = _existing(folder, filename)
    if path:
        found, cache = page_file(path), "no-cache"
    else:
        match = HASHED.fullmatch(filename)
        path = match and _existing(folder, match["stem"] + match["ext"])
        found = path and page_file(path)
        if not found or found.digest != match["digest"]:
            abort(404)
        cache = IMMUTABLE
    response = Response(mimetype=found.mimetype)
    response.headers["Cache-Control"] = cache
    response.last_modified = int(os.stat(path).st_mtime)
    if found.gzipped is not None:
        response.vary.add("Accept-Encoding")
    if found.gzipped is not None and accepts_gzip() and request.range is None:
        response.set_data(found.gzipped)
        response.headers["Content-Encoding"] = "gzip"
        # Weak: the same content, not the same bytes as the plain response (what nginx's gzip does too).
        response.set_etag(found.digest, weak=True)
        return response.make_conditional(request)
    response.set_data(found.data)
    response.set_etag(found.digest)
    return response.make_conditional(request, accept_ranges=True, complete_length=len(found.data))


def compress(response: Response) -> Response:
    """after_request hook: gzip a whole response of a text type when the client accepts it."""
    if (
        response.status_code != 200
        or response.direct_passthrough
        or response.is_streamed
        or "Content-Encoding" in response.headers
        or response.mimetype not in COMPRESSIBLE
        or request.range is not None
    ):
        return response
    response.vary.add("Accept-Encoding")
    data = gzipped(response.get_data(), accepts_gzip())
    if data is None:
        return response
    response.set_data(data)
    response.headers["Content-Encoding"] = "gzip"
    etag, _ = response.get_etag()
    if etag:
        response.set_etag(etag, weak=True)
    return response


def favicon() -> Response:
    """/favicon.ico, for what asks there rather than reading the pages' <link rel=icon> (an SVG all the same)."""
    return send_page_file(current_app.static_folder, "studyhive/favicon.svg")


def init_app(app):
    app.url_defaults(hash_filename)
    app.jinja_env.globals["page_file_url"] = page_file_url
    app.view_functions["static"] = lambda filename: send_page_file(app.static_folder, filename)
    app.add_url_rule("/favicon.ico", "favicon", favicon)
    app.after_request(compress)
