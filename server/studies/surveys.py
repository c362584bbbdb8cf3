"""Questionnaires a study can ask outside its task trials, and validation of their answers.

A study's `flow` names the ones it asks, in order. Definitions live here rather than in each study file so that
exports have the same columns across studies. Field types: boolean, choice, integer, scale (an integer rating
shown as a row of buttons, with `labels` for its ends), text (one line) and longtext (several lines), each text
with its `max_length`. What each type accepts: docs/studies.md, "Questionnaires"."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from ..exceptions import ResponseError

EDUCATION = (
    "less than high school",
    "high school",
    "some college",
    "bachelor's degree",
    "master's degree",
    "doctorate",
    "prefer not to say",
)
GENDER = ("female", "male", "non-binary", "other", "prefer not to say")
RACE_ETHNICITY = (
    "American Indian or Alaska Native",
    "Asian",
    "Black or African American",
    "Hispanic or Latino",
    "Middle Eastern or North African",
    "Native Hawaiian or Pacific Islander",
    "White",
    "multiple",
    "other",
    "prefer not to say",
)  # HIVE asks it as optional
# A whole number as the form sends it: ASCII digits only (str.isdigit() also takes "²" and "٣", which int() refuses
# or reads), and few enough of them that no range check meets a 5,000-digit number.
WHOLE_NUMBER = re.compile(r"-?[0-9]{1,9}")

SURVEYS: dict[str, dict[str, Any]] = {
    # Consent is asked on the study's own consent page (study.toml `consent`); only its answer is defined here.
    "consent": {
        "title": "Consent",
        "fields": [{"name": "agreed", "label": "I agree to take part", "type": "boolean", "required": True}],
    },
    "demographics": {
        "title": "About you",
        "fields": [
            {"name": "gender", "label": "Gender", "type": "choice", "choices": list(GENDER), "required": True},
            {"name": "age", "label": "Age (years)", "type": "integer", "min": 18, "max": 100, "required": True},
            {
                "name": "education",
                "label": "Highest level of education",
                "type": "choice",
                "choices": list(EDUCATION),
                "required": True,
            },
            {"name": "nationality", "label": "Nationality", "type": "text", "max_length": 80, "required": True},
        ],
    },
    # HIVE (server/tasks/hive/): optional demographics + ML experience, self-rated understanding asked three
    # times (after the preview, after the task, after the score), the interpretability–accuracy tradeoff, feedback.
    "hive_demographics": {
        "title": "About you",
        "intro": "Only the last question is required.",
        "fields": [
            {
                "name": "gender",
                "label": "Gender identity",
                "type": "choice",
                "choices": list(GENDER),
                "required": False,
            },
            {
                "name": "race_ethnicity",
                "label": "Race / ethnicity",
                "type": "choice",
                "choices": list(RACE_ETHNICITY),
                "required": False,
            },
            {
                "name": "ml_experience",
                "label": "How much do you know about machine learning?",
                "type": "scale",
                "min": 1,
                "max": 5,
                "required": True,
                "labels": {
                    "1": "never heard of it",
                    "2": "have heard about it",
                    "3": "know the basics",
                    "4": "have used it",
                    "5": "work on it",
                },
            },
        ],
    },
    **{
        f"hive_understanding_{n}": {
            "title": "Your understanding",
            "intro": intro,
            "fields": [
                {
                    "name": "understanding",
                    "label": "How well do you understand how the model reaches its predictions?",
                    "type": "scale",
                    "min": 1,
                    "max": 5,
                    "required": True,
                    "labels": {"1": "not at all", "5": "completely"},
                }
            ],
        }
        for n, intro in (
            (1, "Now that you have seen the examples:"),
            (2, "Now that you have done the task:"),
            (3, "Now that you have seen your score:"),
        )
    },
    "hive_tradeoff": {
        "title": "Explanations or accuracy?",
        "intro": (
            "Imagine choosing between the model you just saw, which is correct 60 % of the time and explains its "
            "predictions, and another model that gives no explanations. For each situation, what is the lowest "
            "accuracy (0–100 %) the model without explanations would need for you to use it instead? Compare it "
            "with the 60 % of the model with explanations: a number below 60 means you would take the model "
            "without explanations even if it were less accurate."
        ),
        "fields": [
            {
                "name": "low_risk",
                "label": "Low risk, e.g. recognising bird species for a school project (%)",
                "type": "integer",
                "min": 0,
                "max": 100,
                "required": True,
            },
            {
                "name": "medium_risk",
                "label": "Medium risk, e.g. recognising products at a self-checkout (%)",
                "type": "integer",
                "min": 0,
                "max": 100,
                "required": True,
            },
            {
                "name": "high_risk",
                "label": "High risk, e.g. understanding the road for a self-driving car (%)",
                "type": "integer",
                "min": 0,
                "max": 100,
                "required": True,
            },
            {
                "name": "reason",
                "label": "Why did you choose these numbers?",
                "type": "longtext",
                "max_length": 2000,
                "required": True,
            },
        ],
    },
    "hive_feedback": {
        "title": "Feedback",
        "fields": [
            {
                "name": "feedback",
                "label": "Anything you would like to tell us about this study?",
                "type": "longtext",
                "max_length": 2000,
                "required": False,
            }
        ],
    },
}


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
                raise ResponseError(f"answers.{fname}", f"{field['label']} is required")
            continue
        clean[fname] = _check(field, value)
    if name == "consent" and clean.get("agreed") is not True:
        raise ResponseError("answers.agreed", "consent must be given to take part")
    return clean


def _check(field: dict[str, Any], value: Any) -> Any:
    where = f"answers.{field['name']}"
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
            raise ResponseError(where, f"{field['label']} must be a whole number")
        if not field["min"] <= value <= field["max"]:
            raise ResponseError(where, f"{field['label']} must be between {field['min']} and {field['max']}")
        return value
    if not isinstance(value, str):
        raise ResponseError(where, f"{field['label']} must be text")
    if kind == "choice":
        if value not in field["choices"]:
            raise ResponseError(where, f"{field['label']} must be one of: {', '.join(field['choices'])}")
        return value
    if len(value) > field["max_length"]:
        raise ResponseError(where, f"{field['label']} must be at most {field['max_length']} characters")
    # Line breaks and tabs only where a textarea may hold them; other control characters (NUL above all: PostgreSQL
    # cannot store it) and lone surrogates are not text a participant typed.
    allowed = "\n\r\t" if kind == "longtext" else ""
    if any(unicodedata.category(c) in ("Cc", "Cs") and c not in allowed for c in value):
        raise ResponseError(
            where, f"{field['label']} must be {'text' if allowed else 'one line of text'} without control characters"
        )
    return value
