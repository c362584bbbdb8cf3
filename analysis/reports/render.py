"""How every study report writes its numbers and tables: one module, so that text, Markdown, HTML and JSON agree.

Conventions, the same in every report and every format:

* **Missing values** (``None``, ``pd.NA``, ``NaT``, NaN) print as :data:`MISSING`, an en dash "–": in text and
  Markdown tables, in sentences and, through :func:`page_format`, on the HTML page. Never "nan", "None" or a blank
  cell, so a reader sees that the value is missing rather than forgotten; the report's notes say why.
* **Numbers** (:func:`num`): fixed decimals chosen by the caller, "-" before negatives, "+" only when asked
  (differences, t), infinities as "∞" / "−∞" (a t-test whose differences are all equal has t = ±∞).
* **p-values** (:func:`p_value`): three decimals, and "< 0.001" below 0.001 -- the APA convention (Publication
  Manual, 7th ed., §6.36: exact p to two or three decimals, "p < .001" below that), with the leading zero kept so the
  value reads the same in every column. One-sided p-values are formatted the same way; the table says which it is.
* **Tables**: :func:`text_table` (aligned columns under a rule of dashes) and :func:`markdown_table` (GitHub
  pipes, numeric columns right-aligned); :func:`table` picks one. They are not tabulate's "simple" and "github"
  formats (tabulate is installed, with pingouin): those widen every column to its heading plus two spaces (a
  module-wide setting, ``MIN_PADDING``, that pingouin's tables share) and pad Markdown cells, so every report's text
  would change for no reader's gain.
* **JSON** (:func:`jsonable`, :func:`records`): numpy scalars as Python numbers, every missing or non-finite number as
  ``null``; the numbers themselves are never rounded.
* **Documents**: a report is a :class:`Document` (a title, lead lines and :class:`Section` s of :class:`Paragraph`,
  :class:`Table` and :class:`Items` blocks) that :func:`render_text`, :func:`render_markdown` and
  :func:`render_html` lay out through one Jinja2 template each (analysis/reports/templates/report.txt, report.md,
  report.html), so the printed report, ``report.md`` and the dashboard's results page hold the same sentences and
  tables by construction; a report module only builds the document, section by section.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import numpy as np
import pandas as pd

__all__ = [
    "MISSING",
    "P_DIGITS",
    "P_FLOOR",
    "Document",
    "Items",
    "Paragraph",
    "Section",
    "Table",
    "cell",
    "interval",
    "is_missing",
    "jsonable",
    "markdown_table",
    "num",
    "p_value",
    "page_format",
    "records",
    "render_html",
    "render_markdown",
    "render_text",
    "table",
    "text_table",
    "with_interval",
]

#: What a missing value prints as, everywhere.
MISSING = "–"
#: p-values below this print as "< 0.001"; the others with :data:`P_DIGITS` decimals.
P_FLOOR = 0.001
P_DIGITS = 3


def is_missing(value: Any) -> bool:
    """True for ``None``, ``pd.NA``, ``pd.NaT`` and NaN (not for ±∞, which :func:`num` prints)."""
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, (float, np.floating)) and math.isnan(value)


def num(value: Any, digits: int = 2, *, sign: bool = False) -> str:
    """A number with ``digits`` decimals ("0.50"); "+0.50" with ``sign``; "∞" / "−∞"; :data:`MISSING` if missing.

    Parameters
    ----------
    value : float, int, numpy scalar, None or pd.NA
    digits : int, default 2
        Decimals (0 for counts).
    sign : bool, default False
        Prefix positive values (and +∞) with "+".

    Returns
    -------
    str
    """
    if is_missing(value):
        return MISSING
    if isinstance(value, (float, np.floating)) and math.isinf(value):
        return ("+∞" if sign else "∞") if value > 0 else "−∞"
    return f"{value:{'+' if sign else ''}.{digits}f}"


def p_value(p: Any, *, prefix: bool = False) -> str:
    """A p-value: "0.023", "< 0.001" below :data:`P_FLOOR`, :data:`MISSING` when missing.

    ``prefix=True`` gives the form for running text: "p = 0.023", "p < 0.001", "p = –".

    Parameters
    ----------
    p : float or None
    prefix : bool, default False

    Returns
    -------
    str

    Examples
    --------
    >>> [p_value(x) for x in (0.0004, 0.001, 0.0234, 1.0, None)]
    ['< 0.001', '0.001', '0.023', '1.000', '–']
    >>> p_value(0.0004, prefix=True), p_value(0.05, prefix=True)
    ('p < 0.001', 'p = 0.050')
    """
    if is_missing(p):
        text = MISSING
    elif p < P_FLOOR:
        text = f"< {P_FLOOR:.{P_DIGITS}f}"
    else:
        text = f"{p:.{P_DIGITS}f}"
    if not prefix:
        return text
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def interval(low: Any, high: Any, digits: int = 2) -> str:
    """ "[0.40, 0.60]", or :data:`MISSING` when either bound is missing."""
    if is_missing(low) or is_missing(high):
        return MISSING
    return f"[{num(low, digits)}, {num(high, digits)}]"


def with_interval(estimate: Any, low: Any, high: Any, digits: int = 2) -> str:
    """ "0.50 [0.40, 0.60]"; the estimate alone when there is no interval (e.g. a published value)."""
    bounds = interval(low, high, digits)
    return num(estimate, digits) if bounds == MISSING else f"{num(estimate, digits)} {bounds}"


def cell(value: Any, digits: int = 3) -> str:
    """A table cell from any value: floats through :func:`num`, missing values as :data:`MISSING`, the rest as
    ``str``."""
    if is_missing(value):
        return MISSING
    if isinstance(value, (float, np.floating)):
        return num(value, digits)
    return str(value)


def _check_shape(header: Sequence[str], rows: Sequence[Sequence[str]], align: str) -> None:
    if len(align) != len(header) or set(align) - {"l", "r"}:
        raise ValueError(f"table: align must have one 'l' or 'r' per column ({len(header)}), got {align!r}")
    for i, row in enumerate(rows):
        if len(row) != len(header):
            raise ValueError(f"table: row {i + 1} has {len(row)} cells, the header {len(header)}")


def text_table(header: Sequence[str], rows: Sequence[Sequence[Any]], align: str, indent: str = "  ") -> list[str]:
    """An aligned plain-text table: the header, a rule of dashes, one line per row; trailing spaces stripped.

    Parameters
    ----------
    header : sequence of str
    rows : sequence of sequences
        Cells, already formatted (anything else is passed through ``str``).
    align : str
        One character per column: "l" (text) or "r" (numbers).
    indent : str, default two spaces

    Returns
    -------
    list of str
        The lines.
    """
    _check_shape(header, rows, align)
    cells = [[str(c) for c in header], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]

    def line(row: list[str]) -> str:
        return (
            indent + "  ".join(c.rjust(w) if a == "r" else c.ljust(w) for c, w, a in zip(row, widths, align)).rstrip()
        )

    return [line(cells[0]), (indent + "  ".join("-" * w for w in widths)).rstrip(), *map(line, cells[1:])]


def _md(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[Any]], align: str) -> list[str]:
    """A Markdown (GitHub) table with a blank line before and after, so that it never merges with the paragraph
    next to it; "|" in a cell is escaped.

    Parameters
    ----------
    header, rows, align
        As for :func:`text_table`.

    Returns
    -------
    list of str
        The lines, the first and last empty.
    """
    _check_shape(header, rows, align)
    out = [
        "| " + " | ".join(map(_md, header)) + " |",
        "|" + "|".join("---:" if a == "r" else ":---" for a in align) + "|",
    ]
    out += ["| " + " | ".join(map(_md, row)) + " |" for row in rows]
    return ["", *out, ""]


def table(
    header: Sequence[str], rows: Sequence[Sequence[Any]], align: str, *, markdown: bool = False, indent: str = "  "
) -> list[str]:
    """:func:`markdown_table` if ``markdown``, else :func:`text_table`."""
    return markdown_table(header, rows, align) if markdown else text_table(header, rows, align, indent)


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data: numpy scalars as Python numbers and booleans, NaN, ±∞, ``pd.NA`` and ``NaT`` as
    None, recursively through dicts (keys kept), lists and tuples (as lists)."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, (np.floating, float)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """A table as JSON records, one dict per row (:func:`jsonable` values)."""
    return [jsonable(r) for r in df.astype(object).to_dict("records")]


def page_format() -> dict[str, Any]:
    """The conventions above for an HTML page's own JavaScript, which formats the values it recomputes (HypoML's
    page re-derives its conclusions when the reader changes the threshold): ``missing``, ``p_floor``, ``p_digits``
    and ``p_below`` (the text for p < p_floor)."""
    return {"missing": MISSING, "p_floor": P_FLOOR, "p_digits": P_DIGITS, "p_below": p_value(0.0)}


# --------------------------------------------------------------------------------------------------
# Documents: what a report says, laid out as text, Markdown or HTML by the templates below


@dataclass(frozen=True)
class Paragraph:
    """A sentence or more, on one line (a terminal wraps it; a search finds it whole)."""

    text: str


@dataclass(frozen=True)
class Table:
    """Formatted cells under a header, ``align`` one "l" or "r" per column; ``empty`` is printed instead of a table
    without rows."""

    header: Sequence[str]
    rows: Sequence[Sequence[Any]]
    align: str
    empty: str = "(none)"


@dataclass(frozen=True)
class Items:
    """A bulleted list (notes, outliers)."""

    items: Sequence[str]


@dataclass
class Section:
    heading: str
    blocks: list[Paragraph | Table | Items] = field(default_factory=list)


@dataclass
class Document:
    """A report's content: ``title``, ``lead`` lines under it (what was analysed, how) and its sections."""

    title: str
    lead: list[str] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)


def _numeric_columns(block: Table) -> list[bool]:
    """Whether each column of ``block`` is right-aligned ("r"), its shape checked first."""
    _check_shape(block.header, block.rows, block.align)
    return [a == "r" for a in block.align]


def _environment() -> jinja2.Environment:
    """The layouts of a :class:`Document` are templates (analysis/reports/templates/report.txt, .md and .html);
    HTML is autoescaped, text and Markdown are not (they print what the report says)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
        autoescape=jinja2.select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.tests.update(
        paragraph=lambda block: isinstance(block, Paragraph),
        items=lambda block: isinstance(block, Items),
    )
    env.globals.update(text_table=text_table, markdown_table=markdown_table, numeric_columns=_numeric_columns)
    return env


_TEMPLATES = _environment()


def render_text(doc: Document) -> str:
    """``doc`` as plain text: the title and lead lines, then each section's heading underlined with dashes and its
    blocks indented by two spaces (tables aligned by :func:`text_table`), a blank line between sections."""
    return _TEMPLATES.get_template("report.txt").render(doc=doc)


def render_markdown(doc: Document) -> str:
    """``doc`` as Markdown: "# title", the lead lines as paragraphs, "## heading" per section, its blocks as
    paragraphs, GitHub tables (:func:`markdown_table`) and lists, a blank line between blocks."""
    return _TEMPLATES.get_template("report.md").render(doc=doc)


def render_html(doc: Document) -> str:
    """``doc`` as an HTML fragment for a page: the title as ``<h2>``, the lead lines as paragraphs, each section a
    ``<section>`` with an ``<h3>``, its tables as ``<table>`` (numeric columns, "r", with class ``num``), lists as
    ``<ul>``. Every text is escaped, so the fragment can be inserted into a page as it is."""
    return _TEMPLATES.get_template("report.html").render(doc=doc)
