"""Interaction records: what the page saw happen during a trial, sent with the trial in the same request (`events`)
and stored as given in trials.events (docs/participant-api.md, "Interaction records"). One event is
{"t": ms since the trial began, "type": one of EVENT_TYPES, "target": which field or null, "value": text or null}.

The caps are fixed, not settings: the page trims to the same numbers before it sends (static/studyhive/events.js),
so a server with other caps would refuse what every page sends. Over a cap is a 413 `events_too_large`; anything
malformed a 422 `invalid_events` naming the event's index. NULL in trials.events means the page sent none (a page
from before interaction records); [] means it recorded and nothing happened."""

from __future__ import annotations

import json
from typing import Any

from ..exceptions import APIError
from .jsonvalue import storable

EVENT_TYPES = (
    "hidden",  # document visibilitychange: the tab was hidden (another tab, minimised)
    "visible",  # … and shown again
    "blur",  # the window lost focus
    "focus",  # … and got it back
    "fullscreen_enter",
    "fullscreen_exit",
    "resize",  # value: the window's new inner size, "1280x720"
    "input",  # a text or number field's value changed; value: the new value
    "change",  # a radio button, select or checkbox changed; value: the new value
    "key",  # a keystroke in a type-ahead or text field; value: the key's name (KeyboardEvent.key)
    "pick",  # a choice picked from a list (the sketch type-ahead); value: the picked label's id
    "truncated",  # the page dropped the events after this one to stay within the caps; value: how many
)
MAX_EVENTS = 500
MAX_BYTES = 16 * 1024  # of the list as compact UTF-8 JSON, as the page's JSON.stringify writes it
MAX_T_MS = 24 * 3600 * 1000
MAX_TARGET = 64
MAX_VALUE = 200
KEYS = ("t", "type", "target", "value")
# The most compact JSON one valid event can take: its keys and punctuation, t's digits, the longest type, and every
# character of target and value escaped as \uXXXX (6 bytes; no character takes more). So many always fit MAX_BYTES.
MAX_EVENT_BYTES = len('{"t":,"type":"","target":"","value":""},') + len(str(MAX_T_MS)) + max(map(len, EVENT_TYPES))
MAX_EVENT_BYTES += 6 * (MAX_TARGET + MAX_VALUE)
ALWAYS_FIT = (MAX_BYTES - 2) // MAX_EVENT_BYTES
# What validate_events takes, for the participant API's OpenAPI document (server/participation/bodies.py).
JSON_SCHEMA = {
    "type": ["array", "null"],
    "maxItems": MAX_EVENTS,
    "description": 'the trial\'s interaction records (docs/participant-api.md, "Interaction records"); at most '
    f"{MAX_BYTES // 1024} KB of JSON; null or left out: none recorded",
    "items": {
        "type": "object",
        "additionalProperties": False,
        "required": ["t", "type"],
        "properties": {
            "t": {"type": "integer", "minimum": 0, "maximum": MAX_T_MS, "description": "ms since the trial began"},
            "type": {"enum": list(EVENT_TYPES)},
            "target": {"type": ["string", "null"], "maxLength": MAX_TARGET},
            "value": {"type": ["string", "null"], "maxLength": MAX_VALUE},
        },
    },
}


def invalid(index: int, message: str) -> APIError:
    return APIError(422, "invalid_events", f"events[{index}]: {message}", field="events", index=index)


def validate_events(events: Any) -> list[dict[str, Any]] | None:
    """The trial's events as stored (each with all four keys; a missing target or value is null), None when the
    page sent none; else the APIError: 413 over a cap, 422 malformed (naming the first bad event)."""
    if events is None:
        return None
    if not isinstance(events, list):
        raise APIError(422, "invalid_events", "events must be a list of event objects (or null)", field="events")
    if len(events) > MAX_EVENTS:
        raise too_large(f"{len(events)} events")
    checked, problem = [], None
    for index, event in enumerate(events):
        try:
            checked.append(_event(index, event))
        except APIError as exc:
            problem = exc
            break
    # Over the size cap is the answer even when an event is malformed; a few valid events cannot be over it, so the
    # usual list is not encoded again to measure it.
    if problem is not None or len(events) > ALWAYS_FIT:
        try:
            # surrogatepass: a lone surrogate is measured here and refused at its event
            text = json.dumps(events, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
            size = len(text.encode("utf-8", "surrogatepass"))
        except ValueError:  # NaN or Infinity somewhere: refused at its event
            size = 0
        if size > MAX_BYTES:
            raise too_large(f"{size} bytes of JSON")
    if problem is not None:
        raise problem
    return checked


def too_large(what: str) -> APIError:
    return APIError(
        413,
        "events_too_large",
        f"a trial's events may hold at most {MAX_EVENTS} events and {MAX_BYTES // 1024} KB of JSON, not {what}; "
        'trim them and end with a "truncated" event',
        field="events",
    )


def _event(index: int, event: Any) -> dict[str, Any]:
    if not isinstance(event, dict):
        raise invalid(index, "each event must be an object")
    unknown = set(event) - set(KEYS)
    if unknown:
        raise invalid(index, f"unknown key(s) {', '.join(sorted(map(str, unknown)))}; an event has {', '.join(KEYS)}")
    t = event.get("t")
    if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= MAX_T_MS:
        raise invalid(index, f"t must be whole milliseconds since the trial began (0–{MAX_T_MS:,})")
    if event.get("type") not in EVENT_TYPES:
        raise invalid(index, f"type must be one of {', '.join(EVENT_TYPES)}")
    target, value = event.get("target"), event.get("value")
    if target is not None and not (isinstance(target, str) and len(target) <= MAX_TARGET and target.isprintable()):
        raise invalid(index, f"target must be null or at most {MAX_TARGET} printable characters")
    # PostgreSQL's text cannot hold NUL, and the export writes values as UTF-8 text, which a lone surrogate is not.
    if value is not None and not (isinstance(value, str) and len(value) <= MAX_VALUE and storable(value)):
        raise invalid(
            index, f"value must be null or a text of at most {MAX_VALUE} characters, without NUL or lone surrogates"
        )
    return {"t": t, "type": event["type"], "target": target, "value": value}
