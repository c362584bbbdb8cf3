"""Questionnaires a study can ask outside its task trials, and validation of their answers.

A study's `flow` names the ones it asks, in order. Definitions live here rather than in each study file so that
exports have the same columns across studies. Field types: boolean, choice, integer, scale (an integer rating
shown as a row of buttons, with `labels` for its ends), text (one line) and longtext (several lines), each text
with its `max_length`. What each type accepts: docs/studies.md, "Questionnaires"."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

from flask_babel import get_locale, gettext

from ..exceptions import ResponseError
from ..i18n import N_

EDUCATION = (
    ("less_than_high_school", N_("less than high school")),
    ("high_school", N_("high school")),
    ("some_college", N_("some college")),
    ("bachelors", N_("bachelor's degree")),
    ("masters", N_("master's degree")),
    ("doctorate", N_("doctorate")),
    ("prefer_not_to_say", N_("prefer not to say")),
)
GENDER = (
    ("female", N_("female")),
    ("male", N_("male")),
    ("non_binary", N_("non-binary")),
    ("other", N_("other")),
    ("prefer_not_to_say", N_("prefer not to say")),
)
RACE_ETHNICITY = (
    ("american_indian_or_alaska_native", N_("American Indian or Alaska Native")),
    ("asian", N_("Asian")),
    ("black_or_african_american", N_("Black or African American")),
    ("hispanic_or_latino", N_("Hispanic or Latino")),
    ("middle_eastern_or_north_african", N_("Middle Eastern or North African")),
    ("native_hawaiian_or_pacific_islander", N_("Native Hawaiian or Pacific Islander")),
    ("white", N_("White")),
    ("multiple", N_("multiple")),
    ("other", N_("other")),
    ("prefer_not_to_say", N_("prefer not to say")),
)  # HIVE asks it as optional


def choices(options: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """A choice field's stored values (language-independent: exports do not change with the study's language) and
    their English labels, translated when shown."""
    return {"choices": [value for value, _ in options], "labels": dict(options)}


# A whole number as the form sends it: ASCII digits only (str.isdigit() also takes "²" and "٣", which int() refuses
# or reads), and few enough of them that no range check meets a 5,000-digit number.
WHOLE_NUMBER = re.compile(r"-?[0-9]{1,9}")

# A survey whose questions changed in a way that bears on its answers lists its forms in `revisions`, oldest first,
# each said in words for the codebook: an answer stores the number of the form it was given under (1 = the first;
# survey_responses.revision), exported as `<survey>_revision`. A survey without `revisions` is at its first form.
SURVEYS: dict[str, dict[str, Any]] = {
    # Consent is asked on the study's own consent page (study.toml `consent`); only its answer is defined here.
    "consent": {
        "title": N_("Consent"),
        "fields": [{"name": "agreed", "label": N_("I agree to take part"), "type": "boolean", "required": True}],
    },
    "demographics": {
        "title": N_("About you"),
        "fields": [
            {"name": "gender", "label": N_("Gender"), "type": "choice", **choices(GENDER), "required": True},
            {"name": "age", "label": N_("Age (years)"), "type": "integer", "min": 18, "max": 100, "required": True},
            {
                "name": "education",
                "label": N_("Highest level of education"),
                "type": "choice",
                **choices(EDUCATION),
                "required": True,
            },
            {"name": "nationality", "label": N_("Nationality"), "type": "text", "max_length": 80, "required": True},
        ],
    },
    # HIVE (server/tasks/hive/): optional demographics + ML experience, self-rated understanding asked three
    # times (after the preview, after the task, after the score), the interpretability–accuracy tradeoff, feedback.
    "hive_demographics": {
        "title": N_("About you"),
        "intro": N_("Only the last question is required."),
        "fields": [
            {
                "name": "gender",
                "label": N_("Gender identity"),
                "type": "choice",
                **choices(GENDER),
                "required": False,
            },
            {
                "name": "race_ethnicity",
                "label": N_("Race / ethnicity"),
                "type": "choice",
                **choices(RACE_ETHNICITY),
                "required": False,
            },
            {
                "name": "ml_experience",
                "label": N_("How much do you know about machine learning?"),
                "type": "scale",
                "min": 1,
                "max": 5,
                "required": True,
                "labels": {
                    "1": N_("never heard of it"),
                    "2": N_("have heard about it"),
                    "3": N_("know the basics"),
                    "4": N_("have used it"),
                    "5": N_("work on it"),
                },
            },
        ],
    },
    **{
        f"hive_understanding_{n}": {
            "title": N_("Your understanding"),
            "intro": intro,
            "fields": [
                {
                    "name": "understanding",
                    "label": N_("How well do you understand how the model reaches its predictions?"),
                    "type": "scale",
                    "min": 1,
                    "max": 5,
                    "required": True,
                    "labels": {"1": N_("not at all"), "5": N_("completely")},
                }
            ],
        }
        for n, intro in (
            (1, N_("Now that you have seen the examples:")),
            (2, N_("Now that you have done the task:")),
            (3, N_("Now that you have seen your score:")),
        )
    },
    "hive_tradeoff": {
        "title": N_("Explanations or accuracy?"),
        # Until issue #23 the accuracies accepted only 60–100 (the explained model's and up), so no answer could ask
        # for less accuracy than it has; an answer records which form it was given under (`revisions`).
        "revisions": ("the accuracies accepted only 60–100 % (until issue #23)", "the accuracies accept 0–100 %"),
        # Worded so that no "%" is followed by a letter: gettext tools would read "60 % of" as a placeholder.
        "intro": N_(
            "Imagine choosing between the model you just saw, which is correct 60 times out of 100 and explains its "
            "predictions, and another model that gives no explanations. For each situation, what is the lowest "
            "accuracy (0–100 %) the model without explanations would need for you to use it instead? Compare it "
            "with the accuracy of the model with explanations (60 %): a number below 60 means you would take the "
            "model without explanations even if it were less accurate."
        ),
        "fields": [
            {
                "name": "low_risk",
                "label": N_("Low risk, e.g. recognising bird species for a school project (%)"),
                "type": "integer",
                "min": 0,
                "max": 100,
                "required": True,
            },
            {
                "name": "medium_risk",
                "label": N_("Medium risk, e.g. recognising products at a self-checkout (%)"),
                "type": "integer",
                "min": 0,
                "max": 100,
                "required": True,
            },
            {
                "name": "high_risk",
                "label": N_("High risk, e.g. understanding the road for a self-driving car (%)"),
                "type": "integer",
                "min": 0,
                "max": 100,
                "required": True,
            },
            {
                "name": "reason",
                "label": N_("Why did you choose these numbers?"),
                "type": "longtext",
                "max_length": 2000,
                "required": True,
            },
        ],
    },
    "hive_feedback": {
        "title": N_("Feedback"),
        "fields": [
            {
                "name": "feedback",
                "label": N_("Anything you would like to tell us about this study?"),
                "type": "longtext",
                "max_length": 2000,
                "required": False,
            }
        ],
    },
}


# A choice's English label as earlier versions stored it → its value now (exports read old answers through it).
LEGACY_CHOICES = {
    (name, field["name"], label): value
    for name, survey in SURVEYS.items()
    for field in survey["fields"]
    if field["type"] == "choice"
    for value, label in field["labels"].items()
}


def revision(name: str) -> int:
    """The form of survey `name` answered now (`revisions`), stored with each answer."""
    return len(SURVEYS[name].get("revisions", ())) or 1


def label(field: dict[str, Any]) -> str:
    """A field's label in the current language (passed as a variable: extraction takes the N_ marks above)."""
    text = field["label"]
    return gettext(text)


def shown(name: str) -> dict[str, Any]:
    """Survey `name` as the participant's page shows it: its text in the current language (server/i18n.py). The
    same for every participant in a language, so built once per process (every page's state asks for it)."""
    return _shown(name, str(get_locale()))


@functools.cache
def _shown(name: str, language: str) -> dict[str, Any]:
    survey = SURVEYS[name]
    return {
        **{key: gettext(survey[key]) for key in ("title", "intro") if key in survey},
        "fields": [
            {
                **field,
                "label": label(field),
                **({"labels": {k: gettext(v) for k, v in field["labels"].items()}} if "labels" in field else {}),
            }
            for field in survey["fields"]
        ],
    }


def stored_value(name: str, field: str, value: Any) -> Any:
    """An answer as exported: a choice stored by its English label (before choices had values) read as its value."""
    return LEGACY_CHOICES.get((name, field, value), value) if isinstance(value, str) else value


def validate_answers(name: str, answers: Any) -> dict[str, Any]:
    """Return cleaned answers for survey `name`, or raise ResponseError naming the field."""
    if not isinstance(answers, dict):
        raise ResponseError("answers", "answers must be an object")
    fields = {f["name"]: f for f in SURVEYS[name]["fields"]}
    unknown = set(answers) - set(fields)
    if unknown:
        raise ResponseError("answers", f"unknown field(s): {', '.join(sorted(unknown))}")
    clean = {}
    for fname, field in fields.items():
        value = answers.get(fname)
        if isinstance(value, str):
            value = value.strip()  # before the required check: blanks are no answer
        if value is None or value == "":
            if field.get("required"):
                raise ResponseError(f"answers.{fname}", gettext("%(label)s is required", label=label(field)))
            continue
        clean[fname] = _check(field, value)
    if name == "consent" and clean.get("agreed") is not True:
        raise ResponseError("answers.agreed", "consent must be given to take part")
    return clean


def _check(field: dict[str, Any], value: Any) -> Any:
    """The answer to `field`, cleaned. What the participant's form can get wrong is said in the study's language
    (the page shows it); the rest only a client of the API can send."""
    where = f"answers.{field['name']}"
    shown_label = label(field)
    kind = field["type"]
    if kind == "boolean":
        if not isinstance(value, bool):
            raise ResponseError(where, f"{field['label']} must be true or false")
        return value
    if kind in ("integer", "scale"):
        # The form posts strings; accept "34" but not "34.5" or "thirty".
        if isinstance(value, str) and WHOLE_NUMBER.fullmatch(value):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ResponseError(where, gettext("%(label)s must be a whole number", label=shown_label))
        if not field["min"] <= value <= field["max"]:
            raise ResponseError(
                where,
                gettext(
                    "%(label)s must be between %(min)d and %(max)d",
                    label=shown_label,
                    min=field["min"],
                    max=field["max"],
                ),
            )
        return value
    if not isinstance(value, str):
        raise ResponseError(where, f"{field['label']} must be text")
    if kind == "choice":
        # A page loaded before choices had values sends the English label.
        value = next((v for v, english in field["labels"].items() if english == value), value)
        if value not in field["choices"]:
            raise ResponseError(where, f"{field['label']} must be one of: {', '.join(field['choices'])}")
        return value
    if len(value) > field["max_length"]:
        raise ResponseError(
            where, gettext("%(label)s must be at most %(max)d characters", label=shown_label, max=field["max_length"])
        )
    # Line breaks and tabs only where a textarea may hold them; other control characters (NUL above all: PostgreSQL
    # cannot store it) and lone surrogates are not text a participant typed.
    allowed = "\n\r\t" if kind == "longtext" else ""
    if any(unicodedata.category(c) in ("Cc", "Cs") and c not in allowed for c in value):
        raise ResponseError(
            where,
            gettext("%(label)s must be text without control characters", label=shown_label)
            if allowed
            else gettext("%(label)s must be one line of text without control characters", label=shown_label),
        )
    return value
