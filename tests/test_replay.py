"""The replay page: a stored session trial by trial — the stimulus and what the plan says the page showed, in its
order; the answer; the interaction records (or that there are none) — for planned trials, HIVE's option images and
plan-less jsPsych rows; and, in headless Chromium, a researcher stepping through a completed session with the
keyboard."""

import re
import uuid

from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession, Study, Trial
from tests.helpers import answer_all, enter, to_pilot

EVENTS = [
    {"t": 0, "type": "visible", "target": None, "value": None},
    {"t": 400, "type": "hidden", "target": None, "value": None},
    {"t": 900, "type": "visible", "target": None, "value": None},
    {"t": 1100, "type": "input", "target": "percent", "value": "<b>42</b>"},
]


def session(token) -> ParticipantSession:
    db.session.rollback()
    return db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()


def completed_study3_session(client, events=EVENTS) -> ParticipantSession:
    """A completed study3 session whose first test trial carries `events`."""
    token = enter(client)
    state = answer_all(client, token)
    assert client.post(f"/api/sessions/{token}/complete").status_code == 200
    person = session(token)
    first_test = next(item["index"] for item in state["plan"] if not item["practice"])
    trial = db.session.scalars(db.select(Trial).filter_by(session_id=person.id, trial_index=first_test)).one()
    trial.events = events
    db.session.commit()
    return person


def test_replay_shows_stimuli_answers_and_events_of_a_stored_session(app, client, auth):
    to_pilot()  # a new study starts in pilot; the shared fixture put it live
    person = completed_study3_session(client)
    auth.login()
    url = f"/researcher/studies/study3/participants/{person.id}/replay"
    html = client.get(url).get_data(as_text=True)
    steps = re.findall(r'<section class="replay-step" id="trial-(\d+)"', html)
    assert steps == [str(i) for i in range(len(person.plan))]  # every stored trial, in order (practice first)
    for item in person.plan:
        assert f'src="/stimuli/study3/{item["stimulus_id"]}"' in html
    assert html.count('class="replay-no-events"') == len(person.plan) - 1  # one trial carries events
    assert "No interaction records: the page sent none with this trial." in html
    table = re.search(r'<table class="replay-events">.*?</table>', html, re.S).group(0)
    assert re.findall(r"<td>(visible|hidden|input)</td>", table) == ["visible", "hidden", "visible", "input"]
    assert "&lt;b&gt;42&lt;/b&gt;" in table and "<b>42" not in table  # a participant's text is escaped
    assert 'style="left: 32.41%"' in html  # the hidden event at 400 of 1234 ms (the trial's response time)
    assert '"percent"' not in html or "50.0" in html
    assert '<span class="status">pilot</span>' in html and 'id="replay-preview"' not in html

    # Linked from the participant page and the participant list.
    assert url in client.get(f"/researcher/studies/study3/participants/{person.id}").get_data(as_text=True)
    assert url in client.get("/researcher/studies/study3/participants").get_data(as_text=True)
    # A session of another study, or none, is not found under this one.
    assert client.get(f"/researcher/studies/two4two-demo/participants/{person.id}/replay").status_code == 404
    assert client.get("/researcher/studies/study3/participants/999/replay").status_code == 404


def test_replay_of_a_preview_and_of_a_session_without_trials(app, client, auth):
    token = enter(client)
    person = session(token)
    person.preview = True
    db.session.commit()
    auth.login()
    html = client.get(f"/researcher/studies/study3/participants/{person.id}/replay").get_data(as_text=True)
    assert 'id="replay-preview">preview<' in html and "No trials stored yet." in html


def test_replay_shows_hive_options_in_the_order_shown(app, client, auth):
    token = enter(client, "hive-distinction")
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    for name in ("hive_demographics",):
        client.put(f"/api/sessions/{token}/surveys/{name}", json={"answers": {"ml_experience": 3}})
    item = plan[0]
    body = {
        "trial_id": str(uuid.uuid4()),
        "trial_index": item["index"],
        "stimulus_id": item["stimulus_id"],
        "response": {"choice": item["options"][0]["key"], "confidence": 4},
        "rt_ms": 900,
    }
    assert client.post(f"/api/sessions/{token}/trials", json=body).status_code == 201
    auth.login()
    html = client.get(f"/researcher/studies/hive-distinction/participants/{session(token).id}/replay").get_data(
        as_text=True
    )
    captions = re.findall(r"<figcaption>([^<]*)</figcaption>", html)
    assert captions == ["stimulus"] + [f"option {n}: {o['key']}" for n, o in enumerate(item["options"], 1)]
    for option in item["options"]:
        assert f'src="{option["explanation"][0]}"' in html


def test_replay_shows_plan_less_rows_as_data(app, client, auth):
    study = db.session.scalars(db.select(Study).filter_by(slug="visual-search")).one()
    person = ParticipantSession(
        study_id=study.id, token="v" * 20, platform="direct", study_version=study.version, plan=[]
    )
    db.session.add(person)
    db.session.flush()
    db.session.add(
        Trial(
            session_id=person.id,
            trial_index=0,
            client_trial_id="row-0",
            practice=False,
            response={"response": "present", "rt": 812},
            score={},
            rt_ms=812,
        )
    )
    db.session.commit()
    auth.login()
    html = client.get(f"/researcher/studies/visual-search/participants/{person.id}/replay").get_data(as_text=True)
    assert "Row 0" in html and "<dd>present</dd>" in html and "<img" not in html
    assert "shows each stored row as data, with no stimulus" in html


def test_researcher_steps_through_a_completed_session_with_the_keyboard(app, client, auth, live_server, page):
    person = completed_study3_session(client)
    n = len(person.plan)
    first_test = next(item["index"] for item in person.plan if not item["practice"])
    page.goto(f"{live_server}/researcher/login")
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill("correct horse")
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server}/researcher/studies/study3/participants/{person.id}")
    page.get_by_role("link", name="Replay trial by trial").click()

    position = page.locator("#replay-position")
    visible = page.locator(".replay-step:visible")
    expect(position).to_have_text(f"Trial 1 of {n}")
    expect(visible).to_have_count(1)
    expect(visible).to_have_attribute("id", "trial-0")
    image = visible.locator("img")
    expect(image).to_have_attribute("src", f"/stimuli/study3/{person.plan[0]['stimulus_id']}")
    expect(image).to_have_js_property("complete", True)
    assert image.evaluate("img => img.naturalWidth") > 0
    expect(visible.locator(".replay-answer")).to_contain_text("50.0")
    expect(page.get_by_role("button", name="‹ Previous")).to_be_disabled()

    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(f"Trial 2 of {n}")
    expect(visible).to_have_attribute("id", "trial-1")
    page.keyboard.press("ArrowLeft")
    expect(visible).to_have_attribute("id", "trial-0")
    for _ in range(first_test):
        page.keyboard.press("j")
    expect(visible).to_have_attribute("id", f"trial-{first_test}")
    expect(visible.locator(".replay-events tr").filter(has_text="hidden")).to_have_count(1)
    expect(visible.locator(".replay-events")).to_contain_text("<b>42</b>")
    expect(page).to_have_url(re.compile(rf"#trial-{first_test}$"))

    page.keyboard.press("End")
    expect(position).to_have_text(f"Trial {n} of {n}")
    expect(page.get_by_role("button", name="Next ›")).to_be_disabled()
    expect(visible.locator(".replay-no-events")).to_be_visible()
    page.keyboard.press("Home")
    expect(position).to_have_text(f"Trial 1 of {n}")

    # The address names the trial: a link to another one opens it, and so does a reload.
    page.goto(f"{live_server}/researcher/studies/study3/participants/{person.id}/replay#trial-{first_test}")
    expect(visible).to_have_attribute("id", f"trial-{first_test}")
    page.keyboard.press("ArrowRight")
    page.reload()
    expect(visible).to_have_attribute("id", f"trial-{first_test + 1}")
