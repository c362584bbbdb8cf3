"""Every public function refuses bad input with a ValueError that names the column."""

import numpy as np
import pandas as pd
import pytest

import analysis as A


def _responses():
    return pd.DataFrame(
        {
            "participant_id": ["p1", "p1", "p2", "p2", "p3", "p3"],
            "stimulus_id": ["s1", "s2", "s3"] * 2,
            "chart_type": [1, 2] * 3,
            "run": [1, 1, 1, 2, 2, 2],
            "observer": ["human", "human", "cnn", "cnn", "human", "cnn"],
            "response_percent": [30.0, 40, 50, 60, 70, 80],
            "true_percent": [25.0, 45, 50, 65, 60, 85],
            "abs_error": [5.0, 5, 0, 5, 10, 5],
            "log_error": [2.3, 2.3, -3, 2.3, 3.3, 2.3],
            "distance": [0.1, 0.2, 0.3, 0.4, 0.5, 0.7],
            "mae": [0.01, 0.03, 0.02, 0.05, 0.04, 0.06],
        }
    )


# (name, call(df), numeric column used, key column used or None)
CASES = [
    ("add_errors", lambda d: A.add_errors(d), "response_percent", None),
    ("mlae", lambda d: A.mlae(d, n_boot=10), "log_error", "participant_id"),
    ("mae", lambda d: A.mae(d, n_boot=10), "abs_error", "participant_id"),
    ("iqr_outliers", lambda d: A.iqr_outliers(d), "abs_error", "participant_id"),
    ("response_outliers", lambda d: A.response_outliers(d), "abs_error", None),
    ("anova_by", lambda d: A.anova_by(d, "log_error", "chart_type"), "log_error", "chart_type"),
    ("tukey", lambda d: A.tukey(d, "log_error", "chart_type"), "log_error", "chart_type"),
    ("observer_effect", lambda d: A.observer_effect(d), "log_error", "observer"),
    ("intra_consistency", lambda d: A.intra_consistency(d), "abs_error", "run"),
    ("inter_consistency", lambda d: A.inter_consistency(d, d), "abs_error", "stimulus_id"),
    ("distance_error_correlation", lambda d: A.distance_error_correlation(d), "mae", None),
]
IDS = [c[0] for c in CASES]


@pytest.mark.parametrize("name, call, numeric, key", CASES, ids=IDS)
def test_missing_column_is_named(name, call, numeric, key):
    for col in filter(None, (numeric, key)):
        with pytest.raises(ValueError, match=f"column '{col}' is missing"):
            call(_responses().drop(columns=col))


@pytest.mark.parametrize("name, call, numeric, key", CASES, ids=IDS)
def test_non_numeric_column_is_named(name, call, numeric, key):
    df = _responses()
    df[numeric] = df[numeric].astype(str)
    with pytest.raises(ValueError, match=f"column '{numeric}' must be numeric"):
        call(df)
    df = _responses()
    df[numeric] = df[numeric] > 0  # booleans are not measurements
    with pytest.raises(ValueError, match=f"column '{numeric}' must be numeric"):
        call(df)


@pytest.mark.parametrize("name, call, numeric, key", CASES, ids=IDS)
def test_empty_data_are_refused(name, call, numeric, key):
    with pytest.raises(ValueError, match="empty"):
        call(_responses().iloc[0:0])


@pytest.mark.parametrize(
    "name, call, numeric, key", [c for c in CASES if c[0] != "add_errors"], ids=[i for i in IDS if i != "add_errors"]
)
def test_missing_values_are_named(name, call, numeric, key):
    df = _responses()
    df.loc[2, numeric] = np.nan
    with pytest.raises(ValueError, match=f"column '{numeric}' has 1 missing"):
        call(df)
    if key is not None:
        df = _responses()
        df[key] = df[key].astype(object)
        df.loc[3, key] = None
        with pytest.raises(ValueError, match=f"column '{key}' has 1 missing"):
            call(df)


def test_all_cases_run_on_valid_data():
    # guards the table above: each call works on the intact frame, so the failures are the column's fault
    for name, call, _, _ in CASES:
        out = call(_responses())
        assert isinstance(out, pd.DataFrame) and len(out) > 0, name


def test_not_a_dataframe():
    with pytest.raises(ValueError, match="expected a pandas DataFrame"):
        A.mlae([1, 2, 3])


def test_vector_inputs_are_checked():
    with pytest.raises(ValueError, match="'x' must be numeric"):
        A.one_sample_t(["a", "b"], 0)
    with pytest.raises(ValueError, match="'x' needs at least 2"):
        A.one_sample_t([1.0], 0)
    with pytest.raises(ValueError, match="'y' has 1 missing"):
        A.two_sample_t([1.0, 2.0], [1.0, np.nan])
    with pytest.raises(ValueError, match="'x' needs at least 1"):
        A.midmean([])
    with pytest.raises(ValueError, match="'x' must be numeric"):
        A.midmean([True, False])


def test_bootstrap_arguments_are_checked():
    df = _responses()
    with pytest.raises(ValueError, match="'n_boot'"):
        A.mlae(df, n_boot=0)
    with pytest.raises(ValueError, match="'ci'"):
        A.mlae(df, ci=0.95 * 200)
    with pytest.raises(ValueError, match="'n_boot'"):
        A.mae(df, n_boot=2.5)


def test_anova_needs_two_levels():
    df = _responses().assign(chart_type=1)
    with pytest.raises(ValueError, match="column 'chart_type' needs at least 2 distinct values"):
        A.anova_by(df, "log_error", "chart_type")
