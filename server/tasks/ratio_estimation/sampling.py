"""Training sets for models, drawn by the ratio-estimation generator itself: the ratio-sampling regimes of Jiang et
al. (reference/seeds.md §1, seed paper §2.2–2.3 and Study II).

The data domain is the CNN experiments': integer target heights, short 5–84 and tall 6–85 px (3,240 pairs, 2,081
ratios), grouped into 94 ratio bins of width 0.01 with midpoints 0.06 … 0.99. A bin is named by its midpoint in
hundredths (6 … 99); a ratio goes to the nearest midpoint, halves up (5/40 = 0.125 is bin 13), in exact integer
arithmetic so no float decides a boundary.

How a training set is made (the paper's steps, with studyhive's human test as the test set):

1. Test bins: the bins of the study's test stimuli (for study3, 24 bins from 0.18 to 0.86). No training or
   validation image ever has a ratio in one of them, so no test stimulus (nor its pair) can appear in training.
   With a random-bins test (`--random-test M`) they are instead the paper's: 19 bins drawn at random over the whole
   domain by a fixed seed (every regime and seed shares them), and M test images are drawn from them for a
   model-only evaluation; the study's test bins are then not kept out of training.
2. Validation bins: 19 of the remaining bins (the paper's 19), drawn by a fixed seed from the test bins alone, so
   every regime and every seed of the same test shares them, as the paper holds its validation set constant.
3. Candidates: the other bins (51 for study3; the paper had 56). A regime orders them, and the training bins are the
   first K of that order (K defaults to half the candidates, the paper's 28 of 56):
   IID: simple random order · COV: min, max, then repeatedly the bin farthest from those chosen so far ·
   ADV: farthest from the nearest test bin first · OOD: ascending, and K may not exceed half the candidates (the
   lowest half). Taking prefixes of one order is the paper's downsampling (Study II: 14, 7, 3 bins are subsets of
   the 28, "taken in order"); K = all candidates under IID is its "IID-large".
4. Images: each picks a chart type, then a training bin with pairs drawable as that type, then a pair of that bin
   (the paper: "randomly select a bin … then randomly select a (short, tall) pair that yields a ratio within it");
   the renderer draws it exactly as it draws the test (ratio_charts), distractors seeded by the stimulus id.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ...exceptions import ConfigError
from . import charts

RATIO_BINS = tuple(range(6, 100))  # midpoints in hundredths: 5/85 = 0.059 is bin 6, 84/85 = 0.988 is bin 99
REGIMES = ("IID", "COV", "ADV", "OOD")
VALIDATION_BINS = 19
VALIDATION_SALT = "studyhive.ratio_sampling.validation.v1:"  # changing it changes every validation split
TEST_BINS = 19  # the paper's random test bins (§2.3), for a random-bins test
TEST_SALT = "studyhive.ratio_sampling.random_test.v1"  # changing it changes every random-bins test
MAX_IMAGES = 1_000_000


def ratio_bin(short: int, tall: int) -> int:
    """The bin of short/tall: round(100 * short / tall), halves up, exactly."""
    return (200 * short + tall) // (2 * tall)


@functools.cache
def domain(chart_type: int) -> Mapping[int, tuple[tuple[int, int], ...]]:
    """Bin -> the (short, tall) pairs of the CNN domain in it that can be drawn as `chart_type`."""
    bins: dict[int, list[tuple[int, int]]] = {}
    for tall in range(charts.MIN_HEIGHT + 1, charts.MAX_HEIGHT + 1):
        for short in range(charts.MIN_HEIGHT, tall):
            if charts.fits(chart_type, short, tall):
                bins.setdefault(ratio_bin(short, tall), []).append((short, tall))
    return MappingProxyType({b: tuple(pairs) for b, pairs in sorted(bins.items())})


def _farthest(pool: list[int], chosen: list[int], rng: random.Random) -> int:
    """The bin of `pool` farthest from its nearest bin in `chosen` (ties broken by `rng`)."""
    gaps = {b: min(abs(b - c) for c in chosen) for b in pool}
    best = max(gaps.values())
    return rng.choice(sorted(b for b, gap in gaps.items() if gap == best))


def selection_order(regime: str, candidates: Sequence[int], test_bins: Sequence[int], rng: random.Random) -> list[int]:
    """Every candidate bin, in the order the regime picks them (the training bins are a prefix)."""
    pool = sorted(candidates)
    if regime == "IID":
        rng.shuffle(pool)
        return pool
    if regime == "OOD":
        return pool
    if regime == "ADV":
        gap = {b: min(abs(b - t) for t in test_bins) for b in pool}
        keyed = sorted((-gap[b], rng.random(), b) for b in pool)
        return [b for *_, b in keyed]
    if regime == "COV":
        order = [pool[0], pool[-1]][: len(pool)]
        rest = [b for b in pool if b not in order]
        while rest:
            order.append(_farthest(rest, order, rng))
            rest.remove(order[-1])
        return order
    raise ConfigError(f"regime must be one of {', '.join(REGIMES)}, got {regime!r}")


@dataclass(frozen=True)
class TrainingPlan:
    """Which bins a training set uses and why; `images` draws its stimuli."""

    regime: str
    n_bins: int
    seed: int
    chart_types: tuple[int, ...]
    test_bins: tuple[int, ...]
    validation_bins: tuple[int, ...]
    candidate_bins: tuple[int, ...]
    order: tuple[int, ...]

    @property
    def training_bins(self) -> tuple[int, ...]:
        return tuple(sorted(self.order[: self.n_bins]))

    @property
    def condition(self) -> str:
        """The paper's name for this training condition: IID, COV-14, IID-large, …"""
        if self.n_bins == len(self.candidate_bins) and self.regime == "IID":
            return "IID-large"
        return self.regime if self.n_bins == default_bins(self.candidate_bins) else f"{self.regime}-{self.n_bins}"


def default_bins(candidates: Sequence[int]) -> int:
    return max(1, len(candidates) // 2)


def _usable(bins: Sequence[int], chart_types: Sequence[int]) -> list[int]:
    return [b for b in bins if any(b in domain(t) for t in chart_types)]


def random_test_bins() -> tuple[int, ...]:
    """The paper's test bins: 19 of the 94 at random, by a fixed seed, so every regime and seed shares them."""
    digest = hashlib.sha256(TEST_SALT.encode()).digest()
    return tuple(sorted(random.Random(int.from_bytes(digest[:8], "big")).sample(RATIO_BINS, TEST_BINS)))


def plan(
    test_pairs: Sequence[tuple[int, int]],
    regime: str,
    n_bins: int | None,
    seed: int,
    chart_types: Sequence[int],
    random_test: bool = False,
) -> TrainingPlan:
    """The bins of a training set for a test made of `test_pairs` (short, tall), or for the random-bins test;
    ConfigError names a bad option."""
    if regime is None:
        raise ConfigError(f"--regime is required with --training: one of {', '.join(REGIMES)}")
    regime = str(regime).upper()
    if regime not in REGIMES:
        raise ConfigError(f"--regime must be one of {', '.join(REGIMES)}, got {regime!r}")
    types = tuple(sorted(set(chart_types)))
    if not types or any(t not in charts.CHART_TYPES for t in types):
        raise ConfigError(f"--chart-type must be among {', '.join(map(str, charts.CHART_TYPES))}")
    if not test_pairs and not random_test:
        raise ConfigError("the study has no test stimuli to keep out of the training set")
    test_bins = random_test_bins() if random_test else tuple(sorted({ratio_bin(s, t) for s, t in test_pairs}))
    free = [b for b in RATIO_BINS if b not in test_bins]
    # The validation split depends on the test only, never on --seed or --regime: every condition shares it.
    digest = hashlib.sha256((VALIDATION_SALT + ",".join(map(str, test_bins))).encode()).digest()
    validation = sorted(
        random.Random(int.from_bytes(digest[:8], "big")).sample(free, min(VALIDATION_BINS, len(free) // 2))
    )
    candidates = _usable([b for b in free if b not in validation], types)
    most = len(candidates) // 2 if regime == "OOD" else len(candidates)
    k = default_bins(candidates) if n_bins is None else n_bins
    if not 1 <= k <= most:
        raise ConfigError(
            f"--bins must be 1–{most} for {regime} ({len(candidates)} candidate bins"
            + (", of which OOD takes at most the lowest half)" if regime == "OOD" else ")")
            + f", got {k}"
        )
    order = selection_order(regime, candidates, test_bins, random.Random(seed))
    return TrainingPlan(regime, k, seed, types, test_bins, tuple(validation), tuple(candidates), tuple(order))


def training_ratios(training_bins: Sequence[int], chart_types: Sequence[int]) -> list[float]:
    """Every ratio a training set of these bins can hold when drawn as these chart types, ascending. A test
    stimulus's distance to the nearest of them is its training–test distance (the seed paper's "distance from each
    test sample to its closest training sample") once every pair of those bins is drawn, as at the paper's 60,000
    images; a small training set may miss some, so for it this is a lower bound."""
    return sorted({s / t for c in chart_types for b in training_bins for s, t in domain(c).get(b, ())})


def draw(
    bins: Sequence[int], n: int, chart_types: Sequence[int], rng: random.Random, first_variant: int = 0
) -> list[charts.BarStimulus]:
    """`n` stimuli from `bins`: chart type, then a bin drawable as that type, then a pair in it (all uniform).
    Variants count up from `first_variant`, so every id (and so every picture) in one set is distinct."""
    usable = {t: [b for b in sorted(bins) if b in domain(t)] for t in chart_types}
    empty = [t for t, b in usable.items() if not b]
    if empty:
        raise ConfigError(
            f"no bin of {', '.join(map(str, sorted(bins)))} can be drawn as chart type {', '.join(map(str, empty))}"
        )
    out = []
    for i in range(n):
        chart_type = rng.choice(chart_types)
        short, tall = rng.choice(domain(chart_type)[rng.choice(usable[chart_type])])
        out.append(charts.BarStimulus(chart_type, short, tall, first_variant + i))
    return out


def training_set(
    test_pairs: Sequence[tuple[int, int]],
    n: int,
    n_validation: int,
    regime: str,
    n_bins: int | None,
    seed: int,
    chart_types: Sequence[int],
    n_test: int | None = None,
):
    """(training stimuli, validation stimuli, sampling record, random-bins test stimuli) for `flask stimuli export
    --training`; with `n_test` (--random-test) the test bins are random_test_bins() and `n_test` test images are
    drawn from them, else the test is the study's (`test_pairs`) and none are drawn."""
    from analysis.distance import training_test_distance  # SciPy's KD-tree: for the export, not the app workers

    for name, value in (("--training", n), ("--validation", n_validation), ("--random-test", n_test)):
        if name == "--random-test" and value is None:
            continue
        if not isinstance(value, int) or not 0 <= value <= MAX_IMAGES or (name != "--validation" and value < 1):
            raise ConfigError(f"{name} must be a whole number {0 if name == '--validation' else 1}–{MAX_IMAGES:,}")
    p = plan(test_pairs, regime, n_bins, seed, chart_types, random_test=n_test is not None)
    rng = random.Random(seed)
    # Against a random-bins test the study's test bins may be training bins: variants from MAX_IMAGES keep every
    # training id (and so picture) apart from the study's own stimuli, whose variants are few.
    first = MAX_IMAGES if n_test else 0
    training = draw(p.training_bins, n, p.chart_types, rng, first_variant=first)
    validation = (
        draw(p.validation_bins, n_validation, p.chart_types, rng, first_variant=first + n) if n_validation else []
    )
    # The random-bins test is the same for every regime and seed (its own generator), as the paper's test was.
    test = draw(p.test_bins, n_test, p.chart_types, random.Random(TEST_SALT)) if n_test else []
    test_ratios = [s.short / s.tall for s in test] if n_test else [s / t for s, t in test_pairs]
    sampling: dict[str, Any] = {
        "test": f"random bins ({len(test)} images in test/)" if n_test else "the study's test stimuli",
        "regime": p.regime,
        "condition": p.condition,
        "bins": p.n_bins,
        "seed": seed,
        "chart_types": list(p.chart_types),
        "n_training": n,
        "n_validation": len(validation),
        "bin_width": 0.01,
        "bins_are": "ratio-bin midpoints in hundredths (bin 18 holds ratios in [0.175, 0.185))",
        "test_bins": list(p.test_bins),
        "validation_bins": list(p.validation_bins),
        "candidate_bins": list(p.candidate_bins),
        "selection_order": list(p.order),
        "training_bins": list(p.training_bins),
        # The seed paper's training-test distance: mean over test samples of the distance to the nearest training
        # sample, in ratio units; per stimulus (each test stimulus vs each training image) and per bin midpoint.
        "training_test_distance": {
            "stimuli": training_test_distance(test_ratios, [s.short / s.tall for s in training]),
            "bins": training_test_distance([b / 100 for b in p.test_bins], [b / 100 for b in p.training_bins]),
        },
    }
    return training, validation, sampling, test
