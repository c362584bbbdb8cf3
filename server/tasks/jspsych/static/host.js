/*
 * The page around a researcher's jsPsych experiment. It holds the session token and the offline queue
 * (StudyhiveSync, sync.js) and runs the experiment in a sandboxed frame that reaches the server only through
 * messages to this page (runtime.js): rows to save, fields added to rows already saved, a replay that diverged,
 * "finished". After a reload it sends the frame the rows stored so far (on the server and still queued here) to
 * replay, as study.toml's `resume` says. When the timeline has finished (and how: naturally, or early with the
 * experiment's end message) and every row is on the server it offers a Continue button, so the experiment's debrief
 * stays on screen; the server decides the outcome from how it ended. An error of the experiment's own code is
 * recorded on the server; one that stopped the experiment (fatal) is also shown with a button that ends the session
 * (outcome experiment_error), so no participant is left before a blank frame. Either button comes with full screen
 * left, so the frame does not cover it.
 */
"use strict";

const config = JSON.parse(document.getElementById("studyhive-config").textContent);
const frame = /** @type {HTMLIFrameElement} */ (document.getElementById("studyhive-experiment"));
const notice = document.getElementById("studyhive-notice");
const next = document.getElementById("studyhive-continue");
const stopped = document.getElementById("studyhive-stopped");
const sync = new StudyhiveSync(config.api, config.token, "/rows");
const AMENDMENTS = "/row-amendments"; // fields added to rows already recorded, queued in order with the rows

function setNotice(text) {
  notice.textContent = text;
  notice.hidden = !text;
}

sync.onstatus = (offline) => setNotice(offline
  ? _("Connection lost. Your data are kept on this device and will be sent when you are back online. Reconnecting…")
  : "");
sync.onrefused = (refused) => setNotice(
  _("Some data could not be saved: {reason}. They are kept on this device.",
    { reason: refused.error.message || refused.status }));
sync.onended = (answer) => {
  forgetProperties();
  setNotice(answer.error === "session_withdrawn"
    ? _("You have withdrawn from this study: your data was deleted and nothing more is saved.")
    : _("This session has ended, so no more data can be saved."));
};

/* The fields the experiment's data.addProperties set once rows were recorded (runtime.js), kept on this device until
 * the session ends: a replay after a reload skips display code (a plugin's trial(), on_load) that may have set them,
 * so the frame gets them back with the rows and adds them again for the rows to come, as jsPsych held them. */
const propertiesKey = `studyhive:${config.token}:properties`;

function keptProperties() {
  try {
    return JSON.parse(localStorage.getItem(propertiesKey) || "{}");
  } catch (unreadable) {
    return {};
  }
}

function keepProperties(properties) {
  try {
    localStorage.setItem(propertiesKey, JSON.stringify({ ...keptProperties(), ...properties }));
  } catch (full) {
    // storage full or off: a reload then adds them only where the replay runs the code that set them
  }
}

function forgetProperties() {
  try {
    localStorage.removeItem(propertiesKey);
  } catch (off) {
    // nothing kept
  }
}

/** A stored row as the experiment recorded it: the server keeps the raw Prolific ids the frame's URL gives it only
 * with the session and stores each as a marker in rows (server/identifiers.py); JSON text holds a marker and an id
 * as they are. */
const urlIds = new URL(config.frame, window.location.href).searchParams;
const withIds = (row) => JSON.parse(JSON.stringify(row).replace(
  /\[(PROLIFIC_PID|STUDY_ID|SESSION_ID)\]/g, (marker, name) => urlIds.get(name) || marker));

/** The rows to replay: the server's, then those still queued here (not yet acknowledged), none twice, with the
 * changes still queued here made to the rows they name (the server makes them once the rows before them are sent);
 * each as {trial_id, row, replay} (replay: where the page's randomness stood when the row was recorded, or null). */
async function storedRows() {
  const stored = await sync.getJSON("/rows");
  const ids = new Set(stored.rows.map((entry) => entry.trial_id));
  const queued = sync.queue.filter((body) => !ids.has(body.trial_id));
  const rows = [
    ...stored.rows.map((entry) => ({ trial_id: entry.trial_id, row: withIds(entry.row), replay: entry.replay || null })),
    // a copy: the queued body itself is sent as it was recorded
    ...queued.map((entry) => ({ trial_id: entry.trial_id, row: { ...entry.row }, replay: entry.replay || null })),
  ];
  const at = (trialId) => rows.findIndex((entry) => entry.trial_id === trialId);
  for (const change of sync.queuedFor(AMENDMENTS)) {
    const [first, last] = [at(change.first_trial_id || change.trial_id), at(change.trial_id)];
    for (let n = first; first >= 0 && n <= last; n += 1) Object.assign(rows[n].row, change.properties);
  }
  return rows;
}

// The trial_id of each row jsPsych holds in this page load, in its order: the replayed rows', then each new row's.
const rowIds = [];

async function prepare() {
  const state = await sync.getJSON("");
  if (!state.accepts_answers) throw new Error(_("This session has ended, so no more data can be saved."));
  const rows = await storedRows();
  if (config.resume === "restart") return [];
  if (config.resume === "none" && rows.length) {
    throw new Error(_("This experiment cannot be continued after the page was left. Please contact the researchers."));
  }
  return rows;
}

// The longest end message the server keeps (server/participation/bodies.py END_MESSAGE_MAX).
const END_MESSAGE_MAX = 4000;
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|^[\ud800-\udfff]$/;

/**
 * The ending the frame reported as the server takes it: an early end's message without control characters (line
 * breaks and tabs aside) or lone surrogates, cut to END_MESSAGE_MAX characters (whole ones, never half an emoji).
 */
function ending(message) {
  const early = message.ended_early === true;
  if (!early || typeof message.message !== "string") return { ended_early: early, message: null };
  const text = Array.from(message.message).filter((c) => !CONTROL.test(c)).slice(0, END_MESSAGE_MAX).join("");
  return { ended_early: true, message: text };
}

/** What a participant whose session ended without a completion code does now. */
function withoutCode() {
  return config.platform === "prolific"
    ? _("Please return this study on Prolific (do not submit it), so that the place goes to someone else.")
    : _("You can close this page.");
}

/** A session whose ending is not a completion, with no Prolific code for it. */
function endedWithoutCode() {
  next.hidden = true;
  setNotice(withoutCode());
}

/** Leave full screen, which the experiment may have entered and not left (jsPsych's fullscreen plugin): the frame
 * in full screen covers this page, and the buttons shown here would be out of the participant's reach. */
function leaveFullscreen() {
  if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
}

async function finished(message) {
  leaveFullscreen();
  setNotice(_("Saving your data…"));
  await sync.flush();
  await sync.postJSON("/timeline-finished", ending(message));
  setNotice("");
  next.hidden = false;
}

/** Go to `url` once the session has ended, the experiment's frame removed first: an experiment that guards its page
 * (window.onbeforeunload, as many do against a participant leaving mid-task) would otherwise ask "Leave site?" here,
 * and a participant who stayed would be left before a disabled button with their session already ended. */
function leave(url) {
  frame.remove();
  window.location.assign(url);
}

async function complete() {
  next.querySelector("button").disabled = true;
  try {
    const result = await sync.postJSON("/complete", {});
    forgetProperties();
    const url = result.redirect_url || result.results_url;
    if (url) leave(url);
    else endedWithoutCode();
  } catch (error) {
    setNotice(error.message);
    next.querySelector("button").disabled = false;
  }
}

let fatalError = null; // the POST that recorded the error that stopped the experiment: /end needs it first

function experimentError(message) {
  const body = { message: message.message, stack: message.stack, trial_index: message.trial_index, fatal: message.fatal };
  const recorded = sync.postJSON("/experiment-error", body);
  recorded.catch((error) => console.error("studyhive: the experiment's error was not recorded", error));
  if (body.fatal !== true || fatalError) return;
  fatalError = recorded;
  leaveFullscreen();
  next.hidden = true;
  stopped.hidden = false;
}

/** Ends the session after a fatal error, once the rows still queued are stored; on Prolific with the code, if any. */
async function endAfterError() {
  const button = stopped.querySelector("button");
  button.disabled = true;
  try {
    await fatalError;
    await sync.flush();
    const result = await sync.postJSON("/end", { outcome: "experiment_error" });
    forgetProperties();
    stopped.querySelector("p").textContent = result.redirect_url ? _("Taking you back to Prolific…") : withoutCode();
    button.hidden = true;
    if (result.redirect_url) leave(result.redirect_url);
  } catch (error) {
    setNotice(error.message);
    button.disabled = false;
  }
}

const rows = prepare();
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || !event.data) return;
  const message = event.data;
  if (message.type === "studyhive:ready") {
    rows.then(
      (replay) => {
        rowIds.push(...replay.map((entry) => entry.trial_id));
        const init = { rows: replay.map((entry) => entry.row), replay: replay.map((entry) => entry.replay) };
        frame.contentWindow.postMessage({ type: "studyhive:init", ...init, properties: keptProperties() }, "*");
      },
      (error) => setNotice(error.message),
    );
  } else if (message.type === "studyhive:row") {
    // The row's interaction records (runtime.js), trimmed to the caps; a frame that sent none sends none.
    const events = Array.isArray(message.events) ? StudyhiveEvents.capped(message.events) : undefined;
    const body = { trial_id: crypto.randomUUID(), row: message.row, events, client_time: new Date().toISOString() };
    if (message.replay) body.replay = message.replay;
    rowIds.push(body.trial_id);
    sync.enqueue(body);
  } else if (message.type === "studyhive:amend") {
    // Fields the experiment added to rows already recorded (runtime.js): the stored rows get them too, once every
    // row queued before has been sent.
    const [first, last] = [rowIds[message.first], rowIds[message.last]];
    if (first && last) {
      if (message.keep === true) keepProperties(message.properties);
      sync.enqueue({ trial_id: last, first_trial_id: first, properties: message.properties }, AMENDMENTS);
    }
  } else if (message.type === "studyhive:diverged") {
    // A replayed trial's data differed from its stored row (runtime.js): the researchers see it on the session.
    sync.postJSON("/replay-diverged", { trial_index: message.trial_index, fields: message.fields })
      .catch((error) => console.error("studyhive: the replay's divergence was not recorded", error));
  } else if (message.type === "studyhive:finished") {
    finished(message).catch((error) => setNotice(error.message));
  } else if (message.type === "studyhive:error") {
    experimentError(message);
  }
});
next.querySelector("button").addEventListener("click", complete);
stopped.querySelector("button").addEventListener("click", endAfterError);
sync.flush(); // rows left over from an earlier visit
frame.src = config.frame; // after the listener above: the frame's first message is "ready"
