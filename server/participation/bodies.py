"""The participant API's request bodies as pydantic models: each body is validated once, from the request's raw
bytes (pydantic-core parses and checks in one pass, docs/operations.md has the figures), and the same models write
the request schemas of the OpenAPI document (server/web/openapi.py). A part that several bodies share has one
validator (a trial's and a plan-less row's trial_id, client_time and events are the same types), so an own
experiment's rows obey the rules of built-in trials.

A refusal is the APIError the participant API has always given (docs/participant-api.md): an unknown field first,
then the first bad part in the order a model declares its fields, which is the order the API checks them in, so a
body with several faults names the one it always named. Checks that need the session (the plan's index and
stimulus, the task type's response rules) run inside the model on the validation context (`parse`'s `context`);
each skips when a part it depends on was already refused, as that part is the one named."""

from __future__ import annotations

import functools
import json
import unicodedata
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar, Literal, NamedTuple

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
    field_validator,
)
from pydantic_core import PydanticCustomError

from ..exceptions import APIError, ResponseError
from ..tasktype import events, jsonvalue
from ..tasktype.jsonvalue import MAX_SAFE_INTEGER, storable

# How deep a body may nest: Python's parser and every reader after it recurse (about 1,000 levels end in a
# RecursionError, a 500). Twice what a row or response may nest (server/tasktype/jsonvalue.py), so that one nested too
# deep reaches its own check, which names the value's path.
MAX_BODY_DEPTH = 2 * jsonvalue.MAX_DEPTH
MAX_RT_MS = 24 * 3600 * 1000
# Outcomes the page reports before the task ends: the participant declined consent or failed the browser check, or
# a researcher's own experiment stopped on an error of its code (taken only once that error is recorded).
EARLY_OUTCOMES = ("no_consent", "incompatible_device", "experiment_error")
# A replay that diverged (runtime.js): the replayed row's jsPsych trial_index and the data fields that differed, each
# a column name of the row (a row's keys are exported as trials.csv headers).
MAX_DIVERGED_FIELDS = 50
MAX_FIELD_NAME = 200
MAX_ERROR_MESSAGE = 1000  # characters; the page trims longer ones (runtime.js)
MAX_ERROR_STACK = 8000
END_MESSAGE_MAX = 4000  # host.js cuts a longer end message to this


def too_deep() -> APIError:
    return APIError(400, "too_deep", f"the body nests objects and arrays more than {MAX_BODY_DEPTH} levels deep")


def malformed() -> APIError:
    return APIError(400, "malformed_json", "the body must be a JSON object")


def invalid_field(field: str, message: str) -> APIError:
    return APIError(400, "invalid_field", message, field=field)


def documented_as_required(*names: str):
    """A model's json_schema_extra: `names` are required in its schema. The model gives them a default so that their
    own validator answers their absence (as a missing response is an invalid_response, not an invalid_field)."""

    def extra(schema: dict[str, Any]) -> None:
        schema["required"] = [*schema.get("required", []), *names]
        for name in names:
            del schema["properties"][name]["default"]

    return extra


def refuse(error: APIError) -> PydanticCustomError:
    """A check's own refusal, carried through pydantic's error list to `parse` (which answers with the first)."""
    return PydanticCustomError("refused", "{reason}", {"reason": error.message, "refusal": error})


def refusing(check):
    """A validator that runs `check` and turns the APIError it raises into the refusal pydantic carries (its
    signature is the check's, so pydantic passes a field validator's `info` as it would to the check)."""

    @functools.wraps(check)
    def validator(*args):
        try:
            return check(*args)
        except APIError as exc:
            raise refuse(exc) from None

    return validator


class Body(BaseModel):
    """A participant request body. INVALID: the invalid_field message of each field, given when pydantic's own
    type or constraint check refuses it (a model's validators refuse with their own APIError)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    INVALID: ClassVar[dict[str, str]] = {}

    @classmethod
    def refusal(cls, errors: list[dict[str, Any]]) -> APIError:
        """The answer to a body pydantic refused: any unknown field, else the first bad field in declared order."""
        unknown = sorted(str(e["loc"][0]) for e in errors if e["type"] == "extra_forbidden" and len(e["loc"]) == 1)
        if unknown:
            return APIError(400, "unknown_field", f"unknown field(s): {', '.join(unknown)}", field=unknown[0])
        order = list(cls.model_fields)
        first = min(errors, key=lambda e: order.index(e["loc"][0]))
        if first["type"] == "refused":
            return first["ctx"]["refusal"]
        field = first["loc"][0]
        return invalid_field(field, cls.INVALID[field])

    def unchecked(self) -> list[Any]:
        """The parts of the body no validator limits the nesting of (kept extra fields, free-form values)."""
        return list((self.model_extra or {}).values())


class Parsed(NamedTuple):
    """A body read from JSON: the model, or the refusal of its fields (JSON that is not an object, or nests too
    deep, is refused at once by `parse`). The API checks some things (consent) before a body's fields."""

    body: Body | None
    refusal: APIError | None

    def valid(self):
        if self.refusal is not None:
            raise self.refusal
        return self.body


def parse(model: type[Body], raw: bytes, context: dict[str, Any] | None = None) -> Parsed:
    """Validate a request's raw bytes as `model`. Valid JSON that is not an object, or that nests objects and arrays
    more than MAX_BODY_DEPTH levels, is refused here (400 malformed_json, too_deep); a refusal of the fields is
    returned. pydantic-core's parser refuses some JSON that Python's takes (lone surrogates, UTF-16, nesting past 200
    levels): such bytes are read as the API always read them, with Python's json, so that the answer is the same (a
    lone surrogate in a text field is that field's refusal, not malformed JSON)."""
    try:
        body = model.model_validate_json(raw, context=context)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        if any(e["type"] == "json_invalid" for e in errors):
            return _parse_as_python(model, raw, context)
        if any(not e["loc"] for e in errors):  # a JSON value, but not an object
            raise malformed() from None
        _read(raw)  # a body nested too deep is refused before its fields
        return Parsed(None, model.refusal(errors))
    if _nests_deeper(body.unchecked(), MAX_BODY_DEPTH - 1):
        raise too_deep()
    return Parsed(body, None)


def _read(raw: bytes) -> dict[str, Any]:
    """The body as Python's json reads it (as Flask's request.get_json did), an object nested at most
    MAX_BODY_DEPTH levels; else the APIError."""
    try:
        value = json.loads(raw)
    except ValueError:  # a UnicodeDecodeError too
        raise malformed() from None
    except RecursionError:
        raise too_deep() from None
    if not isinstance(value, dict):
        raise malformed()
    if _nests_deeper(list(value.values()), MAX_BODY_DEPTH - 1):
        raise too_deep()
    return value


def _parse_as_python(model: type[Body], raw: bytes, context: dict[str, Any] | None) -> Parsed:
    value = _read(raw)
    try:
        return Parsed(model.model_validate(value, context=context), None)
    except ValidationError as exc:
        return Parsed(None, model.refusal(exc.errors(include_url=False)))


def _nests_deeper(values: list[Any], limit: int) -> bool:
    """Whether any of `values` nests objects and arrays more than `limit` levels deep, read level by level (no
    recursion)."""
    level = [value for value in values if isinstance(value, (dict, list))]
    for _ in range(limit):
        level = [
            inner
            for outer in level
            for inner in (outer.values() if isinstance(outer, dict) else outer)
            if isinstance(inner, (dict, list))
        ]
        if not level:
            return False
    return bool(level)


# --- the parts trials and rows share --------------------------------------------------------------------------------

# Printable ASCII: a page's crypto.randomUUID() and any id a script makes up, never a control character (PostgreSQL
# refuses NUL in text).
TRIAL_ID = r"^[\x21-\x7e]{8,64}$"
TRIAL_ID_MESSAGE = "trial_id must be a string of 8–64 printable ASCII characters"
CLIENT_TIME_MESSAGE = "client_time must be an ISO 8601 timestamp within the years 2–9998"


def parse_time(value: str | None) -> datetime | None:
    """An ISO 8601 timestamp as UTC (none given: UTC). A wrong device clock is kept; a time outside the years
    2–9998 is refused, as 0001-01-01T00:00+14:00 (1 BC in UTC) could be stored but not read back, and a day's
    margin keeps every stored time readable in any database session's time zone."""
    if value is None:
        return None
    try:
        if not (value.isascii() and value.isprintable()):  # fromisoformat lets a trailing NUL through
            raise ValueError(value)
        parsed = datetime.fromisoformat(value)
        parsed = parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)
        if not 1 < parsed.year < 9999:
            raise ValueError(value)
        return parsed
    except (ValueError, OverflowError):
        raise refuse(invalid_field("client_time", CLIENT_TIME_MESSAGE)) from None


TrialId = Annotated[str, Field(pattern=TRIAL_ID, description="made by the page (a uuid4); a resend repeats it")]


def checked_object(description: str) -> Any:
    """A field whose JSON object its model's own validator checks (and refuses, when absent: the default None is
    validated too)."""
    return Field(None, validate_default=True, json_schema_extra={"type": "object"}, description=description)


ClientTime = Annotated[
    str | None,
    AfterValidator(parse_time),
    Field(json_schema_extra={"format": "date-time"}, description="the device's clock when it was recorded"),
]
Events = Annotated[
    Any,
    AfterValidator(refusing(events.validate_events)),
    WithJsonSchema(events.JSON_SCHEMA),
]


# Validated with the context {"plan": the session's plan, "task": its study's task type, "params": its [task] table}.
class Trial(Body):
    """A planned trial's answer (POST /trials)."""

    model_config = ConfigDict(json_schema_extra=documented_as_required("stimulus_id", "response"))
    INVALID: ClassVar[dict[str, str]] = {
        "trial_id": TRIAL_ID_MESSAGE,
        "trial_index": "trial_index must be an integer",
        "rt_ms": "rt_ms must be a number of milliseconds (0–86,400,000)",
        "client_time": CLIENT_TIME_MESSAGE,
    }
    trial_id: TrialId
    trial_index: StrictInt = Field(description="an index of the session's plan")
    stimulus_id: Any = Field(
        None, validate_default=True, json_schema_extra={"type": "string"}, description="the stimulus planned there"
    )
    rt_ms: Annotated[float, Field(ge=0, le=MAX_RT_MS)] | None = None
    client_time: ClientTime = None
    events: Events = None
    response: Any = checked_object('checked by the task type (ratio estimation: {"percent": 0–100})')

    @field_validator("trial_index")
    @classmethod
    def _in_plan(cls, index: int, info: ValidationInfo) -> int:
        plan = info.context["plan"]
        if not 0 <= index < len(plan):
            raise refuse(
                APIError(
                    422,
                    "index_out_of_plan",
                    f"trial_index {index} is outside this session's plan (0–{len(plan) - 1})",
                    field="trial_index",
                )
            )
        return index

    @field_validator("stimulus_id")
    @classmethod
    def _planned_stimulus(cls, stimulus_id: Any, info: ValidationInfo) -> Any:
        if "trial_index" not in info.data:
            return stimulus_id
        index = info.data["trial_index"]
        planned = info.context["plan"][index]["stimulus_id"]
        if stimulus_id != planned:
            message = f"trial {index} shows stimulus {planned!r}"
            raise refuse(APIError(422, "stimulus_mismatch", message, field="stimulus_id"))
        return stimulus_id

    @field_validator("response")
    @classmethod
    @refusing
    def _task_response(cls, response: Any, info: ValidationInfo) -> Any:
        if "trial_index" not in info.data:
            return response
        planned = info.context["plan"][info.data["trial_index"]]
        return task_checked(
            info.context["task"].validate_response, (response, info.context["params"], planned), "response"
        )


class ReplayPosition(Body):
    """Where the page's randomness stood when the row was recorded (runtime.js's count of Math.random draws),
    given back for a replay after a reload."""

    draws: StrictInt = Field(ge=0, le=MAX_SAFE_INTEGER)


# Validated with the context {"task": the study's task type, "params": its [task] table}.
class Row(Body):
    """A row a plan-less task's page recorded (POST /rows): one entry of jsPsych.data."""

    model_config = ConfigDict(json_schema_extra=documented_as_required("row"))
    INVALID: ClassVar[dict[str, str]] = {
        "trial_id": TRIAL_ID_MESSAGE,
        "replay": 'replay must be {"draws": n}, n a non-negative safe integer',
        "client_time": CLIENT_TIME_MESSAGE,
    }
    trial_id: TrialId
    row: Any = checked_object("one entry of jsPsych.data, as jsPsych recorded it")
    events: Events = None
    replay: ReplayPosition | None = None
    client_time: ClientTime = None

    @field_validator("row")
    @classmethod
    @refusing
    def _task_row(cls, row: Any, info: ValidationInfo) -> Any:
        return checked_row(row, info.context["task"], info.context["params"])


def checked_row(row: Any, task, params: dict[str, Any], where: str = "row") -> Any:
    """A plan-less row as every reader will meet it, or the APIError that refuses it: within the task type's
    row_limit as compact JSON, no NaN or Infinity, and what the task type's validate_response and jsonvalue.check
    take. A row as posted and a stored row an amendment changed (RowAmendment) pass this one check."""
    limit = task.row_limit(params)
    try:
        # NaN and Infinity parse but PostgreSQL refuses them in JSON: a 422, not a failed INSERT.
        size = len(json.dumps(row, separators=(",", ":"), allow_nan=False).encode())
    except ValueError:
        raise APIError(422, "invalid_response", "a row must not hold NaN or Infinity", field=where) from None
    if size > limit:
        raise row_too_large(limit, where)
    return task_checked(task.validate_response, (row, params, {}), where)


# Validated with the context {"task": the study's task type, "params": its [task] table}.
class RowAmendment(Body):
    """Data a jsPsych experiment added to rows already stored (POST /row-amendments), on the stored rows from
    `first_trial_id` to `trial_id` as the session stored them: `jsPsych.data.addProperties` called after rows were
    recorded changes every row the page holds (from its first), as jsPsych changes the rows it holds;
    `addDataToLastTrial` after the last trial's row was stored changes that row alone."""

    model_config = ConfigDict(json_schema_extra=documented_as_required("properties"))
    INVALID: ClassVar[dict[str, str]] = {
        "trial_id": TRIAL_ID_MESSAGE,
        "first_trial_id": f"first_trial_id must be null or {TRIAL_ID_MESSAGE.removeprefix('trial_id must be ')}",
    }
    trial_id: TrialId = Field(description="the last stored row it changes")
    first_trial_id: TrialId | None = Field(
        None, description="the first stored row it changes (null: only the row `trial_id`)"
    )
    properties: Any = checked_object(
        "the fields set on each row (a field the row holds takes the new value, as in jsPsych)"
    )

    @field_validator("properties")
    @classmethod
    @refusing
    def _as_row(cls, properties: Any, info: ValidationInfo) -> Any:
        if not isinstance(properties, dict):
            raise invalid_field("properties", "properties must be a JSON object (the fields to set)")
        return checked_row(properties, info.context["task"], info.context["params"], "properties")


def row_too_large(limit: int, where: str = "row") -> APIError:
    return APIError(413, "row_too_large", f"a row may hold at most {limit // 1024} KB of JSON", field=where)


def task_checked(validate, arguments: tuple, where: str) -> Any:
    """A response or row as the task type's `validate` returns it, checked as every reader will meet it
    (jsonvalue.check); its ResponseError is raised as a 422 invalid_response."""
    try:
        value = validate(*arguments)
        jsonvalue.check(value, where)
    except ResponseError as exc:
        raise APIError(422, "invalid_response", str(exc), field=exc.field) from None
    return value


SCREEN_SIZE = Annotated[StrictInt, Field(gt=0, lt=100_000)]


class Environment(Body):
    """The participant's screen and window (PUT /environment); other fields are ignored."""

    model_config = ConfigDict(extra="allow")
    INVALID: ClassVar[dict[str, str]] = {
        key: f"{key} must be a positive integer"
        for key in ("screen_width", "screen_height", "window_width", "window_height")
    }
    screen_width: SCREEN_SIZE
    screen_height: SCREEN_SIZE
    window_width: SCREEN_SIZE
    window_height: SCREEN_SIZE


class SurveyAnswers(Body):
    """A questionnaire's answers (PUT /surveys/{name}), checked by the survey's own fields
    (server/studies/surveys.py validate_answers); other fields are ignored."""

    model_config = ConfigDict(extra="allow", json_schema_extra=documented_as_required("answers"))
    answers: Any = Field(
        None,
        json_schema_extra={"type": "object"},
        description='field name → answer, fields as in the state\'s `surveys` (consent: {"agreed": true})',
    )

    def unchecked(self) -> list[Any]:
        return [self.answers, *super().unchecked()]


def _field_name(name: str) -> str:
    if not name.isprintable():
        raise ValueError(name)
    return name


class ReplayDiverged(Body):
    """A replay after a reload computed other data for a stored row than the row holds (POST /replay-diverged)."""

    INVALID: ClassVar[dict[str, str]] = {
        "trial_index": "trial_index must be a non-negative integer",
        "fields": f"fields must be a list of 1–{MAX_DIVERGED_FIELDS} field names of 1–{MAX_FIELD_NAME} characters",
    }
    trial_index: StrictInt = Field(ge=0, le=MAX_SAFE_INTEGER, description="the replayed row's jsPsych trial_index")
    fields: list[Annotated[str, Field(min_length=1, max_length=MAX_FIELD_NAME), AfterValidator(_field_name)]] = Field(
        min_length=1,
        max_length=MAX_DIVERGED_FIELDS,
        description="the data fields whose value the replay computed otherwise than the stored row holds",
    )


def _storable(text: str | None) -> str | None:
    if text is not None and not storable(text):
        raise ValueError(text)
    return text


def error_text_message(field: str, limit: int, required: bool) -> str:
    return (
        f"{field} must be {'' if required else 'null or '}a text of 1–{limit} characters, without NUL or lone "
        "surrogates"
    )


class ExperimentError(Body):
    """An error of a plan-less task's own code, as its page reported it (POST /experiment-error)."""

    INVALID: ClassVar[dict[str, str]] = {
        "message": error_text_message("message", MAX_ERROR_MESSAGE, required=True),
        "stack": error_text_message("stack", MAX_ERROR_STACK, required=False),
        "trial_index": "trial_index must be null or a non-negative integer",
        "fatal": "fatal must be true or false",
    }
    message: Annotated[str, Field(min_length=1, max_length=MAX_ERROR_MESSAGE), AfterValidator(_storable)]
    stack: Annotated[str, Field(min_length=1, max_length=MAX_ERROR_STACK), AfterValidator(_storable)] | None = None
    trial_index: Annotated[StrictInt, Field(ge=0, lt=2**31)] | None = Field(
        None, description="jsPsych's trial_index of the trial running when it happened (null: none was)"
    )
    fatal: StrictBool = Field(
        description="true: it rejected jsPsych.run() (or the page loaded without run() being reached), so the "
        "experiment cannot go on"
    )


def _text(value: str) -> bool:
    """Text as a participant's longest answers may be (server/studies/surveys.py): no NUL or other control
    character but line breaks and tabs, no lone surrogate."""
    return storable(value) and not any(unicodedata.category(c) == "Cc" and c not in "\n\r\t" for c in value)


class TimelineEnding(Body):
    """How a plan-less task's timeline ended (POST /timeline-finished); {} is the natural end."""

    INVALID: ClassVar[dict[str, str]] = {"ended_early": "ended_early must be true or false"}
    ended_early: StrictBool = Field(
        False, description="the experiment called endExperiment (jsPsych 7) or abortExperiment (jsPsych 8)"
    )
    message: Any = Field(
        None,
        json_schema_extra={"type": ["string", "null"], "maxLength": END_MESSAGE_MAX},
        description="the end message it passed (only with ended_early; no control characters but line breaks and "
        "tabs, no lone surrogates); study.toml's [[task.endings]] may map it to an outcome",
    )

    @field_validator("message")
    @classmethod
    def _end_message(cls, message: Any, info: ValidationInfo) -> str | None:
        if message is None or "ended_early" not in info.data:
            return message
        if not info.data["ended_early"]:
            raise refuse(invalid_field("message", "an end message comes only with an early end (ended_early true)"))
        if not (isinstance(message, str) and len(message) <= END_MESSAGE_MAX and _text(message)):
            raise refuse(
                invalid_field(
                    "message",
                    f"message must be null or text of at most {END_MESSAGE_MAX} characters, without control "
                    "characters (line breaks and tabs aside) or lone surrogates",
                )
            )
        return message


class EndEarly(Body):
    """The session ends early (POST /end) with this outcome."""

    INVALID: ClassVar[dict[str, str]] = {"outcome": f"outcome must be one of {', '.join(EARLY_OUTCOMES)}"}
    outcome: Literal[EARLY_OUTCOMES]


# The request bodies the OpenAPI document describes, by their schema's name there.
MODELS = (
    Environment,
    SurveyAnswers,
    Trial,
    Row,
    RowAmendment,
    ReplayDiverged,
    ExperimentError,
    TimelineEnding,
    EndEarly,
)
