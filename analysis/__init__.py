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
from .report import RatioReport, format_markdown, format_text, ratio_report, report_json

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

# HypoML (analysis/hypoml.py): hypothesis inference from four paired result sets.
from .hypoml import (HypoMLResult, hypoml_accuracy, hypoml_html, hypoml_infer, hypoml_items,  # noqa: E402
                     hypoml_json, hypoml_report, hypoml_tests, hypoml_text, hypoml_trace, write_hypoml)

__all__ += ["RatioReport", "format_markdown", "format_text", "ratio_report", "report_json", "HypoMLResult",
            "hypoml_accuracy", "hypoml_html", "hypoml_infer", "hypoml_items", "hypoml_json", "hypoml_report",
            "hypoml_tests", "hypoml_text", "hypoml_trace", "write_hypoml"]
