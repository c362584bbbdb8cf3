"""Two4Two-style hypothesis rating (Schuessler et al., "Two4Two"): participants study an example-based explanation —
a grid of images in columns by model score — and rate statements about what the model uses on a 7-point scale.

Images are imported (`flask stimuli import`, or drawn by `generate_demo`); the statements come from the study file.
Each statement is one trial, so ratings are stored one by one (idempotent, resumable) and the analysis reads one
row per participant × statement. The grid is formed once per participant, at entry (docs/two4two.md):

1. every image gets a column: its manifest `column` if given, otherwise its score's bin — by `score_edges` when
   the study sets them, else by rank into equal-count bins (quantiles); column 1 holds the lowest scores;
2. each column keeps `rows` images: the same evenly spaced ranks for everyone (`sampling = "fixed"`) or a random
   sample per participant (`"per-participant"`); within a column, higher scores are shown higher up;
3. the statements are shuffled per participant.

Every trial's `presented` (copied into its stored row) holds the statement, its position, the whole statement
order and the grid's image ids. Whether a statement is true (a relevant pattern) never goes to the page; the
analysis takes it from the study file. A trial's stimulus id is the grid's first image (top of column 1): ratings
are about the whole grid, which `presented` records in full."""

from __future__ import annotations

import bisect
import math
import re
from pathlib import Path
from typing import Annotated, Any, Literal

from flask_babel import gettext, ngettext
from pydantic import AfterValidator, Field, ValidationInfo, field_validator

from ...exceptions import ConfigError, ManifestError, ResponseError
from ...i18n import N_
from ...schema import NonBlank, Number, Table, matching, problem
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

SCALE = range(1, 8)  # the 7-point Likert scale
AGREE_FROM = 5  # ratings 5–7 count as agreeing (Two4Two's "% agreeing")
SAMPLING = ("fixed", "per-participant")
STATEMENT_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
IMAGE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")  # part of the image's URL
StatementId = matching(STATEMENT_ID.pattern, "a short id (a–z, 0–9, - and _)")


class Statement(Table):
    id: StatementId = Field(description="the statement's id")
    text: Annotated[NonBlank, AfterValidator(str.strip)] = Field(description="the statement as shown")
    relevant: bool = Field(description="true for a pattern the model really uses (the answer key)")


class RatingParams(Table):
    rows: int = Field(30, ge=1, le=200, description="images per grid column")
    columns: int = Field(5, ge=1, le=20, description="grid columns, from low to high model score")
    sampling: Literal[SAMPLING] = Field(
        "fixed",
        description=("`fixed`: the same images for everyone; `per-participant`: drawn anew for each participant"),
    )
    score_edges: list[Number] | None = Field(
        None,
        description=(
            "the score boundaries between the columns (`columns` − 1 increasing numbers); none: bins of equal size "
            "by score rank"
        ),
    )
    column_labels: list[str] | None = Field(None, description="a heading per column (`columns` texts)")
    # The defaults are shown in the study's language (build_plan_from); a researcher's own text as written.
    question: str = Field(
        N_("How much do you agree with this statement about the model?"), description=("asked with every statement")
    )
    scale_labels: list[str] = Field(
        [N_("Strongly disagree"), N_("Strongly agree")],
        min_length=2,
        max_length=2,
        description="the labels of ratings 1 and 7",
    )
    statements: list[Statement] = Field(
        min_length=1,
        description=("the statements to rate, `[[task.statements]]` tables with `id`, `text` and `relevant`"),
    )

    @field_validator("score_edges")
    @classmethod
    def _edges_fit_the_columns(cls, edges: list[Number] | None, info: ValidationInfo) -> list[Number] | None:
        if (
            edges is not None
            and "columns" in info.data
            and (
                len(edges) != info.data["columns"] - 1
                or not all(math.isfinite(e) for e in edges)
                or any(a >= b for a, b in zip(edges, edges[1:]))
            )
        ):
            raise problem(
                f"expected {info.data['columns'] - 1} increasing numbers (the boundaries between the columns)"
            )
        return edges

    @field_validator("column_labels")
    @classmethod
    def _a_label_per_column(cls, labels: list[str] | None, info: ValidationInfo) -> list[str] | None:
        if labels is not None and "columns" in info.data and len(labels) != info.data["columns"]:
            raise problem(f"expected {info.data['columns']} texts, one per column")
        return labels

    @field_validator("statements")
    @classmethod
    def _ids_differ(cls, statements: list[Statement]) -> list[Statement]:
        seen = {}
        for n, statement in enumerate(statements, 1):
            if statement.id in seen:
                raise problem(f"statement {n}'s id {statement.id!r} repeats statement {seen[statement.id]}'s")
            seen[statement.id] = n
        return statements


class HypothesisRating(DemoStimuli, ModelAnswers, Analysed, Planned, Ratings):
    id = "hypothesis-rating"
    name = "Rate hypotheses about a model from an example-based explanation (Two4Two)"
    # Reading a statement of about ten words takes a couple of seconds; an answer within one did not read it.
    fast_trial_ms = 1000
    rating_scale = "1–7 agreement"
    assets = ("rating.css", "hypothesis-rating.js")

    @property
    def analyzer(self):
        """Imported when an analysis runs: the analyzer's pandas and report stay out of app workers."""
        from .analyzer import HypothesisRatingAnalyzer

        return HypothesisRatingAnalyzer()

    @property
    def planner(self):
        """Imported when a plan is made: the planner's SciPy and pandas stay out of app workers."""
        from .planner import RatingsPlanner

        return RatingsPlanner()

    Params = RatingParams
    manifest_required = ("image_id", "file", "score", "label")
    manifest_optional = ("column",)
    stimulus_columns = (
        Column("score", "the model's score of the image (e.g. P(class B)); columns run from low to high"),
        Column("label", "the image's true class", "text"),
        Column("column", "the grid column the manifest put the image in (empty: binned by score)", "integer"),
    )
    trial_columns = (
        Column("statement_id", "id of the rated statement ([task] statements of study.toml)", "text"),
        Column("statement_text", "the statement as shown", "text"),
        Column("statement_position", "its position in this participant's shuffled order, from 0", "integer"),
        Column("rating", "agreement on the 7-point scale, 1 (strongly disagree) – 7 (strongly agree)", "integer"),
        Column("agree", "1 if the rating is 5–7, else 0", "integer"),
    )

    def stimulus_from_manifest(self, row, files, params):
        key = row["image_id"]
        if not IMAGE_ID.match(key):
            raise ManifestError("image_id", "an id of letters, digits, '.', '-' and '_' (at most 128) is required")
        try:
            score = float(row["score"])
        except ValueError:
            raise ManifestError("score", f"{row['score']!r} is not a number") from None
        if not math.isfinite(score):
            raise ManifestError("score", "the score must be a finite number")
        if not row["label"]:
            raise ManifestError("label", "the image's class is required")
        column = None
        if row["column"]:
            try:
                column = int(row["column"])
            except ValueError:
                raise ManifestError("column", f"{row['column']!r} is not a column number (1, 2, …)") from None
            if column < 1:
                raise ManifestError("column", "columns are numbered from 1")
        return StimulusSpec(
            key, {"image": files.image("file", row["file"]), "score": score, "label": row["label"], "column": column}
        )

    def generate_demo(self, params, out_dir: Path) -> Path:
        from .demo import write_demo  # the drawing's Pillow: `flask studies sync`, not the app workers

        return write_demo(out_dir)

    def build_plan_from(self, params, stimuli, rng):
        columns = _columns(params, stimuli)
        grid = _grid(params, columns, rng)
        statements = list(params["statements"])
        rng.shuffle(statements)
        order = [s["id"] for s in statements]
        # Built when the participant enters, in the study's language: the defaults translated, other text unchanged.
        question, scale_labels = params["question"], params["scale_labels"]
        page = {
            "column_labels": params["column_labels"] or _score_labels(params, columns),
            "question": gettext(question),
            "scale_labels": [gettext(text) for text in scale_labels],
        }
        # The page reads the statement and the grid from `presented`, so what is stored is what was shown.
        return [
            PlanItem(
                i,
                grid[0][0],
                False,
                {
                    **page,
                    "presented": {
                        "statement_id": s["id"],
                        "statement_text": s["text"],
                        "statement_position": i,
                        "statement_order": order,
                        "grid": grid,
                    },
                },
            )
            for i, s in enumerate(statements)
        ]

    # Every trial's stimulus is the grid's first image: what a plan orders is the statements.
    def balance_item(self, item):
        return item["presented"]["statement_id"]

    def position_design(self, items):
        return shuffled_positions(len(items))

    def replay_images(self, item, stimulus_url):
        labels = item.get("column_labels") or []
        return [
            (f"column {n}" + (f": {labels[n - 1]}" if n <= len(labels) else ""), stimulus_url(key))
            for n, column in enumerate(item["presented"]["grid"], 1)
            for key in column
        ]

    def validate_response(self, response, params, shown):
        if not isinstance(response, dict):
            raise ResponseError("response", 'response must be an object like {"rating": 5}')
        unknown = set(response) - {"rating"}
        if unknown:
            raise ResponseError("response", f"unknown response field(s): {', '.join(sorted(unknown))}")
        rating = response.get("rating")
        if isinstance(rating, bool) or not isinstance(rating, int) or rating not in SCALE:
            raise ResponseError("response.rating", "response.rating must be an integer from 1 to 7")
        return {"rating": rating}

    def ratings(self, response):
        return [response["rating"]]

    def score(self, stimulus, response):
        return {"agree": response["rating"] >= AGREE_FROM}

    def summarise(self, own, cohort):
        agreed = sum(s["agree"] for s in own)
        lines = (
            [
                ngettext(
                    "You agreed with %(agreed)d of the %(num)d statement.",
                    "You agreed with %(agreed)d of the %(num)d statements.",
                    len(own),
                    agreed=agreed,
                )
            ]
            if own
            else []
        )
        return {"agreed": agreed, "rated": len(own), "cohort_size": sum(1 for p in cohort if p), "lines": lines}

    def trial_row(self, stimulus, response, score, presented):
        presented = presented or {}
        rating = response.get("rating")
        return {
            "statement_id": presented.get("statement_id"),
            "statement_text": presented.get("statement_text"),
            "statement_position": presented.get("statement_position"),
            "rating": rating,
            "agree": None if rating is None else int(rating >= AGREE_FROM),
        }

    def render_stimulus(self, key, params):
        return params["image"]

    def model_input(self, key, params):
        return params["image"]


def _columns(params: dict[str, Any], stimuli: list[StimulusSpec]) -> list[list[StimulusSpec]]:
    """Every image in its grid column (left to right), each column sorted by falling score."""
    n_cols = params["columns"]
    if not stimuli:
        raise ConfigError("no images imported yet (flask stimuli import)")
    columns: list[list[StimulusSpec]] = [[] for _ in range(n_cols)]
    unplaced = []
    for s in stimuli:
        col = s.params.get("column")
        if col is None:
            unplaced.append(s)
        elif col > n_cols:
            raise ConfigError(f"image {s.key!r} is in column {col}, but the grid has {n_cols} columns")
        else:
            columns[col - 1].append(s)
    if params["score_edges"] is not None:
        for s in unplaced:
            columns[bisect.bisect_right(params["score_edges"], s.params["score"])].append(s)
    else:  # equal-count bins by score rank; ties broken by id so the bins do not depend on import order
        ranked = sorted(unplaced, key=lambda s: (s.params["score"], s.key))
        for rank, s in enumerate(ranked):
            columns[rank * n_cols // len(ranked)].append(s)
    for images in columns:
        images.sort(key=lambda s: (-s.params["score"], s.key))
    return columns


def _grid(params: dict[str, Any], columns: list[list[StimulusSpec]], rng) -> list[list[str]]:
    """The image ids one participant sees: `rows` per column, top to bottom by falling score."""
    rows = params["rows"]
    grid = []
    for number, images in enumerate(columns, 1):
        if len(images) < rows:
            raise ConfigError(f"grid column {number} holds {len(images)} image(s), fewer than task.rows = {rows}")
        if params["sampling"] == "fixed":  # evenly spaced ranks: the column's whole score range, the same for all
            chosen = [images[round(i * (len(images) - 1) / max(rows - 1, 1))] for i in range(rows)]
        else:
            picked = set(rng.sample(range(len(images)), rows))
            chosen = [s for i, s in enumerate(images) if i in picked]
        grid.append([s.key for s in chosen])
    return grid


def _score_labels(params: dict[str, Any], columns: list[list[StimulusSpec]]) -> list[str]:
    """Default column headings: the score range each column covers (all its images, not just those shown)."""
    edges = params["score_edges"]
    if edges is not None:
        bounds = [None, *edges, None]
        return [
            gettext("score < %(edge)s", edge=f"{bounds[1]:g}")
            if i == 0
            else gettext("score ≥ %(edge)s", edge=f"{bounds[i]:g}")
            if bounds[i + 1] is None
            else f"{bounds[i]:g} – {bounds[i + 1]:g}"
            for i in range(len(columns))
        ]
    return [f"{images[-1].params['score']:.2f} – {images[0].params['score']:.2f}" for images in columns]
