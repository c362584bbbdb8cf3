"""Participant-facing text in the study's language (study.toml `language`): Flask-Babel's gettext catalogs in
server/translations/<lang>/LC_MESSAGES/messages.po (compiled .mo beside them, committed), and the same catalogs'
translations of the JavaScript strings, put into the participant's page for static/studyhive/i18n.js.

Researcher pages stay English: only participant views choose a language (use_language). babel.cfg says what is
extracted; tests/test_i18n.py fails when a string of the code is missing from a catalog."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.extract import extract_from_file
from flask import Flask, g
from flask_babel import Babel, force_locale, get_locale, get_translations, refresh

LANGUAGES = ("en", "de", "es", "ar")
RTL = frozenset({"ar"})
DEFAULT = "en"
ROOT = Path(__file__).resolve().parent.parent
# The JavaScript whose strings the page needs: studyhive's own and the task packages'.
JS_SOURCES = ("static/studyhive/*.js", "server/tasks/*/static/*.js")
# gettext's plural forms are numbered in CLDR's category order; the page picks one with Intl.PluralRules.
PLURAL_ORDER = ("zero", "one", "two", "few", "many", "other")
# Extraction keywords (babel.cfg and pybabel use the same): N_ marks text translated where it is shown.
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
# `${_("…")}` inside template literals too (babel.cfg sets the same).
JS_OPTIONS = {"parse_template_string": True}


def N_(message: str) -> str:  # noqa: N802 (gettext's conventional name)
    """Mark `message` for extraction without translating it here (module-level definitions, translated when shown)."""
    return message


def _select_locale() -> str:
    return g.get("language", DEFAULT)


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=_select_locale)
    # Every request starts in English, whatever an app context shared by several requests (the tests') last chose.
    app.before_request(lambda: use_language(DEFAULT))
    app.context_processor(lambda: {"html_lang": str(get_locale()), "html_dir": direction()})


def use_language(language: str | None) -> None:
    """Serve this request's pages in `language` (a study's; versions from before the key have none: English)."""
    g.language = language if language in LANGUAGES else DEFAULT
    refresh()  # Flask-Babel keeps the locale it chose for the request


@contextmanager
def language(language: str | None) -> Iterator[None]:
    """Translate in `language` inside the block (a JSON answer built for one study's page)."""
    with force_locale(language if language in LANGUAGES else DEFAULT):
        yield


def direction() -> str:
    return "rtl" if str(get_locale()) in RTL else "ltr"


@cache
def _js_messages() -> tuple[str | tuple[str, str], ...]:
    found: dict[Any, None] = {}
    for pattern in JS_SOURCES:
        for path in sorted(ROOT.glob(pattern)):
            for _, message, _, _ in extract_from_file("javascript", path, keywords=KEYWORDS, options=JS_OPTIONS):
                found[message] = None
    return tuple(found)


# Counts tried for a category's sample: the small ones, then powers of ten (Spanish's `many` is a million's).
SAMPLE_COUNTS = (*range(200), *(10**k for k in range(3, 16)))


@cache
def _plural_samples(language: str) -> tuple[tuple[str, int], ...]:
    """One count per plural category of `language`, in gettext's order: the form each category translates to. A
    category no whole number falls in (CLDR has some only fractions take) is left out: i18n.js then picks singular
    or plural, as for a message it has no forms of."""
    rule = Locale.parse(language).plural_form
    samples = {}
    for n in SAMPLE_COUNTS:
        samples.setdefault(rule(n), n)
    return tuple((c, samples[c]) for c in PLURAL_ORDER if c in samples)


def page_strings() -> dict[str, Any]:
    """The JavaScript strings in the current language, for the page: {msgid: text} and, for ngettext,
    {singular: [form per category]} with the categories' names. Only those that differ from the English, which
    i18n.js shows without an entry (an English page gets none). Built once per language and process: every
    participant's page carries them."""
    return _page_strings(str(get_locale()))


def warm_up() -> None:
    """Build every language's page strings now (in an app context): babel lexes the JavaScript sources for them, about
    0.4 s of CPU that a worker's first page would otherwise spend while its other requests wait."""
    for language in LANGUAGES:
        with force_locale(language):
            page_strings()


@cache
def _page_strings(language: str) -> dict[str, Any]:
    samples = _plural_samples(language)
    translations = get_translations()
    messages: dict[str, Any] = {}
    for message in _js_messages():
        if isinstance(message, tuple):
            singular, plural = message
            forms = [translations.ngettext(singular, plural, n) for _, n in samples]
            if forms != [singular if n == 1 else plural for _, n in samples]:
                messages[singular] = forms
        elif (text := translations.gettext(message)) != message:
            messages[message] = text
    return {"language": language, "plural_categories": [c for c, _ in samples], "messages": messages}
