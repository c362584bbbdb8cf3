"""A generic participant inside an experiment's frame: answers whatever the screen asks, one action a step."""

from __future__ import annotations

import time

# Keys tried in turn when a screen has nothing to click: the ones jsPsych tutorials and the corpus ask for.
KEYS = (" ", "f", "j", "ArrowRight", "Enter", "ArrowLeft", "y", "n", "1", "2", "3", "a")

# One step in the page: fill every empty text field, pick the first option of every radio group, checkbox group and
# select, move every slider once (the events slider plugins wait for before their button takes a click: mousedown,
# touchstart, change, or click in jsPsych 6.0), then click the first enabled, visible button that does not go back or
# undo; failing that, click a canvas (drawing and dragging plugins). Returns what it did, or "" when there was nothing
# to do (the caller then presses a key).
ACT = r"""() => {
  const visible = (el) => el.offsetParent !== null && !el.disabled;
  const moved = (window.__participantMoved ??= new WeakSet());
  for (const el of document.querySelectorAll("input[type=range]")) {
    if (visible(el) && !moved.has(el)) {
      moved.add(el);
      const [min, max] = [Number(el.min || 0), Number(el.max || 100)];
      el.value = String(min + Math.round((max - min) * 0.7));
      for (const type of ["mousedown", "touchstart", "input", "change", "click"]) {
        el.dispatchEvent(new Event(type, {bubbles: true}));
      }
    }
  }
  const boxes = new Set();
  for (const el of document.querySelectorAll("input[type=checkbox]")) {
    if (visible(el) && !boxes.has(el.name)) {
      boxes.add(el.name);
      if (!document.querySelector(`input[type=checkbox][name="${CSS.escape(el.name)}"]:checked`)) el.click();
    }
  }
  for (const el of document.querySelectorAll("input[type=text], input[type=number], input:not([type]), textarea")) {
    if (visible(el) && !el.value) {
      el.value = el.type === "number" ? (el.min || "1") : "a";
      el.dispatchEvent(new Event("input", {bubbles: true}));
      el.dispatchEvent(new Event("change", {bubbles: true}));
    }
  }
  const groups = new Set();
  for (const el of document.querySelectorAll("input[type=radio]")) {
    if (visible(el) && !groups.has(el.name)) {
      groups.add(el.name);
      if (!document.querySelector(`input[type=radio][name="${CSS.escape(el.name)}"]:checked`)) el.click();
    }
  }
  for (const el of document.querySelectorAll("select")) {
    if (visible(el) && el.selectedIndex <= 0 && el.options.length > 1) {
      el.selectedIndex = 1;
      el.dispatchEvent(new Event("change", {bubbles: true}));
    }
  }
  const buttons = [...document.querySelectorAll(".jspsych-btn, button, input[type=submit], input[type=button]")];
  // instructions' "< Previous", and a grid's Clear or Reset beside its Submit
  const back = (el) => /prev|back|clear|reset|undo|^\s*</i.test(el.textContent || el.value || "");
  const button = buttons.find((el) => visible(el) && !back(el)) || buttons.find(visible);
  if (button) { button.click(); return "click " + (button.textContent || button.value || "").trim().slice(0, 20); }
  const canvas = [...document.querySelectorAll("canvas")].find(visible);
  if (canvas) return "canvas";
  return "";
}"""

# The keys the trial on screen accepts, as KeyboardEvent.key values, from the experiment's jsPsych (the global its
# page made: `var jsPsych = initJsPsych()` in 7 and 8, jsPsych 6's own): its `choices` (6.0–6.2: key codes; Escape
# left out, it leaves full screen), the space bar when it takes any key, or [] when it takes none, says nothing or is
# a button-response trial (its choices are labels).
TRIAL_KEYS = r"""() => {
  let jsp = null;
  try { jsp = jsPsych; } catch (undeclared) { return []; }
  let trial = null;
  try { trial = typeof jsp.getCurrentTrial === "function" ? jsp.getCurrentTrial() : jsp.currentTrial(); } catch (e) {}
  if (!trial) return [];
  let choices = trial.choices ?? trial.key_choices;
  if (choices === "allkeys" || choices === "ALL_KEYS") return [" "];
  // a plugin's own key parameters (visual-search-circle's target_present_key and target_absent_key, a
  // correct_key, the instructions plugin's key_forward) or list of them (valid_responses)
  const own = Object.keys(trial).filter((k) => /_key$|^key_forward$/.test(k) && typeof trial[k] === "string")
    .map((k) => trial[k]);
  if (!Array.isArray(choices)) choices = Array.isArray(trial.valid_responses) ? trial.valid_responses : own;
  const named = {space: " ", enter: "Enter", arrowleft: "ArrowLeft", arrowright: "ArrowRight", arrowup: "ArrowUp",
                 arrowdown: "ArrowDown", leftarrow: "ArrowLeft", rightarrow: "ArrowRight"};
  const codes = {32: " ", 13: "Enter", 37: "ArrowLeft", 38: "ArrowUp", 39: "ArrowRight", 40: "ArrowDown"};
  // a button-response trial's choices are its buttons' labels, not keys
  const type = trial.type && (trial.type.info ? trial.type.info.name : String(trial.type));
  if (/button-response/.test(type || "")) return [];
  return choices.map((c) => typeof c === "number" ? (codes[c] || String.fromCharCode(c).toLowerCase())
    : typeof c === "string" ? (named[c.toLowerCase()] || c) : null)
    // one character or a key name Playwright knows ("Unknown key" else)
    .filter((k) => typeof k === "string" && k >= " " && k !== "Escape")
    .filter((k) => k.length === 1 || /^[A-Z][A-Za-z0-9]+$/.test(k));
}"""


# How far the experiment is: the rows its jsPsych holds (-1 before there is one).
PROGRESS = r"""() => { try { return jsPsych.data.get().count(); } catch (undeclared) { return -1; } }"""


def key_target(frame):
    """Where a participant's keys go: jsPsych's display element, whose listeners jsPsych 6 attaches there (a page
    whose <body> takes focus itself, tabindex="0", would keep them from it), else the page's body."""
    display = frame.locator(".jspsych-display-element")
    return display.first if display.count() else frame.locator("body")


def run_through(
    page, continue_button, seconds: float = 300, idle: int = 150, each_step=None, stopped=None
) -> tuple[bool, int, str]:
    """Answer screens until studyhive's Continue button shows, or its `stopped` panel (the experiment's fatal error:
    End the study), or `idle` steps in a row record no row (the participant is stuck: a task it cannot answer), or
    `seconds` pass: (reached, steps, last). A long experiment goes on as long as it records rows. A screen whose
    buttons record nothing after three clicks (one whose handler the frame's policy blocks) gets keys on every other
    step. `each_step(page, step)`, when given, runs before each step (the faults: a reload, going offline)."""
    deadline, last, rows, still, step, pressed = time.monotonic() + seconds, "", None, 0, 0, 0
    while still < idle and time.monotonic() < deadline:
        if continue_button.is_visible():
            return True, step, last
        if stopped is not None and stopped.is_visible():
            return False, step, "the experiment's error stopped it (studyhive offers End the study)"
        try:
            if each_step:
                each_step(page, step)
            frame = page.wait_for_selector("#studyhive-experiment").content_frame()  # a new one after a reload
            count = frame.evaluate(PROGRESS)
            rows, still = count, (0 if count != rows else still + 1)
            clicked_in_vain = still >= 3 and step % 2 == 1 and last.startswith("click")
            last = "" if clicked_in_vain else frame.evaluate(ACT)
            keys = frame.evaluate(TRIAL_KEYS) if last in ("", "canvas") else []
            if keys:  # the trial says which keys it takes: one of them, in turn
                last = "key " + keys[pressed % len(keys)]
                key_target(frame).press(keys[pressed % len(keys)], timeout=2000)
                pressed += 1
            elif last == "canvas" and step % 2 == 0:  # a click, or on the next step a key, may answer it
                box = frame.locator("canvas").first.bounding_box()
                if box:
                    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            elif last in ("", "canvas"):
                last = "key " + KEYS[pressed % len(KEYS)]
                key_target(frame).press(KEYS[pressed % len(KEYS)], timeout=2000)
                pressed += 1
        except Exception as exc:  # a navigation or a frame torn down mid-step: try again on the next screen
            last = f"error {type(exc).__name__}"
            still += 1
        step += 1
        page.wait_for_timeout(150)
    stopped = f"no new row in {idle} steps" if still >= idle else f"{seconds:.0f} s spent"
    return continue_button.is_visible(), step, f"{stopped}, the last: {last}"
