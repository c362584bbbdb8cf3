"""Issue #39 point 1: people and a model are compared on the chart types both answered, and the report names what a
comparison left out. Expected values are computed here from the definitions (numpy, scipy), not by the product."""

import math

import numpy as np
import pytest
from scipy import stats

from analysis.reports.ratio_study import ratio_report
from tests.analysis.test_analysis_report import _cohort, _model


def _error(run, k):
    return 1.0 + run + 0.5 * k


def _welch(x, y):
    """Welch's t of mean(x) − mean(y): t, Welch–Satterthwaite df, two-sided p."""
    vx, vy = np.var(x, ddof=1) / len(x), np.var(y, ddof=1) / len(y)
    t = (np.mean(x) - np.mean(y)) / math.sqrt(vx + vy)
    dof = (vx + vy) ** 2 / (vx**2 / (len(x) - 1) + vy**2 / (len(y) - 1))
    return t, dof, 2 * stats.t.sf(abs(t), dof)


def test_a_model_without_type_5_is_compared_with_people_over_types_1_to_4():
    rng = np.random.default_rng(21)
    sessions, trials = _cohort({f"p{i}": list(rng.normal(0, 5, 25)) for i in range(12)})
    cells, stimuli = _model(runs=3, error=_error)
    cells, stimuli = cells[cells["chart_type"] <= 4], stimuli[stimuli["chart_type"] <= 4]
    report = ratio_report(sessions, trials, cells, stimuli, n_boot=50)

    # per person: the mean over types 1–4 of their MAE per type; per run: the same over its predictions
    shared = trials[trials["chart_type"] <= 4]
    people = shared.groupby(["participant_id", "chart_type"])["abs_error"].mean().groupby(level=0).mean()
    runs = [np.mean([np.mean([_error(run, k) for k in range(5)]) for _ in range(1, 5)]) for run in range(3)]
    t, dof, p = _welch(runs, people.to_numpy())
    obs = report.tables["effects"].query("effect == 'observer'").iloc[0]
    assert obs["test"] == "Welch t-test"
    assert obs["estimate"] == pytest.approx(np.mean(runs) - people.mean(), rel=1e-9)
    assert obs["statistic"] == pytest.approx(t, rel=1e-9) and obs["df1"] == pytest.approx(dof, rel=1e-9)
    assert obs["p_val"] == pytest.approx(p, rel=1e-8)
    left_out = "compared over chart types 1, 2, 3, 4, the ones both answered; left out: type 5 (cnn has no predictions"
    assert left_out in obs["note"]
    for text in (report.text(), report.markdown()):
        assert "† cnn: 3 run(s) vs 12 participant(s)" in text and left_out in text

    # MAE: the model's row over the types it answered, people's over the same types beside it
    mae = report.tables["mae"].set_index(["label", "chart_type"])
    assert mae.loc[("humans", "types 1, 2, 3, 4"), "mae_pp"] == pytest.approx(shared["abs_error"].mean(), rel=1e-12)
    assert mae.loc[("humans", "types 1, 2, 3, 4"), "n_judgments"] == len(shared)
    assert mae.loc[("humans", "all"), "mae_pp"] == pytest.approx(trials["abs_error"].mean(), rel=1e-12)
    model_all = mae.loc[("cnn", "all")]
    assert model_all["mae_pp"] == pytest.approx(np.mean([_error(r, k) for r in range(3) for k in range(5)]))
    assert "left out: type 5 (cnn has no predictions for it)" in model_all["note"]
    text = report.text()
    assert text.index("  cnn †") < text.index("  humans (types 1, 2, 3, 4) †") < text.index("Jiang et al. 2025")
    assert "– cnn: no predictions for chart type 5" in text


def test_a_chart_type_no_person_answered_is_a_dash_with_a_note():
    rng = np.random.default_rng(22)
    sessions, trials = _cohort({f"p{i}": list(rng.normal(0, 5, 25)) for i in range(12)})
    trials = trials[trials["chart_type"] != 5]
    cells, stimuli = _model(runs=3, error=_error)
    report = ratio_report(sessions, trials, cells, stimuli, n_boot=50)
    for text in (report.text(), report.markdown()):
        assert "– humans: no person answered chart type 5" in text
        assert "left out: type 5 (no person answered it)" in text
    people = trials.groupby(["participant_id", "chart_type"])["abs_error"].mean().groupby(level=0).mean()
    runs = [np.mean([_error(run, k) for k in range(5)]) for run in range(3)]  # every type errs alike
    obs = report.tables["effects"].query("effect == 'observer'").iloc[0]
    assert obs["statistic"] == pytest.approx(_welch(runs, people.to_numpy())[0], rel=1e-9)
    mae = report.tables["mae"].set_index(["label", "chart_type"])
    model_4 = cells[cells["chart_type"] <= 4]
    assert mae.loc[("cnn", "types 1, 2, 3, 4"), "mae_pp"] == pytest.approx(model_4["mean_abs_error"].mean())
    assert mae.loc[("cnn", "types 1, 2, 3, 4"), "n_judgments"] == len(model_4)


def test_models_answering_every_type_people_answered_get_no_extra_rows_or_notes():
    rng = np.random.default_rng(23)
    sessions, trials = _cohort({f"p{i}": list(rng.normal(0, 5, 25)) for i in range(12)})
    report = ratio_report(sessions, trials, *_model(runs=3, error=_error), n_boot=50)
    assert set(report.tables["mae"]["chart_type"]) == {"all", "1", "2", "3", "4", "5"}
    assert "left out" not in report.text() and "no person answered" not in report.text()
