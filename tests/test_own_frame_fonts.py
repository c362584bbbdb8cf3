"""Web fonts resolved like scripts at sync (issue #36, row 8; server/tasks/jspsych/fonts.py and experiment.py): a
stylesheet's Google Fonts, whether imported from fonts.googleapis.com (jsPsych 7.0's jspsych.css) or declared on
fonts.gstatic.com (SurveyJS's themes), become Fontsource's package for the family, pinned, integrity-checked and
served by content like any package; a package stylesheet's relative url()s are its own files."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest

from server.tasks.jspsych.experiment import ExperimentError
from server.tasks.jspsych.fonts import Face, faces_of_url, google_fonts
from tests.fake_npm_registry import NODE_MODULES, FakeRegistry, integrity

# only_loopback: autouse, so no test here connects to any host but the fake registry (Google's included)
from tests.test_jspsych_packages import PNG, only_loopback, prepare, served, srcs, study  # noqa: F401

FONTSOURCE = NODE_MODULES / "@fontsource" / "open-sans"
# A theme as SurveyJS writes one: Open Sans on Google's servers, and an image of its own.
THEME = """@charset "UTF-8";
@font-face {
  font-family: "Open Sans";
  font-style: italic;
  font-weight: 700;
  src: url(https://fonts.gstatic.com/s/opensans/v34/abc.woff2) format("woff2");
}
.theme { background: url('img/dot.png'); color: black; }
"""


@pytest.fixture(scope="module")
def fake():
    registry = FakeRegistry(folders=("jspsych", "jspsych70", "@fontsource/open-sans"))
    registry.add("themed", "1.0.0", {"css/theme.css": THEME, "css/img/dot.png": PNG})
    yield registry
    registry.close()


def imported(css: bytes) -> str:
    """The URL the stylesheet's one @import names."""
    (url,) = re.findall(r'@import url\("([^"]+)"\);', css.decode())
    return url


def faces(css: bytes) -> set[tuple[str, str]]:
    """(weight, style) of each @font-face, and every file it names is served by this server."""
    return set(re.findall(r"font-style: (\w+);\s*font-display: swap;\s*font-weight: (\d+);", css.decode()))


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://fonts.googleapis.com/css?family=Open+Sans", [("Open Sans", 400, False)]),
        (
            "https://fonts.googleapis.com/css?family=Open+Sans:400italic,700italic,400,700",
            [("Open Sans", 400, False), ("Open Sans", 400, True), ("Open Sans", 700, False), ("Open Sans", 700, True)],
        ),
        (
            "//fonts.googleapis.com/css?family=Lato:bold,i|Open+Sans:300",
            [("Lato", 400, True), ("Lato", 700, False), ("Open Sans", 300, False)],
        ),
        (
            "https://fonts.googleapis.com/css2?family=Open+Sans:ital,wght@0,300..500;1,700&display=swap",
            [("Open Sans", 300, False), ("Open Sans", 400, False), ("Open Sans", 500, False), ("Open Sans", 700, True)],
        ),
    ],
)
def test_google_fonts_urls_name_their_faces(url, expected):
    assert faces_of_url(url) == [Face(*face) for face in expected]
    assert Face("Open Sans", 700, True).package == "@fontsource/open-sans"
    assert Face("Open Sans", 700, True).stylesheet == "700-italic.css"


def test_jspsych70s_google_fonts_import_is_served_from_fontsource(tmp_path, fake):
    original = (NODE_MODULES / "jspsych70" / "css" / "jspsych.css").read_bytes()
    sri = "sha384-" + base64.b64encode(hashlib.sha384(original).digest()).decode()
    folder = study(
        tmp_path,
        '<script src="https://unpkg.com/jspsych@7.0.0"></script>\n'
        f'<link rel="stylesheet" href="https://unpkg.com/jspsych@7.0.0/css/jspsych.css" integrity="{sri}">',
    )
    prepared = prepare(folder, fake)
    css_url = [url for url in srcs(prepared.html) if url.endswith("jspsych.css")][0]
    css = served(prepared, css_url)
    google = b"@import url(https://fonts.googleapis.com/css?family=Open+Sans:400italic,700italic,400,700);"
    assert css == original.replace(google, f'@import url("{imported(css)}");'.encode())
    # the tag's integrity was checked here; the browser would refuse the rewritten bytes
    assert "integrity" not in prepared.html
    fonts = served(prepared, imported(css))
    assert faces(fonts) == {("normal", "400"), ("italic", "400"), ("normal", "700"), ("italic", "700")}
    for url in re.findall(r'url\("([^"]+)"\)', fonts.decode()):
        name = url.rsplit("/", 1)[1]
        assert served(prepared, url) == (FONTSOURCE / "files" / name).read_bytes()
    pins = {pin["name"]: pin for pin in prepared.pins}
    assert pins["@fontsource/open-sans"]["version"] == "5.2.7"
    assert pins["@fontsource/open-sans"]["integrity"] == integrity(fake.tarball("@fontsource/open-sans", "5.2.7"))
    assert "files/open-sans-latin-700-italic.woff2" in pins["@fontsource/open-sans"]["files"]


def test_a_theme_on_google_fonts_and_its_own_image(tmp_path, fake):
    folder = study(
        tmp_path,
        '<script src="https://unpkg.com/jspsych@8.3.0"></script>\n'
        '<link rel="stylesheet" href="https://unpkg.com/themed@1/css/theme.css">',
    )
    prepared = prepare(folder, fake)
    css = served(prepared, [url for url in srcs(prepared.html) if url.endswith("theme.css")][0]).decode()
    assert css.startswith('@charset "UTF-8";@import url("/pkg/') and "gstatic" not in css
    assert faces(served(prepared, imported(css.encode()))) == {("italic", "700")}
    (image,) = re.findall(r"background: url\(\"([^\"]+)\"\)", css)
    assert served(prepared, image) == PNG and image.endswith("/dot.png")


def test_the_import_goes_after_a_byte_order_mark():
    """Minified SurveyJS 2 starts with one: an @import before it would make its first rule's selector "\ufeff:root"."""
    css = '\ufeff/*! c */@font-face{font-family:"Open Sans";src:url(https://fonts.gstatic.com/x.woff2)}:root{--a:1}'
    assert google_fonts(css, lambda faces: "/f.css") == '\ufeff@import url("/f.css");/*! c */:root{--a:1}'


def test_a_google_fonts_link_in_the_page(tmp_path, fake):
    folder = study(
        tmp_path,
        '<script src="https://unpkg.com/jspsych@8.3.0"></script>\n'
        '<link rel="preconnect" href="https://fonts.gstatic.com">\n'
        '<link href="https://fonts.googleapis.com/css2?family=Open+Sans:wght@600&display=swap" rel="stylesheet">',
    )
    prepared = prepare(folder, fake)
    assert "fonts.g" not in prepared.html
    (link,) = [url for url in srcs(prepared.html) if url.endswith("open-sans.css")]
    assert faces(served(prepared, link)) == {("normal", "600")}


def test_a_family_fontsource_does_not_publish_is_a_clear_error(tmp_path, fake):
    folder = study(
        tmp_path,
        '<script src="https://unpkg.com/jspsych@8.3.0"></script>\n'
        '<link href="https://fonts.googleapis.com/css?family=No+Such+Family" rel="stylesheet">',
    )
    with pytest.raises(ExperimentError) as caught:
        prepare(folder, fake)
    assert "fonts.googleapis.com" in caught.value.tag
    assert "package not found" in caught.value.message and "@fontsource/no-such-family" in caught.value.message
