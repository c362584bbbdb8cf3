"""Fixtures for the analysis tests: simulated cohorts whose true error is known."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import integrate, optimize, stats

# Study III stimuli: the ten Cleveland-McGill heights (rounded) and their 45 pairs minus the six unused.
HEIGHTS = [10, 12, 15, 18, 21, 26, 32, 38, 46, 56]
DROPPED = {(10, 46), (12, 56), (10, 32), (12, 38), (15, 46), (18, 56)}
PAIRS = [(a, b) for i, a in enumerate(HEIGHTS) for b in HEIGHTS[i + 1 :] if (a, b) not in DROPPED]

#: Noise SD (percent) per chart type 1..5 for a participant of skill 1, and the skill levels in the population.
SIGMA = np.array([1.5, 3.0, 4.5, 6.0, 7.5])
SKILL = np.array([0.6, 1.0, 1.6])


def true_mlae(sigma: float, skill=SKILL) -> float:
    """Population midmean of log2(|e| + 1/8) when e ~ N(0, (sigma * s)^2), s uniform over ``skill``.

    log2(x + 1/8) is increasing, so the middle half of the log errors is the image of the middle half of
    |e|, whose distribution is an equal mixture of half-normals: find its quartiles a, b and integrate
    2 * integral_a^b log2(x + 1/8) f(x) dx numerically.
    """
    scales = sigma * np.asarray(skill, dtype=float)

    def cdf(x):
        return np.mean(2 * stats.norm.cdf(x / scales) - 1)

    a = optimize.brentq(lambda x: cdf(x) - 0.25, 0, 100 * sigma)
    b = optimize.brentq(lambda x: cdf(x) - 0.75, 0, 100 * sigma)
    parts = [integrate.quad(lambda x, s=s: np.log2(x + 0.125) * 2 * stats.norm.pdf(x / s) / s, a, b)[0] for s in scales]
    return 2 * float(np.mean(parts))


def simulate_cohort(
    rng: np.random.Generator, n_participants: int = 60, design: str = "cm", n_random: int = 0
) -> pd.DataFrame:
    """Simulated ratio-judgement responses, one row per trial (25 trials: 5 chart types x 5).

    ``design="cm"``: everyone sees the same 5 pairs per type (Cleveland & McGill's crossed design).
    ``design="study3"``: each participant gets 5 random pairs of the 39 per type.
    judged = true + e with e ~ N(0, (SIGMA[type] * skill_p)^2), skill_p drawn from SKILL per participant.
    The first ``n_random`` participants answer uniformly at random in 0-100 (planted outliers).
    """
    rows = []
    skill = rng.choice(SKILL, n_participants)
    fixed = [rng.choice(len(PAIRS), 5, replace=False) for _ in range(5)]
    for p in range(n_participants):
        for t in range(5):
            picks = fixed[t] if design == "cm" else rng.choice(len(PAIRS), 5, replace=False)
            for k in picks:
                short, tall = PAIRS[k]
                true = 100.0 * short / tall
                if p < n_random:
                    judged = rng.uniform(0, 100)
                else:
                    judged = true + rng.normal(0, SIGMA[t] * skill[p])
                rows.append((f"p{p:02d}", t + 1, f"t{t + 1}-s{short}-t{tall}", short, tall, true, judged))
    df = pd.DataFrame(
        rows,
        columns=[
            "participant_id",
            "chart_type",
            "stimulus_id",
            "short_height",
            "tall_height",
            "true_percent",
            "response_percent",
        ],
    )
    df["abs_error"] = (df["response_percent"] - df["true_percent"]).abs()
    df["log_error"] = np.log2(df["abs_error"] + 0.125)
    return df


@pytest.fixture(scope="session")
def true_mlae_by_type() -> np.ndarray:
    return np.array([true_mlae(s) for s in SIGMA])


def true_participant_mlae(
    sigma: float, per_participant: int = 5, skill=SKILL, n: int = 400_000, seed: int = 0
) -> float:
    """Population value of the participant estimator: the midmean, over participants, of log2(MAE + 1/8) where a
    participant of skill s makes ``per_participant`` judgments with e ~ N(0, (sigma s)^2). No closed form: a
    Monte Carlo population of ``n`` participants (standard error about 0.002 log2 at the default)."""
    rng = np.random.default_rng(seed)
    scale = sigma * rng.choice(np.asarray(skill, dtype=float), n)
    mae = np.abs(rng.normal(0.0, 1.0, (n, per_participant))).mean(axis=1) * scale
    return float(stats.trim_mean(np.log2(mae + 0.125), 0.25))


@pytest.fixture(scope="session")
def true_participant_mlae_by_type() -> np.ndarray:
    return np.array([true_participant_mlae(s) for s in SIGMA])


@pytest.fixture
def cohort() -> pd.DataFrame:
    return simulate_cohort(np.random.default_rng(2024))


@pytest.fixture
def make_cohort():
    return simulate_cohort


@pytest.fixture(scope="session")
def true_mae_by_type() -> np.ndarray:
    """E|e| for e ~ N(0, (sigma s)^2) with s uniform over SKILL: sigma * mean(SKILL) * sqrt(2 / pi)."""
    return SIGMA * SKILL.mean() * np.sqrt(2 / np.pi)
