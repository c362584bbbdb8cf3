"""The analysis of sketch-recognition studies (`flask analyze`, server/results/analyze.py runs it):
analysis.reports.sketch_study on the completed participants' trials and the imported label predictions. The study's
optional `semantic_space` parameter names a concept similarity or embedding CSV for the semantic neighbour
preference."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

# The task type imports its analyzer with itself: the analysis stack is imported by the methods, when an analysis
# runs, so that app workers never load it (docs/operations.md).
if TYPE_CHECKING:
    from analysis.reports.sketch_study import SketchReport

from ...db import db
from ...models import LabelPrediction, ModelRun, Stimulus, Study
from ...results.analyze import Options, completed, exclusions, load_sessions
from ...results.export import trial_rows
from ...tasktype import vocabulary as vocab
from ...tasktype.contract import N_BOOT, SEED, Analyzer

MAX_GUESSES = 3  # ranked guesses per sketch: people give up to three, models are scored on their three best


class SketchAnalyzer(Analyzer):
    options = (N_BOOT, SEED)  # no outlier rule in the sketch analysis
    # The alignment bootstrap refits a regression per resample in a Python loop (per model, producer and measure).
    max_n_boot = 2000

    def load(self, study: Study, options: Options) -> dict[str, Any]:
        import pandas as pd

        columns = [
            "participant_id",
            "stimulus_id",
            "concept",
            "abstraction_level",
            "producer",
            "catch",
            "catch_failed",
            "guess_1",
            "guess_2",
            "guess_3",
        ]
        trials = pd.DataFrame(
            ([row[c] for c in columns] for row in trial_rows(study, stage=options.stage)), columns=columns
        )
        predictions = pd.DataFrame(
            db.session.execute(
                db.select(
                    ModelRun.observer,
                    ModelRun.condition,
                    ModelRun.run,
                    Stimulus.key.label("sketch_id"),
                    Stimulus.params.label("params"),
                    LabelPrediction.rank,
                    LabelPrediction.label_id,
                    LabelPrediction.probability,
                )
                .join(ModelRun, ModelRun.id == LabelPrediction.run_id)
                .join(Stimulus, Stimulus.id == LabelPrediction.stimulus_id)
                .where(ModelRun.study_id == study.id)
            ).all(),
            columns=["observer", "condition", "run", "sketch_id", "params", "rank", "label_id", "probability"],
        )
        return {
            "sessions": load_sessions(study, options.stage),
            "trials": trials.rename(columns={"stimulus_id": "sketch_id"}),
            "predictions": predictions,
            "similarity": _semantic_space(study.config["task"]),
        }

    def compute(self, study: Study, data: dict[str, Any], options: Options) -> SketchReport:
        from analysis.reports.sketch_study import sketch_report

        s = data["sessions"]
        trials = completed(data).astype({"abstraction_level": float, "catch": bool})
        return sketch_report(
            trials,
            model_responses(data["predictions"]),
            data["similarity"],
            n_boot=min(options.n_boot, self.max_n_boot),
            seed=options.seed,
            meta={
                "slug": study.slug,
                "title": study.title,
                "task_type": study.task_type,
                "recruited": len(s),
                **exclusions(s),
            },
        )


def model_responses(predictions):
    """Label predictions (one row per rank) as analysis.reports.sketch_study responses: one row per (model, run, sketch)
    with its three best-ranked labels; a model with a condition is reported as "observer [condition]"."""
    import numpy as np
    import pandas as pd

    from analysis.sketch_statistics import probability_entropy

    if predictions.empty:
        return None
    condition = predictions["condition"].fillna("")
    p = predictions.assign(
        observer=np.where(condition == "", predictions["observer"], predictions["observer"] + " [" + condition + "]")
    )
    wide = (
        p[p["rank"] <= MAX_GUESSES]
        .pivot_table(index=["observer", "run", "sketch_id"], columns="rank", values="label_id", aggfunc="first")
        .rename(columns=lambda r: f"guess_{r}")
        .reset_index()
    )
    stimuli = p.drop_duplicates("sketch_id").set_index("sketch_id")["params"]
    for key in ("concept", "abstraction_level", "producer"):
        wide[key] = wide["sketch_id"].map(lambda k, key=key: stimuli[k][key])
    if p["probability"].notna().any():
        given = p.dropna(subset=["probability"])
        wide = wide.merge(
            probability_entropy(given[["observer", "run", "sketch_id", "probability"]]),
            on=["observer", "run", "sketch_id"],
            how="left",
        )
    return pd.DataFrame(wide).astype({"abstraction_level": float})


def _semantic_space(params):
    """The study's concept similarity (square CSV: first column and header are unique ids) or embedding (first
    column ids, then numeric dimensions) as a similarity DataFrame; None when the study names none."""
    import pandas as pd

    from analysis.sketch_statistics import similarity_from_embedding

    if not params.get("semantic_space"):
        return None
    table = pd.read_csv(vocab.resolve(params["semantic_space"], vocab.studies_dir()), index_col=0)
    table.index = table.index.astype(str)
    if list(table.columns) == list(table.index):
        return table.astype(float)
    return similarity_from_embedding(table)
