"""Cleveland–McGill position–length bar charts: the one generator of ratio-estimation stimuli.

The five chart types of Cleveland & McGill (1984), "Graphical perception: theory, experimentation, and application
to the development of graphical methods", JASA 79(387), drawn with the pixel rules of Haehn et al. (2018),
"Evaluating 'graphical perception' with CNNs", IEEE TVCG 25(1), as reused by the ratio-sampling study ("Study III",
reference/seeds.md §1): a 100×100 image, baseline on the bottom row, 1-px black lines on white, the two target
bars marked with a dot. The task is "what percent is the smaller marked bar of the larger".

People see SVG and CNNs get PNG, so both are drawn from one `ChartLayout`; nothing geometric is decided at render
time. Every random choice comes from a seed derived from the stimulus id, so an id names exactly one picture.

Pixel convention (shared by both renderers): value v above the baseline is image row 99 - v. A `Rect` outline is
drawn *inclusively*: vertical lines in columns x and x+width, horizontal lines in rows 99-y (bottom) and
99-(y+height) (top). A bar of height h therefore has h+1 inked pixels in its edge column and its top line lies h rows
above its bottom line — that row distance is "the height". (Haehn et al. leave the bottom edge open; we close it,
because an SVG <rect> is closed and the two renderings must agree.) In SVG a line through pixel column c has its
centre at c + 0.5, hence the +0.5 offsets and shape-rendering="crispEdges".
"""

from __future__ import annotations

import functools
import hashlib
import io
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the rasters are for models (`flask stimuli export`): app workers draw SVG without numpy or Pillow
    import numpy as np

HEIGHTS = (10, 12, 15, 18, 21, 26, 32, 38, 46, 56)  # C–M's 10·10^((i-1)/12), rounded to integers
CHART_TYPES = (1, 2, 3, 4, 5)
CHART_TYPE_NAMES = {
    1: "adjacent bars",
    2: "aligned stacked bars",
    3: "separated bars",
    4: "unaligned stacked bars",
    5: "divided bar",
}
# Pairs whose unrounded C–M ratios (0.18 / 0.32 groups) C–M left out; removing them empties index distances 8 and 6.
EXCLUDED_PAIRS = frozenset({(10, 46), (12, 56), (10, 32), (12, 38), (15, 46), (18, 56)})

SIZE = 100  # canvas is SIZE × SIZE pixels / viewBox units
BASE_ROW = SIZE - 1  # the baseline is the bottom pixel row
MIN_HEIGHT, MAX_HEIGHT = 5, 85  # target-height domain of the CNN experiments; ids outside it are rejected

# Grouped types (1, 3): Haehn et al.'s ten 7-px bars, 2-px gaps, an 8-px gap between the two groups of five.
BAR_LEFTS = (2, 11, 20, 29, 38, 55, 64, 73, 82, 91)
BAR_WIDTH = 7
DISTRACTOR_BAR_RANGE = (10, 92)  # unmarked bar heights, inclusive (Haehn: randint(10, 93))
MARK_LIFT = 5  # grouped types: the dot sits 5 px above the baseline

# Stacked types (2, 4, 5): two stacks of five segments, x = 10–40 and 60–90.
STACK_LEFTS = (10, 60)
STACK_WIDTH = 30
SEGMENTS = 5
STACK_MAX_TOTAL = 93  # Haehn et al. keep every stack at most 93 px tall (6 px of headroom)
MIN_SEGMENT = 3  # an unmarked segment needs >= 2 white rows between its lines to read as a segment
PREFERRED_SEGMENT = 8  # Haehn's lower bound for unmarked segments when the budget allows it
# Divided bar: both targets plus three visible segments share one stack of <= 93 px, so short + tall <= 84.
# Of the 39 study pairs this drops (32, 56), (38, 56) and (46, 56) from type 5 only; every ratio group survives.
TYPE5_MAX_TOTAL = STACK_MAX_TOTAL - (SEGMENTS - 2) * MIN_SEGMENT

SEED_SALT = "studyhive.ratio_charts.v1:"  # change only on purpose: it changes every picture
_ID_RE = re.compile(r"([tp])(\d+)-s(\d+)-t(\d+)-v(\d+)")
_CANONICAL_INT = re.compile(r"0|[1-9]\d*")
_MAX_TYPE4_TRIES = 1000


def ratio_groups() -> dict[int, tuple[tuple[int, int], ...]]:
    """C–M ratio groups: index distance d between the two heights -> (short, tall) pairs; ratio ≈ 0.826**d."""
    groups: dict[int, list[tuple[int, int]]] = {}
    for i, j in combinations(range(len(HEIGHTS)), 2):
        pair = (HEIGHTS[i], HEIGHTS[j])
        if pair not in EXCLUDED_PAIRS:
            groups.setdefault(j - i, []).append(pair)
    return {d: tuple(pairs) for d, pairs in sorted(groups.items())}


@dataclass(frozen=True)
class BarStimulus:
    chart_type: int
    short: int
    tall: int
    variant: int = 0
    practice: bool = False

    def __post_init__(self):
        for name in ("chart_type", "short", "tall", "variant"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{name} must be an integer, got {value!r}")
        if self.chart_type not in CHART_TYPES:
            raise ValueError(f"chart type must be one of 1–5, got {self.chart_type}")
        if not MIN_HEIGHT <= self.short < self.tall <= MAX_HEIGHT:
            raise ValueError(
                f"need {MIN_HEIGHT} <= short < tall <= {MAX_HEIGHT}, got short={self.short}, tall={self.tall}"
            )
        if self.variant < 0:
            raise ValueError(f"variant must be >= 0, got {self.variant}")

    @property
    def stimulus_id(self) -> str:
        return stimulus_id(self.chart_type, self.short, self.tall, self.variant, self.practice)

    @property
    def true_percent(self) -> float:
        return 100 * self.short / self.tall

    @classmethod
    def parse(cls, stimulus_id: str) -> BarStimulus:
        """Inverse of `stimulus_id`; only canonical ids (no signs, spaces or leading zeros) are accepted."""
        m = _ID_RE.fullmatch(stimulus_id) if isinstance(stimulus_id, str) else None
        if m is None:
            raise ValueError(
                f"malformed bar-chart stimulus id {stimulus_id!r}; expected e.g. 't1-s10-t12-v0' or 'p3-s14-t60-v0'"
            )
        if not all(_CANONICAL_INT.fullmatch(g) for g in m.groups()[1:]):
            raise ValueError(f"malformed bar-chart stimulus id {stimulus_id!r}: numbers must not have leading zeros")
        kind, chart_type, short, tall, variant = m.groups()
        try:
            return cls(int(chart_type), int(short), int(tall), int(variant), kind == "p")
        except ValueError as exc:
            raise ValueError(f"invalid bar-chart stimulus id {stimulus_id!r}: {exc}") from None


def stimulus_id(chart_type: int, short: int, tall: int, variant: int, practice: bool = False) -> str:
    """The id of BarStimulus(chart_type, short, tall, variant, practice), without building one (a participant's plan
    draws its test trials from pairs that fit)."""
    return f"{'p' if practice else 't'}{chart_type}-s{short}-t{tall}-v{variant}"


@functools.cache
def practice_stimuli() -> tuple[BarStimulus, ...]:
    """One practice trial per type; heights outside HEIGHTS so practice never previews a test pair."""
    pairs = {1: (20, 50), 2: (33, 41), 3: (14, 60), 4: (27, 44), 5: (16, 30)}  # ratios .40 .80 .23 .61 .53
    return tuple(BarStimulus(t, s, h, 0, practice=True) for t, (s, h) in pairs.items())


@dataclass(frozen=True)
class Rect:
    x: int  # left edge column
    y: int  # bottom edge, pixels above the baseline
    width: int  # columns from the left line to the right line
    height: int  # rows from the bottom line to the top line


@dataclass(frozen=True)
class ChartLayout:
    stimulus: BarStimulus
    bars: tuple[Rect, ...]  # grouped: left to right; stacked: left stack bottom-up, then right stack
    marks: tuple[tuple[float, float], ...]  # dot centres, image coordinates (x right, y down), at pixel centres
    marked: tuple[int, ...] = ()  # indices into `bars` of the two marked rects, same order as `marks`


def _segment_range(budget: int, n: int) -> tuple[int, int] | None:
    """Inclusive per-segment height range for n unmarked segments sharing `budget` px (None if they can't fit)."""
    hi = budget // n
    if hi < MIN_SEGMENT:
        return None
    # Haehn's floor of 8 px when there is room; otherwise keep >= 3 choices per segment (down to MIN_SEGMENT) so
    # tall targets still get varied distractors and type 4 can still unalign its stacks.
    return max(MIN_SEGMENT, min(PREFERRED_SEGMENT, hi - 2)), hi


def _type4_feasible(a: int, b: int) -> bool:
    # The two marked top segments must differ in both bottom and top position, i.e. sums below them B_a != B_b
    # and B_a + a != B_b + b; the attainable sums are every integer in [4*lo, 4*hi].
    ra, rb = _segment_range(STACK_MAX_TOTAL - a, 4), _segment_range(STACK_MAX_TOTAL - b, 4)
    if ra is None or rb is None:
        return False
    return any(
        ba != bb and ba + a != bb + b
        for ba in range(4 * ra[0], 4 * ra[1] + 1)
        for bb in range(4 * rb[0], 4 * rb[1] + 1)
    )


def fits(chart_type: int, short: int, tall: int) -> bool:
    """Can this (short, tall) pair be drawn as this chart type on the 100×100 canvas?"""
    if chart_type in (1, 3):
        return tall <= BASE_ROW
    if chart_type == 2:
        return _segment_range(STACK_MAX_TOTAL - tall, SEGMENTS - 1) is not None
    if chart_type == 4:
        return _type4_feasible(short, tall)
    if chart_type == 5:
        return short + tall <= TYPE5_MAX_TOTAL
    raise ValueError(f"chart type must be one of 1–5, got {chart_type}")


def pairs_for_type(chart_type: int) -> tuple[tuple[int, int], ...]:
    """The study pairs (39 minus EXCLUDED_PAIRS) that can be drawn as `chart_type`."""
    return tuple(p for pairs in ratio_groups().values() for p in pairs if fits(chart_type, *p))


@functools.cache  # every participant's entry draws from these: compute once, hand out read-only
def ratio_groups_for_type(chart_type: int) -> Mapping[int, tuple[tuple[int, int], ...]]:
    groups = {d: tuple(p for p in pairs if fits(chart_type, *p)) for d, pairs in ratio_groups().items()}
    return MappingProxyType({d: pairs for d, pairs in groups.items() if pairs})


def _rng(stimulus_id: str) -> random.Random:
    # hashlib, not hash(): str hashes are salted per process, and an id must name the same picture everywhere.
    digest = hashlib.sha256((SEED_SALT + stimulus_id).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _stack(rng: random.Random, x: int, marked: dict[int, int], unmarked_budget: int) -> list[Rect]:
    """Five segments bottom-up; `marked` maps segment index -> fixed height, the rest share the budget."""
    free = SEGMENTS - len(marked)
    lo, hi = _segment_range(unmarked_budget, free)
    heights = [marked[i] if i in marked else rng.randint(lo, hi) for i in range(SEGMENTS)]
    rects, y = [], 0
    for h in heights:
        rects.append(Rect(x, y, STACK_WIDTH, h))
        y += h
    return rects


def _centre_mark(r: Rect) -> tuple[float, float]:
    # The middle column of a 30-px stack is x+15 (line centres x+.5 and x+30.5 average to x+15.5 = that pixel's
    # centre); vertically the pixel row h//2 above the bottom line.
    return (r.x + r.width // 2 + 0.5, BASE_ROW - r.y - r.height // 2 + 0.5)


def layout(stim: BarStimulus) -> ChartLayout:
    """Geometry of one stimulus. Raises ValueError if the pair can't be drawn as this type (see `fits`)."""
    t, s, h = stim.chart_type, stim.short, stim.tall
    if not fits(t, s, h):
        raise ValueError(
            f"{stim.stimulus_id}: heights {s} and {h} do not fit a type-{t} chart "
            f"({CHART_TYPE_NAMES[t]}) on the {SIZE}x{SIZE} canvas"
        )
    rng = _rng(stim.stimulus_id)
    # Which target is on the left / at the bottom is part of the picture, so it is random too.
    first, second = (s, h) if rng.random() < 0.5 else (h, s)

    if t in (1, 3):
        marked = (1, 2) if t == 1 else (1, 6)  # adjacent in group one / 2nd bar of each group
        heights = [rng.randint(*DISTRACTOR_BAR_RANGE) for _ in BAR_LEFTS]
        heights[marked[0]], heights[marked[1]] = first, second
        bars = tuple(Rect(x, 0, BAR_WIDTH, v) for x, v in zip(BAR_LEFTS, heights))
        # Haehn et al. put the dot in column left+3 (7//2), row 94.
        marks = tuple((BAR_LEFTS[i] + BAR_WIDTH // 2 + 0.5, BASE_ROW - MARK_LIFT + 0.5) for i in marked)
    elif t == 2:
        # Bottom segment of each stack: both targets start on the baseline -> judged by position.
        left = _stack(rng, STACK_LEFTS[0], {0: first}, STACK_MAX_TOTAL - first)
        right = _stack(rng, STACK_LEFTS[1], {0: second}, STACK_MAX_TOTAL - second)
        bars, marked = tuple(left + right), (0, SEGMENTS)
    elif t == 4:
        # Top segment of each stack; resample until neither the bottoms nor the tops line up, so the only way to
        # compare them is by length. `fits` guaranteed a solution exists; the bound only guards against a bug.
        for _ in range(_MAX_TYPE4_TRIES):
            left = _stack(rng, STACK_LEFTS[0], {SEGMENTS - 1: first}, STACK_MAX_TOTAL - first)
            right = _stack(rng, STACK_LEFTS[1], {SEGMENTS - 1: second}, STACK_MAX_TOTAL - second)
            a, b = left[-1], right[-1]
            if a.y != b.y and a.y + a.height != b.y + b.height:
                break
        else:
            raise RuntimeError(f"{stim.stimulus_id}: could not unalign the type-4 stacks")
        bars, marked = tuple(left + right), (SEGMENTS - 1, 2 * SEGMENTS - 1)
    else:
        # Divided bar: the two targets are the top two segments of the left stack (Haehn et al.'s placement),
        # three unmarked segments below them; the right stack is all distractors.
        left = _stack(rng, STACK_LEFTS[0], {3: first, 4: second}, STACK_MAX_TOTAL - s - h)
        right = _stack(rng, STACK_LEFTS[1], {}, STACK_MAX_TOTAL)
        bars, marked = tuple(left + right), (3, 4)
    if t not in (1, 3):
        marks = tuple(_centre_mark(bars[i]) for i in marked)

    chart = ChartLayout(stim, bars, marks, marked)
    for r in chart.bars:  # cheap invariant check: nothing may leave the canvas
        if not (0 <= r.x and r.x + r.width < SIZE and 0 <= r.y and r.y + r.height <= BASE_ROW):
            raise RuntimeError(f"{stim.stimulus_id}: {r} leaves the canvas")
    return chart


def _svg_num(v: float) -> str:
    return f"{v:g}"


def render_svg(chart: ChartLayout) -> str:
    """Standalone SVG for people. No width/height so the page can scale it; title says nothing about the answer."""
    rects = "".join(
        f'<rect x="{_svg_num(r.x + 0.5)}" y="{_svg_num(BASE_ROW - r.y - r.height + 0.5)}" '
        f'width="{r.width}" height="{r.height}"/>'
        for r in chart.bars
    )
    dots = "".join(f'<circle cx="{_svg_num(x)}" cy="{_svg_num(y)}" r="1"/>' for x, y in chart.marks)
    # The background is a <path>, not a <rect>, so every <rect> in the document is a bar.
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f"<title>Bar chart ({CHART_TYPE_NAMES[chart.stimulus.chart_type]}), two parts marked with a dot</title>"
        '<path d="M0 0H100V100H0Z" fill="#fff"/>'
        f'<g fill="none" stroke="#000" stroke-width="1" shape-rendering="crispEdges">{rects}</g>'
        f'<g fill="#000">{dots}</g></svg>'
    )


def render_array(chart: ChartLayout) -> np.ndarray:
    """The 100×100 uint8 raster (255 white, 0 ink) that `render_png` encodes."""
    import numpy as np

    img = np.full((SIZE, SIZE), 255, dtype=np.uint8)
    for r in chart.bars:
        top, bottom, left, right = BASE_ROW - r.y - r.height, BASE_ROW - r.y, r.x, r.x + r.width
        img[top : bottom + 1, left] = img[top : bottom + 1, right] = 0
        img[top, left : right + 1] = img[bottom, left : right + 1] = 0
    for x, y in chart.marks:
        img[int(y), int(x)] = 0  # a single pixel, as in Haehn et al.
    return img


def render_png(chart: ChartLayout) -> bytes:
    """8-bit grayscale PNG for CNNs; same geometry as `render_svg`, deterministic bytes."""
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(render_array(chart)).save(buf, format="PNG")
    return buf.getvalue()
