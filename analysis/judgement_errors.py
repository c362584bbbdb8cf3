"""Per-response error measures for ratio (percent) judgements."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

# numpy, pandas and the checks (which use both) load with the first array: the ratio task scores each trial save with
# log_error on two numbers, in app workers that never load the analysis stack (docs/operations.md).
if TYPE_CHECKING:
    import pandas as pd

__all__ = ["log_error", "add_errors"]

#: The constant Cleveland & McGill add before taking the logarithm, so that a perfect answer gives
#: log2(1/8) = -3 instead of minus infinity.
LOG_OFFSET = 0.125


def log_error(judged, true):
    """Log absolute error of percent judgements (Cleveland & McGill, 1984).

    .. math:: \\text{log\\_error} = \\log_2\\left(|\\text{judged} - \\text{true}| + \\tfrac{1}{8}\\right)

    Both arguments are in **percent** units (0-100), as in the original study; the 1/8 offset keeps
    exact answers finite (their log error is -3).

    Parameters
    ----------
    judged, true : float, array-like or pandas.Series
        Judged and true percentages; broadcast against each other.

    Returns
    -------
    float, numpy.ndarray or pandas.Series
        Same shape (and, for Series, same index) as the broadcast inputs. Missing inputs give NaN.

    References
    ----------
    Cleveland, W. S., & McGill, R. (1984). Graphical perception: Theory, experimentation, and application
    to the development of graphical methods. JASA 79(387), 531-554.

    Examples
    --------
    >>> float(log_error(30, 25))  # log2(5 + 1/8)
    2.357552004618084
    >>> float(log_error(25, 25))
    -3.0
    """
    if type(judged) in (int, float) and type(true) in (int, float):  # one answer (a trial save): no arrays
        return math.log2(abs(judged - true) + LOG_OFFSET)
    import numpy as np

    from ._checks import as_numeric

    judged = as_numeric(judged, "judged", where="log_error")
    true = as_numeric(true, "true", where="log_error")
    result = np.log2(np.abs(judged - true) + LOG_OFFSET)
    return float(result) if np.ndim(result) == 0 else result


def add_errors(df: pd.DataFrame, judged: str = "response_percent", true: str = "true_percent") -> pd.DataFrame:
    """Add per-response ``abs_error`` and ``log_error`` columns.

    .. math::
        \\text{abs\\_error} = |\\text{judged} - \\text{true}|, \\qquad
        \\text{log\\_error} = \\log_2(\\text{abs\\_error} + 1/8)

    Parameters
    ----------
    df : pandas.DataFrame
        One row per response (tidy).
    judged, true : str
        Names of the numeric columns with the judged and the true value, in percent units.
        Missing values are allowed and give missing errors (the aggregating functions refuse them).

    Returns
    -------
    pandas.DataFrame
        A copy of ``df`` with the two columns added (replaced if already present).

    See Also
    --------
    log_error
    """
    from ._checks import check_frame

    check_frame(df, numeric=[judged, true], allow_nan=True, where="add_errors")
    out = df.copy()
    out["abs_error"] = (out[judged].astype(float) - out[true].astype(float)).abs()
    out["log_error"] = log_error(out[judged], out[true])
    return out
