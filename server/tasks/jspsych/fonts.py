"""Web fonts a stylesheet names on Google's servers, resolved like scripts (issue #36): jsPsych 7.0's jspsych.css
starts with `@import url(https://fonts.googleapis.com/css?family=Open+Sans:…)` and SurveyJS's themes declare Open Sans
with `@font-face { src: url(https://fonts.gstatic.com/…) }`. The experiment's Content-Security-Policy lets neither
load (and a participant's browser should ask no other host), so at sync each is replaced by the same faces from the
npm package Fontsource publishes for that family (`@fontsource/open-sans`: one stylesheet per weight and style,
`400.css`, `700-italic.css`), which experiment.py fetches, checks and stores like any package the page names.

This module only reads and rewrites CSS text; `serve` (experiment.py) turns a list of faces into the URL of a
stylesheet that declares them."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

CSS_HOST = "fonts.googleapis.com"
FILES_HOST = "fonts.gstatic.com"
# `@import url(…)`, `@import url("…")` or `@import "…"` of Google Fonts' CSS API, with any media list.
IMPORT = re.compile(
    r"""@import\s+(?:url\(\s*)?(['"]?)((?:https?:)?//fonts\.googleapis\.com/[^'")\s;]*)\1\s*\)?[^;]*;""", re.I
)
FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}", re.I)
# What must stay first in a stylesheet: a byte-order mark (minified SurveyJS 2 starts with one) and an @charset.
CHARSET = re.compile(r"""\A\ufeff?(@charset\s+"[^"]*"\s*;)?""")
# CSS API v1 variants: "700", "700italic", "700i", "bold", "b", "italic", "i", "bolditalic", "bi", "regular".
VARIANT = re.compile(r"(\d{3}|bold|b|regular|r)?(italic|i)?")


@dataclass(frozen=True, order=True)
class Face:
    family: str
    weight: int
    italic: bool

    @property
    def package(self) -> str:
        """Fontsource's package for the family: "Open Sans" → @fontsource/open-sans."""
        return "@fontsource/" + re.sub(r"[^a-z0-9]+", "-", self.family.lower()).strip("-")

    @property
    def stylesheet(self) -> str:
        """The package's stylesheet of this weight and style."""
        return f"{self.weight}{'-italic' if self.italic else ''}.css"


def faces_of_url(url: str) -> list[Face]:
    """The faces a Google Fonts CSS API URL (v1 `css?family=A:400,700i|B` or v2 `css2?family=A:ital,wght@0,400;1,700`)
    asks for; a ValueError says what it cannot read."""
    parts = urlsplit(url if "//" in url else "//" + url)
    families = parse_qs(parts.query).get("family")
    if not families:
        raise ValueError(f"{url} names no font family")
    faces: set[Face] = set()
    if parts.path.rstrip("/") == "/css2":
        for value in families:
            faces.update(_css2_faces(value))
    elif parts.path.rstrip("/") == "/css":
        for value in families:
            for family in value.split("|"):
                name, _, variants = family.partition(":")
                for variant in variants.split(",") if variants else [""]:
                    faces.add(_css1_face(name, variant, url))
    else:
        raise ValueError(f"{url} is not Google Fonts' CSS API (/css or /css2)")
    return sorted(faces)


def _css1_face(name: str, variant: str, url: str) -> Face:
    match = VARIANT.fullmatch(variant.strip().lower())
    if match is None:
        raise ValueError(f"{url}: {variant!r} is not a font weight or style")
    weight = {None: 400, "regular": 400, "r": 400, "bold": 700, "b": 700}.get(match.group(1), None)
    return Face(name.strip(), weight or int(match.group(1)), bool(match.group(2)))


def _css2_faces(value: str) -> set[Face]:
    name, _, axes = value.partition(":")
    if not axes:
        return {Face(name.strip(), 400, False)}
    names, _, tuples = axes.partition("@")
    names = names.split(",")
    faces = set()
    for entry in tuples.split(";"):
        values = dict(zip(names, entry.split(","), strict=False))
        low, _, high = values.get("wght", "400").partition("..")  # a variable range: every static weight within it
        weights = range(int(low), int(high or low) + 1) if high else [int(low)]
        faces.update(Face(name.strip(), w, values.get("ital") == "1") for w in weights if w % 100 == 0)
    return faces


def _declared_face(block: str) -> Face | None:
    """The face an @font-face block declares (family, weight, style); None when it names no family."""

    def value(prop: str) -> str:
        found = re.search(rf"{prop}\s*:\s*([^;}}]+)", block, re.I)
        return found.group(1).strip().strip("'\"") if found else ""

    family = value("font-family")
    if not family:
        return None
    weight = value("font-weight").split()[0] if value("font-weight") else "400"
    weight = {"normal": "400", "bold": "700"}.get(weight, weight)
    return Face(family, int(weight) if weight.isdigit() else 400, value("font-style") in ("italic", "oblique"))


def google_fonts(css: str, serve: Callable[[list[Face]], str]) -> str:
    """`css` with every Google Fonts @import and every @font-face whose source is on Google's servers replaced by
    an @import of `serve(faces)`: the stylesheet declaring the same faces from Fontsource. The @import of the
    @font-face blocks' faces goes first (after a byte-order mark and an @charset), where an @import is always
    valid."""
    css = IMPORT.sub(lambda match: f'@import url("{serve(faces_of_url(match.group(2)))}");', css)
    remote = [block for block in FONT_FACE.findall(css) if FILES_HOST in block.lower()]
    faces = sorted({face for block in remote if (face := _declared_face(block))})
    if not faces:
        return css
    for block in remote:
        css = css.replace(block, "", 1)
    head = CHARSET.match(css).end()
    return f'{css[:head]}@import url("{serve(faces)}");{css[head:]}'
