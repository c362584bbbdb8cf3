/*
 * The page around a researcher's jsPsych experiment. It holds the session token and the offline queue
 * (StudyhiveSync, sync.js) and runs the experiment in a sandboxed frame that reaches the server only through
 * messages to this page (runtime.js): rows to save, "finished". After a reload it sends the frame the rows stored so
 * far (on the server and still queued here) to replay, as study.toml's `resume` says. When the timeline has finished
 * (and how: naturally, or early with the experiment's end message) and every row is on the server it offers a Continue
 * button, so the experiment's debrief stays on screen; the server decides the outcome from how it ended.
 */
"use strict";

const config = JSON.parse(document.getElementById("studyhive-config").textContent);
const frame = document.getElementById("studyhive-experiment");
const notice = document.getElementById("studyhive-notice");
const next = document.getElementById("studyhive-continue");
const sync = new StudyhiveSync(config.api, config.token, "/rows");

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
sync.onended = (answer) =>
  setNotice(answer.error === "session_withdrawn"
    ? _("You have withdrawn from this study: your data was deleted and nothing more is saved.")
    : _("This session has ended, so no more data can be saved."));

/** The rows to replay: the server's, then those still queued here (not yet acknowledged), none twice. */
async function storedRows() {
  const stored = await sync.getJSON("/rows");
  const ids = new Set(stored.rows.map((entry) => entry.trial_id));
  const queued = sync.queue.filter((body) => !ids.has(body.trial_id));
  return [...stored.rows, ...queued].map((entry) => entry.row);
}

let platform = null; // the session's: where a participant whose run ended early goes next

async function prepare() {
  const state = await sync.getJSON("");
  platform = state.platform;
  if (!state.accepts_answers) throw new Error(_("This session has ended, so no more data can be saved."));
  const rows = await storedRows();
  if (config.resume === "restart") return [];
  if (config.resume === "none" && rows.length) {
    throw new Error(_("This experiment cannot be continued after the page was left. Please contact the researchers."));
  }
  return rows;
}

// The longest end message the server keeps (server/participation/session_api.py END_MESSAGE_MAX).
const END_MESSAGE_MAX = 4000;
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

/** A session whose ending is not a completion, with no Prolific code for it: what the participant does now. */
function endedWithoutCode() {
  next.hidden = true;
  setNotice(platform === "prolific"
    ? _("Please return this study on Prolific (do not submit it), so that the place goes to someone else.")
    : _("You can close this page."));
}

async function finished(message) {
  setNotice(_("Saving your data…"));
  await sync.flush();
  await sync.postJSON("/timeline-finished", ending(message));
  setNotice("");
  next.hidden = false;
}

async function complete() {
  next.querySelector("button").disabled = true;
  try {
    const result = await sync.postJSON("/complete", {});
    const url = result.redirect_url || result.results_url;
    if (url) window.location.assign(url);
    else endedWithoutCode();
  } catch (error) {
    setNotice(error.message);
    next.querySelector("button").disabled = false;
  }
}

const rows = prepare();
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || !event.data) return;
  const message = event.data;
  if (message.type === "studyhive:ready") {
    rows.then(
      (replay) => frame.contentWindow.postMessage({ type: "studyhive:init", rows: replay }, "*"),
      (error) => setNotice(error.message),
    );
  } else if (message.type === "studyhive:row") {
    // The row's interaction records (runtime.js), trimmed to the caps; a frame that sent none sends none.
    const events = Array.isArray(message.events) ? StudyhiveEvents.capped(message.events) : undefined;
    sync.enqueue({ trial_id: crypto.randomUUID(), row: message.row, events, client_time: new Date().toISOString() });
  } else if (message.type === "studyhive:finished") {
    finished(message).catch((error) => setNotice(error.message));
  }
});
next.querySelector("button").addEventListener("click", complete);
sync.flush(); // rows left over from an earlier visit
frame.src = config.frame; // after the listener above: the frame's first message is "ready"
