"""A researcher's experiment.html prepared for studyhive (server/tasks/jspsych/experiment.py) against the fake npm
registry (tests/fake_npm_registry.py): CDN tags resolved as unpkg and jsDelivr resolve them, files stored and served
by content, the errors a sync reports, a study's own packages, and no connection to any host but the fake's."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import socket
from pathlib import Path

import pytest

from server.db import db
from server.tasks.jspsych.experiment import RUNTIME_MARKER, ExperimentError, add_assets, prepare_experiment
from server.tasks.jspsych.npm import Registry
from tests.fake_npm_registry import NODE_MODULES, FakeRegistry, integrity, pack

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
CONTRIB = "@jspsych-contrib/plugin-hello"


@pytest.fixture(scope="module")
def fake():
    registry = FakeRegistry()
    registry.add("jspsych", "5.0.3", {"jspsych.js": "var jsPsych = (function() {})();"}, tag=None)
    # A contrib package whose CDN fields differ, so which field a CDN reads is visible.
    registry.add(
        CONTRIB,
        "1.2.0",
        {
            "package.json": json.dumps(
                {"name": CONTRIB, "version": "1.2.0", "unpkg": "dist/unpkg.js", "jsdelivr": "dist/jsdelivr.js"}
            ),
            "dist/unpkg.js": "var helloUnpkg = 1;",
            "dist/jsdelivr.js": "var helloJsdelivr = 1;",
        },
    )
    registry.add(
        "browser-only",
        "2.0.0",
        {
            "package.json": json.dumps({"name": "browser-only", "version": "2.0.0", "browser": "b.js", "main": "m.js"}),
            "b.js": "var b;",
            "m.js": "var m;",
        },
    )
    registry.add("tampered", "1.0.0", {"index.js": "var t;"})
    registry.tamper("tampered", "1.0.0")
    yield registry
    registry.close()


@pytest.fixture(autouse=True)
def only_loopback(monkeypatch):
    """Every connection the tests make: anything but the loopback fake is refused (a real CDN or registry)."""
    made = []
    connect = socket.socket.connect

    def guarded(sock, address):
        made.append(address)
        if sock.family in (socket.AF_INET, socket.AF_INET6) and address[0] not in ("127.0.0.1", "::1"):
            raise OSError(f"test refused a connection to {address}")
        return connect(sock, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)
    return made


def study(
    tmp_path: Path, head: str, script: str = "var jsPsych = initJsPsych(); jsPsych.run([]);", files: dict | None = None
) -> Path:
    folder = tmp_path / "study"
    (folder / "img").mkdir(parents=True, exist_ok=True)
    (folder / "img" / "blue.png").write_bytes(PNG)
    (folder / "study.toml").write_text('task_type = "jspsych"\n')
    for name, content in (files or {}).items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    (folder / "experiment.html").write_text(
        f"<!DOCTYPE html>\n<html>\n<head>\n<title>t</title>\n{head}\n</head>\n<body>\n<script>{script}</script>\n"
        "</body>\n</html>\n"
    )
    return folder


def prepare(folder: Path, fake: FakeRegistry | None, **kwargs):
    return prepare_experiment(folder, "experiment.html", registry=fake and Registry(fake.url, timeout=10), **kwargs)


def served(prepared, url: str) -> bytes:
    sha = re.fullmatch(r"/pkg/([0-9a-f]{64})/[^/]+", url).group(1)
    return prepared.files[sha]


def srcs(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="([^"]+)"', html)


def test_jspsych7_with_a_range_an_exact_plugin_and_its_css(tmp_path, fake, only_loopback):
    folder = study(
        tmp_path,
        '<script src="https://unpkg.com/jspsych@7"></script>\n'
        '<script src="https://unpkg.com/@jspsych/plugin-html-keyboard-response@1.1.3"></script>\n'
        '<link href="https://unpkg.com/jspsych@7.3.4/css/jspsych.css" rel="stylesheet" type="text/css" />',
    )
    prepared = prepare(folder, fake)
    assert (prepared.jspsych_major, prepared.jspsych_version) == (7, "7.3.4")
    assert "unpkg.com" not in prepared.html
    jspsych, plugin, css = [url for url in srcs(prepared.html) if url.startswith("/pkg/")]
    dist = NODE_MODULES / "jspsych7" / "dist" / "index.browser.min.js"
    assert served(prepared, jspsych) == dist.read_bytes() and jspsych.endswith("/index.browser.min.js")
    assert (
        served(prepared, plugin)
        == (NODE_MODULES / "plugin-html-keyboard-response-1" / "dist" / "index.browser.min.js").read_bytes()
    )
    assert served(prepared, css) == (NODE_MODULES / "jspsych7" / "css" / "jspsych.css").read_bytes()
    assert prepared.mimetypes[hashlib.sha256(dist.read_bytes()).hexdigest()] == "text/javascript"
    # The runtime goes right after jsPsych's own tag, before the plugin's.
    # crossorigin: the frame's origin is opaque, and without it the browser hides what these scripts throw
    tag = '<script src="{}" crossorigin="anonymous">'
    assert re.search(rf"{tag.format(jspsych)}</script>{RUNTIME_MARKER}\n{tag.format(plugin)}", prepared.html)
    pins = {(pin["name"], pin["version"]): pin for pin in prepared.pins}
    assert set(pins) == {("jspsych", "7.3.4"), ("@jspsych/plugin-html-keyboard-response", "1.1.3")}
    assert pins[("jspsych", "7.3.4")]["integrity"] == integrity(fake.tarball("jspsych", "7.3.4"))
    assert pins[("jspsych", "7.3.4")]["files"] == {
        "dist/index.browser.min.js": jspsych.split("/")[2],
        "css/jspsych.css": css.split("/")[2],
    }
    # Only the fake was asked, once per packument and tarball.
    assert {address[0] for address in only_loopback} == {"127.0.0.1"}
    assert sorted(fake.requests).count("/jspsych") == 1


@pytest.mark.parametrize(
    ("url", "version"),
    [
        ("https://unpkg.com/jspsych", "8.3.0"),  # no version: the latest dist-tag
        ("https://unpkg.com/jspsych@latest", "8.3.0"),
        ("https://unpkg.com/jspsych@%5E7.3", "7.3.4"),  # ^7.3, as a browser sends it
        ("https://unpkg.com/jspsych@~7.3.0/dist/index.browser.min.js", "7.3.4"),
        ("//unpkg.com/jspsych@>=7 <8", "7.3.4"),
        ("https://cdn.jsdelivr.net/npm/jspsych@8.3.0/dist/index.browser.min.js", "8.3.0"),
        ("https://cdn.jsdelivr.net/npm/jspsych@8", "8.3.0"),
    ],
)
def test_versions_resolve_as_the_cdn_would(tmp_path, fake, url, version):
    prepared = prepare(study(tmp_path, f'<script src="{url}"></script>'), fake)
    assert prepared.jspsych_version == version
    assert prepared.jspsych_major == int(version[0])
    assert [pin["version"] for pin in prepared.pins] == [version]


def test_jspsych8_with_a_contrib_plugin_each_cdn_reading_its_own_field(tmp_path, fake):
    folder = study(
        tmp_path,
        '<script src="https://unpkg.com/jspsych@8.3.0"></script>'
        '<script src="https://unpkg.com/@jspsych/plugin-html-button-response@2"></script>'
        f'<script src="https://unpkg.com/{CONTRIB}@1"></script>'
        f'<script src="https://cdn.jsdelivr.net/npm/{CONTRIB}@1.2"></script>'
        '<script src="https://cdn.jsdelivr.net/npm/browser-only@2"></script>',
    )
    prepared = prepare(folder, fake)
    assert prepared.jspsych_major == 8
    urls = [url for url in srcs(prepared.html) if url.startswith("/pkg/")]
    assert [served(prepared, url) for url in urls[2:]] == [b"var helloUnpkg = 1;", b"var helloJsdelivr = 1;", b"var b;"]
    contrib = next(pin for pin in prepared.pins if pin["name"] == CONTRIB)
    assert (contrib["version"], sorted(contrib["files"])) == ("1.2.0", ["dist/jsdelivr.js", "dist/unpkg.js"])


def test_study_files_are_listed_and_the_base_names_them(tmp_path, fake):
    folder = study(
        tmp_path,
        '<script src="https://unpkg.com/jspsych@8"></script><link rel="stylesheet" href="css/own.css">'
        '<script src="js/helpers.js"></script>',
        script="var jsPsych = initJsPsych();\nvar t = {stimulus: '<img src=\"img/blue.png\">'};",
        files={
            "css/own.css": "body { background: url(../img/blue.png); }",
            "js/helpers.js": "var helper = 1;",
            "packages/x.txt": "not a study file",
            ".secret": "hidden",
            "save_data.php": "<?php $password = 'lab-db-secret'; ?>",  # the lab's server scripts: never published
            "cgi/Store.CGI": "#!/usr/bin/perl",
        },
    )
    prepared = prepare(folder, fake)
    assert sorted(prepared.study_files) == ["css/own.css", "img/blue.png", "js/helpers.js"]
    assert not any(b"lab-db-secret" in data for data in prepared.files.values())
    assert prepared.notes == [
        "not published: cgi/Store.CGI, save_data.php (server scripts: studyhive runs none, a browser cannot, and their "
        "source may hold passwords); the experiment's saves to them are answered in its frame"
    ]
    base = f"/study-files/{prepared.study_files_manifest}/"
    assert f'<head><base href="{base}">' in prepared.html
    assert f'href="{base}css/own.css"' in prepared.html and f'src="{base}js/helpers.js"' in prepared.html
    assert prepared.files[prepared.study_files["img/blue.png"]] == PNG
    body = "var jsPsych = initJsPsych();\nvar t = {stimulus: '<img src=\"img/blue.png\">'};"
    assert prepared.inline_script_hashes == [
        f"'sha256-{base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()}'"
    ]


def test_the_files_are_served_by_content_with_immutable_caching(app, client, tmp_path, fake):
    folder = study(tmp_path, '<script src="https://unpkg.com/jspsych@7.3.4"></script>')
    prepared = prepare(folder, fake)
    add_assets(prepared)
    db.session.commit()
    assert add_assets(prepared) == 0  # stored once

    url = next(url for url in srcs(prepared.html) if url.startswith("/pkg/"))
    answer = client.get(url)
    assert answer.status_code == 200 and answer.data == served(prepared, url)
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    assert client.get(url, headers={"If-None-Match": answer.headers["ETag"]}).status_code == 304

    base = f"/study-files/{prepared.study_files_manifest}/"
    image = client.get(base + "img/blue.png")
    assert (image.status_code, image.data, image.mimetype) == (200, PNG, "image/png")
    assert image.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert client.get(base + "img/red.png").status_code == 404
    # A fetch from the sandboxed frame with a JSON Content-Type is preflighted first: the answer lets the GET go.
    asked = {"Origin": "null", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "content-type"}
    for url in (base + "img/blue.png", next(u for u in srcs(prepared.html) if u.startswith("/pkg/"))):
        preflight = client.options(url, headers=asked)
        assert preflight.status_code == 204 and preflight.data == b""
        assert preflight.headers["Access-Control-Allow-Origin"] == "*"
        assert preflight.headers["Access-Control-Allow-Methods"] == "GET, HEAD"
        assert preflight.headers["Access-Control-Allow-Headers"] == "content-type"
    assert client.get(base + "study.toml").status_code == 404
    # A file's hash is not a list of study files.
    assert client.get(f"/study-files/{prepared.study_files['img/blue.png']}/img/blue.png").status_code == 404
    assert client.get("/pkg/not-a-hash/x.js").status_code == 404


JSPSYCH = '<script src="https://unpkg.com/jspsych@8.3.0"></script>'


@pytest.mark.parametrize(
    ("head", "script", "tag", "message"),
    [
        (
            '<script src="https://unpkg.com/@jspsych/plugin-nonexistent@1"></script>',
            None,
            "plugin-nonexistent",
            "package not found",
        ),
        ('<script src="https://unpkg.com/jspsych@9"></script>', None, "jspsych@9", "no version of jspsych satisfies"),
        (
            '<script src="https://unpkg.com/jspsych@8.0.0"></script>',  # unpublished from npm: the versions around it
            None,
            "jspsych@8.0.0",
            "jspsych has no version 8.0.0 (the nearest published: 7.3.4 and 8.3.0)",
        ),
        ('<script src="https://unpkg.com/jspsych@next"></script>', None, "jspsych@next", "neither a version range"),
        (
            JSPSYCH + '<script src="https://unpkg.com/jspsych@8.3.0/dist/nope.js"></script>',
            None,
            "nope.js",
            "dist/nope.js is not a file of jspsych@8.3.0",
        ),
        (
            '<script src="jspsych-6.3.0/jspsych.js"></script>',
            "jsPsych.init({timeline: []});",
            "<script src=…jspsych…>",
            "no script tag loads jsPsych (e.g. https://unpkg.com/jspsych@8); not in the study folder: "
            "jspsych-6.3.0/jspsych.js",
        ),
        (JSPSYCH + '<link rel="stylesheet" href="../other/x.css">', None, "../other/x.css", "outside the study"),
        (JSPSYCH + '<script src="https://example.org/lib.js"></script>', None, "example.org", "not an npm CDN"),
        (JSPSYCH + '<script src="https://unpkg.com/jspsych@8/+esm"></script>', None, "+esm", "made by the CDN"),
        (
            '<script src="https://cdn.jsdelivr.net/gh/jspsych/jsPsych/jspsych.js"></script>',  # a template's jsPsych 6
            "jsPsych.init({timeline: []});",
            "/gh/jspsych",
            "this one serves a GitHub repository's files: put the file in the study folder, or name it by its npm "
            "package (cdn.jsdelivr.net/npm/<package>@<version>/<file>)",
        ),
        (JSPSYCH, "var jsPsych = 1; jsPsych.run([]);", "<script>", "no script calls initJsPsych"),
        (
            JSPSYCH,
            "jsPsych.init({timeline: []});",
            "<script>",
            "this script calls jsPsych.init(), but the page loads jsPsych 8.3.0: call initJsPsych()",
        ),
        (
            '<script src="https://unpkg.com/jspsych@5"></script>',
            None,
            "jspsych@5",
            "jsPsych 5 and older are not supported (this tag loads jspsych@5.0.3)",
        ),
        ('<script src="js/experiment.js"></script>', None, "<script src=…jspsych…>", "no script tag loads jsPsych"),
        (JSPSYCH + '<script src="https://unpkg.com/tampered@1"></script>', None, "tampered", "integrity mismatch"),
        (
            '<script src="https://unpkg.com/jspsych@8.3.0" integrity="sha384-AAAA" crossorigin="anonymous"></script>',
            None,
            "sha384-AAAA",
            "does not match the tag's integrity",
        ),
        (JSPSYCH + '<base href="https://example.org/">', None, "<base", "a <base> must name a folder of the study"),
        (JSPSYCH + '<base href="../">', None, "<base", "the <base> names ../, outside the study folder"),
    ],
)
def test_errors_name_the_file_and_the_tag(tmp_path, fake, head, script, tag, message):
    local = {"js/experiment.js": "var trials = [];"}  # no init there either: sync reads every study script for one
    folder = study(tmp_path, head, **({"script": script} if script else {}), files=local)
    with pytest.raises(ExperimentError) as caught:
        prepare(folder, fake)
    assert caught.value.file == "experiment.html"
    assert tag in caught.value.tag
    assert message in caught.value.message
    assert str(caught.value).startswith(f"experiment.html: {caught.value.tag}: ")


def test_every_refused_tag_is_named_at_once(tmp_path, fake):
    """A page with several tags studyhive cannot serve gets them all in one error, in page order, so a researcher
    fixes them after one sync instead of one sync each; the first is the error's own file, tag and message."""
    head = (
        '<script src="https://cdn.jsdelivr.net/gh/jspsych/jsPsych/jspsych.js"></script>'
        + '<script src="https://example.org/lib.js"></script>'
        + '<link rel="stylesheet" href="../other/x.css">'
        + '<script src="https://unpkg.com/jspsych@8.3.0/dist/nope.js"></script>'
    )
    folder = study(tmp_path, head, script="jsPsych.init({timeline: []});")
    with pytest.raises(ExperimentError) as caught:
        prepare(folder, fake)
    each = caught.value.each
    assert [(error.file, error.tag.split('"')[1]) for error in each] == [
        ("experiment.html", "https://cdn.jsdelivr.net/gh/jspsych/jsPsych/jspsych.js"),
        ("experiment.html", "https://example.org/lib.js"),
        ("experiment.html", "stylesheet"),
        ("experiment.html", "https://unpkg.com/jspsych@8.3.0/dist/nope.js"),
    ]
    assert "a GitHub repository's files" in each[0].message and "not an npm CDN" in each[1].message
    assert "outside the study" in each[2].message and "is not a file of jspsych@8.3.0" in each[3].message
    assert (caught.value.tag, caught.value.message) == (each[0].tag, each[0].message)
    assert caught.value.problems == [str(error) for error in each] == str(caught.value).splitlines()


def test_a_tag_whose_study_file_is_missing_is_served_missing_with_a_note(tmp_path, fake, client):
    """A published page's dead tags (a plugin never copied, a stylesheet or image removed) run everywhere, the browser
    getting a 404 for each: sync keeps them pointing into the study folder and says which files are missing, once
    each; the page's other tags are prepared as always."""
    head = (
        JSPSYCH
        + '<script src="jspsych-6.3/plugins/gone.js"></script><link rel="stylesheet" href="css/gone.css">'
        + '<script src="jspsych-6.3/plugins/gone.js"></script>'
        # from the site's root, as a lab's own server served the page: the study folder's root
        + '<script src="/js/experiment.js"></script><script src="/socket.io/socket.io.js"></script>'
    )
    folder = study(tmp_path, head, files={"js/experiment.js": "var jsPsych = initJsPsych();"})
    (folder / "experiment.html").write_text(
        (folder / "experiment.html")
        .read_text()
        .replace("</body>", '<img src="img/gone.png"><img src="/img/blue.png"></body>')
    )
    prepared = prepare(folder, fake)
    missing = [note for note in prepared.notes if "is not in the study folder" in note]
    said = "is not in the study folder: the page's request for it fails (404), as on any host without it; add the file"
    socket_io = (
        " (socket.io's client: the experiment talks to its lab's own socket.io server, which studyhive does not run; "
        "what it gets from there, stimuli or a save, it must do without)"
    )
    assert missing == [
        f"{name} {said} if the experiment uses it" + (socket_io if name.startswith("socket.io/") else "")
        for name in ("jspsych-6.3/plugins/gone.js", "css/gone.css", "socket.io/socket.io.js", "img/gone.png")
    ]
    assert sum("(missing: 404)" in tag.served for tag in prepared.resolved) == 5
    add_assets(prepared)
    db.session.commit()
    base = f"/study-files/{prepared.study_files_manifest}/"
    assert srcs(prepared.html).count(base + "jspsych-6.3/plugins/gone.js") == 2
    # The stylesheet's tag names the study folder's URL; the image's keeps its relative one, which <base> resolves.
    assert base + "css/gone.css" in srcs(prepared.html) and "img/gone.png" in srcs(prepared.html)
    assert f'<script src="{base}js/experiment.js" crossorigin="anonymous">' in prepared.html
    assert f'<img src="{base}img/blue.png">' in prepared.html
    assert client.get(base + "jspsych-6.3/plugins/gone.js").status_code == 404
    assert client.get(base + "img/blue.png").status_code == 200
    assert any(url.startswith("/pkg/") for url in srcs(prepared.html))  # jsPsych itself, as always


def test_web_analytics_tags_are_removed(tmp_path, fake):
    """A published page's visitor counting (Plausible, Google's gtag) would report to its own host, which the frame
    never reaches: the tag is left out, said in a note, and the page's own snippet beside it stays."""
    head = (
        JSPSYCH
        + '<script async defer data-domain="lab.org" src="https://plausible.io/js/plausible.js"></script>'
        + '<script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>'
    )
    prepared = prepare(study(tmp_path, head, script="var jsPsych = initJsPsych(); function gtag() {}"), fake)
    assert "plausible" not in prepared.html and "googletagmanager" not in prepared.html
    assert "function gtag() {}" in prepared.html and prepared.html.count("</script>") == 2  # jsPsych and its own
    assert [note.split(": removed (web analytics")[0] for note in prepared.notes] == [
        "https://plausible.io/js/plausible.js",
        "https://www.googletagmanager.com/gtag/js?id=G-1",
    ]


def test_a_script_asking_for_the_microphone_or_camera_is_named_at_sync(tmp_path, fake):
    """The frame is never given either (its sandbox; runtime.js ends the run at the request): sync says which package
    or study script asks, once each, and prepares the page as always."""
    fake.add("@jspsych/plugin-initialize-microphone", "2.1.0", {"index.js": "navigator.mediaDevices.getUserMedia()"})
    head = (
        JSPSYCH
        + '<script src="https://unpkg.com/@jspsych/plugin-initialize-microphone@2"></script>'
        + '<script src="js/camera.js"></script>'
    )
    folder = study(tmp_path, head, files={"js/camera.js": "navigator.mediaDevices.getUserMedia({video: true});"})
    asking = [note for note in prepare(folder, fake).notes if "getUserMedia" in note]
    assert asking == [
        f"{name}: it asks for the microphone or the camera (getUserMedia), which studyhive's sandboxed frame is never "
        "given: a participant who reaches that request is offered to end the study, and the session records the error"
        for name in ("@jspsych/plugin-initialize-microphone@2.1.0 index.js", "js/camera.js")
    ]


def test_a_registry_that_cannot_be_reached_is_a_clear_error(tmp_path):
    folder = study(tmp_path, JSPSYCH)
    # Bound but not listening: connecting is refused, and no other process (the other pytest pass of `make test`,
    # running at the same time) can take the port and answer in the meantime, as it could once the socket closed.
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        with pytest.raises(ExperimentError, match="the npm registry could not be reached"):
            prepare_experiment(folder, "experiment.html", registry=Registry(f"http://127.0.0.1:{port}", timeout=2))


def test_a_matching_sri_attribute_is_kept(tmp_path, fake):
    data = (NODE_MODULES / "jspsych" / "dist" / "index.browser.min.js").read_bytes()
    sri = "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()
    folder = study(
        tmp_path, f'<script src="https://unpkg.com/jspsych@8.3.0" integrity="{sri}" crossorigin="anonymous"></script>'
    )
    assert f'integrity="{sri}" crossorigin="anonymous"' in prepare(folder, fake).html


def offline_study(tmp_path, fake, lock: dict | None = None) -> Path:
    folder = study(
        tmp_path,
        '<script src="https://unpkg.com/jspsych@^7"></script>'
        '<script src="https://unpkg.com/@jspsych/plugin-html-keyboard-response"></script>',
    )
    packages = folder / "packages"
    packages.mkdir()
    (packages / "jspsych-7.3.4.tgz").write_bytes(fake.tarball("jspsych", "7.3.4"))
    plugin = fake.tarball("@jspsych/plugin-html-keyboard-response", "1.1.3")
    (packages / "jspsych-plugin-html-keyboard-response-1.1.3.tgz").write_bytes(plugin)
    if lock is not None:
        (packages / "package-lock.json").write_text(json.dumps(lock))
    return folder


def test_a_study_carrying_its_packages_needs_no_registry(tmp_path, fake, only_loopback):
    folder = offline_study(tmp_path, fake)
    prepared = prepare(folder, None, offline_packages_dir=folder / "packages")
    assert prepared.jspsych_version == "7.3.4" and only_loopback == []
    assert {(pin["name"], pin["version"], pin["source"]) for pin in prepared.pins} == {
        ("jspsych", "7.3.4", "offline"),
        ("@jspsych/plugin-html-keyboard-response", "1.1.3", "offline"),
    }
    assert "packages/jspsych-7.3.4.tgz" not in prepared.study_files

    # The next sync holds the tarballs to the pins of the first: one changed since is refused.
    again = prepare(folder, None, offline_packages_dir=folder / "packages", pinned=prepared.pins)
    assert again.pins == prepared.pins
    other = pack(
        {
            "package.json": json.dumps({"name": "jspsych", "version": "7.3.4", "unpkg": "dist/x.js"}).encode(),
            "dist/x.js": b"window.initJsPsych = function () {};",
        }
    )
    (folder / "packages" / "jspsych-7.3.4.tgz").write_bytes(other)
    with pytest.raises(ExperimentError) as caught:
        prepare(folder, None, offline_packages_dir=folder / "packages", pinned=prepared.pins)
    assert "jspsych@^7" in caught.value.tag
    assert "differs from the one pinned at an earlier sync" in caught.value.message


def test_a_study_lock_file_is_checked(tmp_path, fake):
    good = {
        "lockfileVersion": 3,
        "packages": {
            "node_modules/jspsych": {"version": "7.3.4", "integrity": integrity(fake.tarball("jspsych", "7.3.4"))},
            "node_modules/kb": {
                "name": "@jspsych/plugin-html-keyboard-response",
                "version": "1.1.3",
                "integrity": integrity(b"something else"),
            },
        },
    }
    folder = offline_study(tmp_path, fake, lock=good)
    with pytest.raises(ExperimentError) as caught:
        prepare(folder, None, offline_packages_dir=folder / "packages")
    assert "plugin-html-keyboard-response" in caught.value.tag
    assert "does not match the study's package-lock.json" in caught.value.message


def test_a_pages_own_base_names_the_folder_its_files_resolve_from(tmp_path, fake, only_loopback):
    """jspsych-ado's demos: a page two folders down names every file from the repository's root with
    `<base href="../../">`; studyhive's <base> names that folder instead, and the page's own is removed."""
    folder = study(tmp_path, "", files={"lib/stimuli.js": "var stimuli = 1;", "img/dot.png": PNG})
    (folder / "demos" / "dots").mkdir(parents=True)
    (folder / "demos" / "dots" / "index.html").write_text(
        '<!DOCTYPE html>\n<html><head><base href="../../" target="_self">\n'
        '<script src="https://unpkg.com/jspsych@8.3.0"></script>\n<script src="lib/stimuli.js"></script></head>\n'
        '<body><img src="img/dot.png"><script>var jsPsych = initJsPsych(); jsPsych.run([]);</script></body></html>\n'
    )
    prepared = prepare_experiment(folder, "demos/dots/index.html", registry=Registry(fake.url, timeout=10))
    base = f"/study-files/{prepared.study_files_manifest}/"
    assert prepared.html.count("<base ") == 1 and f'<head><base href="{base}">' in prepared.html
    assert f"{base}lib/stimuli.js" in srcs(prepared.html) and "img/dot.png" in srcs(prepared.html)
    removed = next(entry for entry in prepared.resolved if entry.tag.startswith("<base"))
    assert removed.served == "removed: studyhive's <base> names the study folder"
    (folder / "demos" / "dots" / "index.html").write_text(
        (folder / "demos" / "dots" / "index.html").read_text().replace('href="../../"', 'href="../"')
    )  # demos/ then: its lib/stimuli.js is not there, a 404 as on any host
    prepared = prepare_experiment(folder, "demos/dots/index.html", registry=Registry(fake.url, timeout=10))
    assert f'<base href="{base}demos/">' in prepared.html and f"{base}demos/lib/stimuli.js" in srcs(prepared.html)


def test_the_modules_a_script_imports_are_the_experiments_code(tmp_path, fake):
    """An inline module that imports the file calling initJsPsych (which imports another): sync finds the call there,
    and their code is read for the check and the handlers' hashes; a bare or missing import is not followed."""
    folder = study(
        tmp_path,
        '<script src="https://unpkg.com/jspsych@8.3.0"></script>',
        script='import { start } from "./js/start.js"; import "lodash"; import("./js/gone.js"); start();',
        files={
            "js/start.js": 'import { trials } from "../lib/trials.mjs";\n'
            "export function start() { initJsPsych().run(trials); }",
            "lib/trials.mjs": "export const trials = [{stimulus: '<b onclick=\"go()\">Go</b>'}];\n"
            'export * from "./trials.mjs";',
        },
    )
    html = (folder / "experiment.html").read_text().replace("<script>import", '<script type="module">import')
    (folder / "experiment.html").write_text(html)
    prepared = prepare(folder, fake)
    assert [(code.file, code.line) for code in prepared.modules] == [("js/start.js", 1), ("lib/trials.mjs", 1)]
    assert f"'sha256-{base64.b64encode(hashlib.sha256(b'go()').digest()).decode()}'" in prepared.handler_hashes
    (folder / "js" / "start.js").write_text("export function start() {}")
    with pytest.raises(ExperimentError, match=r"no script calls initJsPsych\(\)"):
        prepare(folder, fake)


def test_a_package_neither_carried_nor_reachable(tmp_path, fake):
    folder = offline_study(tmp_path, fake)
    (folder / "packages" / "jspsych-plugin-html-keyboard-response-1.1.3.tgz").unlink()
    with pytest.raises(ExperimentError, match="not among the study's packages and no registry"):
        prepare(folder, None, offline_packages_dir=folder / "packages")
    # With a registry, what the study does not carry comes from it.
    prepared = prepare(folder, fake, offline_packages_dir=folder / "packages")
    assert {pin["source"] for pin in prepared.pins} == {"offline", "registry"}


def test_a_page_in_a_subfolder_names_files_from_its_own_folder(tmp_path, fake, only_loopback):
    """A demo page in a subfolder loading the study's shared files with ../ (jspsych-contrib's and many labs'
    layout): tags and the page's own relative URLs resolve from the page's folder, never outside the study."""
    folder = study(tmp_path, "", files={"lib/own.js": "var own = 1;", "demos/pic.png": PNG})
    (folder / "demos" / "page.html").write_text(
        '<!DOCTYPE html>\n<html><head><script src="https://unpkg.com/jspsych@8.3.0"></script>\n'
        '<script src="../lib/own.js"></script></head>\n<body><img src="pic.png">\n'
        "<script>var jsPsych = initJsPsych(); jsPsych.run([]);</script></body></html>\n"
    )
    prepared = prepare_experiment(folder, "demos/page.html", registry=Registry(fake.url, timeout=10))
    base = f"/study-files/{prepared.study_files_manifest}/"
    assert f'<base href="{base}demos/">' in prepared.html
    # the script tag names the shared file; the image stays relative: the page's <base> makes it demos/pic.png
    assert f"{base}lib/own.js" in srcs(prepared.html) and "pic.png" in srcs(prepared.html)
    assert {"lib/own.js", "demos/pic.png"} <= set(prepared.study_files)
    (folder / "demos" / "page.html").write_text(
        (folder / "demos" / "page.html").read_text().replace("../lib/own.js", "../../own.js")
    )
    with pytest.raises(ExperimentError, match=r"\.\./\.\./own\.js is outside the study folder"):
        prepare_experiment(folder, "demos/page.html", registry=Registry(fake.url, timeout=10))
