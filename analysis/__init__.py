"""studyhive analysis: tidy-DataFrame statistics for graphical-perception studies of people and models.

Every function takes a tidy DataFrame (one row per response) and column names, and returns a DataFrame with
stable snake_case columns. Input problems raise ``ValueError`` naming the column. This package never
imports Flask or the server; the server imports it.
"""

from .consistency import inter_consistency, intra_consistency
from .distance import distance_error_correlation, training_test_distance
from .errors import add_errors, log_error
from .inference import anova_by, observer_effect, one_sample_t, pearson, tukey, two_sample_t
from .mlae import mae, midmean, mlae
from .outliers import iqr_outliers, response_outliers
from .published import published, published_mlae

__all__ = [
    "add_errors",
    "anova_by",
    "distance_error_correlation",
    "inter_consistency",
    "intra_consistency",
    "iqr_outliers",
    "log_error",
    "mae",
    "midmean",
    "mlae",
    "observer_effect",
    "one_sample_t",
    "pearson",
    "published",
    "published_mlae",
    "response_outliers",
    "training_test_distance",
    "tukey",
    "two_sample_t",
]
