"""The HypoML analysis of four paired result sets (Wang et al., IEEE TVCG 2021) and its renderings: plain text, JSON,
CSV and the self-contained HTML page with HypoML's matrix view. The statistics and the logical rules are in
:mod:`analysis.hypoml_inference`."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from scipy import stats

from ..hypoml_inference import (
    HYPOTHESES,
    RESULT_SETS,
    RULES,
    STAGES,
    as_named,
    check_threshold,
    hypoml_accuracy,
    hypoml_infer,
    hypoml_items,
    hypoml_tests,
    hypoml_trace,
    missing_sets,
    result_label,
)
from ..safe_csv import write_frame
from .render import interval, jsonable, num, p_value, page_format, records, text_table

__all__ = ["HypoMLResult", "hypoml_html", "hypoml_json", "hypoml_report", "hypoml_text", "write_hypoml"]


@dataclass
class HypoMLResult:
    """Every number of a HypoML analysis (see :func:`hypoml_report`)."""

    threshold: float
    items: pd.DataFrame
    accuracy: pd.DataFrame
    tests: pd.DataFrame
    conclusions: pd.DataFrame
    trace: pd.DataFrame
    meta: dict[str, Any] = field(default_factory=dict)


def hypoml_report(
    results: Mapping[str, pd.DataFrame] | Sequence[pd.DataFrame],
    threshold: float = 0.05,
    *,
    ci: float = 95,
    sources: Mapping[str, str] | Sequence[str] | None = None,
    lines: bool = False,
    **columns: str,
) -> HypoMLResult:
    """Run HypoML: check and pair the four result sets, test A1…A6, apply the rules to H1…H12.

    Parameters
    ----------
    results : mapping or sequence of pandas.DataFrame
        The four result sets (see :func:`hypoml_items`).
    threshold : float, default 0.05
        Significance threshold on the p-values.
    ci : float, default 95
        Confidence level (percent) of the accuracies' and mean differences' intervals.
    sources, lines, **columns
        Passed to :func:`hypoml_items` (file names for messages; column names).

    Returns
    -------
    HypoMLResult
        ``threshold``, ``items`` (:func:`hypoml_items`), ``accuracy`` (:func:`hypoml_accuracy`), ``tests``
        (:func:`hypoml_tests`), ``conclusions`` (:func:`hypoml_infer`), ``trace`` (:func:`hypoml_trace`) and
        ``meta`` (``n_items``, ``missing`` (result sets without rows: conditions not run), ``score``, ``sources``,
        ``ci``).
    """
    thr = check_threshold(threshold, "hypoml")
    items = hypoml_items(results, sources=sources, lines=lines, **columns)
    tests = hypoml_tests(items, thr, ci)
    weighted = bool(items["uncertainty"].notna().any())
    names = (
        {k: result_label(k) for k in RESULT_SETS}
        if sources is None
        else {k: str(v) for k, v in as_named(sources, "sources").items()}
    )
    meta = {
        "n_items": int(items["result_set"].value_counts().max()),
        "missing": missing_sets(items),
        "score": "correctness × uncertainty" if weighted else "correctness",
        "sources": {result_label(k): names[k] for k in RESULT_SETS},
        "ci": float(ci),
    }
    return HypoMLResult(
        threshold=thr,
        items=items,
        accuracy=hypoml_accuracy(items, ci),
        tests=tests,
        conclusions=hypoml_infer(tests),
        trace=hypoml_trace(tests),
        meta=meta,
    )


def hypoml_json(result: HypoMLResult) -> dict[str, Any]:
    """The analysis as JSON-able data.

    Parameters
    ----------
    result : HypoMLResult
        Output of :func:`hypoml_report`.

    Returns
    -------
    dict
        ``threshold``, ``meta``, ``conclusions``, ``comparisons`` (the six tests), ``accuracies`` and ``trace``,
        each table a list of records; non-finite numbers (t = ±∞ when every item differs by the same amount)
        become ``null``.
    """
    return {
        "threshold": result.threshold,
        "meta": jsonable(result.meta),
        "conclusions": records(result.conclusions),
        "comparisons": records(result.tests),
        "accuracies": records(result.accuracy),
        "trace": records(result.trace),
    }


_OUTCOME = {"higher": "higher (≫)", "lower": "lower (≪)", "none": "no difference (≈)"}


def hypoml_text(result: HypoMLResult) -> str:
    """A plain-text report: conclusions first, then the six comparisons, the four accuracies and the reasoning.

    Parameters
    ----------
    result : HypoMLResult
        Output of :func:`hypoml_report`.

    Returns
    -------
    str
        The report, ending in a newline.
    """
    m = result.meta
    out = [f"HypoML: {m['n_items']} paired items, score = {m['score']}, threshold p < {result.threshold:g}"]
    if m.get("missing"):
        out.append(
            f"Not run (no rows): {', '.join(m['missing'])}; the analyses that use it are not tested and move no "
            "hypothesis"
        )
    out += _conclusions(result)
    out += _comparisons(result)
    out += _accuracies(result)
    out += _reasoning(result)
    return "\n".join(out) + "\n"


def _conclusions(result: HypoMLResult) -> list[str]:
    out = ["", "Conclusions (indicator sum: > 0 confirmed, 0 unproven, < 0 rejected)"]
    out += text_table(
        ["", "", "conclusion", "indicator", "hypothesis", "moved by"],
        [
            [r.hypothesis, r.symbol, r.conclusion, f"{r.indicator:+d}" if r.indicator else "0", r.statement, r.moved_by]
            for r in result.conclusions.itertuples(index=False)
        ],
        "lllrll",
    )
    cautions = result.trace[result.trace["caution"] != ""].drop_duplicates("analysis")
    return out + [
        f"  ! {r.analysis} ({r.direction}, {r.condition}): {r.caution}" for r in cautions.itertuples(index=False)
    ]


def _comparisons(result: HypoMLResult) -> list[str]:
    out = ["", "Comparisons (paired two-tailed t-tests; evaluated A1, A4, A6 → A2, A5 → A3)"]
    out += text_table(
        ["", "comparison", "mean a", "mean b", "difference", "t", "dof", "p", "outcome"],
        [
            [
                r.analysis,
                r.comparison,
                num(r.mean_a, 4),
                num(r.mean_b, 4),
                num(r.mean_diff, 4, sign=True),
                num(r.t, 2, sign=True),
                num(r.dof, 0),
                p_value(r.p_val),
                _OUTCOME[r.direction],
            ]
            for r in result.tests.itertuples(index=False)
        ],
        "llrrrrrrl",
    )
    return out + [f"  {r.analysis}: {r.note}" for r in result.tests.itertuples(index=False) if r.note]


def _accuracies(result: HypoMLResult) -> list[str]:
    m = result.meta
    rows = [
        [
            r.label,
            num(r.accuracy, 4),
            interval(r.ci_low, r.ci_high, 4),
            str(r.n),
            r.ci_method,
            m["sources"].get(r.label, r.label),
        ]
        for r in result.accuracy.itertuples(index=False)
    ]
    named = any(row[-1] != row[0] for row in rows)  # files named (the CLI), not just R(M,D) …
    out = ["", "Accuracies (mean score)"]
    out += text_table(
        ["", "accuracy", f"{m.get('ci', 95):g} % CI", "n", "interval", *(["file"] if named else [])],
        [row if named else row[:-1] for row in rows],
        "lrrrl" + ("l" if named else ""),
    )
    return out + [f"  {r.label}: {r.note}" for r in result.accuracy.itertuples(index=False) if r.note]


def _reasoning(result: HypoMLResult) -> list[str]:
    out = ["", "Reasoning (which analysis moved which hypothesis)"]
    for (step, analysis), g in result.trace.groupby(["step", "analysis"], sort=False):
        first = g.iloc[0]
        cond = f", {first['condition']}" if first["condition"] else ""
        rule = f" [{first['rule']}]" if first["rule"] else ""
        effects = ", ".join(f"{h} {'+1' if e > 0 else '−1'}" for h, e in zip(g["hypothesis"], g["effect"]) if e)
        out.append(f"  step {step}  {analysis} {first['direction']}{cond}{rule} → {effects or 'nothing'}")
    return out


# --------------------------------------------------------------------------------------------------
# HTML

TEMPLATE = Path(__file__).parent / "templates" / "hypoml.html"


def _norm_isf_half(p: float) -> float:
    """z with two-tailed area p beyond ±z (for the p-value glyph); capped at 4."""
    if p is None or not math.isfinite(p):
        return 0.0
    return float(min(4.0, stats.norm.isf(max(p, 1e-12) / 2))) if p < 1 else 0.0


def page_data(result: HypoMLResult) -> dict[str, Any]:
    """Everything the HTML page needs, including :data:`RULES` itself (the page evaluates the same table)."""
    tests = result.tests
    return jsonable(
        {
            "threshold": result.threshold,
            "meta": result.meta,
            "result_sets": [{"key": k, "label": result_label(k)} for k in RESULT_SETS],
            "hypotheses": [{"id": h, "statement": s} for h, s in HYPOTHESES.items()],
            "stages": [list(s) for s in STAGES],
            "rules": RULES,
            "analyses": [
                {
                    "id": r.analysis,
                    "a": r.a,
                    "b": r.b,
                    "comparison": r.comparison,
                    "step": r.step,
                    "mean_a": r.mean_a,
                    "mean_b": r.mean_b,
                    "mean_diff": r.mean_diff,
                    "t": r.t,
                    "dof": r.dof,
                    "p_val": r.p_val,
                    "ci_low": r.ci_low,
                    "ci_high": r.ci_high,
                    "glyph_z": _norm_isf_half(r.p_val),
                }
                for r in tests.itertuples(index=False)
            ],
            "accuracies": records(result.accuracy),
            "format": page_format(),
        }
    )


def _script_json(data: Any) -> str:
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def hypoml_html(result: HypoMLResult, title: str = "HypoML") -> str:
    """A self-contained HTML page (inline CSS, JavaScript and SVG; no network) with HypoML's matrix view.

    The page shows the hypotheses × analyses matrix (icons for support / reject / unproven / condition), the six
    p-values with their glyphs and the four accuracies with their intervals, and lets the reader change the
    threshold: the conclusions are re-derived in the page from the embedded p-values and mean differences and the
    embedded :data:`RULES` table.

    Parameters
    ----------
    result : HypoMLResult
        Output of :func:`hypoml_report`.
    title : str, default "HypoML"
        Page title.

    Returns
    -------
    str
        The HTML document.
    """
    page = TEMPLATE.read_text(encoding="utf-8")
    replacements = {
        "__HYPOML_TITLE__": _escape(title),
        "__HYPOML_DATA__": _script_json(page_data(result)),
        "__HYPOML_TEXT__": _escape(hypoml_text(result)),
    }
    for token, value in replacements.items():
        if token not in page:  # pragma: no cover - template and code ship together
            raise RuntimeError(f"{TEMPLATE} lacks {token}")
        page = page.replace(token, value)
    return page


OUTPUT_FILES = ("hypoml.html", "hypoml.json", "conclusions.csv", "comparisons.csv", "accuracies.csv", "trace.csv")


def write_hypoml(result: HypoMLResult, out_dir: str | Path, title: str = "HypoML") -> list[Path]:
    """Write the page and the numbers: ``hypoml.html``, ``hypoml.json`` and four CSV tables.

    Parameters
    ----------
    result : HypoMLResult
        Output of :func:`hypoml_report`.
    out_dir : str or Path
        Folder (created if needed).
    title : str, default "HypoML"
        Page title.

    Returns
    -------
    list of Path
        The files written, in the order of :data:`OUTPUT_FILES`.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / name for name in OUTPUT_FILES]
    paths[0].write_text(hypoml_html(result, title), encoding="utf-8")
    paths[1].write_text(
        json.dumps(hypoml_json(result), indent=1, ensure_ascii=False, allow_nan=False) + "\n", encoding="utf-8"
    )
    for table, path in zip((result.conclusions, result.tests, result.accuracy, result.trace), paths[2:]):
        write_frame(table, path)
    return paths
