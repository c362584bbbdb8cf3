/*
 * StudyhiveSync: gets answers to the server without losing any (docs/participant-api.md, "Client guarantees").
 *
 * Finished trials go into a queue that is written to localStorage before anything is sent, so a reload, a
 * closed tab or a dropped connection loses nothing: the next page load flushes what is left, in order. A trial leaves
 * the queue only when the server stores it (201, or 200 for a repeat) or refuses it for good (any other 4xx, which no
 * retry could fix: the session has ended, the index holds another answer, an invalid body). A refused trial is
 * never dropped: it moves to a second localStorage list (`refused`, kept for the researchers) and is reported
 * through `onrefused`. So does a trial JSON cannot write (a BigInt, a circular object), at once and on its own: it
 * never enters the queue, and the trials after it flow. A 409 `out_of_order` (sent before consent was stored) keeps
 * the trial queued and pauses the queue until the next flush. Network errors and 5xx are retried forever with
 * exponential backoff (0.5 s doubling to 30 s); an `online` event cuts the current wait short.
 *
 * Each list is kept one entry per localStorage key beside a small index (StudyhiveStoredList), so queueing or sending a
 * trial writes that trial and the index only: its cost does not grow with the queue (a burst of thousands of rows
 * behind a large one). A list stored whole by an earlier version of this file is taken over on load.
 */

/**
 * A list in localStorage: entry n at `<key>:<n>`, and at `<key>` the index {head, next, length} (entries head … next-1,
 * some missing if storage was full when they were written; `length` for whoever reads the storage). Adding at the end
 * or removing the first entry writes one entry and the index.
 */
class StudyhiveStoredList {
  constructor(key) {
    this.key = key;
    this.entries = []; // in order, in memory: the list is sent from here even where storage failed
    this._numbers = []; // each entry's n
    this._next = 0;
    const stored = StudyhiveStoredList._read(key);
    if (Array.isArray(stored)) {
      // The earlier format, the whole list as one array under `key`: its entries are written first and the index
      // (which replaces the array) last, so a page closed in between finds the array again and starts over.
      for (const entry of stored) this._add(entry, JSON.stringify(entry));
      this._writeIndex();
    } else if (stored) {
      for (let n = stored.head; n < stored.next; n += 1) {
        const entry = StudyhiveStoredList._read(`${key}:${n}`);
        if (entry !== null) {
          this.entries.push(entry);
          this._numbers.push(n);
        }
      }
      this._next = stored.next;
    }
  }

  get length() {
    return this.entries.length;
  }

  /** Adds `entry` at the end; `text` is its JSON when the caller has it already. */
  push(entry, text = JSON.stringify(entry)) {
    this._add(entry, text);
    this._writeIndex();
  }

  /** Removes the first entry. */
  shift() {
    this.entries.shift();
    this._write(`${this.key}:${this._numbers.shift()}`, null);
    this._writeIndex();
  }

  clear() {
    for (const n of this._numbers) this._write(`${this.key}:${n}`, null);
    this.entries = [];
    this._numbers = [];
    this._writeIndex();
  }

  _add(entry, text) {
    this.entries.push(entry);
    this._numbers.push(this._next);
    this._write(`${this.key}:${this._next}`, text);
    this._next += 1;
  }

  _writeIndex() {
    if (!this.entries.length) this._next = 0;
    const index = { head: this._numbers[0], next: this._next, length: this.entries.length };
    this._write(this.key, this.entries.length ? JSON.stringify(index) : null);
  }

  /** Writes `text` at `key` (null: removes it). */
  _write(key, text) {
    try {
      if (text === null) localStorage.removeItem(key);
      else localStorage.setItem(key, text);
    } catch (error) {
      // Storage full or disabled: the entry still lives in memory (the queue is sent from there).
      console.warn(`studyhive: could not keep ${key} on this device`, error);
    }
  }

  static _read(key) {
    try {
      return JSON.parse(localStorage.getItem(key));
    } catch (error) {
      return null;
    }
  }
}

/* exported StudyhiveSync */
class StudyhiveSync {
  /** `path`: where queued bodies are posted: "/trials" (planned trials), or "/rows" (a jsPsych experiment's rows). */
  constructor(apiBase, token, path = "/trials") {
    this.apiBase = apiBase;
    this.path = path;
    const list = path === "/trials" ? "" : `${path.slice(1)}-`; // the planned trials' keys are as they always were
    this.storageKey = `studyhive:${token}:${list}queue`;
    this.refusedKey = `studyhive:${token}:${list}refused`;
    this._queue = new StudyhiveStoredList(this.storageKey);
    this._refused = new StudyhiveStoredList(this.refusedKey); // {body, status, error} of trials refused for good
    this.offline = false;
    this.onstatus = null; // called with true when requests start failing, false when they get through again
    this.onrefused = null; // called with each {body, status, error} the server refuses for good
    // Called with the server's answer when it says the session has ended (409 session_ended) or was withdrawn at the
    // participant's request (410 session_withdrawn).
    this.onended = null;
    this._draining = null;
    this._wakers = new Set();
    window.addEventListener("online", () => {
      for (const wake of [...this._wakers]) wake();
      this.flush();
    });
  }

  /** The trial bodies queued for the queue's own path, in order. */
  get queue() {
    return this.queuedFor(this.path);
  }

  /** The bodies queued for `path`, in order. */
  queuedFor(path) {
    return this._queue.entries
      .filter((entry) => (StudyhiveSync._addressed(entry) ? entry.sendTo : this.path) === path)
      .map((entry) => (StudyhiveSync._addressed(entry) ? entry.body : entry));
  }

  /** {body, status, error} of each trial refused for good. */
  get refused() {
    return this._refused.entries;
  }

  /**
   * Stores one trial body and starts sending it; a body JSON cannot write is refused at once (status 0). `path`: where
   * it goes, the queue's own by default; a body for another path (a change to rows queued before it) is sent in its
   * place in the order, kept as {sendTo, body}.
   */
  enqueue(trialBody, path = this.path) {
    const entry = path === this.path ? trialBody : { sendTo: path, body: trialBody };
    let text;
    try {
      text = JSON.stringify(entry);
    } catch (error) {
      this._refuse(StudyhiveSync._writable(trialBody), 0, { error: "not_json", message: String(error.message) });
      return;
    }
    this._queue.push(entry, text);
    this.flush();
  }

  /** Whether a queued entry is a body for another path than the queue's own ({sendTo, body}). */
  static _addressed(entry) {
    return Boolean(entry) && typeof entry.sendTo === "string" && "body" in entry;
  }

  /** Plan indexes of trials finished on this device but not yet acknowledged. */
  queuedIndexes() {
    return this.queue.map((body) => body.trial_index);
  }

  /** Resolves once the queue is empty; every caller shares the one running drain. */
  flush() {
    // The drain starts on a later microtask so that this._draining is set before it can clear it again.
    if (!this._draining) this._draining = Promise.resolve().then(() => this._drain());
    return this._draining;
  }

  getJSON(path) {
    return this.requestJSON("GET", path);
  }

  putJSON(path, body) {
    return this.requestJSON("PUT", path, body);
  }

  postJSON(path, body) {
    return this.requestJSON("POST", path, body);
  }

  /**
   * One API call, retried like trials. Resolves with the JSON answer of a 2xx; a 4xx throws an Error carrying the
   * server's message, plus `status` and `body` (the parsed error object) for callers that need the details.
   */
  async requestJSON(method, path, body) {
    const { status, data } = await this._send(method, path, body);
    if (status >= 200 && status < 300) return data;
    /** @type {Error & {status?: number, body?: object}} */
    const error = new Error(data.message || _("The server answered {status}.", { status }));
    error.status = status;
    error.body = data;
    throw error;
  }

  async _drain() {
    while (this._queue.length) {
      const entry = this._queue.entries[0];
      const addressed = StudyhiveSync._addressed(entry);
      const body = addressed ? entry.body : entry;
      const { status, data } = await this._send("POST", addressed ? entry.sendTo : this.path, body);
      if (status === 409 && data.error === "out_of_order") {
        console.warn(`studyhive: trial ${body.trial_index} waits: ${data.message}`);
        break; // stays queued; the next flush sends it again
      }
      if (status === 410 && data.error === "session_withdrawn") {
        // The participant withdrew and their answers were deleted: none is kept on this device either.
        this._queue.clear();
        this._refused.clear();
        break;
      }
      if (status !== 200 && status !== 201) this._refuse(body, status, data);
      // Only this drain removes entries and enqueue() appends, so the trial sent is still the first.
      this._queue.shift();
    }
    // Cleared in the same synchronous step as the loop's exit: a later enqueue() starts a fresh drain.
    this._draining = null;
  }

  _refuse(body, status, error) {
    const entry = { body, status, error };
    this._refused.push(entry);
    console.error(`studyhive: trial ${body && body.trial_index} refused (${status}), kept on this device`, error, body);
    if (this.onrefused) this.onrefused(entry);
  }

  /**
   * A copy of a body JSON cannot write, for the refused list: a BigInt as its digits, an object met again (a
   * circular one) as "[circular]"; null if even that fails (a toJSON that throws).
   */
  static _writable(body) {
    const seen = new WeakSet();
    try {
      return JSON.parse(JSON.stringify(body, (key, value) => {
        if (typeof value === "bigint") return value.toString();
        if (value && typeof value === "object") {
          if (seen.has(value)) return "[circular]";
          seen.add(value);
        }
        return value;
      }));
    } catch (error) {
      return null;
    }
  }

  /** Sends until the server gives an answer other than 5xx (or 408/429, which ask for a retry). */
  async _send(method, path, body) {
    /** @type {RequestInit & {headers: Record<string, string>}} */
    const init = { method, headers: { Accept: "application/json" }, cache: "no-store" };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    for (let delay = 500; ; delay = Math.min(delay * 2, 30000)) {
      try {
        const response = await fetch(this.apiBase + path, init);
        if (response.status < 500 && response.status !== 408 && response.status !== 429) {
          this._setOffline(false);
          const data = await response.json().catch(() => ({}));
          const ended = (response.status === 409 && data.error === "session_ended") ||
            (response.status === 410 && data.error === "session_withdrawn");
          if (ended && this.onended) this.onended(data);
          return { status: response.status, data };
        }
      } catch (networkError) {
        // fetch rejects only when no answer arrived at all (offline, DNS, connection reset): retry below.
      }
      this._setOffline(true);
      await this._sleep(delay);
    }
  }

  /** @returns {Promise<void>} */
  _sleep(ms) {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this._wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this._wakers.add(wake);
    });
  }

  _setOffline(offline) {
    if (offline === this.offline) return;
    this.offline = offline;
    if (this.onstatus) this.onstatus(offline);
  }
}
