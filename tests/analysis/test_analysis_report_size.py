"""The report builders stay readable: every function in analysis/reports/ is at most :data:`LONGEST` lines, docstring
included (issue #40 point 4: a report is a sequence of small named sections that read like the report they print,
not one function of two hundred lines). Read from the source with ast, nothing imported."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REPORTS = ROOT / "analysis" / "reports"
LONGEST = 60


def function_lengths(source: str) -> dict[str, int]:
    """``"name:line"`` → lines from ``def`` (or its first decorator's line) to the last line, for every function and
    method, nested ones too."""
    return {
        f"{node.name}:{node.lineno}": node.end_lineno - min([node.lineno, *(d.lineno for d in node.decorator_list)]) + 1
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    }


def test_lengths_count_every_line_of_a_function_and_its_nested_ones():
    source = "def outer():\n    '''Doc.'''\n\n    def inner():\n        return 1\n\n    return inner\n"
    assert function_lengths(source) == {"outer:1": 7, "inner:4": 2}


def test_no_report_function_is_longer_than_the_limit():
    too_long = {
        f"{path.relative_to(ROOT).as_posix()}:{name}": lines
        for path in sorted(REPORTS.rglob("*.py"))
        for name, lines in function_lengths(path.read_text(encoding="utf-8")).items()
        if lines > LONGEST
    }
    assert not too_long, f"split these into named sections (at most {LONGEST} lines each): {too_long}"
