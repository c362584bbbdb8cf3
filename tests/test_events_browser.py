"""A participant switches to another tab in the middle of a study3 trial, in headless Chromium: the trial reaches
the server with its interaction records (the number edits, the window's blur and focus, the tab hidden and shown
again), and events.csv has them for that trial (issue #25 item 4)."""

import csv

from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession, Trial
from tests.test_faults import start


def emulate_visibility(page, state):
    """Playwright keeps every page visible, whatever is in front (microsoft/playwright#2286, #3570): a tab switch
    fires blur and focus for real but never visibilitychange, even with focus emulation off and the tabs in one
    window (headless Chromium over raw CDP does fire it, but not once Playwright is attached). So the document's
    visibilityState is set as Chromium would and the event dispatched: the page's own listener does the rest."""
    page.evaluate(
        """(state) => {
            Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
            Object.defineProperty(document, "hidden", { configurable: true, get: () => state === "hidden" });
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        state,
    )


def test_a_tab_switch_mid_trial_reaches_events_csv(app, live_server, page, runner, tmp_path):
    start(page, f"{live_server}/study/study3")  # consent, demographics, instructions

    field = page.locator("#sh-ratio-input")
    expect(page.locator(".sh-ratio-form button")).to_be_enabled()  # the chart has loaded
    field.press_sequentially("42")
    # Playwright makes every page look focused; without that, bringing another tab to the front blurs this one.
    page.context.new_cdp_session(page).send("Emulation.setFocusEmulationEnabled", {"enabled": False})
    other = page.context.new_page()
    other.bring_to_front()
    emulate_visibility(page, "hidden")
    page.bring_to_front()
    emulate_visibility(page, "visible")
    other.close()
    page.locator(".sh-ratio-form button").click()
    expect(page.locator(".sh-feedback")).to_contain_text("The correct answer was")

    db.session.rollback()
    page.wait_for_function("() => Object.keys(localStorage).every((k) => !k.endsWith(':queue'))")
    trial = db.session.scalars(db.select(Trial).join(ParticipantSession)).one()
    types = [e["type"] for e in trial.events]
    assert [e["value"] for e in trial.events if e["type"] == "input"] == ["4", "42"]
    assert {"blur", "focus"} <= set(types), trial.events
    assert types.index("hidden") < types.index("visible")
    times = [e["t"] for e in trial.events]
    assert times == sorted(times) and times[-1] <= trial.rt_ms + 10_000

    result = runner.invoke(args=["export", "study3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    with open(tmp_path / "events.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["type"] for r in rows] == types
    assert {(r["trial_index"], r["participant_id"]) for r in rows} == {("0", str(trial.session_id))}
