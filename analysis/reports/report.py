"""The one interface of every study report: a :class:`Report` holds what the statistics computed (``meta`` and the
``tables``) and offers the same methods whatever the study family -- :meth:`~Report.text`,
:meth:`~Report.markdown`, :meth:`~Report.html`, :meth:`~Report.json`, :meth:`~Report.methods`,
:meth:`~Report.figures` and :meth:`~Report.write` -- the way pingouin gives every test the same shape.

A family's report (``ratio_study.RatioReport``, ``hive_study.HiveReport``, ...) states only what is its own: its
:meth:`~Report.document` (the sections, paragraphs and tables, laid out as text, Markdown and HTML by
:mod:`analysis.reports.render`, so they cannot say different things), its Methods paragraphs, its figures and
which tables are written as CSV.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import pandas as pd

from ..tables import write_tables
from .render import Document, jsonable, records, render_html, render_markdown, render_text

__all__ = ["Report"]


@dataclass
class Report(ABC):
    """What a study's analysis computed, and every way it is rendered.

    Attributes
    ----------
    meta : dict
        Counts, options and notes (the family's report says which).
    tables : dict of str to pandas.DataFrame
        Every result table; all of them go into :meth:`json`, those named in :attr:`csv_tables` into CSV files.
    """

    meta: dict[str, Any]
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    #: The tables written as CSV (``write``, and the dashboard's downloads), in order.
    csv_tables: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def document(self, brief: bool = False) -> Document:
        """The report's content; ``brief`` for a screen (:meth:`text`), where a family may list fewer rows than
        in ``report.md`` and say where the rest are."""

    @abstractmethod
    def methods(self) -> str:
        """``methods.md``: what was computed, in words ready for a Methods section (:mod:`analysis.reports.methods`)."""

    def figures(self, out_dir: Path) -> list[Path]:
        """Draw the report's figures (PNG) into ``out_dir``; their paths (none by default)."""
        return []

    def text(self) -> str:
        """The report as plain text (what ``flask analyze`` prints)."""
        return render_text(self.document(brief=True))

    def markdown(self) -> str:
        """The report as Markdown (``report.md``)."""
        return render_markdown(self.document())

    def html(self) -> str:
        """The report as an HTML fragment, tables as ``<table>`` (the dashboard's results page): the screen's
        content, as :meth:`text`."""
        return render_html(self.document(brief=True))

    def json(self) -> dict[str, Any]:
        """Plain JSON data: ``meta`` and every table as records; numbers unrounded, NaN and ±∞ as None."""
        return {"meta": jsonable(self.meta), **{name: records(df) for name, df in self.tables.items()}}

    def write(self, out_dir: str | Path) -> list[Path]:
        """Write the CSV tables, ``report.txt``, ``report.md``, ``report.json``, ``methods.md`` and the figures into
        ``out_dir`` (created if needed); the paths written, in that order."""
        out = Path(out_dir)
        written = write_tables(self.tables, self.csv_tables, out)
        documents = {
            "report.txt": self.text(),
            "report.md": self.markdown(),
            "report.json": json.dumps(self.json(), indent=1, ensure_ascii=False, allow_nan=False) + "\n",
            "methods.md": self.methods(),
        }
        for name, content in documents.items():
            (out / name).write_text(content, encoding="utf-8")
            written.append(out / name)
        return written + self.figures(out)
