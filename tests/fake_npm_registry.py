"""A local stand-in for the npm registry, on a loopback port: packuments (abbreviated, as `Accept:
application/vnd.npm.install-v1+json` gets them: name, dist-tags, each version's dist with tarball and integrity) and
tarballs it packs itself, deterministically, from the real packages in node_modules/ (package.json pins them:
jspsych 8, and jsPsych 7 and its plugins under aliases) or from files a test gives. A test may make a tarball's bytes
differ from the integrity the packument announces; every request is recorded."""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import tarfile
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import semantic_version
from flask import Flask, abort, jsonify, request
from werkzeug.serving import WSGIRequestHandler, make_server

NODE_MODULES = Path(__file__).resolve().parent.parent / "node_modules"
# node_modules folders served (package.json's dependencies and devDependencies; the aliases name jsPsych 7's).
FOLDERS = (
    "jspsych",
    "jspsych7",
    "@jspsych/plugin-html-button-response",
    "@jspsych/plugin-instructions",
    "@jspsych/plugin-survey-html-form",
    "plugin-html-keyboard-response-1",
    "plugin-image-keyboard-response-1",
    "plugin-preload-1",
    "jspsych70",
    "plugin-survey-1",
    "plugin-survey-2",
    "plugin-survey-4",
    "plugin-fullscreen-1",
    "plugin-fullscreen-2",
    "plugin-call-function-2",
    "plugin-survey-text-1",
    "@fontsource/open-sans",
)


def pack(files: dict[str, bytes]) -> bytes:
    """A .tgz as `npm pack` makes it: every file under package/, here with fixed times so a tarball is reproducible."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as archive:
        for path in sorted(files):
            info = tarfile.TarInfo("package/" + path)
            info.size, info.mtime, info.mode = len(files[path]), 499162500, 0o644
            archive.addfile(info, io.BytesIO(files[path]))
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as gz:
        gz.write(raw.getvalue())
    return out.getvalue()


def folder_files(folder: Path) -> dict[str, bytes]:
    """A package folder's files as its tarball holds them: npm never packs a nested node_modules/ (npm installs one
    inside @jspsych/plugin-survey 4's folder)."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in folder.rglob("*")
        if path.is_file() and "node_modules" not in path.relative_to(folder).parts
    }


def integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


class Quiet(WSGIRequestHandler):
    def log_request(self, *args, **kwargs):
        pass


@dataclass
class Version:
    tarball: bytes
    integrity: str  # what the packument announces


class FakeRegistry:
    def __init__(self, folders: tuple[str, ...] = FOLDERS):
        self.versions: dict[str, dict[str, Version]] = {}
        self.tags: dict[str, dict[str, str]] = {}
        self.requests: list[str] = []
        for folder in folders:
            path = NODE_MODULES / folder
            if not (path / "package.json").is_file():
                raise RuntimeError(f"{path} is missing: `npm ci` (make setup) installs package-lock.json")
            self.add_files(folder_files(path))
        app = Flask("fake_npm_registry")
        app.add_url_rule("/-/tarballs/<path:name>/<version>.tgz", view_func=self._tarball)
        app.add_url_rule("/<path:name>", view_func=self._packument)
        self._server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=Quiet)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_port}"

    def add(self, name: str, version: str, files: dict[str, str | bytes], tag: str | None = "latest") -> bytes:
        """A package version made of `files` (package.json is written from name and version when not given); its
        tarball."""
        files = {path: data.encode() if isinstance(data, str) else data for path, data in files.items()}
        files.setdefault("package.json", json.dumps({"name": name, "version": version}).encode())
        return self.add_files(files, tag)

    def add_files(self, files: dict[str, bytes], tag: str | None = "latest") -> bytes:
        manifest = json.loads(files["package.json"])
        name, version = manifest["name"], manifest["version"]
        tarball = pack(files)
        self.versions.setdefault(name, {})[version] = Version(tarball, integrity(tarball))
        tags = self.tags.setdefault(name, {})
        if tag and (tag not in tags or _newer(version, tags[tag])):
            tags[tag] = version
        return tarball

    def tarball(self, name: str, version: str) -> bytes:
        return self.versions[name][version].tarball

    def tamper(self, name: str, version: str) -> None:
        """Serve other bytes than the packument's integrity vouches for (a compromised mirror)."""
        entry = self.versions[name][version]
        entry.tarball = entry.tarball[:-1] + bytes([entry.tarball[-1] ^ 1])

    def close(self) -> None:
        self._server.shutdown()

    def _packument(self, name):
        self.requests.append(request.path)
        if name not in self.versions:
            abort(404)
        versions = {
            version: {
                "name": name,
                "version": version,
                "dist": {"tarball": f"{self.url}/-/tarballs/{quote(name)}/{version}.tgz", "integrity": entry.integrity},
            }
            for version, entry in self.versions[name].items()
        }
        return jsonify({"name": name, "dist-tags": self.tags[name], "versions": versions})

    def _tarball(self, name, version):
        self.requests.append(request.path)
        if version not in self.versions.get(name, {}):
            abort(404)
        return self.versions[name][version].tarball, 200, {"Content-Type": "application/octet-stream"}


def _newer(a: str, b: str) -> bool:
    return semantic_version.Version(a) > semantic_version.Version(b)
