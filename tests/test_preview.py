"""Researchers' previews (docs/researchers.md, "Preview"): signed, expiring links from `flask links --preview` and
the dashboard, preview sessions (new each time, in the link's condition, even while the study is paused or full,
never Prolific), the researcher bar, the row a save would export, completion past skipped trials for previews only,
and `flask sessions purge-previews` (also run by `flask studies sync`)."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from itsdangerous.timed import TimestampSigner

from server.db import db, dispose_engines, utcnow
from server.models import ParticipantSession, StudyEvent, SurveyResponse, Trial, current_generation
from server.studies import conditions
from server.studies.definitions import get_study, sync_studies
from tests.conftest import ROOT, make_app
from tests.helpers import PROLIFIC, agree, answer_all, enter, trial_body
from tests.test_conditions import CONDITIONS, write_study


@pytest.fixture
def app(tmp_path):
    yield from studies_app(tmp_path)


def studies_app(tmp_path):
    """The conftest app on study3, visual-search and `cond`: study3 with three conditions (tests/test_conditions.py)."""
    studies = tmp_path / "studies"
    studies.mkdir()
    for demo in ("study3", "visual-search"):
        (studies / demo).symlink_to(ROOT / "studies" / demo, target_is_directory=True)
    write_study(studies, CONDITIONS)
    app = make_app(tmp_path, STUDIES_DIR=str(studies))
    with app.app_context():
        db.drop_all()
        db.create_all()
        sync_studies(studies)
        yield app
        db.session.remove()
        db.drop_all()
        dispose_engines()


def preview_url(runner, slug="study3", *options):
    result = runner.invoke(args=["links", slug, "--preview", "--base-url", "http://x", *options])
    assert result.exit_code == 0, result.output
    url = result.output.splitlines()[0]
    assert url.startswith(f"http://x/study/{slug}/preview/") and "valid until" in result.output
    return url.removeprefix("http://x")


def open_preview(client, path, **query) -> ParticipantSession:
    response = client.get(path, query_string=query)
    assert response.status_code == 303, response.get_data(as_text=True)
    token = response.headers["Location"].split("#")[0].rsplit("/", 1)[1]
    db.session.rollback()
    return db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()


def test_a_preview_link_opens_a_new_preview_session_each_time_even_when_the_study_is_closed(app, client, runner):
    path = preview_url(runner)
    first = open_preview(client, path)
    assert (first.preview, first.platform, first.stage, first.prolific_pid) == (True, "direct", "pilot", None)
    assert open_preview(client, path, PROLIFIC_PID=PROLIFIC["PROLIFIC_PID"]).token != first.token  # never Prolific
    assert runner.invoke(args=["studies", "close", "study3"]).exit_code == 0
    assert "not accepting" in client.get("/study/study3").get_data(as_text=True)
    closed = open_preview(client, path, jump="trial-10")
    assert client.get(path, query_string={"jump": "trial-10"}).headers["Location"].endswith("#jump=trial-10")
    state = client.get(f"/api/sessions/{closed.token}").get_json()
    assert state["preview"] is True and len(state["plan"]) == 30
    real = enter(client, "visual-search", consent=False)
    assert client.get(f"/api/sessions/{real}").get_json()["preview"] is False


def test_bad_expired_and_foreign_links_get_a_clear_page_and_no_session(app, client, runner, monkeypatch):
    path = preview_url(runner)
    head, signed = path.rsplit("/", 1)
    stale = time.time() - (72 * 3600 + 60)
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: int(stale))
    expired = preview_url(runner)
    monkeypatch.undo()
    cases = {
        expired: (410, "expired"),
        f"{head}/{signed[:-2]}xx": (403, "not a valid preview link"),
        f"/study/visual-search/preview/{signed}": (403, "another study"),
        f"/study/nope/preview/{signed}": (404, "no study"),
        f"{path}?jump=../../x": (400, "Jump to a trial"),
    }
    for url, (status, text) in cases.items():
        response = client.get(url)
        assert (response.status_code, text in response.get_data(as_text=True)) == (status, True), url
    assert db.session.scalar(db.select(db.func.count(ParticipantSession.id))) == 0


def test_cli_checks_its_options(app, runner):
    for args, text in (
        (["links", "--preview"], "needs the study's SLUG"),
        (["links", "study3", "--condition", "full"], "goes with --preview"),
        (["links", "cond", "--preview", "--condition", "nope"], "its conditions: full, short, capped"),
        (["links", "study3", "--preview", "--condition", "full"], "it has no conditions"),
        (["links", "nope", "--preview"], "no study named 'nope'"),
    ):
        result = runner.invoke(args=args)
        assert result.exit_code != 0 and text in result.output, (args, result.output)
    plain = runner.invoke(args=["links", "study3"])
    assert "/study/study3?PROLIFIC_PID=" in plain.output and "visual-search" not in plain.output


def test_previews_run_in_the_links_condition_or_the_first_and_ignore_quotas(app, client, runner, tmp_path):
    assert open_preview(client, preview_url(runner, "cond")).condition == "full"
    short = open_preview(client, preview_url(runner, "cond", "--condition", "short"))
    assert short.condition == "short" and len(short.plan) == 5 + 5 * 2
    # Every condition full: participants are turned away, a preview still opens (and takes no slot).
    full = "".join(f'[[conditions]]\nname = "{name}"\nquota = 1\n' for name in ("full", "short", "capped"))
    write_study(tmp_path / "studies", full)
    sync_studies(tmp_path / "studies")
    # The two previews above hold no slot (models.analysable in conditions.occupancy: helper A's filter).
    assert conditions.occupancy(get_study("cond")) == {"full": 0, "short": 0, "capped": 0}
    for pid in ("p1", "p2", "p3"):
        enter(client, "cond", consent=False, PROLIFIC_PID=pid)
    assert client.get("/study/cond", query_string={"PROLIFIC_PID": "p4"}).status_code == 503
    assert open_preview(client, preview_url(runner, "cond", "--condition", "capped")).condition == "capped"
    # A link made for a condition the study has since dropped says so.
    stale = preview_url(runner, "cond", "--condition", "short")
    write_study(tmp_path / "studies", full.replace('name = "short"', 'name = "shorter"'))
    sync_studies(tmp_path / "studies")
    response = client.get(stale)
    assert response.status_code == 410 and "no longer has" in response.get_data(as_text=True)


def test_the_page_of_a_preview_has_the_researcher_bar_and_a_participants_has_none(app, client, runner):
    session = open_preview(client, preview_url(runner))
    page = client.get(f"/study/study3/s/{session.token}").get_data(as_text=True)
    script = re.compile(r"studyhive/preview(\.[0-9a-f]+)?\.js")  # content-hashed (server/web/static_files.py)
    assert 'aria-label="Researcher preview"' in page and script.search(page) and '"preview": true' in page
    options = re.findall(r'<option value="([^"]+)">', page)
    assert options[:4] == ["step-consent", "step-demographics", "step-instructions", "step-task"]
    assert options[4:] == [f"trial-{i}" for i in range(30)]
    assert re.search(r'href="/study/study3/preview/[^"]+">Restart</a>', page)
    real = client.get(f"/study/study3/s/{enter(client, consent=False)}").get_data(as_text=True)
    assert "Researcher preview" not in real and not script.search(real)
    # A researcher's own jsPsych experiment: restart only.
    own = open_preview(client, preview_url(runner, "visual-search"))
    page = client.get(f"/study/visual-search/s/{own.token}").get_data(as_text=True)
    assert ">Restart</a>" in page and "Jump to" not in page and "Row that would be stored" not in page


def test_a_preview_shows_the_row_its_save_would_export_and_completes_past_skipped_trials(app, client, runner):
    session = open_preview(client, preview_url(runner), jump="trial-10")
    token, api = session.token, f"/api/sessions/{session.token}"
    plan = client.get(api).get_json()["plan"]
    agree(client, token)
    bad = client.post(f"{api}/trials", json=trial_body(plan[10], percent=140))
    assert bad.status_code == 422  # saves are checked as a participant's are
    assert client.post(f"{api}/trials", json=trial_body(plan[10], percent=42.5)).status_code == 201
    row = client.get(f"{api}/preview/row", query_string={"trial_index": 10})
    assert row.status_code == 200, row.get_json()
    shown = row.get_json()
    assert shown["trial_index"] == 10 and shown["row"]["stimulus_id"] == plan[10]["stimulus_id"]
    assert shown["columns"][:5] == ["participant_id", "participant_code", "study_version", "stage", "trial_index"]
    assert shown["row"]["response_percent"] == 42.5 and shown["row"]["participant_id"] == session.id
    for query, status, error in (({"trial_index": 11}, 404, "not_stored"), ({}, 400, "invalid_field")):
        answer = client.get(f"{api}/preview/row", query_string=query)
        assert (answer.status_code, answer.get_json()["error"]) == (status, error)
    generation = current_generation(get_study("study3").id)
    done = client.post(f"{api}/complete", json={})
    assert done.status_code == 200 and done.get_json()["results_url"].endswith(f"/s/{token}/results")
    assert current_generation(get_study("study3").id) == generation  # no stored analysis goes stale
    # A participant's session gets no row view and completes only with every trial and survey.
    real = enter(client)
    answer = client.get(f"/api/sessions/{real}/preview/row", query_string={"trial_index": 0})
    assert (answer.status_code, answer.get_json()["error"]) == (404, "not_a_preview")
    assert client.post(f"/api/sessions/{real}/complete", json={}).get_json()["error"] == "trials_missing"


def test_the_dashboard_offers_a_preview_link_per_condition(app, client, auth):
    auth.login()
    page = client.get("/researcher/studies/cond/").get_data(as_text=True)
    links = re.findall(r'href="http://localhost(/study/cond/preview/[^"]+)"', page)
    assert len(links) == 3 and "valid until" in page
    assert open_preview(client, links[1]).condition == "short"
    assert (
        len(
            re.findall(
                r'href="http://localhost/study/study3/preview/',
                client.get("/researcher/studies/study3/").get_data(as_text=True),
            )
        )
        == 1
    )


def make_sessions(client, runner):
    """An old and a fresh preview with a trial and consent each, and an old participant's session: ids."""
    old, fresh = (open_preview(client, preview_url(runner)) for _ in range(2))
    for session in (old, fresh):
        agree(client, session.token)
        plan = client.get(f"/api/sessions/{session.token}").get_json()["plan"]
        assert client.post(f"/api/sessions/{session.token}/trials", json=trial_body(plan[0])).status_code == 201
    participant = enter(client)
    answer_all(client, participant)
    db.session.rollback()
    sessions = {s.token: s for s in db.session.scalars(db.select(ParticipantSession))}
    for token in (old.token, participant):
        sessions[token].last_seen_at = utcnow() - timedelta(hours=30)
    db.session.commit()
    return old.id, fresh.id, sessions[participant].id


def remaining(table):
    db.session.rollback()
    return sorted(db.session.scalars(db.select(table.session_id if table is not ParticipantSession else table.id)))


def test_purge_previews_deletes_old_previews_with_their_trials_and_never_a_participant(app, client, runner):
    old, fresh, participant = make_sessions(client, runner)
    dry = runner.invoke(args=["sessions", "purge-previews", "--dry-run"])
    assert dry.exit_code == 0 and "would delete 1 session(s)\n  study3: 1" in dry.output, dry.output
    assert remaining(ParticipantSession) == sorted([old, fresh, participant])
    result = runner.invoke(args=["sessions", "purge-previews", "--older-than", "24h"])
    assert "unseen for 24 h: deleted 1 session(s)" in result.output, result.output
    assert remaining(ParticipantSession) == sorted([fresh, participant])
    assert old not in remaining(Trial) and old not in remaining(SurveyResponse)
    assert participant in remaining(Trial) and fresh in remaining(Trial)
    event = db.session.scalars(db.select(StudyEvent).filter_by(action="previews_purged")).one()
    assert event.detail == {"n": 1}
    assert "deleted 1 session(s)" in runner.invoke(args=["sessions", "purge-previews", "--older-than", "0"]).output
    assert remaining(ParticipantSession) == [participant] and len(remaining(Trial)) == 30
    bad = runner.invoke(args=["sessions", "purge-previews", "--older-than", "a week"])
    assert bad.exit_code != 0 and "is not an age such as 24h" in bad.output
    huge = runner.invoke(args=["sessions", "purge-previews", "--older-than", "1000000d"])
    assert huge.exit_code == 2 and "at most 36500 days" in huge.output


def test_a_purged_preview_whose_token_a_worker_still_knows_has_ended(app, client, runner):
    preview = open_preview(client, preview_url(runner))
    agree(client, preview.token)
    plan = client.get(f"/api/sessions/{preview.token}").get_json()["plan"]  # this worker caches the token's facts
    runner.invoke(args=["sessions", "purge-previews", "--older-than", "0"])
    answers = [
        client.get(f"/api/sessions/{preview.token}"),
        client.post(f"/api/sessions/{preview.token}/trials", json=trial_body(plan[0])),
        client.post(f"/api/sessions/{preview.token}/complete"),
        client.post(f"/api/sessions/{preview.token}/end", json={"outcome": "incompatible_device"}),
    ]
    assert [a.status_code for a in answers[1:3]] == [409, 409], [a.get_json() for a in answers]
    assert [a.get_json()["error"] for a in answers[1:3]] == ["session_ended"] * 2
    assert answers[3].status_code == 200 and answers[3].get_json()["status"] == "purged"  # ended already: as it is
    assert answers[0].status_code in (200, 409) and remaining(ParticipantSession) == []


def test_studies_sync_purges_previews_older_than_the_setting(app, client, runner):
    old, fresh, participant = make_sessions(client, runner)
    app.config["PREVIEW_MAX_AGE_HOURS"] = 48
    assert "deleted 0 session(s)" in runner.invoke(args=["studies", "sync"]).output
    app.config["PREVIEW_MAX_AGE_HOURS"] = 12
    result = runner.invoke(args=["studies", "sync"])
    assert "study3: unchanged" in result.output and "unseen for 12 h: deleted 1 session(s)" in result.output
    assert remaining(ParticipantSession) == sorted([fresh, participant])


def test_a_preview_cannot_be_excluded_or_reinstated(app, client, runner, auth):
    """A preview is counted nowhere, so excluding it means nothing: the CLI names it, the dashboard answers 404, and
    nothing is written."""
    preview = open_preview(client, preview_url(runner))
    before = db.session.scalar(db.select(db.func.count()).select_from(StudyEvent))
    result = runner.invoke(args=["participants", "exclude", "study3", str(preview.id), "--reason", "fast"])
    assert result.exit_code == 1 and "is a researcher's preview, not a participant" in result.output
    auth.login()
    for action in ("exclude", "reinstate"):
        url = f"/researcher/studies/study3/participants/{preview.id}/{action}"
        assert client.post(url, data={"reason": "fast"}).status_code == 404
    db.session.rollback()
    assert db.session.get(ParticipantSession, preview.id).status != "excluded"
    assert db.session.scalar(db.select(db.func.count()).select_from(StudyEvent)) == before


def test_a_jump_the_preview_does_not_have_answers_400_and_writes_nothing(app, client, runner):
    path = preview_url(runner)
    for jump, text in (
        ("trial-99999", "This preview has no trial-99999: jump to a trial trial-0 to trial-29, or a step of its flow"),
        ("step-nowhere", "This preview has no step-nowhere"),
    ):
        response = client.get(path, query_string={"jump": jump})
        assert (response.status_code, text in response.get_data(as_text=True)) == (400, True), jump
    assert db.session.scalar(db.select(db.func.count(ParticipantSession.id))) == 0
    assert client.get(path, query_string={"jump": "trial-29"}).status_code == 303
    assert client.get(path, query_string={"jump": "step-consent"}).status_code == 303
