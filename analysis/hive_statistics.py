"""HIVE statistics (Kim et al., ECCV 2022, Sec. 5): how well people judge a model's predictions from its
explanations, per study and per condition (model prediction correct or incorrect).

Inputs are the tidy exports: ``trials`` (one row per trial: participant_id, stimulus_id, practice, model_correct
0/1, correct 0/1, confidence, judged_correct (agreement), similarity_ratings / model_similarity (";"-separated))
and ``participants`` (one row per participant: participant_id, status, the survey columns
``hive_understanding_{1,2,3}_understanding`` and ``hive_tradeoff_{low,medium,high}_risk``).

Conventions, as in HIVE: accuracy is a percentage per participant (share of their trials answered right), then the
mean and the standard deviation **over participants** (``ddof = 1``) are reported, a one-sample t-test against
chance (25 % for four-way tasks, 50 % for binarised agreement) and two-sample t-tests between groups; significant
at p < 0.05. The sidedness of the test against chance follows HIVE's tables: Table 2 (distinction, output
prediction) marks the methods that "do not statistically significantly **outperform** 25 % random chance", a
one-sided test (H1: mean > chance); Table 1 (agreement) marks accuracies "not statistically significantly
**different** from 50 %", a two-sided one (HIVE's ProtoTree agreement p-values, 0.10 for 53.6 ± 15.2 and 0.33 for
52.8 ± 19.9 with n = 50, are two-sided). Agreement "accuracy" on incorrect predictions is the share judged
incorrect, so the share of incorrect predictions people believed is 100 minus it (HIVE's confirmation-bias reading
of Table 1).

Similarity ratings (Sec. 5.4) are correlated with the model's scores **one value per prototype match**: each
match's mean rating over the participants who rated it against the model's score for it. HIVE's p-values
(ρ = −0.25, p = 0.49; ρ = −0.52, p = 0.12) are those of n = 10 such values; pooling every individual rating would
count each participant's rating of the same match as a new observation and shrink p without new evidence.
HIVE's coefficient is Spearman's ρ for ProtoPNet ("whose similarity scores are not normalized across images") and
Pearson's r for ProtoTree.

Every statistic that cannot be computed keeps its row, with a ``note`` saying why (too few participants, no
variance, ratings that do not match the model's scores), and the report's notes count what was left out. The
report itself (:func:`analysis.reports.hive_study.hive_report`) and its renderings are in :mod:`analysis.reports`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._checks import check_choice, check_frame, check_number
from .inference import one_sample_t, pearson, two_sample_t
from .published import published
from .rank_correlation import spearman

__all__ = [
    "HiveTask",
    "accuracy_summary",
    "agreement_confidence",
    "condition_tests",
    "match_similarity",
    "participant_accuracy",
    "similarity_correlation",
    "study_comparison",
    "tradeoff_summary",
    "understanding_summary",
]

DDOF = 1
ALPHA = 0.05
CONFIDENCE = 0.95


@dataclass(frozen=True)
class HiveTask:
    """One of HIVE's tasks as its statistics take it; the task types that run it say which (their package builds
    these), so the statistics know no task type.

    Attributes
    ----------
    name : str
        HIVE's name of the task, as published_results.csv's ``study`` starts with it and the report words it:
        "agreement", "distinction" or "output prediction".
    chance : float
        Chance accuracy in percent (25 for a pick among four, 50 for binarised agreement).
    alternative : str
        The test against chance: "greater" where HIVE asks whether people outperform chance (Table 2),
        "two-sided" where it asks whether they differ from it (Table 1).
    """

    name: str
    chance: float
    alternative: str

    @property
    def agreement(self) -> bool:
        """HIVE's agreement task (Table 1): a confidence that the prediction is correct, reversed on the page."""
        return self.name == "agreement"


def check_task(task, where: str) -> None:
    """A ValueError naming ``where`` unless ``task`` is a :class:`HiveTask` (a task type id is not one)."""
    if not isinstance(task, HiveTask):
        raise ValueError(f"{where}: task must be a HiveTask (HIVE's task, chance and test), not {task!r}")


METHOD_NAMES = {"gradcam": "GradCAM", "bagnet": "BagNet", "protopnet": "ProtoPNet", "prototree": "ProtoTree"}
#: explanation method → HIVE's correlation coefficient between similarity ratings and model scores (Sec. 5.4)
SIMILARITY_COEFFICIENT = {"protopnet": "spearman", "prototree": "pearson"}
COEFFICIENT_NAMES = {"spearman": "Spearman's rho", "pearson": "Pearson's r"}
CONDITIONS = ("correct", "incorrect", "all")
#: an accuracy's scale, percent: the interval of a mean accuracy is clipped to it
ACCURACY_RANGE = (0.0, 100.0)
#: alternative of the test against chance → the interval reported with it
CI_KINDS = {
    "greater": "one-sided 95 % lower bound (t), clipped to [0, 100]",
    "two-sided": "two-sided 95 % t interval, clipped to [0, 100]",
}
UNDERSTANDING = (
    "hive_understanding_1_understanding",
    "hive_understanding_2_understanding",
    "hive_understanding_3_understanding",
)
UNDERSTANDING_POINTS = ("after preview", "after task", "after score")
RISKS = ("low", "medium", "high")
#: the agreement scale's lowest plus highest point (1 + 4): reversing a 1–4 answer c gives 5 − c
AGREEMENT_SCALE_SUM = 5
#: the explained model's accuracy the hive_tradeoff survey states (server/studies/surveys.py): this product's choice,
#: HIVE's text gives none
TRADEOFF_REFERENCE = 60.0
#: participants.csv's column of the hive_tradeoff form an answer was given under (server/studies/surveys.py
#: `revisions`), and the first form whose accuracies accept 0–100: form 1 accepted only TRADEOFF_REFERENCE–100
TRADEOFF_REVISION = "hive_tradeoff_revision"
TRADEOFF_OPEN_FORM = 2

ACCURACY_COLUMNS = [
    "condition",
    "n",
    "mean",
    "sd",
    "ci_low",
    "ci_high",
    "chance",
    "alternative",
    "ci_kind",
    "ci_clipped",
    "t",
    "dof",
    "p_val",
    "cohen_d",
    "significant",
    "verdict",
    "note",
    "mean_confidence",
    "judged_correct_percent",
    "judged_correct_sd",
]
CONDITION_COLUMNS = ["test", "t", "dof", "p_val", "estimate", "ci_low", "ci_high", "cohen_d", "n", "note"]
SIMILARITY_COLUMNS = [
    "method",
    "hive_choice",
    "unit",
    "r",
    "p_val",
    "p_method",
    "n",
    "ci_low",
    "ci_high",
    "n_ratings",
    "n_participants",
    "note",
]
UNDERSTANDING_COLUMNS = ["kind", "point", "n", "mean", "sd", "t", "dof", "p_val", "note"]
TRADEOFF_COLUMNS = [
    "risk",
    "n",
    "mean_minimum",
    "mean_gain",
    "sd_gain",
    "n_below",
    "n_equal",
    "n_above",
    "t",
    "p_val",
    "published_gain",
    "note",
]


def participant_accuracy(
    trials: pd.DataFrame,
    participant: str = "participant_id",
    condition: str = "model_correct",
    correct: str = "correct",
    confidence: str = "confidence",
) -> pd.DataFrame:
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
        rows.append(
            {
                "participant_id": pid,
                "condition": cond,
                "n_trials": len(sub),
                "accuracy": 100.0 * sub[correct].astype(float).sum() / len(sub),  # exact ties: 1/3 = 2/6
                "mean_confidence": pd.to_numeric(sub[confidence], errors="coerce").mean() if has_conf else np.nan,
                "judged_correct_percent": (
                    100.0 * pd.to_numeric(sub["judged_correct"], errors="coerce").mean() if has_judged else np.nan
                ),
            }
        )
    return pd.DataFrame(
        rows,
        columns=["participant_id", "condition", "n_trials", "accuracy", "mean_confidence", "judged_correct_percent"],
    )


def agreement_confidence(stored) -> pd.Series:
    """The agreement task's confidence on HIVE's orientation: higher = more confident the prediction is correct.

    The page stores the answer as the position of the option it showed, 1 "fairly confident the prediction is
    correct" … 4 "fairly confident it is incorrect" (trials.csv ``confidence``; the codebook says so, and stored data
    keep that coding). HIVE's Table 1 reports the mean confidence the other way round: 72.4 % of correct predictions
    judged correct with a mean confidence of 2.9 is possible only if "correct" answers are the high ones (on the
    stored coding every "correct" judgement is 1 or 2, so the mean could not exceed 0.724 · 2 + 0.276 · 4 = 2.55).

    .. math:: c_{\\text{HIVE}} = 5 - c_{\\text{stored}}

    Parameters
    ----------
    stored : array-like
        Stored agreement confidences, 1–4 (non-numbers become NaN).

    Returns
    -------
    pandas.Series
        4 fairly confident correct, 3 somewhat confident correct, 2 somewhat confident incorrect, 1 fairly confident
        incorrect.
    """
    return AGREEMENT_SCALE_SUM - pd.to_numeric(pd.Series(stored), errors="coerce")


def _groups(df: pd.DataFrame, participant: str):
    for (pid, cond), sub in df.groupby([participant, "_cond"]):
        yield (pid, cond), sub
    for pid, sub in df.groupby(participant):
        yield (pid, "all"), sub


def _pct(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _verdict(acc: np.ndarray, chance: float, alternative: str, p_val: float) -> tuple[bool | None, str, str]:
    """(significant, verdict, note) of a test of participants' accuracies ``acc`` against ``chance``: said in words,
    including the cases the t-test cannot decide (fewer than 2 participants; no variance, where t is undefined)."""
    n, mean = acc.size, float(acc.mean())
    side = "above" if mean > chance else "below" if mean < chance else "at"
    if n < 2:
        return None, "not tested", f"{n} participant: a t-test needs at least 2"
    if acc.std() == 0:
        return (
            None,
            f"{side} chance; t undefined",
            f"all {n} participants at {_pct(mean)} %: no variance, so t is undefined; every participant is "
            f"{side} chance ({_pct(chance)} %)",
        )
    significant = bool(p_val < ALPHA)
    if alternative == "greater":  # the verdict says what the one-sided test shows, and nothing about "below"
        if significant:
            return True, "above chance", ""
        note = (
            f"mean {_pct(mean)} % is below chance ({_pct(chance)} %); the one-sided test asks only whether "
            "participants are above chance"
            if mean < chance
            else ""
        )
        return False, "not above chance", note
    if significant:
        return True, f"{side} chance", ""
    return False, "not different from chance", ""


def accuracy_summary(per_participant: pd.DataFrame, chance: float, alternative: str = "greater") -> pd.DataFrame:
    """Per condition: mean accuracy ± SD over participants (ddof = 1) and a one-sample t-test against chance.

    .. math:: t = \\frac{\\bar a - \\text{chance}}{s_a / \\sqrt n}, \\qquad
              s_a^2 = \\frac{1}{n-1}\\sum (a_p - \\bar a)^2, \\qquad \\text{dof} = n - 1

    ``alternative = "greater"`` (HIVE's Table 2: do participants *outperform* chance?) gives
    :math:`p = P(T_{n-1} \\ge t)`; ``"two-sided"`` (Table 1: do they *differ* from chance?)
    :math:`p = 2\\,P(T_{n-1} \\ge |t|)`. The interval matches the test, so that it excludes chance exactly when
    p < 0.05: a one-sided test gets the one-sided 95 % lower bound :math:`[\\bar a - t_{0.95,\\,n-1}\\,
    s_a/\\sqrt n,\\ 100]`, a two-sided one the t interval :math:`\\bar a \\pm t_{0.975,\\,n-1}\\, s_a/\\sqrt n`. An
    accuracy lies in [0, 100], so both are clipped to it (``ci_clipped`` says when that moved a bound: with few or
    very spread participants the t interval reaches past the scale, e.g. [−76.8, 210.1] for 0, 100, 100 %).

    Parameters
    ----------
    per_participant : pandas.DataFrame
        Output of :func:`participant_accuracy`.
    chance : float
        Chance accuracy in percent (25 for four-way tasks, 50 for agreement).
    alternative : {"greater", "two-sided"}, default "greater"
        The alternative hypothesis about the mean accuracy relative to chance.

    Returns
    -------
    pandas.DataFrame
        One row per condition present (correct, incorrect, all): ``n``, ``mean``, ``sd``, ``ci_low``/``ci_high``
        (the 95 % interval of the mean that matches the test, clipped to [0, 100]), ``chance``, ``alternative``,
        ``ci_kind`` (:data:`CI_KINDS`: which interval it is, in words), ``ci_clipped`` (True when clipping moved a
        bound), ``t``, ``dof``, ``p_val``, ``cohen_d``, ``significant`` (p < 0.05;
        None when the test is undefined), ``verdict`` (what the test shows, in words: one-sided "above chance" /
        "not above chance", two-sided "above chance" / "below chance" / "not different from chance", "above
        chance; t undefined", …), ``note`` (why a value is missing or what the verdict
        rests on; "" otherwise), ``mean_confidence``, ``judged_correct_percent`` and ``judged_correct_sd``
        (agreement).
    """
    check_frame(per_participant, numeric="accuracy", keys=["participant_id", "condition"], where="accuracy_summary")
    chance = check_number(chance, "chance", minimum=0, where="accuracy_summary")
    check_choice(alternative, ("greater", "two-sided"), "alternative", where="accuracy_summary")
    rows = []
    for cond in CONDITIONS:
        sub = per_participant[per_participant["condition"] == cond]
        if sub.empty:
            continue
        acc = sub["accuracy"].to_numpy(float)
        row = {
            "condition": cond,
            "n": len(acc),
            "mean": acc.mean(),
            "sd": acc.std(ddof=DDOF) if len(acc) > 1 else np.nan,
            "chance": chance,
            "alternative": alternative,
            "mean_confidence": sub["mean_confidence"].mean(),
            "judged_correct_percent": sub["judged_correct_percent"].mean(),
            "judged_correct_sd": sub["judged_correct_percent"].std(ddof=DDOF),
        }
        if len(acc) > 1 and acc.std() > 0:
            test = one_sample_t(acc, mu=chance, alternative=alternative).iloc[0]
            row.update({k: test[k] for k in ("t", "dof", "p_val", "cohen_d")})
            low, high = float(test["ci_low"]), float(test["ci_high"])
            if alternative == "greater":
                high = ACCURACY_RANGE[1]  # the one-sided interval [low, ∞) ends at the scale's top, not clipped
            bottom, top = ACCURACY_RANGE
            row.update(
                ci_low=max(low, bottom),
                ci_high=min(high, top),
                ci_kind=CI_KINDS[alternative],
                ci_clipped=bool(low < bottom or high > top),
            )
        row["significant"], row["verdict"], row["note"] = _verdict(acc, chance, alternative, row.get("p_val", np.nan))
        rows.append(row)
    return pd.DataFrame(rows, columns=ACCURACY_COLUMNS)


def _t_note(diff: pd.Series, what: str) -> str:
    """Why a paired or one-sample t-test of ``diff`` was not run ("" when it can be)."""
    if len(diff) < 2:
        return f"{len(diff)} {what}: a t-test needs at least 2"
    if diff.std() == 0:
        return f"all {len(diff)} {what} equal ({diff.iloc[0]:+.1f}): no variance, so t is undefined"
    return ""


def condition_tests(per_participant: pd.DataFrame) -> pd.DataFrame:
    """Accuracy on correct against incorrect model predictions: HIVE's two-sample t-test (Welch) and, since every
    participant saw both conditions, the paired t-test of their within-person differences (both two-sided).

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
        points), ``ci_low``, ``ci_high``, ``cohen_d``, ``n``, ``note``. A test that cannot be run (a condition
        with fewer than 2 participants, no variance) keeps its row with NaN statistics and the reason in ``note``.
    """
    check_frame(per_participant, numeric="accuracy", keys=["participant_id", "condition"], where="condition_tests")
    wide = per_participant.pivot(index="participant_id", columns="condition", values="accuracy")
    missing = [c for c in ("correct", "incorrect") if c not in wide.columns]
    if missing:
        note = f"no trials on {' or '.join(missing)} model predictions: nothing to compare"
        return pd.DataFrame(
            [{"test": t, "n": 0, "note": note} for t in ("welch", "paired")], columns=CONDITION_COLUMNS
        ).astype({"n": "int64"})
    a, b = wide["correct"].dropna(), wide["incorrect"].dropna()
    out = []
    if len(a) < 2 or len(b) < 2:
        welch = {
            "note": f"{len(a)} participant(s) with correct and {len(b)} with incorrect predictions: "
            "a two-sample t-test needs at least 2 per group"
        }
    elif a.std() == 0 and b.std() == 0:
        welch = {
            "note": f"no variance in either group (all at {_pct(a.iloc[0])} % and {_pct(b.iloc[0])} %): t is undefined"
        }
    else:
        welch = {**two_sample_t(a, b).iloc[0].to_dict(), "note": ""}
    out.append({"test": "welch", **welch, "n": len(a) + len(b)})
    both = wide[["correct", "incorrect"]].dropna()
    diff = both["correct"] - both["incorrect"]
    note = _t_note(diff, "participants' differences (correct − incorrect)")
    paired = (
        {**two_sample_t(both["correct"], both["incorrect"], paired=True).iloc[0].to_dict(), "note": ""}
        if not note
        else {"note": note}
    )
    out.append({"test": "paired", **paired, "n": len(both)})
    return pd.DataFrame(out, columns=CONDITION_COLUMNS).astype({"n": "int64"})


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


def _split(text) -> list[float] | None:
    if not isinstance(text, str) or not text.strip():
        return None
    return [float(v) for v in text.split(";")]


def match_similarity(trials: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, int]]:
    """Per prototype match (an image's ``stimulus_id`` and the match's position in its explanation): the mean of
    people's similarity ratings (1–4) over the participants who rated it, and the model's similarity score.

    .. math:: \\bar h_m = \\frac{1}{n_m} \\sum_{p \\in P_m} h_{p,m}

    Parameters
    ----------
    trials : pandas.DataFrame
        Trials with ``participant_id``, ``stimulus_id``, ``similarity_ratings`` and ``model_similarity``
        (";"-separated, in match order; empty where nothing was rated).

    Returns
    -------
    (pandas.DataFrame, dict)
        One row per match: ``stimulus_id``, ``match`` (1, 2, …), ``human`` (mean rating), ``model`` (the model's
        score; the mean if an image was re-imported with other scores), ``n_ratings``; and counts:
        ``trials_rated`` (trials with ratings), ``trials_mismatched`` (left out: their number of ratings differs from
        the number of model scores, or the model gave none), ``ratings`` (ratings used), ``participants``.
    """
    check_frame(trials, keys=["participant_id", "stimulus_id"], where="match_similarity")
    rows, rated, mismatched = [], 0, 0
    for pid, key, human, model in zip(
        trials["participant_id"], trials["stimulus_id"], trials["similarity_ratings"], trials["model_similarity"]
    ):
        hs, ms = _split(human), _split(model)
        if hs is None:
            continue
        rated += 1
        if ms is None or len(hs) != len(ms):
            mismatched += 1
            continue
        rows += [(pid, key, m, h, s) for m, (h, s) in enumerate(zip(hs, ms), 1)]
    pairs = pd.DataFrame(rows, columns=["participant_id", "stimulus_id", "match", "human", "model"])
    per = pairs.groupby(["stimulus_id", "match"], as_index=False).agg(
        human=("human", "mean"), model=("model", "mean"), n_ratings=("human", "size")
    )
    counts = {
        "trials_rated": rated,
        "trials_mismatched": mismatched,
        "ratings": len(pairs),
        "participants": int(pairs["participant_id"].nunique()),
    }
    return per, counts


def similarity_correlation(trials: pd.DataFrame, method: str | None = None) -> pd.DataFrame:
    """Correlation between people's similarity ratings of prototype–region matches and the model's similarity
    scores (HIVE Sec. 5.4), **one value per match**: each match's mean rating (:func:`match_similarity`) against the
    model's score, so n is the number of matches, not of ratings.

    Spearman's ρ is Pearson's r of the ranks (average ranks for ties), :func:`analysis.rank_correlation.spearman`:
    below 10 matches its two-sided p is exact (the share of all n! pairings at least as extreme; the t approximation
    gives p = 0 for ρ = 1 at n = 3, where the exact p is 1/3), from 10 on it is the t approximation HIVE's p-values
    agree with (ρ = −0.25, p = 0.49 and ρ = −0.52, p = 0.12 are n = 10). Pearson's r is
    :func:`analysis.inference.pearson`, tested two-sided with :math:`t = r\\sqrt{(n-2)/(1-r^2)}`, n − 2 dof. It has a
    Fisher-z 95 % interval :math:`\\tanh(\\operatorname{artanh} r \\pm 1.96/\\sqrt{n-3})`; ρ has none (HIVE
    reports ρ and p).

    Parameters
    ----------
    trials : pandas.DataFrame
        Trials with ``participant_id``, ``stimulus_id``, ``similarity_ratings`` and ``model_similarity``.
    method : str, optional
        The explanation method (protopnet, prototree, …): its HIVE coefficient (Spearman for ProtoPNet, Pearson
        for ProtoTree) is marked ``hive_choice`` and listed first.

    Returns
    -------
    pandas.DataFrame
        Rows ``method`` = "spearman" and "pearson": ``hive_choice`` (HIVE's coefficient for this explanation method),
        ``unit`` ("match"), ``r``, ``p_val``, ``p_method`` (exact or t), ``n`` (matches), ``ci_low``, ``ci_high``,
        ``n_ratings`` (ratings averaged), ``n_participants``, ``note`` (why r is missing: fewer than 3 matches,
        constant means; or why there is no interval). Empty when nothing was rated.
    """
    check_frame(trials, keys="participant_id", where="similarity_correlation")
    if "similarity_ratings" not in trials.columns or "model_similarity" not in trials.columns:
        return pd.DataFrame(columns=SIMILARITY_COLUMNS)
    per, counts = match_similarity(trials)
    if counts["trials_rated"] == 0:
        return pd.DataFrame(columns=SIMILARITY_COLUMNS)
    chosen = SIMILARITY_COEFFICIENT.get(method or "")
    order = [chosen, *(c for c in ("spearman", "pearson") if c != chosen)] if chosen else ["spearman", "pearson"]
    base = {"unit": "match", "n": len(per), "n_ratings": counts["ratings"], "n_participants": counts["participants"]}
    if len(per) < 3:
        why = f"{len(per)} match(es) rated: a correlation needs at least 3"
    elif per["human"].nunique() < 2:
        why = f"every match has the same mean rating ({per['human'].iloc[0]:.2f}): the correlation is undefined"
    elif per["model"].nunique() < 2:
        why = "the model gives every match the same score: the correlation is undefined"
    else:
        why = ""
    rows = []
    for coef in order:
        row = {"method": coef, "hive_choice": coef == chosen, **base}
        if why:
            row["note"] = why
        elif coef == "pearson":
            res = pearson(per["human"], per["model"], confidence=CONFIDENCE).iloc[0]
            row.update(
                r=res["r"],
                p_val=res["p_val"],
                p_method="t (n − 2 dof)",
                ci_low=res["ci_low"],
                ci_high=res["ci_high"],
                note=res["note"],
            )
        else:
            res = spearman(per["human"], per["model"]).iloc[0]
            row.update(
                r=res["rho"],
                p_val=res["p_val"],
                p_method=res["p_method"],
                note="no interval for Spearman's rho (HIVE reports rho and p)",
            )
        rows.append(row)
    return pd.DataFrame(rows, columns=SIMILARITY_COLUMNS)


def understanding_summary(participants: pd.DataFrame, columns=UNDERSTANDING) -> pd.DataFrame:
    """Self-rated understanding (1–5) after the preview, after the task and after seeing the score: mean ± SD
    (ddof = 1), and two-sided paired t-tests between the points (participants who answered both),
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
        (``point`` = "a → b", ``n``, ``mean`` = mean change, ``t``, ``dof``, ``p_val``); ``note`` says how many
        participants did not answer and why a test was not run.
    """
    check_frame(participants, keys="participant_id", where="understanding_summary")
    present = [c for c in columns if c in participants.columns]
    if not present:
        return pd.DataFrame(columns=UNDERSTANDING_COLUMNS)
    data = participants[present].apply(pd.to_numeric, errors="coerce")
    total = len(data)
    rows = []
    for c in present:
        n = int(data[c].notna().sum())
        rows.append(
            {
                "kind": "point",
                "point": UNDERSTANDING_POINTS[columns.index(c)],
                "n": n,
                "mean": data[c].mean(),
                "sd": data[c].std(ddof=DDOF),
                "note": f"{total - n} of {total} participants did not answer" if n < total else "",
            }
        )
    for i, j in ((0, 1), (1, 2), (0, 2)):
        if i >= len(present) or j >= len(present):
            continue
        both = data[[present[i], present[j]]].dropna()
        diff = both[present[j]] - both[present[i]]
        note = _t_note(diff, "changes")
        row = {
            "kind": "paired test",
            "point": f"{UNDERSTANDING_POINTS[i]} → {UNDERSTANDING_POINTS[j]}",
            "n": len(both),
            "mean": diff.mean() if len(both) else np.nan,
            "note": note,
        }
        if not note:
            test = two_sample_t(both[present[j]], both[present[i]], paired=True).iloc[0]
            row.update(t=test["t"], dof=test["dof"], p_val=test["p_val"])
        rows.append(row)
    return pd.DataFrame(rows, columns=UNDERSTANDING_COLUMNS)


def tradeoff_summary(participants: pd.DataFrame, reference: float = TRADEOFF_REFERENCE) -> pd.DataFrame:
    """Interpretability–accuracy tradeoff: the accuracy gain a model without explanations must have over the
    explained model (stated accuracy ``reference``) before a participant would use it, per risk level, how many
    participants asked for less (gain below 0: they would give up accuracy for explanations), the same or more, and
    a one-sided one-sample t-test of HIVE's reading "participants require the baseline model to have a higher
    accuracy" (H1: mean gain > 0; HIVE reports the means only).

    The question accepts any accuracy 0–100, so a gain below 0 can be given and the test is not decided by the
    design. Answers given while it accepted only 60–100 (``reference`` and up; form 1) analyse the same way but cannot
    contain a gain below 0. ``hive_tradeoff_revision`` says which form an answer was given under (empty: stored
    before forms were recorded, so either): when a risk level's answers include form-1 or unrecorded ones and none
    of those is below ``reference``, the note says how many and that they could not (or, unrecorded, may not have
    been able to) go below it. Answers all of form 2, or a table without the column, get no such note.

    .. math:: \\text{gain}_p = \\text{minimum accuracy}_p - \\text{reference}, \\qquad
              t = \\frac{\\overline{\\text{gain}}}{s/\\sqrt n}, \\quad p = P(T_{n-1} \\ge t)

    Parameters
    ----------
    participants : pandas.DataFrame
        One row per participant with ``hive_tradeoff_{low,medium,high}_risk`` (percent, 0–100) and, optionally,
        ``hive_tradeoff_revision`` (1, 2 or empty).
    reference : float, default 60
        The explained model's accuracy the question states, percent (this product's choice; HIVE states none).

    Returns
    -------
    pandas.DataFrame
        One row per risk level answered: ``risk``, ``n``, ``mean_minimum``, ``mean_gain``, ``sd_gain``
        (ddof = 1), ``n_below``, ``n_equal``, ``n_above`` (participants whose gain is below, at, above 0), ``t``,
        ``p_val`` (one-sided, gain > 0), ``published_gain`` (HIVE's mean), ``note`` (who did not
        answer; why there is no test; answers that could not go below ``reference``).
    """
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
        notes = (
            [f"{len(participants) - len(gain)} of {len(participants)} participants did not answer"]
            if len(gain) < len(participants)
            else []
        )
        why = _t_note(gain, "gains")
        notes += [why] if why else []
        notes += _bounded_form_notes(participants, gain, reference)
        row = {
            "risk": risk,
            "n": len(gain),
            "mean_minimum": minimum.mean(),
            "mean_gain": gain.mean(),
            "sd_gain": gain.std(ddof=DDOF),
            "n_below": int((gain < 0).sum()),
            "n_equal": int((gain == 0).sum()),
            "n_above": int((gain > 0).sum()),
            "published_gain": pub.get(f"{risk} risk", np.nan),
            "note": "; ".join(notes),
        }
        if not why:
            test = one_sample_t(gain, mu=0.0, alternative="greater").iloc[0]
            row.update(t=test["t"], p_val=test["p_val"])
        rows.append(row)
    return pd.DataFrame(rows, columns=TRADEOFF_COLUMNS)


def _bounded_form_notes(participants: pd.DataFrame, gain: pd.Series, reference: float) -> list[str]:
    """What tradeoff_summary says of a risk level's answers that could not go below ``reference``: those of form 1
    and those whose form was not recorded; nothing when one of them is below it (then the bound did not decide
    those answers, and n_below shows it)."""
    if TRADEOFF_REVISION not in participants.columns:
        return []
    form = pd.to_numeric(participants.loc[gain.index, TRADEOFF_REVISION], errors="coerce")
    old, unknown = form < TRADEOFF_OPEN_FORM, form.isna()
    if not (old | unknown).any() or (gain[old | unknown] < 0).any():
        return []
    notes = []
    for which, what in (
        (old, "given while the question accepted only {r}–100 %: {they} could not go below {r}"),
        (
            unknown,
            "stored before the question's form was recorded; if given while it accepted only {r}–100 %, {they} "
            "could not go below {r}",
        ),
    ):
        k = int(which.sum())
        if k:
            were, they = ("was", "it") if k == 1 else ("were", "they")
            notes.append(f"{k} of {len(gain)} answers {were} " + what.format(r=f"{reference:g}", they=they))
    return notes
