"""`flask hypoml R_MD R_MDp R_MpD R_MpDp [--p] [--out] [--format]`: CSV files in, conclusions / comparisons /
accuracies out; bad files give a click error naming the file, row and column; the HTML page works offline in
headless Chromium and re-derives the conclusions when the threshold changes."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from tests.hypoml_examples import luminosity_sets

NAMES = ("r_md.csv", "r_mdp.csv", "r_mpd.csv", "r_mpdp.csv")


def luminosity_frames(n=200, up=13, down=6):
    """The paper's average-luminosity pattern (§6), as the four files' frames in the command's argument order."""
    sets = luminosity_sets(n, up, down)
    return [sets[key] for key in ("M,D", "M,D+", "M+,D", "M+,D+")]


def write(tmp_path, frames, names=NAMES):
    paths = []
    for name, frame in zip(names, frames):
        path = tmp_path / name
        frame.to_csv(path, index=False)
        paths.append(str(path))
    return paths


@pytest.fixture
def csvs(tmp_path):
    return write(tmp_path, luminosity_frames())


def test_text_report(runner, csvs):
    result = runner.invoke(args=["hypoml", *csvs])
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.index("Conclusions") < out.index("Comparisons") < out.index("Accuracies")
    assert re.search(r"H9\s+\+\s+confirmed\s+\+1\s+Learning with D_m\+ affects the \+ part of M\+ positively", out)
    assert re.search(r"H10\s+−\s+rejected\s+-1", out)
    assert len(re.findall(r"unproven", out)) >= 10
    for a in ("A1", "A2", "A3", "A4", "A5", "A6"):
        assert re.search(rf"^  {a}  R\(", out, re.M), a
    assert re.search(r"A3\s+R\(M\+,D\+\) v\. R\(M\+,D\).*\s0\.023\s+higher", out)
    assert re.search(r"A6\s+R\(M,D\+\) v\. R\(M,D\).*\s1\.000\s+no difference", out)
    assert re.search(r"R\(M\+,D\+\)\s+0\.5350\s+\[0\.\d{4}, 0\.\d{4}\]\s+200\s+wilson\s+.*r_mpdp\.csv", out)
    assert "95 % CI" in out


def test_json_report_and_threshold(runner, csvs):
    result = runner.invoke(args=["hypoml", *csvs, "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    concl = {r["hypothesis"]: r["conclusion"] for r in data["conclusions"]}
    assert concl["H9"] == "confirmed" and concl["H10"] == "rejected"
    assert sum(v == "unproven" for v in concl.values()) == 10
    comp = {r["analysis"]: r for r in data["comparisons"]}
    assert comp["A3"]["direction"] == "higher" and 0.01 < comp["A3"]["p_val"] < 0.05
    assert [r["label"] for r in data["accuracies"]] == ["R(M,D)", "R(M,D+)", "R(M+,D)", "R(M+,D+)"]
    assert data["threshold"] == 0.05 and data["meta"]["n_items"] == 200
    assert any(t["analysis"] == "A3" and t["hypothesis"] == "H9" and t["effect"] == 1 for t in data["trace"])

    strict = json.loads(runner.invoke(args=["hypoml", *csvs, "--format", "json", "--p", "0.01"]).stdout)
    assert {r["conclusion"] for r in strict["conclusions"]} == {"unproven"}
    loose = json.loads(runner.invoke(args=["hypoml", *csvs, "--format", "json", "--p", "0.2"]).stdout)
    assert {r["hypothesis"] for r in loose["conclusions"] if r["conclusion"] == "confirmed"} >= {"H1", "H4"}


def test_excel_csv_with_byte_order_mark(runner, tmp_path):
    paths = write(tmp_path, luminosity_frames(n=20, up=3, down=1))
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        with open(path, "w", encoding="utf-8-sig") as fh:  # what Excel's "CSV UTF-8" writes
            fh.write(text)
    result = runner.invoke(args=["hypoml", *paths])
    assert result.exit_code == 0, result.output


def test_correctness_and_uncertainty_columns(runner, tmp_path):
    ids = [f"q{k}" for k in range(6)]
    frames = [
        pd.DataFrame({"id": ids, "correctness": [1, 0.5, 1, 0, 1, 1], "uncertainty": [1, 1, 0.5, 1, 1, 1]})
        for _ in range(4)
    ]
    frames[3] = frames[3].iloc[::-1]  # order does not matter: rows are paired by id
    result = runner.invoke(args=["hypoml", *write(tmp_path, frames), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["meta"]["score"] == "correctness × uncertainty"
    assert data["accuracies"][0]["accuracy"] == pytest.approx((1 + 0.5 + 0.5 + 0 + 1 + 1) / 6)
    assert all(r["p_val"] == 1.0 for r in data["comparisons"])


@pytest.mark.parametrize(
    "mutate, pattern",
    [
        (
            lambda f: f.drop(columns=["label"]),
            r"r_mpd\.csv: column 'correctness' is missing, and so is 'label' to compute it from",
        ),
        (lambda f: f.drop(columns=["id"]), r"r_mpd\.csv: column 'id' is missing"),
        (
            lambda f: f.assign(correctness=[1.0] * 4 + [1.7] + [0.0] * (len(f) - 5)),
            r"r_mpd\.csv: row 5 \(line 6\), column 'correctness': 1\.7 is outside \[0, 1\]",
        ),
        (
            lambda f: f.assign(correctness=["1"] * 2 + ["high"] + ["0"] * (len(f) - 3)),
            r"r_mpd\.csv: row 3 \(line 4\), column 'correctness': 'high' is not a \(finite\) number",
        ),
        (
            lambda f: f.assign(correctness=["1"] * 6 + [""] + ["0"] * (len(f) - 7)),
            r"r_mpd\.csv: row 7 \(line 8\), column 'correctness': empty value",
        ),
        (
            lambda f: f.assign(id=["img000"] + list(f["id"][1:6]) + ["other"] + list(f["id"][7:])),
            r"r_mpd\.csv lacks 1 id\(s\) of .*r_md\.csv: 'img006'; "
            r".*r_mpd\.csv has 1 id\(s\) not in .*r_md\.csv: 'other'",
        ),
        (
            lambda f: f.assign(id=["img000", "img000"] + list(f["id"][2:])),
            r"r_mpd\.csv: id 'img000' appears more than once \(rows 1 \(line 2\), 2 \(line 3\), column 'id'\)",
        ),
    ],
)
def test_bad_input_is_a_click_error_naming_file_row_column(runner, tmp_path, mutate, pattern):
    frames = luminosity_frames(n=20, up=3, down=1)
    frames[2] = mutate(frames[2])
    result = runner.invoke(args=["hypoml", *write(tmp_path, frames)])
    assert result.exit_code == 1, result.output
    assert "Error:" in result.output and "Traceback" not in result.output
    assert re.search(pattern, result.output), result.output


def test_bad_arguments(runner, csvs, tmp_path):
    result = runner.invoke(args=["hypoml", *csvs, "--p", "1.5"])
    assert result.exit_code == 2 and "--p" in result.output
    result = runner.invoke(args=["hypoml", *csvs[:3], str(tmp_path / "missing.csv")])
    assert result.exit_code == 2 and "missing.csv" in result.output
    (tmp_path / "empty.csv").write_text("")
    result = runner.invoke(args=["hypoml", *csvs[:3], str(tmp_path / "empty.csv")])
    assert result.exit_code == 1 and "empty.csv: cannot read as CSV" in result.output


def test_out_writes_page_and_numbers(runner, csvs, tmp_path):
    out = tmp_path / "report"
    result = runner.invoke(args=["hypoml", *csvs, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "wrote 6 files" in result.output
    for name in ("hypoml.html", "hypoml.json", "conclusions.csv", "comparisons.csv", "accuracies.csv", "trace.csv"):
        assert (out / name).stat().st_size > 0, name
    concl = pd.read_csv(out / "conclusions.csv")
    assert concl.set_index("hypothesis").loc["H9", "conclusion"] == "confirmed"
    assert (
        json.loads((out / "hypoml.json").read_text())["conclusions"]
        == json.loads(runner.invoke(args=["hypoml", *csvs, "--format", "json"]).stdout)["conclusions"]
    )


def conclusion(page, h):
    return page.get_attribute(f'#conclusions tr[data-hypothesis="{h}"]', "data-conclusion")


def set_threshold(page, value):
    page.fill("#threshold", value)
    page.dispatch_event("#threshold", "change")


def test_html_page_offline_and_threshold_changes_conclusions(runner, csvs, tmp_path, page):
    out = tmp_path / "report"
    assert runner.invoke(args=["hypoml", *csvs, "--out", str(out), "--title", "Average luminosity"]).exit_code == 0
    requests, errors = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((out / "hypoml.html").as_uri())

    assert page.title() == "Average luminosity"
    assert page.input_value("#threshold") == "0.05"
    assert page.inner_text("#summary-confirmed") == "H9"
    assert page.inner_text("#summary-rejected") == "H10"
    assert conclusion(page, "H9") == "confirmed" and conclusion(page, "H1") == "unproven"
    # the matrix: hypotheses × analyses with icons, and the p-values
    assert page.locator(".hyp-row").count() == 12
    assert page.get_attribute('.cell[data-hypothesis="H9"][data-analysis="A3"]', "data-icon") == "support"
    assert page.get_attribute('.cell[data-hypothesis="H10"][data-analysis="A3"]', "data-icon") == "reject"
    assert page.get_attribute('.cell[data-hypothesis="H1"][data-analysis="A3"]', "data-icon") == "condition"
    assert page.get_attribute('.cell[data-hypothesis="H1"][data-analysis="A1"]', "data-icon") == "unproven"
    assert page.get_attribute('.hyp-row[data-hypothesis="H9"]', "data-conclusion") == "confirmed"
    assert page.locator(".pglyph").count() == 6
    assert page.text_content('.analysis[data-analysis="A3"] .pval') == "0.023"  # the reports' p format
    assert page.locator(".result").count() == 4
    assert "R(M+,D+)" in page.inner_text("#accuracies")

    # a stricter threshold: A3 (p ≈ 0.023) is no longer significant -> H9 flips to unproven
    set_threshold(page, "0.01")
    assert page.get_attribute('.analysis[data-analysis="A3"]', "data-direction") == "none"
    assert conclusion(page, "H9") == "unproven"
    assert page.inner_text("#summary-confirmed") == "none"
    assert page.get_attribute('.cell[data-hypothesis="H9"][data-analysis="A3"]', "data-icon") == "unproven"

    # a looser one: A1 (p ≈ 0.11) crosses it -> the unproven H1 is confirmed, and A3 now reads H1 confirmed
    set_threshold(page, "0.15")
    assert conclusion(page, "H1") == "confirmed" and conclusion(page, "H3") == "rejected"
    assert page.get_attribute('.cell[data-hypothesis="H1"][data-analysis="A1"]', "data-icon") == "support"
    step4 = [line for line in page.inner_text("#trace").splitlines() if line.startswith("Step 4 · A3")]
    assert step4 == [
        "Step 4 · A3 R(M+,D+) v. R(M+,D): higher (p = 0.023 < 0.15), H1 confirmed → ⊤(H7), ⊤(H9), ⊥(H8), ⊥(H10)"
    ]

    # the preset buttons and invalid input
    page.click('.controls button[data-p="0.05"]')
    assert conclusion(page, "H9") == "confirmed" and conclusion(page, "H1") == "unproven"
    set_threshold(page, "2")
    assert "between 0 and 1" in page.inner_text("#threshold-error")
    assert conclusion(page, "H9") == "confirmed"  # unchanged

    # the page's conclusions equal the CLI's at the same threshold
    for p in ("0.01", "0.15"):
        set_threshold(page, p)
        cli = json.loads(runner.invoke(args=["hypoml", *csvs, "--format", "json", "--p", p]).stdout)
        for row in cli["conclusions"]:
            assert conclusion(page, row["hypothesis"]) == row["conclusion"], (p, row["hypothesis"])

    assert all(u.startswith("file://") for u in requests), requests  # nothing fetched from the network
    assert errors == []
    page.hover('.analysis[data-analysis="A3"] .pval')  # highlights the two result sets it compares
    assert "hl" in page.get_attribute('.result[data-result="M+,D"]', "class")
    assert "hl" not in page.get_attribute('.result[data-result="M,D"]', "class")
    page.hover('.cell[data-hypothesis="H12"][data-analysis="A4"]')  # so does a cell of its column
    assert "hl" in page.get_attribute('.result[data-result="M,D"]', "class")
    assert "hl" not in page.get_attribute('.result[data-result="M+,D+"]', "class")


def frames_of(scores):
    """Four result sets with the given per-item correctness (one list per set, in the command's order)."""
    return [pd.DataFrame({"id": [f"i{k}" for k in range(len(s))], "correctness": s}) for s in scores]


DEGENERATE = {
    # name: (four sets' correctness, words the text report must hold)
    "one item": ([[1], [0], [1], [1]], "A1: one item: a paired t-test needs at least 2"),
    "all answers equal": ([[0.7] * 8] * 4, "R(M,D): every score is 0.7000 (s = 0): no t interval"),
    "all correct": ([[1] * 8] * 4, "A1: the two sets score every item the same (s_d = 0): t = 0, p = 1"),
    "all wrong": ([[0] * 8] * 4, "A6: the two sets score every item the same (s_d = 0): t = 0, p = 1"),
    # one condition not run: R(M,D+)'s file has the header and no rows
    "one result set missing": ([[1, 0, 1, 0], [], [1, 1, 1, 0], [1, 1, 1, 1]], "A6: R(M,D+) has no rows"),
    # one participant's answers per set: 0/1 per stimulus, M+ on D+ right where the others are wrong
    "one participant": (
        [[1, 0, 1, 0, 1, 0], [1, 0, 1, 0, 1, 0], [1, 0, 1, 0, 1, 0], [1, 1, 1, 1, 1, 1]],
        "A4: the two sets score every item the same",
    ),
}


@pytest.mark.parametrize("case", DEGENERATE)
def test_degenerate_result_sets_exit_0_and_say_what_is_missing(runner, tmp_path, case):
    # #23 point 1: before, one item was refused (exit 1) and a constant graded score got a zero-width "interval".
    scores, phrase = DEGENERATE[case]
    paths = write(tmp_path, frames_of(scores))
    text = runner.invoke(args=["hypoml", *paths, "--out", str(tmp_path / "out")])
    assert text.exit_code == 0, text.output
    assert phrase in text.output and "nan" not in text.output.lower()
    as_json = runner.invoke(args=["hypoml", *paths, "--format", "json"])
    assert as_json.exit_code == 0, as_json.output

    def refuse(constant):
        raise AssertionError(f"{constant} in the JSON")

    data = json.loads(as_json.stdout, parse_constant=refuse)
    for row in data["comparisons"]:
        assert row["p_val"] is not None or row["note"], row
    for row in data["accuracies"]:
        assert row["ci_low"] is not None or row["note"], row
        assert row["ci_low"] is None or 0 <= row["ci_low"] <= row["accuracy"] <= row["ci_high"] <= 1
    written = json.loads((tmp_path / "out" / "hypoml.json").read_text(), parse_constant=refuse)
    assert written["comparisons"] == data["comparisons"]
