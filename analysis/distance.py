"""Training-test distance of a model's training sample, and its relation to error (Study III, sec. 7.1)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.spatial import cKDTree

from ._checks import check_frame, check_matrix
from .inference import pearson

__all__ = ["training_test_distance", "nearest_distances", "distance_error_correlation"]


def training_test_distance(test_values, train_values) -> float:
    """Mean distance from each test sample to its nearest training sample.

    .. math:: D = \\frac{1}{|T|} \\sum_{t \\in T} \\min_{s \\in S} \\lVert t - s \\rVert

    the seed paper's "average distance from each test sample to its closest training sample". For 1-D
    values (ratios or ratio-bin midpoints) the nearest neighbour is found by binary search in the sorted
    training values (``numpy.searchsorted``); for 2-D values (e.g. (short, tall) height pairs, one row per
    sample) by a k-d tree, with Euclidean distance.

    Parameters
    ----------
    test_values : array-like, shape (n,) or (n, d)
    train_values : array-like, shape (m,) or (m, d)
        Same dimensionality as ``test_values``. Duplicates are fine.

    Returns
    -------
    float

    Examples
    --------
    >>> training_test_distance([0.25, 0.5, 0.875], [0.0, 0.375, 1.0])  # (0.125 + 0.125 + 0.125) / 3
    0.125
    """
    return float(np.mean(nearest_distances(test_values, train_values, where="training_test_distance")))


def nearest_distances(test_values, train_values, where: str = "nearest_distances") -> np.ndarray:
    """Each test sample's distance to its nearest training sample, :math:`\\min_{s \\in S} \\lVert t - s \\rVert`:
    the terms :func:`training_test_distance` averages, for error against distance per test stimulus.

    Parameters
    ----------
    test_values : array-like, shape (n,) or (n, d)
    train_values : array-like, shape (m,) or (m, d)
        Same dimensionality as ``test_values``.
    where : str
        The caller's name, for the input checks' messages.

    Returns
    -------
    numpy.ndarray, shape (n,)
        The distance of each test sample, in its input order.

    Examples
    --------
    >>> nearest_distances([0.25, 0.5], [0.0, 0.375, 1.0]).tolist()
    [0.125, 0.125]
    """
    test = check_matrix(test_values, "test_values", where=where)
    train = check_matrix(train_values, "train_values", where=where, ncols=test.shape[1])
    if test.shape[1] == 1:
        s = np.sort(train[:, 0])
        t = test[:, 0]
        i = np.searchsorted(s, t)
        left = s[np.clip(i - 1, 0, s.size - 1)]
        right = s[np.clip(i, 0, s.size - 1)]
        nearest = np.minimum(np.abs(t - left), np.abs(t - right))
    else:
        nearest, _ = cKDTree(train).query(test, k=1)
    return np.asarray(nearest, dtype=float)


def distance_error_correlation(
    df: pd.DataFrame,
    distance: str = "distance",
    error: str = "mae",
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Pearson correlation between models' training-test distance and their error.

    One row of ``df`` per model (or sampling condition), with its :func:`training_test_distance` and its
    error (e.g. MAE). The seed paper reports a strong positive *r*: models err more the farther the test
    samples are from their training samples.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per model or condition.
    distance : str, default "distance"
        Numeric column with the training-test distance.
    error : str, default "mae"
        Numeric column with the error.
    confidence : float, default 0.95

    Returns
    -------
    pandas.DataFrame
        One row: ``r``, ``ci_low``, ``ci_high``, ``p_val``, ``n`` (see :func:`analysis.pearson`).
    """
    check_frame(df, numeric=[distance, error], where="distance_error_correlation")
    return pearson(df[distance], df[error], confidence=confidence)
