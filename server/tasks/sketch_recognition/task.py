"""Sketch recognition (the sketch-abstraction benchmark's recognition task): "What is this object?" for imported
sketches, answered with one to three ranked labels from the study's vocabulary (server/tasktype/vocabulary.py).

Stimuli come from `flask stimuli import <study> MANIFEST --images DIR`, one row per sketch: `sketch_id`, `image`
(PNG or SVG), `concept` (a unique id of the study's vocabulary), `abstraction_level` (a positive number: drawing
time in seconds, stroke count, …), `producer` ("human" or a model's name), and optionally `catch` (true for an
obvious sketch used as an attention check).

Scoring is by unique id: top-1 means the first guess is the concept's unique id, top-3 that any guess is. Because
labels repeat ("bat" the animal and the club), the label-level match (same label text, any unique id) is scored
as well; the analysis reports both. A catch trial passes when the concept's label is among the guesses (label
level: an attention check must not fail someone over a homonym)."""

from __future__ import annotations

import math
import re
import statistics
from collections import defaultdict
from typing import Annotated

from flask_babel import gettext, ngettext
from pydantic import AfterValidator, Field

from ...exceptions import ConfigError, ManifestError, ResponseError
from ...schema import NonBlank, Table, problem
from ...tasktype import vocabulary as vocab
from ...tasktype.contract import (
    Analysed,
    Column,
    DemoStimuli,
    ModelAnswers,
    PlanItem,
    QualityFlag,
    StimulusSpec,
)
from .analyzer import MAX_GUESSES, SketchAnalyzer

MAX_RT_MS = 24 * 3600 * 1000
SKETCH_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")  # it is part of the stimulus URL
SKETCH_TYPES = ("image/png", "image/svg+xml")
PRODUCER_LENGTH = 64
TRUE, FALSE = {"true", "1", "yes"}, {"", "false", "0", "no"}


def _existing_csv(space: str) -> str:
    try:
        found = not space or vocab.resolve(space, vocab.studies_dir()).is_file()
    except vocab.VocabularyError:
        found = False
    if not found:
        raise problem(
            "expected a concept similarity or embedding CSV that exists (a path relative to the studies folder)"
        )
    return space


class SketchParams(Table):
    vocabulary: NonBlank = Field(
        vocab.BUILTIN,
        description=(
            "the 1,854 THINGS concepts (built in, `server/data/things_labels.tsv`), or a TSV/CSV file with `label`, "
            "`unique_id`, optional `category`, as a path relative to the studies folder (e.g. "
            '`"my-study/labels.tsv"`). Duplicate unique ids are refused with the row named; the file\'s hash versions '
            "the study."
        ),
    )
    trials: int = Field(
        32,
        ge=1,
        le=10_000,
        description=(
            "sketches per participant, dealt round-robin over concepts (no concept repeats before all were shown)"
        ),
    )
    catch_trials: int = Field(
        1, ge=0, le=10_000, description=("catch sketches (manifest `catch = true`) mixed in, never first")
    )
    semantic_space: Annotated[str, AfterValidator(_existing_csv)] = Field(
        "",
        description=(
            "optional concept similarity (square CSV, ids as first column and header) or embedding (ids, then "
            "dimensions) for the semantic neighbour preference of `flask analyze`; path relative to the studies "
            "folder"
        ),
    )


class SketchRecognition(DemoStimuli, ModelAnswers, Analysed):
    id = "sketch-recognition"
    name = "Sketch recognition: name the object from a fixed vocabulary (sketch-abstraction benchmark)"
    assets = ("sketch.css", "sketch-recognition.js")
    analyzer = SketchAnalyzer()
    Params = SketchParams
    model_answers = "labels"
    # Recognising a sketch and picking its name from the type-ahead takes longer than half a second.
    fast_trial_ms = 500
    quality_flags = (
        QualityFlag("catch_failed", "Failed attention checks (catch trials)", "Failed checks", attention_check=True),
    )
    manifest_required = ("sketch_id", "image", "concept", "abstraction_level", "producer")
    manifest_optional = ("catch",)
    stimulus_columns = (
        Column("concept", "the sketched concept: a unique id of the study's vocabulary", "text"),
        Column("concept_label", "the concept's label (labels repeat across unique ids)", "text"),
        Column("abstraction_level", "abstraction level: drawing time (s) or stroke count, as imported"),
        Column("producer", "who drew the sketch: human, or the generating model's name", "text"),
        Column("catch", "an obvious sketch shown as an attention check", "boolean"),
    )
    trial_columns = (
        stimulus_columns
        + tuple(
            c
            for rank in range(1, MAX_GUESSES + 1)
            for c in (
                Column(f"guess_{rank}", f"unique id of the participant's guess ranked {rank} (empty if none)", "text"),
                Column(f"guess_{rank}_label", f"label of guess {rank}", "text"),
                Column(f"guess_{rank}_rt_ms", f"ms from the sketch appearing to guess {rank} being chosen"),
            )
        )
        + (
            Column("n_guesses", "how many guesses the participant gave (1–3)", "integer"),
            Column("top1_correct", "guess 1 is the concept's unique id", "boolean"),
            Column("top3_correct", "one of the guesses is the concept's unique id", "boolean"),
            Column("top1_label_match", "guess 1 has the concept's label (any unique id of that label)", "boolean"),
            Column("top3_label_match", "one of the guesses has the concept's label", "boolean"),
            Column("catch_failed", "catch trials only: the concept's label is not among the guesses", "boolean"),
        )
    )

    # ------------------------------------------------------------------ study file

    def parse_params(self, raw):
        params = super().parse_params(raw)
        try:
            vocabulary = vocab.load_file(vocab.resolve(params["vocabulary"], vocab.studies_dir()))
        except vocab.VocabularyError as exc:
            raise ConfigError(f"task.vocabulary: {exc}") from None
        return {**params, "vocabulary_sha256": vocabulary.sha256}

    # ------------------------------------------------------------------ stimuli

    def stimulus_from_manifest(self, row, files, params):
        sketch_id = row["sketch_id"]
        if not SKETCH_ID.match(sketch_id):
            raise ManifestError(
                "sketch_id",
                f"{sketch_id!r} is not a valid id (1–128 of A–Z a–z 0–9 . _ -, starting with a letter or digit)",
            )
        vocabulary = _vocabulary(params, ManifestError, "concept")
        concept = row["concept"]
        entry = vocabulary.get(concept)
        if entry is None:
            namesakes = [e.unique_id for e in vocabulary.entries if e.label.lower() == concept.lower()]
            hint = f" (the label {concept!r} has the unique ids {', '.join(namesakes)})" if namesakes else ""
            raise ManifestError("concept", f"{concept!r} is not a unique id of the vocabulary {vocabulary.name}{hint}")
        try:
            level = float(row["abstraction_level"])
        except ValueError:
            level = math.nan
        if not math.isfinite(level) or level <= 0:
            raise ManifestError("abstraction_level", f"{row['abstraction_level']!r} is not a positive number")
        producer = row["producer"]
        if not producer or len(producer) > PRODUCER_LENGTH:
            raise ManifestError("producer", f"required, at most {PRODUCER_LENGTH} characters (human or a model name)")
        flag = row.get("catch", "").strip().lower()
        if flag not in TRUE | FALSE:
            raise ManifestError("catch", f"{row['catch']!r} must be true or false (or empty)")
        image = files.image("image", row["image"])
        if files.pending[image][0] not in SKETCH_TYPES:
            raise ManifestError("image", f"{row['image']!r} is {files.pending[image][0]}; sketches are PNG or SVG")
        return StimulusSpec(
            sketch_id,
            {
                "image": image,
                "concept": concept,
                "concept_label": entry.label,
                "abstraction_level": int(level) if level.is_integer() else level,
                "producer": producer,
                "catch": flag in TRUE,
            },
        )

    def generate_demo(self, params, out_dir):
        from .demo import write_demo  # the drawing's Pillow: `flask studies sync`, not the app workers

        return write_demo(out_dir)

    def build_plan_from(self, params, stimuli, rng):
        test = [s for s in stimuli if not s.params.get("catch")]
        catch = [s for s in stimuli if s.params.get("catch")]
        if not test:
            raise ConfigError("no sketches imported yet (flask stimuli import)")
        # A study's sketches must be of its own vocabulary's concepts: refuse to start rather than score against
        # another list (the import checks this too when its caller passes the study's parameters).
        try:
            vocabulary = vocab.for_params(params)
        except vocab.VocabularyError as exc:
            raise ConfigError(str(exc)) from None
        outside = sorted(s.key for s in stimuli if s.params["concept"] not in vocabulary)
        if outside:
            raise ConfigError(
                f"{len(outside)} sketch(es) show concepts outside the vocabulary {vocabulary.name}, e.g. {outside[0]!r}"
            )
        # Spread the trials over concepts: a random order of each concept's sketches, dealt round-robin across the
        # concepts (in random order), so no concept repeats before every concept has been shown once.
        by_concept: dict[str, list[StimulusSpec]] = defaultdict(list)
        for s in test:
            by_concept[s.params["concept"]].append(s)
        piles = list(by_concept.values())
        for pile in piles:
            rng.shuffle(pile)
        rng.shuffle(piles)
        dealt = [pile[i] for i in range(max(map(len, piles))) for pile in piles if i < len(pile)]
        chosen = dealt[: params["trials"]]
        rng.shuffle(chosen)
        # Catch trials go anywhere but first: an attention check needs some task before it.
        for s in rng.sample(catch, min(params["catch_trials"], len(catch))):
            chosen.insert(rng.randint(1, len(chosen)), s)
        return [PlanItem(i, s.key, False) for i, s in enumerate(chosen)]

    def position_design(self, items):
        # The sketches are shuffled, then each catch trial is inserted at a uniform index from 1 to the list's
        # length: the first trial is always a sketch, and behind it the other n − 1 sketches and the c catch
        # trials are in uniformly random order (random insertion builds a uniform permutation).
        catch = [bool(params.get("catch")) for params in items]
        c = sum(catch)
        n = len(items) - c
        rest = 1 / (n + c - 1) if n + c > 1 else 0.0
        return [
            [0.0] + [rest] * (n + c - 1) if is_catch else [1 / n] + [(n - 1) / n * rest] * (n + c - 1)
            for is_catch in catch
        ]

    # ------------------------------------------------------------------ responses

    def validate_response(self, response, params, shown):
        if not isinstance(response, dict) or set(response) != {"guesses"}:
            raise ResponseError(
                "response", 'response must be an object like {"guesses": [{"label_id": "bat1", "rt_ms": 2300}]}'
            )
        guesses = response["guesses"]
        if not isinstance(guesses, list) or not 1 <= len(guesses) <= MAX_GUESSES:
            raise ResponseError("response.guesses", f"give 1 to {MAX_GUESSES} guesses, ranked")
        vocabulary = _vocabulary(params, ResponseError, "response.guesses")
        cleaned, seen = [], set()
        for rank, guess in enumerate(guesses):
            where = f"response.guesses[{rank}]"
            if not isinstance(guess, dict) or set(guess) != {"label_id", "rt_ms"}:
                raise ResponseError(where, f'{where} must be an object {{"label_id": …, "rt_ms": …}}')
            label_id, rt_ms = guess["label_id"], guess["rt_ms"]
            entry = vocabulary.get(label_id) if isinstance(label_id, str) else None
            if entry is None:
                raise ResponseError(f"{where}.label_id", f"{where}.label_id is not in the study's vocabulary")
            if label_id in seen:
                raise ResponseError(f"{where}.label_id", f"{where}.label_id repeats an earlier guess")
            seen.add(label_id)
            if isinstance(rt_ms, bool) or not isinstance(rt_ms, (int, float)) or not 0 <= rt_ms <= MAX_RT_MS:
                raise ResponseError(f"{where}.rt_ms", f"{where}.rt_ms must be a number of milliseconds")
            cleaned.append({"label_id": label_id, "label": entry.label, "rt_ms": round(rt_ms)})
        return {"guesses": cleaned}

    def score(self, stimulus, response):
        ids = [g["label_id"] for g in response["guesses"]]
        labels = [g["label"].lower() for g in response["guesses"]]
        concept_label = stimulus["concept_label"].lower()
        catch = bool(stimulus.get("catch"))
        return {
            "top1": ids[0] == stimulus["concept"],
            "top3": stimulus["concept"] in ids,
            "top1_label": labels[0] == concept_label,
            "top3_label": concept_label in labels,
            "catch": catch,
            "catch_failed": (concept_label not in labels) if catch else None,
        }

    def correct(self, score):
        return None if score.get("catch") else bool(score["top1"])  # the first guess names the concept

    def summarise(self, own, cohort):
        def accuracy(scores):
            judged = [s for s in scores if not s.get("catch")]
            return 100 * statistics.fmean(s["top1"] for s in judged) if judged else None

        mine = accuracy(own)
        others = [a for a in map(accuracy, cohort) if a is not None]
        lines = []
        if mine is not None:
            lines.append(
                gettext(
                    "Your first guess named the drawn object in %(percent)s %% of the sketches.", percent=f"{mine:.0f}"
                )
            )
        if others and mine is not None:
            median = statistics.median(others)
            lines.append(
                ngettext(
                    "The other participant so far managed %(percent)s %%.",
                    "The %(num)d other participants so far managed %(percent)s %% (median).",
                    len(others),
                    percent=f"{median:.0f}",
                )
            )
        return {
            "top1_percent": mine,
            "cohort_size": len(others),
            "cohort_median": statistics.median(others) if others else None,
            "lines": lines,
        }

    def trial_row(self, stimulus, response, score, presented):
        row = {c: stimulus.get(c) for c in ("concept", "concept_label", "abstraction_level", "producer", "catch")}
        guesses = response.get("guesses", [])
        for rank in range(1, MAX_GUESSES + 1):
            guess = guesses[rank - 1] if rank <= len(guesses) else {}
            row.update(
                {
                    f"guess_{rank}": guess.get("label_id"),
                    f"guess_{rank}_label": guess.get("label"),
                    f"guess_{rank}_rt_ms": guess.get("rt_ms"),
                }
            )
        row.update(
            {
                "n_guesses": len(guesses),
                "top1_correct": score.get("top1"),
                "top3_correct": score.get("top3"),
                "top1_label_match": score.get("top1_label"),
                "top3_label_match": score.get("top3_label"),
                "catch_failed": score.get("catch_failed"),
            }
        )
        return row

    def vocabulary(self, params):
        try:
            return vocab.for_params(params)
        except vocab.VocabularyError as exc:
            raise ConfigError(str(exc)) from None

    def render_stimulus(self, key, params):
        return params["image"]

    def model_input(self, key, params):
        return params["image"]


def _vocabulary(params, error, field):
    try:
        return vocab.for_params(params)
    except vocab.VocabularyError as exc:
        raise error(field, str(exc)) from None
