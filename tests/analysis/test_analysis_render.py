"""analysis.reports.render, the one way every report writes numbers and tables: the missing-value dash, the p-value
format at its boundaries, the number formatter, the text and Markdown tables, the JSON conversion -- and every study
report rendered through it (no "nan", no other dash, no other p format)."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from analysis.reports.render import (
    MISSING,
    Document,
    Items,
    Paragraph,
    Section,
    Table,
    cell,
    interval,
    is_missing,
    jsonable,
    markdown_table,
    num,
    p_value,
    page_format,
    records,
    render_markdown,
    render_text,
    table,
    text_table,
    with_interval,
)


@pytest.mark.parametrize("value", [None, np.nan, float("nan"), np.float32("nan"), pd.NA, pd.NaT])
def test_every_missing_value_is_the_one_dash(value):
    assert is_missing(value)
    assert num(value) == p_value(value) == cell(value) == MISSING == "–"
    assert p_value(value, prefix=True) == "p = –"


def test_numbers():
    assert num(0.5) == "0.50" and num(0.5, 3) == "0.500" and num(-1.25, 1) == "-1.2"  # round half to even
    assert num(3, 0) == "3" and num(np.int64(12), 0) == "12" and num(np.float32(0.25), 2) == "0.25"
    assert num(0.035, 4, sign=True) == "+0.0350" and num(-0.035, 4, sign=True) == "-0.0350"
    assert num(np.inf) == "∞" and num(np.inf, sign=True) == "+∞" and num(-np.inf, sign=True) == "−∞"
    assert not is_missing(np.inf) and not is_missing(0.0) and not is_missing("")


@pytest.mark.parametrize(
    "p, text",
    [
        (0.0, "< 0.001"),
        (1e-12, "< 0.001"),
        (0.000999, "< 0.001"),
        (0.00099999, "< 0.001"),  # rounds to 0.001, yet below
        (0.001, "0.001"),
        (0.00149, "0.001"),
        (0.0234, "0.023"),
        (0.04999, "0.050"),
        (0.5, "0.500"),
        (0.99951, "1.000"),
        (1.0, "1.000"),
        (np.float64(0.0228), "0.023"),
    ],
)
def test_p_value_boundaries(p, text):
    assert p_value(p) == text
    assert p_value(p, prefix=True) == ("p " + text if text.startswith("<") else "p = " + text)


def test_intervals():
    assert interval(0.4, 0.6) == "[0.40, 0.60]" and interval(-4.6, 154.6, 1) == "[-4.6, 154.6]"
    assert interval(np.nan, 0.6) == interval(0.4, None) == MISSING
    assert with_interval(0.5, 0.4, 0.6, 3) == "0.500 [0.400, 0.600]"
    assert with_interval(0.056, np.nan, np.nan, 3) == "0.056"  # a published value: no interval
    assert with_interval(np.nan, np.nan, np.nan) == MISSING
    assert interval(1.5, np.inf, 1) == "[1.5, ∞]"  # a one-sided interval


def test_cells():
    assert cell(4.0) == "4.000" and cell(2) == "2" and cell("human") == "human" and cell(np.nan) == MISSING
    assert cell(np.float64(0.6834), 2) == "0.68" and cell(True) == "True"


def test_text_table_aligns_columns_under_a_rule():
    lines = text_table(["model", "r", "note"], [["cnn", "0.91", "ok"], ["vgg19-iid", "–", ""]], "lrl")
    assert lines == [
        "  model         r  note",
        "  ---------  ----  ----",
        "  cnn        0.91  ok",
        "  vgg19-iid     –",
    ]  # trailing spaces stripped
    assert text_table(["a"], [[1]], "r", indent="")[2] == "1"


def test_markdown_table_escapes_pipes_and_stands_apart():
    lines = markdown_table(["statement", "n"], [["a | b", "4"], ["c\nd", MISSING]], "lr")
    assert lines == ["", "| statement | n |", "|:---|---:|", "| a \\| b | 4 |", "| c d | – |", ""]
    assert table(["x"], [["1"]], "r", markdown=True) == markdown_table(["x"], [["1"]], "r")
    assert table(["x"], [["1"]], "r") == text_table(["x"], [["1"]], "r")


@pytest.mark.parametrize(
    "header, rows, align, message",
    [
        (["a", "b"], [["1", "2"]], "l", "one 'l' or 'r' per column"),
        (["a", "b"], [["1", "2"]], "lc", "one 'l' or 'r' per column"),
        (["a", "b"], [["1", "2"], ["3"]], "lr", "row 2 has 1 cells, the header 2"),
    ],
)
def test_tables_refuse_a_wrong_shape(header, rows, align, message):
    for render in (text_table, markdown_table):
        with pytest.raises(ValueError, match=re.escape(message)):
            render(header, rows, align)


def test_json_values():
    data = {
        "n": np.int64(3),
        "r": np.float64(0.5),
        "t": np.inf,
        "p": np.nan,
        "ok": np.bool_(True),
        "na": pd.NA,
        "at": pd.NaT,
        "list": (np.int32(1), [np.float32(2.5), None]),
        "keep": "text",
        4: True,
    }
    assert jsonable(data) == {
        "n": 3,
        "r": 0.5,
        "t": None,
        "p": None,
        "ok": True,
        "na": None,
        "at": None,
        "list": [1, [2.5, None]],
        "keep": "text",
        4: True,
    }
    assert type(jsonable(np.int64(3))) is int and type(jsonable(np.bool_(False))) is bool
    df = pd.DataFrame({"a": [1, 2], "b": [0.5, np.nan], "c": pd.array([1, None], dtype="Int64")})
    assert records(df) == [{"a": 1, "b": 0.5, "c": 1}, {"a": 2, "b": None, "c": None}]
    json.dumps(records(df), allow_nan=False)


def test_the_page_formats_with_the_same_conventions():
    fmt = page_format()
    assert fmt == {"missing": MISSING, "p_floor": 0.001, "p_digits": 3, "p_below": p_value(0.0)}


# --------------------------------------------------------------------------------------------------
# Every report renders through this module


def _ratio():
    from analysis.reports.ratio_study import ratio_report

    rng = np.random.default_rng(4)
    rows = [
        {
            "participant_id": f"p{i}",
            "practice": False,
            "stimulus_id": f"s{k}",
            "chart_type": k % 5 + 1,
            "short_height": 10 + k % 3,
            "tall_height": 40,
            "true_percent": 25.0,
            "abs_error": abs(e),
            "log_error": float(np.log2(abs(e) + 0.125)),
        }
        for i in range(6)
        for k, e in enumerate(rng.normal(0, 4, 15))
    ]
    sessions = pd.DataFrame({"participant_id": [f"p{i}" for i in range(7)], "status": ["completed"] * 6 + ["started"]})
    return ratio_report(sessions, pd.DataFrame(rows), n_boot=50)


def _hive():
    from analysis.reports.hive_study import hive_report
    from tests.analysis.test_analysis_hive import DISTINCTION

    trials = pd.DataFrame(
        [
            {
                "participant_id": p,
                "practice": False,
                "model_correct": int(i < 5),
                "correct": int((i + p) % 3 > 0),
                "confidence": 2,
            }
            for p in range(4)
            for i in range(10)
        ]
    )
    return hive_report(
        pd.DataFrame({"participant_id": range(4), "status": "completed"}), trials, DISTINCTION, "gradcam", "CUB"
    )


def _ratings():
    from analysis.reports.ratings_study import ratings_report

    ratings = pd.DataFrame(
        {"participant_id": [1, 1, 2, 2, 3, 3], "statement_id": ["a", "b"] * 3, "rating": [7, 2, 6, 3, 5, 1]}
    )
    statements = pd.DataFrame(
        {"statement_id": ["a", "b", "c"], "text": ["A.", "B.", "C."], "relevant": [True, False, False]}
    )
    return ratings_report(
        ratings, statements, n_boot=50, meta={"slug": "demo", "title": "Demo", "exclusion_reasons": {"bot": 1}}
    )


def _sketch():
    from analysis.reports.sketch_study import sketch_report

    trials = pd.DataFrame(
        [
            {
                "participant_id": p,
                "sketch_id": f"s{k}",
                "concept": "AB"[k % 2],
                "abstraction_level": float(4 + 4 * (k // 2)),
                "producer": "human",
                "guess_1": "AB"[(k + p) % 2],
                "catch": False,
                "catch_failed": None,
            }
            for p in range(3)
            for k in range(4)
        ]
    )
    return sketch_report(trials, n_boot=20, n_splits=3)


STUDY_REPORTS = [_ratio, _hive, _ratings, _sketch]


def _hypoml_text():
    from analysis.reports.hypoml_study import hypoml_report, hypoml_text
    from tests.hypoml_examples import luminosity_sets

    return hypoml_text(hypoml_report(luminosity_sets()))


@pytest.mark.parametrize(
    "render",
    [*(lambda make=make: make().text() + make().markdown() for make in STUDY_REPORTS), _hypoml_text],
    ids=["ratio", "hive", "ratings", "sketch", "hypoml"],
)
def test_reports_print_missing_values_and_p_values_one_way(render):
    text = render()
    assert not re.search(r"\b(nan|NaN|None|<NA>|inf)\b", text), text
    assert not re.search(r"<0\.|p [<=] 0\.\d{4}", text), text  # no other p format ("<0.001", "p = 0.0228")
    assert "—" not in text.replace(" — ", "")  # an em dash only as a title's separator, never for a value
    for p in re.findall(r"\bp = (\d\.\d+)", text):
        assert len(p) == 5, p  # "p = 0.023": three decimals


# --------------------------------------------------------------------------------------------------
# One document, two layouts


def test_a_document_renders_as_text_and_as_markdown():
    doc = Document(
        "study — Title",
        ["12 people", "seed 0"],
        [
            Section(
                "Results",
                [
                    Paragraph("mean [95% CI]"),
                    Table(["who", "n"], [["people", "12"], ["a|b", "3"]], "lr"),
                    Table(["who"], [], "l", empty="(no models)"),
                ],
            ),
            Section("Notes", [Items(["one", "two"])]),
        ],
    )
    assert render_text(doc) == (
        "study — Title\n12 people\nseed 0\n\nResults\n-------\n  mean [95% CI]\n  who      n\n  ------  --\n"
        "  people  12\n  a|b      3\n  (no models)\n\nNotes\n-----\n  - one\n  - two\n"
    )
    assert render_markdown(doc) == (
        "# study — Title\n\n12 people\n\nseed 0\n\n## Results\n\nmean [95% CI]\n\n| who | n |\n|:---|---:|\n"
        "| people | 12 |\n| a\\|b | 3 |\n\n(no models)\n\n## Notes\n\n- one\n- two\n"
    )


def _says(doc: Document) -> list[str]:
    """Every heading, line, paragraph, item and table cell of a document."""
    out = [doc.title, *doc.lead]
    for section in doc.sections:
        out.append(section.heading)
        for block in section.blocks:
            if isinstance(block, Paragraph):
                out.append(block.text)
            elif isinstance(block, Items):
                out += block.items
            else:
                out += [*block.header, *(str(c) for row in block.rows for c in row)] if block.rows else [block.empty]
    return [s for s in out if s]


@pytest.mark.parametrize("make", STUDY_REPORTS, ids=["ratio", "hive", "ratings", "sketch"])
def test_text_and_markdown_of_every_report_say_the_same(make, tmp_path):
    report = make()
    text, markdown = report.text(), report.markdown()
    for said in _says(report.document()):
        assert said in text, said
        assert said in markdown or said.replace("|", "\\|") in markdown, said  # "|" escaped in a table cell
    headings = [s.heading for s in report.document().sections]
    assert len(headings) >= 3
    assert re.findall(r"^## (.+)$", markdown, re.M) == headings
    assert re.findall(r"^(\S.*)\n-+$", text, re.M) == headings
    # the same methods, and the same files, for every study family
    written = [p.name for p in report.write(tmp_path)]
    n = len(report.csv_tables)
    assert written[:n] == [f"{name}.csv" for name in report.csv_tables]
    assert written[n : n + 4] == ["report.txt", "report.md", "report.json", "methods.md"]
    assert (tmp_path / "report.txt").read_text(encoding="utf-8") == text
    assert (tmp_path / "report.md").read_text(encoding="utf-8") == markdown
    assert json.loads((tmp_path / "report.json").read_text(encoding="utf-8")) == json.loads(
        json.dumps(report.json(), allow_nan=False)
    )
    assert (tmp_path / "methods.md").read_text(encoding="utf-8") == report.methods()
    figures = written[n + 4 :]
    assert figures and all(name.endswith(".png") for name in figures)
    (tmp_path / "again").mkdir()
    assert [p.name for p in report.figures(tmp_path / "again")] == figures
