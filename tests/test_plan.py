"""`flask plan` and the dashboard's sample-size page: the study's design and pilot in, a power table out; every bad
input a clear message."""

from __future__ import annotations

import json
import random

import pytest

from server.db import db
from server.models import ParticipantSession
from tests.helpers import answer_surveys, enter, rate_all, take_study3_like_people, to_pilot

FAST = ["--reps", "200", "--n-max", "40"]  # a few rows of few cohorts: the tests check the wiring, not the numbers


def plan(runner, *args):
    return runner.invoke(args=["plan", *args])


def test_without_pilot_data_it_says_so_and_plans_from_the_defaults(runner):
    result = plan(runner, "study3", "--effect", "0.5", "--types", "1,2", *FAST)
    assert result.exit_code == 0, result.output
    assert "no pilot data: 'study3' has no completed session of stage pilot" in result.output
    assert "default: SD of log2|e| for normal errors" in result.output
    assert "N(μ, (σ_inter² + σ_within²/m) I): every pair with the same variance" in result.output
    assert "Holm over the 10 pairs of 5 chart types" in result.output
    assert [line.split()[0] for line in result.output.splitlines() if line.strip()[:2] in ("10", "20", "30", "40")] == [
        "10",
        "20",
        "30",
        "40",
    ]


def test_a_pilot_gives_the_variance_the_estimate_and_n_at_its_bound(client, runner):
    to_pilot()  # a new study starts in pilot; the shared fixture put it live
    rng = random.Random(7)
    for _ in range(4):
        take_study3_like_people(client, rng)
    result = plan(runner, "study3", "--effect", "0.4", "--types", "1,5", "--json", *FAST)
    assert result.exit_code == 0, result.output
    assert "pilot: 4 completed session(s) of stage pilot" in result.stderr
    out = json.loads(result.stdout)
    assert out["sources"]["sigma_within"].startswith("pilot") and out["sources"]["sigma_inter"].startswith("pilot")
    # the compared pair's own variance from the pilot's covariance, and the model said
    assert "Σ the pilot's covariance of chart-type means (4 participants with every type)" in out["test"]
    assert out["sources"]["var_pair"] == "pilot covariance, 4 participants: Var(5) + Var(1) − 2 Cov"
    assert [r["n"] for r in out["table"]] == [10, 20, 30, 40]
    assert {r["reps"] for r in out["table"]} == {200} and {r["effect"] for r in out["table"]} == {0.4}
    pilot = out["pilot"]
    assert pilot["n"] == 4 and pilot["ci_low"] < pilot["estimate"] < pilot["ci_high"]
    # The same sessions are no live pilot: --stage live reads none of them, --stage all reads them all.
    assert (
        "no pilot data" in plan(runner, "study3", "--effect", "0.4", "--types", "1,5", "--stage", "live", *FAST).output
    )
    assert (
        "pilot: 4 completed"
        in plan(runner, "study3", "--effect", "0.4", "--types", "1,5", "--stage", "all", *FAST).output
    )


def test_previews_and_unfinished_sessions_are_no_pilot(app, client, runner):
    take_study3_like_people(client, random.Random(1))
    enter(client)  # started, never completed
    db.session.execute(db.update(ParticipantSession).values(preview=True))
    db.session.commit()
    assert "no pilot data" in plan(runner, "study3", "--effect", "0.4", "--types", "1,5", *FAST).output


def test_hive_and_ratings_plans(client, runner, tmp_path):
    to_pilot()  # a new study starts in pilot; the shared fixture put it live
    result = plan(runner, "hive-distinction", "--effect", "0.4", "--figure", str(tmp_path / "curve.png"), *FAST)
    assert result.exit_code == 0, result.output
    assert "against chance 0.25 (one-sided, greater)" in result.output
    assert "default: HIVE 2022 distinction GradCAM SD over participants" in result.output
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for rating in (6, 7, 2):
        token = enter(client, "two4two-demo")
        answer_surveys(client, token)
        rate_all(client, token, rating)
        assert client.post(f"/api/sessions/{token}/complete").status_code == 200
    result = plan(
        runner, "two4two-demo", "--effect", "0.7", "--versus", "0.4", "--statement", "colour", "--json", *FAST
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["pilot"]["n"] == 3 and out["pilot"]["estimate"] == pytest.approx(2 / 3)
    assert out["null"] == 0.4 and out["components"] == {}


BAD_INPUT = [
    (["nope", "--effect", "0.5"], "no study named 'nope'"),
    (["study3", "--effect", "big"], "'big' is not a valid float"),
    (["study3", "--effect", "0.5"], "--types A,B: name the two chart types compared (the study's: 1, 2, 3, 4, 5)"),
    (["study3", "--effect", "0.5", "--types", "1"], "two as A,B"),
    (["study3", "--effect", "0.5", "--types", "1,9"], "name two different chart types of [1, 2, 3, 4, 5]"),
    (["study3", "--effect", "0", "--types", "1,2"], "must not be 0"),
    (["study3", "--effect", "inf", "--types", "1,2"], "'effect' must be a finite number"),
    (["study3", "--effect", "0.5", "--types", "1,2", "--versus", "0.3"], "--versus: not used when planning"),
    (["hive-distinction", "--effect", "60"], "give the accuracy as a proportion between 0 and 1"),
    (["hive-distinction", "--effect", "0.2"], "the report tests accuracy above chance (0.25); 0.2 is not"),
    (["hive-distinction", "--effect", "0.4", "--types", "1,2"], "--types: not used when planning hive"),
    (["two4two-demo", "--effect", "70"], "give shares as proportions"),
    (["two4two-demo", "--effect", "0.7", "--statement", "zz"], "--statement: 'zz' is not one of"),
    (["visual-search", "--effect", "0.5"], "flask plan does not support task type 'jspsych'"),
    (["study3", "--effect", "0.5", "--types", "1,2", "--power", "1.5"], "--power"),
    (["study3", "--effect", "0.5", "--types", "1,2", "--stage", "beta"], "--stage"),
]


def test_bad_input_is_a_clear_message(runner):
    for args, message in BAD_INPUT:  # one app for all (its setup costs more than a plan)
        result = plan(runner, *args, *FAST)
        assert result.exit_code != 0, args
        assert message in result.output, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), args


def test_the_dashboard_page_plans_on_request(client, auth):
    auth.login()
    page = client.get("/researcher/studies/study3/plan")
    assert page.status_code == 200 and b'id="plan-form"' in page.data and b'id="power-table"' not in page.data
    assert b"/researcher/studies/study3/plan" in client.get("/researcher/studies/study3/").data
    page = client.get("/researcher/studies/study3/plan", query_string={"effect": "0.8", "types": "1,2", "power": "0.8"})
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and 'id="power-table"' in text and "data:image/png;base64," in text
    assert "no pilot data" in text and "n needed for power 0.8 at effect 0.8" in text
    for query, message in [
        ({"effect": "x", "types": "1,2"}, "effect: a number, not &#39;x&#39;"),
        ({"effect": "0.5", "types": "1,2", "power": "2"}, "power: a proportion between 0 and 1"),
        ({"effect": "0.5"}, "--types A,B: name the two chart types"),
        ({"effect": "nan", "types": "1,2"}, "effect: a finite number"),
    ]:
        page = client.get("/researcher/studies/study3/plan", query_string=query)
        assert page.status_code == 200 and message in page.get_data(as_text=True), query
    assert client.get("/researcher/studies/nope/plan").status_code == 404
    client.post("/researcher/logout")
    assert client.get("/researcher/studies/study3/plan").status_code in (302, 303)
