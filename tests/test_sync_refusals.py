"""In Chromium: what static/studyhive/sync.js does with a trial the server refuses (issue #21). A trial sent before
consent stays queued; one the server refuses for good (the session ended, the index holds another answer) moves to
the `refused` list in localStorage and is reported, never silently dropped; and the page says that the session has
ended."""

from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession, Trial
from tests.helpers import agree, answer_surveys, enter, trial_body

DRAIN = """async ([token, body]) => {
  const sync = window.syncs[token] || (window.syncs[token] = new StudyhiveSync(`/api/sessions/${token}`, token));
  window.ended = null;
  sync.onended = (answer) => { window.ended = answer.error; };
  if (body) sync.enqueue(body);
  await sync.flush();
  // What localStorage keeps, read back as a new page would (one entry per key beside an index: sync.js).
  const read = (key) => new StudyhiveStoredList(`studyhive:${token}:${key}`).entries;
  return {queue: read("queue"), refused: read("refused"), ended: window.ended};
}"""


def stored_indexes(token):
    db.session.rollback()
    return list(
        db.session.scalars(
            db.select(Trial.trial_index)
            .join(ParticipantSession)
            .where(ParticipantSession.token == token)
            .order_by(Trial.trial_index)
        )
    )


def session_id(token):
    db.session.rollback()
    return db.session.scalars(db.select(ParticipantSession.id).filter_by(token=token)).one()


def test_refused_trials_are_kept_and_reported(app, client, runner, live_server, page):
    token = enter(client, consent=False)
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    page.goto(f"{live_server}/api/openapi.json")  # any page of the origin whose localStorage the study uses
    page.add_script_tag(url="/static/studyhive/sync.js")
    page.evaluate("window.syncs = {}")

    early = trial_body(plan[0])
    state = page.evaluate(DRAIN, [token, early])
    assert state["queue"] == [early] and state["refused"] == []  # out_of_order: waits for consent
    agree(client, token)
    state = page.evaluate(DRAIN, [token, None])
    assert state["queue"] == [] and stored_indexes(token) == [0]

    second_answer = trial_body(plan[0])  # the same index again, from another tab say: the first answer stands
    state = page.evaluate(DRAIN, [token, second_answer])
    assert state["queue"] == [] and [r["error"]["error"] for r in state["refused"]] == ["trial_index_taken"]
    assert state["refused"][0]["body"] == second_answer

    excluded = runner.invoke(args=["participants", "exclude", "study3", str(session_id(token)), "--reason", "test"])
    assert excluded.exit_code == 0, excluded.output
    late = trial_body(plan[1])
    state = page.evaluate(DRAIN, [token, late])
    assert state["queue"] == [] and state["ended"] == "session_ended"
    assert [(r["body"], r["status"], r["error"]["error"]) for r in state["refused"][1:]] == [
        (late, 409, "session_ended")
    ]
    assert stored_indexes(token) == [0]


def test_the_page_stops_when_the_session_ends_under_it(app, client, runner, live_server, page):
    token = enter(client)
    answer_surveys(client, token)
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    for item in plan[:5]:  # the practice trials: the page resumes at the first test trial
        assert client.post(f"/api/sessions/{token}/trials", json=trial_body(item)).status_code == 201
    page.goto(f"{live_server}/study/study3/s/{token}")
    page.get_by_role("button", name="Continue").click()  # "Welcome back"
    page.get_by_role("button", name="Start").click()  # "Practice complete"
    excluded = runner.invoke(args=["participants", "exclude", "study3", str(session_id(token)), "--reason", "test"])
    assert excluded.exit_code == 0, excluded.output
    expect(page.locator(".sh-ratio-form button")).to_be_enabled()
    page.locator("#sh-ratio-input").fill("33")
    page.locator(".sh-ratio-form button").click()
    expect(page.get_by_text("This session has ended")).to_be_visible()
    refused = page.evaluate(f"new StudyhiveStoredList('studyhive:{token}:refused').entries")
    assert [(r["body"]["trial_index"], r["body"]["response"]["percent"]) for r in refused] == [(5, 33)]
    assert stored_indexes(token) == list(range(5))
    page.reload()  # an ended session shows the same on every visit, and sends nothing
    expect(page.get_by_text("This session has ended")).to_be_visible()
    assert stored_indexes(token) == list(range(5))
