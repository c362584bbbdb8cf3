"""A participant rates the Two4Two demo's statements in headless Chromium: the grid is shown scaled to the window,
Next waits for a rating, a double click stores one trial, a reload resumes at the next statement, and the study
ends with exactly one stored rating per statement, in the participant's own recorded order."""

from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession, Trial

SLUG = "two4two-demo"


def stored():
    db.session.rollback()  # read what the server thread committed, not this thread's old snapshot
    return db.session.scalars(db.select(Trial).order_by(Trial.trial_index)).all()


def rate(page, rating, double=False):
    """Rate the statement on screen; return its text."""
    expect(page.locator(".sh-hr-statement")).to_be_visible()
    statement = page.locator(".sh-hr-statement").inner_text()
    next_button = page.get_by_role("button", name="Next")
    expect(next_button).to_be_disabled()  # no rating yet
    page.locator(f".sh-hr-point input[value='{rating}']").check()
    if double:
        next_button.dblclick()
    else:
        next_button.click()
    page.wait_for_function(
        "(shown) => { const s = document.querySelector('.sh-hr-statement'); return !s || s.textContent !== shown; }",
        arg=statement,
    )  # the next one, or the end
    return statement


def test_participant_rates_every_statement_once(app, live_server, page):
    page.goto(f"{live_server}/study/{SLUG}")
    page.get_by_role("button", name="I agree").click()
    page.locator("input[name=gender][value=male]").check()
    page.locator("input[name=age]").fill("41")
    page.locator("input[name=education][value=bachelors]").check()
    page.locator("input[name=nationality]").fill("Kenyan")
    page.get_by_role("button", name="Continue").click()
    for heading in ("Two kinds of animals", "The model's predictions"):  # studies/two4two-demo/study.toml
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
        page.get_by_role("button", name="Next >").click()

    # The grid: 5 labelled columns of 8 images, every image loaded, side by side within the window's width.
    expect(page.locator(".sh-hr-heading")).to_have_text(
        ["Stretchy (sure)", "Stretchy", "unsure", "Peaky", "Peaky (sure)"]
    )
    cells = page.locator(".sh-hr-cell")
    expect(cells).to_have_count(40)
    page.wait_for_function("() => [...document.querySelectorAll('.sh-hr-cell')].every((i) => i.naturalWidth > 0)")
    boxes = [cells.nth(i).bounding_box() for i in (0, 8, 16, 24, 32)]  # the top image of each column
    assert all(a["x"] + a["width"] <= b["x"] for a, b in zip(boxes, boxes[1:]))
    assert boxes[-1]["x"] + boxes[-1]["width"] <= 1366 and 24 <= boxes[0]["width"] <= 160

    shown = [rate(page, 6, double=True), rate(page, 2)]
    page.wait_for_function(
        "() => Object.keys(localStorage).every((k) => "
        "!k.endsWith(':queue') || JSON.parse(localStorage.getItem(k)).length === 0)"
    )
    assert [t.trial_index for t in stored()] == [0, 1]  # the double click stored one rating

    page.reload()
    page.get_by_role("button", name="Continue").click()  # "Welcome back"
    shown += [rate(page, r) for r in (7, 4, 1)]
    page.wait_for_url(f"{live_server}/study/{SLUG}/s/*/results")
    expect(page.locator("body")).to_contain_text("You agreed with 2 of the 5 statements.")

    trials = stored()
    session = db.session.scalars(db.select(ParticipantSession)).one()
    assert session.status == "completed"
    assert [t.trial_index for t in trials] == [0, 1, 2, 3, 4]
    assert [t.response["rating"] for t in trials] == [6, 2, 7, 4, 1]
    order = session.plan[0]["presented"]["statement_order"]
    assert sorted(order) == ["arms", "background", "blocks", "colour", "rotation"]
    assert [t.presented["statement_id"] for t in trials] == order
    assert [t.presented["statement_text"] for t in trials] == shown
