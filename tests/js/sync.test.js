// static/studyhive/sync.js: the offline queue's guarantees (docs/participant-api.md, "Client guarantees") against a
// fake server, with the page's localStorage and timers faked.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { makePage, fakeFetch, event, settle, plain } = require("./browser");

const QUEUE = "studyhive:tok:queue";
const REFUSED = "studyhive:tok:refused";

/** A study page with sync.js, its server answering with `answer`; `storage` carries a reload's localStorage over. */
function syncPage(answer, storage) {
  const server = fakeFetch(answer);
  const page = makePage({ fetch: server.fetch, ...(storage ? { localStorage: storage } : {}) });
  page.load("static/studyhive/i18n.js", "static/studyhive/sync.js");
  const StudyhiveSync = page.get("StudyhiveSync");
  return { page, server, sync: new StudyhiveSync("/api/s/tok", "tok") };
}

const trial = (index) => ({ trial_id: `t${index}`, trial_index: index, response: { percent: index } });
const stored = () => ({ status: 201, body: {} });
const sentIndexes = (server) => server.requests.filter((r) => r.method === "POST").map((r) => r.body.trial_index);
const storedKeys = (page) => [...page.localStorage.items.keys()].sort();

test("a trial is in localStorage before it is sent, and leaves it once the server stores it", async () => {
  let keysWhenSent = null;
  const { page, server, sync } = syncPage(() => {
    keysWhenSent = keysWhenSent || storedKeys(page);
    return stored();
  });
  sync.enqueue(trial(0));
  sync.enqueue(trial(1));
  assert.deepEqual(storedKeys(page), [QUEUE, `${QUEUE}:0`, `${QUEUE}:1`]);
  await sync.flush();
  assert.deepEqual(keysWhenSent, [QUEUE, `${QUEUE}:0`, `${QUEUE}:1`]);
  assert.deepEqual(sentIndexes(server), [0, 1]);
  assert.equal(server.requests[0].url, "/api/s/tok/trials");
  assert.deepEqual(storedKeys(page), []);
  assert.equal(sync.queue.length, 0);
});

test("what a page left queued is sent, in order, by the next page load", async () => {
  const offline = syncPage(() => {
    throw new TypeError("offline");
  });
  offline.sync.enqueue(trial(0));
  offline.sync.enqueue(trial(1));
  offline.sync.enqueue(trial(2));
  await settle();
  assert.equal(offline.sync.offline, true);

  const reloaded = syncPage(stored, offline.page.localStorage);
  assert.deepEqual(plain(reloaded.sync.queuedIndexes()), [0, 1, 2]);
  await reloaded.sync.flush();
  assert.deepEqual(sentIndexes(reloaded.server), [0, 1, 2]);
  assert.deepEqual(storedKeys(reloaded.page), []);
});

test("a queue an earlier version stored whole, as one array, is taken over", async () => {
  const { page } = syncPage(stored);
  page.localStorage.setItem(QUEUE, JSON.stringify([trial(4), trial(5)]));
  const reloaded = syncPage(stored, page.localStorage);
  assert.deepEqual(plain(reloaded.sync.queuedIndexes()), [4, 5]);
  assert.deepEqual(JSON.parse(page.localStorage.getItem(QUEUE)), { head: 0, next: 2, length: 2 });
  await reloaded.sync.flush();
  assert.deepEqual(sentIndexes(reloaded.server), [4, 5]);
});

test("network errors and 5xx are retried with a doubling wait; the page hears offline, then online", async () => {
  const answers = [null, { status: 503, body: {} }, { status: 502, body: {} }, null, { status: 201, body: {} }];
  const { page, server, sync } = syncPage(() => {
    const answer = answers.shift();
    if (!answer) throw new TypeError("offline");
    return answer;
  });
  const statuses = [];
  sync.onstatus = (offline) => statuses.push(offline);
  sync.enqueue(trial(0));
  await settle();
  for (let retry = 0; retry < 4; retry += 1) await page.timers.fire();
  assert.equal(server.requests.length, 5);
  assert.deepEqual(page.timers.delays, [500, 1000, 2000, 4000]);
  assert.deepEqual(statuses, [true, false]);
  assert.equal(sync.queue.length, 0);
});

test("the wait between retries stops at 30 seconds, and an online event cuts it short", async () => {
  let up = false;
  const { page, server, sync } = syncPage(() => {
    if (!up) throw new TypeError("offline");
    return stored();
  });
  sync.enqueue(trial(0));
  await settle();
  for (let retry = 0; retry < 8; retry += 1) await page.timers.fire();
  assert.deepEqual(page.timers.delays.slice(-3), [30000, 30000, 30000]);
  up = true;
  page.window.dispatchEvent(event("online"));
  await settle();
  assert.equal(server.requests.at(-1).body.trial_index, 0);
  assert.equal(sync.queue.length, 0);
});

test("a trial refused for good is kept in the refused list, and the trials after it flow", async () => {
  const { page, server, sync } = syncPage((request) =>
    request.body.trial_index === 1
      ? { status: 422, body: { error: "invalid_response", message: "percent must be 0–100" } }
      : stored(),
  );
  const refused = [];
  sync.onrefused = (entry) => refused.push(entry);
  sync.enqueue(trial(0));
  sync.enqueue(trial(1));
  sync.enqueue(trial(2));
  await sync.flush();
  assert.deepEqual(sentIndexes(server), [0, 1, 2]);
  assert.equal(refused.length, 1);
  assert.equal(refused[0].status, 422);
  assert.equal(refused[0].error.error, "invalid_response");
  assert.deepEqual(plain(sync.refused.map((entry) => entry.body.trial_index)), [1]);
  assert.deepEqual(storedKeys(page), [REFUSED, `${REFUSED}:0`]);
  assert.equal(sync.queue.length, 0);
});

test("409 out_of_order keeps the trial queued and pauses the queue until the next flush", async () => {
  let consented = false;
  const { server, sync } = syncPage(() =>
    consented ? stored() : { status: 409, body: { error: "out_of_order", message: "consent first" } },
  );
  sync.enqueue(trial(0));
  sync.enqueue(trial(1));
  await sync.flush();
  assert.deepEqual(sentIndexes(server), [0]);
  assert.deepEqual(plain(sync.queuedIndexes()), [0, 1]);
  assert.equal(sync.refused.length, 0);
  consented = true;
  await sync.flush();
  assert.deepEqual(sentIndexes(server), [0, 0, 1]);
  assert.equal(sync.queue.length, 0);
});

test("410 session_withdrawn empties both lists on this device and tells the page", async () => {
  let withdrawn = false;
  const { page, sync } = syncPage((request) => {
    if (withdrawn) return { status: 410, body: { error: "session_withdrawn", message: "withdrawn" } };
    return request.body.trial_index === 0 ? { status: 422, body: { error: "invalid_response" } } : stored();
  });
  const ended = [];
  sync.onended = (answer) => ended.push(answer.error);
  sync.enqueue(trial(0));
  await sync.flush();
  assert.equal(sync.refused.length, 1);
  withdrawn = true;
  sync.enqueue(trial(1));
  sync.enqueue(trial(2));
  await sync.flush();
  assert.deepEqual(ended, ["session_withdrawn"]);
  assert.equal(sync.queue.length, 0);
  assert.equal(sync.refused.length, 0);
  assert.deepEqual(storedKeys(page), []);
});

test("a body JSON cannot write is refused at once, never sent, and the trials after it flow", async () => {
  const { server, sync } = syncPage(stored);
  const refused = [];
  sync.onrefused = (entry) => refused.push(entry);
  const circular = trial(1);
  circular.response.self = circular.response;
  sync.enqueue({ ...trial(0), response: { big: BigInt(12) } });
  sync.enqueue(circular);
  sync.enqueue(trial(2));
  await sync.flush();
  assert.deepEqual(sentIndexes(server), [2]);
  assert.deepEqual(refused.map((entry) => [entry.status, entry.error.error]), [[0, "not_json"], [0, "not_json"]]);
  // Kept as JSON can write them: the BigInt as its digits, the object met again as "[circular]".
  assert.equal(sync.refused[0].body.response.big, "12");
  assert.equal(sync.refused[1].body.response.self, "[circular]");
});

test("with storage full the queue is sent from memory", async () => {
  const { page, server, sync } = syncPage(stored);
  page.localStorage.full = true;
  sync.enqueue(trial(0));
  sync.enqueue(trial(1));
  await sync.flush();
  assert.deepEqual(sentIndexes(server), [0, 1]);
  assert.deepEqual(storedKeys(page), []);
});

test("requestJSON gives a 2xx's answer, and throws a 4xx's message with its status and body", async () => {
  const { server, sync } = syncPage((request) =>
    request.url.endsWith("/complete")
      ? { status: 409, body: { error: "trials_missing", message: "3 trials missing" } }
      : { status: 200, body: { plan: [] } },
  );
  assert.deepEqual(await sync.getJSON(""), { plan: [] });
  await assert.rejects(sync.postJSON("/complete", {}), (error) => {
    assert.equal(error.message, "3 trials missing");
    assert.equal(error.status, 409);
    assert.equal(error.body.error, "trials_missing");
    return true;
  });
  assert.deepEqual(server.requests.at(-1), { method: "POST", url: "/api/s/tok/complete", body: {} });
});

test("a jsPsych experiment's rows have a queue of their own, posted to /rows", async () => {
  const server = fakeFetch(stored);
  const page = makePage({ fetch: server.fetch });
  page.load("static/studyhive/i18n.js", "static/studyhive/sync.js");
  const rows = new (page.get("StudyhiveSync"))("/api/s/tok", "tok", "/rows");
  rows.enqueue({ trial_id: "r0", row: { rt: 300 } });
  assert.deepEqual(storedKeys(page), ["studyhive:tok:rows-queue", "studyhive:tok:rows-queue:0"]);
  await rows.flush();
  assert.equal(server.requests[0].url, "/api/s/tok/rows");
});
