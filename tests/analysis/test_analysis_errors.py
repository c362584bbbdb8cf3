import math

import numpy as np
import pandas as pd
import pytest

from analysis import add_errors, log_error


def test_log_error_hand_values():
    assert log_error(30, 25) == pytest.approx(math.log2(5.125))  # 2.3575520...
    assert log_error(25, 25) == -3.0  # log2(1/8)
    assert log_error(20, 25) == pytest.approx(math.log2(5.125))  # symmetric in the sign of the error
    assert log_error(100, 0) == pytest.approx(math.log2(100.125))
    assert log_error(25.5, 25) == pytest.approx(math.log2(0.625))  # -0.678...


def test_log_error_is_vectorised_and_keeps_index():
    judged = pd.Series([30.0, 25.0, 17.0], index=[10, 11, 12])
    out = log_error(judged, pd.Series([25.0, 25.0, 25.0], index=[10, 11, 12]))
    assert isinstance(out, pd.Series)
    assert list(out.index) == [10, 11, 12]
    np.testing.assert_allclose(out.to_numpy(), np.log2([5.125, 0.125, 8.125]))
    arr = log_error(np.array([0.0, 50.0]), 50)
    assert isinstance(arr, np.ndarray)
    np.testing.assert_allclose(arr, [math.log2(50.125), -3.0])


def test_log_error_propagates_missing():
    assert np.isnan(log_error(np.nan, 3.0))


def test_log_error_refuses_text():
    with pytest.raises(ValueError, match="judged"):
        log_error(["30"], [25])
    with pytest.raises(ValueError, match="true"):
        log_error([30], ["25"])


def test_add_errors_adds_columns_on_a_copy():
    df = pd.DataFrame({"response_percent": [30.0, 40.0, np.nan], "true_percent": [25.0, 50.0, 10.0], "x": [1, 2, 3]})
    out = add_errors(df)
    assert list(df.columns) == ["response_percent", "true_percent", "x"]  # input untouched
    np.testing.assert_allclose(out["abs_error"].to_numpy()[:2], [5.0, 10.0])
    np.testing.assert_allclose(out["log_error"].to_numpy()[:2], [math.log2(5.125), math.log2(10.125)])
    assert out["abs_error"].isna().iloc[2] and out["log_error"].isna().iloc[2]
    assert list(out["x"]) == [1, 2, 3]


def test_add_errors_custom_columns():
    df = pd.DataFrame({"guess": [10], "truth": [12]})
    out = add_errors(df, judged="guess", true="truth")
    assert out["abs_error"].iloc[0] == 2.0
    assert out["log_error"].iloc[0] == pytest.approx(math.log2(2.125))
