// server/tasks/jspsych/static/runtime.js in the experiment's frame: rows posted to the page, and the replay after a
// reload (docs/own-experiments.md), against a small stand-in for jsPsych 7/8 that calls the hooks in jsPsych's order.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { makePage, event, settle, plain } = require("./browser");

/**
 * initJsPsych of a minimal jsPsych: runs a flat timeline, each trial's plugin until it calls finishTrial, then writes
 * the row (the trial's `data` parameter, the plugin's data and jsPsych's own fields) and calls the trial's on_finish,
 * on_trial_finish and on_data_update, as jsPsych does; on_finish at the end.
 */
function fakeInitJsPsych(options = {}) {
  const rows = [];
  let current = null;
  let finished = null;
  let time = 0;
  const jsPsych = {
    data: { getInteractionData: () => ({ values: () => [] }), get: () => rows },
    getTotalTime: () => time,
    getCurrentTrial: () => current,
    finishTrial: (data = {}) => finished(data),
    async run(timeline) {
      for (const trial of timeline) {
        current = trial;
        time += 100;
        if (options.on_trial_start) options.on_trial_start(trial);
        const result = new Promise((resolve) => {
          finished = resolve;
        });
        new trial.type(jsPsych).trial(null, trial, () => {});
        const row = { ...trial.data, ...(await result) };
        Object.assign(row, { trial_type: trial.type.info.name, trial_index: rows.length, time_elapsed: time });
        rows.push(row);
        if (trial.on_finish) trial.on_finish(row);
        if (options.on_trial_finish) options.on_trial_finish(row);
        if (options.on_data_update) options.on_data_update(row);
      }
      if (options.on_finish) options.on_finish(rows);
    },
  };
  return jsPsych;
}

/**
 * window.jsPsych of a minimal jsPsych 6: init() runs the timeline, each trial's plugin (an object in jsPsych.plugins,
 * named by the trial's type) until it calls finishTrial, which writes the row, calls on_finish, on_trial_finish and
 * on_data_update, and starts the next trial, as jsPsych 6 does.
 */
function fakeJsPsych6() {
  const rows = [];
  let options = null;
  let position = 0;
  let current = null;
  let time = 0;
  const jsPsych = {
    plugins: {},
    data: { getInteractionData: () => ({ values: () => [] }), get: () => rows },
    totalTime: () => time,
    currentTrial: () => current,
    init(settings) {
      options = settings;
      next();
    },
    finishTrial(data = {}) {
      const row = { ...current.data, ...data, trial_type: current.type, trial_index: rows.length, time_elapsed: time };
      rows.push(row);
      if (current.on_finish) current.on_finish(row);
      if (options.on_trial_finish) options.on_trial_finish(row);
      if (options.on_data_update) options.on_data_update(row);
      next();
    },
  };
  function next() {
    if (position >= options.timeline.length) {
      if (options.on_finish) options.on_finish(rows);
      return;
    }
    current = options.timeline[position];
    position += 1;
    time += 100;
    if (options.on_trial_start) options.on_trial_start(current);
    jsPsych.plugins[current.type].trial(null, current);
  }
  return jsPsych;
}

// The experiment's own script: its plugin draws its response where jsPsych 8 plugins draw (trial(), display code),
// its on_finish draws what the experiment keeps (state-changing code), and `condition` is the trial's data parameter.
const EXPERIMENT = `
  window.displayed = [];
  window.kept = [];
  class Button {
    static info = { name: "button" };
    constructor(jsPsych) { this.jsPsych = jsPsych; }
    trial(display, trial) {
      window.displayed.push(trial.data.name);
      this.jsPsych.finishTrial({ response: Math.random() });
    }
  }
  const trial = (name) => ({
    type: Button,
    data: { name, condition: window.condition },
    on_finish: (data) => { window.kept.push(Math.random()); },
  });
  window.ran = initJsPsych({}).run([trial("a"), trial("b"), trial("c")]);
`;

// The same experiment written for jsPsych 6: a plugin object, init() with the timeline; it says when it has ended.
const EXPERIMENT6 = `
  window.displayed = [];
  window.kept = [];
  let ended;
  window.ran = new Promise((resolve) => { ended = resolve; });
  jsPsych.plugins.button = {
    trial(display, trial) {
      window.displayed.push(trial.data.name);
      jsPsych.finishTrial({ response: Math.random() });
    },
  };
  const trial = (name) => ({
    type: "button",
    data: { name, condition: window.condition },
    on_finish: (data) => { window.kept.push(Math.random()); },
  });
  jsPsych.init({ timeline: [trial("a"), trial("b"), trial("c")], on_finish: () => ended() });
`;

/**
 * The frame, loaded with runtime.js and the experiment (jsPsych 7/8's, or `six`: jsPsych 6's); `messages` holds what
 * it posts to the page.
 */
function frame({ seed = "s1", condition = "A", six = false } = {}) {
  const messages = [];
  const parent = { postMessage: (message) => messages.push(plain(message)) };
  const page = makePage({
    parent,
    ...(six ? { jsPsych: fakeJsPsych6() } : { initJsPsych: fakeInitJsPsych }),
    condition,
    location: { hash: `#seed=${seed}`, search: "", href: "https://frame.test/", origin: "null" },
  });
  page.load("server/tasks/jspsych/static/runtime.js");
  page.run(six ? EXPERIMENT6 : EXPERIMENT);
  return {
    page,
    messages,
    of: (type) => messages.filter((message) => message.type === `studyhive:${type}`),
    /** The page's answer to "ready": the stored rows to replay, with where the randomness stood for each. */
    async init(rows = [], replay = []) {
      page.window.dispatchEvent(event("message", { source: parent, data: { type: "studyhive:init", rows, replay } }));
      await page.window.ran;
      await settle();
    },
  };
}

test("each row goes to the page with its replay position, then how the run ended", async () => {
  const experiment = frame();
  assert.deepEqual(experiment.messages, [{ type: "studyhive:ready" }]);
  await experiment.init();
  const rows = experiment.of("row");
  assert.deepEqual(rows.map((message) => message.row.name), ["a", "b", "c"]);
  assert.deepEqual(rows.map((message) => message.row.trial_index), [0, 1, 2]);
  // Each trial's plugin drew once before its trial ended, each on_finish once after.
  assert.deepEqual(rows.map((message) => message.replay.draws), [1, 3, 5]);
  assert.deepEqual(experiment.of("finished"), [{ type: "studyhive:finished", ended_early: false, message: null }]);
  assert.deepEqual(plain(experiment.page.window.displayed), ["a", "b", "c"]);
});

test("Math.random is seeded per session: the same seed draws the same values, another seed others", async () => {
  const draws = async (seed) => {
    const experiment = frame({ seed });
    await experiment.init();
    return experiment.of("row").map((message) => message.row.response);
  };
  assert.deepEqual(await draws("s1"), await draws("s1"));
  assert.notDeepEqual(await draws("s1"), await draws("s2"));
});

for (const six of [false, true]) {
  const version = six ? "jsPsych 6" : "jsPsych 7/8";
  test(`${version}: after a reload the stored rows replay without display code, and the run goes on`, async () => {
    const first = frame({ six });
    await first.init();
    assert.deepEqual(plain(first.page.window.displayed), ["a", "b", "c"]);
    const stored = first.of("row").slice(0, 2);

    const reloaded = frame({ six });
    await reloaded.init(
      stored.map((message) => message.row),
      stored.map((message) => message.replay),
    );
    // The replayed trials' plugins never ran, their on_finish did (drawing what it drew then), and only the new row
    // goes to the page, the same row as before the reload.
    assert.deepEqual(plain(reloaded.page.window.displayed), ["c"]);
    assert.deepEqual(plain(reloaded.page.window.kept), plain(first.page.window.kept));
    assert.deepEqual(reloaded.of("row"), first.of("row").slice(2));
    assert.deepEqual(reloaded.of("diverged"), []);
    // jsPsych 6 says finished once the page is quiet (a timer later): its on_finish may start another timeline
    await reloaded.page.timers.fire();
    assert.deepEqual(reloaded.of("finished"), [{ type: "studyhive:finished", ended_early: false, message: null }]);
  });
}

test("a replayed trial whose data parameter differs from its stored row is reported once", async () => {
  const first = frame({ condition: "A" });
  await first.init();
  const stored = first.of("row").slice(0, 2);

  const reloaded = frame({ condition: "B" });
  await reloaded.init(
    stored.map((message) => message.row),
    stored.map((message) => message.replay),
  );
  assert.deepEqual(reloaded.of("diverged"), [{ type: "studyhive:diverged", trial_index: 0, fields: ["condition"] }]);
  // The stored rows stand as they were recorded; the run goes on.
  assert.deepEqual(reloaded.of("row").map((message) => [message.row.name, message.row.condition]), [["c", "B"]]);
});
