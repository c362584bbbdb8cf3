"""The ratio report names its estimators and says why whenever a statistic is degraded or left out."""

import numpy as np
import pandas as pd
import pytest

from analysis.reports.ratio_study import ratio_report


def _cohort(errors_by_participant: dict[str, list[float]]):
    """Test trials on 5 chart types × a few pairs; participant p answers true + the given errors in turn."""
    pairs = [(10, 46), (12, 38), (18, 56), (21, 32), (26, 56)]
    rows = []
    for pid, errors in errors_by_participant.items():
        for i, err in enumerate(errors):
            chart_type, (short, tall) = i % 5 + 1, pairs[i // 5 % len(pairs)]
            true = 100 * short / tall
            rows.append(
                {
                    "participant_id": pid,
                    "practice": False,
                    "stimulus_id": f"t{chart_type}-{short}-{tall}",
                    "chart_type": chart_type,
                    "short_height": short,
                    "tall_height": tall,
                    "true_percent": true,
                    "response_percent": true + err,
                    "abs_error": abs(err),
                    "log_error": float(np.log2(abs(err) + 0.125)),
                }
            )
    sessions = pd.DataFrame({"participant_id": list(errors_by_participant), "status": "completed"})
    return sessions, pd.DataFrame(rows)


def _model(runs: int, pairs: int = 5, error=lambda run, k: 1.0 + k):
    cells, stimuli = [], []
    heights = [(10 + k, 40 + k) for k in range(pairs)]
    for run in range(runs):
        for ct in range(1, 6):
            for k, (s, t) in enumerate(heights):
                e = error(run, k)
                base = {
                    "observer": "cnn",
                    "condition": "",
                    "run": run,
                    "chart_type": ct,
                    "n": 1,
                    "mean_abs_error": e,
                    "mean_log_error": float(np.log2(e + 0.125)),
                }
                cells.append({**base, "short_height": s, "tall_height": t, "true_percent": 100 * s / t})
                stimuli.append({**base, "stimulus_id": f"m{ct}-{s}-{t}"})
    return pd.DataFrame(cells), pd.DataFrame(stimuli)


def test_every_mlae_row_names_its_estimator_and_published_rows_say_when_they_differ():
    rng = np.random.default_rng(1)
    sessions, trials = _cohort({f"p{i}": list(rng.normal(0, 5, 25)) for i in range(8)})
    # the default is the published rows' own estimator (pooled); the participant one is a flag away and differs
    pooled = ratio_report(sessions, trials, n_boot=200)
    assert set(pooled.tables["mlae"]["estimator"]) == {"pooled"}
    assert (pooled.tables["mlae"].query("kind == 'published'")["note"] == "").all()
    assert "estimator: pooled" in pooled.text() and "estimator: pooled" in pooled.markdown()
    assert pooled.json()["meta"]["options"]["mlae_estimator"] == "pooled"
    report = ratio_report(sessions, trials, mlae_estimator="participant", n_boot=200)
    ml = pd.DataFrame(report.json()["mlae"])
    assert set(ml.loc[ml["kind"] == "human", "estimator"]) == {"participant"}
    published = ml[ml["kind"] == "published"]
    assert set(published["estimator"]) == {"pooled"}
    assert published["note"].str.contains("published with the pooled estimator").all()
    text = report.text()
    assert "estimator: participant" in text and "pooled estimator (differs)" in text
    with pytest.raises(ValueError, match="unknown mlae_estimator 'stimulus'"):
        ratio_report(sessions, trials, mlae_estimator="stimulus")


def test_iqr_zero_and_dropped_trials_are_noted_not_silent():
    errors = {f"p{i}": [0.0] * 25 for i in range(4)}
    errors["p4"] = [0.1] * 25  # a hair above four perfect participants: the degenerate fence used to exclude it
    sessions, trials = _cohort(errors)
    trials.loc[3, ["response_percent", "abs_error", "log_error"]] = np.nan  # an answer that cannot be scored
    report = ratio_report(sessions, trials, n_boot=100)
    assert report.meta["counts"]["outliers"] == 0 and report.meta["counts"]["analysed"] == 5
    notes = " | ".join(report.meta["notes"])
    assert "outlier rule not applied: the IQR of the 5 per-participant_id mean absolute errors is 0" in notes
    assert "1 test trial(s) of completed participants dropped" in notes and "p0" in notes
    assert report.meta["counts"]["trials_used"] == 5 * 25 - 1
    assert "dropped" in report.text()


def test_single_run_model_resamples_its_stimuli_and_fisher_interval_needs_four_pairs():
    rng = np.random.default_rng(2)
    sessions, trials = _cohort({f"p{i}": list(rng.normal(0, 5, 25)) for i in range(6)})
    cells, stimuli = _model(runs=1, pairs=5, error=lambda run, k: 1.0 + k)
    with_stimuli = ratio_report(sessions, trials, cells, stimuli, mlae_estimator="participant", n_boot=200)
    model = with_stimuli.tables["mlae"].query("kind == 'model'")
    assert set(model["resampled"]) == {"stimuli"} and model["note"].str.startswith("one run: the MLAE").all()
    assert (model["ci_low"] < model["ci_high"]).all()
    without = ratio_report(sessions, trials, cells, mlae_estimator="participant", n_boot=200)
    assert without.tables["mlae"].query("kind == 'model'")["note"].str.contains("resamples").all()
    assert any("MLAE of cnn: one run" in n for n in without.meta["notes"])
    with pytest.raises(ValueError, match="pooled MLAE of cnn needs its per-stimulus errors"):
        ratio_report(sessions, trials, cells, mlae_estimator="pooled", n_boot=50)
    # humans and the model share only 5 pairs here, 3 after dropping the model's unmatched ones: no interval
    few_cells, _ = _model(runs=1, pairs=3)
    few_cells[["short_height", "tall_height"]] = [[10, 46], [12, 38], [18, 56]] * (len(few_cells) // 3)
    few = ratio_report(sessions, trials, few_cells, mlae_estimator="participant", n_boot=50)
    inter = few.tables["consistency"].query("kind == 'inter'").iloc[0]
    assert inter["n"] == 3 and np.isnan(inter["ci_low"]) and "Fisher-z interval needs n > 3" in inter["note"]
    assert any("Fisher-z interval needs n > 3" in n for n in few.meta["notes"])


def test_models_take_the_same_estimator_over_runs():
    rng = np.random.default_rng(3)
    sessions, trials = _cohort({f"p{i}": list(rng.normal(0, 5, 25)) for i in range(6)})
    cells, stimuli = _model(runs=4, error=lambda run, k: 1.0 + run + k)
    report = ratio_report(sessions, trials, cells, stimuli, mlae_estimator="participant", n_boot=300)
    model = report.tables["mlae"].query("kind == 'model'").set_index("chart_type")
    per_run = [np.log2(np.mean([1.0 + run + k for k in range(5)]) + 0.125) for run in range(4)]
    assert model.loc[1, "mlae"] == pytest.approx(np.mean(sorted(per_run)[1:3]))  # midmean of 4 runs: cut 1 each end
    assert set(model["resampled"]) == {"runs"} and (model["n_units"] == 4).all()
    assert model["note"].str.startswith("interval over 4 runs, fewer than 10").all()
    assert any("MLAE of cnn: interval over 4 runs" in n for n in report.meta["notes"])
    pooled = ratio_report(sessions, trials, cells, stimuli, mlae_estimator="pooled", n_boot=300)
    logs = sorted(np.log2(1.0 + run + k + 0.125) for run in range(4) for k in range(5))
    assert pooled.tables["mlae"].query("kind == 'model'")["mlae"].iloc[0] == pytest.approx(np.mean(logs[5:15]))


def test_methods_paragraph_states_what_was_computed():
    rng = np.random.default_rng(4)
    errors = {f"p{i}": list(rng.normal(0, 5, 25)) for i in range(9)}
    errors["wild"] = list(rng.uniform(-60, 60, 25))
    sessions, trials = _cohort(errors)
    report = ratio_report(sessions, trials, mlae_estimator="participant", n_boot=321, seed=9)
    text = report.methods()
    assert text.startswith("# Methods:")
    assert "participant estimator" in text and "Haehn" in text
    assert "1 of 10 completed participants" in text and "excluded" in text
    assert "321 resamples (seed 9)" in text and "pingouin" in text and "scipy" in text
