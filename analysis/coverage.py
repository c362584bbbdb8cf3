"""What a bootstrap interval over few units covers, as ``make validate`` measured it: the small-sample warning.

A percentile bootstrap that resamples *n* units (participants, or a model's runs) cannot see spread between units
it did not draw, so below about ten units its 95 % interval covers the population value less often than 95 %; with
one unit there is nothing to resample across: the MLAE and MAE intervals resample that unit's stimuli instead, which
describes that one person (or run), not the population, the sketch accuracy over one sketch resamples its answers,
and the shares over participants redraw the one unit and have no width. ``make validate``
(``bench/validate/ratio.py``, ``sketch.py``, ``ratings.py``, through ``coverage.py``) measures the coverage at
every n below :data:`SMALL_SAMPLE` on simulated cohorts of the demo designs, with the reports' own interval
functions, and writes it to
``analysis/data/bootstrap_coverage.csv`` (committed; its first lines name the command). :func:`small_sample_note`
quotes that file; no coverage figure is written in code.

API (for any report that resamples units):

* :func:`small_sample_note` ``(n_units, unit="participants", statistic="mlae_pooled") -> str``: "" from
  :data:`SMALL_SAMPLE` units on, else the warning with the measured coverage at that n;
* :func:`measured_coverage` ``(n_units, unit, statistic) -> dict | None``: the file's row (``coverage``, ``mc_low``,
  ``mc_high``, ``reps``);
* :func:`coverage_table` ``() -> DataFrame``: the whole file.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import pandas as pd

from ._checks import check_choice, check_positive_int

__all__ = ["SMALL_SAMPLE", "coverage_table", "measured_coverage", "small_sample_note"]

#: From this many resampled units on, no warning.
SMALL_SAMPLE = 10
#: The data file ``make validate`` writes (in ``analysis/data``).
COVERAGE_FILE = "bootstrap_coverage.csv"
COVERAGE_COLUMNS = ["unit", "statistic", "n_units", "reps", "nominal", "coverage", "mc_low", "mc_high", "design"]
#: unit -> one of them
UNITS = {"participants": "participant", "runs": "run", "sketches": "sketch"}
#: What the interval over one unit does: it resamples that unit's own observations (MLAE and MAE: the unit's
#: judgments within each type; a sketch accuracy: the sketch's answers), or it redraws that one unit every time (a
#: share over participants), so it has no width.
STIMULI, SAME_UNIT = "stimuli", "same unit"
#: unit -> what a single one's observations are called, where its interval resamples them, and what they are
INSIDE = {
    "participants": ("judgments (stimuli)", "stimuli"),
    "runs": ("predictions (stimuli)", "stimuli"),
    "sketches": ("answers", "answers"),
}
#: statistic -> (how the note names it, what its interval over one unit does)
STATISTICS = {
    "mlae_pooled": ("MLAE (pooled)", STIMULI),
    "mlae_participant": ("MLAE (participant)", STIMULI),
    "mae": ("MAE", STIMULI),
    "top1_accuracy": ("top-1 accuracy", STIMULI),
    "top3_accuracy": ("top-3 accuracy", STIMULI),
    "percent_agree": ("% agreeing", SAME_UNIT),
    "percent_correct": ("% correctly judged", SAME_UNIT),
}


@lru_cache(maxsize=1)
def coverage_table() -> pd.DataFrame:
    """The coverage ``make validate`` measured: one row per (unit, statistic, n_units), columns
    :data:`COVERAGE_COLUMNS`; empty (with those columns) when the file is missing."""
    path = resources.files(__package__).joinpath("data", COVERAGE_FILE)
    if not path.is_file():
        return pd.DataFrame(columns=COVERAGE_COLUMNS)
    with path.open("r", encoding="utf-8") as fh:
        return pd.read_csv(fh, comment="#")


def measured_coverage(n_units: int, unit: str = "participants", statistic: str = "mlae_pooled") -> dict | None:
    """The measured coverage of the 95 % interval of ``statistic`` over ``n_units`` ``unit``, or None when
    ``make validate`` did not measure that case."""
    check_choice(unit, UNITS, "unit", where="measured_coverage")
    check_choice(statistic, STATISTICS, "statistic", where="measured_coverage")
    n = check_positive_int(n_units, "n_units", where="measured_coverage")
    t = coverage_table()
    hit = t[(t["unit"] == unit) & (t["statistic"] == statistic) & (t["n_units"] == n)]
    return None if hit.empty else hit.iloc[0].to_dict()


def small_sample_note(n_units: int, unit: str = "participants", statistic: str = "mlae_pooled") -> str:
    """The warning a report prints beside an interval over fewer than :data:`SMALL_SAMPLE` units ("" otherwise).

    Parameters
    ----------
    n_units : int
        How many units the interval resampled (1 means it resampled the unit's stimuli).
    unit : {"participants", "runs", "sketches"}
    statistic : one of :data:`STATISTICS`: {"mlae_pooled", "mlae_participant", "mae"} (ratio report),
        {"top1_accuracy", "top3_accuracy"} (sketch report), {"percent_agree", "percent_correct"} (ratings report)

    Returns
    -------
    str
        E.g. "interval over 3 participants: `make validate` measured its coverage of the population value at
        0.74 [0.72, 0.76] (nominal 0.95) at n = 3", or "" from :data:`SMALL_SAMPLE` units on.
    """
    if n_units >= SMALL_SAMPLE:
        return ""
    one = UNITS[unit]
    row = measured_coverage(n_units, unit, statistic)
    measured = (
        f"not measured at n = {n_units} (run `make validate`)"
        if row is None
        else f"{row['coverage']:.2f} [{row['mc_low']:.2f}, {row['mc_high']:.2f}] at n = {n_units} "
        f"(nominal {row['nominal']:.2f}; `make validate`, {int(row['reps'])} simulated cohorts)"
    )
    what, one_unit = STATISTICS[statistic]
    narrow = row is not None and row["mc_high"] < row["nominal"]
    if n_units == 1 and one_unit == STIMULI:
        observations, these = INSIDE[unit]
        return (
            f"one {one}: the {what} interval resamples that {one}'s {observations}, so it describes this {one} on "
            f"these {these}, not {unit} in general; its coverage of the population value: {measured}"
        )
    if n_units == 1:
        return (
            f"one {one}: the {what} interval redraws that {one} in every resample, so it has no width and says "
            f"nothing about {unit} in general; its coverage of the population value: {measured}"
        )
    return (
        f"interval over {n_units} {unit}, fewer than {SMALL_SAMPLE}"
        + (f": a bootstrap over so few {unit} is too narrow" if narrow else "")
        + f"; measured coverage of the {what} interval: {measured}"
    )
