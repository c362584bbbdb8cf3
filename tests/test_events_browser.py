"""A participant switches to another tab in the middle of a study3 trial, in headless Chromium: the trial reaches
the server with its interaction records (the number edits, the window's blur and focus, the tab hidden and shown
again), events.csv has them for that trial (issue #25 item 4), and the participant gets the time-away flag (item 5)."""

import csv

from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession, Trial
from tests.test_faults import start
from tests.test_quality_flags import with_quality


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


def test_a_tab_switch_mid_trial_reaches_events_csv_and_raises_the_flag(app, live_server, page, runner, tmp_path):
    # study.toml's [quality] lowers the time-away threshold to 1 s, so a short switch raises the flag
    path = with_quality(app, tmp_path, "study3", "time_away_s = 1\n")
    app.config["STUDIES_DIR"] = str(path.parent.parent)
    assert "updated (version 2)" in runner.invoke(args=["studies", "sync"]).output
    start(page, f"{live_server}/study/study3")  # consent, demographics, instructions

    field = page.locator("#sh-ratio-input")
    expect(page.locator(".sh-ratio-form button")).to_be_enabled()  # the chart has loaded
    field.press_sequentially("42")
    # Playwright makes every page look focused; without that, bringing another tab to the front blurs this one.
    page.context.new_cdp_session(page).send("Emulation.setFocusEmulationEnabled", {"enabled": False})
    other = page.context.new_page()
    other.bring_to_front()
    emulate_visibility(page, "hidden")
    page.wait_for_timeout(1500)
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

    out = tmp_path / "export"
    result = runner.invoke(args=["export", "study3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    with open(out / "events.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["type"] for r in rows] == types
    with open(out / "participants.csv", newline="") as fh:
        (person,) = csv.DictReader(fh)
    assert person["quality_flags"] == "time_away" and float(person["time_away_s"]) >= 1.5, person
    assert person["status"] != "excluded"  # a flag never excludes anyone by itself
    assert {(r["trial_index"], r["participant_id"]) for r in rows} == {("0", str(trial.session_id))}
