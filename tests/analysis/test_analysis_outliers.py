import numpy as np
import pandas as pd
import pytest

from analysis import iqr_outliers, response_outliers


def _per_participant(means):
    """One response per participant with the given error, ids u0, u1, ..."""
    return pd.DataFrame({"participant_id": [f"u{i}" for i in range(len(means))], "abs_error": means})


def test_iqr_outliers_hand_values():
    # participant means 1..8 and 100 (9 values). numpy's linear quartiles: Q1 = 3, Q3 = 7, IQR = 4,
    # fence = 7 + 3 * 4 = 19 -> only the 100 is out.
    df = _per_participant([1, 2, 3, 4, 5, 6, 7, 8, 100])
    out = iqr_outliers(df)
    assert list(out.columns) == [
        "participant_id",
        "mean_abs_error",
        "excluded",
        "reason",
        "fence",
        "degenerate",
        "degenerate_reason",
    ]
    assert (out["fence"] == 19).all() and not out["degenerate"].any()
    assert list(out.loc[out.excluded, "participant_id"]) == ["u8"]
    assert out.loc[out.excluded, "reason"].iloc[0] == "mean absolute error 100 > Q3 + 3×IQR = 19"
    assert (out.loc[~out.excluded, "reason"] == "").all()
    # k = 0.25: fence = 7 + 1 = 8 -> 8 itself is not above the fence (strict), 100 is
    assert list(iqr_outliers(df, k=0.25).query("excluded").participant_id) == ["u8"]
    # k = 0.2: fence = 7.8 -> 8 is out as well
    assert list(iqr_outliers(df, k=0.2).query("excluded").participant_id) == ["u7", "u8"]


def test_iqr_outliers_averages_per_participant_and_formats_reason():
    df = pd.DataFrame(
        {
            "participant_id": ["a", "a", "b", "b", "c", "c", "d", "d", "e", "e"],
            "abs_error": [1.0, 3.0, 2.0, 2.0, 3.0, 1.0, 2.5, 1.5, 40.0, 6.2],
        }
    )
    out = iqr_outliers(df).set_index("participant_id")
    # means: a 2, b 2, c 2, d 2, e 23.1 -> Q1 = Q3 = 2, IQR = 0: the fence would be Q3 itself, so anybody a hair
    # above the others (5.1 against four 5.0s) would go; the rule is not applied and says why
    assert out.loc["e", "mean_abs_error"] == pytest.approx(23.1)
    assert not out["excluded"].any() and out["degenerate"].all() and out["fence"].isna().all()
    assert out["degenerate_reason"].iloc[0] == (
        "the IQR of the 5 per-participant_id mean absolute errors is 0 "
        "(Q1 = Q3 = 2), so the Q3 + 3×IQR fence cannot separate anyone (it would flag anybody a hair above Q3); "
        "the rule was not applied and nobody was excluded by it"
    )
    near = iqr_outliers(_per_participant([5.0, 5.0, 5.0, 5.0, 5.1]))
    assert not near["excluded"].any() and near["degenerate"].all()


def test_iqr_outliers_upper_fence_only():
    # a participant with (almost) no error is far below Q1 - 3 IQR but is kept
    df = _per_participant([0.0, 10, 11, 12, 13, 14, 15, 16])
    out = iqr_outliers(df)
    assert not out["excluded"].any()


def test_iqr_outliers_other_value_column_names_the_mean():
    df = _per_participant([1.0, 2, 3, 4, 5, 6, 7, 8, 100]).rename(columns={"abs_error": "log_error"})
    out = iqr_outliers(df, value="log_error")
    assert "mean_log_error" in out.columns
    assert out.query("excluded").reason.iloc[0].startswith("mean log_error 100 >")


def test_planted_random_responders_are_exactly_the_excluded(make_cohort):
    # 3 of 60 participants answer uniformly at random (mean abs error ~ 25-30 percentage points)
    df = make_cohort(np.random.default_rng(7), n_participants=60, design="study3", n_random=3)
    out = iqr_outliers(df)
    assert sorted(out.loc[out.excluded, "participant_id"]) == ["p00", "p01", "p02"]
    # and the rule is not vacuous: honest participants' means really are spread out
    kept = out.loc[~out.excluded, "mean_abs_error"]
    assert kept.max() > 2 * kept.min()


def test_response_outliers_hand_values():
    df = pd.DataFrame({"abs_error": [5.0, 40.0, 40.5, 80.0]}, index=[10, 11, 12, 13])
    out = response_outliers(df)
    assert list(out.columns) == ["excluded", "reason"]
    assert list(out.index) == [10, 11, 12, 13]
    assert out["excluded"].tolist() == [False, False, True, True]  # exactly 40 is kept
    assert out["reason"].tolist() == ["", "", "absolute error 40.5 > 40", "absolute error 80 > 40"]
    assert response_outliers(df, threshold=4).excluded.all()


def test_outlier_arguments_are_checked():
    df = _per_participant([1.0, 2.0])
    with pytest.raises(ValueError, match="'k'"):
        iqr_outliers(df, k=-1)
    with pytest.raises(ValueError, match="'threshold'"):
        response_outliers(df, threshold="forty")
