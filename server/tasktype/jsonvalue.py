"""What a JSON value a participant's page sends must be for every reader of it to cope: the one check of a trial's
response and of a plan-less task's row as they are stored (after the task type's validate_response, whose own
words come first), docs/participant-api.md "Values".

Python's JSON parser takes what no reader after it can handle: a lone surrogate (half of an emoji, what JavaScript's
.slice() can leave) is not UTF-8, so the export, the data package and the pages that show it fail on it; PostgreSQL's
text cannot hold NUL; an integer past 2^53 - 1 is not what the browser sent (JSON.parse rounds it) and one of 400
digits has no float, which pandas and the analysis need; NaN and Infinity are not JSON; and every reader recurses
into nested values. So each string (keys too) is valid Unicode text without NUL, each integer within ±(2^53 - 1),
each number finite, and objects and arrays nest at most MAX_DEPTH levels."""

from __future__ import annotations

import math
import unicodedata
from typing import Any

from ..exceptions import ResponseError

MAX_DEPTH = 32
# Number.MAX_SAFE_INTEGER: the largest integer every browser's JSON holds exactly.
MAX_SAFE_INTEGER = 2**53 - 1


def text_problem(text: str) -> str | None:
    """Why `text` cannot be stored and written as UTF-8 text (it holds NUL or a lone surrogate), or None."""
    if "\x00" in text:
        return "holds a NUL character"
    if any(unicodedata.category(c) == "Cs" for c in text):
        return "holds a lone surrogate (half of a UTF-16 pair, e.g. an emoji cut in two), which is not UTF-8 text"
    return None


def storable(text: str) -> bool:
    """Whether `text` can be stored and written as UTF-8 text (for a check that says its own words)."""
    return text_problem(text) is None


def check(value: Any, where: str, depth: int = 1) -> None:
    """Raise ResponseError naming the path of the first part of `value` that breaks the rules above (`where` is
    the path of `value` itself, e.g. "row"; `depth` its level)."""
    if isinstance(value, str):
        problem = text_problem(value)
        if problem:
            raise ResponseError(where, f"{where} {problem}")
    elif isinstance(value, bool):
        return
    elif isinstance(value, int):
        if abs(value) > MAX_SAFE_INTEGER:
            raise ResponseError(
                where, f"{where} is an integer beyond ±(2^53 - 1), which a browser's JSON cannot hold exactly"
            )
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ResponseError(where, f"{where} is not a finite number (NaN and Infinity are not JSON)")
    elif isinstance(value, (dict, list)):
        if depth > MAX_DEPTH:
            raise ResponseError(where, f"{where} nests objects and arrays more than {MAX_DEPTH} levels deep")
        if isinstance(value, list):
            for index, item in enumerate(value):
                check(item, f"{where}[{index}]", depth + 1)
            return
        for key, item in value.items():
            problem = text_problem(key)
            if problem:
                raise ResponseError(where, f"a key of {where} {problem}")
            check(item, f"{where}.{key}", depth + 1)
