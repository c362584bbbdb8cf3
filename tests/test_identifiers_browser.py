"""The study page's identifier purge in headless Chromium: refused (and saying why) while a submission awaits
review, done once it is approved, with the count and the audit log updated (tests/test_purge_identifiers.py covers
the command and every refusal)."""

import re

import pytest
from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession
from server.researchers.auth import create_researcher
from tests.prolific_study import PROLIFIC_STUDY, SLUG, answer, code_of, complete, pid, prolific_app
from tests.prolific_study import enter as prolific_enter
from tests.test_purge_identifiers import age


@pytest.fixture
def app(tmp_path):
    with prolific_app(tmp_path) as (app, fake):
        app.extensions["fake_prolific"] = fake
        yield app


def test_the_study_page_purges_identifiers_once_approvals_are_settled(app, client, runner, live_server, page):
    fake = app.extensions["fake_prolific"]
    create_researcher("ada", "correct horse")
    participant = pid(1)
    submission = fake.join(PROLIFIC_STUDY, participant)
    token = prolific_enter(client, participant, submission)
    answer(client, token)
    fake.submit(submission, code_of(complete(client, token)["redirect_url"]))
    assert runner.invoke(args=["prolific", "sync", SLUG]).exit_code == 0
    age(participant, 40)

    page.goto(f"{live_server}/researcher/studies/{SLUG}/")
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill("correct horse")
    page.get_by_role("button", name="Log in").click()
    section = page.locator("#data-protection")
    expect(section.locator("#n-purgeable")).to_have_text("1")
    expect(section.locator(".purge-refusal")).to_contain_text("1 Prolific submission(s) are AWAITING REVIEW")
    page.get_by_role("button", name="Purge identifiers").click()
    expect(
        page.get_by_text(re.compile(r"Nothing purged: 1 Prolific submission\(s\) are AWAITING REVIEW"))
    ).to_be_visible()
    db.session.rollback()
    assert db.session.scalars(db.select(ParticipantSession.prolific_pid)).one() == participant

    fake.set_status(submission, "APPROVED")
    page.get_by_role("button", name="Sync with Prolific").click()
    expect(section.locator(".purge-refusal")).to_have_count(0)
    page.get_by_role("button", name="Purge identifiers").click()
    expect(page.get_by_text("Purged the identifiers of 1 session(s) older than 30 days.")).to_be_visible()
    expect(section.locator("#n-purgeable")).to_have_text("0")
    expect(page.locator("#events")).to_contain_text("identifiers_purged · n 1")
    db.session.rollback()
    assert db.session.scalars(db.select(ParticipantSession.prolific_pid)).one() is None
