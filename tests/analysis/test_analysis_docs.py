import doctest
import importlib

import pytest

import analysis

MODULES = [
    "judgement_errors",
    "mlae",
    "outliers",
    "inference",
    "consistency",
    "distance",
    "published",
    "jspsych_data",
    "jspsych_statistics",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(f"analysis.{name}")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


@pytest.mark.parametrize("name", analysis.__all__)
def test_public_functions_document_their_output(name):
    doc = getattr(analysis, name).__doc__ or ""
    assert "Returns" in doc, name
    if name != "published_mlae":  # the only function without arguments
        assert "Parameters" in doc, name
