"""Entry, resume, trial saves (idempotency), surveys and completion through the participant API."""

import pytest
from sqlalchemy import func

from server.db import db
from server.models import ParticipantSession, SurveyResponse, Trial
from tests.helpers import PROLIFIC, answer_all, answer_surveys, enter, trial_body


def count(model, **where):
    return db.session.scalar(db.select(func.count()).select_from(model).filter_by(**where))


def test_prolific_entry_creates_one_session_and_resumes_it(client):
    token = enter(client, **PROLIFIC)
    assert PROLIFIC["PROLIFIC_PID"] not in token
    assert enter(client, **PROLIFIC) == token
    session = db.session.scalars(db.select(ParticipantSession)).one()
    assert (session.platform, session.prolific_pid, session.prolific_study_id, session.prolific_session_id) == (
        "prolific",
        PROLIFIC["PROLIFIC_PID"],
        "study-abc",
        "sess-xyz",
    )
    assert session.study_version == 1


def test_anonymous_entries_get_separate_sessions(client):
    assert enter(client) != enter(client)
    assert count(ParticipantSession, platform="direct") == 2


def test_plan_follows_the_study3_design(client):
    plan = client.get(f"/api/sessions/{enter(client, **PROLIFIC)}").get_json()["plan"]
    assert len(plan) == 30
    assert [item["index"] for item in plan] == list(range(30))
    practice, test = plan[:5], plan[5:]
    assert all(p["practice"] and "feedback" in p for p in practice)
    assert sorted(p["stimulus_id"][1] for p in practice) == list("12345")
    assert not any(t["practice"] or "feedback" in t for t in test)
    by_type = {}
    for t in test:
        by_type.setdefault(t["stimulus_id"][1], []).append(t["stimulus_id"])
    assert {k: len(v) for k, v in by_type.items()} == dict.fromkeys("12345", 5)
    # Types are intermixed, not blocked: some neighbouring pair differs in type.
    assert len({t["stimulus_id"][1] for t in test[:10]}) > 1


def test_each_type_draws_its_five_trials_from_different_ratio_groups(app, client):
    from server.tasks.ratio_estimation.charts import HEIGHTS, BarStimulus

    for _ in range(5):
        plan = client.get(f"/api/sessions/{enter(client)}").get_json()["plan"][5:]
        groups = {}
        for item in plan:
            stim = BarStimulus.parse(item["stimulus_id"])
            groups.setdefault(stim.chart_type, []).append(HEIGHTS.index(stim.tall) - HEIGHTS.index(stim.short))
        assert all(len(set(g)) == 5 for g in groups.values()), groups


def test_trial_is_stored_once_and_repeat_is_acknowledged(client):
    token = enter(client, **PROLIFIC)
    item = client.get(f"/api/sessions/{token}").get_json()["plan"][0]
    body = trial_body(item, 42.0)
    first = client.post(f"/api/sessions/{token}/trials", json=body)
    again = client.post(f"/api/sessions/{token}/trials", json=body)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json()["duplicate"] is True
    other = client.post(f"/api/sessions/{token}/trials", json=trial_body(item, 99.0))
    assert other.status_code == 409 and other.get_json()["error"] == "trial_index_taken"
    trial = db.session.scalars(db.select(Trial)).one()
    assert trial.response == {"percent": 42.0}
    assert trial.score["abs_error"] == pytest.approx(abs(42.0 - item["feedback"]["true_percent"]), abs=0.01)


def test_state_reports_stored_trials_for_resume(client):
    token = enter(client, **PROLIFIC)
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    for item in plan[:7]:
        client.post(f"/api/sessions/{token}/trials", json=trial_body(item))
    state = client.get(f"/api/sessions/{enter(client, **PROLIFIC)}").get_json()
    assert state["stored_indexes"] == list(range(7))
    assert state["plan"] == plan  # the same list after re-entry


def test_surveys_validate_and_store_once(client):
    token = enter(client, **PROLIFIC)
    ok = client.put(
        f"/api/sessions/{token}/surveys/demographics",
        json={"answers": {"gender": "female", "age": "34", "education": "doctorate", "nationality": "Brazilian"}},
    )
    assert ok.status_code == 200
    bad = client.put(
        f"/api/sessions/{token}/surveys/demographics",
        json={"answers": {"gender": "female", "age": 7, "education": "doctorate", "nationality": "x"}},
    )
    assert bad.status_code == 422 and bad.get_json()["field"] == "answers.age"
    assert client.put(f"/api/sessions/{token}/surveys/consent", json={"answers": {"agreed": False}}).status_code == 422
    assert client.put(f"/api/sessions/{token}/surveys/consent", json={"answers": {"agreed": True}}).status_code == 200
    answers = dict(db.session.execute(db.select(SurveyResponse.name, SurveyResponse.answers)).all())
    assert answers == {
        "demographics": {"gender": "female", "age": 34, "education": "doctorate", "nationality": "Brazilian"},
        "consent": {"agreed": True},
    }
    assert client.get(f"/api/sessions/{token}").get_json()["surveys_done"] == ["consent", "demographics"]


def test_complete_requires_every_trial_then_redirects_prolific(client):
    token = enter(client, **PROLIFIC)
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    for item in plan[:-2]:
        client.post(f"/api/sessions/{token}/trials", json=trial_body(item))
    early = client.post(f"/api/sessions/{token}/complete")
    assert early.status_code == 409 and early.get_json()["missing"] == [28, 29]
    for item in plan[-2:]:
        client.post(f"/api/sessions/{token}/trials", json=trial_body(item))
    no_surveys = client.post(f"/api/sessions/{token}/complete")
    assert no_surveys.status_code == 409 and no_surveys.get_json()["missing_surveys"] == ["demographics"]
    answer_surveys(client, token)
    done = client.post(f"/api/sessions/{token}/complete")
    assert done.get_json()["redirect_url"] == "https://app.prolific.com/submissions/complete?cc=C3RATIO5"
    assert client.post(f"/api/sessions/{token}/complete").status_code == 200  # idempotent
    again = client.get("/study/study3", query_string=PROLIFIC)
    assert again.status_code == 200 and b"already completed" in again.data


def test_anonymous_participant_sees_results_against_cohort(client):
    for percent in (10.0, 30.0):
        other = enter(client)
        answer_all(client, other, lambda item, p=percent: p)
        client.post(f"/api/sessions/{other}/complete")
    token = enter(client)
    answer_all(client, token, lambda item: round(item.get("feedback", {}).get("true_percent", 50.0)))
    url = client.post(f"/api/sessions/{token}/complete").get_json()["results_url"]
    page = client.get(url).get_data(as_text=True)
    assert "Your judgments were off by" in page
    assert "2 other participants" in page


def test_summary_counts_own_test_trials_against_completed_participants(client):
    finished = enter(client)
    answer_all(client, finished, lambda item: 0.0)
    client.post(f"/api/sessions/{finished}/complete")
    mine = enter(client)
    plan = client.get(f"/api/sessions/{mine}").get_json()["plan"]
    assert client.get(f"/api/sessions/{mine}/summary").get_json()["mean_abs_error"] is None
    for item in plan[:8]:  # 5 practice (never counted) + 3 test trials
        client.post(f"/api/sessions/{mine}/trials", json=trial_body(item, 50.0))
    summary = client.get(f"/api/sessions/{mine}/summary").get_json()
    from server.tasks.ratio_estimation.charts import BarStimulus

    expected = sum(abs(50.0 - BarStimulus.parse(i["stimulus_id"]).true_percent) for i in plan[5:8]) / 3
    assert summary["mean_abs_error"] == pytest.approx(expected)
    assert summary["cohort_size"] == 1


def test_one_token_never_reaches_another_session(client):
    mine, theirs = enter(client), enter(client)
    their_plan = client.get(f"/api/sessions/{theirs}").get_json()["plan"]
    my_ids = {item["stimulus_id"] for item in client.get(f"/api/sessions/{mine}").get_json()["plan"]}
    # My token with a stimulus planned for them and not for me is judged against my plan only: refused. Plans are
    # 30 of a study's ~200 stimuli, so theirs always holds one that mine lacks.
    (their_item,) = [item for item in their_plan if item["stimulus_id"] not in my_ids][:1]
    response = client.post(f"/api/sessions/{mine}/trials", json=trial_body(their_item))
    assert response.status_code == 422
    assert client.get(f"/study/study3/s/{theirs}/results").status_code == 302  # not completed: back to the task
    other = mine[:-1] + ("y" if mine.endswith("x") else "x")  # one character off: no session's token
    assert client.get(f"/study/study3/s/{other}").status_code == 404
    assert count(Trial) == 0


def test_paused_study_turns_new_participants_away_but_lets_running_ones_finish(app, client):
    token = enter(client, **PROLIFIC)
    from server.studies.definitions import get_study

    get_study("study3").status = "paused"
    db.session.commit()
    assert enter(client, **PROLIFIC) == token
    page = client.get("/study/study3", query_string={**PROLIFIC, "PROLIFIC_PID": "someoneelse"})
    assert page.status_code == 200 and b"not accepting" in page.data
    assert count(ParticipantSession) == 1
