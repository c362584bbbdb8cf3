"""studyhive analysis: tidy-DataFrame statistics for graphical-perception studies of people and models.

Every function takes a tidy DataFrame (one row per response) and column names, and returns a DataFrame with
stable snake_case columns. Input problems raise ``ValueError`` naming the column. This package never
imports Flask or the server; the server imports it.

The statistics are modules of this package; the study reports built on them (ratio / Cleveland–McGill, HIVE,
sketch recognition, Two4Two ratings, HypoML) and their one shared rendering module are in :mod:`analysis.reports`.
"""

from __future__ import annotations

import importlib
import sys
import types

# Where each name of the package's namespace lives. They load when first used (PEP 562), not with the package: the
# server imports light modules of this package (safe_csv, jspsych_data, judgement_errors) in every app worker, and
# importing them must not load pandas, SciPy and pingouin (docs/operations.md, "What a serving worker loads").
_EXPORTS = {
    "consistency": ("inter_consistency", "intra_consistency"),
    "distance": ("distance_error_correlation", "nearest_distances", "training_test_distance"),
    "inference": ("anova_by", "observer_effect", "one_sample_t", "pearson", "tukey", "two_sample_t"),
    "judgement_errors": ("add_errors", "log_error"),
    "mlae": ("mae", "midmean", "mlae"),
    "outliers": ("iqr_outliers", "response_outliers"),
    "published": ("published", "published_mlae"),
    # Study reports and the statistics only they use: importable from here, but outside __all__, which lists the
    # documented statistics (numpydoc with Returns sections, checked by test_analysis_docs).
    "hypoml_inference": ("hypoml_accuracy", "hypoml_infer", "hypoml_items", "hypoml_tests", "hypoml_trace"),
    "ratings": ("agreement", "rating_distribution", "relevance_test"),
    "reports.hive_study": ("HiveReport", "hive_report"),
    "reports.hypoml_study": (
        "HypoMLResult",
        "hypoml_html",
        "hypoml_json",
        "hypoml_report",
        "hypoml_text",
        "write_hypoml",
    ),
    "reports.ratings_study": ("RatingsReport", "ratings_report"),
    "reports.ratio_study": ("RatioReport", "ratio_report"),
    "reports.sketch_study": ("SketchReport", "sketch_report"),
    "sketch_statistics": (
        "accuracy_by_level",
        "human_model_alignment",
        "semantic_neighbour_preference",
        "split_half_reliability",
    ),
}
_HOME = {name: module for module, names in _EXPORTS.items() for name in names}

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


def __getattr__(name: str):
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    setattr(sys.modules[__name__], name, value)
    return value


def __dir__():
    return sorted(set(globals()) | set(_HOME))


class _Namespace(types.ModuleType):
    """Two names are both a module and its function (analysis.mlae, analysis.published): importing the module binds
    it as the package's attribute, which would hide the function `from analysis import mlae` means (as it did when
    this file imported everything eagerly). The function wins."""

    def __setattr__(self, name, value):
        if isinstance(value, types.ModuleType) and _HOME.get(name) == name:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Namespace
