"""Imported files (photos, explanation images, sketches), stored once by content hash and served with long-lived
caching: the URL names the bytes, so they can never change under it."""
from __future__ import annotations

import hashlib

from flask import Blueprint, abort, make_response, request

from .db import db
from .models import Asset

bp = Blueprint("assets", __name__)

# Recognised by their first bytes, never by file name: a renamed file cannot smuggle in another type.
SIGNATURES = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"), (b"GIF8", "image/gif"))


def sniff(data: bytes) -> str | None:
    """The image type of `data`, or None if it is not an image we serve."""
    for magic, mimetype in SIGNATURES:
        if data.startswith(magic):
            return mimetype
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    head = data[:1024].lstrip().lower()
    if (head.startswith(b"<svg") or head.startswith(b"<?xml")) and b"<svg" in data[:4096].lower():
        return "image/svg+xml"
    return None


def asset_id(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def store(assets: dict[str, tuple[str, bytes]]) -> int:
    """Insert the (id → (mimetype, bytes)) assets the database lacks; the caller commits. Returns how many."""
    have = set(db.session.scalars(db.select(Asset.sha256).where(Asset.sha256.in_(list(assets)))))
    new = [{"sha256": sha, "mimetype": mime, "size": len(data), "data": data}
           for sha, (mime, data) in assets.items() if sha not in have]
    if new:
        db.session.execute(db.insert(Asset), new)
    return len(new)


def asset_url(sha: str) -> str:
    return f"/assets/{sha}"


def send(sha: str):
    asset = db.session.get(Asset, sha)
    if asset is None:
        abort(404)
    response = make_response(asset.data)
    response.mimetype = asset.mimetype
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    # An SVG opened on its own must not run anything it carries.
    response.headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
    response.set_etag(sha)
    return response.make_conditional(request)


@bp.get("/assets/<sha>")
def serve(sha):
    return send(sha)


def init_app(app):
    app.register_blueprint(bp)
