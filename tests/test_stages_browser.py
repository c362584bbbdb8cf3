"""A study's life in headless Chromium (issue #25, "Done when"): a participant starts study3 while it is in pilot,
the researcher puts it live with the dashboard's button, a second participant starts; the participant list shows
each session with the stage it started in, and the stage filter keeps them apart."""

from __future__ import annotations

from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession
from tests.helpers import to_pilot
from tests.test_faults import start


def test_a_pilot_then_a_live_session_show_with_their_stage(app, auth, live_server, page, browser):
    to_pilot()  # a new study starts in pilot; the shared fixture put it live
    start(page, f"{live_server}/study/study3")  # the pilot participant reaches the first trial

    researcher = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    researcher.goto(f"{live_server}/researcher/login")
    researcher.get_by_label("Username").fill("ada")
    researcher.get_by_label("Password").fill("correct horse")
    researcher.get_by_role("button", name="Log in").click()
    researcher.goto(f"{live_server}/researcher/studies/study3/")
    researcher.get_by_role("button", name="Put live").click()
    expect(researcher.get_by_role("button", name="Back to pilot")).to_be_visible()

    second = browser.new_context().new_page()
    start(second, f"{live_server}/study/study3")
    expect(second.locator("#sh-ratio-input")).to_be_visible()

    db.session.rollback()  # read what the server thread committed
    first_id, second_id = db.session.scalars(db.select(ParticipantSession.id).order_by(ParticipantSession.id)).all()
    researcher.goto(f"{live_server}/researcher/studies/study3/participants?stage=all")
    stage_of = {
        pid: researcher.locator("tr", has=researcher.get_by_role("link", name=str(pid), exact=True)).locator(".stage")
        for pid in (first_id, second_id)
    }
    expect(stage_of[first_id]).to_have_text("pilot")
    expect(stage_of[second_id]).to_have_text("live")
    researcher.get_by_role("link", name="live", exact=True).click()
    expect(researcher.locator("td.stage")).to_have_text(["live"])
    researcher.context.close()
    second.context.close()
