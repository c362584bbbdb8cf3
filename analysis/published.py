"""Published reference results (Cleveland & McGill 1984, Heer & Bostock 2010, Study III, HIVE).

The table ships inside the package (``analysis/data/published_results.csv``) and is read with
:mod:`importlib.resources`, so it works from an installed wheel as well as from a checkout.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import pandas as pd

from ._checks import check_choice

__all__ = ["published", "published_mlae"]

_DATA_FILE = "published_results.csv"


@lru_cache(maxsize=1)
def _table() -> pd.DataFrame:
    with resources.files(__package__).joinpath("data", _DATA_FILE).open("r", encoding="utf-8") as fh:
        df = pd.read_csv(fh, dtype={"n": "Int64"})
    return df


def published(source: str | None = None, study: str | None = None, measure: str | None = None) -> pd.DataFrame:
    """Published results, optionally filtered.

    Parameters
    ----------
    source : str, optional
        E.g. ``"ClevelandMcGill1984"``, ``"HeerBostock2010"``, ``"JiangEtAl2025"``, ``"HIVE2022"``.
    study : str, optional
        E.g. ``"position-length"``, ``"ratio-sampling study III"``.
    measure : str, optional
        E.g. ``"MLAE"``, ``"MAE"``, ``"accuracy"``.

    Returns
    -------
    pandas.DataFrame
        A copy of the matching rows with columns ``source``, ``study``, ``measure``, ``condition``, ``value``,
        ``spread``, ``spread_kind`` (``"ci95_halfwidth"`` or ``"sd_over_participants"``), ``n``, ``chance``,
        ``note``. Units are those of the publication (MLAE: log2 of percent; Study III MAE: ratio units 0-1;
        HIVE accuracy: percent).

    Raises
    ------
    ValueError
        If a filter value does not occur in the table (the message lists the known ones).
    """
    df = _table()
    for col, want in (("source", source), ("study", study), ("measure", measure)):
        if want is not None:
            check_choice(want, pd.unique(df[col]), col, where="published")
            df = df[df[col] == want]
    return df.reset_index(drop=True).copy()


def published_mlae() -> pd.DataFrame:
    """Published MLAE per chart type of the position-length experiment (the five bar-chart types).

    Returns
    -------
    pandas.DataFrame
        One row per (source, chart type): ``source``, ``chart_type`` (int 1..5), ``mlae``, ``ci_halfwidth``
        (of the 95 % interval), ``ci_low``, ``ci_high`` (``mlae -/+ ci_halfwidth``), sorted by source and type.
    """
    df = published(study="position-length", measure="MLAE")
    if not (df["spread_kind"] == "ci95_halfwidth").all():  # guards the meaning of the copied table
        raise ValueError("published_mlae: expected 95% CI half-widths in column 'spread'")
    chart_type = df["condition"].str.extract(r"^type(\d)$", expand=False)
    out = pd.DataFrame(
        {
            "source": df["source"].to_numpy(),
            "chart_type": chart_type.astype("int64").to_numpy(),
            "mlae": df["value"].to_numpy(dtype=float),
            "ci_halfwidth": df["spread"].to_numpy(dtype=float),
        }
    )
    out["ci_low"] = out["mlae"] - out["ci_halfwidth"]
    out["ci_high"] = out["mlae"] + out["ci_halfwidth"]
    return out.sort_values(["source", "chart_type"], ignore_index=True)
