"""The data-quality flags (server/results/quality.py): time away from the tab from the stored interaction records,
fast trials by the task type's threshold or study.toml's [quality], straight-lining in rating tasks; on the study
page, the participant list and page (the exclusion form prefilled, nobody excluded) and in participants.csv."""

import csv
import io
import shutil
from pathlib import Path

import pytest
from sqlalchemy import JSON

from server.db import db
from server.models import ParticipantSession, Trial
from server.results.quality import study_thresholds, time_away_ms
from server.studies.definitions import StudyFileError, get_study, load_study_file
from server.studies.quality import Thresholds
from tests.helpers import answer_all, answer_surveys, enter, rate_all

ROOT = Path(__file__).resolve().parent.parent


def ev(t, type_, target=None, value=None):
    return {"t": t, "type": type_, "target": target, "value": value}


@pytest.mark.parametrize(
    ("events", "rt_ms", "expected"),
    [
        ([], 5000, 0),
        ([ev(100, "blur"), ev(300, "focus")], 5000, 0),  # blur alone is not away from the tab
        ([ev(1000, "hidden"), ev(4000, "visible")], 9000, 3000),
        ([ev(1000, "hidden"), ev(4000, "visible"), ev(5000, "hidden"), ev(5500, "visible")], 9000, 3500),
        ([ev(1000, "hidden")], 9000, 8000),  # a trailing hidden counts until the answer
        ([ev(1000, "hidden"), ev(2000, "hidden"), ev(2500, "visible")], 9000, 1500),  # the first hidden counts
        ([ev(500, "visible"), ev(1000, "input", "percent", "4")], 9000, 0),  # visible with no hidden before it
        ([ev(1000, "hidden")], None, 0),  # no answer time: nothing to count until
    ],
)
def test_time_away_sums_hidden_to_visible_pairs(events, rt_ms, expected):
    assert time_away_ms(events, rt_ms) == expected


def sessions_of(*tokens):
    return [db.session.scalars(db.select(ParticipantSession).filter_by(token=t)).one() for t in tokens]


def participants_csv(client, slug="study3"):
    return {
        int(row["participant_id"]): row
        for row in csv.DictReader(io.StringIO(client.get(f"/researcher/studies/{slug}/participants.csv").text))
    }


def test_a_participant_who_switches_tabs_mid_trial_gets_the_flag(app, client, auth):
    """Three finishers: one left the tab for 40 s in one trial and 5 s in another (45 s > 30 s), one for 2 s, one
    whose page sent no interaction records (not recorded, never 0). Only the first is flagged; nobody is excluded."""
    away, brief, older = (enter(client) for _ in range(3))
    for token in (away, brief, older):
        answer_all(client, token)
    s_away, s_brief, s_older = sessions_of(away, brief, older)
    for session, gaps in ((s_away, {3: 40_000, 7: 5_000}), (s_brief, {3: 2_000})):
        for trial in db.session.scalars(db.select(Trial).filter_by(session_id=session.id)):
            gap = gaps.get(trial.trial_index)
            trial.events = [ev(200, "focus")] + ([ev(500, "hidden"), ev(500 + gap, "visible")] if gap else [])
            trial.rt_ms = 60_000
    # the last trial ends hidden: counted until its answer
    last = db.session.scalars(db.select(Trial).filter_by(session_id=s_brief.id, trial_index=29)).one()
    last.events = [ev(59_000, "hidden")]
    # a save that wrote its None as JSON null is no record either
    db.session.execute(
        db.update(Trial).where(Trial.session_id == s_older.id, Trial.trial_index < 10).values(events=JSON.NULL)
    )
    db.session.commit()
    stored = db.session.scalar(
        db.select(db.cast(Trial.events, db.Text)).filter_by(session_id=s_older.id, trial_index=0)
    )
    assert stored == "null"

    auth.login()
    page = client.get("/researcher/studies/study3/").get_data(as_text=True)
    line = page.split('data-flag="time_away"', 1)[1].split("</li>", 1)[0]
    assert "more than 30 s" in line and "<strong>1</strong> participant(s)" in line
    assert f">#{s_away.id}</a>" in line and f"#{s_brief.id}<" not in line
    assert "not recorded for 1 participant(s)" in line

    listing = client.get("/researcher/studies/study3/participants").get_data(as_text=True)
    row_away = listing.split(f'/participants/{s_away.id}">{s_away.id}</a>', 1)[1].split("</tr>", 1)[0]
    row_brief = listing.split(f'/participants/{s_brief.id}">{s_brief.id}</a>', 1)[1].split("</tr>", 1)[0]
    row_older = listing.split(f'/participants/{s_older.id}">{s_older.id}</a>', 1)[1].split("</tr>", 1)[0]
    assert '<td class="num flag">45 s</td>' in row_away and "time_away" in row_away
    assert f"/participants/{s_away.id}#exclusion" in row_away  # one click to the exclusion form
    assert '<td class="num">3 s</td>' in row_brief and "review / exclude" not in row_brief  # 2 s + 1 s trailing
    assert "not recorded" in row_older and "review / exclude" not in row_older

    person = client.get(f"/researcher/studies/study3/participants/{s_away.id}").get_data(as_text=True)
    assert "Away from the tab more than 30 s" in person
    assert 'value="quality flags: away from the tab 45 s (&gt; 30 s)"' in person  # the reason, prefilled
    calm = client.get(f"/researcher/studies/study3/participants/{s_older.id}").get_data(as_text=True)
    assert "time away from the tab not recorded" in calm and 'value=""' in calm

    table = participants_csv(client)
    assert (table[s_away.id]["time_away_s"], table[s_away.id]["quality_flags"]) == ("45.0", "time_away")
    assert (table[s_brief.id]["time_away_s"], table[s_brief.id]["quality_flags"]) == ("3.0", "")
    assert table[s_older.id]["time_away_s"] == ""  # not recorded, never 0
    db.session.expire_all()
    assert {s.status for s in sessions_of(away, brief, older)} == {"started"}  # a flag excludes nobody

    # the prefilled form excludes with one click, through the existing route
    response = client.post(
        f"/researcher/studies/study3/participants/{s_away.id}/exclude",
        data={"reason": "quality flags: away from the tab 45 s (> 30 s)"},
    )
    assert response.status_code == 303
    db.session.expire_all()
    assert sessions_of(away)[0].status == "excluded"


def with_quality(app, tmp_path, slug, table):
    folder = tmp_path / "studies" / slug
    shutil.copytree(ROOT / "studies" / slug, folder)
    path = folder / "study.toml"
    path.write_text(path.read_text(encoding="utf-8") + "\n[quality]\n" + table, encoding="utf-8")
    return path


def test_quality_thresholds_come_from_study_toml_and_bad_ones_are_named(app, client, auth, runner, tmp_path):
    path = with_quality(app, tmp_path, "study3", "fast_trial_ms = 1500\ntime_away_s = 0\n")
    assert load_study_file(path)["quality"] == {"fast_trial_ms": 1500, "time_away_s": 0}
    token = enter(client)
    answer_all(client, token)  # every trial took 1234 ms: fast under 1500, not under the task's 500
    auth.login()
    (session,) = sessions_of(token)
    assert participants_csv(client)[session.id]["fast_trials"] == "0"
    app.config["STUDIES_DIR"] = str(path.parent.parent)
    assert "updated (version 2)" in runner.invoke(args=["studies", "sync"]).output
    row = participants_csv(client)[session.id]
    assert (row["fast_trials"], row["quality_flags"]) == ("30", "fast_trials")
    codebook = client.get("/researcher/studies/study3/codebook.csv").text
    assert "faster than 1500 ms" in codebook

    bad = with_quality(
        app, tmp_path / "bad", "study3", 'fast_trial_ms = 0\ntime_away_s = "long"\nstraightlining_share = 1.5\nx = 1\n'
    )
    with pytest.raises(StudyFileError) as caught:
        load_study_file(bad)
    text = str(caught.value)
    for key in ("quality.fast_trial_ms", "quality.time_away_s", "quality.straightlining_share", "quality.x"):
        assert key in text, text


def test_a_study_without_quality_keeps_its_config_and_the_defaults(app):
    config = load_study_file(ROOT / "studies" / "study3" / "study.toml")
    assert "quality" not in config  # no new version for studies that do not use the table
    # the task type's fast-trial threshold, else the FAST_TRIAL_MS setting
    assert study_thresholds(get_study("study3")) == Thresholds(500, 30, 0.9, 5)
    assert study_thresholds(get_study("visual-search")).fast_trial_ms == app.config["FAST_TRIAL_MS"] == 200


def test_straightlining_in_a_rating_task(app, client, auth):
    """two4two-demo asks five statements on the 7-point scale: the same rating for all five is straight-lining (share
    1.0 ≥ 0.9 over 5 ratings); four of five the same (0.8) is not; two ratings are too few to judge."""
    same, varied, few = (enter(client, "two4two-demo") for _ in range(3))
    for token in (same, varied, few):
        answer_surveys(client, token)
    rate_all(client, same, 4)
    rate_all(client, varied, [4, 4, 4, 4, 6])
    rate_all(client, few, [2, 2])
    s_same, s_varied, s_few = sessions_of(same, varied, few)
    auth.login()
    page = client.get("/researcher/studies/two4two-demo/").get_data(as_text=True)
    line = page.split('data-flag="straightlining"', 1)[1].split("</li>", 1)[0]
    assert "<strong>1</strong> participant(s)" in line and f">#{s_same.id}</a>" in line
    table = participants_csv(client, "two4two-demo")
    assert [table[s.id]["straightlining_share"] for s in (s_same, s_varied, s_few)] == ["1.0", "0.8", "1.0"]
    assert [table[s.id]["n_ratings"] for s in (s_same, s_varied, s_few)] == ["5", "5", "2"]
    assert [table[s.id]["quality_flags"] for s in (s_same, s_varied, s_few)] == ["straightlining", "", ""]
    listing = client.get("/researcher/studies/two4two-demo/participants").get_data(as_text=True)
    assert "<th>Same rating</th>" in listing and '<td class="num flag">100 % of 5</td>' in listing
    person = client.get(f"/researcher/studies/two4two-demo/participants/{s_same.id}").get_data(as_text=True)
    assert 'value="quality flags: straight-lining: 100% of 5 ratings identical"' in person


def test_a_task_without_ratings_has_no_straightlining(app, client, auth):
    auth.login()
    assert 'data-flag="straightlining"' not in client.get("/researcher/studies/study3/").get_data(as_text=True)
    header = client.get("/researcher/studies/study3/participants.csv").text.splitlines()[0].split(",")
    assert "straightlining_share" not in header and {"fast_trials", "time_away_s", "quality_flags"} <= set(header)
