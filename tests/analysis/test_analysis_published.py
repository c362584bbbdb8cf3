import csv
import re
from pathlib import Path

import pytest

import analysis
from analysis import published, published_mlae

PACKAGE_CSV = Path(analysis.__file__).parent / "data" / "published_results.csv"
SHARED_CSV = Path(__file__).resolve().parents[3] / "shared" / "reference" / "published_results.csv"
HIVE_SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "hive.txt"


def test_published_mlae_values():
    out = published_mlae()
    assert list(out.columns) == ["source", "chart_type", "mlae", "ci_halfwidth", "ci_low", "ci_high"]
    cm = out[out.source == "ClevelandMcGill1984"]
    assert cm["chart_type"].tolist() == [1, 2, 3, 4, 5]
    assert cm["mlae"].tolist() == [1.40, 1.72, 1.84, 2.35, 2.72]
    assert cm["ci_halfwidth"].tolist() == [0.14, 0.20, 0.16, 0.175, 0.155]
    hb = out[out.source == "HeerBostock2010"]
    assert hb["mlae"].tolist() == [1.25, 1.39, 1.56, 1.96, 2.24]
    assert hb["ci_halfwidth"].tolist() == [0.25, 0.175, 0.25, 0.23, 0.24]
    assert out["ci_low"].iloc[0] == pytest.approx(1.26) and out["ci_high"].iloc[0] == pytest.approx(1.54)
    assert str(out["chart_type"].dtype) == "int64"


def test_published_mlae_matches_the_csv_row_by_row():
    with PACKAGE_CSV.open(newline="", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r["measure"] == "MLAE"]
    out = published_mlae().set_index(["source", "chart_type"])
    assert len(rows) == len(out) == 10
    for r in rows:
        got = out.loc[(r["source"], int(r["condition"].removeprefix("type")))]
        assert got["mlae"] == float(r["value"]) and got["ci_halfwidth"] == float(r["spread"])


def test_published_filters():
    mae = published(source="JiangEtAl2025", measure="MAE")
    assert len(mae) == 4
    human = mae[(mae.study == "ratio-sampling study III") & (mae.condition == "humans")].iloc[0]
    assert human["value"] == 0.056 and human["n"] == 56
    assert len(published()) == 67
    assert set(published(source="HIVE2022").measure) == {"accuracy", "mean confidence", "required accuracy gain"}
    with pytest.raises(ValueError, match="unknown source 'Cleveland'"):
        published(source="Cleveland")


def test_published_returns_a_copy():
    a = published()
    a.loc[0, "value"] = -1
    assert published().loc[0, "value"] != -1


@pytest.mark.skipif(not SHARED_CSV.exists(), reason="shared reference not present")
def test_packaged_copy_holds_the_reference_and_only_hive_rows_from_the_seed_besides():
    """The reference's rows, in its order, plus HIVE's ImageNet (with and without labels) and Table 1 confidence
    rows, which the reference lacks and HIVE's text gives: each value is printed in the seed."""
    package = PACKAGE_CSV.read_text(encoding="utf-8").splitlines()
    reference = SHARED_CSV.read_text(encoding="utf-8").splitlines()
    assert [line for line in package if line in reference] == reference
    added = list(csv.DictReader([package[0], *(line for line in package if line not in reference)]))
    assert len(added) == 32 and {r["source"] for r in added} == {"HIVE2022"}
    seed = HIVE_SEED.read_text(encoding="utf-8").replace(" ", "")
    for r in added:  # "51.2\\%}\\pm24.7" (LaTeX of mean ± SD) or "(2.9)" (Table 1's mean confidence)
        value = re.escape(r["value"])
        printed = rf"{value}\D{{0,20}}{re.escape(r['spread'])}" if r["spread"] else rf"\({value}\)"
        assert re.search(printed, seed), r


def test_package_does_not_read_the_shared_folder():
    source = (Path(analysis.__file__).parent / "published.py").read_text()
    assert "shared" not in source and "importlib" in source
