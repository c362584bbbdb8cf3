"""A researcher's experiment.html made servable by studyhive alone (issue #24, point 1): `prepare_experiment`.

The page's script and link tags are read with html.parser. A tag that names an npm CDN (unpkg.com, cdn.jsdelivr.net/npm
and their aliases) as `name@range/path`, `name@range` or `name` is resolved as that CDN resolves it: the version is
the registry's dist-tag ("latest" when none is given) or the highest version the npm range allows (NpmSpec); a missing
path is the package.json field the CDN reads (unpkg: `unpkg`, `browser`, `main`; jsDelivr: `jsdelivr`, `browser`,
`main`). The tarball comes from the registry (or from the study's own packages/ folder), is checked against
`dist.integrity` (or the lock file / the pin of an earlier sync), and only the files the page names are kept. Each is
served at /pkg/<sha256>/<file name>. A package's stylesheet is made servable the same way: the package files its
relative url()s name are kept too, so are the files its url()s and @imports name on such hosts, and its Google Fonts
become Fontsource's npm packages (fonts.py). Hosts that serve libraries by name and exact version (cdnjs, Google's
hosted libraries, code.jquery.com: LIBRARY_HOSTS) are read as the npm package of that name and version, the file
found by its name; a `.min.js` that jsDelivr or cdnjs would minify on request is the package's unminified file.

A local copy of jsPsych's own build (the jsPsych documentation's download setup: jspsych/dist/jspsych.js beside the
page) is recognised by its content (jspsych_build_version): it is served as the package's file, pinned, when its
bytes are one of that version's, else as the study's file it is; the runtime goes after it either way. Sync says
(PreparedExperiment.notes) of each file served otherwise than its tag names it.

The study's own files (every file of its folder but study.toml, the page itself, dot-files, node_modules and the
packages folder) are stored too, and listed in one manifest, itself stored as an asset; the page gets
`<base href="/study-files/<manifest sha256>/">` first in its head (and the page's subfolder, for a page in one), so
every relative URL — a local script or stylesheet, an `<img>`, and the `"img/blue.png"` an inline script hands to
jsPsych — resolves to the study's file by its path, as it does on the researcher's own computer. Both routes
(server/web/files.py) answer with immutable caching: a URL names content, never a version.

Nothing is written: the caller (the task type's sync) stores `files` as assets (`add_assets`) and `pins` in the
study's version record, so a refused experiment leaves the previous version serving."""

from __future__ import annotations

import bisect
import hashlib
import html
import io
import itertools
import json
import mimetypes
import posixpath
import re
import tarfile
from base64 import b64encode
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import SplitResult, quote, unquote, urljoin, urlsplit

import semantic_version

from ...db import db
from ...exceptions import ConfigError
from ...models import Asset
from . import fonts
from .npm import MIB, PackageNotFound, Registry, RegistryError, integrity_matches, sri

# Replaced by jsrun's runtime: it must run after jsPsych's script defines initJsPsych and before the experiment's.
RUNTIME_MARKER = "<!--studyhive-runtime-->"
# studyhive's own `jatos` object (a task package page file): it stands in for JATOS's jatos.js, wherever the page
# names that (JATOS serves it itself, e.g. /assets/javascripts/jatos.js, never from the study's folder).
JATOS_SCRIPT = "/tasks/jspsych/jatos.js"
# Static sites that publish a repository's folder as it is: a page's URL there names a file of the study folder.
PAGES_HOSTS = (".github.io", ".gitlab.io")
# JATOS serves a study's assets folder (the folder a researcher brings here) at /study_assets/<its name>/, and its
# documentation tells experiments to name their files so: the path's rest names the study folder's file.
JATOS_ASSETS = re.compile(r"/study_assets(?:_root)?/([^/\s]+)/")
# Such a path in code (a preload list, an <img> a stimulus writes), where it starts a string or follows a quote, =
# or (: not a part of another URL.
JATOS_ASSETS_IN_CODE = re.compile(r"""(?<![\w$.:/-])/study_assets(?:_root)?/([^/"'`\s\\]+)/""")
# A string literal in code that is such a site's URL (group 2), or its start before a template's `${`.
PAGES_LITERAL = re.compile(
    r"""(["'`])(https?://[A-Za-z0-9-]+(?:"""
    + "|".join(re.escape(host) for host in PAGES_HOSTS)
    + r""")(?:/[^"'`\s\\$]*)?)(?=\1|\$\{)""",
    re.IGNORECASE,
)
# Where the experiment's own files and its packages' are served, to any origin (server/web/files.py).
PUBLIC_FILES = ("/pkg/", "/study-files/")
# A script that asks for the microphone, camera or screen (jsPsych's initialize-microphone / -camera, webgazer): the
# frame is never given them (its sandbox), and the runtime ends the run at the request (runtime.js).
MEDIA_REQUEST = b"getUserMedia"
MEDIA_NOTE = (
    "it asks for the microphone or the camera (getUserMedia), which studyhive's sandboxed frame is never given: a "
    "participant who reaches that request is offered to end the study, and the session records the error"
)
# Web analytics a published page carries (its site's visitor counts): they report a visit to their own host, which
# the frame never reaches, and the experiment does not need them. Their tags are removed.
ANALYTICS_HOSTS = {
    "plausible.io",
    "www.googletagmanager.com",
    "www.google-analytics.com",
    "ssl.google-analytics.com",
    "static.cloudflareinsights.com",
}
ANALYTICS = "web analytics: it would report the participant's visit to another host, which the frame never reaches"
SOCKET_IO = (
    " (socket.io's client: the experiment talks to its lab's own socket.io server, which studyhive does not run; "
    "what it gets from there, stimuli or a save, it must do without)"
)
JATOS_COMPONENT = (
    "{page} loads jatos.js and names its files from the study folder's root, as JATOS serves a component's page "
    "(at /publix/…/start, its relative URLs from the study assets folder): they are read from there"
)
SITE_URLS = (
    "its URLs of the Pages site or JATOS's /study_assets/ that publish the study folder are served the folder's files"
)
# An inline event handler in HTML a script writes ('<button onclick="next()">'): its value (group 4) between quotes
# (group 3) written with a backslash in the script's string or not (group 2).
# A start tag's text before an attribute: a quoted value may hold ">" (`value="Next >"`), never "<".
TAG_START = r"""<[A-Za-z](?:[^<>"']|"[^"<]*"|'[^'<]*')*?"""
CODE_HANDLER = re.compile(TAG_START + r"""\s(on[a-z]+)\s*=\s*(\\?)(["'])(.*?)\2\3""", re.IGNORECASE | re.DOTALL)
JS_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
JS_ESCAPED = {"n": "\n", "t": "\t", "r": "\r"}
# The attribute of its tag that carries [task.jatos]'s inputs (JSON), which the script reads from its own tag.
JATOS_INPUT = "data-studyhive-jatos"
# Pavlovia's jsPsych plugin (jspsych-pavlovia-3.2.5.js for jsPsych 6, jspsych-7-pavlovia-2022.1.1.js for 7 and 8; on
# Pavlovia a copy in the study's lib/, often left out of the published repository): studyhive's stand-in
# (static/pavlovia.js) in its place, whether the folder has the file or not, as jatos.js's.
PAVLOVIA_SCRIPT = "/tasks/jspsych/pavlovia.js"
PAVLOVIA_PLUGIN = re.compile(r"(?:jspsych-)?(?:7-)?pavlovia(?:-[\w.]+)?\.js", re.IGNORECASE)
STUDY_FILES_MIMETYPE = "application/vnd.studyhive.study-files+json"
# A single file kept from a package, and all of a study's own files together.
MAX_PACKAGE_FILE_BYTES = 20 * MIB
MAX_STUDY_FILES_BYTES = 200 * MIB

# The hosts that serve npm packages by name, each with the package.json fields it reads for a bare package URL, in
# its order, and the path prefix before the package name.
CDNS = {
    "unpkg.com": ("", ("unpkg", "browser", "main")),
    "npmcdn.com": ("", ("unpkg", "browser", "main")),
    "cdn.jsdelivr.net": ("/npm", ("jsdelivr", "browser", "main")),
    "fastly.jsdelivr.net": ("/npm", ("jsdelivr", "browser", "main")),
    "gcore.jsdelivr.net": ("/npm", ("jsdelivr", "browser", "main")),
    "testingcf.jsdelivr.net": ("/npm", ("jsdelivr", "browser", "main")),
}
# jsDelivr minifies a package's .js or .css file on request (x.min.js of x.js); unpkg serves only the package's files.
MINIFYING_CDNS = {host for host in CDNS if host.endswith("jsdelivr.net")}
# Hosts that serve libraries by their own name and an exact version rather than npm's layout: such a URL is the npm
# package of the same name (or the one LIBRARY_NAMES gives) and version, its file found by name (_Package.find):
# cdnjs.cloudflare.com/ajax/libs/<library>/<version>/<file>, ajax.googleapis.com/ajax/libs/<library>/<version>/<file>,
# code.jquery.com/jquery-<version>[.slim][.min].js (jquery-migrate too), code.jquery.com/ui/<version>/<file> and
# use.fontawesome.com/releases/v<version>/<file>. cdnjs minifies files on request, as jsDelivr does.
LIBRARY_HOSTS = ("cdnjs.cloudflare.com", "ajax.googleapis.com", "code.jquery.com", "use.fontawesome.com")
# The library names that are not the npm package's, by host (docs/own-experiments.md lists them).
LIBRARY_NAMES = {
    "cdnjs.cloudflare.com": {
        "Chart.js": "chart.js",
        "lodash.js": "lodash",
        "underscore.js": "underscore",
        "moment.js": "moment",
        "jqueryui": "jquery-ui",
        "PapaParse": "papaparse",
        "p5.js": "p5",
    },
    "ajax.googleapis.com": {"jqueryui": "jquery-ui", "d3js": "d3", "webfont": "webfontloader"},
}
JQUERY_FILE = re.compile(r"/(jquery(?:-migrate)?)-(\d+\.\d+\.\d+)((?:\.slim)?(?:\.min)?\.(?:js|map))")
LIBRARY_PATH = re.compile(r"/ajax/libs/([^/]+)/([^/]+)/(.+)")
FONTAWESOME_RELEASE = re.compile(r"/releases/v(\d[^/]*)/(.+)")
# A Font Awesome kit is a script fontawesome.com makes per account; the free icons are an npm package.
FONTAWESOME_KIT = (
    "a Font Awesome kit is made per account by fontawesome.com, not a file of a package; load Font Awesome Free's "
    'stylesheet instead: <link rel="stylesheet" href="https://unpkg.com/@fortawesome/fontawesome-free@6/css/all.min.css">'
)
NOT_STUDY_FILES = {"study.toml", "node_modules", "packages"}
# Server scripts (a lab's save_data.php, often with its database password): a browser never runs one, studyhive
# neither, and served they would publish their source. Not published; a note names each.
SERVER_SCRIPTS = (".php", ".phtml", ".cgi", ".pl", ".asp", ".aspx", ".jsp")
LINK_RELS_LOADED = {"stylesheet", "icon", "preload", "modulepreload", "prefetch", "apple-touch-icon", "manifest"}
LINK_RELS_CONNECTING = {"preconnect", "dns-prefetch"}
MEDIA_TAGS = {"img", "audio", "video", "source", "track", "input"}
# How the experiment starts its timeline: jsPsych 6's jsPsych.init({…}), 7's and 8's initJsPsych().
OLD_INIT = re.compile(r"\bjsPsych\s*\.\s*init\s*\(")
INIT = re.compile(r"\binitJsPsych\s*\(")
# A module a script imports by a relative or root path (group 2): `import … from "./x.js"`, `import "./x.js"`,
# `export … from "./x.js"`, `import("./x.js")`. A bare name (an npm package's) is the browser's to refuse.
IMPORT = re.compile(
    r"""(?:(?<![\w$.])import\s*(?:[\w$*{}\s,]+?\s*from\s*)?|(?<![\w$.])export\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*"""
    r"""from\s*|(?<![\w$.])import\s*\(\s*)(["'])((?:\.{1,2})?/[^"'\s]+)\1"""
)
# A folder deep enough that no <base href>'s ../ reaches its root: where a page's own base is resolved (_base_folder).
BASE_ROOT = "https://base.invalid/" + "d/" * 64
# jsPsych's own build, as a local copy (the release archive's dist/jspsych.js, npm's dist/index.browser(.min).js):
# 7.x and 8.x define the one global jsPsychModule, and JsPsych's version() returns the package's version, inlined by
# the build as a literal (`version(){return"7.0.0"}`, Babel's `{key:"version",value:function(){return"7.3.4"}}`) or a
# variable set to one (`var version = "8.3.0"`, minified `We="8.3.0"`). 6.x: `window.jsPsych = (function() { …
# core.version = function() { return "6.3.1" }` (6.0–6.2 have no version() and are "6"); 5.x and older: `var jsPsych =
# (function() {`.
JSPSYCH_BUILD = re.compile(r"^\s*var\s+jsPsychModule\s*=", re.M)
JSPSYCH_VERSION = re.compile(
    r"""\bversion["']?\s*(?:\(\s*\)|,\s*value\s*:\s*function\s*\(\s*\))\s*\{\s*return\s*(?:["']([^"']+)["']|([A-Za-z_$][\w$]*))"""
)
OLD_JSPSYCH_BUILD = re.compile(r"\bwindow\s*\.\s*jsPsych\s*=\s*\(\s*function\b")
OLD_JSPSYCH_VERSION = re.compile(r"""\bcore\s*\.\s*version\s*=\s*function\s*\(\s*\)\s*\{\s*return\s*["']([^"']+)["']""")
JSPSYCH5_BUILD = re.compile(r"^var\s+jsPsych\s*=\s*\(\s*function\b", re.M)
# The release archive drops the build's source-map comment; a copy is compared without it.
SOURCE_MAP = re.compile(rb"^//# sourceMappingURL=[^\n]*\n?", re.M)
# A url() in CSS, quoted or not: group 2 is the URL.
CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)""")
# An @import of a quoted URL without url(): group 2 is the URL.
CSS_IMPORT = re.compile(r"""(?<=@import)\s+(['"])([^'"]+)\1""")
# The Fontsource packages that stand in for Google Fonts (fonts.py): 5.x names a stylesheet per weight and style.
FONTSOURCE_RANGE = "^5"
TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".json": "application/json"}


class ExperimentError(ConfigError):
    """The experiment cannot be served as written: `file` (relative to the study folder) and `tag` (the tag as
    written, or what was looked for) say where."""

    def __init__(self, file: str, tag: str, message: str):
        super().__init__(f"{file}: {tag}: {message}")
        self.file, self.tag, self.message = file, tag, message
        self.each = [self]

    @classmethod
    def together(cls, errors: list[ExperimentError]) -> ExperimentError:
        """Several tags' errors as one: the first's file, tag and message, every one in `each` and `problems`."""
        first = errors[0]
        combined = cls(first.file, first.tag, first.message)
        combined.each = errors
        combined.args = ("\n".join(str(error) for error in errors),)
        return combined

    @property
    def problems(self) -> list[str]:
        return [str(error) for error in self.each]


@dataclass(frozen=True)
class Code:
    """Script code of the study's own (an inline script's text or a study file's), where it starts: `flask studies
    check` scans it (check.py)."""

    file: str  # relative to the study folder
    line: int  # the line of `file` its first character is on
    text: str


@dataclass(frozen=True)
class Resolved:
    """How one tag of the page is served, as `flask studies check` prints it."""

    line: int
    tag: str  # the start tag as written
    served: str  # e.g. "npm jspsych@8.3.0 dist/index.browser.min.js", "study file img/a.png"
    code: Code | None = None  # a script of the study's own


@dataclass(frozen=True)
class PreparedExperiment:
    html: str  # every script/link URL rewritten, <base> injected, RUNTIME_MARKER after the jsPsych tag
    jspsych_major: int
    jspsych_version: str
    files: dict[str, bytes]  # sha256 → bytes: every package and study file, and the study-files manifest
    mimetypes: dict[str, str]  # sha256 → mimetype of each of `files`
    pins: list[dict]  # per package: name, version, integrity, tarball, source, files {path: sha256}
    study_files: dict[str, str]  # study-relative path → sha256
    study_files_manifest: str  # sha256 of the manifest asset the <base> names
    inline_script_hashes: list[str] = field(default_factory=list)  # CSP sources, "'sha256-…'"
    handler_hashes: list[str] = field(default_factory=list)  # CSP sources of its inline event handlers' code
    resolved: list[Resolved] = field(default_factory=list)  # every tag studyhive serves or removes, in page order
    modules: list[Code] = field(default_factory=list)  # the study's module files its scripts import (IMPORT)
    notes: list[str] = field(default_factory=list)  # files served otherwise than their tags name them, and why


@dataclass
class _Tag:
    name: str
    attrs: list[tuple[str, str | None]]
    start: int
    end: int  # after the start tag
    text: str
    body_start: int = -1  # a script's inline text, between its tags
    body_end: int = -1

    def get(self, key: str) -> str | None:
        return next((value for name, value in self.attrs if name == key), None)


@dataclass(frozen=True)
class _Served:
    """A package file a URL names, as stored to serve."""

    url: str  # /pkg/<sha256>/<file name>
    version: str
    path: str  # in the package
    data: bytes  # the package file's own bytes
    rewritten: bool  # a stylesheet whose served bytes differ (package_css)
    unminified: bool  # the file a CDN minifies on request, served as the package holds it


class _Tags(HTMLParser):
    """Every start tag with its offsets in the text, and each script's inline text range."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.line_starts = [0]
        for line in text.splitlines(keepends=True):
            self.line_starts.append(self.line_starts[-1] + len(line))
        self.tags: list[_Tag] = []
        self.open_script: _Tag | None = None
        self.feed(text)
        self.close()

    def position(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def line(self, offset: int) -> int:
        """The line (from 1) the text's character at `offset` is on."""
        return bisect.bisect_right(self.line_starts, offset)

    def handle_starttag(self, tag, attrs):
        raw = self.get_starttag_text() or ""
        start = self.position()
        found = _Tag(tag, attrs, start, start + len(raw), raw)
        self.tags.append(found)
        if tag == "script":
            found.body_start = found.end
            self.open_script = found

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.open_script = None

    def handle_endtag(self, tag):
        if tag == "script" and self.open_script is not None:
            self.open_script.body_end = self.position()
            self.open_script = None


@dataclass(frozen=True)
class _Request:
    """A file a tag asks of an npm CDN."""

    name: str
    spec: str  # "" (none), a dist-tag or an npm range
    path: str  # "" → the package.json fields `fields`
    fields: tuple[str, ...]
    by_name: bool = False  # a library host's file: found by its name in the package (_Package.find)
    minifies: bool = False  # the host makes x.min.js of the package's x.js on request


def parse_cdn_url(url: str) -> _Request | None:
    """The npm package file a CDN URL names; None when the URL is not on an npm CDN or a library host. A ValueError
    says what of such a URL studyhive cannot resolve."""
    parts = urlsplit(url)
    host = parts.netloc.lower()
    if host == "kit.fontawesome.com":
        raise ValueError(FONTAWESOME_KIT)
    if host in LIBRARY_HOSTS:
        return _library_request(host, unquote(parts.path))
    if host not in CDNS:
        return None
    prefix, fields = CDNS[host]
    path = unquote(parts.path)
    if not path.startswith(prefix + "/"):
        # jsDelivr's /gh/ (a GitHub repository's files, jsPsych's among them in many templates) and its other routes
        serves = "a GitHub repository's files" if path.startswith("/gh/") else "files that are not an npm package's"
        raise ValueError(
            f"only {parts.netloc}{prefix}/<package> URLs name an npm package, and this one serves {serves}: put "
            f"the file in the study folder, or name it by its npm package "
            f"({parts.netloc}{prefix}/<package>@<version>/<file>)"
        )
    if parts.query:
        raise ValueError("CDN query options (?module …) change the file; name the file itself")
    segments = path[len(prefix) + 1 :].split("/")
    count = 2 if segments[0].startswith("@") else 1
    if len(segments) < count or not all(segments[:count]):
        raise ValueError("the URL names no package")
    head = "/".join(segments[:count])
    at = head.find("@", 1)
    name, spec = (head[:at], head[at + 1 :]) if at > 0 else (head, "")
    file = "/".join(segments[count:]).strip("/")
    if "," in spec or file.startswith("+") or "," in name:
        raise ValueError("combined files and +esm builds are made by the CDN, not files of the package")
    return _Request(name, spec, file, fields, minifies=host in MINIFYING_CDNS)


def _library_request(host: str, path: str) -> _Request:
    """The npm package file a library host's URL names (LIBRARY_HOSTS); a ValueError names the URLs it reads."""
    if host == "code.jquery.com":
        ui = re.fullmatch(r"/ui/([^/]+)/(.+)", path)
        jquery = JQUERY_FILE.fullmatch(path)
        if ui:
            name, version, file = "jquery-ui", ui[1], ui[2]
        elif jquery:
            name, version, file = jquery[1], jquery[2], jquery[1] + jquery[3]
        else:
            raise ValueError(
                "only code.jquery.com's jquery-<version>….js, jquery-migrate-<version>….js and ui/<version>/<file> "
                "are files of an npm package studyhive can serve"
            )
    elif host == "use.fontawesome.com":
        release = FONTAWESOME_RELEASE.fullmatch(path)
        if not release:
            raise ValueError("only use.fontawesome.com/releases/v<version>/<file> is Font Awesome Free's npm package")
        name, version, file = "@fortawesome/fontawesome-free", release[1], release[2]
    else:
        library = LIBRARY_PATH.fullmatch(path)
        if not library:
            raise ValueError(f"only {host}/ajax/libs/<library>/<version>/<file> names a library's file")
        name = LIBRARY_NAMES.get(host, {}).get(library[1], library[1])
        version, file = library[2], library[3]
        if name == "font-awesome" and not version.startswith(("3.", "4.")):
            name = "@fortawesome/fontawesome-free"  # npm's font-awesome stops at 4.7; 5 and later are published so
    return _Request(name, version, file, (), by_name=True, minifies=host == "cdnjs.cloudflare.com")


def _unminified(path: str) -> str | None:
    """x.js for x.min.js (and .css): the file a CDN minifies on request."""
    match = re.fullmatch(r"(.+)\.min\.(js|css)", path)
    return f"{match[1]}.{match[2]}" if match else None


def jspsych_build_version(data: bytes) -> str | None:
    """The version of jsPsych whose own build `data` is (JSPSYCH_BUILD: 8.x, 7.x, 6.x — "6" for a 6.x that does not
    say which —, "5 or older"), "" for one whose version cannot be read; None when it is not jsPsych's build."""
    text = data.decode("utf-8", "replace")
    if OLD_JSPSYCH_BUILD.search(text):
        old = OLD_JSPSYCH_VERSION.search(text)
        return old[1] if old else "6"
    if JSPSYCH5_BUILD.search(text):
        return "5 or older"
    if not JSPSYCH_BUILD.search(text):
        return None
    method = JSPSYCH_VERSION.search(text)
    if method is None:
        return ""
    if method[1]:
        return method[1]
    variable = re.search(rf"""(?<![\w$.]){re.escape(method[2])}\s*=\s*["'](\d+\.\d+\.\d+[^"']*)["']""", text)
    return variable[1] if variable else ""


def _mimetype(name: str) -> str:
    suffix = PurePosixPath(name).suffix.lower()
    return TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"


class _Package:
    """One version of a package, its tarball read: its package.json and its files by path."""

    def __init__(self, name: str, version: str, tarball: bytes):
        self.name, self.version = name, version
        try:
            archive = tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz")
        except (tarfile.TarError, OSError, EOFError) as exc:
            raise ValueError(f"{name}@{version}: the tarball cannot be read ({exc})") from exc
        self.archive = archive
        # npm tarballs hold one top folder, usually package/; its name is not fixed.
        members = archive.getmembers()
        self.members = {m.name.split("/", 1)[1]: m for m in members if m.isfile() and "/" in m.name}
        self.manifest = json.loads(self.read("package.json") or b"{}")

    def read(self, path: str) -> bytes | None:
        member = self.members.get(path)
        if member is None:
            return None
        if member.size > MAX_PACKAGE_FILE_BYTES:
            raise ValueError(f"{self.name}@{self.version}/{path} is larger than {MAX_PACKAGE_FILE_BYTES // MIB} MiB")
        extracted = self.archive.extractfile(member)
        return extracted.read() if extracted else None

    def resolve(self, path: str, fields: tuple[str, ...]) -> str | None:
        """The file a CDN serves for `path` (or, when empty, for the package itself), as unpkg does: the path as
        given, with .js, or its index.js."""
        if not path:
            for key in fields:
                value = self.manifest.get(key)
                if isinstance(value, str) and value:
                    path = value
                    break
            else:
                path = "index.js"
        path = str(PurePosixPath(path))  # "./dist/x.js" → "dist/x.js"
        return next((c for c in (path, path + ".js", path + "/index.js") if c in self.members), None)

    def find(self, path: str) -> str | None:
        """The file a library host's `path` names: that path, else the file whose path ends with it, under dist/
        first, the shallowest (cdnjs serves chart.js's dist/chart.umd.js as chart.umd.js)."""
        path = str(PurePosixPath(path))
        if path in self.members:
            return path
        ends = [member for member in self.members if member.endswith("/" + path)]
        return min(ends, key=lambda m: (not m.startswith("dist/"), m.count("/"), m), default=None)

    def same_file(self, data: bytes) -> str | None:
        """The package's file whose bytes are `data`'s, source-map comments aside (SOURCE_MAP)."""
        wanted = SOURCE_MAP.sub(b"", data)
        for path, member in sorted(self.members.items()):
            if abs(member.size - len(data)) <= 200 and SOURCE_MAP.sub(b"", self.read(path) or b"") == wanted:
                return path
        return None


def _tarball_name(name: str, version: str) -> str:
    """The file name `npm pack` gives a tarball: @scope/name → scope-name-version.tgz."""
    return f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"


class _Resolver:
    """Resolves package requests against the study's own packages (when it carries them) and the registry, keeping
    each version's tarball read once, and pins what it used."""

    def __init__(self, registry: Registry | None, offline: Path | None, study_dir: Path, pinned: list[dict]):
        self.registry = registry
        self.pinned = {(pin["name"], pin["version"]): pin for pin in pinned}
        self.packages: dict[tuple[str, str], _Package] = {}
        self.pins: dict[tuple[str, str], dict] = {}
        self.offline: dict[tuple[str, str], tuple[Path, bytes]] = {}
        self.locked: dict[tuple[str, str], str] = {}
        if offline is not None and offline.is_dir():
            for tgz in sorted(offline.glob("*.tgz")):
                data = tgz.read_bytes()
                try:
                    manifest = _Package("?", "?", data).manifest
                except ValueError as exc:
                    raise ExperimentError(_relative(tgz, study_dir), tgz.name, str(exc)) from exc
                if not manifest.get("name") or not manifest.get("version"):
                    raise ExperimentError(_relative(tgz, study_dir), tgz.name, "no package.json with name and version")
                self.offline[(manifest["name"], manifest["version"])] = (tgz, data)
            for lock in (offline / "package-lock.json", study_dir / "package-lock.json"):
                if lock.is_file():
                    self._read_lock(lock)

    def _read_lock(self, lock: Path) -> None:
        """npm's package-lock.json: v2/v3 "packages" (aliased entries carry their real name) or v1 "dependencies"."""
        try:
            data = json.loads(lock.read_text())
        except (ValueError, UnicodeDecodeError) as exc:
            raise ExperimentError(lock.name, "package-lock.json", f"not JSON: {exc}") from exc
        for key, entry in (data.get("packages") or {}).items():
            if key and isinstance(entry, dict) and entry.get("integrity"):
                name = entry.get("name") or key.rsplit("node_modules/", 1)[-1]
                self.locked.setdefault((name, entry.get("version")), entry["integrity"])
        for name, entry in (data.get("dependencies") or {}).items():
            if isinstance(entry, dict) and entry.get("integrity"):
                self.locked.setdefault((name, entry.get("version")), entry["integrity"])

    def version(self, name: str, spec: str) -> tuple[str, str]:
        """(version, where from: "offline" or "registry") a request resolves to; ValueError/LookupError say why not."""
        carried = [version for (n, version) in self.offline if n == name]
        if carried:
            return self._choose(name, spec, carried, {}), "offline"
        if self.registry is None:
            raise LookupError(f"package {name} is not among the study's packages and no registry is configured")
        packument = self.registry.packument(name)
        tags = packument.get("dist-tags") or {}
        return self._choose(name, spec, list(packument["versions"]), tags), "registry"

    @staticmethod
    def _choose(name: str, spec: str, versions: list[str], tags: dict) -> str:
        spec = spec.strip() or "latest"
        if spec in tags:
            return tags[spec]
        parsed = []
        for text in versions:
            try:
                parsed.append(semantic_version.Version(text))
            except ValueError:
                continue  # npm has accepted versions semver no longer parses; no range can match them
        if spec == "latest":  # the study's own packages carry no dist-tags: their highest release
            match = max((v for v in parsed if not v.prerelease), default=None)
        else:
            try:
                match = semantic_version.NpmSpec(spec).select(parsed)
            except ValueError as exc:
                raise ValueError(f"{spec!r} is neither a version range nor a dist-tag of {name}") from exc
        if match is None:
            shown = ", ".join(sorted(versions, key=_sort_key)[-8:])
            if exact := _exact(spec):  # a version the tag names that was never published (or was withdrawn)
                below = max((v for v in parsed if v < exact and not v.prerelease), default=None)
                above = min((v for v in parsed if v > exact and not v.prerelease), default=None)
                nearest = " and ".join(str(v) for v in (below, above) if v is not None) or "none"
                raise ValueError(f"{name} has no version {spec} (the nearest published: {nearest})")
            raise ValueError(f"no version of {name} satisfies {spec!r} (versions include {shown})")
        return str(match)

    def package(self, name: str, version: str, source: str) -> _Package:
        key = (name, version)
        if key in self.packages:
            return self.packages[key]
        if source == "offline":
            path, data = self.offline[key]
            expected, vouch = self.locked.get(key), "the study's package-lock.json"
            tarball, origin = path.name, "offline"
        else:
            entry = self.registry.packument(name)["versions"].get(version)
            if not isinstance(entry, dict):
                raise LookupError(f"the registry lists no version {version} of {name}")
            dist = entry.get("dist") or {}
            tarball = dist.get("tarball")
            if not tarball:
                raise LookupError(f"the registry gives no tarball for {name}@{version}")
            data = self.registry.tarball(tarball)
            expected, vouch, origin = dist.get("integrity"), "the registry's dist.integrity", "registry"
            if not expected and dist.get("shasum"):  # packages published before npm 5 have only a SHA-1
                if hashlib.sha1(data).hexdigest() != dist["shasum"]:  # noqa: S324 - the registry's own check
                    raise IntegrityError(f"{name}@{version}: the tarball does not match the registry's shasum")
                expected = sri(data)
            if not expected:
                raise IntegrityError(f"{name}@{version}: the registry gives no integrity to check the tarball against")
        if expected and not integrity_matches(data, expected):
            raise IntegrityError(f"{name}@{version}: the tarball ({tarball}) does not match {vouch}")
        # A version's tarball never changes on npm; one that differs from an earlier sync's is not the same code.
        pinned = self.pinned.get(key, {}).get("integrity")
        if pinned and not integrity_matches(data, pinned):
            raise IntegrityError(f"{name}@{version}: the tarball differs from the one pinned at an earlier sync")
        try:
            package = _Package(name, version, data)
        except ValueError as exc:
            raise LookupError(str(exc)) from exc
        self.packages[key] = package
        self.pins[key] = {
            "name": name,
            "version": version,
            "integrity": sri(data),
            "tarball": tarball,
            "source": origin,
            "files": {},
        }
        return package


class IntegrityError(ValueError):
    """A tarball's bytes are not those the registry, the lock file or an earlier pin vouch for."""


def _exact(spec: str) -> semantic_version.Version | None:
    """The version a spec names exactly ("8.0.0", "=8.0.0", "v8.0.0"), else None (a range)."""
    try:
        return semantic_version.Version(spec.lstrip("=v").strip())
    except ValueError:
        return None


def _sort_key(version: str):
    try:
        return (0, semantic_version.Version(version))
    except ValueError:
        return (-1, version)


def _major(version: str) -> int:
    """The major version of a release ("6.3.1") or of a local copy's version as jspsych_build_version reads it ("6")."""
    return int(re.match(r"\d+", version)[0])


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name


def _study_files(study_dir: Path, html_name: str, offline: Path | None) -> tuple[dict[str, bytes], list[str]]:
    """Every file the study folder publishes, by its path relative to the folder; and the server scripts it holds,
    which it does not publish (SERVER_SCRIPTS)."""
    skipped = {study_dir / html_name, *(study_dir / name for name in NOT_STUDY_FILES)}
    if offline is not None:
        skipped.add(offline)
    found, withheld, total = {}, [], 0
    for path in sorted(study_dir.rglob("*")):
        relative = path.relative_to(study_dir)
        if any(part.startswith(".") for part in relative.parts) or any(
            parent in skipped for parent in (path, *path.parents)
        ):
            continue
        if path.is_file() and path.suffix.lower() in SERVER_SCRIPTS:
            withheld.append(relative.as_posix())
        elif path.is_file():
            data = path.read_bytes()
            total += len(data)
            if total > MAX_STUDY_FILES_BYTES:
                raise ExperimentError(
                    relative.as_posix(), "study folder", f"the study's files exceed {MAX_STUDY_FILES_BYTES // MIB} MiB"
                )
            found[relative.as_posix()] = data
    return found, withheld


def _attrs(tag: _Tag, drop: tuple[str, ...] = (), **changes: str) -> str:
    """The start tag written again with `changes` to its attributes (those it lacks added), without those named in
    `drop`."""
    written = []
    present = {name for name, _ in tag.attrs}
    for name, value in [*tag.attrs, *((name, value) for name, value in changes.items() if name not in present)]:
        if name in drop:
            continue
        value = changes.get(name, value)
        written.append(name if value is None else f'{name}="{html.escape(value, quote=True)}"')
    return "<" + tag.name + "".join(" " + item for item in written) + ">"


def _loads_jatos(tag: _Tag) -> bool:
    """Whether a tag loads JATOS's jatos.js (any path or host: JATOS serves it itself)."""
    src = tag.get("src") if tag.name == "script" else None
    return bool(src) and PurePosixPath(unquote(urlsplit(src.strip()).path)).name == "jatos.js"


def _as_jatos_component(tags: list[_Tag], folder: PurePosixPath, own: dict[str, bytes]) -> bool:
    """Whether a page in `folder` (a subfolder of the study's) names its files as JATOS serves a component's page: at
    /publix/<run>/<component>/start, whatever its folder, so that its relative URLs name files from the study assets
    folder's root. Taken so when the page loads jatos.js and more of the files its tags name relatively are found from
    the study folder's root than from its own folder (a page also run from its folder on a laptop keeps that)."""
    if not any(_loads_jatos(tag) for tag in tags):
        return False
    urls = (urlsplit(url.strip()) for tag in tags if (url := tag.get("src") or tag.name == "link" and tag.get("href")))
    named = [unquote(url.path) for url in urls if not (url.scheme or url.netloc or url.path.startswith("/"))]
    from_root = sum(posixpath.normpath(path) in own for path in named)
    from_folder = sum(posixpath.normpath((folder / path).as_posix()) in own for path in named)
    return from_root > from_folder


def _jatos_assets(url: str) -> re.Match | None:
    """Where a URL names a file of JATOS's study assets folder (/study_assets/<folder>/…, on the page's host): the
    match of that start of its path (the folder's name its group 1), else None."""
    parts = urlsplit(url)
    return None if parts.scheme or parts.netloc else JATOS_ASSETS.match(parts.path)


def _pages(parts: SplitResult) -> bool:
    """Whether a URL is on GitHub's or GitLab's Pages, which publish a repository's folder as it is."""
    return (parts.hostname or "").endswith(PAGES_HOSTS)


def _csp_hash(source: str) -> str:
    """A Content-Security-Policy source for code: "'sha256-…'"."""
    return f"'sha256-{b64encode(hashlib.sha256(source.encode()).digest()).decode()}'"


def _handlers_in(code: str) -> set[str]:
    """The code of the inline event handlers the HTML in `code`'s strings writes, as the browser reads each (the
    string's escapes, then HTML's character references, undone), and as written, for a string that has none."""
    found = set()
    for m in CODE_HANDLER.finditer(code):
        written = m.group(4)
        found |= {written, html.unescape(JS_ESCAPE.sub(lambda e: JS_ESCAPED.get(e.group(1), e.group(1)), written))}
    return found


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def prepare_experiment(
    study_dir: Path,
    html_name: str,
    *,
    registry: Registry | None,
    offline_packages_dir: Path | None = None,
    pinned: list[dict] | None = None,
    jatos_input: dict[str, Any] | None = None,
) -> PreparedExperiment:
    """The study's page ready to serve, or ExperimentError naming the file and the tag. `offline_packages_dir`: the
    study's own npm tarballs (`npm pack` files, e.g. study_dir / "packages"), used before the registry and checked
    against a package-lock.json beside them or in the study folder, else against `pinned` (the pins of the study's
    previous version), else pinned now. `registry` None: the study's own packages only. `jatos_input`: [task.jatos]'s
    JSON inputs, put on a jatos.js tag's replacement for studyhive's jatos object (JATOS_INPUT) where one is not
    JATOS's default `{}` (a page without them is served as before: its version stays)."""
    page = study_dir / html_name
    if not page.is_file():
        raise ExperimentError(html_name, "study.toml", f"the experiment file {html_name} is not in the study folder")
    try:
        text = page.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ExperimentError(html_name, "(file)", f"not UTF-8 text: {exc}") from exc
    parsed = _Tags(text)
    tags = parsed.tags

    own, withheld = _study_files(study_dir, html_name, offline_packages_dir)
    own_sha = {path: _sha256(data) for path, data in own.items()}
    own_folders = {path.rsplit("/", k)[0] for path in own for k in range(1, path.count("/") + 1)}
    manifest = json.dumps({"files": own_sha}, sort_keys=True, separators=(",", ":")).encode()
    manifest_sha = _sha256(manifest)
    files = {sha: own[path] for path, sha in own_sha.items()}
    types = {sha: _mimetype(path) for path, sha in own_sha.items()}
    files[manifest_sha], types[manifest_sha] = manifest, STUDY_FILES_MIMETYPE
    base = f"/study-files/{manifest_sha}/"
    # A page in a subfolder of the study (a demo folder beside a shared jspsych-dist/) names files from its own
    # folder, `../` included, as it does on a laptop: its <base> is that folder, and tags resolve from it.
    folder = PurePosixPath(html_name).parent
    jatos_component = folder != PurePosixPath(".") and _as_jatos_component(tags, folder, own)
    if jatos_component:
        folder = PurePosixPath(".")
    own_base = next((tag for tag in tags if tag.name == "base" and tag.get("href") is not None), None)
    if own_base is not None:  # its files named from another folder of the study's: studyhive's <base> names that one
        folder = _base_folder(own_base, html_name)
    page_base = base if folder == PurePosixPath(".") else f"{base}{folder.as_posix()}/"

    resolver = _Resolver(registry, offline_packages_dir, study_dir, pinned or [])
    edits: list[tuple[int, int, str]] = []
    jspsych: tuple[str, _Tag] | None = None
    jspsych_plugins: PurePosixPath | None = None  # a local jsPsych 6 copy's plugins/ folder
    inline_scripts: list[_Tag] = []
    local_scripts: list[bytes] = []
    rewritten: set[str] = set()  # served URLs of stylesheets whose bytes differ from the package's (package_css)
    resolved: list[tuple[int, Resolved]] = []  # by the tag's offset in the page

    def report(tag: _Tag, served: str, code: Code | None = None) -> None:
        resolved.append((tag.start, Resolved(parsed.line(tag.start), tag.text, served, code)))

    styling: set[tuple[str, str, str]] = set()  # the package stylesheets being made servable (an @import loop)
    local_styles: list[tuple[int, _Tag, str, str]] = []  # (index in edits, tag, attribute, file) of local stylesheets
    notes: list[str] = []  # what sync says of a file served otherwise than the tag names it
    if jatos_component:
        notes.append(JATOS_COMPONENT.format(page=html_name))
    if withheld:
        notes.append(
            f"not published: {', '.join(withheld)} (server scripts: studyhive runs none, a browser cannot, and their "
            "source may hold passwords); the experiment's saves to them are answered in its frame"
        )
    missing: list[str] = []  # files tags name that the study folder does not have
    compared: set[tuple[str, str]] = set()  # packages read to compare local copies with: pinned only when they serve

    def fail(tag: _Tag, message: str):
        raise ExperimentError(html_name, tag.text, message)

    def jatos_folder(name: str) -> str:
        """The study folder's folder JATOS's study assets folder `name` is: the study folder itself, or its subfolder
        of that name where it has one (the assets folder brought inside the study's), as "" or "name/"."""
        return f"{name}/" if name in own_folders else ""

    def study_file(tag: _Tag, url: str) -> str:
        """The study folder's file a tag names. One that is not there is served as missing, as any host serves it
        (published pages keep tags of files their authors removed or never copied, and run everywhere): the page's
        request for it gets a 404, and a note says so, since an experiment that does use it fails there."""
        path = urlsplit(url).path
        if assets := _jatos_assets(url):  # JATOS's /study_assets/<folder>/
            path = "/" + jatos_folder(unquote(assets.group(1))) + path[assets.end() :]
        path = PurePosixPath(unquote(path))
        # A path from the site's root ("/static/js/task.js", as the lab's own server served the page) names the file
        # from the study folder's root: the folder is what that server published.
        name = posixpath.normpath(path.as_posix().lstrip("/") if path.is_absolute() else (folder / path).as_posix())
        if name.split("/")[0] == ".." or name == ".":
            fail(tag, f"{url} is outside the study folder; name a file of the study folder or an npm CDN URL")
        if name not in own and name not in missing:
            missing.append(name)
            notes.append(
                f"{name} is not in the study folder: the page's request for it fails (404), as on any host without "
                "it; add the file if the experiment uses it"
                + (SOCKET_IO if PurePosixPath(name).name.startswith("socket.io") else "")
            )
        return name

    @contextmanager
    def resolving(tag: _Tag):
        """Resolving a package (or a font) for `tag`: what goes wrong is said about the tag."""
        try:
            yield
        except ExperimentError:
            raise  # already about the tag (a ValueError too: caught below, it would name the tag twice)
        except PackageNotFound as exc:
            fail(tag, f"package not found: {exc}")
        except IntegrityError as exc:
            fail(tag, f"integrity mismatch: {exc}")
        except (RegistryError, LookupError, ValueError) as exc:
            fail(tag, str(exc))

    def keep(path: str, data: bytes, pin: dict | None = None) -> str:
        """Store `data` to serve as /pkg/<sha256>/<file name>, recorded in the package's `pin` as its file `path`."""
        sha = _sha256(data)
        files[sha], types[sha] = data, _mimetype(path)
        if pin is not None:
            pin["files"][path] = sha
        return f"/pkg/{sha}/{PurePosixPath(path).name}"

    def package_css(package: _Package, path: str, data: bytes) -> bytes:
        """A package's stylesheet with what it names made servable: a relative url() to the package's own file is
        that file, stored and served by its hash like the stylesheet; a url() or @import on an npm CDN or a library
        host is that package's file, served the same way; Google Fonts become Fontsource's (fonts.py)."""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return data  # not CSS studyhive can read: served as it is
        folder = PurePosixPath(path).parent
        styling.add((package.name, package.version, path))

        def own_file(match: re.Match) -> str:
            url = match.group(2)
            parts = urlsplit(url)
            if parts.scheme in ("http", "https", "") and parts.netloc:
                try:
                    request = parse_cdn_url(url if parts.scheme else "https:" + url)
                except ValueError:
                    request = None  # not a file studyhive can name: left as it is, as any other host's
                return f'url("{cdn_file(url, request).url}")' if request else match.group(0)
            if parts.scheme or url.startswith(("/", "#")):
                return match.group(0)
            name = posixpath.normpath((folder / unquote(parts.path)).as_posix())
            content = package.read(name)
            if content is None:
                return match.group(0)
            return f'url("{keep(name, content, resolver.pins[(package.name, package.version)])}")'

        def imported(match: re.Match) -> str:
            replaced = own_file(match)
            return match.group(0) if replaced == match.group(0) else " " + replaced

        text = CSS_IMPORT.sub(imported, CSS_URL.sub(own_file, text))
        styling.discard((package.name, package.version, path))
        return fonts.google_fonts(text, served_fonts).encode()

    def served_fonts(faces: list[fonts.Face]) -> str:
        """The URL of one stylesheet declaring `faces` from Fontsource's packages (the latest 5.x of each family)."""
        sheets = []
        for face in faces:
            version, source = resolver.version(face.package, FONTSOURCE_RANGE)
            package = resolver.package(face.package, version, source)
            data = package.read(face.stylesheet)
            if data is None:
                wanted = f"{face.family} {face.weight}{' italic' if face.italic else ''}"
                raise LookupError(f"{face.package}@{version} has no {face.stylesheet} ({wanted})")
            sheets.append(package_css(package, face.stylesheet, data))
        return keep(faces[0].package.rsplit("/", 1)[-1] + ".css", b"\n".join(sheets))

    def cdn_file(url: str, request: _Request) -> _Served:
        """The package file `url` names, stored to serve (a stylesheet made servable: package_css). LookupError and
        ValueError say why not."""
        version, source = resolver.version(request.name, request.spec)
        if request.name == "jspsych" and _major(version) <= 5:
            raise ValueError(f"jsPsych 5 and older are not supported (this tag loads jspsych@{version})")
        package = resolver.package(request.name, version, source)

        def lookup(path: str) -> str | None:
            return package.find(path) if request.by_name else package.resolve(path, request.fields)

        path, unminified = lookup(request.path), False
        if path is None and request.minifies and (plain := _unminified(request.path)) and (path := lookup(plain)):
            unminified = True
            notes.append(
                f"{url}: {request.name}@{version} has no {request.path}, which the CDN minifies from {path} on "
                f"request: {path} is served (the same code, unminified)"
            )
        data = package.read(path) if path else None
        if data is None:
            wanted = request.path or f"the package's main file ({'/'.join(request.fields)})"
            found_by = " (nor a file of that name, or its unminified file)" if request.by_name else ""
            raise LookupError(f"{wanted} is not a file of {request.name}@{version}{found_by}")
        served = data
        if _mimetype(path) == "text/css" and (request.name, version, path) not in styling:
            served = package_css(package, path, data)
        url = keep(path, served, resolver.pins[(request.name, version)])
        return _Served(url, version, path, data, served != data, unminified)

    def package_file(tag: _Tag, url: str, request: _Request) -> str:
        nonlocal jspsych
        with resolving(tag):
            got = cdn_file(url, request)
        # jsPsych's script, not its stylesheet: a page may link jspsych@…/css/jspsych.css above the script, and the
        # runtime goes right after this tag, where initJsPsych must already be defined.
        if request.name == "jspsych" and jspsych is None and tag.name == "script":
            jspsych = (got.version, tag)
        carried = (
            " (the study's packages/)" if resolver.pins[(request.name, got.version)]["source"] == "offline" else ""
        )
        report(tag, f"npm {request.name}@{got.version} {got.path}{carried}")
        if MEDIA_REQUEST in got.data:
            notes.append(f"{request.name}@{got.version} {got.path}: {MEDIA_NOTE}")
        checked = tag.get("integrity")
        # A tag's integrity of a CDN-minified file names bytes no package holds: the package's own are checked.
        if checked and not got.unminified and not integrity_matches(got.data, checked):
            fail(tag, f"integrity mismatch: {request.name}@{got.version}/{got.path} does not match the tag's integrity")
        if got.rewritten or got.unminified:
            rewritten.add(got.url)
        return got.url

    def rewrite(tag: _Tag, key: str, url: str) -> None:
        parts = urlsplit(url)
        extra: dict[str, str] = {}  # attributes the served tag has beside the URL
        if parts.scheme in ("data", "blob"):
            report(tag, f"kept as it is (a {parts.scheme}: URL)")
            return
        if _loads_jatos(tag):
            served = JATOS_SCRIPT
            rewritten.add(served)  # not JATOS's file: an integrity attribute naming that is dropped
            given = {name: value for name, value in (jatos_input or {}).items() if value != {}}
            if given:
                extra[JATOS_INPUT] = json.dumps(given, ensure_ascii=False, separators=(",", ":"))
        elif tag.name == "script" and PAVLOVIA_PLUGIN.fullmatch(PurePosixPath(unquote(parts.path)).name):
            served = PAVLOVIA_SCRIPT
            rewritten.add(served)
            report(tag, "studyhive's stand-in for Pavlovia's jsPsych plugin (its init and finish end at once)")
        elif parts.scheme in ("http", "https", "") and parts.netloc.lower() == fonts.CSS_HOST and tag.name == "link":
            with resolving(tag):
                faces = fonts.faces_of_url(url)
                served = served_fonts(faces)
            rewritten.add(served)
            report(tag, "Google Fonts from Fontsource: " + ", ".join(f"{f.package} {f.stylesheet}" for f in faces))
        elif tag.name == "script" and (parts.hostname or "") in ANALYTICS_HOSTS:
            edits.append((tag.start, text.find(">", tag.body_end) + 1 if tag.body_end >= 0 else tag.end, ""))
            report(tag, f"removed ({ANALYTICS})")
            notes.append(f"{url}: removed ({ANALYTICS})")
            return
        elif parts.scheme in ("http", "https", "") and parts.netloc:
            try:
                request = parse_cdn_url(url if parts.scheme else "https:" + url)
            except ValueError as exc:
                fail(tag, str(exc))
            if request is not None:
                served = package_file(tag, url, request)
            elif (name := site_copy(parts)) in own:
                notes.append(f"{url} is served from the study folder's {name} (the site publishes the folder)")
                served = local_file(tag, key, name, f" (in place of {url})")
            elif _pages(parts):
                fail(
                    tag,
                    f"{parts.netloc} publishes a folder, and the study folder has no file at the end of the path "
                    f"{unquote(parts.path)}: put the site's file in the study folder at that path (studyhive serves "
                    "it from there)",
                )
            else:
                fail(
                    tag,
                    f"{parts.netloc} is not an npm CDN or a library host studyhive can serve; put the file in the "
                    "study folder",
                )
        elif parts.scheme:
            fail(tag, f"a {parts.scheme}: URL cannot be served")
        else:
            served = local_file(tag, key, study_file(tag, url))
        if tag.name == "script" and (served.startswith(PUBLIC_FILES) or served in (JATOS_SCRIPT, PAVLOVIA_SCRIPT)):
            # The frame's origin is opaque, so every script is another origin's to it, and the browser hides what
            # one without CORS throws ("Script error.", and no unhandledrejection at all): the runtime could neither
            # record the error nor end a run it stops. These files allow any origin (web/files.py send_public, and
            # task_file for the stand-ins).
            extra["crossorigin"] = "anonymous"
        # A rewritten stylesheet's tag integrity names bytes no longer served (a package's were checked against it).
        drop = ("integrity",) if served in rewritten else ()
        edits.append((tag.start, tag.end, _attrs(tag, drop, **{key: served, **extra})))

    def local_file(tag: _Tag, key: str, name: str, said: str = "") -> str:
        """The URL to serve the study folder's file `name` at (a jsPsych build as local_jspsych serves it), its
        script read for the check and its stylesheet's URLs made servable (local_styles)."""
        served, code = base + name, None
        data = own.get(name)  # None: missing, served as such
        if data is None:
            report(tag, f"study file {name} (missing: 404)")
            return served
        if tag.name == "script" and (version := jspsych_build_version(data)) is not None:
            served = local_jspsych(tag, name, version)
        elif tag.name == "script":
            source = data.decode("utf-8", "replace")
            if MEDIA_REQUEST in data:
                notes.append(f"{name}: {MEDIA_NOTE}")
            code = Code(name, 1, site_urls(source))
            if code.text != source:  # served as rewritten, by its hash as a package's file is
                served = keep(name, code.text.encode())
                notes.append(f"{name}: {SITE_URLS}")
            local_scripts.append(code.text.encode())
            if (path := jspsych_own(name, data)) is not None:
                # A plugin of the local jsPsych copy, as jsPsych published it: not the experiment's code to check
                # (its clock calls time responses in display code a replay skips).
                said, code = f"{said} (jsPsych {jspsych[0]}'s {path}: not checked as the experiment's own code)", None
        elif _mimetype(name) == "text/css":
            local_styles.append((len(edits), tag, key, name))
        report(tag, f"study file {name}{said}" + ("" if served == base + name else f", served as {served}"), code)
        return served

    def jspsych_own(name: str, data: bytes) -> str | None:
        """Where jsPsych published the study's script file `name`: the file of the page's jsPsych package whose bytes
        are `data`'s, or for a jsPsych 6 copy (most of whose versions npm lacks) its plugins/ folder; else None."""
        if jspsych_plugins is not None and PurePosixPath(name).parent == jspsych_plugins:
            return f"plugins/{PurePosixPath(name).name}"
        if jspsych is None or "." not in jspsych[0]:
            return None
        try:
            return jspsych_package(jspsych[0]).same_file(data)
        except (RegistryError, LookupError, ValueError):  # IntegrityError too: a local copy's note says it
            return None

    def site_copy(parts: SplitResult) -> str | None:
        """The study folder's file a GitHub or GitLab Pages URL names, where the folder is what the site publishes
        (jsPsych's recipe for Qualtrics loads every file from there): the longest end of the URL's path that is a
        file of the folder (the site's project and folders above the study dropped), else None. A URL ending in
        `/` names a folder: the longest such end that is a folder of the study's, else the study folder ("")."""
        if not _pages(parts):
            return None
        segments = [segment for segment in unquote(parts.path).split("/") if segment]
        ends = ["/".join(segments[i:]) for i in range(len(segments) + 1)]
        if parts.path.endswith("/") or not segments:
            return next((end + "/" for end in ends if end in own_folders), "")
        return next((end for end in ends if end in own), None)

    def site_urls(code: str) -> str:
        """`code` with each string literal that is a Pages URL site_copy maps (a file, or a folder the code appends
        names to: `repo_site + "img/a.png"`) made the study folder's URL; others are left as they are."""

        def mapped(match: re.Match) -> str:
            parts = urlsplit(match.group(2))
            name = site_copy(parts)
            if name is None:
                return match.group(0)
            rest = ("?" + parts.query if parts.query else "") + ("#" + parts.fragment if parts.fragment else "")
            return match.group(1) + base + quote(name) + rest

        return JATOS_ASSETS_IN_CODE.sub(
            lambda match: base + jatos_folder(unquote(match.group(1))), PAGES_LITERAL.sub(mapped, code)
        )

    def jspsych_package(version: str) -> _Package:
        """jsPsych's package of `version`, to compare a local copy with."""
        package = resolver.package("jspsych", *resolver.version("jspsych", version))
        compared.add(("jspsych", package.version))
        return package

    def local_jspsych(tag: _Tag, name: str, version: str) -> str:
        """The URL to serve a local copy of jsPsych's own build at: the package's file, pinned like a CDN tag's, when
        the copy's bytes are that version's (its source-map comment aside), else the study's file as it is (a
        note says so)."""
        nonlocal jspsych, jspsych_plugins
        if not re.match(r"\d+", version):
            fail(tag, f"{name} is jsPsych's own build, but its version cannot be read; load jsPsych from unpkg.com")
        if _major(version) <= 5:
            fail(tag, f"jsPsych 5 and older are not supported (this tag loads a local copy of jsPsych {version})")
        if jspsych is None:
            jspsych = (version, tag)
            if _major(version) == 6:  # the release's layout: jspsych.js beside plugins/jspsych-*.js
                jspsych_plugins = PurePosixPath(name).parent / "plugins"
        if "." not in version:
            notes.append(f"{name}: a local copy of jsPsych {version} that does not say which {version}.x: served as is")
            return base + name
        try:
            package = jspsych_package(version)
        except IntegrityError as exc:
            fail(tag, f"integrity mismatch: {exc}")
        except (RegistryError, LookupError, ValueError) as exc:
            notes.append(
                f"{name}: a local copy of jsPsych {version}, served from the study folder as it is: it could not be "
                f"compared with jspsych@{version} ({exc})"
            )
            return base + name
        path = package.same_file(own[name])
        if path is None:
            notes.append(
                f"{name}: a local copy of jsPsych {version} that differs from every file of jspsych@{version} "
                "(edited?): served from the study folder as it is"
            )
            return base + name
        return keep(path, package.read(path), resolver.pins[("jspsych", version)])

    def local_jspsych_css(index: int, tag: _Tag, key: str, name: str) -> None:
        """A local stylesheet that is a file of the page's jsPsych version (jspsych.css) is served as that package's
        (its fonts resolved, pinned); any other is the study's own."""
        try:
            package = jspsych_package(jspsych[0])
        except (RegistryError, LookupError, ValueError):
            return  # a local jsPsych copy's note already says it could not be compared
        path = package.same_file(own[name])
        if path is None or _mimetype(path) != "text/css":
            if PurePosixPath(name).name == "jspsych.css":
                notes.append(f"{name} differs from jspsych@{jspsych[0]}'s stylesheets: served as it is")
            return
        with resolving(tag):
            served = package_css(package, path, own[name])
        url = keep(path, served, resolver.pins[("jspsych", jspsych[0])])
        drop = ("integrity",) if served != own[name] else ()
        edits[index] = (tag.start, tag.end, _attrs(tag, drop, **{key: url}))

    head_end = None
    refused: list[ExperimentError] = []  # every tag that cannot be served: one sync names them all
    for tag in tags:
        try:
            if tag.name == "base":
                edits.append((tag.start, tag.end, ""))
                at = f"the study folder's {folder.as_posix()}/" if folder != PurePosixPath(".") else "the study folder"
                report(tag, f"removed: studyhive's <base> names {at}" if tag is own_base else "removed (unused)")
                continue
            if tag.name == "head" and head_end is None:
                head_end = tag.end
            if tag.name == "script":
                src = tag.get("src")
                if src:
                    rewrite(tag, "src", src.strip())
                else:
                    inline_scripts.append(tag)
            elif tag.name == "link" and tag.get("href"):
                rels = set((tag.get("rel") or "").lower().split())
                href = tag.get("href").strip()
                if rels & LINK_RELS_CONNECTING:
                    edits.append((tag.start, tag.end, ""))  # a warm-up connection to a host the page no longer uses
                    report(tag, "removed (a connection to a host the page no longer loads from)")
                elif rels & LINK_RELS_LOADED:
                    rewrite(tag, "href", href)
            elif tag.name in MEDIA_TAGS and tag.get("src"):
                src = tag.get("src").strip()
                if (name := site_copy(urlsplit(src))) in own:
                    edits.append((tag.start, tag.end, _attrs(tag, (), src=base + name)))
                    report(tag, f"study file {name} (in place of {src})")
                    continue
                if urlsplit(src).netloc:
                    fail(tag, f"{urlsplit(src).netloc} would be asked at participant time; put the file in the study")
                if not urlsplit(src).scheme:
                    name = study_file(tag, src)
                    report(tag, f"study file {name}" + (" (missing: 404)" if name in missing else ""))
                    if src.startswith("/"):  # <base> resolves the page's relative URLs, not those from the site's root
                        edits.append((tag.start, tag.end, _attrs(tag, (), src=base + name)))
        except ExperimentError as exc:
            refused.append(exc)
    if refused:
        raise refused[0] if len(refused) == 1 else ExperimentError.together(refused)

    if jspsych is not None:
        for style in local_styles:
            local_jspsych_css(*style)
    bodies = []
    for tag in inline_scripts:
        if tag.body_end < 0:
            continue
        body = site_urls(text[tag.body_start : tag.body_end])
        if body != text[tag.body_start : tag.body_end]:
            edits.append((tag.body_start, tag.body_end, body))
            notes.append(f"{html_name}, the script at line {parsed.line(tag.body_start)}: {SITE_URLS}")
        bodies.append(body)
    if jspsych is None:
        absent = f"; not in the study folder: {', '.join(missing)}" if missing else ""
        raise ExperimentError(
            html_name,
            "<script src=…jspsych…>",
            f"no script tag loads jsPsych (e.g. https://unpkg.com/jspsych@8){absent}",
        )
    version, jspsych_tag = jspsych
    # The call that starts the timeline must be the loaded version's: the runtime hooks that one.
    start, other = (OLD_INIT, INIT) if _major(version) == 6 else (INIT, OLD_INIT)
    named = {OLD_INIT: "jsPsych.init()", INIT: "initJsPsych()"}
    for tag, body in zip(inline_scripts, bodies, strict=False):
        if other.search(body) and not start.search(body):
            fail(tag, f"this script calls {named[other]}, but the page loads jsPsych {version}: call {named[start]}")
    # The modules the scripts import hold the experiment's code too (an inline module that imports its start).
    seen: set[str] = set()
    modules = [
        module
        for code, at in [
            *((Code(html_name, 1, body), folder) for body in bodies),
            *((entry.code, PurePosixPath(entry.code.file).parent) for _, entry in resolved if entry.code),
        ]
        for module in _imported(code, at, own, seen)
    ]
    scripts = [*bodies, *(script.decode("utf-8", "replace") for script in local_scripts), *(m.text for m in modules)]
    # A script the page adds as it runs (createElement("script"), jsPsychMaker's loader) may be the one: any other
    # script file of the study's but a jsPsych build. The runtime ends a run whose timeline never starts.
    added = (
        data.decode("utf-8", "replace")
        for path, data in own.items()
        if path.endswith((".js", ".mjs")) and jspsych_build_version(data) is None
    )
    if not any(start.search(script) for script in itertools.chain(scripts, added)):
        raise ExperimentError(
            html_name, "<script>", f"no script calls {named[start]}, which starts jsPsych {version}'s timeline"
        )

    # Right after the tag's </script> (where html.parser ended it), so the runtime finds initJsPsych defined.
    end = text.find(">", jspsych_tag.body_end) + 1 if jspsych_tag.body_end >= 0 else jspsych_tag.end
    edits.append((end, end, RUNTIME_MARKER))
    base_tag = f'<base href="{page_base}">'
    if head_end is not None:
        edits.append((head_end, head_end, base_tag))
    else:  # no <head> tag: before the first tag that may carry a URL
        first = next(t for t in tags if t.name not in ("html",))
        edits.append((first.start, first.start, base_tag))

    out = text
    for start, stop, replacement in sorted(edits, key=lambda edit: (edit[0], edit[1]), reverse=True):
        out = out[:start] + replacement + out[stop:]
    hashes = [_csp_hash(body) for body in bodies]
    # Inline event handlers (onclick=, onload=) run by their hashes too ('unsafe-hashes', server/web/security.py):
    # those the page's markup has, and those the HTML its scripts write spells out whole.
    handlers = {value for tag in tags for name, value in tag.attrs if name.startswith("on") and value}
    # the study's script files and modules
    for code in [*bodies, *(entry.code.text for _, entry in resolved if entry.code), *(m.text for m in modules)]:
        handlers |= _handlers_in(code)
    for tag, body, source in zip(inline_scripts, bodies, hashes, strict=False):
        report(tag, f"inline, allowed by its hash {source}", Code(html_name, parsed.line(tag.body_start), body))
    return PreparedExperiment(
        html=out,
        jspsych_major=_major(version),
        jspsych_version=version,
        files=files,
        mimetypes=types,
        pins=sorted(
            (pin for key, pin in resolver.pins.items() if pin["files"] or key not in compared),
            key=lambda pin: (pin["name"], pin["version"]),
        ),
        study_files=own_sha,
        study_files_manifest=manifest_sha,
        inline_script_hashes=list(dict.fromkeys(hashes)),
        handler_hashes=sorted({_csp_hash(handler) for handler in handlers}),
        resolved=[entry for _, entry in sorted(resolved, key=lambda item: item[0])],
        modules=modules,
        notes=notes,
    )


def _base_folder(tag: _Tag, html_name: str) -> PurePosixPath:
    """The study folder's folder a page's own `<base href>` names, resolved from the page as a browser resolves it
    (jspsych-ado's demos name every file from their repository's root: `<base href="../../">`); ExperimentError for
    a base on another host, from the site's root or outside the study folder."""
    href = (tag.get("href") or "").strip()
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or href.startswith("/"):
        raise ExperimentError(
            html_name, tag.text, 'a <base> must name a folder of the study folder relative to the page (href="../")'
        )
    path = unquote(urlsplit(urljoin(BASE_ROOT + html_name, href)).path)
    root = urlsplit(BASE_ROOT).path
    if not path.startswith(root):
        raise ExperimentError(html_name, tag.text, f"the <base> names {href}, outside the study folder")
    return PurePosixPath(posixpath.dirname(path[len(root) :]) or ".")


def _imported(code: Code, at: PurePosixPath, own: dict[str, bytes], seen: set[str]) -> list[Code]:
    """The study's files `code` (a script whose relative URLs resolve from its folder `at`) imports as modules, and
    those they import, each once (`seen`); a file the folder lacks is the browser's 404."""
    found = []
    for m in IMPORT.finditer(code.text):
        path = unquote(urlsplit(m.group(2)).path)
        name = posixpath.normpath(path.lstrip("/") if path.startswith("/") else (at / path).as_posix())
        if name in seen or name not in own:
            continue
        seen.add(name)
        module = Code(name, 1, own[name].decode("utf-8", "replace"))
        found += [module, *_imported(module, PurePosixPath(name).parent, own, seen)]
    return found


def add_assets(prepared: PreparedExperiment) -> int:
    """Add the files not yet stored to the session (the caller commits); the number added."""
    stored = set(db.session.scalars(db.select(Asset.sha256).where(Asset.sha256.in_(list(prepared.files)))))
    added = 0
    for sha, data in prepared.files.items():
        if sha not in stored:
            db.session.add(Asset(sha256=sha, mimetype=prepared.mimetypes[sha], size=len(data), data=data))
            added += 1
    return added
