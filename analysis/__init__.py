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
# Report builders and formatters (report.py, hypoml.py, …) are importable from here but stay out of __all__,
# which lists the documented statistics (numpydoc with Returns sections, checked by test_analysis_docs).

# Two4Two-style hypothesis ratings (analysis/ratings.py): % agreeing per statement, relevant vs irrelevant.
from .ratings import RatingsReport, agreement, rating_distribution, ratings_report, relevance_test  # noqa: E402,F401
from .hive import HiveReport, hive_json, hive_report  # noqa: E402  (HIVE, analysis/hive.py; not in __all__)
from .sketch import SketchReport, accuracy_by_level, human_model_alignment, semantic_neighbour_preference, sketch_report, split_half_reliability  # noqa: E402,F401
