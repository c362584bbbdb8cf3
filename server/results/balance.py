"""The balance view: how evenly a study's sessions spread over its conditions, and its stimuli over trial positions.

Which sessions: those `models.analysable(stage)` admits (never a preview; by default the study's current stage).
`started` counts every such session (completed, abandoned and excluded ones too: each was assigned a condition and
drew a plan); `completed` those whose status is completed (excluded ones are not).

Conditions are assigned by least occupancy (server/studies/conditions.py), not at random, so they get no test: the
view reports their imbalance, max − min over the study file's conditions, of sessions started and of sessions
completed. A quota is flagged when it cannot be met: the study is paused or closed with fewer completed sessions
than the quota (new entries are refused), or more sessions completed than the quota allows. Prolific's place count
is not stored here (only `flask prolific sync` reads it), so quotas are not checked against it.

Positions: a trial's position is its index among its plan's test trials (practice trials left out), counted over
the plans of started and of completed sessions. What a plan orders at random is the task type's to say
(`TaskType.position_design`: the probability of each planned trial at each position, given the plan's trials);
where the order is fixed there is nothing to test. Otherwise each item (a stimulus, or what `TaskType.balance_item`
names) gets Pearson's chi-square goodness-of-fit test of its positions in the started sessions' plans against the
design's expected counts E_p = Σ_sessions P(item at p | that session's plan):

    X² = Σ_p (O_p − E_p)² / E_p,  df = (number of cells) − 1,  p = P(χ²_df ≥ X²)

Positions the design never uses are left out (an item observed there is reported, with p = 0); the remaining
positions are pooled into as few consecutive bins as needed (at most as many as positions, at least 2) so that every
expected count is at least 5 (Cochran's rule); an item whose two bins still cannot reach that is not tested. The
p-values of the tested items are adjusted with Holm's (1979) step-down method:

    p_holm(i) = max_{j ≤ i} min(1, (m − j + 1) · p_(j))   for the m p-values sorted ascending.

Under the design about 5 % of the tested items have p < .05 by chance; the view reports that count beside the
expected 0.05 · m, and the items whose Holm-adjusted p is below .05."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..db import db
from ..models import ParticipantSession, Stimulus, Study, analysable
from ..tasktype.registry import registry
from .dashboard import condition_quotas, condition_rows, plan_less, png

MIN_EXPECTED = 5.0
ALPHA = 0.05


# ---------------------------------------------------------------------------------------------- conditions


def condition_balance(
    sessions: list[tuple[str | None, str]], quotas: dict[str, int | None], study_status: str
) -> dict[str, Any]:
    """Per condition (`dashboard.condition_rows`): sessions started and completed, and its quota; the imbalance
    (max − min over the study file's conditions) of each count, None without two conditions; and the warnings of
    quotas that cannot be met. `sessions`: (condition, status) per session."""
    rows = condition_rows(((condition, status, 1) for condition, status in sessions), quotas)
    configured = [r for r in rows if r["in_study"]]
    imbalance = {
        which: (max(r[which] for r in configured) - min(r[which] for r in configured)) if len(configured) > 1 else None
        for which in ("started", "completed")
    }
    warnings = []
    for r in configured:
        if r["quota"] is None:
            continue
        if r["completed"] < r["quota"] and study_status != "open":
            warnings.append(
                f"condition {r['condition']}: {r['completed']} of its quota of {r['quota']} completed and the study "
                f"is {study_status}: the quota cannot be met unless the study is opened"
            )
        elif r["completed"] > r["quota"]:
            warnings.append(
                f"condition {r['condition']}: {r['completed']} completed, more than its quota of {r['quota']} "
                "(was the quota lowered?)"
            )
    return {"rows": rows, "imbalance": imbalance, "warnings": warnings}


# ---------------------------------------------------------------------------------------------- positions


@dataclass
class PositionTest:
    """One item's positions: counts over started and completed sessions, the design's expected counts over the
    started ones, and its test (None where untested; `note` says why)."""

    item: str
    started: list[int]
    completed: list[int]
    expected: list[float] | None = None
    bins: int | None = None
    chi2: float | None = None
    df: int | None = None
    p: float | None = None
    p_holm: float | None = None
    note: str = ""


@dataclass
class Positions:
    """Every item's PositionTest (sorted by item), the number of positions, whether the design randomises them."""

    tests: list[PositionTest] = field(default_factory=list)
    n_positions: int = 0
    randomised: bool = False

    @property
    def tested(self) -> list[PositionTest]:
        return [t for t in self.tests if t.p is not None]

    @property
    def below_alpha(self) -> int:
        return sum(t.p < ALPHA for t in self.tested)

    @property
    def holm_significant(self) -> list[PositionTest]:
        return [t for t in self.tested if t.p_holm < ALPHA]


def pooled(observed: list[int], expected: list[float]) -> tuple[list[int], list[float]] | None:
    """`observed` and `expected` pooled into the most consecutive, equally wide bins whose expected counts are all
    at least MIN_EXPECTED (at least 2 bins); None when two bins cannot reach it."""
    n = len(observed)
    for k in range(n, 1, -1):
        obs, exp = [0] * k, [0.0] * k
        for position, (o, e) in enumerate(zip(observed, expected, strict=True)):
            obs[position * k // n] += o
            exp[position * k // n] += e
        if min(exp) >= MIN_EXPECTED:
            return obs, exp
    return None


def chi_square(observed: list[int], expected: list[float]) -> tuple[float, int, float]:
    """Pearson's X² = Σ (O − E)² / E, its df = cells − 1 and its upper-tail p."""
    from scipy.stats import chi2  # the balance page's, imported when it is shown: app workers never load SciPy

    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    df = len(observed) - 1
    return statistic, df, float(chi2.sf(statistic, df))


def holm(pvalues: list[float]) -> list[float]:
    """Holm's (1979) step-down adjusted p-values, in the order given."""
    m = len(pvalues)
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda i: pvalues[i])):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def fit(test: PositionTest) -> None:
    """Fill in `test`'s chi-square test of its started counts against its expected counts."""
    used = [p for p, e in enumerate(test.expected) if e > 0]
    stray = sum(o for p, o in enumerate(test.started) if p not in used)
    if stray:
        test.p, test.note = 0.0, f"{stray} time(s) at a position the design never puts it"
        return
    bins = pooled([test.started[p] for p in used], [test.expected[p] for p in used])
    if bins is None:
        test.note = f"too few sessions to test (an expected count below {MIN_EXPECTED:g} even in two bins)"
        return
    test.bins = len(bins[0])
    test.chi2, test.df, test.p = chi_square(*bins)


def positions(plans: list[tuple[bool, list[str], list[list[float]] | None]]) -> Positions:
    """Each item's counts per position and its test. `plans`: per started session whether it completed, its test
    trials' items in plan order, and its position design (`TaskType.position_design`; None: fixed order)."""
    n_positions = max((len(items) for _, items, _ in plans), default=0)
    randomised = any(design is not None for _, _, design in plans)
    by_item: dict[str, PositionTest] = {}
    for completed, items, design in plans:
        for position, item in enumerate(items):
            test = by_item.get(item)
            if test is None:
                test = by_item[item] = PositionTest(
                    item, [0] * n_positions, [0] * n_positions, [0.0] * n_positions if randomised else None
                )
            test.started[position] += 1
            test.completed[position] += completed
            if design is not None:
                for p, probability in enumerate(design[position]):
                    test.expected[p] += probability
    tests = [by_item[item] for item in sorted(by_item)]
    if randomised:
        for test in tests:
            fit(test)
        tested = [t for t in tests if t.p is not None]
        for t, adjusted in zip(tested, holm([t.p for t in tested]), strict=True):
            t.p_holm = adjusted
    return Positions(tests, n_positions, randomised)


# ---------------------------------------------------------------------------------------------- the study's data


@dataclass
class Balance:
    stage: str  # "pilot", "live" or "all"
    conditions: dict[str, Any]
    positions: Positions | None  # None: a plan-less study (its pages decide their own rows)


def study_balance(study: Study, stage: str) -> Balance:
    """The balance of the study's analysable sessions of `stage` ("pilot", "live" or "all")."""
    PS = ParticipantSession
    sessions = db.session.execute(
        db.select(PS.condition, PS.status, PS.plan).where(PS.study_id == study.id, analysable(stage)).order_by(PS.id)
    ).all()
    conditions = condition_balance([(c, s) for c, s, _ in sessions], condition_quotas(study.config), study.status)
    task = registry().get(study.task_type)
    if plan_less(study) or task is None:
        return Balance(stage, conditions, None)
    params = dict(
        db.session.execute(db.select(Stimulus.key, Stimulus.params).where(Stimulus.study_id == study.id)).all()
    )
    plans = []
    for _, status, plan in sessions:
        test = [item for item in plan if not item.get("practice")]
        design = task.position_design([params.get(item["stimulus_id"], {}) for item in test]) if test else None
        plans.append((status == "completed", [task.balance_item(item) for item in test], design))
    return Balance(stage, conditions, positions(plans))


def heatmap_png(study: Study, balance: Balance) -> bytes:
    """Counts per item (rows) and position (columns), over started and over completed sessions, as a PNG."""
    from matplotlib.figure import Figure

    tests = balance.positions.tests if balance.positions else []
    fig = Figure(figsize=(10, min(40.0, max(3.0, 1.5 + 0.16 * len(tests)))), dpi=100)
    if not tests:
        ax = fig.add_subplot()
        ax.text(0.5, 0.5, "no planned test trials yet", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return png(fig)
    axes = fig.subplots(1, 2, sharey=True)
    for ax, which in zip(axes, ("started", "completed"), strict=True):
        counts = [getattr(t, which) for t in tests]
        image = ax.imshow(counts, aspect="auto", cmap="viridis", interpolation="nearest")
        ax.set_title(f"{which} sessions")
        ax.set_xlabel("position among test trials")
        n = balance.positions.n_positions
        ticks = list(range(0, n, max(1, n // 10)))
        ax.set_xticks(ticks, [str(p + 1) for p in ticks])
        fig.colorbar(image, ax=ax, label="sessions")
    axes[0].set_yticks(range(len(tests)), [t.item for t in tests] if len(tests) <= 80 else [""] * len(tests))
    axes[0].tick_params(axis="y", labelsize=7)
    fig.suptitle(f"{study.slug}: item × position ({balance.stage})")
    fig.tight_layout()
    return png(fig)
