"""studyhive analysis: tidy-DataFrame statistics for graphical-perception studies of people and models.

Every function takes a tidy DataFrame (one row per response) and column names, and returns a DataFrame with
stable snake_case columns. Input problems raise ``ValueError`` naming the column. This package never
imports Flask or the server; the server imports it.

The statistics are modules of this package; the study reports built on them (ratio / Cleveland–McGill, HIVE,
sketch recognition, Two4Two ratings, HypoML) and their one shared rendering module are in :mod:`analysis.reports`.
"""

from .consistency import inter_consistency, intra_consistency
from .distance import distance_error_correlation, nearest_distances, training_test_distance
from .inference import anova_by, observer_effect, one_sample_t, pearson, tukey, two_sample_t
from .judgement_errors import add_errors, log_error
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
    "nearest_distances",
    "tukey",
    "two_sample_t",
]

# Study reports and the statistics only they use are importable from here but stay out of __all__, which lists the
# documented statistics (numpydoc with Returns sections, checked by test_analysis_docs).
# Imported after __all__, for the package's namespace only (pyproject.toml exempts this file from E402/F401).
from .hypoml_inference import hypoml_accuracy, hypoml_infer, hypoml_items, hypoml_tests, hypoml_trace
from .ratings import agreement, rating_distribution, relevance_test
from .reports.hive_study import HiveReport, hive_report
from .reports.hypoml_study import HypoMLResult, hypoml_html, hypoml_json, hypoml_report, hypoml_text, write_hypoml
from .reports.ratings_study import RatingsReport, ratings_report
from .reports.ratio_study import RatioReport, ratio_report
from .reports.sketch_study import SketchReport, sketch_report
from .sketch_statistics import (
    accuracy_by_level,
    human_model_alignment,
    semantic_neighbour_preference,
    split_half_reliability,
)
