"""HIVE (Kim et al., ECCV 2022): people judge a model's predictions from its visual explanations.

Four task types share one base class, one manifest layout and one export layout, and differ in what a trial shows
and asks. They are separate task ids rather than one id with a `task` parameter because each has its own response
shape, scoring, chance level and jsPsych trial, and each has its own analysis (the same analyzer, by task id):

- ``hive-agreement``: the model's top prediction and its explanation; a 4-point confidence that it is correct
  (binarised: 1–2 "correct", 3–4 "incorrect"; chance 50 %). Prototype methods add a 1–4 similarity rating per
  prototype–region match.
- ``hive-distinction``: the four candidates' explanations side by side; pick the correct class; confidence 1–5.
  Optionally (study.toml) also a 1–4 similarity rating per prototype match of every option, and, in the same
  trial, which option the model predicts with its own confidence (HIVE's ProtoPNet distinction collected the
  ratings; its GradCAM and BagNet participants answered both questions).
- ``hive-output-prediction``: the same display; pick the class the model predicts; confidence 1–5.
- ``hive-prototree``: the decision path down to the last two nodes; present/absent at each picks one of four leaves.

Manifest (one row per photo, flat columns): ``image_id, photo, ground_truth, model_correct`` and for k = 1–4
``candidate{k}_rank`` (the model's rank of that class, a permutation of 1–4), ``candidate{k}_explanation`` (an
image file, or several separated by ``;`` — one per prototype match), optional ``candidate{k}_label`` and
``candidate{k}_similarity`` (the model's similarity score per match, ``;``-separated), optional ``preview``
(true marks the examples shown before the task). ``ground_truth`` is the candidate number (1–4) of the true class,
or 0 when it is none of the four (agreement only). ProtoTree adds ``node_root``, ``node_present``,
``node_absent`` (the prototypes of the last two decision nodes) and an optional ``path`` image; its leaves are the
candidates in decision order: 1 present/present, 2 present/absent, 3 absent/present, 4 absent/absent.

On the page, candidates are named by letters a–d assigned by a fixed shuffle of each image's candidates, so that
neither the letters nor the manifest's numbering tell a participant which one the model predicted."""

from __future__ import annotations

import hashlib
import math
import random
import statistics
from abc import abstractmethod
from typing import Any, Literal

from flask_babel import gettext, ngettext
from pydantic import Field, ValidationInfo, field_validator

from ...exceptions import ConfigError, ManifestError, ResponseError
from ...schema import Table, problem
from ...tasktype.assets import asset_url
from ...tasktype.contract import (
    Analysed,
    Column,
    DemoStimuli,
    ModelAnswers,
    PlanItem,
    Planned,
    Ratings,
    StimulusSpec,
    shuffled_positions,
)

CANDIDATES = (1, 2, 3, 4)
LETTERS = ("a", "b", "c", "d")
METHODS = ("gradcam", "bagnet", "protopnet", "prototree")
PROTOTYPE_METHODS = ("protopnet", "prototree")
MAX_MATCHES = 10
TRUE = {"true", "1", "yes", "y", "t"}
FALSE = {"false", "0", "no", "n", "f", ""}
DECISIONS = ("present", "absent")
# ProtoTree: (decision at the root, decision at the second node) → leaf = candidate number
LEAVES = {("present", "present"): 1, ("present", "absent"): 2, ("absent", "present"): 3, ("absent", "absent"): 4}
DATASETS = ("CUB", "ImageNet")  # HIVE's; `dataset` names the published study a report compares with
SIMILARITY_TASKS = ("hive-agreement", "hive-distinction")  # the task types that can ask similarity ratings


class HiveParams(Table):
    method: Literal[METHODS] = Field("gradcam", description="the explanation method")
    n_trials: int = Field(10, ge=1, le=200, description="photos per participant")
    correct_share: float = Field(
        0.5, ge=0, le=1, description=("share of those whose model prediction is correct (balanced by default)")
    )
    show_labels: bool = Field(False, description="show class labels with the explanations (HIVE hides them)")
    preview: bool = Field(
        True,
        description=(
            "one correct and one incorrect example (manifest rows with `preview = true`) in the `preview` flow step"
        ),
    )
    similarity_ratings: bool | None = Field(
        None,
        validate_default=True,
        description=(
            "ask a 1–4 similarity rating per prototype match: `hive-agreement` (by default when its method is "
            "`protopnet` or `prototree`) or `hive-distinction` (every option's matches, as HIVE's ProtoPNet "
            "distinction study did; off by default); the report correlates them with the model's scores"
        ),
    )
    output_prediction: bool = Field(
        False,
        description=(
            "`hive-distinction` only: ask in the same trial which option the model predicts, with its own "
            "confidence (HIVE asked both); the report adds output-prediction accuracy"
        ),
    )
    dataset: Literal[DATASETS] | None = Field(
        None,
        description=(
            "the HIVE study to compare with: `flask analyze` puts HIVE's published figures for the same task and "
            "method beside ours (ImageNet with `show_labels`: HIVE's studies that showed class labels)"
        ),
    )

    @field_validator("similarity_ratings")
    @classmethod
    def _similarity_tasks(cls, value: bool | None, info: ValidationInfo) -> bool | None:
        task_type = (info.context or {}).get("task_type")
        if value is None and "method" in info.data:
            return task_type == "hive-agreement" and info.data["method"] in PROTOTYPE_METHODS
        if value and task_type not in SIMILARITY_TASKS:
            raise problem("similarity ratings are asked in the agreement and distinction tasks only")
        return value

    @field_validator("output_prediction")
    @classmethod
    def _distinction_only(cls, value: bool, info: ValidationInfo) -> bool:
        if value and (info.context or {}).get("task_type") != "hive-distinction":
            raise problem(
                "output prediction is asked beside distinction only (alone: task type hive-output-prediction)"
            )
        return value


class ProtoTreeParams(HiveParams):
    method: Literal["prototree"] = Field("prototree", description="the explanation method: always `prototree`")


def _flag(value: str, column: str) -> bool:
    text = value.strip().lower()
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    raise ManifestError(column, f"must be true or false, not {value!r}")


def _scores(value: str, column: str) -> list[float]:
    try:
        scores = [float(part) for part in value.split(";")]
    except ValueError:
        raise ManifestError(column, f"must be numbers separated by ';', not {value!r}") from None
    if not all(math.isfinite(s) for s in scores):
        raise ManifestError(column, "similarity scores must be finite numbers")
    return scores


def _letters_for(image_id: str) -> dict[int, str]:
    """Candidate number → page letter, a shuffle fixed by the image id (stable across re-imports)."""
    letters = list(LETTERS)
    random.Random(hashlib.sha256(image_id.encode()).digest()).shuffle(letters)
    return dict(zip(CANDIDATES, letters))


def _int_choice(response: dict[str, Any], key: str, low: int, high: int) -> int:
    value = response.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ResponseError(f"response.{key}", f"response.{key} must be an integer {low}–{high}")
    return value


def _answer_keys(stimulus: dict[str, Any]) -> dict[str, str | None]:
    by_number = {c["candidate"]: k for k, c in stimulus["candidates"].items()}
    predicted = next(k for k, c in stimulus["candidates"].items() if c["rank"] == 1)
    return {"predicted_key": predicted, "truth_key": by_number.get(stimulus["ground_truth"])}


def _joined(values) -> str | None:
    return None if values is None else ";".join(str(v) for v in values)


def _by_candidate(stimulus: dict[str, Any], per_option: dict[str, list] | list | None) -> list | None:
    """Per-match values of several options (distinction: {letter: [...]}) as one list in manifest candidate order,
    so that match m of an image is the same match for every participant whatever order the page showed; a list
    (agreement: one option) as it is."""
    if not isinstance(per_option, dict):
        return per_option
    order = sorted(per_option, key=lambda k: stimulus["candidates"][k]["candidate"])
    if any(per_option[k] is None for k in order):
        return None
    return [v for k in order for v in per_option[k]]


def _ratings(value: Any, matches: int, field: str) -> list[int]:
    """One 1–4 similarity rating per match shown, as the page asks them."""
    if (
        not isinstance(value, list)
        or len(value) != matches
        or any(isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= 4 for r in value)
    ):
        raise ResponseError(field, f"{field} must be {matches} integer(s) 1–4, one per match shown")
    return value


class HiveTask(DemoStimuli, ModelAnswers, Analysed, Planned):
    """What the HIVE task types share: the manifest, the trial list, the summary and the export columns."""

    # Which of HIVE's tasks this type runs, as its analysis and planning test it (statistics_task): HIVE's name of
    # it (published_results.csv's studies start with it), chance accuracy as a proportion, and the test against
    # chance: "greater" where HIVE asks whether people outperform chance (Table 2), "two-sided" where it asks
    # whether they differ from it (Table 1, agreement).
    hive_name: str
    chance: float
    alternative = "greater"
    # Whether a trial shows all four candidates (distinction, output prediction) or only the prediction.
    shows_all = True
    # Judging an explanation (an image, its heatmaps or prototype matches) takes longer than a second.
    fast_trial_ms = 1000
    # Manifest answers this task needs: ground truth among the candidates (all but agreement).
    needs_ground_truth = True
    assets = ("hive.css", "hive.js", "hive-tasks.js")

    @property
    def analyzer(self):
        """Imported when an analysis runs: the analyzer's pandas and report stay out of app workers."""
        from .analyzer import HiveAnalyzer

        # output prediction asked in distinction's trials is analysed as the output-prediction task
        return HiveAnalyzer(self.statistics_task(), HiveOutputPrediction.statistics_task())

    @property
    def planner(self):
        """Imported when a plan is made: the planner's SciPy and pandas stay out of app workers."""
        from .planner import HivePlanner

        return HivePlanner(self.statistics_task())

    @classmethod
    def statistics_task(cls):
        """This type's HIVE task as analysis.hive_statistics takes it (imported here, when an analysis or a plan
        runs: app workers stay without pandas)."""
        from analysis.hive_statistics import HiveTask as StatisticsTask

        return StatisticsTask(cls.hive_name, 100 * cls.chance, cls.alternative)

    Params = HiveParams
    steps = ("preview",)
    manifest_required = (
        "image_id",
        "photo",
        "ground_truth",
        "model_correct",
        *(f"candidate{k}_{part}" for k in CANDIDATES for part in ("rank", "explanation")),
    )
    manifest_optional = ("preview", *(f"candidate{k}_{part}" for k in CANDIDATES for part in ("label", "similarity")))
    stimulus_columns = (
        Column("model_correct", "whether the model's top prediction is the true class (trials.csv: 1 or 0)", "integer"),
        Column("ground_truth", "manifest candidate number (1–4) of the true class; 0: none of the four", "integer"),
        Column("predicted_candidate", "manifest candidate number of the model's top prediction (rank 1)", "integer"),
    )
    trial_columns = stimulus_columns + (
        Column("labels_shown", "1 if class labels were shown with the explanations", "integer"),
        *(
            c
            for p in CANDIDATES
            for c in (
                Column(
                    f"option_{p}",
                    f"manifest candidate number shown at position {p} (left to right); empty if fewer were shown",
                    "integer",
                ),
                Column(
                    f"option_{p}_rank", f"the model's rank (1 = prediction) of the candidate at position {p}", "integer"
                ),
            )
        ),
        Column(
            "choice_candidate", "manifest candidate number the participant picked (or reached, ProtoTree)", "integer"
        ),
        Column("choice_position", "display position (1–4) of the picked candidate", "integer"),
        Column("choice_rank", "the model's rank of the picked candidate", "integer"),
        Column(
            "decisions", "ProtoTree: the participant's decisions at the last two nodes, e.g. present;absent", "text"
        ),
        Column(
            "confidence",
            "agreement: the page's order, 1 fairly / 2 somewhat confident correct, 3 somewhat / 4 fairly confident "
            "incorrect (HIVE's Table 1 reports the reverse, higher = more confident the prediction is correct: "
            "5 minus this; the report converts it); other tasks: 1 (not at all) – 5 (very) confident",
            "integer",
        ),
        Column(
            "judged_correct",
            "agreement: 1 if the participant judged the prediction correct (confidence 1–2)",
            "integer",
        ),
        Column(
            "output_choice_candidate",
            "distinction with output_prediction: manifest candidate number the participant thinks the model predicts",
            "integer",
        ),
        Column("output_confidence", "distinction with output_prediction: its confidence, 1–5", "integer"),
        Column("output_correct", "distinction with output_prediction: 1 if that is the model's prediction", "integer"),
        Column("correct", "1 if the answer was right for this task, else 0", "integer"),
        Column(
            "similarity_ratings",
            "the participant's 1–4 rating per prototype match, ';'-separated in match order (distinction: every "
            "option's matches, in manifest candidate order 1–4)",
            "text",
        ),
        Column(
            "model_similarity",
            "the model's similarity score per rated match, ';'-separated in the same order",
            "text",
        ),
    )

    # ---------------------------------------------------------------------------------------- parameters
    # ---------------------------------------------------------------------------------------- manifest
    def stimulus_from_manifest(self, row, files, params):
        image_id = row["image_id"].strip()
        if not image_id or len(image_id) > 100 or "/" in image_id:
            raise ManifestError("image_id", "an id of 1–100 characters without '/' is required")
        ranks = {}
        for k in CANDIDATES:
            text = row[f"candidate{k}_rank"].strip()
            if not text.isdigit():
                raise ManifestError(f"candidate{k}_rank", f"must be an integer 1–4, not {text!r}")
            ranks[k] = int(text)
        if sorted(ranks.values()) != list(CANDIDATES):
            raise ManifestError(
                "candidate1_rank",
                "the four candidates' ranks must be 1, 2, 3 and 4, each once "
                f"(got {', '.join(str(ranks[k]) for k in CANDIDATES)})",
            )
        text = row["ground_truth"].strip()
        if text not in {"0", "1", "2", "3", "4"}:
            raise ManifestError("ground_truth", f"must be the true class's candidate number 1–4 (or 0), not {text!r}")
        truth = int(text)
        if truth == 0 and self.needs_ground_truth:
            raise ManifestError("ground_truth", f"{self.id} needs the true class among the four candidates (1–4)")
        model_correct = _flag(row["model_correct"], "model_correct")
        if model_correct != (truth != 0 and ranks[truth] == 1):
            raise ManifestError(
                "model_correct",
                f"says {str(model_correct).lower()}, but the true class "
                f"(candidate {truth}) has rank {ranks.get(truth, '—')}",
            )
        letters = _letters_for(image_id)
        candidates = {}
        for k in CANDIDATES:
            names = [n.strip() for n in row[f"candidate{k}_explanation"].split(";")]
            if len(names) > MAX_MATCHES:
                raise ManifestError(f"candidate{k}_explanation", f"at most {MAX_MATCHES} explanation images")
            explanation = [files.image(f"candidate{k}_explanation", name) for name in names]
            similarity = None
            if row.get(f"candidate{k}_similarity", "").strip():
                similarity = _scores(row[f"candidate{k}_similarity"], f"candidate{k}_similarity")
                if len(similarity) != len(explanation):
                    raise ManifestError(
                        f"candidate{k}_similarity",
                        f"{len(similarity)} score(s) for {len(explanation)} explanation image(s): "
                        "give one score per prototype match",
                    )
            label = row.get(f"candidate{k}_label", "").strip() or None
            if label is not None and len(label) > 120:
                raise ManifestError(f"candidate{k}_label", "at most 120 characters")
            candidates[letters[k]] = {
                "candidate": k,
                "rank": ranks[k],
                "explanation": explanation,
                "label": label,
                "similarity": similarity,
            }
        # stimulus_columns name params keys: `flask stimuli export` writes them into the models' manifest
        params = {
            "image_id": image_id,
            "photo": files.image("photo", row["photo"].strip()),
            "ground_truth": truth,
            "model_correct": model_correct,
            "predicted_candidate": next(k for k in CANDIDATES if ranks[k] == 1),
            "candidates": candidates,
        }
        params.update(self.extra_params(row, files))
        return StimulusSpec(image_id, params, practice=_flag(row.get("preview", ""), "preview"))

    def extra_params(self, row, files) -> dict[str, Any]:
        """Parameters a task type adds from its own manifest columns."""
        return {}

    # ---------------------------------------------------------------------------------------- plan
    def build_plan_from(self, params, stimuli, rng):
        test = [s for s in stimuli if not s.practice]
        right = [s for s in test if s.params["model_correct"]]
        wrong = [s for s in test if not s.params["model_correct"]]
        n = params["n_trials"]
        n_right = round(n * params["correct_share"])
        if len(right) < n_right or len(wrong) < n - n_right:
            raise ConfigError(
                f"the study needs {n_right} correct and {n - n_right} incorrect model predictions "
                f"but holds {len(right)} and {len(wrong)}: import more (flask stimuli import)"
            )
        chosen = rng.sample(right, n_right) + rng.sample(wrong, n - n_right)
        rng.shuffle(chosen)
        items = [PlanItem(i, s.key, False, self.plan_extra(params, s.params, rng)) for i, s in enumerate(chosen)]
        if params["preview"]:
            examples = []
            for correct in (True, False):
                pool = [s for s in stimuli if s.practice and s.params["model_correct"] is correct]
                if not pool:
                    raise ConfigError(
                        "task.preview needs one correct and one incorrect example: import stimuli "
                        "with preview = true for both"
                    )
                examples.append(rng.choice(pool))
            # The examples tell the answers: which option the model predicted and which is the true class.
            preview = [
                {
                    "model_correct": s.params["model_correct"],
                    **self.plan_extra(params, s.params, rng),
                    "preview_of": s.key,
                    **_answer_keys(s.params),
                }
                for s in examples
            ]
            first = items[0]
            items[0] = PlanItem(first.index, first.stimulus_id, False, {**first.extra, "preview": preview})
        return items

    def position_design(self, items):
        return shuffled_positions(len(items))  # the correct and incorrect predictions drawn are shuffled together

    def replay_images(self, item, stimulus_url):
        images = super().replay_images(item, stimulus_url)
        for n, option in enumerate(item.get("options", ()), 1):
            label = f" ({option['label']})" if option.get("label") else ""
            images += [(f"option {n}: {option['key']}{label}", url) for url in option["explanation"]]
        return images

    def shown_letters(self, stimulus: dict[str, Any], rng: random.Random) -> list[str]:
        """The candidates a trial shows, in display order (randomised per trial)."""
        letters = sorted(stimulus["candidates"])
        rng.shuffle(letters)
        return letters

    def plan_extra(self, params, stimulus, rng) -> dict[str, Any]:
        """What the page needs to show one trial (never the ranks or the truth), and the order it shows."""
        letters = self.shown_letters(stimulus, rng)
        options = []
        for letter in letters:
            cand = stimulus["candidates"][letter]
            options.append(
                {
                    "key": letter,
                    "explanation": [asset_url(sha) for sha in cand["explanation"]],
                    "label": cand["label"] if params["show_labels"] else None,
                }
            )
        return {
            "photo_url": asset_url(stimulus["photo"]),
            "method": params["method"],
            "options": options,
            "similarity_ratings": params["similarity_ratings"],
            "output_prediction": params.get("output_prediction", False),
            "presented": {"options": letters, "labels_shown": params["show_labels"]},
        }

    # ---------------------------------------------------------------------------------------- scoring
    def correct(self, score):
        return bool(score["correct"])  # every HIVE task scores its answer right or wrong

    def summarise(self, own, cohort):
        def accuracy(scores):
            return 100 * statistics.fmean(s["correct"] for s in scores)

        mine = accuracy(own) if own else None
        others = [accuracy(person) for person in cohort if person]
        summary = {
            "accuracy_percent": mine,
            "n_trials": len(own),
            "cohort_size": len(others),
            "cohort_mean": statistics.fmean(others) if others else None,
        }
        lines = []
        if mine is not None:
            lines.append(
                gettext(
                    "You answered %(correct)d of %(total)d correctly (%(percent)s %%).",
                    correct=sum(s["correct"] for s in own),
                    total=len(own),
                    percent=f"{mine:.0f}",
                )
            )
        if others:
            lines.append(
                ngettext(
                    "The other participant so far answered %(percent)s %% correctly.",
                    "The %(num)d other participants so far answered %(percent)s %% correctly on average.",
                    len(others),
                    percent=f"{summary['cohort_mean']:.0f}",
                )
            )
        return {**summary, "lines": lines}

    def trial_row(self, stimulus, response, score, presented):
        cands = stimulus.get("candidates", {})
        shown = (presented or {}).get("options", [])
        predicted = next((c["candidate"] for c in cands.values() if c["rank"] == 1), None)
        row = {
            "model_correct": int(bool(stimulus.get("model_correct"))),
            "ground_truth": stimulus.get("ground_truth"),
            "predicted_candidate": predicted,
            "labels_shown": int(bool((presented or {}).get("labels_shown"))),
        }
        for p in CANDIDATES:
            cand = cands.get(shown[p - 1]) if p <= len(shown) else None
            row[f"option_{p}"] = cand and cand["candidate"]
            row[f"option_{p}_rank"] = cand and cand["rank"]
        choice = score.get("choice")
        picked = cands.get(choice) if choice else None
        output = cands.get(score.get("output_choice")) if score.get("output_choice") else None
        row.update(
            {
                "choice_candidate": picked and picked["candidate"],
                "choice_position": shown.index(choice) + 1 if choice in shown else None,
                "choice_rank": picked and picked["rank"],
                "decisions": _joined(response.get("decisions")),
                "confidence": response.get("confidence"),
                "judged_correct": score.get("judged_correct"),
                "output_choice_candidate": output and output["candidate"],
                "output_confidence": response.get("predicted_confidence"),
                "output_correct": score.get("output_correct"),
                "correct": score.get("correct"),
                "similarity_ratings": _joined(_by_candidate(stimulus, response.get("similarity"))),
                "model_similarity": _joined(score.get("model_similarity")),
            }
        )
        return row

    def generate_demo(self, params, out_dir):
        from .demo import write_demo  # the drawing's Pillow: `flask studies sync`, not the app workers

        return write_demo(self.id, params["method"], out_dir)

    def render_stimulus(self, key, params):
        return params["photo"]

    def model_input(self, key, params):
        return params["photo"]


class SimilarityRatings(Ratings):
    """The agreement and distinction tasks: their 1–4 similarity ratings per prototype match, when the study asks
    them, are checked for straight-lining (the confidence is the trial's answer, not a rating item)."""

    rating_scale = "1–4 similarity"

    def ratings(self, response):
        similarity = response.get("similarity") or []
        # agreement: one list; distinction: a list per option shown
        return [r for rated in similarity.values() for r in rated] if isinstance(similarity, dict) else similarity


class HiveAgreement(HiveTask, SimilarityRatings):
    id = "hive-agreement"
    name = "HIVE agreement: how confident are you that this prediction is correct?"
    hive_name = "agreement"
    chance = 0.5
    alternative = "two-sided"
    shows_all = False
    needs_ground_truth = False

    def shown_letters(self, stimulus, rng):
        return [k for k, c in stimulus["candidates"].items() if c["rank"] == 1]

    def validate_response(self, response, params, shown):
        if not isinstance(response, dict):
            raise ResponseError("response", 'response must be an object like {"confidence": 2}')
        unknown = set(response) - {"confidence", "similarity"}
        if unknown:
            raise ResponseError("response", f"unknown response field(s): {', '.join(sorted(unknown))}")
        clean = {"confidence": _int_choice(response, "confidence", 1, 4)}
        if not shown["similarity_ratings"]:
            if "similarity" in response:
                raise ResponseError("response.similarity", "this trial asks no similarity ratings")
            return clean
        # One rating per match the trial showed, as the page asks them: the analysis pairs them with the model's
        # similarity scores in match order.
        matches = len(shown["options"][0]["explanation"])
        return {**clean, "similarity": _ratings(response.get("similarity"), matches, "response.similarity")}

    def score(self, stimulus, response):
        judged = response["confidence"] <= 2
        predicted = next(c for c in stimulus["candidates"].values() if c["rank"] == 1)
        return {
            "judged_correct": int(judged),
            "correct": int(judged == stimulus["model_correct"]),
            "model_similarity": predicted["similarity"] if "similarity" in response else None,
        }


class HiveChoice(HiveTask):
    """Distinction and output prediction: pick one of four explanations, then say how confident you are."""

    def validate_response(self, response, params, shown):
        if not isinstance(response, dict):
            raise ResponseError("response", 'response must be an object like {"choice": "b", "confidence": 4}')
        rated, output = shown.get("similarity_ratings"), shown.get("output_prediction")
        allowed = {"choice", "confidence"} | ({"similarity"} if rated else set())
        allowed |= {"predicted", "predicted_confidence"} if output else set()
        unknown = set(response) - allowed
        if unknown:
            raise ResponseError("response", f"unknown response field(s): {', '.join(sorted(unknown))}")
        options = [option["key"] for option in shown["options"]]
        clean = {}
        for field in ("choice", "predicted") if output else ("choice",):
            if response.get(field) not in options:
                raise ResponseError(
                    f"response.{field}", f"response.{field} must be one of the options shown: {', '.join(options)}"
                )
            clean[field] = response[field]
        clean["confidence"] = _int_choice(response, "confidence", 1, 5)
        if output:
            clean["predicted_confidence"] = _int_choice(response, "predicted_confidence", 1, 5)
        if rated:
            # {option key: one rating per match of that option}, for every option shown
            ratings = response.get("similarity")
            if not isinstance(ratings, dict) or set(ratings) != set(options):
                raise ResponseError(
                    "response.similarity",
                    f"response.similarity must rate the matches of every option: {', '.join(options)}",
                )
            clean["similarity"] = {
                o["key"]: _ratings(ratings[o["key"]], len(o["explanation"]), f"response.similarity.{o['key']}")
                for o in shown["options"]
            }
        return clean

    @abstractmethod
    def target(self, stimulus) -> int:
        """The candidate number a right answer picks."""

    def score(self, stimulus, response):
        cands = stimulus["candidates"]
        picked = cands[response["choice"]]
        score = {"choice": response["choice"], "correct": int(picked["candidate"] == self.target(stimulus))}
        if "predicted" in response:
            score.update(
                output_choice=response["predicted"], output_correct=int(cands[response["predicted"]]["rank"] == 1)
            )
        if "similarity" in response:
            score["model_similarity"] = _by_candidate(
                stimulus, {k: cands[k]["similarity"] for k in response["similarity"]}
            )
        return score


class HiveDistinction(HiveChoice, SimilarityRatings):
    id = "hive-distinction"
    name = "HIVE distinction: which of these four is the correct class?"
    hive_name = "distinction"
    chance = 0.25

    def target(self, stimulus):
        return stimulus["ground_truth"]


class HiveOutputPrediction(HiveChoice):
    id = "hive-output-prediction"
    name = "HIVE output prediction: which of these four does the model predict?"
    hive_name = "output prediction"
    chance = 0.25
    needs_ground_truth = False

    def target(self, stimulus):
        return next(c["candidate"] for c in stimulus["candidates"].values() if c["rank"] == 1)


class HiveProtoTree(HiveTask):
    id = "hive-prototree"
    name = "HIVE ProtoTree: decide the last two nodes of the model's decision path"
    hive_name = "distinction"  # HIVE reports its ProtoTree study among the distinction tasks (Table 2)
    chance = 0.25
    Params = ProtoTreeParams
    manifest_required = HiveTask.manifest_required + ("node_root", "node_present", "node_absent")
    manifest_optional = HiveTask.manifest_optional + ("path",)

    def extra_params(self, row, files):
        nodes = {
            name: files.image(f"node_{name}", row[f"node_{name}"].strip()) for name in ("root", "present", "absent")
        }
        path = files.image("path", row["path"].strip()) if row.get("path", "").strip() else None
        return {"nodes": nodes, "path": path}

    def shown_letters(self, stimulus, rng):
        # The leaves sit where the decisions lead, so their order is fixed: candidates 1–4 left to right.
        by_number = {c["candidate"]: k for k, c in stimulus["candidates"].items()}
        return [by_number[k] for k in CANDIDATES]

    def plan_extra(self, params, stimulus, rng):
        extra = super().plan_extra(params, stimulus, rng)
        extra["nodes"] = {name: asset_url(sha) for name, sha in stimulus["nodes"].items()}
        extra["path_url"] = stimulus["path"] and asset_url(stimulus["path"])
        return extra

    def replay_images(self, item, stimulus_url):
        nodes = [(f"node {name}", url) for name, url in item.get("nodes", {}).items()]
        path = [("decision path", item["path_url"])] if item.get("path_url") else []
        return super().replay_images(item, stimulus_url) + nodes + path

    def validate_response(self, response, params, shown):
        if not isinstance(response, dict):
            raise ResponseError(
                "response", 'response must be an object like {"decisions": ["present", "absent"], "confidence": 3}'
            )
        unknown = set(response) - {"decisions", "confidence"}
        if unknown:
            raise ResponseError("response", f"unknown response field(s): {', '.join(sorted(unknown))}")
        decisions = response.get("decisions")
        if not isinstance(decisions, list) or len(decisions) != 2 or any(d not in DECISIONS for d in decisions):
            raise ResponseError(
                "response.decisions", 'response.decisions must be two of "present"/"absent" (root node, then next)'
            )
        return {"decisions": decisions, "confidence": _int_choice(response, "confidence", 1, 5)}

    def score(self, stimulus, response):
        leaf = LEAVES[tuple(response["decisions"])]
        choice = next(k for k, c in stimulus["candidates"].items() if c["candidate"] == leaf)
        return {"choice": choice, "correct": int(leaf == stimulus["ground_truth"])}


HIVE_TASKS = (HiveAgreement, HiveDistinction, HiveOutputPrediction, HiveProtoTree)
