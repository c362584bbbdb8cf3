"""Writing a report's tables to disk, shared by every study family's report."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import pandas as pd

from .safe_csv import write_frame


def write_tables(tables: Mapping[str, pd.DataFrame], names: Iterable[str], out_dir) -> list[Path]:
    """Write each named table as ``<name>.csv`` (no index) into `out_dir`, creating it; text a spreadsheet would run
    as a formula is neutralised (:mod:`analysis.safe_csv`).

    Parameters
    ----------
    tables : mapping of str to pandas.DataFrame
        A report's tables.
    names : iterable of str
        Which tables to write, in order.
    out_dir : str or pathlib.Path
        The folder.

    Returns
    -------
    list of pathlib.Path
        The files written, in the order of `names`.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names:
        written.append(write_frame(tables[name], out / f"{name}.csv"))
    return written
