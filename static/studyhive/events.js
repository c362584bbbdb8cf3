/*
 * StudyhiveEvents: a trial's interaction records, sent with the trial as `events` (docs/participant-api.md,
 * "Interaction records"; the server checks them in server/tasktype/events.py, with the same caps).
 *
 * - `new StudyhiveEvents.Recorder()`: start() when a trial begins, add(type, target, value) as things happen (times
 *   from the start), take() when the answer is recorded: the trial's events, trimmed to the caps.
 * - `StudyhiveEvents.watchWindow(recorder)`: what the window and document report during any trial: the tab hidden
 *   and shown again, the window losing and getting back focus, full screen entered and left, and resizes.
 * - `StudyhiveEvents.capped(events)`: a list within the caps: as many events as fit, then one "truncated" event
 *   whose value says how many were dropped (a page must never lose the answer over its records).
 */
"use strict";
/* exported StudyhiveEvents */

const StudyhiveEvents = (function () {
  const MAX_EVENTS = 500;
  const MAX_BYTES = 16 * 1024; // of the list as JSON in UTF-8
  const MAX_TARGET = 64;
  const MAX_VALUE = 200;
  const MAX_T = 24 * 3600 * 1000;
  const TRUNCATED_ROOM = 80; // bytes kept free for the "truncated" event
  const RESIZE_MERGE_MS = 1000; // a window dragged to a new size is one resize, with its final size
  const encoder = new TextEncoder();
  const bytes = (value) => encoder.encode(JSON.stringify(value)).length;

  function text(value, limit) {
    // NUL cannot be stored (PostgreSQL text); nothing a page records needs it.
    // eslint-disable-next-line no-control-regex -- NUL is what it removes
    return value == null ? null : String(value).replace(/\u0000/g, "").slice(0, limit);
  }

  function event(t, type, target, value) {
    return {
      t: Math.min(Math.max(Math.round(t), 0), MAX_T),
      type,
      target: text(target, MAX_TARGET),
      value: text(value, MAX_VALUE),
    };
  }

  function capped(events, droppedBefore = 0) {
    if (!droppedBefore && events.length <= MAX_EVENTS && bytes(events) <= MAX_BYTES) return events;
    const kept = [];
    let size = 2; // "[]"
    for (const e of events) {
      const next = size + bytes(e) + 1;
      if (kept.length >= MAX_EVENTS - 1 || next + TRUNCATED_ROOM > MAX_BYTES) break;
      kept.push(e);
      size = next;
    }
    const dropped = events.length - kept.length + droppedBefore;
    const at = kept.length < events.length ? events[kept.length].t : kept.length ? kept[kept.length - 1].t : 0;
    kept.push(event(at, "truncated", null, dropped));
    return kept;
  }

  class Recorder {
    constructor(now = () => performance.now()) {
      this.now = now;
      this.events = null; // null between trials: nothing is recorded then
      this.dropped = 0; // events past the count cap, not even kept in memory
      this.startedAt = 0;
    }

    start() {
      this.startedAt = this.now();
      this.events = [];
      this.dropped = 0;
    }

    add(type, target = null, value = null) {
      if (!this.events) return;
      const t = this.now() - this.startedAt;
      const last = this.events[this.events.length - 1];
      if (type === "resize" && last && last.type === "resize" && t - last.t < RESIZE_MERGE_MS) {
        last.value = text(value, MAX_VALUE);
      } else if (this.events.length > MAX_EVENTS) {
        this.dropped += 1;
      } else {
        this.events.push(event(t, type, target, value));
      }
    }

    /** The trial's events within the caps; the recorder then waits for the next start(). */
    take() {
      const events = capped(this.events || [], this.dropped);
      this.events = null;
      return events;
    }
  }

  function watchWindow(recorder) {
    document.addEventListener("visibilitychange", () => {
      recorder.add(document.visibilityState === "hidden" ? "hidden" : "visible");
    });
    // Only the window's own focus changes: a field's blur does not bubble, but its capture would reach here.
    window.addEventListener("blur", (e) => { if (e.target === window) recorder.add("blur"); });
    window.addEventListener("focus", (e) => { if (e.target === window) recorder.add("focus"); });
    document.addEventListener("fullscreenchange", () => {
      recorder.add(document.fullscreenElement ? "fullscreen_enter" : "fullscreen_exit");
    });
    window.addEventListener("resize", () => recorder.add("resize", null, `${window.innerWidth}x${window.innerHeight}`));
  }

  return { Recorder, watchWindow, capped, MAX_EVENTS, MAX_BYTES };
})();
