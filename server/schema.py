"""Validating study files' tables with pydantic models: one error message shape for every key of study.toml.

Each table is a model (`Table`): the study file's top level (server/studies/definitions.py), `[[conditions]]`
(server/studies/conditions.py), `[prolific]` (server/prolific/settings.py) and every task type's `[task]` (its `Params`,
declared in its own package). `validate` checks a table against its model and reports every problem at once, each as
`where: what`, e.g. `min_width: expected an integer, got "wide"` or `task.n_trials: expected at most 200, got 500`.
The same models give the JSON Schema for editors (`flask studies schema`) and the key reference in docs/studies.md
(`markdown_table`)."""

from __future__ import annotations

import difflib
import json
import math
import re
import types
import typing
from typing import Annotated, Any, Literal, get_args, get_origin
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PlainValidator, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError

from .exceptions import ConfigError

TYPE_NAMES = {
    "int": "an integer",
    "float": "a number",
    "bool": "true or false",
    "string": "text",
    "list": "a list",
    "dict": "a table",
    "model": "a table",
}
GOT_LENGTH = 60  # a long value (a whole consent page) is cut in the message


class Table(BaseModel):
    """A study-file table: unknown keys are errors, and values are taken as TOML typed them (no "5" for 5, no true
    for 1; an integer is fine where a number is asked)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class SchemaError(ConfigError):
    """Every problem of one table, each `where: what`; str() lists them one a line."""

    def __init__(self, errors: list[str]):
        super().__init__("\n".join(errors))
        self.errors = errors

    def within(self, prefix: str) -> SchemaError:
        """The same errors for a table nested under `prefix` (e.g. "conditions[2].")."""
        return SchemaError([prefix + error for error in self.errors])


def problem(what: str) -> PydanticCustomError:
    """An error for a validator to raise; a message starting "expected" gets ", got <value>" appended."""
    return PydanticCustomError("studyhive", what)


def matching(regex: str, what: str) -> Any:
    """Text that must match `regex` (which the JSON Schema carries); the error says `expected <what>`."""
    pattern = re.compile(regex)

    def check(value: str) -> str:
        if not pattern.fullmatch(value):  # not .match: `$` would let a trailing line break through
            raise problem(f"expected {what}")
        return value

    return Annotated[str, AfterValidator(check), Field(json_schema_extra={"pattern": regex})]


def _non_blank(value: str) -> str:
    if not value.strip():
        raise problem("expected text that is not blank")
    return value


NonBlank = Annotated[str, AfterValidator(_non_blank), Field(min_length=1)]


def _number(value: Any) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise problem("expected a number")
    return value


# A number kept as the file wrote it: an integer stays an integer in the config, whose hash versions the study.
Number = Annotated[float, PlainValidator(_number, json_schema_input_type=float)]


def _not_json(value: Any, where: str = "") -> str | None:
    """Where in `value` (" at a.b[2]") something JSON cannot hold is, or None."""
    if isinstance(value, dict):
        return next((f for k, v in value.items() if (f := _not_json(v, f"{where}.{k}" if where else str(k)))), None)
    if isinstance(value, list):
        return next((f for i, v in enumerate(value) if (f := _not_json(v, f"{where}[{i}]"))), None)
    if value is None or isinstance(value, (str, bool, int)) or (isinstance(value, float) and math.isfinite(value)):
        return None
    return f" at {where}" if where else ""


def _json_data(value: Any) -> Any:
    if (found := _not_json(value)) is not None:
        raise problem(f"expected what JSON can hold{found} (not a TOML date or time, nan or inf: write it as text)")
    return value


# Data handed on as JSON (a table, a list, text, a number, true/false): TOML's dates and times and nan are refused.
JsonData = Annotated[Any, PlainValidator(_json_data, json_schema_input_type=Any)]


def _web_url(value: str) -> str:
    try:
        parts = urlsplit(value)
    except ValueError:  # e.g. an unclosed IPv6 bracket
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
        raise problem("expected an http:// or https:// URL")
    return value


WebUrl = Annotated[str, AfterValidator(_web_url), Field(json_schema_extra={"format": "uri", "pattern": "^https?://"})]


def validate(model: type[Table], raw: Any, prefix: str = "", context: dict[str, Any] | None = None) -> Table:
    """`raw` checked against `model`; SchemaError lists every problem, each located under `prefix` ("task.")."""
    try:
        return model.model_validate(raw, context=context)
    except ValidationError as exc:
        raise SchemaError([_message(model, error, prefix) for error in exc.errors()]) from None


def _message(model: type[Table], error: Any, prefix: str) -> str:
    loc = list(error["loc"])
    where = prefix + _where(loc) if loc else prefix.rstrip(".") or "the file"
    kind, ctx, value = error["type"], error.get("ctx", {}), error["input"]
    if kind == "missing":
        return f"{where}: required"
    if kind == "extra_forbidden":
        return f"{where}: unknown key{_did_you_mean(model, loc)}"
    if kind == "studyhive":
        what = error["msg"]
    elif kind == "value_error":  # a validator that raised ValueError (a task package's own)
        what = str(ctx["error"])
    elif kind.endswith("_type") or kind == "int_from_float":  # int_type, string_type, model_type, …
        what = "expected " + TYPE_NAMES.get(kind.split("_")[0], kind.split("_")[0])
    elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = next(iter(ctx.values()))
        bound = int(bound) if isinstance(bound, float) and bound.is_integer() else bound
        what = {
            "greater_than_equal": "at least",
            "greater_than": "more than",
            "less_than_equal": "at most",
            "less_than": "less than",
        }[kind]
        what = f"expected {what} {bound}"
    elif kind in ("too_short", "too_long", "string_too_short", "string_too_long"):
        n = ctx.get("min_length", ctx.get("max_length"))
        unit = "character" if kind.startswith("string") else "item"
        what = f"expected {'at least' if 'short' in kind else 'at most'} {n} {unit}{'s' if n != 1 else ''}"
    elif kind == "literal_error":
        what = f"expected one of {ctx['expected'].replace(chr(39), chr(34))}"
    else:  # a pydantic check this module has no wording for: its own message
        what = error["msg"]
    return f"{where}: {what}, got {_shown(value)}" if what.startswith("expected") else f"{where}: {what}"


def _where(loc: list[Any]) -> str:
    """("conditions", 1, "quota") → conditions[2].quota: arrays counted from 1, as the file reads."""
    out = ""
    for part in loc:
        out += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "a table"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= GOT_LENGTH else text[: GOT_LENGTH - 1] + "…"


def _did_you_mean(model: type[Table], loc: list[Any]) -> str:
    """' (did you mean "title"?)' when the unknown key is a near miss of one its table has."""
    table = _model_at(model, loc[:-1])
    if table is None:
        return ""
    close = difflib.get_close_matches(str(loc[-1]), list(table.model_fields), n=1, cutoff=0.75)
    return f' (did you mean "{close[0]}"?)' if close else ""


def _model_at(model: type[Table] | None, loc: list[Any]) -> type[Table] | None:
    for part in loc:
        if model is None:
            return None
        if isinstance(part, int):
            continue
        field = model.model_fields.get(part)
        model = _table_in(field.annotation) if field else None
    return model


def _table_in(annotation: Any) -> type[Table] | None:
    """The Table model inside an annotation such as `list[Condition] | None`."""
    if isinstance(annotation, type) and issubclass(annotation, Table):
        return annotation
    for arg in get_args(annotation):
        found = _table_in(arg)
        if found is not None:
            return found
    return None


# ---------------------------------------------------------------------------------------------- the key reference


def markdown_table(model: type[Table], prefix: str = "") -> str:
    """A Markdown table of the model's keys: key, type, default, meaning (the fields' descriptions)."""
    lines = ["| key | type | default | meaning |", "| --- | --- | --- | --- |"]
    for name, field in model.model_fields.items():
        lines.append(
            f"| `{prefix}{name}` | {_type_text(field.annotation, field)} | {_default_text(field)} | "
            f"{field.description or ''} |"
        )
    return "\n".join(lines)


def _default_text(field: FieldInfo) -> str:
    if field.is_required():
        return "required"
    if field.default is None:
        return "none"
    return "see below" if isinstance(field.default, BaseModel) else f"`{json.dumps(field.default, ensure_ascii=False)}`"


def _type_text(annotation: Any, field: FieldInfo | None = None) -> str:
    """ "integer 1–200", "list of text", … for the key reference; `field` adds its bounds."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _type_text(args[0], FieldInfo.merge_field_infos(*(a for a in args[1:] if isinstance(a, FieldInfo))))
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_text(a, field) for a in args if a is not type(None))
    if origin is Literal:
        return " or ".join(f"`{json.dumps(a)}`" for a in args)
    if origin is list:
        return f"list of {_type_text(args[0])}"
    if origin is dict or (isinstance(annotation, type) and issubclass(annotation, Table)):
        return "table"
    text = {int: "integer", float: "number", bool: "true/false", str: "text"}.get(annotation, "value")
    return text + (_bounds(field.metadata) if field is not None else "")


def _bounds(metadata: list[Any]) -> str:
    def bound(name: str) -> Any:
        return next((getattr(m, name) for m in metadata if getattr(m, name, None) is not None), None)

    low, high, above = bound("ge"), bound("le"), bound("gt")
    if low is not None and high is not None:
        return f" {low}–{high}"
    if low is not None:
        return f" ≥ {low}"
    if above is not None:
        return f" > {above}"
    return f" ≤ {high}" if high is not None else ""
