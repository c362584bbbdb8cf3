"""The one writer of the CSV files people open in a spreadsheet: `flask export` and the dashboard's downloads
(participants.csv, trials.csv, codebook.csv), and the results tables of `flask analyze --out`, `flask hypoml` and the
results page.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (also after a tab or a carriage return) as a
formula, and participants choose some of the text in these files (their browser's User-Agent, free-text answers).
So a text cell that starts with one of those characters and is not a number is written with a leading ``'``
(OWASP's CSV injection advice), which spreadsheets show as text; header cells too (a jsPsych experiment's row keys
name trials.csv's columns). Numbers are written as they are, and so is text that is a number (``-3.5``). Strip one
leading ``'`` from such a cell to get the value as stored.

A lone surrogate (half of a UTF-16 pair) is not UTF-8 and would stop a file of dict rows part-way: it is written as
JSON escapes it, ``\\ud83d``. The participant API refuses such text (server/tasktype/jsonvalue.py); this keeps what
was stored before it did readable. (A table's text columns cannot hold one: pandas' strings are UTF-8.)

Files the product reads back itself (stimulus and model manifests, `flask stimuli export`'s training sets) are
written raw by their own modules: a ``'`` there would change the ids and values they hold.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the row writers serve the app's CSV downloads, whose workers never load pandas
    import pandas as pd

#: What a spreadsheet reads as the start of a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# A number as a spreadsheet reads one (no spaces, no nan or inf, which it would take for a name in a formula).
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def neutralise(value: Any) -> Any:
    """`value` with a leading ``'`` if it is text a spreadsheet would run as a formula; anything else unchanged.

    Examples
    --------
    >>> neutralise("=1+1"), neutralise("-3.5"), neutralise(-3.5), neutralise("Kenyan")
    ("'=1+1", '-3.5', -3.5, 'Kenyan')
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def utf8_safe(text: str) -> str:
    """`text` with each lone surrogate written as its JSON escape (``\\ud83d``), so that it encodes as UTF-8."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def rows_csv(header: list[str], rows: Iterable[Mapping[str, Any]], chunk_rows: int = 500) -> Iterator[str]:
    """Dict rows as CSV text in chunks of `chunk_rows` rows (keys outside `header` are left out), for files written
    to disk and downloads streamed alike."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=header, extrasaction="ignore", lineterminator="\n")
    writer.writerow({name: neutralise(name) for name in header})
    for i, row in enumerate(rows, 1):
        writer.writerow({key: neutralise(value) for key, value in row.items()})
        if i % chunk_rows == 0:
            yield utf8_safe(buffer.getvalue())
            buffer.seek(0)
            buffer.truncate()
    yield utf8_safe(buffer.getvalue())


def safe_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of `frame` with its text cells and column names neutralised; numeric, boolean and datetime columns as
    they are."""
    from pandas.api.types import is_bool_dtype, is_datetime64_any_dtype, is_numeric_dtype

    safe = frame.copy()
    safe.columns = safe.columns.map(neutralise)
    for i, dtype in enumerate(frame.dtypes):
        if not (is_numeric_dtype(dtype) or is_bool_dtype(dtype) or is_datetime64_any_dtype(dtype)):
            safe.isetitem(i, frame.iloc[:, i].map(neutralise, na_action="ignore"))
    return safe


def frame_csv(frame: pd.DataFrame, chunk_rows: int = 1000) -> Iterator[str]:
    """A table as CSV text (no index) in chunks of `chunk_rows` rows."""
    safe = safe_frame(frame)
    for start in range(0, max(len(safe), 1), chunk_rows):
        yield safe.iloc[start : start + chunk_rows].to_csv(index=False, header=start == 0)


def write_frame(frame: pd.DataFrame, path: str | Path) -> Path:
    """Write a table as a CSV file (the bytes :func:`frame_csv` streams); the path."""
    path = Path(path)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        fh.writelines(frame_csv(frame))
    return path
