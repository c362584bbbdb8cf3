"""HIVE statistics (Kim et al., ECCV 2022, Sec. 5): how well people judge a model's predictions from its
explanations, per study and per condition (model prediction correct or incorrect).

Inputs are the tidy exports: ``trials`` (one row per trial: participant_id, practice, model_correct 0/1, correct
0/1, confidence, judged_correct (agreement), similarity_ratings / model_similarity (";"-separated)) and
``participants`` (one row per participant: participant_id, status, the survey columns
``hive_understanding_{1,2,3}_understanding`` and ``hive_tradeoff_{low,medium,high}_risk``).

Conventions, as in HIVE: accuracy is a percentage per participant (share of their trials answered right), then the
mean and the standard deviation **over participants** (``ddof = 1``) are reported, a one-sample t-test against
chance (25 % for four-way tasks, 50 % for binarised agreement) and two-sample t-tests between groups; significant
at p < 0.05. Agreement "accuracy" on incorrect predictions is the share judged incorrect, so the share of incorrect
predictions people believed is 100 minus it (HIVE's confirmation-bias reading of Table 1).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from ._checks import check_choice, check_frame, check_number
from .inference import one_sample_t, pearson, two_sample_t
from .published import published
from .report import _clean, _num, _p, _table

__all__ = ["HiveReport", "accuracy_summary", "condition_tests", "format_hive_markdown", "format_hive_text",
           "hive_json", "hive_report", "participant_accuracy", "similarity_correlation", "study_comparison",
           "tradeoff_summary", "understanding_summary"]

DDOF = 1
#: task type → (HIVE's name of the task in published_results.csv, chance accuracy in percent)
TASKS = {"hive-agreement": ("agreement", 50.0), "hive-distinction": ("distinction", 25.0),
         "hive-output-prediction": ("output prediction", 25.0), "hive-prototree": ("distinction", 25.0)}
METHOD_NAMES = {"gradcam": "GradCAM", "bagnet": "BagNet", "protopnet": "ProtoPNet", "prototree": "ProtoTree"}
CONDITIONS = ("correct", "incorrect", "all")
UNDERSTANDING = ("hive_understanding_1_understanding", "hive_understanding_2_understanding",
                 "hive_understanding_3_understanding")
UNDERSTANDING_POINTS = ("after preview", "after task", "after score")
RISKS = ("low", "medium", "high")
TRADEOFF_REFERENCE = 60.0  # the explained model's accuracy stated in the hive_tradeoff survey (server/surveys.py)

ACCURACY_COLUMNS = ["condition", "n", "mean", "sd", "t", "dof", "p_val", "ci_low", "ci_high", "cohen_d", "chance",
                    "significant", "mean_confidence", "judged_correct_percent", "judged_correct_sd"]


def participant_accuracy(trials: pd.DataFrame, participant: str = "participant_id", condition: str = "model_correct",
                         correct: str = "correct", confidence: str = "confidence") -> pd.DataFrame:
    """Per participant and condition: accuracy (percent of trials answered right) and mean confidence.

    .. math:: \\text{accuracy}_{p,c} = 100 \\cdot \\frac{1}{n_{p,c}} \\sum_{i \\in p,c} \\text{correct}_i

    Parameters
    ----------
    trials : pandas.DataFrame
        One row per test trial. ``condition`` is 1 when the model's prediction was correct, else 0.
        A ``judged_correct`` column (agreement task), when present, is averaged the same way.
    participant, condition, correct, confidence : str
        Column names.

    Returns
    -------
    pandas.DataFrame
        ``participant_id``, ``condition`` ("correct", "incorrect", "all"), ``n_trials``, ``accuracy``,
        ``mean_confidence``, ``judged_correct_percent`` (NaN without a judged_correct column).
    """
    check_frame(trials, numeric=[condition, correct], keys=participant, where="participant_accuracy")
    df = trials.assign(_cond=np.where(trials[condition].astype(float) > 0, "correct", "incorrect"))
    has_conf = confidence in df.columns
    has_judged = "judged_correct" in df.columns and df["judged_correct"].notna().any()
    rows = []
    for (pid, cond), sub in _groups(df, participant):
        rows.append({"participant_id": pid, "condition": cond, "n_trials": len(sub),
                     "accuracy": 100.0 * sub[correct].astype(float).mean(),
                     "mean_confidence": pd.to_numeric(sub[confidence], errors="coerce").mean() if has_conf else np.nan,
                     "judged_correct_percent": (100.0 * pd.to_numeric(sub["judged_correct"], errors="coerce").mean()
                                                if has_judged else np.nan)})
    return pd.DataFrame(rows, columns=["participant_id", "condition", "n_trials", "accuracy", "mean_confidence",
                                       "judged_correct_percent"])


def _groups(df: pd.DataFrame, participant: str):
    for (pid, cond), sub in df.groupby([participant, "_cond"]):
        yield (pid, cond), sub
    for pid, sub in df.groupby(participant):
        yield (pid, "all"), sub


def accuracy_summary(per_participant: pd.DataFrame, chance: float) -> pd.DataFrame:
    """Per condition: mean accuracy ± SD over participants (ddof = 1) and a one-sample t-test against chance.

    .. math:: t = \\frac{\\bar a - \\text{chance}}{s_a / \\sqrt n}, \\qquad
              s_a^2 = \\frac{1}{n-1}\\sum (a_p - \\bar a)^2

    Parameters
    ----------
    per_participant : pandas.DataFrame
        Output of :func:`participant_accuracy`.
    chance : float
        Chance accuracy in percent (25 for four-way tasks, 50 for agreement).

    Returns
    -------
    pandas.DataFrame
        One row per condition present (correct, incorrect, all): ``n``, ``mean``, ``sd``, ``t``, ``dof``,
        ``p_val``, ``ci_low``/``ci_high`` (95 % interval of the mean), ``cohen_d``, ``chance``, ``significant``
        (p < 0.05), ``mean_confidence``, ``judged_correct_percent`` and ``judged_correct_sd`` (agreement).
        With fewer than two participants the test columns are NaN.
    """
    check_frame(per_participant, numeric="accuracy", keys=["participant_id", "condition"], where="accuracy_summary")
    chance = check_number(chance, "chance", minimum=0, where="accuracy_summary")
    rows = []
    for cond in CONDITIONS:
        sub = per_participant[per_participant["condition"] == cond]
        if sub.empty:
            continue
        acc = sub["accuracy"].to_numpy(float)
        row = {"condition": cond, "n": len(acc), "mean": acc.mean(), "sd": acc.std(ddof=DDOF) if len(acc) > 1
               else np.nan, "chance": chance, "mean_confidence": sub["mean_confidence"].mean(),
               "judged_correct_percent": sub["judged_correct_percent"].mean(),
               "judged_correct_sd": sub["judged_correct_percent"].std(ddof=DDOF)}
        if len(acc) > 1 and acc.std() > 0:
            test = one_sample_t(acc, mu=chance).iloc[0]
            row.update({k: test[k] for k in ("t", "dof", "p_val", "ci_low", "ci_high", "cohen_d")})
        row["significant"] = bool(row.get("p_val", np.nan) < 0.05)
        rows.append(row)
    return pd.DataFrame(rows, columns=ACCURACY_COLUMNS)


def condition_tests(per_participant: pd.DataFrame) -> pd.DataFrame:
    """Accuracy on correct against incorrect model predictions: HIVE's two-sample t-test (Welch) and, since every
    participant saw both conditions, the paired t-test of their within-person differences.

    .. math:: t_{\\text{Welch}} = \\frac{\\bar a_c - \\bar a_i}{\\sqrt{s_c^2/n_c + s_i^2/n_i}}, \\qquad
              t_{\\text{paired}} = \\frac{\\bar d}{s_d/\\sqrt n},\\; d_p = a_{p,c} - a_{p,i}

    Parameters
    ----------
    per_participant : pandas.DataFrame
        Output of :func:`participant_accuracy`.

    Returns
    -------
    pandas.DataFrame
        Rows ``test`` = "welch" and "paired" with ``t``, ``dof``, ``p_val``, ``estimate`` (correct − incorrect,
        points), ``ci_low``, ``ci_high``, ``cohen_d``, ``n``; empty when a condition has fewer than 2 participants.
    """
    check_frame(per_participant, numeric="accuracy", keys=["participant_id", "condition"], where="condition_tests")
    wide = per_participant.pivot(index="participant_id", columns="condition", values="accuracy")
    if not {"correct", "incorrect"} <= set(wide.columns):
        return pd.DataFrame(columns=["test", "t", "dof", "p_val", "estimate", "ci_low", "ci_high", "cohen_d", "n"])
    a, b = wide["correct"].dropna(), wide["incorrect"].dropna()
    out = []
    if len(a) > 1 and len(b) > 1 and (a.std() > 0 or b.std() > 0):
        out.append(two_sample_t(a, b).assign(test="welch"))
    both = wide[["correct", "incorrect"]].dropna()
    if len(both) > 1 and (both["correct"] - both["incorrect"]).std() > 0:
        out.append(two_sample_t(both["correct"], both["incorrect"], paired=True).assign(test="paired"))
    cols = ["test", "t", "dof", "p_val", "estimate", "ci_low", "ci_high", "cohen_d", "n"]
    return pd.concat(out, ignore_index=True)[cols] if out else pd.DataFrame(columns=cols)


def study_comparison(a: pd.DataFrame, b: pd.DataFrame, condition: str = "all") -> pd.DataFrame:
    """Two-sample (Welch) t-test of participants' accuracy between two studies (e.g. two methods), as HIVE's
    cross-method comparisons (formula in :func:`analysis.inference.two_sample_t`).

    Parameters
    ----------
    a, b : pandas.DataFrame
        :func:`participant_accuracy` outputs of the two studies.
    condition : str, default "all"
        "correct", "incorrect" or "all".

    Returns
    -------
    pandas.DataFrame
        One row: ``t``, ``dof``, ``p_val``, ``estimate`` (mean a − mean b, points), ``ci_low``, ``ci_high``,
        ``cohen_d``, ``n``, ``condition``.
    """
    check_frame(a, numeric="accuracy", keys="condition", where="study_comparison")
    check_frame(b, numeric="accuracy", keys="condition", where="study_comparison")
    check_choice(condition, CONDITIONS, "condition", where="study_comparison")
    x = a.loc[a["condition"] == condition, "accuracy"]
    y = b.loc[b["condition"] == condition, "accuracy"]
    return two_sample_t(x, y).assign(condition=condition)


def _ratings(trials: pd.DataFrame) -> pd.DataFrame:
    """One row per rated prototype match: the participant's rating and the model's score."""
    rows = []
    for r in trials.itertuples(index=False):
        human, model = getattr(r, "similarity_ratings"), getattr(r, "model_similarity")
        if not isinstance(human, str) or not isinstance(model, str) or not human or not model:
            continue
        hs, ms = human.split(";"), model.split(";")
        rows += [{"participant_id": r.participant_id, "human": float(h), "model": float(m)} for h, m in zip(hs, ms)]
    return pd.DataFrame(rows, columns=["participant_id", "human", "model"])


def similarity_correlation(trials: pd.DataFrame) -> pd.DataFrame:
    """Pearson and Spearman correlation between people's similarity ratings (1–4) of prototype–region matches and
    the model's similarity scores for the same matches (HIVE Sec. 5.4), over all rated matches.

    Pearson: :func:`analysis.inference.pearson` (Fisher-z interval). Spearman: Pearson's r of the ranks (average
    ranks for ties), p from the t distribution with n − 2 dof (``scipy.stats.spearmanr``).

    Parameters
    ----------
    trials : pandas.DataFrame
        Trials with ``participant_id``, ``similarity_ratings`` and ``model_similarity`` (";"-separated, in match
        order; empty where nothing was rated).

    Returns
    -------
    pandas.DataFrame
        Rows ``method`` = "pearson", "spearman": ``r``, ``p_val``, ``n``, ``ci_low``, ``ci_high`` (Pearson only);
        empty when fewer than 3 matches were rated or either side is constant.
    """
    cols = ["method", "r", "p_val", "n", "ci_low", "ci_high"]
    check_frame(trials, keys="participant_id", where="similarity_correlation")
    if "similarity_ratings" not in trials.columns or "model_similarity" not in trials.columns:
        return pd.DataFrame(columns=cols)
    pairs = _ratings(trials)
    if len(pairs) < 3 or pairs["human"].nunique() < 2 or pairs["model"].nunique() < 2:
        return pd.DataFrame(columns=cols)
    p = pearson(pairs["human"], pairs["model"]).iloc[0]
    rho, p_rho = stats.spearmanr(pairs["human"], pairs["model"])
    return pd.DataFrame([{"method": "pearson", "r": p["r"], "p_val": p["p_val"], "n": len(pairs),
                          "ci_low": p["ci_low"], "ci_high": p["ci_high"]},
                         {"method": "spearman", "r": float(rho), "p_val": float(p_rho), "n": len(pairs),
                          "ci_low": np.nan, "ci_high": np.nan}], columns=cols)


def understanding_summary(participants: pd.DataFrame, columns=UNDERSTANDING) -> pd.DataFrame:
    """Self-rated understanding (1–5) after the preview, after the task and after seeing the score: mean ± SD
    (ddof = 1), and paired t-tests between the points (participants who answered both),
    :math:`t = \\bar d / (s_d / \\sqrt n)` with :math:`d = u_b - u_a`.

    Parameters
    ----------
    participants : pandas.DataFrame
        One row per participant with the understanding columns (missing answers allowed).
    columns : sequence of str
        The three understanding columns, in order (default: the hive_understanding_* survey columns).

    Returns
    -------
    pandas.DataFrame
        Rows ``kind`` = "point" (``point``, ``n``, ``mean``, ``sd``) and ``kind`` = "paired test"
        (``point`` = "a → b", ``n``, ``mean`` = mean change, ``t``, ``dof``, ``p_val``).
    """
    cols = ["kind", "point", "n", "mean", "sd", "t", "dof", "p_val"]
    check_frame(participants, keys="participant_id", where="understanding_summary")
    present = [c for c in columns if c in participants.columns]
    if not present:
        return pd.DataFrame(columns=cols)
    data = participants[present].apply(pd.to_numeric, errors="coerce")
    rows = [{"kind": "point", "point": UNDERSTANDING_POINTS[columns.index(c)], "n": int(data[c].notna().sum()),
             "mean": data[c].mean(), "sd": data[c].std(ddof=DDOF)} for c in present]
    for i, j in ((0, 1), (1, 2), (0, 2)):
        if i >= len(present) or j >= len(present):
            continue
        both = data[[present[i], present[j]]].dropna()
        diff = both[present[j]] - both[present[i]]
        row = {"kind": "paired test", "point": f"{UNDERSTANDING_POINTS[i]} → {UNDERSTANDING_POINTS[j]}",
               "n": len(both), "mean": diff.mean() if len(both) else np.nan}
        if len(both) > 1 and diff.std() > 0:
            test = two_sample_t(both[present[j]], both[present[i]], paired=True).iloc[0]
            row.update(t=test["t"], dof=test["dof"], p_val=test["p_val"])
        rows.append(row)
    return pd.DataFrame(rows, columns=cols)


def tradeoff_summary(participants: pd.DataFrame, reference: float = TRADEOFF_REFERENCE) -> pd.DataFrame:
    """Interpretability–accuracy tradeoff: the accuracy gain a model without explanations must have over the
    explained model (stated accuracy ``reference``) before a participant would use it, per risk level.

    .. math:: \\text{gain}_p = \\text{minimum accuracy}_p - \\text{reference}

    Parameters
    ----------
    participants : pandas.DataFrame
        One row per participant with ``hive_tradeoff_{low,medium,high}_risk`` (percent, 60–100).
    reference : float, default 60
        The explained model's accuracy the question states, percent.

    Returns
    -------
    pandas.DataFrame
        One row per risk level answered: ``risk``, ``n``, ``mean_minimum``, ``mean_gain``, ``sd_gain``
        (ddof = 1), ``t``, ``p_val`` (one-sample t-test of the gain against 0), ``published_gain`` (HIVE's mean).
    """
    cols = ["risk", "n", "mean_minimum", "mean_gain", "sd_gain", "t", "p_val", "published_gain"]
    check_frame(participants, keys="participant_id", where="tradeoff_summary")
    reference = check_number(reference, "reference", minimum=0, where="tradeoff_summary")
    pub = published("HIVE2022", "tradeoff").set_index("condition")["value"]
    rows = []
    for risk in RISKS:
        col = f"hive_tradeoff_{risk}_risk"
        if col not in participants.columns:
            continue
        minimum = pd.to_numeric(participants[col], errors="coerce").dropna()
        if minimum.empty:
            continue
        gain = minimum - reference
        row = {"risk": risk, "n": len(gain), "mean_minimum": minimum.mean(), "mean_gain": gain.mean(),
               "sd_gain": gain.std(ddof=DDOF), "published_gain": pub.get(f"{risk} risk", np.nan)}
        if len(gain) > 1 and gain.std() > 0:
            test = one_sample_t(gain, mu=0.0).iloc[0]
            row.update(t=test["t"], p_val=test["p_val"])
        rows.append(row)
    return pd.DataFrame(rows, columns=cols)


def _published_beside(summary: pd.DataFrame, task_type: str, method: str, dataset: str | None) -> pd.DataFrame:
    """HIVE's published mean ± SD for the same task, method and dataset, beside ours (NaN where none)."""
    out = summary.assign(published_mean=np.nan, published_sd=np.nan, published_n=pd.NA)
    if not dataset:
        return out
    table = published("HIVE2022")
    study = f"{TASKS[task_type][0]} {dataset}"
    for i, row in out.iterrows():
        hit = table[(table["study"] == study) & (table["condition"] == f"{METHOD_NAMES[method]} {row['condition']}")]
        if len(hit):
            out.loc[i, ["published_mean", "published_sd"]] = [hit["value"].iloc[0], hit["spread"].iloc[0]]
            out.loc[i, "published_n"] = hit["n"].iloc[0]
    return out


@dataclass
class HiveReport:
    meta: dict[str, Any]
    tables: dict[str, pd.DataFrame]
    notes: list[str] = field(default_factory=list)


def hive_report(participants: pd.DataFrame, trials: pd.DataFrame, task_type: str, method: str,
                dataset: str | None = None, meta: dict[str, Any] | None = None) -> HiveReport:
    """The HIVE report of one study: completed participants' test trials only.

    Parameters
    ----------
    participants : pandas.DataFrame
        participants.csv: ``participant_id``, ``status`` and the HIVE survey columns.
    trials : pandas.DataFrame
        trials.csv of the study (practice rows are dropped here).
    task_type : str
        One of :data:`TASKS`; fixes the chance level (agreement 50 %, otherwise 25 %).
    method : str
        gradcam, bagnet, protopnet or prototree.
    dataset : str, optional
        HIVE's dataset the study replicates (e.g. "CUB"); the published figures for the same task and method are
        shown beside ours. None: no published comparison.

    Returns
    -------
    HiveReport
        Tables ``accuracy``, ``per_participant``, ``conditions``, ``similarity``, ``understanding``,
        ``tradeoff``.
    """
    check_choice(task_type, TASKS, "task_type", where="hive_report")
    check_choice(method, METHOD_NAMES, "method", where="hive_report")
    check_frame(participants, keys=["participant_id", "status"], where="hive_report")
    done = participants[participants["status"] == "completed"]
    test = trials[trials["participant_id"].isin(done["participant_id"]) & ~trials["practice"].astype(bool)]
    if test.empty:
        raise ValueError("hive_report: no test trials of completed participants")
    chance = TASKS[task_type][1]
    per = participant_accuracy(test)
    accuracy = _published_beside(accuracy_summary(per, chance), task_type, method, dataset)
    notes = [f"Accuracy: percent of a participant's trials answered right; mean and SD over {len(done)} "
             f"participants (SD with ddof = {DDOF}); one-sample t-test against chance = {chance:g} %; "
             "significant at p < 0.05."]
    if task_type == "hive-agreement":
        notes.append("Agreement: a confidence of 1–2 counts as judging the prediction correct. Accuracy on "
                     "incorrect predictions is the share judged incorrect; '% judged correct' is the share believed.")
    notes.append(f"Tradeoff: required gain = the stated minimum accuracy − {TRADEOFF_REFERENCE:g} % (the explained "
                 "model's accuracy given in the question).")
    meta = {**(meta or {}), "task_type": task_type, "method": method, "dataset": dataset, "chance": chance,
            "n_participants": len(done), "n_trials": len(test), "ddof": DDOF}
    return HiveReport(meta=meta, notes=notes, tables={
        "accuracy": accuracy, "per_participant": per, "conditions": condition_tests(per),
        "similarity": similarity_correlation(test), "understanding": understanding_summary(done),
        "tradeoff": tradeoff_summary(done)})


def hive_json(report: HiveReport) -> dict[str, Any]:
    """The report as JSON-able data: meta, notes and every table as records (NaN → None)."""
    tables = {name: [_clean(r) for r in df.astype(object).to_dict("records")] for name, df in report.tables.items()}
    return {"meta": _clean(report.meta), "notes": report.notes, **tables}


def _pm(mean, sd) -> str:
    return f"{_num(mean, 1)} ± {_num(sd, 1)}"


def _sections(report: HiveReport, markdown: bool) -> list[str]:
    m = report.meta
    task = TASKS[m["task_type"]][0]
    head = (lambda s: f"## {s}") if markdown else (lambda s: f"{s}\n{'-' * len(s)}")
    out = [f"# HIVE report: {m.get('title', m.get('slug', ''))}" if markdown else
           f"HIVE report: {m.get('title', m.get('slug', ''))}",
           f"{task} task, {METHOD_NAMES[m['method']]}; {m['n_participants']} completed participants, "
           f"{m['n_trials']} test trials; chance {m['chance']:g} %.", ""]
    acc = report.tables["accuracy"]
    agreement = m["task_type"] == "hive-agreement"
    title = ("Table 1 (agreement): accuracy, mean ± SD over participants (mean confidence)" if agreement else
             f"Table 2 ({task}): accuracy, mean ± SD over participants (mean confidence)")
    out += [head(title), ""]
    rows = []
    for r in acc.itertuples(index=False):
        rows.append([r.condition, str(r.n), f"{_pm(r.mean, r.sd)} ({_num(r.mean_confidence, 2)})",
                     _num(r.t), _p(r.p_val), "yes" if r.significant else "no (italic in HIVE)",
                     _pm(r.published_mean, r.published_sd) if pd.notna(r.published_mean) else "–"])
    out += _table(["model prediction", "n", "ours", "t", "p vs chance", "significant", "HIVE 2022"], rows,
                  "lrrrrll", markdown=markdown)
    if agreement:
        rows = [[r.condition, _pm(r.judged_correct_percent, r.judged_correct_sd)]
                for r in acc.itertuples(index=False) if r.condition != "all"]
        out += ["", head("Confirmation bias: % of predictions judged correct"), ""]
        out += _table(["model prediction", "% judged correct"], rows, "lr", markdown=markdown)
    cond = report.tables["conditions"]
    if len(cond):
        out += ["", head("Correct vs incorrect predictions (accuracy difference, points)"), ""]
        out += _table(["test", "difference", "t", "dof", "p"],
                      [[r.test, _num(r.estimate, 1), _num(r.t), _num(r.dof, 1), _p(r.p_val)]
                       for r in cond.itertuples(index=False)], "lrrrr", markdown=markdown)
    sim = report.tables["similarity"]
    if len(sim):
        out += ["", head("Similarity: people's ratings vs the model's scores"), ""]
        out += _table(["correlation", "r", "p", "matches"],
                      [[r.method, _num(r.r), _p(r.p_val), str(r.n)] for r in sim.itertuples(index=False)],
                      "lrrr", markdown=markdown)
    und = report.tables["understanding"]
    if len(und):
        out += ["", head("Self-rated understanding (1–5)"), ""]
        out += _table(["", "n", "mean ± SD / change", "t", "p"],
                      [[r.point, str(r.n), _pm(r.mean, r.sd) if r.kind == "point" else _num(r.mean, 2), _num(r.t),
                        _p(r.p_val)] for r in und.itertuples(index=False)], "lrrrr", markdown=markdown)
    trade = report.tables["tradeoff"]
    if len(trade):
        out += ["", head("Interpretability–accuracy tradeoff: required accuracy gain (points)"), ""]
        out += _table(["risk", "n", "ours", "p (gain > 0)", "HIVE 2022"],
                      [[r.risk, str(r.n), _pm(r.mean_gain, r.sd_gain), _p(r.p_val), _num(r.published_gain, 1)]
                       for r in trade.itertuples(index=False)], "lrrrr", markdown=markdown)
    out += ["", head("Notes"), "", *[f"- {n}" for n in report.notes], ""]
    return out


def format_hive_text(report: HiveReport) -> str:
    return "\n".join(_sections(report, markdown=False))


def format_hive_markdown(report: HiveReport) -> str:
    return "\n".join(_sections(report, markdown=True))
