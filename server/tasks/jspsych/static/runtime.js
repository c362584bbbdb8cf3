/*
 * studyhive's runtime inside a researcher's jsPsych 7 or 8 experiment (docs/own-experiments.md). The server puts it
 * right after the jsPsych script, so it replaces initJsPsych before the experiment's own script calls it. The
 * experiment runs in a sandboxed frame with no access to studyhive (an opaque origin): everything goes through the
 * page around it (host.js), which holds the session and the offline queue.
 *
 * - Every row jsPsych records is posted to that page, after the experiment's own on_trial_finish/on_data_update, with
 *   its interaction records (docs/participant-api.md): jsPsych's own interaction data for that trial (blur, focus,
 *   full screen entered and left) and what jsPsych does not record (the tab hidden and shown again, resizes), timed
 *   from the trial's start on jsPsych's clock. The page trims them to the caps (events.js).
 * - jsPsych's randomness is seeded per session (the frame URL's #seed=), so a reload draws the same order.
 * - After a reload the page sends the stored rows first; jsPsych.run() waits for them, and each plugin's trial()
 *   finishes at once with its stored row until all are replayed: the real timeline and on_finish code run, and
 *   jsPsych.data ends up holding the stored rows, then the experiment continues where it was left.
 * - When run() resolves (the timeline ended, or endExperiment / abortExperiment), the page hears "finished".
 */
(function () {
  "use strict";
  const realInit = window.initJsPsych;
  if (typeof realInit !== "function") return;
  const host = window.parent;
  const send = (message) => host.postMessage(message, "*");
  // Fields jsPsych itself adds to every row: a replayed trial's data leaves them out, jsPsych sets them again and
  // on_trial_finish restores the stored values.
  const JSPSYCH_FIELDS = ["trial_type", "trial_index", "time_elapsed", "internal_node_id"];
  const seed = new URLSearchParams(window.location.hash.slice(1)).get("seed");
  let replay = []; // stored rows, in order, still to be recorded again
  let recorded = 0; // rows jsPsych has recorded in this page load
  const replaying = () => recorded < replay.length;
  // jsPsych's interaction data → the interaction-record types (server/tasktype/events.py).
  const INTERACTIONS = { blur: "blur", focus: "focus", fullscreenenter: "fullscreen_enter", fullscreenexit: "fullscreen_exit" };
  const RESIZE_MERGE_MS = 1000; // a window dragged to a new size is one resize, with its final size (as events.js)
  let clock = null; // the experiment's jsPsych, once made: its getTotalTime() times the events
  let trialStart = 0; // jsPsych's time when the current trial started
  let seen = []; // {time, type, value} this frame saw during the current trial

  function note(type, value = null) {
    if (!clock) return;
    const time = clock.getTotalTime();
    const last = seen[seen.length - 1];
    if (type === "resize" && last && last.type === "resize" && time - last.time < RESIZE_MERGE_MS) last.value = value;
    else seen.push({ time, type, value });
  }
  document.addEventListener("visibilitychange", () => note(document.visibilityState === "hidden" ? "hidden" : "visible"));
  window.addEventListener("resize", () => note("resize", `${window.innerWidth}x${window.innerHeight}`));

  // Chromium ignores the autofocus attribute in a cross-origin frame, and this frame's origin is opaque: a field the
  // experiment marks (survey-html-form's HTML, a stimulus) would not get the keyboard. Do what a browser does on any
  // other host: focus each newly shown autofocus element, once, while nothing else has focus.
  const autofocused = new WeakSet();
  new MutationObserver((records) => {
    for (const node of records.flatMap((record) => [...record.addedNodes])) {
      const wanted = node instanceof Element && (node.matches("[autofocus]") ? node : node.querySelector("[autofocus]"));
      if (!wanted || autofocused.has(wanted)) continue;
      autofocused.add(wanted);
      if (!document.activeElement || document.activeElement === document.body) wanted.focus();
    }
  }).observe(document, { childList: true, subtree: true });

  // The frame's policy (form-action 'none', server/web/security.py) refuses every form submission, and Chromium may
  // then replace the page with an error: Enter in a text field of a form nobody cancels (SurveyJS 1.x's `<form
  // onsubmit="return false;">` is an inline handler the policy does not run) could end the experiment. Plugins read
  // their forms in their own submit listeners, which still run; so no submission is attempted at all.
  window.addEventListener("submit", (event) => event.preventDefault(), true);

  /** The row's interaction records: jsPsych's for its trial and this frame's, in time order. */
  function rowEvents(trialIndex) {
    const own = clock.data.getInteractionData().values()
      .filter((e) => e.trial === trialIndex && INTERACTIONS[e.event])
      .map((e) => ({ time: e.time, type: INTERACTIONS[e.event], value: null }));
    return [...own, ...seen]
      .sort((a, b) => a.time - b.time)
      .map((e) => ({ t: Math.max(0, Math.round(e.time - trialStart)), type: e.type, target: null, value: e.value }));
  }

  const initialised = new Promise((resolve) => {
    window.addEventListener("message", (event) => {
      if (event.source !== host || !event.data || event.data.type !== "studyhive:init") return;
      replay = event.data.rows || [];
      resolve();
    });
  });
  send({ type: "studyhive:ready" });

  /** Make the plugin's trial() finish at once with its stored row while rows are being replayed. */
  const wrapped = new WeakSet();
  function wrapPlugin(plugin) {
    if (typeof plugin !== "function" || !plugin.prototype || typeof plugin.prototype.trial !== "function") return;
    if (wrapped.has(plugin)) return;
    wrapped.add(plugin);
    const trial = plugin.prototype.trial;
    plugin.prototype.trial = function (displayElement, parameters, onLoad) {
      if (!replaying()) return trial.call(this, displayElement, parameters, onLoad);
      const data = { ...replay[recorded] };
      for (const field of JSPSYCH_FIELDS) delete data[field];
      this.jsPsych.finishTrial(data);
      return undefined;
    };
  }

  function wrapTimeline(node) {
    if (Array.isArray(node)) node.forEach(wrapTimeline);
    else if (node && typeof node === "object") {
      wrapPlugin(node.type);
      if (node.timeline) wrapTimeline(node.timeline);
    }
  }

  window.initJsPsych = function initJsPsych(options = {}) {
    const own = { ...options };
    const jsPsych = realInit({
      ...options,
      on_trial_start(trial) {
        trialStart = clock.getTotalTime();
        seen = [];
        if (own.on_trial_start) own.on_trial_start.call(this, trial);
      },
      on_trial_finish(data) {
        if (data && replaying()) Object.assign(data, replay[recorded]);
        if (own.on_trial_finish) own.on_trial_finish.call(this, data);
      },
      on_data_update(data) {
        const fresh = !replaying();
        recorded += 1;
        if (own.on_data_update) own.on_data_update.call(this, data);
        // A copy as JSON: what the server stores, and functions cannot cross postMessage.
        if (fresh) send({ type: "studyhive:row", row: JSON.parse(JSON.stringify(data)), events: rowEvents(data.trial_index) });
      },
    });
    clock = jsPsych;
    if (seed && jsPsych.randomization && jsPsych.randomization.setSeed) jsPsych.randomization.setSeed(seed);
    const run = jsPsych.run.bind(jsPsych);
    jsPsych.run = async (timeline) => {
      await initialised;
      // Plugins the page loaded (globals such as jsPsychHtmlKeyboardResponse) and those the timeline names.
      for (const name of Object.keys(window)) if (/^jsPsych/.test(name)) wrapPlugin(window[name]);
      wrapTimeline(timeline);
      const result = await run(timeline);
      send({ type: "studyhive:finished" });
      return result;
    };
    return jsPsych;
  };
})();
