// A page for the unit tests of the browser scripts: a `vm` context with the fakes they reach for (localStorage, fetch,
// timers, window and document events, the parent frame's postMessage), into which scripts are loaded as the page loads
// them, unchanged and in order. A script's top-level declarations are read back with page.get("Name").
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const ROOT = path.resolve(__dirname, "..", "..");

/** localStorage: strings by key; `full` makes every write throw, as a full or disabled storage does. */
class FakeStorage {
  constructor() {
    this.items = new Map();
    this.full = false;
  }

  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }

  setItem(key, value) {
    if (this.full) throw new Error("QuotaExceededError");
    this.items.set(key, String(value));
  }

  removeItem(key) {
    this.items.delete(key);
  }
}

/** setTimeout and clearTimeout that only run what the test tells them to: `pending` lists {ms, fn}. */
class FakeTimers {
  constructor() {
    this.pending = [];
    this.delays = []; // every delay asked for, in order
    this.setTimeout = (fn, ms = 0) => {
      const timer = { fn, ms };
      this.pending.push(timer);
      this.delays.push(ms);
      return timer;
    };
    this.clearTimeout = (timer) => {
      this.pending = this.pending.filter((t) => t !== timer);
    };
  }

  /** Runs the timers due now, then lets the promises they resolve settle. */
  async fire() {
    const due = this.pending;
    this.pending = [];
    for (const timer of due) timer.fn();
    await settle();
  }
}

/** Lets every pending promise callback run (those of a chain of awaits too). */
function settle() {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A fake server for fetch: `answer(request)` gives {status, body} for each request ({method, url, body}: the body
 * parsed), or throws for a request that gets no answer at all (offline). Every request is kept in `requests`.
 */
function fakeFetch(answer) {
  const requests = [];
  const fetch = async (url, init = {}) => {
    const sent = init.body === undefined ? undefined : JSON.parse(init.body);
    const request = { method: init.method || "GET", url, body: sent };
    requests.push(request);
    const { status, body } = answer(request);
    return { status, ok: status >= 200 && status < 300, json: async () => body };
  };
  return { fetch, requests };
}

/** A value from the page as this realm's plain JSON (deepEqual compares prototypes, and the page has its own). */
const plain = (value) => JSON.parse(JSON.stringify(value));

/** An event with the given extra properties (an Event's own are read-only). */
function event(type, properties = {}) {
  const e = new Event(type);
  for (const [name, value] of Object.entries(properties)) Object.defineProperty(e, name, { value });
  return e;
}

/**
 * A page: `globals` adds to or replaces what its window offers (fetch, location, parent, initJsPsych …).
 * Scripts are paths from the repository's root.
 */
function makePage(globals = {}) {
  const windowEvents = new EventTarget();
  const documentEvents = new EventTarget();
  const timers = new FakeTimers();
  const document = {
    readyState: "complete",
    baseURI: "https://studyhive.test/",
    activeElement: null,
    body: null,
    visibilityState: "visible",
    fullscreenElement: null,
    getElementById: () => null,
    addEventListener: documentEvents.addEventListener.bind(documentEvents),
    removeEventListener: documentEvents.removeEventListener.bind(documentEvents),
    dispatchEvent: documentEvents.dispatchEvent.bind(documentEvents),
  };
  const sandbox = {
    console,
    document,
    localStorage: new FakeStorage(),
    setTimeout: timers.setTimeout,
    clearTimeout: timers.clearTimeout,
    performance: { now: () => 0 },
    navigator: {},
    location: { hash: "", search: "", href: "https://studyhive.test/", origin: "https://studyhive.test" },
    innerWidth: 1024,
    innerHeight: 768,
    TextEncoder,
    URL,
    URLSearchParams,
    Event,
    ProgressEvent: Event,
    Request,
    Response,
    fetch: async () => {
      throw new TypeError("no server in this test");
    },
    MutationObserver: class {
      observe() {}
    },
    Element: class {},
    XMLHttpRequest: class {
      open() {}
      send() {}
    },
    addEventListener: windowEvents.addEventListener.bind(windowEvents),
    removeEventListener: windowEvents.removeEventListener.bind(windowEvents),
    dispatchEvent: windowEvents.dispatchEvent.bind(windowEvents),
    ...globals,
  };
  sandbox.window = sandbox;
  const context = vm.createContext(sandbox);
  return {
    window: vm.runInContext("window", context), // the context's global itself, which scripts see as `window`
    document,
    timers,
    localStorage: sandbox.localStorage,
    load(...scripts) {
      for (const script of scripts) {
        vm.runInContext(fs.readFileSync(path.join(ROOT, script), "utf-8"), context, { filename: script });
      }
      return this;
    },
    /** Runs `code` in the page, as a script of its own (an experiment's), and gives its value. */
    run(code) {
      return vm.runInContext(code, context, { filename: "experiment.js" });
    },
    get(name) {
      return vm.runInContext(name, context);
    },
  };
}

module.exports = { makePage, fakeFetch, event, settle, plain };
