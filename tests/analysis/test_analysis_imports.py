"""The import graph flows server -> analysis only: analysis never imports Flask or the server."""

import ast
import subprocess
import sys
from pathlib import Path

import analysis

PACKAGE = Path(analysis.__file__).parent
FORBIDDEN = {"flask", "server", "werkzeug", "sqlalchemy", "flask_sqlalchemy", "flask_migrate"}


def test_no_forbidden_import_statements():
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] if node.level == 0 else []
            else:
                continue
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"


def test_importing_analysis_loads_no_flask_or_server():
    code = (
        "import sys, analysis; "
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}); print(bad); "
        "sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=PACKAGE.parent, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_public_api():
    expected = {
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
    }
    # The core statistics stay public; whatever else is listed must really be there.
    assert expected <= set(analysis.__all__)
    assert all(callable(getattr(analysis, n)) for n in analysis.__all__)
    assert len(set(analysis.__all__)) == len(analysis.__all__)


def test_the_namespace_loads_on_use_and_a_module_named_like_its_function_gives_the_function():
    """analysis/__init__.py imports nothing until a name is used (app workers import its light modules without
    pandas); analysis.mlae and analysis.published are modules and functions: importing the module (as the reports
    do) leaves the package's name the function."""
    code = (
        "import sys, analysis, analysis.safe_csv; assert 'pandas' not in sys.modules, 'pandas loaded'; "
        "import analysis.mlae, analysis.published; from analysis import mlae, published, one_sample_t; "
        "assert all(callable(f) for f in (mlae, published, one_sample_t, analysis.mlae)), (mlae, published)"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=PACKAGE.parent, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
