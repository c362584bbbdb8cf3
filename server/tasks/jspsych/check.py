"""What `flask studies check` says of an own jsPsych experiment (issue #37, point 5): the jsPsych version, how sync
served each tag (experiment.py's `PreparedExperiment.resolved`), the packages pinned, the study files published, and
what the experiment's own code does that studyhive does not run as another host would: its JATOS calls and the
warnings below (docs/own-experiments.md, "Checking an experiment before you sync").

The code is read, never run: a finding is a pattern at a file and line, which a comment or a string may hold too, so
it is a warning to look at, never a refusal. Only the study's own scripts are read (inline ones and the study files
the page loads), not the packages': jsPsych's own bundle reads the clock, as it should."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from .experiment import CODE_HANDLER, PAGES_HOSTS, TAG_START, Code, PreparedExperiment

SHOWN_FILES = 4  # of a package's files kept: a font package keeps dozens
JATOS_CALL = re.compile(r"(?<![\w$.])jatos\s*\.\s*([A-Za-z_$][\w$]*)")
# What studyhive's own jatos object answers (server/tasks/jspsych/static/jatos.js, the object at its end; a test
# compares the two): any other call is refused there (docs/own-experiments.md, "Experiments written for JATOS").
# The JSON inputs studyhive's jatos object answers, by name, with the [task.jatos] key that gives each.
JATOS_INPUTS = {
    "studyInput": "study_input",
    "studyJsonInput": "study_input",
    "componentInput": "component_input",
    "componentJsonInput": "component_input",
    "batchInput": "batch_input",
    "batchJsonInput": "batch_input",
}
JATOS_SERVED = frozenset(
    (
        "onLoad onload onError submitResultData appendResultData startNextComponent startLastComponent endStudy "
        "endStudyAjax endStudyAndRedirect urlQueryParameters studySessionData batchSession studyResultId workerId"
    ).split()
) | frozenset(JATOS_INPUTS)
RESUME = 'docs/own-experiments.md, "Reloads and resume"'
# Randomness replay cannot draw again: group 1 names it.
NOT_REPLAYED = re.compile(r"(?<![\w$])(Date\.now|performance\.now|crypto\.getRandomValues|crypto\.randomUUID)\s*\(")
SUBMIT = re.compile(r"\.submit\s*\(\s*\)")
INDEXED_DB = re.compile(r"(?<![\w$])indexedDB\s*\.\s*open\s*\(")
WORKER = re.compile(r"(?<![\w$.])new\s+(?:window\.)?Worker\s*\(")
# A request of the experiment's own: group 1 (a call) or group 2 (XMLHttpRequest) names it.
REQUEST = re.compile(
    r"(?<![\w$])(fetch|navigator\.sendBeacon|\$\.ajax|\$\.post|jQuery\.ajax|jQuery\.post)\s*\(|(?<![\w$])(XMLHttpRequest)\b"
)
# A URL's host (group 2); group 1 is the `href=` before it when the URL is a link's.
HOST = re.compile(r"""(\bhref\s*=\s*["']?)?\bhttps?://([A-Za-z0-9.-]+\.[A-Za-z]{2,})""", re.IGNORECASE)
NAMESPACE_HOSTS = {"www.w3.org"}  # XML namespaces (createElementNS for SVG): named, never asked
# Hosts the frame answers for (runtime.js): DataPipe's saves and condition assignment.
ANSWERED_HOSTS = {"pipe.jspsych.org"}
# DataPipe's condition assignment: the plugin's call, its trial's action, or its URL.
PIPE_CONDITION = re.compile(
    r"(?<![\w$.])jsPsychPipe\s*\.\s*getCondition\s*\(|\baction\s*:\s*[\"'`]condition[\"'`]"
    r"|pipe\.jspsych\.org/api/condition"
)
# An event-handler attribute in markup: in the page itself or in HTML a script hands to jsPsych.
HANDLER = re.compile(TAG_START + r"\s(on[a-z]+)\s*=", re.IGNORECASE)
# The frame sent to another address: an assignment to (window.)location(.href), or location.assign / replace.
NAVIGATION = re.compile(
    r"(?<![\w$.])(?:(?:window|self|document)\.)?location(?:\.href)?\s*=(?!=)"
    r"|(?<![\w$.])(?:(?:window|self|document)\.)?location\.(?:assign|replace)\s*\("
)

NOT_DRAWN_AGAIN = (
    f'resume = "replay" does not draw it again after a reload, so what it decides may differ ({RESUME}); use '
    'resume = "restart" or "none" if it decides conditions'
)
NO_DATABASE = (
    "indexedDB.open(): the experiment's sandboxed frame has no origin to keep a database under, so opening one fails "
    "(on any host that sandboxes it); localStorage and sessionStorage are kept in memory for the page load instead"
)
WORKER_REPLAYED = (
    "new Worker(): it runs (runtime.js starts it from the study file), but its answers come when they come: after a "
    "reload, replay runs the stored trials again at once, without waiting for what the worker computed before them, "
    f'so a trial that reads its answers may differ ({RESUME}); use resume = "restart" if trials depend on it'
)
SUBMITTED = (
    "form.submit() is refused in the experiment's frame (forms submit nowhere) and leaves an error page: read the "
    "form in a submit listener, as jsPsych's plugins do"
)
OWN_REQUESTS = (
    "the experiment sends requests of its own: one to its own folder other than GET is answered 200 in the frame and "
    "stores nothing (studyhive stores every row itself as its trial ends); the frame reaches no other host"
)
OTHER_HOST = (
    "a host studyhive cannot serve; the frame's policy blocks every request to it (put the file in the study folder)"
)
PAGES_IN_CODE = (
    "a Pages site the frame's policy blocks every request to, and this URL names no file or folder of the study "
    "folder (one that does, in a tag or in code, is served the folder's)"
)
LINK = (
    "the experiment's frame opens no other window or tab and does not leave its page; write the address as text, or "
    "put it in study.toml's consent or instructions"
)
INLINE_HANDLER = (
    "is an inline event handler whose code the script puts together as it runs (or writes without quotes): the "
    "frame's policy runs a handler only as sync found it written out whole; attach this one in a script"
)
# A handler's code put together as the script runs: a string joined to it, or a template's ${…}.
JOINED = re.compile(r"""["'`]\s*\+|\+\s*["'`]|\$\{""")
# Prolific's completion link (the code, group 1), where experiments written for Prolific send the participant.
PROLIFIC_DONE = re.compile(r"https?://app\.prolific\.com?/submissions/complete\?cc=([A-Za-z0-9]+)", re.IGNORECASE)
PROLIFIC_HOSTS = ("app.prolific.co", "app.prolific.com")
UNWARNED_HOSTS = {*NAMESPACE_HOSTS, *ANSWERED_HOSTS, *PROLIFIC_HOSTS}  # each said otherwise, or asked of no one
COMPLETION_CODE = (
    "studyhive's Continue button sends a participant who completed to Prolific itself, with study.toml's code: "
    'completion_code = "{code}" (or [prolific.codes] completed = "{code}"), which this link\'s redirect never reaches'
)
# A keyboard-response trial (jsPsych 6's "html-keyboard-response", 7/8's jsPsychHtmlKeyboardResponse, …) that takes
# no key (NO_KEYS; jsPsych 6's "none"; no choices at all), and what else may end one.
KEYBOARD_TRIAL = re.compile(r"keyboard-?response", re.IGNORECASE)
NO_KEYS = re.compile(r"""(?:jsPsych(?:Module)?\.)?NO_KEYS|(["'`])(?:NO_KEYS|none)\1|\[\s*\]""")
ENDING_KEYS = {"trial_duration", "trial_ends_after_audio", "trial_ends_after_video", "on_load"}
ENDLESS = (
    "a keyboard-response trial that takes no key and has no trial_duration: only the experiment's own code calling "
    "jsPsych.finishTrial() ends it, so a participant who reaches it stays there (on any host); as the last screen, "
    "studyhive's Continue button never shows and the session does not complete"
)
PIPE_CONDITIONED = (
    "DataPipe's condition assignment: studyhive answers it with the number of the session's condition in study.toml's "
    '[[conditions]] (0 for the first; docs/own-experiments.md, "Conditions"); in a study without [[conditions]] it '
    "stops the experiment as a fatal error"
)
NAVIGATES = (
    "sends the experiment's frame to another address: studyhive serves the one page study.toml names and shows its "
    "Continue button when that page's timeline ends, so another page of the study never runs and an outside address "
    "(a completion link) is not followed; run every task in that page's timeline"
)


def report(page: PreparedExperiment, params: dict[str, Any], study_dir: Path) -> list[str]:
    """The lines `flask studies check` prints of a prepared experiment with task parameters `params`."""
    name = params["experiment"]
    lines = [f"experiment: {name}, jsPsych {page.jspsych_version} (major {page.jspsych_major})", "tags:"]
    lines += [f"  line {entry.line}: {entry.tag}: {entry.served}" for entry in page.resolved]
    lines.append(f"inline scripts: {len(page.inline_script_hashes)}")
    lines.append(f"packages pinned: {len(page.pins)}")
    for pin in page.pins:
        files = list(pin["files"])
        shown = ", ".join(files[:SHOWN_FILES]) + (
            f" and {len(files) - SHOWN_FILES} more" if files[SHOWN_FILES:] else ""
        )
        lines.append(f"  {pin['name']}@{pin['version']} ({pin['source']}) {pin['integrity']}: {shown}")
    lines.append(f"study files published: {len(page.study_files)}")
    lines += [f"  {path}" for path in page.study_files]

    # a study file two tags load is read once
    codes = list({(c.file, c.line): c for c in (entry.code for entry in page.resolved) if c is not None}.values())
    codes += page.modules
    calls = sorted({m.group(1) for code in codes for m in JATOS_CALL.finditer(code.text)})
    served = [f"jatos.{call}" for call in calls if call in JATOS_SERVED]
    refused = [f"jatos.{call}" for call in calls if call not in JATOS_SERVED]
    lines.append(
        f"JATOS calls: {', '.join(served) or 'none'} (answered by studyhive's jatos object)"
        + (f"; refused: {', '.join(refused)}" if refused else "")
        if calls
        else "JATOS calls: none"
    )
    given = params.get("jatos", {})
    ungiven = [f"jatos.{call}" for call in calls if call in JATOS_INPUTS and given.get(JATOS_INPUTS[call], {}) == {}]
    if ungiven:
        lines.append(
            f"JATOS inputs study.toml's [task.jatos] does not give: {', '.join(ungiven)} (each reads {{}}, JATOS's "
            'default; docs/own-experiments.md, "Experiments written for JATOS")'
        )

    # read without their comments (an address cited there, a call commented out, asks nothing); handlers are looked
    # for in the whole page (its markup and its inline scripts' HTML) and in the study's scripts
    bare = [Code(c.file, c.line, _without_comments(c.text)) for c in codes]
    markup = [Code(name, 1, (study_dir / name).read_text(encoding="utf-8")), *(c for c in bare if c.file != name)]
    found = [*_warnings(bare, replay=params["resume"] == "replay"), *_handlers(markup)]
    found.sort(key=lambda item: (item[0] != name, item[0], item[1]))
    lines.append(f"warnings: {len(found)}" if found else "warnings: none")
    lines += [f"  {file}:{line}: {message}" for file, line, message in found]
    return lines


def _line(code: Code, offset: int) -> int:
    return code.line + code.text.count("\n", 0, offset)


def _host(m: re.Match) -> str | None:
    """A URL's warning; a link's (group 1) are said together, by _links; Prolific's completion link by its own."""
    if m.group(1) or m.group(2).lower() in UNWARNED_HOSTS:
        return None
    return f"{m.group(2)}: {PAGES_IN_CODE if m.group(2).lower().endswith(PAGES_HOSTS) else OTHER_HOST}"


def _warnings(codes: list[Code], *, replay: bool) -> list[tuple[str, int, str]]:
    """(file, line, message) of what the scripts (`codes`, their comments blanked: _without_comments) do that
    studyhive's frame, or a replay, does not do as asked. A call
    replay does not draw again is said once per file, with the lines of the others (a plugin reads the clock for
    every response time), and so are a file's links to other hosts (a debrief may list a dozen)."""
    checks = [
        (
            PROLIFIC_DONE,
            lambda m: f"Prolific's completion link (code {m.group(1)}): " + COMPLETION_CODE.format(code=m.group(1)),
        ),
        (SUBMIT, lambda m: SUBMITTED),
        (INDEXED_DB, lambda m: NO_DATABASE),
        (PIPE_CONDITION, lambda m: PIPE_CONDITIONED),
        (REQUEST, lambda m: f"{m.group(1) + '()' if m.group(1) else m.group(2)}: {OWN_REQUESTS}"),
        (HOST, _host),
        (NAVIGATION, lambda m: f"{m.group(0).rstrip('=( ')}: {NAVIGATES}"),
    ]
    if replay:
        checks.append((WORKER, lambda m: WORKER_REPLAYED))
    found = []
    for code in codes:
        if replay:
            found += _not_replayed(code)
        found += _links(code)
        found += _endless(code)
        for pattern, message in checks:
            for m in pattern.finditer(code.text):
                said = message(m)
                if said:
                    found.append((code.file, _line(code, m.start()), said))
    return found


def _not_replayed(code: Code) -> list[tuple[str, int, str]]:
    lines: dict[str, list[int]] = {}
    for m in NOT_REPLAYED.finditer(code.text):
        lines.setdefault(m.group(1), []).append(_line(code, m.start()))
    found = []
    for call, at in lines.items():
        also = sorted(set(at[1:]) - {at[0]})
        more = f" (also line{'s' if len(also) > 1 else ''} {', '.join(map(str, also))})" if also else ""
        found.append((code.file, at[0], f"{call}(){more}: {NOT_DRAWN_AGAIN}"))
    return found


def _links(code: Code) -> list[tuple[str, int, str]]:
    at = [
        (m.group(2), _line(code, m.start()))
        for m in HOST.finditer(code.text)
        if m.group(1) and m.group(2).lower() not in PROLIFIC_HOSTS
    ]
    if not at:
        return []
    hosts = ", ".join(dict.fromkeys(host for host, _ in at))
    lines = sorted({line for _, line in at})
    where = f" (lines {', '.join(map(str, lines))})" if len(lines) > 1 else ""
    return [(code.file, lines[0], f"links to other hosts{where}: {hosts}: {LINK}")]


def _endless(code: Code) -> list[tuple[str, int, str]]:
    """(file, line, message) of each keyboard-response trial written to take no key and no trial_duration (nor
    inherit one from a timeline around it), with nothing else of its own that could end it (an on_load, the end of
    its audio or video): only the experiment's code calling jsPsych.finishTrial() ends it."""
    found = []
    todo = [(_javascript().parse(code.text.encode()).root_node, False)]
    while todo:
        node, timed = todo.pop()
        if node.type == "object":
            pairs = {}
            for pair in node.named_children:
                key = pair.child_by_field_name("key") if pair.type == "pair" else None
                value = pair.child_by_field_name("value") if key is not None else None
                if value is not None:
                    pairs[key.text.decode("utf-8", "replace").strip("\"'")] = value.text.decode("utf-8", "replace")
            timed = timed or bool(ENDING_KEYS & pairs.keys())
            if (
                not timed
                and KEYBOARD_TRIAL.search(pairs.get("type", ""))
                and NO_KEYS.fullmatch(pairs.get("choices", "").strip())
            ):
                found.append((code.file, code.line + node.start_point[0], f"{pairs['choices']}: {ENDLESS}"))
        todo += [(child, timed) for child in node.children]
    return found


@functools.cache
def _javascript():
    """tree-sitter's JavaScript parser (imported when first needed: only `flask studies check` reads code)."""
    import tree_sitter
    import tree_sitter_javascript

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_javascript.language()))


def _without_comments(text: str) -> str:
    """The script with each comment's characters but its line breaks made spaces, so lines stay where they were.
    tree-sitter tells a comment from a string or a regular expression that holds `//` (a URL), and parses past what
    it cannot (an error node), as a browser never would but as a check may."""
    data = text.encode()
    out = bytearray(data)
    todo = [_javascript().parse(data).root_node]
    while todo:
        node = todo.pop()
        if node.type == "comment":
            out[node.start_byte : node.end_byte] = re.sub(rb"[^\n]", b" ", data[node.start_byte : node.end_byte])
        else:
            todo += node.children
    return out.decode("utf-8", "replace")


def _handlers(codes: list[Code]) -> list[tuple[str, int, str]]:
    """(file, line, message) of each inline event-handler attribute (`onclick=`) in the page or a script's HTML that
    the frame's policy refuses: one sync does not find written out whole (experiment.py CODE_HANDLER), so its hash
    is not among those the policy allows."""
    found = []
    for code in codes:
        for m in HANDLER.finditer(code.text):
            whole = CODE_HANDLER.match(code.text, m.start())
            if whole is None or JOINED.search(whole.group(4)):
                found.append((code.file, _line(code, m.start(1)), f"{m.group(1).lower()}= {INLINE_HANDLER}"))
    return found
