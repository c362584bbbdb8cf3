"""A researcher's experiment page made ready to serve: the stand-in for issue #24's package resolver (branch
i24-jspkg), with the same entry point `prepare_experiment`. This one resolves no npm package: the page's script and
link tags must point at files the server has (studyhive's /static/vendor/ copies, or the study's own files). It does
what the runtime needs: it finds the jsPsych script tag and marks where the runtime goes, refuses pages without
`initJsPsych` or written for jsPsych ≤ 6, and hashes the inline scripts for the Content-Security-Policy."""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

RUNTIME_MARKER = "<!--studyhive-runtime-->"
JSPSYCH_SRC = re.compile(r"(^|/)jspsych(@[^/]*)?(/dist/index\.browser(\.min)?\.js|\.js)?$")
MAX_FILE = 20 * 1024 * 1024  # a study's own file (image, sound); bigger ones are refused


class ExperimentError(ValueError):
    """The experiment cannot run: `file` and `tag` say where."""

    def __init__(self, file: str, tag: str | None, message: str):
        self.file, self.tag = file, tag
        super().__init__(f"{file}: {tag + ': ' if tag else ''}{message}")


@dataclass
class PreparedExperiment:
    html: str  # with RUNTIME_MARKER right after the jsPsych script tag
    jspsych_major: int
    files: dict[str, bytes]  # the study's own files by their path in its folder
    pins: list[dict] = field(default_factory=list)
    inline_script_hashes: list[str] = field(default_factory=list)  # CSP sources, 'sha256-…'


class _Scripts(HTMLParser):
    """Script tags with their source, position and inline text."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.scripts: list[dict] = []
        self._open: dict | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self._open = {"src": dict(attrs).get("src"), "text": "", "tag": self.get_starttag_text()}

    def handle_data(self, data):
        if self._open is not None:
            self._open["text"] += data

    def handle_endtag(self, tag):
        if tag == "script" and self._open is not None:
            line, column = self.getpos()
            self._open["end"] = (line, column)
            self.scripts.append(self._open)
            self._open = None


def _offset(html: str, line: int, column: int) -> int:
    lines = html.splitlines(keepends=True)
    return sum(len(text) for text in lines[: line - 1]) + column


def prepare_experiment(study_dir: Path, html_name: str, *, registry=None, offline_packages_dir=None):
    path = study_dir / html_name
    if not path.is_file():
        raise ExperimentError(html_name, None, "the experiment file does not exist in the study's folder")
    html = path.read_text(encoding="utf-8")
    parser = _Scripts()
    parser.feed(html)
    scripts = parser.scripts
    inline = [s for s in scripts if not s["src"]]
    if "jsPsych.init(" in "".join(s["text"] for s in inline):
        raise ExperimentError(html_name, "<script>", "jsPsych.init() is jsPsych 6 or older (not supported)")
    if "initJsPsych" not in "".join(s["text"] for s in inline):
        raise ExperimentError(html_name, "<script>", "no inline script calls initJsPsych()")
    jspsych = next((s for s in scripts if s["src"] and JSPSYCH_SRC.search(s["src"].split("?")[0])), None)
    if jspsych is None:
        raise ExperimentError(html_name, None, "no <script> tag loads jsPsych")
    # After the closing </script> of the jsPsych tag.
    end = html.index(">", _offset(html, *jspsych["end"])) + 1
    html = html[:end] + RUNTIME_MARKER + html[end:]
    files = {}
    for file in sorted(study_dir.rglob("*")):
        name = file.relative_to(study_dir).as_posix()
        if file.is_file() and name not in ("study.toml", html_name) and not name.startswith("."):
            if file.stat().st_size > MAX_FILE:
                raise ExperimentError(name, None, f"larger than {MAX_FILE // 2**20} MiB")
            files[name] = file.read_bytes()
    hashes = ["'sha256-" + base64.b64encode(hashlib.sha256(s["text"].encode()).digest()).decode() + "'" for s in inline]
    return PreparedExperiment(html, 8, files, [], hashes)
