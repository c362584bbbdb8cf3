"""The balance view: conditions' imbalance and quota warnings, each item's positions and their chi-square test
against the task's plan design (Holm-adjusted), checked against values worked out by hand; and the page with its
stage filter and heatmap."""

import math
import random

import pytest

from server.db import db
from server.models import ParticipantSession, Stimulus, Study
from server.results import balance
from server.tasktype.contract import StimulusSpec, shuffled_positions
from server.tasktype.registry import registry
from tests.helpers import answer_all, enter, to_pilot

UNIFORM2 = shuffled_positions(2)


def test_condition_counts_imbalance_and_quotas_that_cannot_be_met():
    sessions = [("a", "completed"), ("a", "started"), ("a", "abandoned"), ("b", "completed"), ("gone", "started")]
    quotas = {"a": 2, "b": 5, "c": None}
    closed = balance.condition_balance(sessions, quotas, "closed")
    rows = {r["condition"]: (r["started"], r["completed"], r["quota"], r["in_study"]) for r in closed["rows"]}
    assert rows == {
        "a": (3, 1, 2, True),
        "b": (1, 1, 5, True),
        "c": (0, 0, None, True),
        "gone": (1, 0, None, False),  # a condition no longer in the study file: shown, not in the imbalance
    }
    assert closed["imbalance"] == {"started": 3, "completed": 1}  # a 3 − c 0; a (or b) 1 − c 0
    assert closed["warnings"] == [
        "condition a: 1 of its quota of 2 completed and the study is closed: the quota cannot be met unless the "
        "study is opened",
        "condition b: 1 of its quota of 5 completed and the study is closed: the quota cannot be met unless the "
        "study is opened",
    ]
    assert balance.condition_balance(sessions, quotas, "open")["warnings"] == []
    over = balance.condition_balance([("a", "completed")] * 3, {"a": 2}, "open")
    assert over["warnings"] == ["condition a: 3 completed, more than its quota of 2 (was the quota lowered?)"]
    assert over["imbalance"] == {"started": None, "completed": None}  # one condition: nothing to compare


def test_chi_square_and_holm_by_hand():
    # (10 − 20)² / 20 + 0 + (30 − 20)² / 20 = 10 with 2 df, whose upper tail is e^(−10/2)
    statistic, df, p = balance.chi_square([10, 20, 30], [20.0, 20.0, 20.0])
    assert (statistic, df) == (10.0, 2) and p == pytest.approx(math.exp(-5))
    # sorted: .005·4 = .02, .01·3 = .03, .03·2 = .06, .04·1 = .04 → running max .06
    assert balance.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert balance.holm([]) == []


def test_positions_are_pooled_until_every_expected_count_reaches_five():
    # 4 positions of expected 2.5: 3 bins give 5, 2.5, 2.5; 2 bins give 5, 5
    assert balance.pooled([1, 5, 3, 1], [2.5] * 4) == ([6, 4], [5.0, 5.0])
    assert balance.pooled([4, 6, 5], [5.0] * 3) == ([4, 6, 5], [5.0] * 3)
    assert balance.pooled([1, 1], [1.0, 1.0]) is None


def test_item_positions_tested_against_a_shuffled_design():
    # 10 plans of two shuffled items: A first in 9 (completed in 5 of those), B first in 1.
    plans = [(n < 5, ["A", "B"], UNIFORM2) for n in range(9)] + [(False, ["B", "A"], UNIFORM2)]
    got = balance.positions(plans)
    assert got.randomised and got.n_positions == 2
    a, b = got.tests
    assert (a.item, a.started, a.completed, a.expected) == ("A", [9, 1], [5, 0], [5.0, 5.0])
    assert (b.item, b.started, b.completed) == ("B", [1, 9], [0, 5])
    # X² = (9 − 5)²/5 + (1 − 5)²/5 = 6.4, 1 df: p = P(|Z| ≥ √6.4) = erfc(√3.2) ≈ .0114
    for t in (a, b):
        assert (t.bins, t.chi2, t.df) == (2, pytest.approx(6.4), 1)
        assert t.p == pytest.approx(math.erfc(math.sqrt(3.2)))
        assert t.p_holm == pytest.approx(2 * t.p)  # two equal p-values: the smaller gets ×2, the other the max
    assert got.below_alpha == 2 and [t.item for t in got.holm_significant] == ["A", "B"]  # 2 · .0114 < .05

    few = balance.positions(plans[:4])  # expected 2 per position: not even two bins reach 5
    assert [t.p for t in few.tests] == [None, None] and "too few sessions" in few.tests[0].note


def test_fixed_order_is_not_tested_and_a_stray_position_is_reported():
    fixed = balance.positions([(True, ["A", "B"], None)] * 6)
    assert not fixed.randomised and fixed.tested == [] and fixed.tests[0].expected is None
    # The design never puts A (a catch trial) first, but one plan did.
    a_first, b_first = [[0.0, 1.0], [1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]]
    stray = balance.positions([(True, ["A", "B"], a_first)] + [(True, ["B", "A"], b_first)] * 9)
    assert [(t.item, t.expected, t.p, t.note) for t in stray.tests] == [
        ("A", [0.0, 10.0], 0.0, "1 time(s) at a position the design never puts it"),
        ("B", [10.0, 0.0], 0.0, "1 time(s) at a position the design never puts it"),
    ]


def test_sketch_design_never_puts_a_catch_trial_first(app):
    """Sketch plans: shuffled sketches, catch trials inserted anywhere but first. With n = 3 sketches and c = 1
    catch: a sketch is first with 1/3, elsewhere with (2/3)·(1/3) = 2/9; the catch trial is at 2–4 with 1/3 each.
    The real plan drawing, 3000 times, agrees."""
    task = registry().get("sketch-recognition")
    sketch, catch = {"concept": "x"}, {"concept": "x", "catch": True}
    design = task.position_design([sketch, catch, sketch, sketch])
    want = [[1 / 3, 2 / 9, 2 / 9, 2 / 9], [0, 1 / 3, 1 / 3, 1 / 3], [1 / 3, 2 / 9, 2 / 9, 2 / 9], [1 / 3] + [2 / 9] * 3]
    assert [pytest.approx(row) for row in want] == design

    study = db.session.scalars(db.select(Study).filter_by(slug="sketch-demo")).one()
    stored = db.session.scalars(db.select(Stimulus).filter_by(study_id=study.id)).all()
    specs = [StimulusSpec(s.key, s.params) for s in stored]
    catch_keys = {s.key for s in stored if s.params.get("catch")}
    params = {**study.config["task"], "trials": 3, "catch_trials": 1}
    rng = random.Random(7)
    first_catch, where_catch = 0, [0] * 4
    for _ in range(3000):
        plan = task.build_plan_from(params, specs, rng)
        keys = [item.stimulus_id for item in plan]
        assert len(keys) == 4
        position = next(p for p, key in enumerate(keys) if key in catch_keys)
        where_catch[position] += 1
        first_catch += position == 0
    assert first_catch == 0
    assert [n / 3000 for n in where_catch[1:]] == pytest.approx([1 / 3] * 3, abs=0.03)


def study3():
    db.session.rollback()
    return db.session.scalars(db.select(Study).filter_by(slug="study3")).one()


def test_balance_page_counts_the_stage_and_leaves_previews_out(app, client, auth):
    to_pilot()  # a new study starts in pilot; the shared fixture put it live
    done = enter(client)
    answer_all(client, done)
    assert client.post(f"/api/sessions/{done}/complete").status_code == 200
    started, preview = enter(client), enter(client)
    study = study3()
    sessions = {s.token: s for s in db.session.scalars(db.select(ParticipantSession))}
    sessions[done].condition, sessions[started].condition = "explained", "plain"
    sessions[preview].preview = True
    study.config = {**study.config, "conditions": {"explained": {"quota": 3}, "plain": {"quota": 3}}}
    study.status = "paused"
    db.session.commit()
    auth.login()

    html = client.get("/researcher/studies/study3/balance").get_data(as_text=True)
    assert study.stage == "pilot" and 'aria-current="page">pilot<' in html  # the study's stage by default
    assert 'data-started="explained">1<' in html and 'data-completed="explained">1<' in html
    assert 'data-started="plain">1<' in html and 'data-completed="plain">0<' in html
    assert 'id="imbalance-started">0<' in html and 'id="imbalance-completed">1<' in html
    assert "condition explained: 1 of its quota of 3 completed and the study is paused" in html
    # Positions: the two sessions' 25 test trials each, practice left out; ratio estimation shuffles them.
    shown = balance.study_balance(study, "pilot").positions
    assert shown.randomised and shown.n_positions == 25
    assert sum(sum(t.started) for t in shown.tests) == 50 and sum(sum(t.completed) for t in shown.tests) == 25
    assert 'id="n-tested">0<' in html  # two sessions are far too few to test

    live = client.get("/researcher/studies/study3/balance?stage=live").get_data(as_text=True)
    assert 'data-started="explained">0<' in live and "No planned test trials in this stage yet." in live
    assert 'data-started="explained">1<' in client.get("/researcher/studies/study3/balance?stage=all").get_data(
        as_text=True
    )
    refused = client.get("/researcher/studies/study3/balance?stage=final")
    assert refused.status_code == 400 and b"stage must be one of pilot, live, all" in refused.data

    png = client.get("/researcher/studies/study3/balance.png?stage=pilot")
    assert png.status_code == 200 and png.mimetype == "image/png" and png.data.startswith(b"\x89PNG")
    assert client.get("/researcher/studies/study3/balance.png?stage=live").data.startswith(b"\x89PNG")
    assert client.get("/researcher/studies/nope/balance").status_code == 404
    assert "/researcher/studies/study3/balance" in client.get("/researcher/studies/study3/").get_data(as_text=True)


def test_balance_of_statements_and_of_a_plan_less_study(app, client, auth):
    token = enter(client, "two4two-demo")
    auth.login()
    study = db.session.scalars(db.select(Study).filter_by(slug="two4two-demo")).one()
    shown = balance.study_balance(study, "all").positions
    plan = db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one().plan
    # Every trial shows the same grid: the items are the statements, each once in the plan.
    assert [t.item for t in shown.tests] == sorted(item["presented"]["statement_id"] for item in plan)
    assert all(sum(t.started) == 1 for t in shown.tests)
    assert client.get("/researcher/studies/two4two-demo/balance").status_code == 200

    enter(client, "visual-search")
    html = client.get("/researcher/studies/visual-search/balance").get_data(as_text=True)
    assert "its sessions have no plans" in html and 'data-started="None">1<' in html
