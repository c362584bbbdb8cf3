// static/studyhive/events.js: a trial's interaction records and their caps (server/tasktype/events.py checks the same).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { makePage, event, plain } = require("./browser");

function eventsPage() {
  const page = makePage().load("static/studyhive/events.js");
  return { page, StudyhiveEvents: page.get("StudyhiveEvents") };
}

/** A recorder on a clock the test moves. */
function recorder(StudyhiveEvents) {
  const clock = { now: 1000 };
  return { clock, recorder: new StudyhiveEvents.Recorder(() => clock.now) };
}

test("a trial's events are timed from its start, and nothing is recorded between trials", () => {
  const { StudyhiveEvents } = eventsPage();
  const { clock, recorder: r } = recorder(StudyhiveEvents);
  r.add("key", "guess1", "a"); // before start(): no trial runs
  r.start();
  clock.now = 1250.4;
  r.add("input", "percent", 42);
  clock.now = 1900;
  r.add("blur");
  assert.deepEqual(plain(r.take()), [
    { t: 250, type: "input", target: "percent", value: "42" },
    { t: 900, type: "blur", target: null, value: null },
  ]);
  r.add("focus"); // after take(): the next trial has not started
  r.start();
  assert.deepEqual(plain(r.take()), []);
});

test("a window dragged to a new size is one resize, with its final size", () => {
  const { StudyhiveEvents } = eventsPage();
  const { clock, recorder: r } = recorder(StudyhiveEvents);
  r.start();
  r.add("resize", null, "800x600");
  clock.now += 400;
  r.add("resize", null, "900x600");
  clock.now += 1500;
  r.add("resize", null, "1000x600");
  assert.deepEqual(plain(r.take().map((e) => [e.t, e.value])), [[0, "900x600"], [1900, "1000x600"]]);
});

test("texts lose NUL and are cut to the caps; times stay within 0 and a day", () => {
  const { StudyhiveEvents } = eventsPage();
  const { clock, recorder: r } = recorder(StudyhiveEvents);
  r.start();
  clock.now = 0; // before the start
  r.add("key", "x".repeat(100), "a\u0000b" + "v".repeat(300));
  clock.now = 1000 + 2 * 24 * 3600 * 1000;
  r.add("blur");
  const [first, second] = r.take();
  assert.equal(first.t, 0);
  assert.equal(first.target.length, 64);
  assert.equal(first.value.slice(0, 3), "abv");
  assert.equal(first.value.length, 200);
  assert.equal(second.t, 24 * 3600 * 1000);
});

test("past the caps the list ends with one truncated event counting every event dropped", () => {
  const { StudyhiveEvents } = eventsPage();
  const { recorder: r } = recorder(StudyhiveEvents);
  r.start();
  // More than the count cap: those past it are only counted, not kept in memory.
  for (let n = 0; n < 700; n += 1) r.add("key", "box", "a");
  assert.equal(r.events.length, StudyhiveEvents.MAX_EVENTS + 1);
  const events = r.take();
  assert.ok(new TextEncoder().encode(JSON.stringify(events)).length <= StudyhiveEvents.MAX_BYTES);
  assert.equal(events.at(-1).type, "truncated");
  assert.equal(Number(events.at(-1).value), 700 - (events.length - 1));
});

test("past the byte cap as well: the list as JSON fits, with the truncated event", () => {
  const { StudyhiveEvents } = eventsPage();
  const value = "é".repeat(200);
  const events = Array.from({ length: 200 }, (unused, t) => ({ t, type: "input", target: "box", value }));
  const capped = StudyhiveEvents.capped(events);
  assert.ok(new TextEncoder().encode(JSON.stringify(capped)).length <= StudyhiveEvents.MAX_BYTES);
  const last = capped.at(-1);
  assert.equal(last.type, "truncated");
  assert.equal(Number(last.value), events.length - (capped.length - 1));
  assert.equal(last.t, events[capped.length - 1].t); // the time of the first dropped event
  const few = events.slice(0, 3);
  assert.equal(StudyhiveEvents.capped(few), few); // within the caps: the list as it is
});

test("watchWindow records the tab hidden and shown, the window's own blur and focus, and resizes", () => {
  const { page, StudyhiveEvents } = eventsPage();
  const { recorder: r } = recorder(StudyhiveEvents);
  StudyhiveEvents.watchWindow(r);
  r.start();
  page.document.visibilityState = "hidden";
  page.document.dispatchEvent(event("visibilitychange"));
  page.document.visibilityState = "visible";
  page.document.dispatchEvent(event("visibilitychange"));
  page.window.dispatchEvent(event("blur", { target: {} })); // a field's blur, captured on its way: not the window's
  page.window.dispatchEvent(event("blur", { target: page.window }));
  page.window.dispatchEvent(event("focus", { target: page.window }));
  page.window.innerWidth = 640;
  page.window.dispatchEvent(event("resize"));
  assert.deepEqual(plain(r.take().map((e) => [e.type, e.value])), [
    ["hidden", null],
    ["visible", null],
    ["blur", null],
    ["focus", null],
    ["resize", "640x768"],
  ]);
});
