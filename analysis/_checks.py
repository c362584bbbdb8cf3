"""Input checks shared by every public function of :mod:`analysis`.

All checks raise :class:`ValueError` with a message that names the offending column (or argument),
so that a caller (or a web page showing the message) can say exactly what is wrong with the data.
No other module in the package validates inputs on its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd
from pandas.api.types import is_bool_dtype, is_numeric_dtype

__all__ = [
    "check_frame",
    "as_float_array",
    "as_numeric",
    "check_levels",
    "check_same_length",
    "check_not_constant",
    "check_number",
    "check_contains",
    "check_min_count",
    "check_matrix",
    "check_choice",
    "as_columns",
    "check_ci",
    "check_positive_int",
]


def as_columns(spec: str | Sequence[str] | None, *, allow_empty: bool = False) -> list[str]:
    """Normalise a column argument (one name, a sequence of names, or ``None``) to a list."""
    if spec is None:
        return []
    if isinstance(spec, str):
        return [spec]
    if isinstance(spec, Iterable):
        cols = list(spec)
        if (not cols and not allow_empty) or not all(isinstance(c, str) for c in cols):
            raise ValueError(f"column names must be a non-empty sequence of strings, got {spec!r}")
        return cols
    raise ValueError(f"column names must be a string or a sequence of strings, got {spec!r}")


def check_frame(
    df: object,
    *,
    numeric: str | Sequence[str] | None = None,
    keys: str | Sequence[str] | None = None,
    allow_nan: bool = False,
    where: str = "",
) -> pd.DataFrame:
    """Check a tidy input DataFrame and return it unchanged.

    Parameters
    ----------
    df : pandas.DataFrame
        The data.
    numeric : str or sequence of str, optional
        Columns that must exist, hold numbers (not booleans) and, unless ``allow_nan``, no missing values.
    keys : str or sequence of str, optional
        Columns that must exist and have no missing values (identifiers such as participant or stimulus;
        any dtype).
    allow_nan : bool, default False
        Accept missing values in the ``numeric`` columns.
    where : str
        Name of the calling function, used as the message prefix.

    Raises
    ------
    ValueError
        If ``df`` is not a DataFrame, is empty, or a column is missing, non-numeric or has missing values.
        The message names the column.
    """
    prefix = f"{where}: " if where else ""
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"{prefix}expected a pandas DataFrame, got {type(df).__name__}")
    num_cols = as_columns(numeric, allow_empty=True)
    key_cols = as_columns(keys, allow_empty=True)
    for col in [*num_cols, *key_cols]:
        if col not in df.columns:
            have = ", ".join(map(str, df.columns)) or "none"
            raise ValueError(f"{prefix}column '{col}' is missing (columns present: {have})")
    if len(df) == 0:
        raise ValueError(f"{prefix}the data are empty (no rows)")
    for col in num_cols:
        s = df[col]
        if isinstance(s, pd.DataFrame):
            raise ValueError(f"{prefix}column '{col}' appears more than once")
        if is_bool_dtype(s.dtype) or not is_numeric_dtype(s.dtype):
            raise ValueError(f"{prefix}column '{col}' must be numeric, got dtype {s.dtype}")
        if not allow_nan:
            n_bad = int((~np.isfinite(s.to_numpy(dtype=float, na_value=np.nan))).sum())
            if n_bad:
                raise ValueError(f"{prefix}column '{col}' has {n_bad} missing or infinite value(s)")
    for col in key_cols:
        n_bad = int(df[col].isna().sum())
        if n_bad:
            raise ValueError(f"{prefix}column '{col}' has {n_bad} missing value(s)")
    return df


def as_float_array(x: object, name: str, *, where: str = "", min_size: int = 1) -> np.ndarray:
    """Convert a 1-D array-like of numbers to a float ndarray, checking it.

    Raises
    ------
    ValueError
        If ``x`` is not numeric, not one-dimensional, has missing/infinite values or fewer than
        ``min_size`` elements. The message names ``name``.
    """
    prefix = f"{where}: " if where else ""
    if isinstance(x, pd.DataFrame):
        raise ValueError(f"{prefix}'{name}' must be one-dimensional, got a DataFrame")
    arr = np.asarray(x.to_numpy() if isinstance(x, pd.Series) else x)
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.number)):
        raise ValueError(f"{prefix}'{name}' must be numeric, got dtype {arr.dtype}")
    arr = arr.astype(float)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(f"{prefix}'{name}' must be one-dimensional, got shape {arr.shape}")
    if arr.size < min_size:
        raise ValueError(f"{prefix}'{name}' needs at least {min_size} value(s), got {arr.size}")
    n_bad = int((~np.isfinite(arr)).sum())
    if n_bad:
        raise ValueError(f"{prefix}'{name}' has {n_bad} missing or infinite value(s)")
    return arr


def as_numeric(x: object, name: str, *, where: str = ""):
    """Return ``x`` as float (a Series stays a Series, anything else becomes an ndarray).

    Missing values are allowed (element-wise functions propagate them).

    Raises
    ------
    ValueError
        If ``x`` does not hold numbers (booleans and strings are refused). The message names ``name``.
    """
    prefix = f"{where}: " if where else ""
    if isinstance(x, pd.DataFrame):
        raise ValueError(f"{prefix}'{name}' must be a number, an array or a Series, got a DataFrame")
    arr = x if isinstance(x, pd.Series) else np.asarray(x)
    if is_bool_dtype(arr.dtype) or not is_numeric_dtype(arr.dtype):
        raise ValueError(f"{prefix}'{name}' must be numeric, got dtype {arr.dtype}")
    return arr.astype(float)


def check_ci(ci: float, *, where: str = "") -> float:
    """Check a confidence level given in percent (0 < ci < 100)."""
    prefix = f"{where}: " if where else ""
    try:
        value = float(ci)
    except (TypeError, ValueError):
        raise ValueError(f"{prefix}'ci' must be a number of percent, got {ci!r}") from None
    if not 0 < value < 100:
        raise ValueError(f"{prefix}'ci' must be between 0 and 100 (percent), got {ci!r}")
    return value


def check_positive_int(value: object, name: str, *, where: str = "") -> int:
    """Check a strictly positive integer argument such as ``n_boot``."""
    prefix = f"{where}: " if where else ""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{prefix}'{name}' must be a positive integer, got {value!r}")
    return int(value)


def check_levels(df: pd.DataFrame, column: str, minimum: int = 2, *, where: str = "") -> None:
    """Check that ``column`` has at least ``minimum`` distinct values."""
    prefix = f"{where}: " if where else ""
    n = int(df[column].nunique())
    if n < minimum:
        raise ValueError(f"{prefix}column '{column}' needs at least {minimum} distinct values, got {n}")


def check_same_length(x: np.ndarray, y: np.ndarray, names: tuple[str, str] = ("x", "y"), *, where: str = "") -> None:
    """Check that two 1-D arrays have the same length (paired data)."""
    prefix = f"{where}: " if where else ""
    if x.size != y.size:
        raise ValueError(f"{prefix}'{names[0]}' and '{names[1]}' need equal lengths, got {x.size} and {y.size}")


def check_not_constant(x: np.ndarray, name: str, *, where: str = "") -> None:
    """Check that a 1-D array is not constant (a correlation needs variation)."""
    prefix = f"{where}: " if where else ""
    if np.ptp(x) == 0:
        raise ValueError(f"{prefix}'{name}' is constant; a correlation needs varying values")


def check_number(value: object, name: str, *, minimum: float | None = None, where: str = "") -> float:
    """Check a finite scalar number argument (optionally ``>= minimum``) and return it as float."""
    prefix = f"{where}: " if where else ""
    bound = "" if minimum is None else f" >= {minimum:g}"
    try:
        out = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        out = float("nan")
    if isinstance(value, bool) or not np.isfinite(out) or (minimum is not None and out < minimum):
        raise ValueError(f"{prefix}'{name}' must be a finite number{bound}, got {value!r}")
    return out


def check_contains(df: pd.DataFrame, column: str, value: object, *, where: str = "") -> None:
    """Check that ``column`` has at least one row equal to ``value`` and at least one other row."""
    prefix = f"{where}: " if where else ""
    is_value = df[column] == value
    if not is_value.any():
        raise ValueError(f"{prefix}column '{column}' has no rows equal to {value!r}")
    if is_value.all():
        raise ValueError(f"{prefix}column '{column}' has no value other than {value!r}")


def check_min_count(n: int, minimum: int, what: str, *, where: str = "") -> None:
    """Check that a derived count (e.g. of keys two data sets share) reaches ``minimum``."""
    prefix = f"{where}: " if where else ""
    if n < minimum:
        raise ValueError(f"{prefix}needs at least {minimum} {what}, got {n}")


def check_matrix(x: object, name: str, *, where: str = "", ncols: int | None = None) -> np.ndarray:
    """Convert samples to a float (n, d) array: a 1-D input becomes one column, a 2-D one has a row per sample.

    Raises
    ------
    ValueError
        If ``x`` is not numeric, empty, has missing/infinite values, more than two dimensions, or (with
        ``ncols``) a different number of columns. The message names ``name``.
    """
    prefix = f"{where}: " if where else ""
    arr = np.asarray(x.to_numpy() if isinstance(x, (pd.Series, pd.DataFrame)) else x)
    if is_bool_dtype(arr.dtype) or not is_numeric_dtype(arr.dtype):
        raise ValueError(f"{prefix}'{name}' must be numeric, got dtype {arr.dtype}")
    arr = arr.astype(float)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2:
        raise ValueError(f"{prefix}'{name}' must be 1-D or 2-D (one row per sample), got shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{prefix}'{name}' is empty")
    if ncols is not None and arr.shape[1] != ncols:
        raise ValueError(f"{prefix}'{name}' has {arr.shape[1]} column(s), expected {ncols}")
    n_bad = int((~np.isfinite(arr)).sum())
    if n_bad:
        raise ValueError(f"{prefix}'{name}' has {n_bad} missing or infinite value(s)")
    return arr


def check_choice(value: object, options: Iterable, name: str, *, where: str = "") -> None:
    """Check that ``value`` is one of ``options`` (listing them in the message when it is not)."""
    prefix = f"{where}: " if where else ""
    options = list(options)
    if value not in options:
        listed = ", ".join(repr(o) for o in options)
        raise ValueError(f"{prefix}unknown {name} {value!r}; known: {listed}")
