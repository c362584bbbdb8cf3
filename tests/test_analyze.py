"""`flask analyze`: a simulated Study III cohort entered through the JSON API, plus model predictions with known
errors inserted directly, must give the numbers the analysis package gives on the export, and write every file."""

from __future__ import annotations

import json
import math
import random
import sqlite3

import numpy as np
import pandas as pd
import pytest
from PIL import Image
from scipy import stats

from server.db import _add_sqlite_math, _sqlite_ln, db
from server.models import ModelRun, Prediction, Stimulus, Study
from server.results.export import trial_rows
from server.studies.definitions import get_study
from tests.helpers import answer_surveys, enter, take_study3_like_people, trial_body

N_NORMAL = 20
SIGMA = {1: 1.5, 2: 3.0, 3: 4.5, 4: 6.0, 5: 7.5}  # noise SD per chart type, percent
SKILL = (0.6, 1.0, 1.6)
N_BOOT = 2000
EXACT_MLAE = math.log2(2.125)  # every prediction off by exactly 2 points


def _true(item_id: str) -> tuple[int, int, int, float]:
    """chart type, short, tall, true percent from a stimulus id like t3-s12-t46-v0."""
    kind, s, t, _ = item_id.split("-")
    short, tall = int(s[1:]), int(t[1:])
    return int(kind[1:]), short, tall, 100 * short / tall


def _participant(client, answer, complete=True, limit=None):
    token = enter(client)
    answer_surveys(client, token)  # consent and demographics: /complete requires them
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    for item in plan[:limit]:
        percent = 0.0 if item["practice"] else answer(item)  # practice answers are wild: they must never count
        response = client.post(f"/api/sessions/{token}/trials", json=trial_body(item, percent))
        assert response.status_code == 201, response.get_json()
    if complete:
        assert client.post(f"/api/sessions/{token}/complete").status_code == 200
    return db.session.scalars(db.select(Study).filter_by(slug="study3")).one(), token


def varied_error(short: int, tall: int, run: int) -> float:
    """The second model's error (points) on a height pair: varies across pairs and a little between its runs."""
    return ((short + tall) % 7) * 0.5 + 0.25 + 0.1 * run * (short % 3)


@pytest.fixture
def cohort(app, client):
    """20 normal participants (error = known Gaussian noise), 2 wild ones, 1 who stopped after 10 trials,
    and two models: cnn-exact (2 runs, every prediction off by exactly 2 points) and cnn-varied/IID (2 runs)."""
    rng = np.random.default_rng(7)
    noise = {}  # (participant index, stimulus id) -> signed error of a test answer

    def normal(i):
        skill = SKILL[i % 3]

        def answer(item):
            ct, _, _, true = _true(item["stimulus_id"])
            e = float(np.clip(rng.normal(0, SIGMA[ct] * skill), -45, 45))
            if not 0 <= true + e <= 100:
                e = -e  # same absolute error, answer inside 0-100
            noise[(i, item["stimulus_id"])] = e
            return true + e

        return answer

    for i in range(N_NORMAL):
        _participant(client, normal(i))
    _participant(client, lambda item: 100.0)  # wild: always 100
    _participant(client, lambda item: (_true(item["stimulus_id"])[3] + 50) % 100)  # wild: off by 50
    _participant(client, normal(99), complete=False, limit=10)  # recruited, not completed

    study = get_study("study3")
    stimuli = db.session.execute(
        db.select(Stimulus.id, Stimulus.key, Stimulus.practice).filter_by(study_id=study.id)
    ).all()
    runs = {
        ("cnn-exact", "", 0): lambda s, t, r: 2.0,
        ("cnn-exact", "", 1): lambda s, t, r: -2.0,
        ("cnn-varied", "IID", 0): varied_error,
        ("cnn-varied", "IID", 1): varied_error,
    }
    for (observer, condition, run), error in runs.items():
        run_id = db.session.execute(
            ModelRun.__table__.insert()
            .values(study_id=study.id, observer=observer, condition=condition, run=run, unit="percent", n_predictions=0)
            .returning(ModelRun.__table__.c.id)
        ).scalar_one()
        rows = []
        for stim_id, key, practice in stimuli:
            if practice:
                if run == 0:
                    rows.append({"run_id": run_id, "stimulus_id": stim_id, "value": 100.0})  # must not count
                continue
            _, short, tall, true = _true(key)
            rows.append({"run_id": run_id, "stimulus_id": stim_id, "value": true + error(short, tall, run)})
        db.session.execute(Prediction.__table__.insert(), rows)
    db.session.commit()
    return noise


def analyze(runner, *args):
    result = runner.invoke(args=["analyze", "study3", "--n-boot", str(N_BOOT), *args])
    assert result.exit_code == 0, result.output
    return result


def export_trials(used_ids):
    df = pd.DataFrame(trial_rows(get_study("study3")))
    return df[~df["practice"] & df["participant_id"].isin(used_ids)]


def exported_test_trials(runner, tmp_path, used_ids) -> pd.DataFrame:
    result = runner.invoke(args=["export", "study3", "--out", str(tmp_path / "export")])
    assert result.exit_code == 0, result.output
    df = pd.read_csv(tmp_path / "export" / "trials.csv")
    return df[(df["practice"].astype(str).str.lower().isin(["false", "0"])) & df["participant_id"].isin(used_ids)]


def trimmed_middle_half(values) -> float:
    """Cleveland & McGill's midmean, from its definition: sort, drop floor(n/4) from each end, average the rest."""
    x = sorted(values)
    cut = len(x) // 4
    middle = x[cut : len(x) - cut]
    return sum(middle) / len(middle)


def reference_pooled_mlae(trials: pd.DataFrame) -> list[float]:
    """C&M 1984 / H&B 2010: the midmean of log2(|judged − true| + 1/8) over every judgment of a chart type."""
    out = []
    for ct in range(1, 6):
        t = trials[trials["chart_type"] == ct]
        out.append(
            trimmed_middle_half(
                [math.log2(abs(j - v) + 0.125) for j, v in zip(t["response_percent"], t["true_percent"])]
            )
        )
    return out


def reference_participant_mlae(trials: pd.DataFrame) -> list[float]:
    """Haehn et al. 2018: per participant log2(MAE + 1/8) over their judgments of the type; midmean over people."""
    out = []
    for ct in range(1, 6):
        t = trials[trials["chart_type"] == ct]
        per_person = [
            math.log2(np.mean(np.abs(g["response_percent"] - g["true_percent"])) + 0.125)
            for _, g in t.groupby("participant_id")
        ]
        out.append(trimmed_middle_half(per_person))
    return out


def test_json_numbers_match_the_analysis_package(runner, cohort, tmp_path):
    data = json.loads(analyze(runner, "--format", "json").stdout)
    people = pd.DataFrame(data["participants"])
    c = data["meta"]["counts"]
    assert (c["recruited"], c["completed"], c["not_completed"], c["outliers"], c["analysed"]) == (23, 22, 1, 2, 20)
    ids = people.sort_values("participant_id")["participant_id"].tolist()
    wild = ids[N_NORMAL : N_NORMAL + 2]
    outliers = people[people["outlier"]]
    assert sorted(outliers["participant_id"]) == wild
    assert all("> Q3 + 3×IQR" in r for r in outliers["reason"])
    assert people.loc[people["participant_id"] == ids[-1], "reason"].item().startswith("not completed")
    used = people.loc[people["analysed"], "participant_id"].tolist()
    assert used == ids[:N_NORMAL] and c["trials_used"] == 25 * N_NORMAL

    # Human MLAE per type equals the papers' estimators recomputed by hand from `flask export`'s trials.csv.
    trials = exported_test_trials(runner, tmp_path, used)
    ml = pd.DataFrame(data["mlae"])
    # The default is the published rows' estimator (pooled); --mlae participant is Haehn et al.'s.
    pooled = ml
    pooled_h = pooled[pooled["kind"] == "human"].set_index("chart_type")
    assert pooled_h.index.tolist() == [1, 2, 3, 4, 5] and set(pooled["estimator"]) == {"pooled"}
    assert data["meta"]["options"]["mlae_estimator"] == "pooled"
    assert pooled_h["mlae"].tolist() == pytest.approx(reference_pooled_mlae(trials), abs=1e-9)
    ml = pd.DataFrame(json.loads(analyze(runner, "--format", "json", "--mlae", "participant").stdout)["mlae"])
    human = ml[ml["kind"] == "human"].set_index("chart_type")
    assert set(human["estimator"]) == {"participant"}
    assert human["mlae"].tolist() == pytest.approx(reference_participant_mlae(trials), abs=1e-9)
    assert (human["ci_low"] < human["mlae"]).all() and (human["mlae"] < human["ci_high"]).all()
    assert set(ml["estimator"]) == {"participant", "pooled"}  # published rows keep their papers' estimator
    # Human MAE is the mean |noise| we drew (practice answers were 0 and do not count).
    mae = pd.DataFrame(data["mae"])
    h_all = mae[(mae["kind"] == "human") & (mae["chart_type"] == "all")].iloc[0]
    assert h_all["mae_pp"] == pytest.approx(np.mean(np.abs(list(cohort.values())[: 25 * N_NORMAL])), rel=1e-9)
    assert h_all["mae_ratio"] == pytest.approx(h_all["mae_pp"] / 100)

    # Models take the same estimator, runs for participants: exactly 2 points off -> log2(2.125) for every run and
    # type, so the midmean over runs and every resample are log2(2.125); MAE 2 points = 0.02 ratio units.
    exact = ml[ml["label"] == "cnn-exact"]
    assert len(exact) == 5 and set(exact["resampled"]) == {"runs"}
    for col in ("mlae", "ci_low", "ci_high"):
        assert exact[col].tolist() == pytest.approx([EXACT_MLAE] * 5, rel=1e-9)
    study3 = db.session.scalars(db.select(Study).filter_by(slug="study3")).one()
    stim = [
        _true(k) for (k,) in db.session.execute(db.select(Stimulus.key).filter_by(practice=False, study_id=study3.id))
    ]
    pairs_per_type = [sum(c_ == ct for c_, *_ in stim) for ct in range(1, 6)]  # 39 39 39 39 36 (type 5 is tighter)
    assert exact["n_units"].tolist() == [2] * 5
    assert exact["n_judgments"].tolist() == [2 * n for n in pairs_per_type]  # 2 runs, practice ignored
    m_all = mae[(mae["label"] == "cnn-exact") & (mae["chart_type"] == "all")].iloc[0]
    assert (m_all["mae_pp"], m_all["mae_ratio"]) == (pytest.approx(2.0), pytest.approx(0.02))
    varied = ml[ml["label"] == "cnn-varied (IID)"].set_index("chart_type")["mlae"]
    for ct in range(1, 6):  # midmean of two runs' log2(MAE + 1/8) = their mean
        want = np.mean(
            [math.log2(np.mean([varied_error(s, t, r) for c_, s, t, _ in stim if c_ == ct]) + 0.125) for r in (0, 1)]
        )
        assert varied[ct] == pytest.approx(want, rel=1e-9)
    varied_pooled = pooled[pooled["label"] == "cnn-varied (IID)"].set_index("chart_type")["mlae"]
    for ct in range(1, 6):  # midmean of every prediction's log error, both runs pooled
        logs = [math.log2(varied_error(s, t, r) + 0.125) for r in (0, 1) for c_, s, t, _ in stim if c_ == ct]
        assert varied_pooled[ct] == pytest.approx(trimmed_middle_half(logs), rel=1e-9)

    # Published values beside.
    cm = ml[(ml["kind"] == "published") & (ml["observer"] == "Cleveland & McGill 1984")].set_index("chart_type")
    assert cm.loc[1, "mlae"] == 1.40
    assert set(ml.loc[ml["kind"] == "published", "observer"]) == {"Cleveland & McGill 1984", "Heer & Bostock 2010"}
    assert 0.056 in mae.loc[mae["kind"] == "published", "mae_ratio"].tolist()

    # Effects and consistency.
    eff = pd.DataFrame(data["effects"])
    anova = eff[eff["test"] == "repeated-measures ANOVA, Greenhouse–Geisser"].iloc[0]
    assert (anova["df1"], anova["df2"]) == (4, 4 * (N_NORMAL - 1)) and 0 < anova["effect_size"] < 1
    assert 0 < anova["epsilon"] <= 1 and anova["n"] == N_NORMAL
    assert (eff["test"] == "paired t-test, Holm").sum() == 10
    obs = eff[eff["effect"] == "observer"].set_index(["term", "test"])
    # 2 runs: Welch's row, then the random-effects test of unit means whose size holds at so few runs
    welch, re_row = (
        ("cnn-exact - humans", "Welch t-test"),
        ("cnn-exact - humans", "random-effects test of unit means, bootstrap-t"),
    )
    assert obs.loc[welch, "n"] == 22 and obs.loc[re_row, "n"] == 22
    assert obs.loc[welch, "estimate"] < 0 and obs.loc[welch, "p_val"] < 0.05
    assert obs.loc[re_row, "estimate"] == pytest.approx(obs.loc[welch, "estimate"], rel=1e-12)
    assert 0 < obs.loc[re_row, "p_val"] <= 1 and obs.loc[re_row, "df1"] > 0
    cons = pd.DataFrame(data["consistency"])
    inter = cons[cons["kind"] == "inter"].set_index("observer")
    assert math.isfinite(inter.loc["cnn-varied (IID)", "r"]) and inter.loc["cnn-varied (IID)", "n"] > 3
    (exact_inter,) = [r for r in data["consistency"] if r["kind"] == "inter" and r["observer"] == "cnn-exact"]
    assert exact_inter["r"] is None and "constant" in exact_inter["note"]  # NaN -> null; no spurious r
    intra = cons[(cons["kind"] == "intra") & (cons["observer"] == "cnn-varied (IID)")]
    assert len(intra) == 1 and 0 < intra["r"].item() <= 1

    # --keep-outliers keeps the planted ones in the analysis but still reports them.
    kept = json.loads(analyze(runner, "--format", "json", "--keep-outliers").stdout)
    kp = pd.DataFrame(kept["participants"])
    assert sorted(kp.loc[kp["outlier"], "participant_id"]) == wild
    assert kept["meta"]["counts"]["analysed"] == N_NORMAL + 2
    assert all("kept" in r for r in kp.loc[kp["outlier"], "reason"])


def test_out_writes_tables_report_and_figures(runner, cohort, tmp_path):
    result = analyze(runner, "--out", str(tmp_path), "--n-boot", "500")
    text = result.output
    for heading in (
        "Participants",
        "MLAE by chart type",
        "Mean absolute error",
        "Chart-type effect (humans)",
        "Observer effect",
        "Consistency",
    ):
        assert f"\n{heading}\n{'-' * len(heading)}\n" in text, heading
    for words in ("Cleveland & McGill 1984", "ratio units", "percentage points"):
        assert words in text
    for name in (
        "mlae.csv",
        "mae.csv",
        "participants.csv",
        "effects.csv",
        "consistency.csv",
        "report.txt",
        "report.md",
        "report.json",
        "methods.md",
    ):
        assert (tmp_path / name).stat().st_size > 0, name
    # report.txt is the printed report, report.json what --format json prints
    assert (tmp_path / "report.txt").read_text(encoding="utf-8") in text
    assert json.loads((tmp_path / "report.json").read_text(encoding="utf-8")) == json.loads(
        analyze(runner, "--format", "json", "--n-boot", "500").stdout
    )
    participants = pd.read_csv(tmp_path / "participants.csv")
    assert {"participant_id", "outlier", "analysed", "reason"} <= set(participants.columns)
    assert participants["outlier"].sum() == 2
    methods = (tmp_path / "methods.md").read_text()
    assert "pooled estimator" in methods and "2 of 22 completed participants were above it" in methods
    assert "500 resamples (seed 0)" in methods and "this analysis reads that as" in methods
    md = (tmp_path / "report.md").read_text()
    assert md.startswith("# study3") and "| observer |" in md
    for name in ("mlae.png", "error_by_ratio.png", "human_vs_model.png"):
        with Image.open(tmp_path / name) as im:
            im.verify()
        with Image.open(tmp_path / name) as im:
            assert im.size[0] > 300 and im.size[1] > 200


def test_unknown_study_is_a_clear_error(runner):
    result = runner.invoke(args=["analyze", "nope"])
    assert result.exit_code != 0 and "no study named 'nope'" in result.output
    assert "Traceback" not in result.output


def test_no_completed_participants_is_a_clear_message(runner, client):
    _participant(client, lambda item: 50.0, complete=False, limit=6)
    result = runner.invoke(args=["analyze", "study3"])
    assert result.exit_code != 0
    assert "no completed participants yet (1 session(s) recruited, 0 completed)" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_other_task_types_are_refused(app, runner):
    study = get_study("study3")
    study.task_type = "hive"
    db.session.commit()
    result = runner.invoke(args=["analyze", "study3"])
    assert result.exit_code != 0
    assert "does not support task type 'hive'" in result.output and "ratio-estimation" in result.output


def test_sqlite_ln_fallback_is_registered_only_when_missing():
    class NoMath(sqlite3.Connection):
        """A SQLite connection that behaves like a build without the math functions until ln is registered."""

        registered = False
        created = False

        def execute(self, sql, *args):
            if "ln(" in sql and not self.registered:
                raise sqlite3.OperationalError("no such function: ln")
            return super().execute(sql, *args)

        def create_function(self, name, *args, **kwargs):
            self.registered = self.created = True
            return super().create_function(name, *args, **kwargs)

    assert _sqlite_ln(math.e) == pytest.approx(1.0) and _sqlite_ln(0) is None and _sqlite_ln(None) is None
    _add_sqlite_math(object(), None)  # not SQLite: ignored
    plain = sqlite3.connect(":memory:", factory=NoMath)
    plain.registered = True  # ln works: nothing is registered
    _add_sqlite_math(plain, None)
    assert not plain.created
    bare = sqlite3.connect(":memory:", factory=NoMath)
    _add_sqlite_math(bare, None)
    assert bare.registered
    assert bare.execute("select ln(2.125) / ln(2)").fetchone()[0] == pytest.approx(EXACT_MLAE)


def test_all_exact_answers_are_analysed_and_the_f_test_says_why_it_is_missing(runner, client):
    """#23 row 1: every answer exact -> no error variance; `flask analyze` used to stop with KeyError: 'F'."""
    for _ in range(3):
        _participant(client, lambda item: _true(item["stimulus_id"])[3])
    text = analyze(runner, "--n-boot", "100").output
    assert "F not computed: no error variance" in text and "repeated-measures ANOVA, Greenhouse–Geisser" in text
    assert "rule not applied: the IQR of participants' mean errors is 0" in text
    data = json.loads(analyze(runner, "--format", "json", "--n-boot", "100").stdout)
    (rm,) = [r for r in data["effects"] if r["test"] == "repeated-measures ANOVA, Greenhouse–Geisser"]
    assert rm["statistic"] is None and rm["p_val"] is None and "no error variance" in rm["note"]


def test_a_model_imported_for_types_1_to_4_is_compared_with_people_over_those_types(runner, client, tmp_path):
    """Issue #39 point 1: predictions for chart types 1–4 only (`flask import-predictions --unit ratio`); the observer
    effect is Welch's t of each run's mean over types 1–4 of its MAE per type against each person's, by hand."""
    rng = random.Random(39)
    for _ in range(6):
        take_study3_like_people(client, rng)
    keys = db.session.scalars(
        db.select(Stimulus.key).filter_by(study_id=get_study("study3").id, practice=False).order_by(Stimulus.key)
    ).all()
    runs = []  # per run: the mean over types 1–4 of its MAE per type, in percentage points
    for run in range(3):
        shift = np.random.default_rng(run).normal(0, 0.03, len(keys))
        predicted = {k: round(min(1.0, max(0.0, _true(k)[3] / 100 + e)), 6) for k, e in zip(keys, shift)}
        predicted = {k: v for k, v in predicted.items() if _true(k)[0] <= 4}
        path = tmp_path / f"run{run}.csv"
        path.write_text("stimulus_id,prediction\n" + "".join(f"{k},{v}\n" for k, v in predicted.items()))
        args = ["import-predictions", "study3", str(path), "--observer", "m", "--unit", "ratio", "--run", str(run)]
        result = runner.invoke(args=args)
        assert result.exit_code == 0, result.output
        errors = pd.DataFrame([(_true(k)[0], abs(100 * v - _true(k)[3])) for k, v in predicted.items()])
        runs.append(errors.groupby(0)[1].mean().mean())

    data = json.loads(analyze(runner, "--format", "json").stdout)
    used = [p["participant_id"] for p in data["participants"] if p["analysed"]]
    trials = exported_test_trials(runner, tmp_path, used)
    trials = trials.assign(abs_error=(trials["response_percent"] - trials["true_percent"]).abs())
    shared = trials[trials["chart_type"] <= 4]
    people = shared.groupby(["participant_id", "chart_type"])["abs_error"].mean().groupby(level=0).mean()
    welch = stats.ttest_ind(runs, people, equal_var=False)
    (obs,) = [r for r in data["effects"] if r["effect"] == "observer" and r["test"].startswith("Welch")]
    assert obs["test"] == "Welch t-test"
    assert obs["estimate"] == pytest.approx(np.mean(runs) - people.mean(), rel=1e-6)
    assert obs["statistic"] == pytest.approx(welch.statistic, rel=1e-6)
    assert obs["p_val"] == pytest.approx(welch.pvalue, rel=1e-6)
    left_out = "compared over chart types 1, 2, 3, 4, the ones both answered; left out: type 5 (m has no predictions"
    assert left_out in obs["note"]
    mae = {(r["label"], r["chart_type"]): r for r in data["mae"]}
    assert mae[("humans", "types 1, 2, 3, 4")]["mae_pp"] == pytest.approx(shared["abs_error"].mean(), rel=1e-9)
    text = analyze(runner).output
    assert left_out in text and "humans (types 1, 2, 3, 4)" in text
