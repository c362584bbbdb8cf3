"""Sketch recognition: how well people and models name sketches at each level of abstraction (the
sketch-abstraction benchmark, seeds §3; its supplementary materials S.5 give the measures).

Every function takes a tidy *responses* frame, one row per answer to one sketch, with the columns

- ``observer``: "human" for people, else the model's name;
- ``sketch_id``, ``concept`` (the unique id drawn), ``abstraction_level`` (number), ``producer`` (who drew it);
- ``guess_1`` … ``guess_3``: ranked unique ids (missing where fewer were given); ``guess_1`` is required;
- optionally ``participant_id`` (people; used by the split-half reliability) and ``probability_entropy`` (models
  that gave class probabilities: the entropy of their distribution, see :func:`probability_entropy`).

Correctness is by unique id (``bat2`` is not ``bat1``), as the benchmark scores the 1,854 THINGS concepts; the task
type also stores the label-level match for homonyms (server/tasks/sketch_recognition/task.py), which
:func:`catch_failures` uses.
The report (:func:`analysis.reports.sketch_study.sketch_report`) and its renderings are in :mod:`analysis.reports`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ._checks import check_ci, check_frame, check_positive_int

GUESSES = ("guess_1", "guess_2", "guess_3")
KEYS = ("observer", "sketch_id", "concept", "abstraction_level", "producer")
CELL = ["observer", "producer", "abstraction_level"]


def _responses(df: pd.DataFrame, where: str) -> pd.DataFrame:
    check_frame(df, numeric="abstraction_level", keys=[*KEYS, "guess_1"], where=where)
    out = df.copy()
    for column in GUESSES[1:]:
        if column not in out:
            out[column] = np.nan
    out["top1"] = (out["guess_1"] == out["concept"]).astype(float)
    out["top3"] = out[list(GUESSES)].eq(out["concept"], axis=0).any(axis=1).astype(float)
    return out


# --------------------------------------------------------------------------------------------------- accuracy


#: How a sketch interval resampled (the ``ci_method`` column). The benchmark's bootstrap draws sketches within each
#: concept × abstraction level stratum (S.5.3); when a stratum holds one sketch (the demo's layout: one sketch per
#: concept, producer and level) every resample redraws it, so the interval has no width. Then the concepts are
#: resampled instead, each with all its sketches (a cluster bootstrap: it also counts the spread between concepts,
#: which the benchmark holds fixed), and with a single concept, its own rows.
CI_STRATIFIED = "stratified within concept × level (paper)"
CI_CONCEPTS = "concepts resampled: strata hold one sketch"
CI_ANSWERS = "answers resampled: the cell holds one sketch"
CI_SKETCHES = "sketches resampled: one concept"


def _resampling_plan(units: pd.DataFrame, strata: list[str], last_resort: str) -> tuple[str, np.ndarray, list]:
    """How to resample ``units`` (rows numbered 0..n − 1, with sketch_id, concept and the ``strata`` columns) so the
    interval has width: the benchmark's sketches within strata when every stratum holds at least two; else the
    concepts (one stratum of concept clusters) when there are two or more; else the rows themselves, named
    ``last_resort``.

    Returns the method (``CI_*``), each row's cluster number (numbered in order of appearance, so the paper's case
    draws as it always did) and each stratum's cluster numbers.
    """
    if (units.groupby(strata)["sketch_id"].nunique() >= 2).all():
        labels = units.groupby([*strata, "sketch_id"], sort=False).ngroup().to_numpy()
        groups = sorted(units.groupby(strata).indices.items())
        return CI_STRATIFIED, labels, [np.unique(labels[rows]) for _, rows in groups]
    if units["concept"].nunique() >= 2:
        labels = units.groupby("concept", sort=False).ngroup().to_numpy()
        return CI_CONCEPTS, labels, [np.unique(labels)]
    labels = np.arange(len(units))
    return last_resort, labels, [labels]


def accuracy_by_level(responses: pd.DataFrame, *, n_boot: int = 2000, ci: float = 0.95, seed: int = 0) -> pd.DataFrame:
    """Top-1 and top-3 accuracy per observer, producer and abstraction level, with bootstrap CIs.

    Accuracy is the proportion of answers whose first guess (top-1) or any guess (top-3) is the concept:
    ``acc = (1/n) Σ_i 1[concept_i ∈ guesses_i]``. The confidence interval is the percentile interval of ``n_boot``
    bootstrap resamples. Where every concept of the cell has at least two sketches, it is the benchmark's
    stratified bootstrap (S.5.3): sketches are drawn with replacement within each concept × abstraction level
    stratum (so every resample has the same number of sketches of each concept at each level), each drawn sketch
    bringing all its answers. Where a concept has one sketch, that stratum would redraw it every time, so the
    concepts are drawn with replacement instead, each with all its sketches and answers; a cell of one sketch
    resamples its answers. ``ci_method`` names which (:data:`CI_STRATIFIED`, :data:`CI_CONCEPTS`,
    :data:`CI_ANSWERS`).

    Returns
    -------
    DataFrame with columns observer, producer, abstraction_level, n_sketches, n_responses, top1_accuracy,
    top1_ci_low, top1_ci_high, top3_accuracy, top3_ci_low, top3_ci_high, ci_method.
    """
    where = "accuracy_by_level"
    data = _responses(responses, where)
    check_ci(ci, where=where)
    n_boot = check_positive_int(n_boot, "n_boot", where=where)
    rng = np.random.default_rng(seed)
    alpha = (1 - ci) / 2
    rows = []
    for key, cell in data.groupby(CELL, sort=True):
        cell = cell.sort_values(["concept", "sketch_id"], kind="stable").reset_index(drop=True)
        method, labels, strata = _resampling_plan(cell, ["concept"], CI_ANSWERS)
        # Per cluster (sketch, concept or answer): answers, top-1 and top-3 hits; a resample draws as many clusters
        # of each stratum with replacement.
        hits = [np.bincount(labels, weights=cell[c].to_numpy(float)) for c in ("top1", "top3")]
        counts = np.column_stack([np.bincount(labels), *hits]).astype(float)
        draws = np.concatenate([rng.choice(ids, size=(n_boot, ids.size), replace=True) for ids in strata], axis=1)
        totals = counts[draws].sum(axis=1)  # n_boot × (n, top1, top3)
        boot1, boot3 = totals[:, 1] / totals[:, 0], totals[:, 2] / totals[:, 0]
        rows.append(
            {
                **dict(zip(CELL, key)),
                "n_sketches": cell["sketch_id"].nunique(),
                "n_responses": len(cell),
                "top1_accuracy": cell["top1"].mean(),
                "top1_ci_low": np.quantile(boot1, alpha),
                "top1_ci_high": np.quantile(boot1, 1 - alpha),
                "top3_accuracy": cell["top3"].mean(),
                "top3_ci_low": np.quantile(boot3, alpha),
                "top3_ci_high": np.quantile(boot3, 1 - alpha),
                "ci_method": method,
            }
        )
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------------- entropy


def probability_entropy(predictions: pd.DataFrame) -> pd.DataFrame:
    """Entropy (bits) of each model answer's class-probability distribution, ``H = −Σ_k p_k log2 p_k`` over the
    labels given for that (observer, run, sketch), after normalising them to sum to 1 (a top-k file gives only
    part of the distribution: the entropy is then that of the renormalised top k).

    Parameters
    ----------
    predictions : DataFrame with columns observer, run, sketch_id, probability.

    Returns
    -------
    DataFrame with columns observer, run, sketch_id, probability_entropy.
    """
    check_frame(predictions, numeric="probability", keys=["observer", "run", "sketch_id"], where="probability_entropy")
    answer = ["observer", "run", "sketch_id"]
    p = predictions["probability"] / predictions.groupby(answer)["probability"].transform("sum")
    terms = -(p * np.log2(p.where(p > 0, 1.0)))
    entropy = predictions.assign(term=terms).groupby(answer, as_index=False)["term"].sum()
    return entropy.assign(term=entropy["term"] + 0.0).rename(columns={"term": "probability_entropy"})  # no −0


# ------------------------------------------------------------------------------------ semantic neighbours


def similarity_from_embedding(embedding: pd.DataFrame) -> pd.DataFrame:
    """Cosine similarity between concepts from an embedding (index: unique ids, numeric columns: dimensions):
    ``s(a, b) = a·b / (‖a‖ ‖b‖)``. Returns a square DataFrame indexed and labelled by the unique ids."""
    embedding = embedding.rename(columns=str)
    check_frame(embedding, numeric=list(embedding.columns), where="similarity_from_embedding")
    x = embedding.to_numpy(dtype=float)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    if (norms == 0).any():
        raise ValueError(
            "similarity_from_embedding: a concept has an all-zero embedding "
            f"({embedding.index[int(np.flatnonzero(norms[:, 0] == 0)[0])]!r})"
        )
    unit = x / norms
    return pd.DataFrame(unit @ unit.T, index=embedding.index, columns=embedding.index)


def semantic_ranks(similarity: pd.DataFrame, pairs: pd.DataFrame) -> np.ndarray:
    """Normalised semantic rank of each (concept, guess) pair: the guess's rank among the concept's N − 1 other
    concepts ordered by similarity to it (1 = nearest; ties share their mean rank), mapped to
    ``x = (rank − 1) / (N − 2)`` ∈ [0, 1]."""
    ids = similarity.index
    if not similarity.columns.equals(ids):
        raise ValueError("semantic_ranks: the similarity matrix must have the same ids as rows and columns")
    n = len(ids)
    if n < 3:
        raise ValueError("semantic_ranks: the similarity matrix needs at least 3 concepts")
    position = pd.Series(np.arange(n), index=ids)
    for column in ("concept", "guess"):
        unknown = ~pairs[column].isin(ids)
        if unknown.any():
            raise ValueError(
                f"semantic_ranks: column '{column}' has ids missing from the similarity matrix "
                f"(e.g. {pairs.loc[unknown, column].iloc[0]!r})"
            )
    matrix = similarity.to_numpy(dtype=float)
    concepts, row_of_pair = np.unique(position[pairs["concept"]].to_numpy(), return_inverse=True)
    # Rank every concept of each target row at once; the target itself is set nearest (rank 1), so the others'
    # ranks among the N − 1 others are one less.
    rows = -matrix[concepts]
    rows[np.arange(len(concepts)), concepts] = -np.inf
    ranks = stats.rankdata(rows, axis=1) - 1
    return (ranks[row_of_pair, position[pairs["guess"]].to_numpy()] - 1) / (n - 2)


def semantic_neighbour_preference(
    responses: pd.DataFrame,
    similarity: pd.DataFrame,
    by: tuple[str, ...] = ("observer", "producer", "concept", "abstraction_level"),
) -> pd.DataFrame:
    """Semantic neighbour preference (SNP, benchmark S.5.2) of the off-target top-1 guesses per group.

    For the top-1 guesses that miss the concept, each guess's normalised semantic rank ``x_i`` (see
    :func:`semantic_ranks`) is taken; the cumulative proportion of guesses ``F(x) = (1/m) Σ_i 1[x_i ≤ x]`` is
    integrated over x ∈ [0, 1]: ``SNP = ∫ F = 1 − (1/m) Σ_i x_i``. 1: off-target guesses are the concept's nearest
    neighbours; 0.5: unrelated to it; 0: systematically far from it.

    Returns
    -------
    DataFrame with the `by` columns, n_off_target and snp (groups without an off-target guess are left out).
    """
    data = _responses(responses, "semantic_neighbour_preference")
    columns = list(dict.fromkeys([*by, "concept", "guess_1"]))
    off = data.loc[data["guess_1"] != data["concept"], columns]
    off = off.rename(columns={"guess_1": "guess"}).reset_index(drop=True)
    if off.empty:
        return pd.DataFrame(columns=[*by, "n_off_target", "snp"])
    off["x"] = semantic_ranks(similarity, off[["concept", "guess"]])
    return (
        off.groupby(list(by), as_index=False)
        .agg(n_off_target=("x", "size"), snp=("x", "mean"))
        .assign(snp=lambda d: 1 - d["snp"])
    )


# --------------------------------------------------------------------------------------- per-sketch measures


def sketch_measures(responses: pd.DataFrame, similarity: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per observer and sketch: top-1 and top-3 accuracy (mean over answers), the Shannon entropy in bits of the
    sketch's top-1 guesses, ``H = −Σ_k p_k log2 p_k`` with p_k the share of answers naming label k (for models with
    class probabilities, the mean ``probability_entropy`` instead), and, with a similarity matrix (or a
    ``semantic_x`` column, see :func:`semantic_x`), the sketch's SNP: ``1 − mean x`` over its off-target answers.

    ``entropy_basis`` says what each entropy is the entropy of (:data:`ENTROPY_BASES`): people's answers, a model's
    class probabilities, or the top-1 labels of a model's runs when it was imported with ranks only. An observer
    that gave one answer per sketch and no class probabilities (a ranks-only model with one run, a single
    participant) has no response distribution: its entropy would be 0 bits by construction, so it is left missing
    with the basis "none".

    Returns
    -------
    DataFrame with columns observer, sketch_id, concept, abstraction_level, producer, n_responses, top1, top3,
    entropy, entropy_basis and (with `similarity`) snp.
    """
    data = _responses(responses, "sketch_measures")
    keys = list(KEYS)
    out = data.groupby(keys, as_index=False).agg(
        n_responses=("top1", "size"), top1=("top1", "mean"), top3=("top3", "mean")
    )
    counts = data.groupby([*keys, "guess_1"]).size()
    p = counts / counts.groupby(level=keys).transform("sum")
    # + 0.0: a sketch everyone named alike has entropy 0, not −0
    entropy = ((-(p * np.log2(p))).groupby(level=keys).sum() + 0.0).rename("entropy").reset_index()
    out = out.merge(entropy, on=keys)
    given = (
        data.groupby(keys)["probability_entropy"].mean().reindex(pd.MultiIndex.from_frame(out[keys])).to_numpy()
        if "probability_entropy" in data
        else np.full(len(out), np.nan)
    )
    # One answer per sketch everywhere: no distribution of answers, whatever the sketch.
    single = out.groupby("observer")["n_responses"].transform("max").to_numpy() <= 1
    human = (out["observer"] == "human").to_numpy()
    out["entropy_basis"] = np.select(
        [np.isfinite(given), single, human], ["probabilities", "none", "answers"], default="runs"
    )
    out["entropy"] = np.where(np.isfinite(given), given, np.where(single, np.nan, out["entropy"]))
    if similarity is not None or "semantic_x" in data:
        x = data["semantic_x"] if "semantic_x" in data else semantic_x(data, similarity)
        snp = (1 - data.assign(x=x).groupby(keys)["x"].mean()).rename("snp").reset_index()  # NaN: none off target
        out = out.merge(snp, on=keys, how="left")
    return out


def semantic_x(responses: pd.DataFrame, similarity: pd.DataFrame) -> pd.Series:
    """Each answer's normalised semantic rank of its top-1 guess (:func:`semantic_ranks`), NaN where the guess is
    the concept. Computed once, it lets :func:`split_half_reliability` skip the ranking in every split."""
    off = responses["guess_1"] != responses["concept"]
    x = pd.Series(np.nan, index=responses.index)
    if off.any():
        pairs = responses.loc[off, ["concept", "guess_1"]].rename(columns={"guess_1": "guess"}).reset_index(drop=True)
        x[off.to_numpy()] = semantic_ranks(similarity, pairs)
    return x


# ------------------------------------------------------------------------------- regression with the levels


def adjusted_r2(y: np.ndarray, x: np.ndarray, level: np.ndarray) -> float:
    """Adjusted R² of the OLS fit ``y ~ x * C(level)`` (intercept, x, level dummies and their products with x):
    ``R²_adj = 1 − (1 − R²)(n − 1)/(n − p − 1)`` with p the fitted predictors besides the intercept (the rank of
    the design matrix minus one). As statsmodels' ``ols("y ~ x * C(level)").fit().rsquared_adj``."""
    levels = np.unique(level)
    dummies = (level[:, None] == levels[None, 1:]).astype(float)
    design = np.column_stack([np.ones_like(x), x, dummies, dummies * x[:, None]])
    coef, _, rank, _ = np.linalg.lstsq(design, y, rcond=None)
    residual = y - design @ coef
    sst = float(((y - y.mean()) ** 2).sum())
    n, p = len(y), rank - 1
    if sst <= 1e-12 * max(1.0, float((y**2).sum())) or n - p - 1 <= 0:  # a constant y explains nothing
        return float("nan")
    r2 = 1 - float(residual @ residual) / sst
    return 1 - (1 - r2) * (n - 1) / (n - p - 1)


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    if len(x) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    return float(stats.pearsonr(x, y)[0])


MEASURES = ("top1", "top3", "entropy", "snp")
#: What a per-sketch entropy is the entropy of (:func:`sketch_measures`' ``entropy_basis``), in words.
ENTROPY_BASES = {
    "answers": "people's top-1 guesses",
    "probabilities": "the model's renormalised class probabilities",
    "runs": "the top-1 labels of the model's runs (imported with ranks only: not a response distribution)",
    "none": "not computed: one answer per sketch and no class probabilities, so no distribution of responses (its "
    "entropy would be 0 bits by construction)",
}
RELIABILITY_COLUMNS = [
    "producer",
    "measure",
    "n_splits",
    "n_sketches",
    "pearson_r",
    "spearman_brown",
    "adjusted_r2",
    "n_splits_undefined",
    "note",
]
ALIGNMENT_COLUMNS = [
    "observer",
    "producer",
    "measure",
    "n_sketches",
    "pearson_r",
    "adjusted_r2",
    "adjusted_r2_ci_low",
    "adjusted_r2_ci_high",
    "ci_method",
    "n_left_out",
    "note",
]


def split_half_reliability(
    responses: pd.DataFrame,
    *,
    n_splits: int = 100,
    seed: int = 0,
    measures: tuple[str, ...] = MEASURES,
    similarity: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Split-half reliability of the human per-sketch measures: the human ceiling for alignment (S.5.3).

    Each split assigns every participant at random to one of two halves; the per-sketch measures of the two halves
    (:func:`sketch_measures`, sketches answered in both) are compared by Pearson r, its Spearman–Brown correction
    ``r_sb = 2r / (1 + r)``, and the adjusted R² of ``half_b ~ half_a * C(abstraction_level)``
    (:func:`adjusted_r2`). Reported: the means over `n_splits` splits (splits where a value is undefined, e.g. a
    constant measure, are left out of its mean).

    Returns
    -------
    DataFrame with columns producer, measure, n_splits, n_sketches, pearson_r, spearman_brown, adjusted_r2,
    n_splits_undefined (splits whose r is undefined and so left out of the means) and note (saying so).
    """
    where = "split_half_reliability"
    check_frame(responses, keys=["participant_id"], where=where)
    n_splits = check_positive_int(n_splits, "n_splits", where=where)
    human = responses[responses["observer"] == "human"]
    if similarity is not None:
        human = human.assign(semantic_x=semantic_x(human, similarity))
    people = np.sort(human["participant_id"].unique())
    if len(people) < 2:
        raise ValueError(f"{where}: at least 2 participants are needed (column 'participant_id' has {len(people)})")
    rng = np.random.default_rng(seed)
    measures = tuple(m for m in measures if m != "snp" or similarity is not None)
    # Each split recomputes the per-sketch measures of both halves with bincounts over codes fixed once (pandas
    # per split is far slower: docs/operations.md, "Figures behind choices in the code"): sketch codes, (sketch,
    # top-1 guess) pair codes for the entropy.
    human = _responses(human, where)
    sketch, sketches = pd.factorize(human["sketch_id"])
    first = human.groupby(sketch)[["producer", "abstraction_level"]].first()
    pair, pairs = pd.factorize(pd.MultiIndex.from_arrays([sketch, human["guess_1"].to_numpy()]))
    pair_sketch = pairs.get_level_values(0).to_numpy()
    person = human["participant_id"].to_numpy()
    values = {
        "top1": human["top1"].to_numpy(float),
        "top3": human["top3"].to_numpy(float),
        "x": human["semantic_x"].to_numpy(float) if "semantic_x" in human else np.full(len(human), np.nan),
    }
    n_s = len(sketches)

    def half_measures(mask):
        n = np.bincount(sketch[mask], minlength=n_s).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = {m: np.bincount(sketch[mask], weights=values[m][mask], minlength=n_s) / n for m in ("top1", "top3")}
            counts = np.bincount(pair[mask], minlength=len(pairs))
            prob = counts / n[pair_sketch]
            out["entropy"] = np.bincount(
                pair_sketch,
                weights=np.where(counts > 0, -prob * np.log2(np.where(counts > 0, prob, 1.0)), 0.0),
                minlength=n_s,
            )
            off = mask & np.isfinite(values["x"])
            out["snp"] = 1 - np.bincount(sketch[off], weights=values["x"][off], minlength=n_s) / np.bincount(
                sketch[off], minlength=n_s
            )
        out["entropy"][n == 0] = np.nan
        return out

    results: dict[tuple[str, str], list[tuple[float, float, float, int]]] = {}
    for _ in range(n_splits):
        in_a = np.isin(person, rng.permutation(people)[: len(people) // 2])
        a, b = half_measures(in_a), half_measures(~in_a)
        for producer, group in first.groupby("producer"):
            idx = group.index.to_numpy()
            level = group["abstraction_level"].to_numpy()
            for m in measures:
                x, y = a[m][idx], b[m][idx]
                ok = np.isfinite(x) & np.isfinite(y)
                x, y = x[ok], y[ok]
                r = _pearson(x, y)
                results.setdefault((producer, m), []).append(
                    (
                        r,
                        2 * r / (1 + r) if np.isfinite(r) and r > -1 else np.nan,
                        adjusted_r2(y, x, level[ok]) if ok.sum() > 2 else np.nan,
                        int(ok.sum()),
                    )
                )
    rows = []
    for (producer, m), values in sorted(results.items()):
        arr = np.array(values, dtype=float)
        with np.errstate(all="ignore"):
            means = [np.nanmean(arr[:, i]) if np.isfinite(arr[:, i]).any() else np.nan for i in range(3)]
        undefined = int((~np.isfinite(arr[:, 0])).sum())
        note = (
            f"r undefined in {undefined} of {n_splits} splits (fewer than 3 shared sketches or a constant "
            f"half): left out of the means"
            if undefined
            else ""
        )
        rows.append(
            {
                "producer": producer,
                "measure": m,
                "n_splits": n_splits,
                "n_sketches": float(arr[:, 3].mean()),
                "pearson_r": means[0],
                "spearman_brown": means[1],
                "adjusted_r2": means[2],
                "n_splits_undefined": undefined,
                "note": note,
            }
        )
    return pd.DataFrame(rows, columns=RELIABILITY_COLUMNS)


def human_model_alignment(
    measures: pd.DataFrame, *, n_boot: int = 2000, ci: float = 0.95, seed: int = 0
) -> pd.DataFrame:
    """Human–model alignment per model, producer and measure (S.5.3): Pearson r between the human and the model
    per-sketch values, and the adjusted R² of ``model ~ human * C(abstraction_level)`` (:func:`adjusted_r2`), with a
    percentile CI from sketches resampled within concept × abstraction level, or, where a stratum holds one sketch,
    from concepts resampled with all their sketches (one concept: its sketches); ``ci_method`` names which (see
    :func:`accuracy_by_level`).

    Parameters
    ----------
    measures : the output of :func:`sketch_measures` (observer "human" and one or more models).

    Returns
    -------
    DataFrame with columns observer, producer, measure, n_sketches, pearson_r, adjusted_r2, adjusted_r2_ci_low,
    adjusted_r2_ci_high, ci_method ("" without an interval), n_left_out (sketches of the producer that only one side
    answered, or whose measure is undefined on a side, e.g. SNP without an off-target answer) and note (those
    counts; why a value is missing).
    """
    where = "human_model_alignment"
    check_frame(
        measures, numeric="abstraction_level", keys=["observer", "sketch_id", "concept", "producer"], where=where
    )
    check_ci(ci, where=where)
    n_boot = check_positive_int(n_boot, "n_boot", where=where)
    rng = np.random.default_rng(seed)
    alpha = (1 - ci) / 2
    keys = ["sketch_id", "concept", "producer", "abstraction_level"]
    human = measures[measures["observer"] == "human"]
    present = [m for m in MEASURES if m in measures]
    rows = []
    for observer, model in measures[measures["observer"] != "human"].groupby("observer"):
        both = human.merge(model, on=keys, how="outer", suffixes=("_human", "_model"), indicator=True)
        for producer, group in both.groupby("producer"):
            only = {side: int((group["_merge"] == f"{side}_only").sum()) for side in ("left", "right")}
            shared = group[group["_merge"] == "both"]
            for m in present:
                pair = shared[[*keys, f"{m}_human", f"{m}_model"]].dropna().reset_index(drop=True)
                x, y = pair[f"{m}_human"].to_numpy(float), pair[f"{m}_model"].to_numpy(float)
                level = pair["abstraction_level"].to_numpy()
                point = adjusted_r2(y, x, level) if len(pair) > 2 else np.nan
                low = high = np.nan
                method = ""
                if len(pair) > 2:
                    method, labels, strata = _resampling_plan(pair, ["concept", "abstraction_level"], CI_SKETCHES)
                    members = [np.flatnonzero(labels == k) for k in range(labels.max() + 1)]
                    boots = []
                    for _ in range(n_boot):
                        drawn = [rng.choice(ids, size=ids.size, replace=True) for ids in strata]
                        idx = np.concatenate([members[k] for ids in drawn for k in ids])
                        boots.append(adjusted_r2(y[idx], x[idx], level[idx]))
                    boots = np.array(boots)
                    if np.isfinite(boots).any():
                        low, high = np.nanquantile(boots, [alpha, 1 - alpha])
                undefined = len(shared) - len(pair)
                notes = [
                    f"{k} sketch(es) {what}"
                    for k, what in (
                        (only["left"], "answered by people only"),
                        (only["right"], f"answered by {observer} only"),
                        (undefined, f"without a defined {m} on one side"),
                    )
                    if k
                ]
                if len(pair) <= 2:
                    notes.append(f"{len(pair)} sketch(es) with both values: the fit needs at least 3")
                elif not np.isfinite(point):
                    notes.append("adjusted R² undefined (a constant model measure, or as many predictors as sketches)")
                rows.append(
                    {
                        "observer": observer,
                        "producer": producer,
                        "measure": m,
                        "n_sketches": len(pair),
                        "pearson_r": _pearson(x, y),
                        "adjusted_r2": point,
                        "adjusted_r2_ci_low": low,
                        "adjusted_r2_ci_high": high,
                        "ci_method": method,
                        "n_left_out": only["left"] + only["right"] + undefined,
                        "note": "; ".join(notes),
                    }
                )
    return pd.DataFrame(rows, columns=ALIGNMENT_COLUMNS)


def catch_failures(trials: pd.DataFrame) -> pd.DataFrame:
    """Attention checks per participant: catch trials seen and failed (the concept's label not among the guesses,
    as scored by the task type), and the sketch ids failed.

    Parameters
    ----------
    trials : DataFrame with columns participant_id, sketch_id, catch (bool) and catch_failed (bool or missing).

    Returns
    -------
    DataFrame with columns participant_id, n_catch, n_failed, failed_sketches (only participants who saw one).
    """
    check_frame(trials, keys=["participant_id", "sketch_id", "catch"], where="catch_failures")
    catch = trials[trials["catch"].astype(bool)].assign(failed=lambda d: d["catch_failed"].fillna(False).astype(bool))
    if catch.empty:
        return pd.DataFrame(columns=["participant_id", "n_catch", "n_failed", "failed_sketches"])
    return (
        catch.groupby("participant_id")
        .apply(
            lambda g: pd.Series(
                {
                    "n_catch": len(g),
                    "n_failed": int(g["failed"].sum()),
                    "failed_sketches": " ".join(sorted(g.loc[g["failed"], "sketch_id"])),
                }
            ),
            include_groups=False,
        )
        .reset_index()
    )
