"""Participant pages in the study's language (issue #27 part 1): every extracted string is translated in every catalog,
study.toml's `language` chooses, survey choices are stored by value whatever the language, and study3 runs in Arabic
(right to left) in headless Chromium."""

import functools
import json
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from playwright.sync_api import expect

from server import i18n
from server.db import db
from server.models import ParticipantSession, SurveyResponse, Trial
from server.studies.definitions import StudyFileError, load_study_file
from tests.helpers import DEMOGRAPHICS, agree, enter

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT / "server" / "translations"
# Translations that may equal their English msgid (the same word in that language, a proper name), by language. None
# so far: "Option", "Feedback" and "Start" have German words of their own here, so that a string left in English shows.
SAME_AS_ENGLISH: dict[str, set[str]] = {}


@functools.cache
def extracted() -> dict:
    """Every msgid of the code, as `pybabel extract -F babel.cfg` finds it (babel.cfg's mapping)."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found = {}
    for filename, _, message, _, _ in extract_from_dir(ROOT, method_map, options_map, keywords=i18n.KEYWORDS):
        found.setdefault(message, filename)
    return found


def entries(messages) -> dict:
    def plain(value):
        return tuple(value) if isinstance(value, list | tuple) else value

    return {plain(m.id): plain(m.string) for m in messages if m.id}


def catalog(language):
    with open(CATALOGS / language / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po)


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_string_of_the_code_is_translated_in_every_catalog(language):
    code = extracted()
    assert len(code) > 150  # the extraction found the code's strings (babel.cfg's patterns match)
    po = catalog(language)
    missing = [msgid for msgid in code if msgid not in po]
    assert not missing, f"{language}: not in the catalog (update it: docs/researchers.md, Languages): {missing}"
    header = po.header_comment
    if language == "en":
        assert "source language" in header
        return
    assert "machine-translated" in header
    untranslated = []
    for msgid in code:
        english = msgid if isinstance(msgid, tuple) else (msgid,)
        forms = po[msgid].string
        for form in forms if isinstance(forms, tuple) else (forms,):
            if not form or (form in english and form not in SAME_AS_ENGLISH.get(language, set())):
                untranslated.append(msgid)
    assert not untranslated, f"{language}: empty or English: {untranslated}"
    with open(CATALOGS / language / "LC_MESSAGES" / "messages.mo", "rb") as mo:
        compiled = read_mo(mo)  # what Flask-Babel reads: compiled from this very .po (`pybabel compile`)
    assert entries(compiled) == entries(po)


def test_every_gettext_call_in_the_javascript_is_extracted():
    """Babel's JavaScript extractor skips a call it cannot parse (inside some template literals): count the calls."""
    for pattern in i18n.JS_SOURCES:
        for path in ROOT.glob(pattern):
            source = path.read_text(encoding="utf-8")
            if path.name == "i18n.js":
                continue  # defines them
            calls = len(re.findall(r"(?<![\w.])(?:_|ngettext)\(", source))
            found = extract_from_file("javascript", path, keywords=i18n.KEYWORDS, options=i18n.JS_OPTIONS)
            assert len(list(found)) == calls, f"{path}: a _() call is not extracted; take it out of the template"


def study_in(tmp_path, language, slug="study3", extra=""):
    folder = tmp_path / "studies" / slug
    shutil.copytree(ROOT / "studies" / slug, folder)
    path = folder / "study.toml"
    path.write_text(f'language = "{language}"\n' + path.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return path


def test_an_unknown_language_is_refused_naming_the_file_and_the_key(app, tmp_path):
    path = study_in(tmp_path, "fr")
    with pytest.raises(StudyFileError) as error:
        load_study_file(path)
    assert str(error.value).startswith(f"{path}: language:") and '"fr"' in str(error.value)
    assert "language" not in load_study_file(ROOT / "studies" / "study3" / "study.toml")  # English: the default


def test_a_german_study_speaks_german_and_stores_choices_by_value(app, client, runner, tmp_path):
    english = client.get("/study/study3", follow_redirects=True).get_data(as_text=True)
    assert '<html lang="en" dir="ltr">' in english and '"messages": {}' in english  # English needs no entries
    app.config["STUDIES_DIR"] = str(study_in(tmp_path, "de").parent.parent)
    assert "updated (version 2)" in runner.invoke(args=["studies", "sync"]).output

    page = client.get("/study/study3", follow_redirects=True).get_data(as_text=True)
    assert '<html lang="de" dir="ltr">' in page
    assert '"I agree": "Ich stimme zu"' in page  # the scripts' strings, for i18n.js
    assert "How big is the smaller bar?" in page  # the researcher's title stays as written
    token = enter(client)
    agree(client, token)
    demographics = client.get(f"/api/sessions/{token}").get_json()["surveys"]["demographics"]
    gender = demographics["fields"][0]
    assert demographics["title"] == "Über Sie" and gender["label"] == "Geschlecht"
    assert gender["choices"][-1] == "prefer_not_to_say" and gender["labels"]["prefer_not_to_say"] == "keine Angabe"

    too_young = client.put(f"/api/sessions/{token}/surveys/demographics", json={"answers": {**DEMOGRAPHICS, "age": 7}})
    assert too_young.status_code == 422
    assert too_young.get_json()["message"] == "Alter (Jahre) muss zwischen 18 und 100 liegen"
    answers = {**DEMOGRAPHICS, "gender": "prefer_not_to_say"}
    assert client.put(f"/api/sessions/{token}/surveys/demographics", json={"answers": answers}).status_code == 200
    assert db.session.scalar(db.select(SurveyResponse.answers).filter_by(name="demographics"))["gender"] == (
        "prefer_not_to_say"
    )
    missing = client.get("/study/nothing-here").get_data(as_text=True)
    assert '<html lang="en"' in missing  # no study, no language but English


def test_a_spanish_study_serves_its_page_with_a_form_for_each_plural_category(app, client, runner, tmp_path):
    """Spanish's plural categories are one, many (a million: CLDR 42) and other; no count below 200 is `many`, and the
    page's strings once failed to build for want of one (a 500 for every Spanish page)."""
    app.config["STUDIES_DIR"] = str(study_in(tmp_path, "es").parent.parent)
    assert "updated (version 2)" in runner.invoke(args=["studies", "sync"]).output
    answer = client.get("/study/study3", follow_redirects=True)
    assert answer.status_code == 200
    page = answer.get_data(as_text=True)
    assert '<html lang="es" dir="ltr">' in page
    strings = json.loads(
        re.search(r'<script type="application/json" id="studyhive-i18n">(.*?)</script>', page, re.S).group(1)
    )
    assert strings["plural_categories"] == ["one", "many", "other"]
    forms = [value for value in strings["messages"].values() if isinstance(value, list)]
    assert forms and all(len(value) == 3 and value[1] == value[2] for value in forms)  # a million takes the plural


def test_english_labels_stored_before_choices_had_values_export_as_values(app, client, auth):
    token = enter(client)
    agree(client, token)
    # A page loaded before the upgrade still sends the label; a row stored before it holds one.
    old_page = {**DEMOGRAPHICS, "education": "master's degree"}
    assert client.put(f"/api/sessions/{token}/surveys/demographics", json={"answers": old_page}).status_code == 200
    stored = db.session.scalars(db.select(SurveyResponse).filter_by(name="demographics")).one()
    assert stored.answers["education"] == "masters"
    stored.answers = {**stored.answers, "gender": "prefer not to say"}
    db.session.commit()
    auth.login()
    csv_text = client.get("/researcher/studies/study3/participants.csv").get_data(as_text=True)
    assert ",prefer_not_to_say," in csv_text and ",masters," in csv_text and "prefer not to say" not in csv_text


def test_study3_in_arabic_runs_right_to_left_with_the_chart_left_to_right(app, live_server, page, runner, tmp_path):
    short = "\n".join(["", "[task]", "trials_per_type = 1", "practice = false"])
    path = study_in(tmp_path, "ar")
    path.write_text(re.sub(r"\n\[task\]\n[^\[]*", short + "\n\n", path.read_text(encoding="utf-8"), count=1))
    app.config["STUDIES_DIR"] = str(path.parent.parent)
    assert "updated (version 2)" in runner.invoke(args=["studies", "sync"]).output

    page.goto(f"{live_server}/study/study3")
    html = page.locator("html")
    expect(html).to_have_attribute("lang", "ar")
    expect(html).to_have_attribute("dir", "rtl")
    page.get_by_role("button", name="أوافق", exact=True).click()  # I agree
    expect(page.get_by_text("معلومات عنك")).to_be_visible()  # About you
    page.locator("input[name=gender][value=female]").check()
    expect(page.locator("label.sh-choice", has=page.locator("input[value=female]"))).to_have_text("أنثى")
    page.locator("input[name=age]").fill("٣٤")  # Arabic-Indic digits
    page.locator("input[name=education][value=masters]").check()
    page.locator("input[name=nationality]").fill("مصري")
    page.get_by_role("button", name="متابعة").click()  # Continue
    for _ in range(2):  # the researcher's instructions stay as written; the buttons are translated
        page.get_by_role("button", name="التالي").click()
    expect(page.locator("#jspsych-progressbar-container")).to_contain_text("التقدّم")  # Progress

    chart = page.locator(".sh-chart")
    field = page.locator("#sh-ratio-input")
    expect(field).to_have_attribute("inputmode", "decimal")
    assert chart.evaluate("(img) => getComputedStyle(img).direction") == "ltr"
    assert chart.evaluate("(img) => getComputedStyle(img).transform") == "none"
    next_button = page.locator(".sh-ratio-form button")
    expect(next_button).to_have_text("التالي")
    expect(next_button).to_be_enabled()  # the chart has loaded
    field.fill("abc")
    next_button.click()
    expect(page.locator("#sh-ratio-error")).to_contain_text("يُرجى إدخال رقم")  # Please enter a number
    for position, typed in enumerate(["١٢٫٥", "12.5", "40", "7.25", "99"]):
        if position == 2:  # a reload resumes with the count left in Arabic's plural form for 3 (few)
            page.reload()
            expect(page.locator(".sh-message")).to_contain_text("تبقّت 3 أسئلة.")
            page.get_by_role("button", name="متابعة").click()
        expect(next_button).to_be_enabled()
        field.fill(typed)
        next_button.click()
    expect(page.locator("h1")).to_have_text("شكرًا لك!")  # the results page: Thank you!
    expect(page.locator("html")).to_have_attribute("dir", "rtl")

    db.session.rollback()  # read what the server thread committed
    session = db.session.scalars(db.select(ParticipantSession)).one()
    assert session.status == "completed"
    percents = [t.response["percent"] for t in db.session.scalars(db.select(Trial).order_by(Trial.trial_index))]
    assert percents == [12.5, 12.5, 40, 7.25, 99]
    demographics = db.session.scalar(db.select(SurveyResponse.answers).filter_by(name="demographics"))
    assert demographics == {"gender": "female", "age": 34, "education": "masters", "nationality": "مصري"}
