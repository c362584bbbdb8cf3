/*
 * StudyhiveSync: gets answers to the server without losing any (docs/participant-api.md, "Client guarantees").
 *
 * Finished trials go into a queue that is written to localStorage before anything is sent, so a reload, a
 * closed tab or a dropped connection loses nothing: the next page load flushes what is left. A trial leaves the
 * queue only when the server stores it (201, or 200 for a repeat) or refuses it for good (any other 4xx, which no
 * retry could fix: the session has ended, the index holds another answer, an invalid body). A refused trial is
 * never dropped: it moves to a second localStorage list (`refused`, kept for the researchers) and is reported
 * through `onrefused`. A 409 `out_of_order` (sent before consent was stored) keeps the trial queued and pauses the
 * queue until the next flush. Network errors and 5xx are retried forever with exponential backoff (0.5 s doubling
 * to 30 s); an `online` event cuts the current wait short.
 */
class StudyhiveSync {
  /** `path`: where queued bodies are posted: "/trials" (planned trials), or "/rows" (a jsPsych experiment's rows). */
  constructor(apiBase, token, path = "/trials") {
    this.apiBase = apiBase;
    this.path = path;
    const list = path === "/trials" ? "" : `${path.slice(1)}-`; // the planned trials' keys are as they always were
    this.storageKey = `studyhive:${token}:${list}queue`;
    this.refusedKey = `studyhive:${token}:${list}refused`;
    this.queue = this._load(this.storageKey);
    this.refused = this._load(this.refusedKey); // {body, status, error} of trials the server refused for good
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

  /** Stores one trial body and starts sending it. */
  enqueue(trialBody) {
    this.queue.push(trialBody);
    this._store(this.storageKey, this.queue);
    this.flush();
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
    const error = new Error(data.message || _("The server answered {status}.", { status }));
    error.status = status;
    error.body = data;
    throw error;
  }

  async _drain() {
    while (this.queue.length) {
      const body = this.queue[0];
      const { status, data } = await this._send("POST", this.path, body);
      if (status === 409 && data.error === "out_of_order") {
        console.warn(`studyhive: trial ${body.trial_index} waits: ${data.message}`);
        break; // stays queued; the next flush sends it again
      }
      if (status === 410 && data.error === "session_withdrawn") {
        // The participant withdrew and their answers were deleted: none is kept on this device either.
        this.queue = [];
        this.refused = [];
        this._store(this.storageKey, this.queue);
        this._store(this.refusedKey, this.refused);
        break;
      }
      if (status !== 200 && status !== 201) {
        const entry = { body, status, error: data };
        this.refused.push(entry);
        this._store(this.refusedKey, this.refused);
        console.error(`studyhive: trial ${body.trial_index} refused (${status}), kept on this device`, data, body);
        if (this.onrefused) this.onrefused(entry);
      }
      // enqueue() may have appended while we waited, so remove this trial by id rather than by position.
      this.queue = this.queue.filter((queued) => queued.trial_id !== body.trial_id);
      this._store(this.storageKey, this.queue);
    }
    // Cleared in the same synchronous step as the loop's exit: a later enqueue() starts a fresh drain.
    this._draining = null;
  }

  /** Sends until the server gives an answer other than 5xx (or 408/429, which ask for a retry). */
  async _send(method, path, body) {
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

  _load(key) {
    try {
      return JSON.parse(localStorage.getItem(key)) || [];
    } catch (error) {
      return [];
    }
  }

  _store(key, list) {
    try {
      if (list.length) localStorage.setItem(key, JSON.stringify(list));
      else localStorage.removeItem(key);
    } catch (error) {
      // Storage full or disabled: the list still lives in memory (the queue is sent from there).
      console.warn(`studyhive: could not keep ${key} on this device`, error);
    }
  }
}
