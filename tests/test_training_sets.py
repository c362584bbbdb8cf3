"""`flask stimuli export --training`: the ratio-sampling regimes of the seed paper (§2.3, Study II) drawn by the
test's own generator, and never a stimulus of the test people took."""

from __future__ import annotations

import csv
import hashlib
import json
import random

import pytest
from PIL import Image

from analysis import training_test_distance
from server.db import db
from server.exceptions import ConfigError
from server.models import Stimulus
from server.studies.definitions import get_study
from server.tasks.ratio_estimation import charts as charts
from server.tasks.ratio_estimation import sampling as sampling

STUDY3_PAIRS = [p for t in charts.CHART_TYPES for p in charts.pairs_for_type(t)]


def test_ratio_bins_are_the_papers_94_with_exact_halves():
    assert sampling.RATIO_BINS[0] == 6 and sampling.RATIO_BINS[-1] == 99 and len(sampling.RATIO_BINS) == 94
    assert sampling.ratio_bin(5, 85) == 6 and sampling.ratio_bin(84, 85) == 99  # 0.059 and 0.988
    assert sampling.ratio_bin(5, 40) == 13 and sampling.ratio_bin(3 * 5, 8 * 5) == 38  # 0.125 and 0.375: halves up
    assert sampling.ratio_bin(12, 56) == 21  # 0.2143
    whole = {p for b in sampling.domain(1).values() for p in b}
    assert len(whole) == 3240 and len(sampling.domain(1)) == 94  # 3,240 (short, tall) pairs in 94 bins
    assert len(sampling.domain(5)) == 93 and 99 not in sampling.domain(5)  # divided bar: [0.06, 0.98], 93 bins
    assert all(charts.fits(5, s, t) for pairs in sampling.domain(5).values() for s, t in pairs)


def test_regimes_order_the_candidates_as_the_paper_describes():
    candidates, test = list(range(10, 51)), [30]
    cov = sampling.selection_order("COV", candidates, test, random.Random(0))
    assert cov[:3] == [10, 50, 30]  # min, max, then the centre
    assert sorted(cov) == candidates
    gaps = [min(abs(b - c) for c in cov[:i]) for i, b in enumerate(cov) if i >= 2]
    assert gaps == sorted(gaps, reverse=True)  # each pick is as far as any left from those chosen before it
    adv = sampling.selection_order("ADV", candidates, test, random.Random(0))
    assert adv[:2] in ([10, 50], [50, 10])  # farthest from the test bin first
    assert [abs(b - 30) for b in adv] == sorted((abs(b - 30) for b in adv), reverse=True)
    assert sampling.selection_order("OOD", candidates, test, random.Random(0)) == candidates
    iid = sampling.selection_order("IID", candidates, test, random.Random(4))
    assert iid == sampling.selection_order("IID", candidates, test, random.Random(4)) and iid != candidates


def test_study3_plan_keeps_test_and_validation_bins_out_and_downsamples_by_prefix():
    default = sampling.plan(STUDY3_PAIRS, "COV", None, 0, charts.CHART_TYPES)
    test_bins = {sampling.ratio_bin(s, t) for s, t in STUDY3_PAIRS}
    assert set(default.test_bins) == test_bins and len(test_bins) == 24 and min(test_bins) == 18
    assert len(default.validation_bins) == 19 and len(default.candidate_bins) == 94 - 24 - 19
    assert not (set(default.candidate_bins) & (test_bins | set(default.validation_bins)))
    assert default.n_bins == 25 and default.condition == "COV"
    for regime in sampling.REGIMES:
        for seed in (0, 1):
            p = sampling.plan(STUDY3_PAIRS, regime.lower(), None, seed, charts.CHART_TYPES)
            assert p.validation_bins == default.validation_bins  # one validation split for every condition
            assert not set(p.training_bins) & test_bins
    # Study II: the downsampled sets are subsets of the default set, "taken in order".
    for regime in sampling.REGIMES:
        full = set(sampling.plan(STUDY3_PAIRS, regime, None, 5, charts.CHART_TYPES).training_bins)
        small = [set(sampling.plan(STUDY3_PAIRS, regime, k, 5, charts.CHART_TYPES).training_bins) for k in (14, 7, 3)]
        assert small[2] <= small[1] <= small[0] <= full and [len(s) for s in small] == [14, 7, 3]
    ood = sampling.plan(STUDY3_PAIRS, "OOD", None, 0, charts.CHART_TYPES)
    assert list(ood.training_bins) == sorted(ood.candidate_bins)[:25]  # the lowest half
    large = sampling.plan(STUDY3_PAIRS, "IID", 51, 0, charts.CHART_TYPES)
    assert large.condition == "IID-large" and set(large.training_bins) == set(large.candidate_bins)
    assert sampling.plan(STUDY3_PAIRS, "ADV", 14, 0, charts.CHART_TYPES).condition == "ADV-14"
    with pytest.raises(ConfigError, match="--bins must be 1–25 for OOD"):
        sampling.plan(STUDY3_PAIRS, "OOD", 26, 0, charts.CHART_TYPES)
    with pytest.raises(ConfigError, match="--regime must be one of IID, COV, ADV, OOD"):
        sampling.plan(STUDY3_PAIRS, "random", None, 0, charts.CHART_TYPES)


def _rows(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def export(runner, *args):
    return runner.invoke(args=["stimuli", "export", "study3", *args])


def test_training_export_never_holds_the_test_people_took(runner, tmp_path):
    assert export(runner, "--out", str(tmp_path / "test")).exit_code == 0
    result = export(
        runner,
        "--training",
        "300",
        "--regime",
        "ADV",
        "--seed",
        "3",
        "--validation",
        "60",
        "--out",
        str(tmp_path / "adv"),
    )
    assert result.exit_code == 0, result.output
    assert "300 training and 60 validation images" in result.output and "ADV" in result.output
    out = tmp_path / "adv"
    test_rows, train_rows, val_rows = (
        _rows(tmp_path / "test" / "manifest.csv"),
        _rows(out / "manifest.csv"),
        _rows(out / "validation.csv"),
    )
    assert list(train_rows[0]) == list(test_rows[0]) == list(val_rows[0])  # the test export's columns
    assert len(train_rows) == 300 and len(val_rows) == 60 and len(test_rows) == 192
    test_ids = set(db.session.scalars(db.select(Stimulus.key).filter_by(study_id=get_study("study3").id)))
    drawn = train_rows + val_rows
    assert len({r["stimulus_id"] for r in drawn}) == 360 and not {r["stimulus_id"] for r in drawn} & test_ids
    test_pairs = {(int(r["short_height"]), int(r["tall_height"])) for r in test_rows}
    test_bins = {sampling.ratio_bin(*p) for p in test_pairs}
    info = json.loads((out / "sampling.json").read_text())
    for row in drawn:
        pair = (int(row["short_height"]), int(row["tall_height"]))
        assert pair not in test_pairs and sampling.ratio_bin(*pair) not in test_bins
        assert charts.BarStimulus.parse(row["stimulus_id"]) == charts.BarStimulus(
            int(row["chart_type"]), *pair, charts.BarStimulus.parse(row["stimulus_id"]).variant
        )
        assert float(row["true_percent"]) == pytest.approx(100 * pair[0] / pair[1]) and row["practice"] == "False"
    assert {sampling.ratio_bin(int(r["short_height"]), int(r["tall_height"])) for r in train_rows} <= set(
        info["training_bins"]
    )
    assert {sampling.ratio_bin(int(r["short_height"]), int(r["tall_height"])) for r in val_rows} <= set(
        info["validation_bins"]
    )
    assert not {_digest(out / r["file"]) for r in drawn} & {_digest(tmp_path / "test" / r["file"]) for r in test_rows}
    for row in train_rows[:20]:  # the same renderer as the test: bytes of the id's picture, 100×100 grayscale
        image = Image.open(out / row["file"])
        assert (image.size, image.mode) == ((100, 100), "L")
        assert (out / row["file"]).read_bytes() == charts.render_png(
            charts.layout(charts.BarStimulus.parse(row["stimulus_id"]))
        )
    assert info["regime"] == "ADV" and info["bins"] == 25 and info["n_test"] == 192
    assert info["test_bins"] == sorted(test_bins)
    assert info["training_test_distance"]["stimuli"] == pytest.approx(
        training_test_distance(
            [int(r["short_height"]) / int(r["tall_height"]) for r in test_rows],
            [int(r["short_height"]) / int(r["tall_height"]) for r in train_rows],
        )
    )
    # The same command draws the same set.
    assert (
        export(
            runner,
            "--training",
            "300",
            "--regime",
            "ADV",
            "--seed",
            "3",
            "--validation",
            "60",
            "--out",
            str(tmp_path / "again"),
        ).exit_code
        == 0
    )
    assert (tmp_path / "again" / "manifest.csv").read_bytes() == (out / "manifest.csv").read_bytes()


def test_adversarial_and_ood_sets_lie_farther_from_the_test_than_iid_and_cov(runner, tmp_path):
    distance = {}
    for regime in sampling.REGIMES:
        out = tmp_path / regime
        assert (
            export(runner, "--training", "50", "--regime", regime, "--validation", "0", "--out", str(out)).exit_code
            == 0
        )
        distance[regime] = json.loads((out / "sampling.json").read_text())["training_test_distance"]["bins"]
    assert max(distance["IID"], distance["COV"]) < min(distance["ADV"], distance["OOD"])
    assert not (tmp_path / "IID" / "validation.csv").read_text().strip().count("\n")  # header only


@pytest.mark.parametrize(
    "args, message",
    [
        (["--training", "10", "--regime", "OOD", "--bins", "40"], "--bins must be 1–25 for OOD"),
        (["--training", "10"], "--regime is required with --training"),
        (["--training", "10", "--regime", "SIDEWAYS"], "--regime must be one of IID, COV, ADV, OOD"),
        (["--training", "0", "--regime", "IID"], "--training must be a whole number 1–"),
        (["--training", "10", "--regime", "IID", "--chart-type", "7"], "--chart-type must be among 1, 2, 3, 4, 5"),
        (["--regime", "IID"], "--regime: only with --training N"),
        (["--seed", "4", "--bins", "3"], "--bins, --seed: only with --training N"),
        (["--training", "10", "--regime", "IID", "--include-practice"], "--include-practice is for the test export"),
    ],
)
def test_bad_training_options_are_refused_and_write_nothing(runner, tmp_path, args, message):
    parent = tmp_path / "exports"
    parent.mkdir()
    result = export(runner, *args, "--out", str(parent / "set"))
    assert result.exit_code != 0 and message in result.output, result.output
    assert list(parent.iterdir()) == []


def test_training_export_refuses_a_folder_in_use_and_other_task_types(runner, tmp_path):
    used = tmp_path / "used"
    used.mkdir()
    (used / "old.txt").write_text("keep me")
    result = export(runner, "--training", "10", "--regime", "IID", "--out", str(used))
    assert result.exit_code != 0 and "is not empty" in result.output
    assert [p.name for p in used.iterdir()] == ["old.txt"]
    result = runner.invoke(
        args=["stimuli", "export", "two4two-demo", "--training", "10", "--regime", "IID", "--out", str(tmp_path / "t")]
    )
    assert result.exit_code != 0 and "cannot draw training sets" in result.output


def test_one_chart_type_only(runner, tmp_path):
    result = export(
        runner,
        "--training",
        "50",
        "--regime",
        "COV",
        "--bins",
        "7",
        "--chart-type",
        "5",
        "--validation",
        "5",
        "--out",
        str(tmp_path / "t5"),
    )
    assert result.exit_code == 0, result.output
    rows = _rows(tmp_path / "t5" / "manifest.csv")
    assert {r["chart_type"] for r in rows} == {"5"}
    assert json.loads((tmp_path / "t5" / "sampling.json").read_text())["condition"] == "COV-7"
