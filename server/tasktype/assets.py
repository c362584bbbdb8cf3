"""Imported files (photos, explanation images, sketches), stored once by content hash and served with long-lived
caching (server/web/files.py): the URL names the bytes, so they can never change under it."""

from __future__ import annotations

import hashlib

from ..db import db
from ..models import Asset

# Recognised by their first bytes, never by file name: a renamed file cannot smuggle in another type.
SIGNATURES = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"), (b"GIF8", "image/gif"))

# The file extension of each type, for files written out (`flask stimuli export`, data packages).
EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp", "image/svg+xml": "svg"}


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
    new = [
        {"sha256": sha, "mimetype": mime, "size": len(data), "data": data}
        for sha, (mime, data) in assets.items()
        if sha not in have
    ]
    if new:
        db.session.execute(db.insert(Asset), new)
    return len(new)


def asset_url(sha: str) -> str:
    return f"/assets/{sha}"
