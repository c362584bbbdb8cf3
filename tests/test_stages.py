"""Stages (pilot / live) and the one rule for which sessions count (models.analysable), issue #25 items 1 and 3:
`flask studies stage` and the dashboard's button (audited), `flask analyze --stage` (live by default, and what it
says when the stage is empty), the exports' stage column and `--stage`, quotas per stage, and THE test that plants a
researcher's preview and pilot sessions among live ones and checks every view that counts sessions."""

from __future__ import annotations

import csv
import json
import random
import re
from pathlib import Path

import pytest

from server.db import db
from server.models import ParticipantSession, StudyEvent, current_generation
from server.participation import session_api, trialstore
from server.participation.sessions import find_or_create
from server.prolific import bonuses, reviews
from server.prolific.submissions import reconciliation
from server.researchers.auth import create_researcher
from server.results import dashboard, quality, stored
from server.studies import conditions
from server.studies.definitions import get_study, set_stage, sync_studies
from server.studies.versions import versions
from tests.helpers import take_study3_like_people
from tests.prolific_study import (
    PROLIFIC_STUDY,
    SLUG,
    answer,
    code_of,
    complete,
    enter,
    pid,
    prolific_app,
    write_study,
)

pytestmark = pytest.mark.db  # every test here uses the database (some through prolific_app, not the app fixture)


def _csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _events(slug: str) -> list[StudyEvent]:
    db.session.rollback()  # read what the command committed
    return db.session.scalars(
        db.select(StudyEvent).filter_by(study_id=get_study(slug).id, action="stage").order_by(StudyEvent.id)
    ).all()


# ------------------------------------------------------------------------------------------- flask studies stage


def test_a_new_study_starts_in_pilot_and_sessions_keep_their_stage(app, runner, tmp_path):
    write_study(tmp_path / "studies")
    sync_studies(tmp_path / "studies")  # first synced: the ORM default, not the tests' go_live
    study = get_study(SLUG)
    assert study.stage == "pilot"
    assert f"{SLUG}\tsketch-recognition\tversion 1\topen\tpilot\t" in runner.invoke(args=["studies", "list"]).output
    first = find_or_create(study, None, "ua")
    set_stage(study, "live")
    second = find_or_create(study, None, "ua")
    assert (first.stage, second.stage) == ("pilot", "live")


def test_the_stage_command_is_audited_harmless_to_repeat_and_refuses_bad_input(app, runner):
    create_researcher("ada", "correct horse")
    before = current_generation(get_study("study3").id)
    result = runner.invoke(args=["studies", "stage", "study3", "pilot", "--by", "ada"])
    assert result.exit_code == 0 and result.output == "study3: pilot\n"
    assert [(e.detail["from"], e.detail["to"], e.detail["via"]) for e in _events("study3")] == [
        ("live", "pilot", "cli")
    ]
    assert _events("study3")[0].researcher_id is not None
    assert current_generation(get_study("study3").id) == before + 1  # quotas and stored results change with it

    again = runner.invoke(args=["studies", "stage", "study3", "pilot"])
    assert again.exit_code == 0 and again.output == "study3 is pilot already\n"
    assert len(_events("study3")) == 1 and current_generation(get_study("study3").id) == before + 1

    # Several studies at once (`make run` puts the demos live); every slug is checked before anything is written.
    both = runner.invoke(args=["studies", "stage", "study3", "two4two-demo", "live"])
    assert both.output == "study3: live\ntwo4two-demo is live already\n"
    for args, message in (
        (["study3", "nope", "pilot"], "no study named 'nope'"),
        (["study3", "beta"], "'beta' is not one of 'pilot', 'live'"),
        (["study3", "pilot", "--by", "nobody"], "no researcher named 'nobody'"),
    ):
        bad = runner.invoke(args=["studies", "stage", *args])
        assert bad.exit_code != 0 and message in bad.output, bad.output
        assert get_study("study3").stage == "live" and len(_events("study3")) == 2


def test_the_dashboard_button_changes_the_stage_as_this_researcher(app, client, auth):
    auth.login()
    page = client.get("/researcher/studies/study3/").get_data(as_text=True)
    assert 'id="study-stage">live<' in page and "Back to pilot" in page
    assert client.post("/researcher/studies/study3/stage", data={"stage": "beta"}).status_code == 400
    done = client.post("/researcher/studies/study3/stage", data={"stage": "pilot"}, follow_redirects=True)
    html = done.get_data(as_text=True)
    assert "study3 is now in the pilot stage" in html and 'id="study-stage">pilot<' in html and "Put live" in html
    assert "stage live → pilot" in html and "ada" in html  # the audit log
    again = client.post("/researcher/studies/study3/stage", data={"stage": "pilot"}, follow_redirects=True)
    assert "in the pilot stage already" in again.get_data(as_text=True) and len(_events("study3")) == 1
    assert client.get("/researcher/studies/study3/?stage=beta").status_code == 400


# ------------------------------------------------------------------------------------------- analyze and export


def test_analyze_reads_live_by_default_and_says_how_to_include_the_pilot(app, client, runner):
    set_stage(get_study("study3"), "pilot")
    rng = random.Random(7)
    for _ in range(2):
        take_study3_like_people(client, rng)
    empty = runner.invoke(args=["analyze", "study3", "--n-boot", "50"])
    assert empty.exit_code != 0
    assert (
        "no completed participants yet (0 session(s) recruited, 0 completed) in the live stage; nothing to analyse; "
        "the pilot stage has 2 session(s), 2 completed: include them with `--stage pilot` (or `--stage all`)"
    ) in empty.output

    pilot = runner.invoke(args=["analyze", "study3", "--n-boot", "50", "--stage", "pilot", "--format", "json"])
    assert pilot.exit_code == 0, pilot.output
    assert len(json.loads(pilot.output)["participants"]) == 2  # one row per session analysed
    set_stage(get_study("study3"), "live")
    take_study3_like_people(client, rng)
    for stage, n in (("live", 1), ("pilot", 2), ("all", 3)):
        result = runner.invoke(args=["analyze", "study3", "--n-boot", "50", "--stage", stage, "--format", "json"])
        assert result.exit_code == 0, result.output
        assert len(json.loads(result.output)["participants"]) == n, stage
    assert "'beta' is not one of" in runner.invoke(args=["analyze", "study3", "--stage", "beta"]).output


def test_exports_have_a_stage_column_and_a_stage_option(app, client, runner, tmp_path):
    rng = random.Random(3)
    set_stage(get_study("study3"), "pilot")
    pilot = take_study3_like_people(client, rng)
    set_stage(get_study("study3"), "live")
    live = take_study3_like_people(client, rng)
    ids = {
        token: db.session.scalars(db.select(ParticipantSession.id).filter_by(token=token)).one()
        for token in (pilot, live)
    }
    assert runner.invoke(args=["export", "study3", "--out", str(tmp_path / "all")]).exit_code == 0
    people = _csv(tmp_path / "all" / "participants.csv")
    assert {(int(r["participant_id"]), r["stage"]) for r in people} == {(ids[pilot], "pilot"), (ids[live], "live")}
    trials = _csv(tmp_path / "all" / "trials.csv")
    assert {(int(r["participant_id"]), r["stage"]) for r in trials} == {(ids[pilot], "pilot"), (ids[live], "live")}
    assert len(trials) == 60
    book = {(r["file"], r["column"]) for r in _csv(tmp_path / "all" / "codebook.csv")}
    assert {("participants.csv", "stage"), ("trials.csv", "stage")} <= book

    result = runner.invoke(args=["export", "study3", "--out", str(tmp_path / "pilot"), "--stage", "pilot"])
    assert result.exit_code == 0 and "trials.csv: 30 rows" in result.output
    assert [r["stage"] for r in _csv(tmp_path / "pilot" / "participants.csv")] == ["pilot"]
    bad = runner.invoke(args=["export", "study3", "--out", str(tmp_path / "x"), "--stage", "beta"])
    assert bad.exit_code != 0 and not (tmp_path / "x").exists()


# ------------------------------------------------------------------------------------------- quotas


def test_quotas_count_the_current_stage_so_going_live_starts_them_afresh(tmp_path):
    with prolific_app(tmp_path) as (app, fake):
        client = app.test_client()
        study = get_study(SLUG)
        study.config = {**study.config, "conditions": [{**c, "quota": 1} for c in study.config["conditions"]]}
        set_stage(study, "pilot")
        preview = find_or_create(get_study(SLUG), None, "ua", preview=True)
        assert preview.condition in ("a", "b")  # a researcher's preview takes no slot:
        tokens = [enter(client, pid(n), f"s{n}") for n in range(3)]
        assert tokens[2] is None  # both pilot slots taken by participants: the study is full
        for token in tokens[:2]:
            answer(client, token)
            complete(client, token)
        assert conditions.occupancy(get_study(SLUG)) == {"a": 1, "b": 1}

        set_stage(get_study(SLUG), "live")
        assert conditions.occupancy(get_study(SLUG)) == {"a": 0, "b": 0}
        live = [enter(client, pid(n), f"s{n}") for n in range(3, 6)]
        assert live[0] and live[1] and live[2] is None
        assert conditions.occupancy(get_study(SLUG)) == {"a": 1, "b": 1}


# ------------------------------------------------------------------------------------------- every view (item 1)


@pytest.fixture
def planted(tmp_path):
    """The Prolific sketch study (two conditions, a catch sketch, Prolific ids) with, all completed: two pilot
    participants (the second fails the catch sketch), two live ones (the second fails it), and a researcher's
    preview in the live stage that also fails it, also holding a Prolific submission. Yields (app, fake, ids)."""
    with prolific_app(tmp_path, PROLIFIC_PAY_SETTLE_SECONDS=0) as (app, fake):
        client = app.test_client()
        ids: dict[str, int] = {}

        def take(name: str, n: int, fail: bool, preview: bool = False):
            submission = fake.join(PROLIFIC_STUDY, pid(n))
            if preview:
                prolific = {"PROLIFIC_PID": pid(n), "STUDY_ID": PROLIFIC_STUDY, "SESSION_ID": submission}
                token = find_or_create(get_study(SLUG), prolific, "ua", preview=True).token
            else:
                token = enter(client, pid(n), submission)
            answer(client, token, fail_catch=fail)
            done = complete(client, token)
            # A preview never goes back to Prolific (no redirect): its planted submission is submitted without a code.
            fake.submit(submission, code_of(done["redirect_url"]) if not preview else None)
            ids[name] = db.session.scalars(db.select(ParticipantSession.id).filter_by(token=token)).one()

        set_stage(get_study(SLUG), "pilot")
        take("pilot_ok", 1, False)
        take("pilot_failed", 2, True)
        set_stage(get_study(SLUG), "live")
        take("live_ok", 3, False)
        take("live_failed", 4, True)
        take("preview", 5, True, preview=True)
        yield app, fake, ids


def test_a_preview_never_counts_and_a_pilot_counts_only_as_pilot_in_every_view(planted, tmp_path):
    app, fake, ids = planted
    runner, client = app.test_cli_runner(), app.test_client()
    study = get_study(SLUG)
    live = {ids["live_ok"], ids["live_failed"]}
    pilot = {ids["pilot_ok"], ids["pilot_failed"]}

    # Exports: both stages with their stage, never the preview; --stage picks one.
    assert runner.invoke(args=["export", SLUG, "--out", str(tmp_path / "all")]).exit_code == 0
    people = {int(r["participant_id"]): r["stage"] for r in _csv(tmp_path / "all" / "participants.csv")}
    assert people == {**dict.fromkeys(pilot, "pilot"), **dict.fromkeys(live, "live")}
    assert {int(r["participant_id"]) for r in _csv(tmp_path / "all" / "trials.csv")} == pilot | live
    assert runner.invoke(args=["export", SLUG, "--out", str(tmp_path / "live"), "--stage", "live"]).exit_code == 0
    assert {int(r["participant_id"]) for r in _csv(tmp_path / "live" / "trials.csv")} == live

    # Analyses: live by default.
    for args, n in (([], 2), (["--stage", "pilot"], 2), (["--stage", "all"], 4)):
        result = runner.invoke(args=["analyze", SLUG, "--n-boot", "20", "--format", "json", *args])
        assert result.exit_code == 0, result.output
        assert json.loads(result.output)["meta"]["recruited"] == n, args

    # Quotas and condition occupancy: the live sessions only.
    assert sum(conditions.occupancy(study).values()) == 2
    assert sum(c["started"] for c in dashboard.condition_counts(study, "live")) == 2

    # The cohort a participant's results page compares against: completed, same stage, never a preview.
    with trialstore.autocommit() as connection:
        cohort = {
            name: session_api.summary(connection, study.id, ids[name])["cohort_size"]
            for name in ("live_ok", "pilot_ok", "preview")
        }
    assert cohort == {"live_ok": 1, "pilot_ok": 1, "preview": 2}

    # Attention-check outcomes (the dashboard's flags): the failed catch sketches of the stage shown.
    def failed_catch(stage):
        key = quality.task_flags(study)[0].score_key  # the failed catch sketch
        return next(f for f in dashboard.quality_flags(study, stage)["flags"] if f["name"] == key)["participants"]

    assert failed_catch("live") == [ids["live_failed"]]
    assert failed_catch("all") == sorted([ids["pilot_failed"], ids["live_failed"]])

    # Prolific: sync matches pilot and live sessions (real, paid participants), never the preview; approval and
    # bonuses take pilot participants too; the preview's submission has no studyhive session.
    synced = runner.invoke(args=["prolific", "sync", SLUG])
    assert synced.exit_code == 0 and "still in the pilot stage" not in synced.output
    report = reconciliation(study)
    assert report["n_no_session"] == 1 and report["no_session"][0].participant_id == pid(5)
    assert report["n_no_submission"] == 0 and sum(report["outcomes"].values()) == 4
    plan = reviews.approval_plan(study)
    assert sorted(row.participant_id for row in plan.approve) == [pid(1), pid(3)]
    assert plan.skipped["no studyhive session (never reached the study)"] == [pid(5)]
    assert plan.skipped["outcome failed_attention_check"] == [pid(2), pid(4)]
    paid = bonuses.per_correct(study, 10, 250)
    assert {row[0] for row in paid.rows} <= {pid(n) for n in range(1, 5)} and paid.rows

    # Stored results: the stage is part of the options; a pilot analysis never serves as the live one.
    stored_run = runner.invoke(args=["analyze", SLUG, "--n-boot", "20", "--store", "--stage", "pilot"])
    assert stored_run.exit_code == 0, stored_run.output
    db.session.rollback()
    assert stored.latest(study.id, "live") is None
    row = stored.latest(study.id, "pilot")
    assert "stage=pilot" in row.options_key and row.report["meta"]["recruited"] == 2
    assert stored.latest(study.id, "all") is None

    # The dashboard: counts of the current stage (live) by default, the other stage's count, ?stage=, no preview.
    create_researcher("ada", "correct horse")
    client.post("/researcher/login", data={"username": "ada", "password": "correct horse"})
    page = client.get(f"/researcher/studies/{SLUG}/").get_data(as_text=True)
    assert 'id="n-started">2<' in page and 'id="shown-stage">live<' in page
    assert 'data-stage-count="pilot">2<' in page and 'data-stage-count="live">2<' in page
    assert 'data-step="entered">2<' in page
    assert 'id="n-started">4<' in client.get(f"/researcher/studies/{SLUG}/?stage=all").get_data(as_text=True)
    listing = client.get(f"/researcher/studies/{SLUG}/participants").get_data(as_text=True)
    shown = {int(n) for n in re.findall(r'participants/(\d+)">\d+</a>', listing)}
    assert shown == pilot | live and listing.count('<td class="stage">pilot</td>') == 2
    assert client.get(f"/researcher/studies/{SLUG}/participants/{ids['preview']}").status_code == 404
    index = client.get("/researcher/").get_data(as_text=True)
    assert re.search(r'stage-live"[^>]*>live</span></td>\s*<td class="num">2</td>', index)
    results = client.get(f"/researcher/studies/{SLUG}/results").get_data(as_text=True)
    assert 'id="no-stored"' in results  # live: none stored
    assert 'id="no-stored"' not in client.get(f"/researcher/studies/{SLUG}/results?stage=pilot").get_data(as_text=True)
    # Versions list the sessions that entered under each, without the preview.
    assert [v.sessions for v in versions(study)[0]] == [4]


def test_sync_and_dashboard_warn_while_a_prolific_study_recruits_in_pilot(tmp_path):
    with prolific_app(tmp_path) as (app, fake):
        runner = app.test_cli_runner()
        set_stage(get_study(SLUG), "pilot")
        result = runner.invoke(args=["prolific", "sync", SLUG])
        assert result.exit_code == 0
        assert (
            f"warning: {SLUG} is linked to Prolific study {PROLIFIC_STUDY} but is still in the pilot stage"
            in result.output
        )
        assert f"flask studies stage {SLUG} live" in result.output
        create_researcher("ada", "correct horse")
        client = app.test_client()
        client.post("/researcher/login", data={"username": "ada", "password": "correct horse"})
        assert 'id="pilot-warning"' in client.get(f"/researcher/studies/{SLUG}/").get_data(as_text=True)
        set_stage(get_study(SLUG), "live")
        assert "still in the pilot stage" not in runner.invoke(args=["prolific", "sync", SLUG]).output
        assert 'id="pilot-warning"' not in client.get(f"/researcher/studies/{SLUG}/").get_data(as_text=True)
