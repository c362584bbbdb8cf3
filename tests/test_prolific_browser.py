"""Prolific participants who cannot take part, in headless Chromium: one declines consent, one's window is too
small; each page says why and that it is taking them back to Prolific, then goes to the completion URL with that
outcome's code, and their sessions end abandoned with the outcome recorded (their condition slots free)."""

import pytest
from playwright.sync_api import expect

from server import identifiers
from server.db import db
from server.models import ParticipantSession
from tests.prolific_study import CODES, PROLIFIC_STUDY, SLUG, prolific_app

COMPLETE = "https://app.prolific.com/submissions/complete?cc={}"


@pytest.fixture
def app(tmp_path):
    with prolific_app(tmp_path) as (app, _):
        yield app


def session(participant):
    db.session.rollback()  # read what the server thread committed
    # by the keyed hash: a participant who declines consent keeps no raw id (tests/test_purge_prolific_ids.py)
    return db.session.scalars(
        db.select(ParticipantSession).where(identifiers.MATCHES), identifiers.match_values(participant)
    ).one()


def open_study(page, live_server, participant):
    redirected = []
    page.context.route(
        "https://app.prolific.com/**",
        lambda route: (
            redirected.append(route.request.url),
            route.fulfill(status=200, body="Prolific", content_type="text/html"),
        ),
    )
    page.goto(
        f"{live_server}/study/{SLUG}?PROLIFIC_PID={participant}&STUDY_ID={PROLIFIC_STUDY}&SESSION_ID=s{participant}"
    )
    return redirected


@pytest.mark.parametrize("outcome", ["no_consent", "incompatible_device"])
def test_a_participant_who_cannot_take_part_goes_back_with_that_code(app, live_server, browser, outcome):
    small = outcome == "incompatible_device"
    context = browser.new_context(viewport={"width": 1000, "height": 600} if small else {"width": 1366, "height": 900})
    page = context.new_page()
    participant = f"5f00000000000000000000b{int(small)}"
    redirected = open_study(page, live_server, participant)
    if small:
        page.get_by_role("button", name="I cannot make the window any larger").click()
        expect(page.get_by_text("needs a larger browser window")).to_be_visible()
        expect(page.get_by_text("Taking you back to Prolific")).to_be_visible()
    else:
        page.get_by_role("button", name="I do not agree").click()
        expect(page.get_by_text("As you did not agree to take part")).to_be_visible()
        expect(page.get_by_text("Taking you back to Prolific")).to_be_visible()
    page.wait_for_url(COMPLETE.format(CODES[outcome]), timeout=15_000)
    assert redirected == [COMPLETE.format(CODES[outcome])]
    ended = session(participant)
    assert (ended.status, ended.outcome) == ("abandoned", outcome)
    context.close()
