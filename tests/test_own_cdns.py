"""Local jsPsych copies and the CDNs other than npm's (issue #37, point 3), prepared against the fake npm registry:
a local jspsych.js recognised by its content and pinned as the package it equals, jQuery, lodash, Chart.js and d3 from
code.jquery.com, Google's and cdnjs's libraries as the npm package of the same name and version, jsDelivr's
minified-on-request files, stylesheets naming such hosts, and a Font Awesome kit refused with its replacement."""

from __future__ import annotations

import json
import re
from pathlib import Path, PurePosixPath

import pytest

from server.studies.definitions import sync_studies
from server.tasks.jspsych.experiment import (
    RUNTIME_MARKER,
    ExperimentError,
    jspsych_build_version,
    prepare_experiment,
)
from server.tasks.jspsych.npm import Registry
from tests.fake_npm_registry import NODE_MODULES, FakeRegistry, integrity
from tests.jspsych_study import STUDY_TOML, jspsych_app
from tests.test_jspsych_packages import prepare, served, srcs, study

JSPSYCH7 = NODE_MODULES / "jspsych7"
# The jsPsych release archive's dist/jspsych.js: npm's dist/index.browser.js without its source-map comment.
RELEASE_JS = re.sub(rb"//# sourceMappingURL=[^\n]*\n?", b"", (JSPSYCH7 / "dist" / "index.browser.js").read_bytes())
KEYBOARD = (NODE_MODULES / "plugin-html-keyboard-response-1" / "dist" / "index.browser.js").read_bytes()
JQUERY_MIN = "/*! jQuery v3.6.0 */ window.jQuery = window.$ = function () {};"
CHART = "/*! Chart.js v4.4.2 */ var Chart = function () {};"


@pytest.fixture(scope="module")
def fake():
    registry = FakeRegistry(folders=("jspsych", "jspsych7", "jspsych70", "plugin-html-keyboard-response-1"))
    registry.add("jquery", "3.6.0", {"dist/jquery.js": "window.jQuery = 1;", "dist/jquery.min.js": JQUERY_MIN})
    registry.add("lodash", "4.17.21", {"lodash.js": "var _ = {};", "lodash.min.js": "var _={};"})
    registry.add("chart.js", "4.4.2", {"dist/chart.umd.js": CHART, "dist/chart.js": "export {};"})
    registry.add("d3", "7.8.5", {"dist/d3.js": "var d3 = {};", "dist/d3.min.js": "var d3={};"})
    registry.add(
        "icons",
        "1.0.0",
        {"css/icons.css": ".i { src: url(../fonts/i.woff2); }", "fonts/i.woff2": b"wOF2", "bg.png": b"\x89PNG"},
    )
    registry.add(
        "theme",
        "2.0.0",
        {
            "theme.css": '@import "https://cdn.jsdelivr.net/npm/icons@1/css/icons.css";\n'
            ".b { background: url(https://cdnjs.cloudflare.com/ajax/libs/icons/1.0.0/bg.png); }\n"
            ".c { background: url(https://example.org/c.png); }"
        },
    )
    registry.add("@fortawesome/fontawesome-free", "5.15.4", {"css/all.css": ".fa { }"})
    registry.add(
        "@fortawesome/fontawesome-free",
        "6.4.0",
        {"css/all.min.css": ".fa{src:url(../webfonts/fa-solid-900.woff2)}", "webfonts/fa-solid-900.woff2": b"wOF2"},
    )
    yield registry
    registry.close()


JSPSYCH = '<script src="https://unpkg.com/jspsych@8.3.0"></script>'


def pins_of(prepared) -> dict[str, dict]:
    return {pin["name"]: pin for pin in prepared.pins}


def package_urls(prepared) -> list[str]:
    return [url for url in srcs(prepared.html) if url.startswith("/pkg/")]


def test_jquery_from_code_jquery_and_google_is_the_npm_package(tmp_path, fake):
    folder = study(
        tmp_path,
        JSPSYCH + '<script src="https://code.jquery.com/jquery-3.6.0.min.js" crossorigin="anonymous"></script>'
        '<script src="//ajax.googleapis.com/ajax/libs/jquery/3.6.0/jquery.min.js"></script>'
        '<link rel="stylesheet" href="https://use.fontawesome.com/releases/v5.15.4/css/all.css">'
        '<link rel="stylesheet" href="https://cdnjs.cloudflare.com/ajax/libs/font-awesome/6.4.0/css/all.min.css">',
    )
    prepared = prepare(folder, fake)
    _, code_jquery, google, fontawesome, fontawesome6 = package_urls(prepared)
    assert code_jquery == google and served(prepared, code_jquery) == JQUERY_MIN.encode()
    assert served(prepared, fontawesome) == b".fa { }"
    # Font Awesome 5 and later are @fortawesome/fontawesome-free on npm; the stylesheet's fonts are served too.
    woff = re.search(r'url\("(/pkg/[^"]+)"\)', served(prepared, fontawesome6).decode()).group(1)
    assert served(prepared, woff) == b"wOF2"
    pins = pins_of(prepared)
    assert pins["jquery"]["version"] == "3.6.0"
    assert pins["jquery"]["integrity"] == integrity(fake.tarball("jquery", "3.6.0"))
    assert pins["jquery"]["files"] == {"dist/jquery.min.js": code_jquery.split("/")[2]}
    assert {(pin["name"], pin["version"]) for pin in prepared.pins} >= {
        ("@fortawesome/fontawesome-free", "5.15.4"),
        ("@fortawesome/fontawesome-free", "6.4.0"),
    }
    assert "jquery.com" not in prepared.html and "googleapis" not in prepared.html and prepared.notes == []


def test_lodash_chartjs_and_d3_from_cdnjs(tmp_path, fake):
    folder = study(
        tmp_path,
        JSPSYCH + '<script src="https://cdnjs.cloudflare.com/ajax/libs/lodash.js/4.17.21/lodash.min.js"></script>'
        '<script src="https://cdnjs.cloudflare.com/ajax/libs/Chart.js/4.4.2/chart.umd.js"></script>'
        '<script src="https://cdnjs.cloudflare.com/ajax/libs/d3/7.8.5/d3.min.js"></script>',
    )
    prepared = prepare(folder, fake)
    _, lodash, chart, d3 = package_urls(prepared)
    assert [served(prepared, url) for url in (lodash, chart, d3)] == [b"var _={};", CHART.encode(), b"var d3={};"]
    pins = pins_of(prepared)
    assert {name: sorted(pins[name]["files"]) for name in ("lodash", "chart.js", "d3")} == {
        "lodash": ["lodash.min.js"],
        "chart.js": ["dist/chart.umd.js"],  # cdnjs serves dist/'s files at the version's top
        "d3": ["dist/d3.min.js"],
    }
    assert pins["chart.js"]["integrity"] == integrity(fake.tarball("chart.js", "4.4.2"))


def test_jsdelivr_minified_on_request_is_the_unminified_file(tmp_path, fake):
    url = "https://cdn.jsdelivr.net/npm/chart.js@4.4.2/dist/chart.umd.min.js"
    folder = study(tmp_path, JSPSYCH + f'<script src="{url}" integrity="sha384-AAAA" crossorigin="anonymous"></script>')
    prepared = prepare(folder, fake)
    chart = package_urls(prepared)[1]
    assert served(prepared, chart) == CHART.encode() and chart.endswith("/chart.umd.js")
    # The tag's integrity is of jsDelivr's own minified bytes: the package's were checked instead.
    assert "sha384-AAAA" not in prepared.html and 'crossorigin="anonymous"' in prepared.html
    assert pins_of(prepared)["chart.js"]["files"] == {"dist/chart.umd.js": chart.split("/")[2]}
    assert prepared.notes == [
        f"{url}: chart.js@4.4.2 has no dist/chart.umd.min.js, which the CDN minifies from dist/chart.umd.js on "
        "request: dist/chart.umd.js is served (the same code, unminified)"
    ]
    # unpkg serves only the package's files: the same path there is not one.
    folder = study(tmp_path, JSPSYCH + f'<script src="{url.replace("cdn.jsdelivr.net/npm", "unpkg.com")}"></script>')
    with pytest.raises(ExperimentError, match=r"dist/chart.umd.min.js is not a file of chart.js@4.4.2$"):
        prepare(folder, fake)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        (
            "https://cdnjs.cloudflare.com/ajax/libs/Chart.js/4.4.2/chart.nothing.js",
            "chart.nothing.js is not a file of chart.js@4.4.2 (nor a file of that name, or its unminified file)",
        ),
        ("https://code.jquery.com/mobile/1.4.5/jquery.mobile.js", "only code.jquery.com's jquery-<version>"),
        ("https://cdnjs.cloudflare.com/lodash.min.js", "only cdnjs.cloudflare.com/ajax/libs/<library>/<version>"),
        (
            "https://kit.fontawesome.com/0123456789.js",
            "a Font Awesome kit is made per account by fontawesome.com, not a file of a package; load Font Awesome "
            'Free\'s stylesheet instead: <link rel="stylesheet" '
            'href="https://unpkg.com/@fortawesome/fontawesome-free@6/css/all.min.css">',
        ),
    ],
)
def test_what_a_library_host_cannot_give_is_refused_with_what_to_do(tmp_path, fake, url, message):
    folder = study(tmp_path, JSPSYCH + f'<script src="{url}" crossorigin="anonymous"></script>')
    with pytest.raises(ExperimentError) as caught:
        prepare(folder, fake)
    assert url in caught.value.tag and message in caught.value.message


def test_a_stylesheet_naming_cdns_gets_their_files(tmp_path, fake):
    folder = study(tmp_path, JSPSYCH + '<link rel="stylesheet" href="https://unpkg.com/theme@2/theme.css">')
    prepared = prepare(folder, fake)
    theme = served(prepared, package_urls(prepared)[1]).decode()
    imported, background, other = re.findall(r"url\(\"?([^\")]+)\"?\)", theme)
    assert theme.startswith("@import url(") and other == "https://example.org/c.png"  # no package: as it was
    assert served(prepared, background) == b"\x89PNG"
    icons = served(prepared, imported).decode()
    woff = re.search(r'url\("(/pkg/[^"]+)"\)', icons).group(1)
    assert served(prepared, woff) == b"wOF2"
    assert sorted(pins_of(prepared)["icons"]["files"]) == ["bg.png", "css/icons.css", "fonts/i.woff2"]


def local_copy(tmp_path, js: bytes = RELEASE_JS):
    """The jsPsych documentation's download setup: the release archive's files beside the experiment."""
    return study(
        tmp_path,
        '<script src="jspsych/jspsych.js"></script>\n'
        '<script src="jspsych/plugin-html-keyboard-response.js"></script>\n'
        '<link href="jspsych/jspsych.css" rel="stylesheet" type="text/css">',
        files={
            "jspsych/jspsych.js": js,
            "jspsych/plugin-html-keyboard-response.js": KEYBOARD,
            "jspsych/jspsych.css": (JSPSYCH7 / "css" / "jspsych.css").read_bytes(),
        },
    )


def test_a_local_jspsych_copy_is_pinned_as_the_package_it_equals(tmp_path, fake):
    prepared = prepare(local_copy(tmp_path), fake)
    assert (prepared.jspsych_major, prepared.jspsych_version, prepared.notes) == (7, "7.3.4", [])
    jspsych, css = package_urls(prepared)
    base = f"/study-files/{prepared.study_files_manifest}/"
    # The runtime goes right after the copy's tag; the local plugin stays the study's file.
    plugin = f'<script src="{base}jspsych/plugin-html-keyboard-response.js" crossorigin="anonymous">'
    assert re.search(
        rf'<script src="{jspsych}" crossorigin="anonymous"></script>{RUNTIME_MARKER}\n{plugin}', prepared.html
    )
    assert served(prepared, jspsych) == (JSPSYCH7 / "dist" / "index.browser.js").read_bytes()
    pin = pins_of(prepared)["jspsych"]
    assert (pin["version"], pin["integrity"]) == ("7.3.4", integrity(fake.tarball("jspsych", "7.3.4")))
    assert pin["files"] == {"dist/index.browser.js": jspsych.split("/")[2], "css/jspsych.css": css.split("/")[2]}


def test_a_local_minified_jspsych8_under_any_name(tmp_path, fake):
    minified = (NODE_MODULES / "jspsych" / "dist" / "index.browser.min.js").read_bytes()
    folder = study(tmp_path, '<script src="lib/js.js"></script>', files={"lib/js.js": minified})
    prepared = prepare(folder, fake)
    assert prepared.jspsych_version == "8.3.0"
    assert list(pins_of(prepared)["jspsych"]["files"]) == ["dist/index.browser.min.js"]
    # jsPsych's own file defines initJsPsych; it is not the experiment's call of it.
    folder = study(tmp_path, '<script src="lib/js.js"></script>', script="var jsPsych = 1;")
    with pytest.raises(ExperimentError, match="no script calls initJsPsych"):
        prepare(folder, fake)


def test_an_edited_local_copy_is_served_as_it_is_and_said_so(tmp_path, fake):
    prepared = prepare(local_copy(tmp_path, RELEASE_JS + b"\nconsole.log('edited');\n"), fake)
    assert prepared.jspsych_version == "7.3.4"
    assert [sorted(pin["files"]) for pin in prepared.pins] == [["css/jspsych.css"]]  # the stylesheet is jsPsych's
    local = f"/study-files/{prepared.study_files_manifest}/jspsych/jspsych.js"
    assert f'<script src="{local}" crossorigin="anonymous"></script>' in prepared.html
    assert prepared.notes == [
        "jspsych/jspsych.js: a local copy of jsPsych 7.3.4 that differs from every file of jspsych@7.3.4 (edited?): "
        "served from the study folder as it is"
    ]


@pytest.mark.db
def test_sync_says_how_a_file_is_served(tmp_path):
    """`flask studies sync` prints each note under the study's line; the study syncs all the same."""
    edited = local_copy(tmp_path / "studies", RELEASE_JS + b"\n// edited\n")
    (edited / "study.toml").write_text(STUDY_TOML.format(title="Edited", min_rows=1, resume="replay"))
    with jspsych_app(tmp_path, folders=("jspsych7",)) as app:
        with app.test_request_context():
            report = sync_studies(Path(app.config["STUDIES_DIR"]))
    assert report == [
        (
            "study",
            "unchanged (version 1)\n  note: jspsych/jspsych.js: a local copy of jsPsych 7.3.4 that differs from every "
            "file of jspsych@7.3.4 (edited?): served from the study folder as it is",
        )
    ]


def test_a_local_copy_without_a_registry_is_served_as_it_is(tmp_path):
    prepared = prepare(local_copy(tmp_path), None)
    assert prepared.jspsych_version == "7.3.4" and prepared.pins == []
    assert "could not be compared with jspsych@7.3.4" in prepared.notes[0]


JSPSYCH63 = Path(__file__).resolve().parent.parent / "corpus" / "visual-search" / "jspsych-6.3.0"
START6 = "jsPsych.init({timeline: []});"


def test_jspsych6_local_copies_and_its_cdn_tag_are_served(tmp_path, fake):
    """jsPsych 6's download setup (issue #37 point 2): a local copy that is jspsych@6.3.0's file is served as the
    package's, pinned; 6.0–6.2 builds do not say their version and are served as they are, with a note; a CDN tag
    resolves to the package; jsPsych 5 is refused, and so is a jsPsych 6 page that calls initJsPsych()."""
    six = (JSPSYCH63 / "jspsych.js").read_bytes()
    fake.add(
        "jspsych", "6.3.0", {"jspsych.js": six, "css/jspsych.css": (JSPSYCH63 / "css" / "jspsych.css").read_bytes()}
    )
    plugin = "jspsych-6.3.0/plugins/jspsych-html-keyboard-response.js"
    copy = study(
        tmp_path,
        f'<script src="jspsych-6.3.0/jspsych.js"></script><script src="{plugin}"></script>',
        START6,
        {"jspsych-6.3.0/jspsych.js": six, plugin: (JSPSYCH63 / "plugins" / PurePosixPath(plugin).name).read_bytes()},
    )
    prepared = prepare(copy, fake)
    assert (prepared.jspsych_major, prepared.jspsych_version, prepared.notes) == (6, "6.3.0", [])
    # The copy's plugins are jsPsych's, not the experiment's code for `flask studies check` to warn of (their clock
    # calls time responses, in display code a replay skips).
    (checked,) = [entry for entry in prepared.resolved if plugin in entry.tag]
    assert checked.code is None and "jsPsych 6.3.0's plugins/jspsych-html-keyboard-response.js" in checked.served
    (url,) = [u for u in srcs(prepared.html) if u.startswith("/pkg/")]
    assert served(prepared, url) == six and [p["version"] for p in prepared.pins] == ["6.3.0"]
    assert prepared.html.index(url) < prepared.html.index(RUNTIME_MARKER) < prepared.html.index(START6)

    unnamed = six.replace(b'core.version = function() { return "6.3.0" };', b"")
    (copy / "jspsych-6.3.0" / "jspsych.js").write_bytes(unnamed)
    prepared = prepare(copy, fake)
    assert (prepared.jspsych_major, prepared.jspsych_version) == (6, "6")
    assert prepared.notes == [
        "jspsych-6.3.0/jspsych.js: a local copy of jsPsych 6 that does not say which 6.x: served as is"
    ]

    cdn = study(tmp_path, '<script src="https://unpkg.com/jspsych@6.3.0/jspsych.js"></script>', START6)
    prepared = prepare(cdn, fake)
    assert (prepared.jspsych_major, prepared.jspsych_version) == (6, "6.3.0") and "unpkg.com" not in prepared.html

    on7 = study(tmp_path, '<script src="https://unpkg.com/jspsych@6.3.0/jspsych.js"></script>')
    with pytest.raises(ExperimentError) as caught:
        prepare(on7, fake)
    assert (
        caught.value.message == "this script calls initJsPsych(), but the page loads jsPsych 6.3.0: call jsPsych.init()"
    )

    old = b"var jsPsych = (function() {\n  var core = {};\n})();"
    five = study(tmp_path, '<script src="js/jspsych.js"></script>', START6, {"js/jspsych.js": old})
    with pytest.raises(ExperimentError) as caught:
        prepare(five, fake)
    assert "js/jspsych.js" in caught.value.tag
    assert (
        caught.value.message
        == "jsPsych 5 and older are not supported (this tag loads a local copy of jsPsych 5 or older)"
    )


@pytest.mark.parametrize(
    ("folder", "version"),
    [("jspsych", "8.3.0"), ("jspsych7", "7.3.4"), ("jspsych70", "7.0.0")],
)
@pytest.mark.parametrize("build", ["index.browser.js", "index.browser.min.js"])
def test_the_version_is_read_from_each_build(folder, version, build):
    assert jspsych_build_version((NODE_MODULES / folder / "dist" / build).read_bytes()) == version


def test_other_scripts_are_not_jspsych():
    assert jspsych_build_version(KEYBOARD) is None
    assert jspsych_build_version(b"var jsPsych = initJsPsych(); jsPsych.run([]);") is None
    assert jspsych_build_version(json.dumps({"version": "7.3.4"}).encode()) is None


def test_files_named_from_jatoss_study_assets_are_the_study_folders(tmp_path, fake):
    """JATOS serves the folder a researcher brings at /study_assets/<its name>/, and its documentation tells pages to
    name their files so: such a tag names the study folder's file at the rest of the path (a jsPsych copy recognised
    as any local copy), and so does such a path in code (a preload list, an image a stimulus writes), whatever the
    folder was called on JATOS; a part of another URL is left as it is."""
    folder = local_copy(tmp_path)
    html = (folder / "experiment.html").read_text()
    for name in ("jspsych/jspsych.js", "jspsych/plugin-html-keyboard-response.js", "jspsych/jspsych.css"):
        html = html.replace(f'"{name}"', f'"/study_assets/go_nogo/{name}"')
    (folder / "js").mkdir()
    (folder / "js" / "task.js").write_text('var cue = "/study_assets/go_nogo/img/blue.png";')
    code = (
        'var images = ["/study_assets/go_nogo/img/blue.png"]; var shown = \'<img src="/study_assets/go_nogo/img/'
        'blue.png">\'; var elsewhere = "https://jatos.example.org/study_assets/go_nogo/img/blue.png";'
    )
    (folder / "experiment.html").write_text(
        html.replace(
            "</head>",
            '<script src="/study_assets/other_name/js/task.js"></script>\n'
            '<img src="/study_assets/go_nogo/img/blue.png"><script src="/study_assets/go_nogo/js/gone.js"></script>\n'
            '<img src="/study_assets_root/go_nogo/img/blue.png" alt="root">\n'
            "</head>",
        ).replace("<script>var jsPsych", f"<script>{code}\nvar jsPsych")
    )
    prepared = prepare(folder, fake)
    base = f"/study-files/{prepared.study_files_manifest}/"
    assert prepared.jspsych_version == "7.3.4" and list(pins_of(prepared)) == ["jspsych"]  # the copy is 7.3.4's
    assert f'<script src="{base}jspsych/plugin-html-keyboard-response.js" crossorigin="anonymous">' in prepared.html
    assert f'<img src="{base}img/blue.png">' in prepared.html
    assert f'<img src="{base}img/blue.png" alt="root">' in prepared.html  # JATOS's other name for the same
    assert f'<script src="{base}js/gone.js" crossorigin="anonymous">' in prepared.html  # missing: a 404, as on JATOS
    assert any(note.startswith("js/gone.js is not in the study folder") for note in prepared.notes)
    assert f'var images = ["{base}img/blue.png"]; var shown = \'<img src="{base}img/blue.png">\';' in prepared.html
    assert 'var elsewhere = "https://jatos.example.org/study_assets/go_nogo/img/blue.png";' in prepared.html
    task_js = re.search(r'<script src="(/pkg/[0-9a-f]{64}/task\.js)" crossorigin="anonymous">', prepared.html).group(1)
    assert served(prepared, task_js) == f'var cue = "{base}img/blue.png";'.encode()
    assert "js/task.js: its URLs of the Pages site or JATOS's /study_assets/" in "\n".join(prepared.notes)
    assert "/study_assets/" not in prepared.html.replace("jatos.example.org/study_assets/", "")

    # The assets folder brought inside the study's, under its JATOS name: the names are read from that subfolder.
    (folder / "go_nogo").mkdir()
    for name in ("jspsych", "js", "img", "experiment.html"):
        (folder / name).rename(folder / "go_nogo" / name)
    prepared = prepare_experiment(folder, "go_nogo/experiment.html", registry=Registry(fake.url, timeout=10))
    base = f"/study-files/{prepared.study_files_manifest}/"
    assert f'<img src="{base}go_nogo/img/blue.png">' in prepared.html and prepared.jspsych_version == "7.3.4"
    assert f'var images = ["{base}go_nogo/img/blue.png"];' in prepared.html
    assert any(note.startswith("js/task.js is not in the study folder") for note in prepared.notes)  # other_name


def test_a_jatos_component_page_in_a_subfolder_names_its_files_from_the_study_folders_root(tmp_path, fake):
    """JATOS serves a component's page at /publix/<run>/<component>/start whatever its folder in the study's assets,
    so its relative URLs name files from the assets folder's root: a page in a subfolder that loads jatos.js and
    names its files so is served so (its <base> the study folder's root, a note saying why); one whose files sit
    beside it, as on a laptop, keeps its own folder."""
    folder = local_copy(tmp_path)
    page = (folder / "experiment.html").read_text()
    component = page.replace("</head>", '<script src="/assets/javascripts/jatos.js"></script>\n</head>')
    (folder / "comp").mkdir()
    (folder / "comp" / "index.html").write_text(component)
    (folder / "experiment.html").unlink()

    prepared = prepare_experiment(folder, "comp/index.html", registry=Registry(fake.url, timeout=10))
    base = f"/study-files/{prepared.study_files_manifest}/"
    assert f'<base href="{base}">' in prepared.html and prepared.jspsych_version == "7.3.4"
    assert f'<script src="{base}jspsych/plugin-html-keyboard-response.js" crossorigin="anonymous">' in prepared.html
    assert prepared.notes == [
        "comp/index.html loads jatos.js and names its files from the study folder's root, as JATOS serves a "
        "component's page (at /publix/…/start, its relative URLs from the study assets folder): they are read from "
        "there"
    ]

    for name in ("jspsych/jspsych.js", "jspsych/plugin-html-keyboard-response.js", "jspsych/jspsych.css"):
        (folder / "comp" / "jspsych").mkdir(exist_ok=True)
        (folder / name).rename(folder / "comp" / name)  # beside the page: the laptop's way
    prepared = prepare_experiment(folder, "comp/index.html", registry=Registry(fake.url, timeout=10))
    base = f"/study-files/{prepared.study_files_manifest}/"
    assert f'<base href="{base}comp/">' in prepared.html and prepared.notes == []
    assert f'<script src="{base}comp/jspsych/plugin-html-keyboard-response.js"' in prepared.html


def test_files_on_the_labs_pages_site_are_the_study_folders(tmp_path, fake):
    """jsPsych's recipe for Qualtrics loads every file from the lab's GitHub Pages site, which publishes the folder the
    researcher brings: such a URL is the folder's file at the longest end of its path (a jsPsych build recognised as
    any local copy), said in a note; one the folder lacks is refused, naming where to put it."""
    site = "https://lab.github.io/flanker-study"
    folder = local_copy(tmp_path)
    html = (folder / "experiment.html").read_text()
    for name in ("jspsych/jspsych.js", "jspsych/plugin-html-keyboard-response.js", "jspsych/jspsych.css"):
        html = html.replace(f'"{name}"', f'"{site}/{name}"')  # a project site: its repository's name first
    html = html.replace("</head>", '<script src="https://lab.gitlab.io/tasks/js/task.js"></script>\n</head>')
    (folder / "experiment.html").write_text(html)
    (folder / "js").mkdir()
    (folder / "js" / "task.js").write_text("var task = 1;")
    prepared = prepare(folder, fake)
    base = f"/study-files/{prepared.study_files_manifest}/"
    assert prepared.jspsych_version == "7.3.4" and list(pins_of(prepared)) == ["jspsych"]  # the copy is 7.3.4's
    assert f'<script src="{base}jspsych/plugin-html-keyboard-response.js" crossorigin="anonymous">' in prepared.html
    assert (
        f'<script src="{base}js/task.js" crossorigin="anonymous">' in prepared.html and "github.io" not in prepared.html
    )
    assert f"{site}/jspsych/jspsych.js is served from the study folder's jspsych/jspsych.js" in prepared.notes[0]
    assert len(prepared.notes) == 4
    checked = {entry.tag: entry.served for entry in prepared.resolved}
    assert checked['<script src="https://lab.gitlab.io/tasks/js/task.js">'] == (
        "study file js/task.js (in place of https://lab.gitlab.io/tasks/js/task.js)"
    )

    # The recipe's code: the site's folder in a variable that trial parameters append names to, a file's URL, an
    # image tag; a URL naming nothing of the folder is left as it is (the frame blocks it; the check names it).
    code = (
        f'var repo_site = "{site}/"; var cue = repo_site + "img/blue.png";\n'
        f"var shown = `{site}/img/${{cue}}`; var lost = '{site}/img/gone.png';"
    )
    (folder / "experiment.html").write_text(
        html.replace("</head>", f'<img src="{site}/img/blue.png">\n</head>').replace(
            "<script>var jsPsych", f"<script>{code}\nvar jsPsych"
        )
    )
    (folder / "js" / "task.js").write_text('var logo = "https://lab.gitlab.io/tasks/img/blue.png?v=2#top";')
    prepared = prepare(folder, fake)
    base = f"/study-files/{prepared.study_files_manifest}/"
    assert f'var repo_site = "{base}"; var cue = repo_site + "img/blue.png";' in prepared.html
    assert f"var shown = `{base}img/${{cue}}`; var lost = '{site}/img/gone.png';" in prepared.html
    assert f'<img src="{base}img/blue.png">' in prepared.html
    task_js = re.search(r'<script src="(/pkg/[0-9a-f]{64}/task\.js)" crossorigin="anonymous">', prepared.html).group(1)
    assert served(prepared, task_js) == f'var logo = "{base}img/blue.png?v=2#top";'.encode()
    assert "experiment.html, the script at line 12: its URLs of the Pages site" in "\n".join(prepared.notes)
    assert "js/task.js: its URLs of the Pages site" in "\n".join(prepared.notes)
    inline = [entry for entry in prepared.resolved if entry.tag == "<script>"]
    assert inline[0].served.startswith("inline, allowed by its hash") and base in inline[0].code.text  # as served

    (folder / "js" / "task.js").unlink()
    with pytest.raises(ExperimentError) as refused:
        prepare(folder, fake)
    assert "lab.gitlab.io publishes a folder, and the study folder has no file at the end of the path /tasks/js/" in (
        str(refused.value)
    )
    # Any other host's file is still refused: its path says nothing of the folder.
    (folder / "experiment.html").write_text(html.replace("lab.gitlab.io/tasks", "example.org/tasks"))
    (folder / "js" / "task.js").write_text("var task = 1;")
    with pytest.raises(ExperimentError, match="example.org is not an npm CDN"):
        prepare(folder, fake)
