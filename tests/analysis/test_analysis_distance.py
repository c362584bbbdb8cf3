import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analysis import distance_error_correlation, training_test_distance


def test_training_test_distance_hand_values():
    # test 0.25 -> nearest 0.375 (0.125); 0.5 -> 0.375 (0.125); 0.875 -> 1.0 (0.125)
    assert training_test_distance([0.25, 0.5, 0.875], [0.0, 0.375, 1.0]) == 0.125
    # outside the training range on both sides, and exact hits
    assert training_test_distance([-1.0, 0.0, 3.0], [0.0, 1.0]) == pytest.approx((1 + 0 + 2) / 3)
    # unsorted training values with duplicates
    assert training_test_distance([0.5], [0.9, 0.1, 0.9, 0.45]) == pytest.approx(0.05)


def test_training_test_distance_matches_brute_force_1d():
    rng = np.random.default_rng(0)
    test, train = rng.uniform(0, 1, 300), rng.uniform(0.2, 0.7, 47)
    brute = np.abs(test[:, None] - train[None, :]).min(axis=1).mean()
    assert training_test_distance(test, train) == pytest.approx(brute)


def test_training_test_distance_2d_height_pairs():
    assert training_test_distance(np.array([[0, 0], [3, 4]]), np.array([[0, 1], [0, 0]])) == pytest.approx(
        (0 + np.hypot(3, 3)) / 2
    )
    rng = np.random.default_rng(1)
    test, train = rng.uniform(5, 85, (100, 2)), rng.uniform(5, 40, (60, 2))
    brute = np.sqrt(((test[:, None, :] - train[None, :, :]) ** 2).sum(-1)).min(axis=1).mean()
    assert training_test_distance(test, train) == pytest.approx(brute)
    with pytest.raises(ValueError, match="'train_values' has 1 column"):
        training_test_distance(test, train[:, 0])


def test_training_test_distance_checks_inputs():
    with pytest.raises(ValueError, match="'train_values' is empty"):
        training_test_distance([0.5], [])
    with pytest.raises(ValueError, match="'test_values' has 1 missing"):
        training_test_distance([0.5, np.nan], [0.1])


def test_distance_error_correlation_matches_scipy():
    rng = np.random.default_rng(2)
    df = pd.DataFrame({"distance": rng.uniform(0, 0.2, 16)})
    df["mae"] = 0.01 + 0.5 * df.distance + rng.normal(0, 0.01, 16)
    row = distance_error_correlation(df).iloc[0]
    ref = stats.pearsonr(df.distance, df.mae)
    assert row["r"] == pytest.approx(ref.statistic) and row["p_val"] == pytest.approx(ref.pvalue)
    assert row["n"] == 16 and row["r"] > 0.5
