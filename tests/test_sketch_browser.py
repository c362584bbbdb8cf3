"""The sketch-recognition plugin in headless Chromium on the demo study: the drop-down appears while typing and is
keyboard navigable (arrows, Enter, Escape), a word outside the vocabulary is refused, three ranked guesses with
their times are stored once per trial, and the study completes."""

import re

from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession, Stimulus, Trial


def stored():
    db.session.rollback()  # read what the server thread committed
    return db.session.scalars(db.select(Trial).order_by(Trial.trial_index)).all()


def test_participant_names_sketches_with_ranked_vocabulary_guesses(app, live_server, page):
    page.goto(f"{live_server}/study/sketch-demo")
    page.get_by_role("button", name="I agree").click()
    for heading in ("Your task", "Up to three guesses"):
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
        page.get_by_role("button", name="Next >").click()

    first, second, third = (page.locator(".sh-guess input").nth(i) for i in range(3))
    listbox = page.get_by_role("listbox")
    expect(first).to_be_enabled()  # sketch shown and vocabulary loaded
    expect(page.locator(".sh-sketch-image")).to_have_js_property("complete", True)

    # Typing "ba" lists prefix matches; homonyms show their category; arrows move, Enter picks.
    first.press_sequentially("bat")
    expect(listbox).to_be_visible()
    options = listbox.get_by_role("option")
    expect(options.first).to_have_text("bat (animal)")
    expect(options.nth(1)).to_have_text("bat (sports equipment)")
    expect(options.first).to_have_attribute("aria-selected", "true")
    first.press("ArrowDown")
    expect(options.nth(1)).to_have_attribute("aria-selected", "true")
    first.press("ArrowUp")
    first.press("ArrowDown")
    first.press("Enter")
    expect(first).to_have_value("bat (sports equipment)")
    expect(listbox).to_be_hidden()
    expect(second).to_be_focused()  # Enter moves on to the next box

    # Word matches: "pole" finds "fishing pole"; Escape closes the list without picking.
    second.press_sequentially("pole")
    expect(listbox.get_by_role("option", name="fishing pole")).to_be_visible()
    second.press("Escape")
    expect(listbox).to_be_hidden()
    expect(second).to_have_value("pole")

    # A word that is not in the vocabulary is refused: the trial does not end.
    second.fill("zzqx")
    page.get_by_role("button", name="Next").click()
    expect(page.locator(".sh-sketch-form .sh-error")).to_contain_text("“zzqx” is not in the list of names")
    expect(second).to_have_attribute("aria-invalid", "true")
    assert stored() == []

    second.fill("")
    second.press_sequentially("cu")
    listbox.get_by_role("option", name="cup", exact=True).click()  # a click picks as well
    expect(second).to_have_value("cup")
    third.press_sequentially("fish")
    third.press("Enter")
    expect(third).to_have_value("fish")
    page.get_by_role("button", name="Next").click()

    # The other trials: one guess each, typed out in full (an exact label is accepted without the list).
    for index in range(1, 9):
        box = page.locator(".sh-guess input").first
        expect(box).to_be_enabled()
        expect(box).to_be_focused()
        box.fill("ladder")
        page.get_by_role("button", name="Next").click()
        if index < 8:
            expect(page.locator(".sh-guess input").first).to_have_value("")

    expect(page.locator(".sh-score")).to_contain_text(re.compile(r"named the drawn object in \d+ %"), timeout=20_000)
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url(re.compile(r"/results$"))
    trials = stored()
    assert [t.trial_index for t in trials] == list(range(9))
    guesses = trials[0].response["guesses"]
    assert [g["label_id"] for g in guesses] == ["bat2", "cup", "fish"]
    assert [g["label"] for g in guesses] == ["bat", "cup", "fish"]
    assert 0 < guesses[0]["rt_ms"] <= guesses[1]["rt_ms"] <= guesses[2]["rt_ms"] <= trials[0].rt_ms
    assert [[g["label_id"] for g in t.response["guesses"]] for t in trials[1:]] == [["ladder"]] * 8
    first_guesses = ["bat2"] + ["ladder"] * 8
    assert [t.score["top1"] for t in trials] == [
        db.session.get(Stimulus, t.stimulus_id).params["concept"] == guess for t, guess in zip(trials, first_guesses)
    ]
    assert db.session.scalars(db.select(ParticipantSession.status)).one() == "completed"
