"""Questionnaires a study can ask outside its task trials, and validation of their answers.

A study's `flow` names the ones it asks, in order. Definitions live here rather than in each study file so that
exports have the same columns across studies. Field types: boolean, choice, integer, scale (an integer rating
shown as a row of buttons, with `labels` for its ends), text."""
from __future__ import annotations

from typing import Any

from .tasks.base import ResponseError

EDUCATION = ("less than high school", "high school", "some college", "bachelor's degree", "master's degree",
             "doctorate", "prefer not to say")
GENDER = ("female", "male", "non-binary", "other", "prefer not to say")

SURVEYS: dict[str, dict[str, Any]] = {
    # Consent is asked on the study's own consent page (study.toml `consent`); only its answer is defined here.
    "consent": {"title": "Consent", "fields": [
        {"name": "agreed", "label": "I agree to take part", "type": "boolean", "required": True}]},
    "demographics": {"title": "About you", "fields": [
        {"name": "gender", "label": "Gender", "type": "choice", "choices": list(GENDER), "required": True},
        {"name": "age", "label": "Age (years)", "type": "integer", "min": 18, "max": 100, "required": True},
        {"name": "education", "label": "Highest level of education", "type": "choice",
         "choices": list(EDUCATION), "required": True},
        {"name": "nationality", "label": "Nationality", "type": "text", "max_length": 80, "required": True},
    ]},
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
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int):
            raise ResponseError(where, f"{field['label']} must be a whole number")
        if not field["min"] <= value <= field["max"]:
            raise ResponseError(where, f"{field['label']} must be between {field['min']} and {field['max']}")
        return value
    if not isinstance(value, str):
        raise ResponseError(where, f"{field['label']} must be text")
    value = value.strip()
    if kind == "choice" and value not in field["choices"]:
        raise ResponseError(where, f"{field['label']} must be one of: {', '.join(field['choices'])}")
    if kind == "text" and len(value) > field["max_length"]:
        raise ResponseError(where, f"{field['label']} must be at most {field['max_length']} characters")
    return value
