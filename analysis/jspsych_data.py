"""The rows of a researcher's own jsPsych experiment as table columns, and the codebook inferred from them.

Such a study has no fixed plan: each stored trial holds one row exactly as jsPsych recorded it (``trial_type``,
``trial_index``, ``time_elapsed``, ``rt``, ``stimulus``, ``response``, the timeline variables and whatever the
experiment's ``on_finish`` added). Its columns are therefore only known from the data:

* :func:`flat_row` writes one row as cells the way jsPsych's own ``jsPsych.data.get().csv()`` does: scalars as they
  are, objects and arrays as compact JSON text; and a ``response`` object (the survey plugins': one answer per
  question name, ``{"Q0": "…", "Q1": 3}``) also as one ``response.<name>`` column per question; booleans stay
  Python's until :func:`json_scalars` writes them as JSON's ``true``/``false`` for the CSV;
* :class:`Codebook` reads the flattened rows once (streaming, bounded memory) and infers each column's order of
  first appearance, type, levels and number of missing values.

Flask-free, like the rest of :mod:`analysis`; server/results/export.py feeds it from the database.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .safe_csv import utf8_safe

__all__ = ["MAX_LEVELS", "STANDARD_DESCRIPTIONS", "Codebook", "ColumnProfile", "flat_row", "json_scalars", "json_text"]

#: A column with more distinct values than this lists no levels.
MAX_LEVELS = 20
# Distinct values kept per column while counting: one past MAX_LEVELS is enough to know it has too many.
_KEEP = MAX_LEVELS + 1

#: The codebook's words for the columns jsPsych itself writes (7.x and 8.x); a study's own descriptions override.
STANDARD_DESCRIPTIONS = {
    "trial_type": "the jsPsych plugin that ran the trial",
    "trial_index": "jsPsych's index of the trial in the timeline, from 0 (as the page counted; see saved_seq)",
    "time_elapsed": "milliseconds since the experiment started when the trial ended, as jsPsych measured",
    "internal_node_id": "jsPsych's id of the timeline node (jsPsych 7)",
    "plugin_version": "version of the plugin that ran the trial (jsPsych 8)",
    "rt": "response time in milliseconds, as the plugin measured it (empty: no response)",
    "stimulus": "the stimulus as the plugin was given it",
    "response": "the response as the plugin recorded it (objects as JSON text)",
}


# Number.MAX_SAFE_INTEGER: the largest integer a browser's JSON holds exactly, and the participant API takes.
_MAX_SAFE_INTEGER = 2**53 - 1

#: Columns jsPsych fills with measurements: never a factor, however few distinct values a run happened to give
#: (a scripted or very practised run repeats its response times).
MEASURES = frozenset({"rt", "time_elapsed", "trial_index"})


def json_text(value: Any) -> str:
    """An object or array as the compact JSON text ``JSON.stringify`` writes (what jsPsych's ``.csv()`` puts in a
    cell), non-ASCII kept as it is."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _cell(value: Any) -> Any:
    """A stored value as a cell: objects and arrays as JSON text. Rows stored before the participant API refused
    them (server/tasktype/jsonvalue.py) may hold what no reader handles; every reader gets such values in a form it
    can: an integer beyond ±(2^53 - 1) as its digits (text: no float holds one of 400 digits), text with a lone
    surrogate as JSON escapes it (``\\ud83d``, which UTF-8 can write)."""
    if isinstance(value, (dict, list)):
        value = json_text(value)
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > _MAX_SAFE_INTEGER:
        value = str(value)
    return utf8_safe(value) if isinstance(value, str) else value


def json_scalars(flat: Mapping[str, Any]) -> dict[str, Any]:
    """A flattened row's cells as jsPsych's ``.csv()`` writes them: booleans as JSON's ``true`` and ``false``, not
    Python's ``True`` and ``False`` (profiled before, so the codebook still calls such a column boolean)."""
    return {key: json_text(value) if isinstance(value, bool) else value for key, value in flat.items()}


def flat_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """One jsPsych data row as cells: objects and arrays as JSON text, and a ``response`` object's entries also as
    ``response.<key>`` cells, right after ``response`` (a row's own key of that name is kept as it is).

    Examples
    --------
    >>> flat_row({"rt": 950, "response": {"Q0": "yes", "Q1": [1, 2]}, "trial_type": "survey-text"})
    {'rt': 950, 'response': '{"Q0":"yes","Q1":[1,2]}', 'response.Q0': 'yes', 'response.Q1': '[1,2]', \
'trial_type': 'survey-text'}
    """
    flat: dict[str, Any] = {}
    for key, value in row.items():
        flat[utf8_safe(key)] = _cell(value)
        if key == "response" and isinstance(value, dict):
            for name, answer in value.items():
                if f"response.{name}" not in row:
                    flat[utf8_safe(f"response.{name}")] = _cell(answer)
    return flat


def _kind(value: Any) -> str:
    """The codebook type of one non-missing cell of a flattened row (JSON text is "text": a row is flattened
    before it is profiled, so the profile sees what the CSV holds)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "text"


@dataclass
class ColumnProfile:
    """What the data say about one column: how many rows lack it (missing or null), the kinds of values it holds
    and its distinct values, up to one past :data:`MAX_LEVELS`."""

    name: str
    missing: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    # (kind, value): True and 1 are equal in Python and would otherwise count as one level.
    values: set[tuple[str, Any]] = field(default_factory=set)

    @property
    def dtype(self) -> str:
        """boolean, integer, number (integers and decimals), text, mixed (e.g. a key name in one trial and a number
        in another) or empty (never given)."""
        kinds = set(self.kinds)
        if not kinds:
            return "empty"
        if len(kinds) == 1:
            return kinds.pop()
        return "number" if kinds == {"integer", "number"} else "mixed"

    @property
    def levels(self) -> list[Any] | None:
        """The distinct values, sorted (by kind, then False before True, numbers ascending, text by its
        characters), when the column looks like a factor: at most :data:`MAX_LEVELS` of them, each given on two rows
        on average (so free text and response times are not listed), or true/false; else None. Decimal numbers
        have none."""
        given = sum(self.kinds.values())
        factor = self.dtype == "boolean" or 2 * len(self.values) <= given
        if len(self.values) > MAX_LEVELS or self.dtype in ("number", "empty") or not factor:
            return None
        return [value for _, value in sorted(self.values)]

    def description(self) -> str:
        """The inferred part of the codebook's description: how mixed columns mix, and how many values there are."""
        parts = []
        if self.dtype == "mixed":
            parts.append("values of several types: " + ", ".join(f"{k} ({n})" for k, n in sorted(self.kinds.items())))
        if len(self.values) > MAX_LEVELS:
            parts.append(f"more than {MAX_LEVELS} distinct values")
        return "; ".join(parts)


class Codebook:
    """The columns of flattened rows (:func:`flat_row`), in order of first appearance, each with its
    :class:`ColumnProfile`; fed row by row (:meth:`add`), so a study's rows need not be held at once."""

    def __init__(self) -> None:
        self.columns: dict[str, ColumnProfile] = {}
        self.rows = 0

    def add(self, flat: Mapping[str, Any]) -> None:
        for name in flat:
            if name not in self.columns:
                # A column first seen now was missing from every row before it.
                self.columns[name] = ColumnProfile(name, missing=self.rows)
        for name, profile in self.columns.items():
            value = flat.get(name)
            if value is None:
                profile.missing += 1
                continue
            kind = _kind(value)
            profile.kinds[kind] = profile.kinds.get(kind, 0) + 1
            if len(profile.values) < _KEEP:
                profile.values.add((kind, value))
        self.rows += 1

    def extend(self, rows: Iterable[Mapping[str, Any]]) -> Codebook:
        for flat in rows:
            self.add(flat)
        return self

    def entries(self, descriptions: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
        """One codebook entry per column: column, type, levels (JSON text of the list, or None), missing (rows
        without a value) and description — the study's own (``descriptions``), else jsPsych's standard words, else
        what the column is derived from, followed by what the inference adds."""
        given = descriptions or {}
        entries = []
        for name, profile in self.columns.items():
            question = name.removeprefix("response.") if name.startswith("response.") else None
            base = (
                given.get(name)
                or STANDARD_DESCRIPTIONS.get(name)
                or (f"answer to question {question!r} of the response object" if question else "")
            )
            extra = profile.description()
            levels = None if name in MEASURES else profile.levels
            entries.append(
                {
                    "column": name,
                    "type": profile.dtype,
                    "levels": None if levels is None else json_text(levels),
                    "missing": profile.missing,
                    "description": "; ".join(filter(None, [base, extra])),
                }
            )
        return entries
