"""The participant API as an OpenAPI 3.1 document, served at GET /api/openapi.json (docs/participant-api.md is the
prose). tests/test_openapi.py checks it against the app: every participant route documented, every documented
route served, and each example body accepted by its schema and by the server with a documented answer."""

from __future__ import annotations

from flask import Blueprint, jsonify

from ..models import OUTCOMES, SESSION_STATUSES
from ..participation import bodies
from ..participation.bodies import MAX_BODY_DEPTH
from ..tasktype import jsonvalue

bp = Blueprint("openapi", __name__)

# The blueprints whose routes the document must cover (assets, task files and static files are plain files).
DOCUMENTED_BLUEPRINTS = ("api", "participant", "openapi")


def _json(schema: dict, example=None) -> dict:
    body = {"schema": schema}
    if example is not None:
        body["example"] = example
    return {"application/json": body}


def _answer(description: str, schema: str = "Error") -> dict:
    return {"description": description, "content": _json({"$ref": f"#/components/schemas/{schema}"})}


HTML = {"text/html": {"schema": {"type": "string"}}}
ERRORS = {  # what every session endpoint may answer besides its own
    "404": _answer("no session has this token (`unknown_session`)"),
    "405": _answer("method not allowed"),
}
BODY_ERRORS = {
    "400": _answer(
        f"malformed JSON, a body that is not an object, one nested more than {MAX_BODY_DEPTH} levels deep "
        "(`too_deep`), or a field of the wrong type (`field` names it)"
    ),
    "413": _answer("body over 64 KiB (with a Content-Length or chunked)"),
    "415": _answer("body not sent as application/json"),
}
TOKEN = {
    "name": "token",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "maxLength": 64},
    "description": "the session's token (from the entry redirect)",
}
SLUG = {"name": "slug", "in": "path", "required": True, "schema": {"type": "string"}}


def body_schemas() -> dict[str, dict]:
    """The request bodies' schemas, written by the models that validate them (server/participation/bodies.py), and
    the schemas of the models they nest."""
    schemas = {}
    for model in bodies.MODELS:
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        schemas.update(schema.pop("$defs", {}))
        schemas[model.__name__] = schema
    return schemas


SCHEMAS = {
    "Error": {
        "type": "object",
        "required": ["error", "message"],
        "properties": {
            "error": {"type": "string", "description": "machine-readable code"},
            "message": {"type": "string", "description": "a sentence for people"},
            "field": {"type": "string", "description": "the offending field, where one is at fault"},
            "missing": {"type": "array", "items": {"type": "integer"}},
            "missing_surveys": {"type": "array", "items": {"type": "string"}},
            "trial_index": {"type": "integer"},
        },
    },
    "Ok": {"type": "object", "required": ["ok"], "properties": {"ok": {"const": True}, "name": {"type": "string"}}},
    "PlanItem": {
        "type": "object",
        "required": ["index", "stimulus_id", "practice", "stimulus_url"],
        "properties": {
            "index": {"type": "integer", "minimum": 0},
            "stimulus_id": {"type": "string"},
            "practice": {"type": "boolean"},
            "stimulus_url": {"type": "string"},
            "feedback": {"type": "object"},
            "presented": {"type": ["object", "null"]},
        },
    },
    "SessionState": {
        "type": "object",
        "required": [
            "token",
            "status",
            "accepts_answers",
            "platform",
            "study",
            "flow",
            "surveys_done",
            "surveys",
            "plan",
            "stored_indexes",
        ],
        "properties": {
            "token": {"type": "string"},
            "status": {"enum": list(SESSION_STATUSES)},
            "accepts_answers": {
                "type": "boolean",
                "description": "false once the session has ended (completed, ended early, excluded)",
            },
            "platform": {"enum": ["prolific", "labinthewild", "direct"]},
            "preview": {
                "type": "boolean",
                "description": "a researcher's preview (docs/researchers.md): never counted; it completes without "
                "the trials and surveys it jumped past",
            },
            "study": {
                "type": "object",
                "required": ["slug", "version"],
                "properties": {"slug": {"type": "string"}, "version": {"type": "integer"}},
            },
            "flow": {"type": "array", "items": {"type": "string"}},
            "surveys_done": {"type": "array", "items": {"type": "string"}},
            "surveys": {"type": "object", "additionalProperties": {"type": "object"}},
            "plan": {"type": "array", "items": {"$ref": "#/components/schemas/PlanItem"}},
            "stored_indexes": {"type": "array", "items": {"type": "integer"}},
        },
    },
    "TrialStored": {
        "type": "object",
        "required": ["stored", "trial_index"],
        "properties": {"stored": {"const": True}, "trial_index": {"type": "integer"}, "duplicate": {"const": True}},
    },
    "RowStored": {
        "type": "object",
        "required": ["stored"],
        "properties": {"stored": {"const": True}, "duplicate": {"const": True}},
    },
    "Rows": {
        "type": "object",
        "required": ["rows"],
        "properties": {
            "rows": {
                "type": "array",
                "description": "the stored rows in the order they were stored",
                "items": {
                    "type": "object",
                    "required": ["trial_id", "row", "replay"],
                    "properties": {
                        "trial_id": {"type": "string"},
                        "row": {"type": "object"},
                        "replay": {"anyOf": [{"$ref": "#/components/schemas/ReplayPosition"}, {"type": "null"}]},
                    },
                },
            },
        },
    },
    "RowsAmended": {
        "type": "object",
        "required": ["amended"],
        "properties": {
            "amended": {
                "type": "integer",
                "minimum": 0,
                "description": "how many stored rows changed now (0 for a repeat: the rows hold the fields already)",
            }
        },
    },
    "DivergenceRecorded": {
        "type": "object",
        "required": ["recorded"],
        "properties": {"recorded": {"type": "boolean", "description": "false: an earlier divergence stands"}},
    },
    "TimelineFinished": {
        "type": "object",
        "required": ["timeline_finished"],
        "properties": {"timeline_finished": {"const": True}},
    },
    "ErrorRecorded": {
        "type": "object",
        "required": ["recorded"],
        "properties": {
            "recorded": {
                "type": "boolean",
                "description": "false: an earlier error stands (the first one; a fatal one replaces a non-fatal one)",
            }
        },
    },
    "Completed": {
        "type": "object",
        "required": ["status", "outcome"],
        "properties": {
            "status": {"const": "completed"},
            "outcome": {
                "enum": ["completed", "failed_attention_check"],
                "description": "failed_attention_check: as many failed catch trials as the "
                "study's [prolific] attention_check_failures",
            },
            "redirect_url": {"type": "string", "description": "Prolific: the outcome's completion URL"},
            "results_url": {"type": "string"},
        },
    },
    "Ended": {
        "type": "object",
        "required": ["status", "outcome", "redirect_url"],
        "properties": {
            "status": {"enum": list(SESSION_STATUSES)},
            "outcome": {"enum": [*OUTCOMES, None], "description": "the first outcome reported stands"},
            "redirect_url": {
                "type": ["string", "null"],
                "description": "Prolific: the outcome's completion URL, when the study has "
                "a code for it; null: the page asks to return the study",
            },
        },
    },
    "Summary": {"type": "object", "description": "the task type's numbers for the participant and the cohort"},
    "PreviewRow": {
        "type": "object",
        "required": ["trial_index", "columns", "row"],
        "properties": {
            "trial_index": {"type": "integer"},
            "columns": {"type": "array", "items": {"type": "string"}, "description": "trials.csv's column order"},
            "row": {"type": "object", "description": "column → value, as trials.csv has the trial"},
        },
    },
}

TRIAL_EXAMPLE = {
    "trial_id": "9b2d6a44-3f0e-4d7c-9a51-0c3f2b7e1d10",
    "trial_index": 0,
    "stimulus_id": "p1-s20-t50-v0",
    "response": {"percent": 42.5},
    "rt_ms": 3456,
    "client_time": "2026-11-22T17:00:00.000Z",
    "events": [
        {"t": 1830, "type": "input", "target": "percent", "value": "42.5"},
        {"t": 2400, "type": "hidden", "target": None, "value": None},
        {"t": 9100, "type": "visible", "target": None, "value": None},
    ],
}
ROW_EXAMPLE = {
    "trial_id": "5c0f3a1e-8d2b-4f6a-b7c9-2e1d0a9f8b7c",
    "row": {"rt": 812, "response": 0, "trial_type": "html-button-response", "trial_index": 3, "time_elapsed": 9120},
    "client_time": "2026-11-25T17:00:00.000Z",
    "events": [{"t": 310, "type": "blur", "target": None, "value": None}, {"t": 700, "type": "focus"}],
    "replay": {"draws": 14},
}
ERROR_EXAMPLE = {
    "message": "TypeError: Cannot set properties of null (setting 'textContent')",
    "stack": "TypeError: Cannot set properties of null (setting 'textContent')\n    at on_load (experiment.html:31:52)",
    "trial_index": 4,
    "fatal": True,
}
EVENTS_TOO_LARGE = "`events_too_large`: more events than the caps allow"
INVALID_EVENTS = "a malformed event (`invalid_events`, `index` names it)"
NOT_JSPSYCH = "`no_rows`: the study is not a jsPsych experiment (its trials follow a plan)"
ENVIRONMENT_EXAMPLE = {"screen_width": 1920, "screen_height": 1080, "window_width": 1536, "window_height": 864}

# The participant API's order (docs/participant-api.md, "Order"): consent first, nothing after the end.
BEFORE_CONSENT = "`out_of_order` before consent (expected: consent)"
ENDED = "`session_ended` (completed, ended early or excluded: nothing more is stored)"
WITHDRAWN = "`session_withdrawn`: the participant withdrew and the session's data was deleted; nothing more is stored"
PATHS = {
    "/api/sessions/{token}": {
        "get": {
            "summary": "The session's state: plan, stored trials, answered surveys",
            "parameters": [TOKEN],
            "responses": {"200": _answer("the state", "SessionState"), **ERRORS},
        }
    },
    "/api/sessions/{token}/summary": {
        "get": {
            "summary": "The participant's own result against those who completed",
            "parameters": [TOKEN],
            "responses": {"200": _answer("the summary", "Summary"), **ERRORS},
        }
    },
    "/api/sessions/{token}/environment": {
        "put": {
            "summary": "Screen and window size (sent on every visit; the latest stand)",
            "parameters": [TOKEN],
            "requestBody": {
                "required": True,
                "content": _json({"$ref": "#/components/schemas/Environment"}, ENVIRONMENT_EXAMPLE),
            },
            "responses": {
                "200": _answer("stored", "Ok"),
                "410": _answer(WITHDRAWN),
                "409": _answer(ENDED),
                **BODY_ERRORS,
                **ERRORS,
            },
        }
    },
    "/api/sessions/{token}/surveys/{name}": {
        "put": {
            "summary": "One questionnaire's answers; a repeat is acknowledged and the first answer stands",
            "parameters": [
                TOKEN,
                {
                    "name": "name",
                    "in": "path",
                    "required": True,
                    "schema": {"type": "string"},
                    "description": "a survey of the study's flow (consent, demographics, …)",
                },
            ],
            "requestBody": {
                "required": True,
                "content": _json({"$ref": "#/components/schemas/SurveyAnswers"}, {"answers": {"agreed": True}}),
            },
            "responses": {
                "200": _answer("stored (or already stored)", "Ok"),
                **BODY_ERRORS,
                **ERRORS,
                "410": _answer(WITHDRAWN),
                "409": _answer(f"{BEFORE_CONSENT} (any survey but consent), or {ENDED}"),
                "404": _answer("no session has this token, or the study has no such survey"),
                "422": _answer("an answer is invalid (`invalid_answer`, `field` names it)"),
            },
        }
    },
    "/api/sessions/{token}/trials": {
        "post": {
            "summary": "Store one trial, idempotently (the client resends until it gets an answer)",
            "parameters": [TOKEN],
            "requestBody": {"required": True, "content": _json({"$ref": "#/components/schemas/Trial"}, TRIAL_EXAMPLE)},
            "responses": {
                "201": _answer("stored", "TrialStored"),
                "200": _answer("a repeat of a stored trial_id: nothing changed", "TrialStored"),
                "410": _answer(WITHDRAWN),
                "409": _answer(
                    "not stored: `trial_index_taken` (the index is stored under another trial_id; "
                    "the first answer stands), `trial_id_reused` (the trial_id is stored for "
                    f"another index: stored_index), {BEFORE_CONSENT}, or {ENDED}"
                ),
                "422": _answer(f"index outside the plan, another stimulus, an invalid response, or {INVALID_EVENTS}"),
                **BODY_ERRORS,
                "413": _answer(f"body over 64 KiB, or {EVENTS_TOO_LARGE}"),
                **ERRORS,
            },
        }
    },
    "/api/sessions/{token}/rows": {
        "post": {
            "summary": "Store one row of a researcher's jsPsych experiment, idempotently by trial_id (the server "
            "draws its trial_index)",
            "parameters": [TOKEN],
            "requestBody": {"required": True, "content": _json({"$ref": "#/components/schemas/Row"}, ROW_EXAMPLE)},
            "responses": {
                "201": _answer("stored", "RowStored"),
                "200": _answer("a repeat of a stored trial_id: nothing changed", "RowStored"),
                "404": _answer(f"no session has this token, or {NOT_JSPSYCH}"),
                "410": _answer(WITHDRAWN),
                "409": _answer(f"{BEFORE_CONSENT}, or {ENDED}"),
                "413": _answer(
                    f"`row_too_large`: the row is over the study's row_limit_kb (default 64 KB), or {EVENTS_TOO_LARGE}"
                ),
                "422": _answer(
                    "the row is not a JSON object, or holds a value no reader can handle (`invalid_response`, `field` "
                    "its path, e.g. `row.response.Q0`): NaN or Infinity, NUL or a lone surrogate in text or a key, an "
                    f"integer beyond ±(2^53 - 1), nesting past {jsonvalue.MAX_DEPTH} levels; or {INVALID_EVENTS}"
                ),
                "400": BODY_ERRORS["400"],
                "415": BODY_ERRORS["415"],
                "405": ERRORS["405"],
            },
        },
        "get": {
            "summary": "A jsPsych experiment's stored rows, in order, for the page to replay after a reload",
            "parameters": [TOKEN],
            "responses": {
                "200": _answer("the rows", "Rows"),
                **ERRORS,
                "404": _answer(f"no session has this token, or {NOT_JSPSYCH}"),
            },
        },
    },
    "/api/sessions/{token}/row-amendments": {
        "post": {
            "summary": "Fields a jsPsych experiment added to rows it had recorded, set on the stored rows from "
            "first_trial_id to trial_id: jsPsych.data.addProperties after the first rows (every row the page holds), "
            "addDataToLastTrial after the last row was stored (that row); idempotent",
            "parameters": [TOKEN],
            "requestBody": {
                "required": True,
                "content": _json(
                    {"$ref": "#/components/schemas/RowAmendment"},
                    {
                        "trial_id": ROW_EXAMPLE["trial_id"],
                        "first_trial_id": ROW_EXAMPLE["trial_id"],
                        "properties": {"subject": "p-17"},
                    },
                ),
            },
            "responses": {
                "200": _answer("the rows hold the fields (changed now, or by an earlier repeat)", "RowsAmended"),
                "404": _answer(f"no session has this token, or {NOT_JSPSYCH}"),
                "410": _answer(WITHDRAWN),
                "409": _answer(
                    f"{BEFORE_CONSENT}, {ENDED}, or `row_not_stored`: no row has that trial_id (or first_trial_id)"
                ),
                "413": _answer("`row_too_large`: the properties, or a row with them, over the study's row_limit_kb"),
                "422": _answer(
                    "the properties, or a row with them, hold a value no reader can handle (`invalid_response`, as a "
                    "row's), or `rows_reversed`: first_trial_id's row was stored after trial_id's"
                ),
                "400": BODY_ERRORS["400"],
                "415": BODY_ERRORS["415"],
                "405": ERRORS["405"],
            },
        }
    },
    "/api/sessions/{token}/timeline-finished": {
        "post": {
            "summary": "A jsPsych experiment's timeline has finished, and how (naturally, or early by "
            "endExperiment/abortExperiment with its message: the session's ending): completion needs it; the first "
            "report stands",
            "parameters": [TOKEN],
            "requestBody": {
                "required": True,
                "content": _json(
                    {"$ref": "#/components/schemas/TimelineEnding"},
                    {"ended_early": True, "message": "<p>Please return this study in Prolific.</p>"},
                ),
            },
            "responses": {
                "200": _answer("recorded (or recorded before)", "TimelineFinished"),
                **BODY_ERRORS,
                "410": _answer(WITHDRAWN),
                "409": _answer(f"{BEFORE_CONSENT}, or {ENDED}"),
                **ERRORS,
                "404": _answer(f"no session has this token, or {NOT_JSPSYCH}"),
            },
        }
    },
    "/api/sessions/{token}/replay-diverged": {
        "post": {
            "summary": "A jsPsych experiment's replay after a reload computed other data for a stored row than the "
            "row holds: recorded on the session for the researchers; the first one stands",
            "parameters": [TOKEN],
            "requestBody": {
                "required": True,
                "content": _json(
                    {"$ref": "#/components/schemas/ReplayDiverged"}, {"trial_index": 0, "fields": ["condition"]}
                ),
            },
            "responses": {
                "200": _answer("recorded, or an earlier one stands", "DivergenceRecorded"),
                "410": _answer(WITHDRAWN),
                "409": _answer(f"{BEFORE_CONSENT}, or {ENDED}"),
                **BODY_ERRORS,
                **ERRORS,
                "404": _answer(f"no session has this token, or {NOT_JSPSYCH}"),
            },
        }
    },
    "/api/sessions/{token}/experiment-error": {
        "post": {
            "summary": "An error of a jsPsych experiment's own code, as its page caught it: stored on the session "
            "(the first stands; a fatal one replaces a non-fatal one) and the session flagged experiment_error",
            "parameters": [TOKEN],
            "requestBody": {
                "required": True,
                "content": _json({"$ref": "#/components/schemas/ExperimentError"}, ERROR_EXAMPLE),
            },
            "responses": {
                "200": _answer("recorded, or an earlier error stands", "ErrorRecorded"),
                "410": _answer(WITHDRAWN),
                "409": _answer(f"{BEFORE_CONSENT}, or {ENDED}"),
                **BODY_ERRORS,
                **ERRORS,
                "404": _answer(f"no session has this token, or {NOT_JSPSYCH}"),
            },
        }
    },
    "/api/sessions/{token}/complete": {
        "post": {
            "summary": "Complete the session once every planned trial and survey is stored (repeats answer the same). "
            "A jsPsych experiment's ending decides its outcome (study.toml's [[task.endings]]; an early end no rule "
            "maps is ended_early): one that is not a completion ends the session as POST /end does",
            "parameters": [TOKEN],
            "responses": {
                "200": {
                    "description": "completed: redirect_url (Prolific) or results_url; or a jsPsych experiment's "
                    "ending that is not a completion (status abandoned), answered as POST /end answers",
                    "content": _json(
                        {"anyOf": [{"$ref": "#/components/schemas/Completed"}, {"$ref": "#/components/schemas/Ended"}]}
                    ),
                },
                "410": _answer(WITHDRAWN),
                "409": _answer(
                    "`trials_missing` (missing), `surveys_missing` (missing_surveys), a jsPsych experiment's "
                    "`timeline_not_finished` or `too_few_rows` (stored, needed; the session is flagged), "
                    f"{BEFORE_CONSENT}, or {ENDED} (other than completed)"
                ),
                **ERRORS,
            },
        }
    },
    "/api/sessions/{token}/preview/row": {
        "get": {
            "summary": "A researcher's preview session only: one stored trial as trials.csv has it (the researcher "
            "bar)",
            "parameters": [
                TOKEN,
                {"name": "trial_index", "in": "query", "required": True, "schema": {"type": "integer"}},
            ],
            "responses": {
                "200": _answer("the row", "PreviewRow"),
                "400": _answer("trial_index missing or not an integer"),
                "404": _answer("no session has this token, `not_a_preview` (a participant's session), or `not_stored`"),
                "405": ERRORS["405"],
            },
        }
    },
    "/api/sessions/{token}/end": {
        "post": {
            "summary": "End the session early: the participant declined consent or failed the browser check, or a "
            "jsPsych experiment stopped on a recorded fatal error (frees its condition slot; a repeat answers the "
            "first outcome)",
            "parameters": [TOKEN],
            "requestBody": {
                "required": True,
                "content": _json({"$ref": "#/components/schemas/EndEarly"}, {"outcome": "incompatible_device"}),
            },
            "responses": {
                "200": _answer("recorded (or recorded before)", "Ended"),
                "410": _answer(WITHDRAWN),
                "409": _answer(
                    "`session_ended` (completed or excluded), `consent_given` (no_consent after consent was stored) "
                    "or `no_experiment_error` (experiment_error without a recorded fatal error)"
                ),
                **BODY_ERRORS,
                **ERRORS,
            },
        }
    },
    "/api/openapi.json": {
        "get": {
            "summary": "This document",
            "responses": {"200": {"description": "OpenAPI 3.1", "content": _json({"type": "object"})}},
        }
    },
    "/": {
        "get": {
            "summary": "The front page (HTML): what the server is; researchers' login, participants' study links",
            "responses": {"200": {"description": "the page", "content": HTML}},
        }
    },
    "/study/{slug}": {
        "get": {
            "summary": "Entry link (HTML): ?PROLIFIC_PID=…&STUDY_ID=…&SESSION_ID=… for Prolific, none otherwise",
            "parameters": [SLUG]
            + [
                {
                    "name": name,
                    "in": "query",
                    "required": False,
                    "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
                }
                for name in ("PROLIFIC_PID", "STUDY_ID", "SESSION_ID")
            ],
            "responses": {
                "303": {"description": "to the session's page (new, or resumed for a known PROLIFIC_PID)"},
                "200": {"description": "a page: already completed, or not accepting participants", "content": HTML},
                "400": {"description": "an id in the link is not valid", "content": HTML},
                "404": {"description": "no such study", "content": HTML},
                "503": {"description": "the study cannot start sessions (e.g. every condition full)", "content": HTML},
            },
        }
    },
    "/study/{slug}/preview/{signed}": {
        "get": {
            "summary": "A researcher's signed, expiring preview link (HTML): a new preview session, even while the "
            "study is paused, closed or full",
            "parameters": [
                SLUG,
                {"name": "signed", "in": "path", "required": True, "schema": {"type": "string"}},
                {
                    "name": "jump",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "string", "pattern": "^(trial-\\d{1,6}|step-[A-Za-z0-9_-]{1,64})$"},
                    "description": "where the page starts: a plan index or a step of the flow",
                },
            ],
            "responses": {
                "303": {"description": "to the preview session's page (with #jump=… when asked)"},
                "400": {
                    "description": "a jump that is neither trial-N nor step-NAME, or names a trial or step the "
                    "preview's plan and flow do not have",
                    "content": HTML,
                },
                "403": {"description": "not a valid preview link (forged, cut, or for another study)", "content": HTML},
                "404": {"description": "no such study", "content": HTML},
                "410": {
                    "description": "the link has expired, or names a condition the study no longer has",
                    "content": HTML,
                },
                "503": {"description": "the study cannot start sessions", "content": HTML},
            },
        }
    },
    "/study/{slug}/s/{token}": {
        "get": {
            "summary": "The study page (HTML; its configuration in #studyhive-config)",
            "parameters": [SLUG, TOKEN],
            "responses": {
                "200": {"description": "the page", "content": HTML},
                "302": {"description": "a completed session's page sends to its end"},
                "404": {"description": "no such session", "content": HTML},
            },
        }
    },
    "/study/{slug}/s/{token}/experiment": {
        "get": {
            "summary": "The page around a jsPsych experiment (HTML): it holds the session and runs the experiment in a "
            "sandboxed frame",
            "parameters": [SLUG, TOKEN],
            "responses": {
                "200": {"description": "the page", "content": HTML},
                "302": {"description": "consent or a survey not answered yet, or completed: to the study page"},
                "404": {"description": "no such session, or not a jsPsych experiment", "content": HTML},
            },
        }
    },
    "/study/{slug}/x/{version}/{name}": {
        "get": {
            "summary": "A study version's jsPsych experiment page (HTML, sandboxed by its Content-Security-Policy)",
            "parameters": [
                SLUG,
                {"name": "version", "in": "path", "required": True, "schema": {"type": "integer"}},
                {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}},
            ],
            "responses": {
                "200": {"description": "the page", "content": HTML},
                "404": {"description": "no such study, version or experiment file", "content": HTML},
            },
        }
    },
    "/study/{slug}/s/{token}/results": {
        "get": {
            "summary": "Results page of a completed session (HTML)",
            "parameters": [SLUG, TOKEN],
            "responses": {
                "200": {"description": "the page", "content": HTML},
                "302": {"description": "not completed yet: back to the study page"},
                "404": {"description": "no such session", "content": HTML},
            },
        }
    },
    "/stimuli/{slug}/{key}": {
        "get": {
            "summary": "A stimulus picture by its id (SVG, or the imported image)",
            "parameters": [SLUG, {"name": "key", "in": "path", "required": True, "schema": {"type": "string"}}],
            "responses": {
                "200": {"description": "the picture", "content": {"image/*": {}}},
                "404": {"description": "no such stimulus"},
            },
        }
    },
}

SCHEMAS.update(body_schemas())
DOCUMENT = {
    "openapi": "3.1.0",
    "info": {
        "title": "studyhive participant API",
        "version": "1",
        "description": "Every JSON error is 4xx {error, message, field?} and writes nothing; a session is "
        "reached only by its token. See docs/participant-api.md.",
    },
    "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
    "paths": PATHS,
    "components": {"schemas": SCHEMAS},
}


@bp.get("/api/openapi.json")
def document():
    return jsonify(DOCUMENT)
