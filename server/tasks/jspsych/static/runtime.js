/*
 * studyhive's runtime inside a researcher's jsPsych 6, 7 or 8 experiment (docs/own-experiments.md). The server puts it
 * right after the jsPsych script, so it replaces initJsPsych (jsPsych.init in 6: hookSix) before the experiment's own
 * script calls it. The
 * experiment runs in a sandboxed frame with no access to studyhive (an opaque origin): everything goes through the
 * page around it (host.js), which holds the session and the offline queue.
 *
 * - Fields the experiment adds to rows already recorded (data.addProperties after the first row, addDataToLastTrial
 *   after the last row was recorded) go to the page too, which sets them on the stored rows (watchData); when the run
 *   ends, so do the fields of recorded rows changed otherwise (through jsPsych.data.get(): amendChanged).
 * - Every row jsPsych records is posted to that page, after the experiment's own on_trial_finish/on_data_update, with
 *   its interaction records (docs/participant-api.md): jsPsych's own interaction data for that trial (blur, focus,
 *   full screen entered and left) and what jsPsych does not record (the tab hidden and shown again, resizes), timed
 *   from the trial's start on jsPsych's clock. The page trims them to the caps (events.js).
 * - Math.random is seeded per session (the frame URL's #seed=) before the experiment's own code runs, so jsPsych's
 *   randomness (every version: 7.0 has no randomization.setSeed) and the experiment's own draw the same values after
 *   a reload (seededRandom).
 * - After a reload the page sends the stored rows first; jsPsych.run() waits for them, and each plugin's trial()
 *   finishes at once with its stored row until all are replayed: the experiment's state-changing code runs (timeline
 *   and parameter functions, on_start, on_finish, conditional and loop functions, a call-function trial's function),
 *   its display code does not (any other plugin's trial(), on_load), and jsPsych.data ends up holding the stored
 *   rows; then the experiment continues where it was left. A replayed trial whose `data` parameter the timeline
 *   computes otherwise than the stored row holds is reported once ("diverged").
 * - When run() resolves (the timeline ended, or endExperiment / abortExperiment), the page hears "finished" and how
 *   it ended: `ended_early` when the experiment called endExperiment (7.x) or abortExperiment (8.x), with the message
 *   it passed (study.toml's [[task.endings]] say what that ending means).
 * - Errors of the experiment's own code go to the page as "error" (docs/own-experiments.md, "When the experiment's
 *   code fails"): one that rejects run() is fatal (the experiment cannot go on, and the page offers the participant to
 *   end), and so is an uncaught one before run() when the page has loaded without reaching run(), or one after the
 *   page's load that leaves run() uncalled for NEVER_STARTED_MS (a jatos.onLoad callback that threw); any other
 *   uncaught error or unhandled rejection is recorded while the experiment goes on.
 * - A request for the microphone, camera or screen (navigator.mediaDevices.getUserMedia, getDisplayMedia), which
 *   the sandboxed frame cannot be given, is refused at once as a fatal error.
 * - A row JSON cannot write (a BigInt, a circular object) goes to the page as it is, where the queue refuses it on
 *   its own; the experiment goes on.
 * - A request that would save data to the experiment's own server script (a POST to "save_data.php") is answered
 *   here as saved, and the JATOS calls of jatos.js end the run as the timeline's end does.
 */
(function () {
  "use strict";
  const realInit = window.initJsPsych;
  // jsPsych 6: one global jsPsych object whose init() starts the timeline (hookSix, at the end).
  const six = typeof realInit !== "function" && window.jsPsych && typeof window.jsPsych.init === "function" ? window.jsPsych : null;
  if (typeof realInit !== "function" && !six) return;
  const host = window.parent;
  const send = (message) => host.postMessage(message, "*");
  // Fields jsPsych itself adds to every row: a replayed trial's data leaves them out, jsPsych sets them again and
  // on_trial_finish restores the stored values.
  const JSPSYCH_FIELDS = ["trial_type", "trial_index", "time_elapsed", "internal_node_id"];
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const random = seededRandom(fragment.get("seed") || String(Math.random()));
  // The number of the session's condition in study.toml's [[conditions]] (0 for the first), none without conditions:
  // DataPipe's condition assignment is answered with it (below).
  const condition = fragment.get("condition");
  let replay = []; // stored rows, in order, still to be recorded again
  let positions = []; // per stored row, where the page's randomness stood when its trial ended ({draws}), or null
  let ended = null; // Math.random's draw count when the current trial's plugin finished
  let diverged = false; // a divergence was reported in this page load
  let restored = null; // the fields late addProperties calls set before the reload (the page keeps them), or null
  let recorded = 0; // rows jsPsych has recorded in this page load
  const recordedText = []; // per row recorded, its JSON as the server holds it (null: none JSON can write)
  let jsPsychData = null; // the experiment's jsPsych.data, once made
  let dataBase = 0; // rows recorded before jsPsych.data's first (jsPsych 6 empties it at each jsPsych.init)
  const replaying = () => recorded < replay.length;
  // jsPsych's interaction data → the interaction-record types (server/tasktype/events.py).
  const INTERACTIONS = { blur: "blur", focus: "focus", fullscreenenter: "fullscreen_enter", fullscreenexit: "fullscreen_exit" };
  const RESIZE_MERGE_MS = 1000; // a window dragged to a new size is one resize, with its final size (as events.js)
  let clock = null; // the experiment's jsPsych, once made: its getTotalTime() times the events
  let trialStart = 0; // jsPsych's time when the current trial started
  let seen = []; // {time, type, value} this frame saw during the current trial
  let started = false; // the experiment has called run()
  let currentTrial = null; // jsPsych's trial_index of the trial running (the rows recorded before it), null before one
  let early = null; // the first uncaught error before run(), reported once the page has loaded
  let entering = false; // jsPsych 6: a trial has started and its plugin's trial() is not entered yet (hookSix)
  const reported = new WeakSet(); // errors sent already (run()'s rejection is also an unhandled one)
  const MAX_MESSAGE = 1000; // characters the server takes (server/participation/session_api.py)
  const MAX_STACK = 8000;
  // An error after the page's load that left run() uncalled this long: the experiment never starts (a callback that
  // was to call it threw, such as jatos.onLoad's). Long enough for a page that fetches what it needs first.
  const NEVER_STARTED_MS = 20000;
  // How long a jsPsych 6 timeline's end waits for the page's own requests before the run ends (whenQuiet).
  const QUIET_MS = 10000;

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
      const found = node instanceof Element && (node.matches("[autofocus]") ? node : node.querySelector("[autofocus]"));
      const wanted = /** @type {HTMLElement | null | false} */ (found); // or an SVG element: focus() as well
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

  // An experiment that saves its data to its own server script (fetch, XMLHttpRequest or jQuery's $.ajax POST to
  // "save_data.php", sendBeacon) would reach studyhive, which has no such script, and might not go on without an
  // answer. Every row is already stored as its trial ends, so each request to this frame's own origin with a method
  // other than GET or HEAD is answered here, at once, online or not: 200, {"ok": true, "success": true, "status":
  // "success"} (what such scripts answer: jsPsych's own PHP example sends {"success": true}, and experiments check
  // it before going on); its body is dropped and nothing leaves the frame. Requests to other hosts stay refused by
  // the frame's policy; GETs fetch study files.
  // jsPsych's DataPipe (@jspsych-contrib/plugin-pipe, pipe.jspsych.org) is answered alike: its saves of the data to
  // the OSF (every row is stored here already), and its condition assignment with the session's condition, which
  // studyhive drew at entry, balanced, from study.toml's [[conditions]] (DataPipe answers {"condition": n}, counting
  // its own calls; a reload asks again and gets the same). A study without [[conditions]] has none to give: refused
  // as a fatal error.
  const SAVED = JSON.stringify({ ok: true, success: true, status: "success" });
  const PIPE = "https://pipe.jspsych.org";
  const PIPE_SAVES = ["/api/data/", "/api/base64/"];
  const PIPE_CONDITION = "/api/condition/";
  /** The URL a request names, resolved as the browser resolves it, or null. */
  function resolved(url) {
    try {
      return new URL(url, document.baseURI);
    } catch (notURL) {
      return null;
    }
  }
  /**
   * The JSON text this frame answers a request with (200), or null: the request goes out. Throws, after reporting
   * it as fatal, a request for a condition the study does not assign.
   * @param {string | undefined} method
   * @param {string | URL} url
   */
  function answer(method, url) {
    const to = resolved(url);
    if (/^(GET|HEAD)$/i.test(method || "GET") || !to) return null;
    if (to.origin === window.location.origin || (to.origin === PIPE && PIPE_SAVES.includes(to.pathname))) return SAVED;
    if (to.origin !== PIPE || to.pathname !== PIPE_CONDITION) return null;
    if (condition !== null) return JSON.stringify({ condition: Number(condition) });
    const refused = new Error(
      "DataPipe's condition assignment (jsPsychPipe.getCondition) is answered on studyhive with the session's " +
        "condition, and this study has no [[conditions]] in its study.toml",
    );
    reportError(refused, true);
    throw refused;
  }
  // The page's own requests not yet answered (fetch, XMLHttpRequest): a jsPsych 6 page may start its next timeline
  // from such an answer (hookSix, whenQuiet).
  let pending = 0;
  /**
   * The request's promise, counted in `pending` until it settles; a rejection the experiment leaves unhandled stays
   * unhandled (the runtime records it), as the experiment's handlers attach to the promise returned.
   * @template T @param {Promise<T>} request @returns {Promise<T>}
   */
  function counted(request) {
    pending += 1;
    return request.then(
      (value) => {
        pending -= 1;
        return value;
      },
      (error) => {
        pending -= 1;
        throw error;
      },
    );
  }
  const realFetch = window.fetch;
  window.fetch = function fetch(resource, init) {
    const request = resource instanceof Request ? resource : null;
    const method = (init && init.method) || (request ? request.method : "GET");
    let body;
    try {
      body = answer(method, request ? request.url : String(resource));
    } catch (refused) {
      return Promise.reject(refused);
    }
    if (body === null) return counted(realFetch.apply(window, arguments));
    return Promise.resolve(new Response(body, { status: 200, headers: { "Content-Type": "application/json" } }));
  };
  /** answer(), a refusal as no answer (the request goes out, and the frame's policy blocks it). */
  function answerOrNull(method, url) {
    try {
      return answer(method, url);
    } catch (refused) {
      return null;
    }
  }
  if (navigator.sendBeacon) {
    const beacon = navigator.sendBeacon;
    navigator.sendBeacon = (url, data) => answerOrNull("POST", url) !== null || beacon.call(navigator, url, data);
  }
  const xhrOpen = XMLHttpRequest.prototype.open;
  const xhrSend = XMLHttpRequest.prototype.send;
  const answered = new WeakMap(); // an XMLHttpRequest this frame answers → the JSON text it answers with
  const synchronous = new WeakSet(); // one opened to block until answered (its send returns with the answer)
  /**
   * @param {string} method
   * @param {string | URL} url
   * @param {boolean} [async]
   */
  XMLHttpRequest.prototype.open = function open(method, url, async) {
    const body = answerOrNull(method, url);
    if (body !== null) answered.set(this, body);
    else answered.delete(this);
    if (async === false) synchronous.add(this);
    else synchronous.delete(this);
    return xhrOpen.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function send(body) {
    const given = answered.get(this);
    // An asynchronous request is pending until its loadend, which an answer given here fires too (after its load).
    const async = !synchronous.has(this);
    if (async) {
      pending += 1;
      this.addEventListener("loadend", () => (pending -= 1), { once: true });
    }
    if (given === undefined) {
      try {
        return xhrSend.call(this, body);
      } catch (error) {
        if (async) pending -= 1; // no loadend follows a send that throws
        throw error;
      }
    }
    // The answer as the request's own properties (they shadow the prototype's), then the events a finished request
    // fires, which call its on… handlers too: jQuery reads status, responseText and the headers in onload.
    const json = this.responseType === "json";
    Object.defineProperties(this, {
      readyState: { value: 4 },
      status: { value: 200 },
      statusText: { value: "OK" },
      responseURL: { value: "" },
      responseText: { get: () => (json ? "" : given) },
      response: { value: json ? JSON.parse(given) : given },
      getResponseHeader: { value: (name) => (/^content-type$/i.test(name) ? "application/json" : null) },
      getAllResponseHeaders: { value: () => "content-type: application/json\r\n" },
    });
    const respond = () => {
      this.dispatchEvent(new Event("readystatechange"));
      this.dispatchEvent(new ProgressEvent("load"));
      this.dispatchEvent(new ProgressEvent("loadend"));
    };
    if (async) setTimeout(respond);
    else respond();
  };

  // Browser storage: the sandboxed frame has no origin to keep it under, so reading localStorage or sessionStorage
  // throws a SecurityError (jsPsychMaker, experiments that keep their progress there). Each is a Storage in memory
  // for this page load instead: a reload starts it empty, and replay runs the code that filled it again.
  for (const name of ["localStorage", "sessionStorage"]) {
    try {
      if (window[name]) continue;
    } catch (denied) {
      // in memory, below
    }
    const items = new Map();
    const api = {
      key: (n) => [...items.keys()][n] ?? null,
      getItem: (key) => items.get(String(key)) ?? null,
      setItem: (key, value) => void items.set(String(key), String(value)),
      removeItem: (key) => void items.delete(String(key)),
      clear: () => items.clear(),
    };
    // `storage.word = "x"` and `storage.word` as a Storage answers them too
    const storage = new Proxy(api, {
      get: (target, key) => (key === "length" ? items.size : key in target ? target[key] : api.getItem(key) ?? undefined),
      set: (target, key, value) => (api.setItem(key, value), true),
      deleteProperty: (target, key) => (api.removeItem(key), true),
      has: (target, key) => key in target || items.has(String(key)),
      ownKeys: () => [...items.keys()],
      getOwnPropertyDescriptor: (target, key) =>
        items.has(String(key)) ? { value: items.get(String(key)), enumerable: true, configurable: true } : undefined,
    });
    Object.defineProperty(window, name, { value: storage, configurable: true });
  }

  // A script the page adds as it runs (createElement("script") with a study file's or a package file's src, as
  // jsPsychMaker's loader does) gets crossorigin="anonymous", as sync gives the page's own tags: those files allow
  // any origin, and without it this opaque-origin frame sees its errors as "Script error." and its rejections not at
  // all, so a run stopped there would never be ended.
  const PUBLIC_FILES = ["/study-files/", "/pkg/"];
  /** @param {HTMLScriptElement} script @param {unknown} url */
  function crossOriginFor(script, url) {
    const to = resolved(String(url));
    const ours = to && to.origin === window.location.origin && PUBLIC_FILES.some((p) => to.pathname.startsWith(p));
    if (ours && script.getAttribute("crossorigin") === null) script.crossOrigin = "anonymous";
  }
  const scriptSrc = typeof HTMLScriptElement === "function" && Object.getOwnPropertyDescriptor(HTMLScriptElement.prototype, "src");
  if (scriptSrc && scriptSrc.set) {
    const setSrc = scriptSrc.set;
    Object.defineProperty(HTMLScriptElement.prototype, "src", {
      ...scriptSrc,
      set(value) {
        crossOriginFor(this, value);
        setSrc.call(this, value);
      },
    });
    const setAttribute = Element.prototype.setAttribute;
    Element.prototype.setAttribute = function (name, value) {
      if (this instanceof HTMLScriptElement && String(name).toLowerCase() === "src") crossOriginFor(this, value);
      return setAttribute.call(this, name, value);
    };
  }

  // A Web Worker's script must have its creator's origin, and this frame's is opaque (sandboxed), so `new
  // Worker("worker.js")` would throw a SecurityError here where it runs on any static host. The worker starts from a
  // data: URL (the frame's policy allows it as worker-src) that loads the study file by its absolute URL: a module
  // worker imports it (study files allow any origin), a classic one takes it with importScripts, whose relative
  // URLs, and its fetch's, resolve against the worker file as they would on the researcher's host.
  const RealWorker = window.Worker;
  if (typeof RealWorker === "function") {
    /**
     * @param {string | URL} url
     * @param {WorkerOptions} [options]
     */
    const Worker = function Worker(url, options) {
      const file = resolved(String(url));
      if (!file || file.protocol === "blob:" || file.protocol === "data:") return new RealWorker(url, options);
      const at = JSON.stringify(file.href);
      const source =
        options && options.type === "module"
          ? `import ${at};`
          : `const at = (u) => (typeof u === "string" ? new URL(u, ${at}).href : u);\n` +
            "self.importScripts = ((load) => (...urls) => load(...urls.map(at)))(self.importScripts);\n" +
            "self.fetch = ((get) => (resource, init) => get(at(resource), init))(self.fetch);\n" +
            `importScripts(${at});`;
      // A data: URL, not a blob: one: Chromium refuses a module worker from a blob: URL an opaque origin made.
      return new RealWorker(`data:text/javascript,${encodeURIComponent(source)}`, options);
    };
    Worker.prototype = RealWorker.prototype;
    window.Worker = /** @type {typeof window.Worker} */ (/** @type {unknown} */ (Worker));
  }

  /** The row's interaction records: jsPsych's for its trial and this frame's, in time order. */
  function rowEvents(trialIndex) {
    const own = clock.data.getInteractionData().values()
      .filter((e) => e.trial === trialIndex && INTERACTIONS[e.event])
      .map((e) => ({ time: e.time, type: INTERACTIONS[e.event], value: null }));
    return [...own, ...seen]
      .sort((a, b) => a.time - b.time)
      .map((e) => ({ t: Math.max(0, Math.round(e.time - trialStart)), type: e.type, target: null, value: e.value }));
  }

  /**
   * Math.random, seeded and counting its draws, installed before the experiment's code runs (the server puts this
   * script right after jsPsych's). A counter-based generator: draw n depends on the seed and n alone, so a replayed
   * trial sets the count back to what it was when the trial ended before the reload, and the draws that skipped
   * display code (on_load, the plugin's trial()) made then shift none after it. A generator the experiment installs
   * itself (jsPsych.randomization.setSeed in 7.3 and 8, which assigns Math.random) is counted from then on, and
   * restore() draws it forward to the count.
   */
  function seededRandom(text) {
    const mix = (x) => {
      x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
      x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
      return (x ^ (x >>> 16)) >>> 0;
    };
    const key = (salt) => [...text].reduce((h, c) => mix(h ^ c.codePointAt(0)), salt);
    const [low, high] = [key(1), key(2)];
    let draws = 0;
    let own = null; // the experiment's generator, once it assigns one
    function next() {
      draws += 1;
      if (own) return own();
      // 53 random bits, as a double in [0, 1), from two mixes of the counter
      const a = mix((high + Math.imul(draws, 0x9e3779b9)) | 0);
      const b = mix((low + Math.imul(draws, 0x85ebca6b)) ^ a);
      return (a * 2097152 + (b >>> 11)) / 9007199254740992;
    }
    Object.defineProperty(Math, "random", {
      configurable: true,
      get: () => next,
      set: (generator) => {
        own = generator;
        draws = 0;
      },
    });
    return {
      get draws() {
        return draws;
      },
      restore(count) {
        if (!own) draws = count;
        else while (draws < count) next();
      },
    };
  }

  /** JSON values equal whatever the order of their keys (PostgreSQL's jsonb stores them sorted). */
  function same(a, b) {
    if (a === b) return true;
    if (!a || !b || typeof a !== "object" || typeof b !== "object" || Array.isArray(a) !== Array.isArray(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => same(a[key], b[key]));
  }

  /**
   * The trial's `data` parameter as the timeline computed it (timeline variables and functions evaluated): jsPsych 8
   * keeps it on the trial's node (read from its cache, so nothing is evaluated again), 7.x on the trial object.
   */
  function timelineData(jsPsych) {
    const node = jsPsych.timeline && jsPsych.timeline.getLatestNode ? jsPsych.timeline.getLatestNode() : null;
    if (node && typeof node.getDataParameter === "function") return node.getDataParameter();
    const trial = jsPsych.getCurrentTrial();
    return trial && trial.data && typeof trial.data === "object" ? trial.data : {};
  }

  /** Report, once, a replayed trial whose data the timeline computed otherwise than the stored row holds. */
  function checkReplayed(stored) {
    if (diverged) return;
    let computed;
    try {
      computed = JSON.parse(JSON.stringify(timelineData(clock)));
    } catch (error) {
      return; // a value JSON cannot write was never stored either
    }
    const fields = Object.keys(computed).filter((field) => !same(computed[field], stored[field]));
    if (!fields.length) return;
    diverged = true;
    send({ type: "studyhive:diverged", trial_index: stored.trial_index, fields });
  }

  /** Text the server takes: at most `limit` characters, no NUL, no lone surrogate (one cut in two by the limit). */
  function bounded(text, limit) {
    const cut = String(text).replace(/\0/g, "").slice(0, limit);
    return typeof cut.toWellFormed === "function" ? cut.toWellFormed()
      : Array.from(cut, (c) => (c.length === 1 && c >= "\ud800" && c <= "\udfff" ? "\ufffd" : c)).join("");
  }

  function reportError(error, fatal) {
    if (error && typeof error === "object") {
      if (reported.has(error)) return;
      reported.add(error);
    }
    let message;
    try {
      message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    } catch (unprintable) {
      message = "";
    }
    const stack = error && typeof error.stack === "string" ? bounded(error.stack, MAX_STACK) : "";
    send({
      type: "studyhive:error",
      message: bounded(message, MAX_MESSAGE) || "unknown error",
      stack: stack || null,
      trial_index: currentTrial,
      fatal,
    });
  }

  function uncaught(error) {
    if (refusals.has(error)) return; // a refused JATOS call's rejection, left unhandled: reported when it was made
    if (started || document.readyState === "complete") {
      reportError(error, entering);
      if (!started && !unstarted) unstarted = setTimeout(() => neverStarted(error), NEVER_STARTED_MS);
    } else if (early === null) early = { error };
  }
  /** @type {WeakSet<object>} the errors refused JATOS calls reject with (jatos.js) */
  const refusals = new WeakSet();
  let unstarted = 0; // the timer of neverStarted, once an error came after the page's load and before run()

  /** The error, reported again as fatal, when run() has still not been called (nor the run ended: jatos.endStudy):
   * the participant gets studyhive's button to end, rather than a frame where nothing ever comes. */
  function neverStarted(error) {
    if (started || finished) return;
    if (error && typeof error === "object") reported.delete(error);
    reportError(error, true);
  }
  // The frame has no origin of its own (its sandbox), and a browser gives such a frame no microphone, camera or
  // screen: the request fails, and jsPsych's initialize-microphone / initialize-camera (and the recording plugins and
  // webgazer after them) then wait for ever. A request for one is fatal at once, so the participant gets studyhive's
  // button to end and the session says why (docs/own-experiments.md, "What does not").
  const media = navigator.mediaDevices;
  for (const name of /** @type {const} */ (["getUserMedia", "getDisplayMedia"])) {
    if (!media || typeof media[name] !== "function") continue;
    media[name] = () => {
      const refused = new DOMException(
        `navigator.mediaDevices.${name}(): studyhive's frame gives the experiment no microphone, camera or screen`,
        "NotAllowedError",
      );
      reportError(refused, true);
      return Promise.reject(refused);
    };
  }
  window.addEventListener("error", (event) => uncaught(event.error ?? event.message));
  window.addEventListener("unhandledrejection", (event) => uncaught(event.reason));
  // An error before run() that left run() unreached by the time the page has loaded: the experiment never starts.
  window.addEventListener("load", () => {
    if (early) reportError(early.error, !started);
  });

  /**
   * The row as JSON (what the server stores; functions cannot cross postMessage), with its replay position. One JSON
   * cannot write goes as it is, for the page's queue to refuse (sync.js); one not even postMessage can copy is
   * reported as an error.
   */
  function sendRow(data, text, replay) {
    sendJSON({ type: "studyhive:row", events: rowEvents(data.trial_index), replay }, "row", data, text);
  }

  /** The JSON text of `value`, or null (a BigInt, a circular object). */
  function jsonText(value) {
    try {
      return JSON.stringify(value);
    } catch (notJSON) {
      return null;
    }
  }

  /** `message` with `value` as JSON under `key` (or as it is: a BigInt or a circular object), sent to the page. */
  function sendJSON(message, key, value, text = jsonText(value)) {
    try {
      send({ ...message, [key]: text === null ? value : JSON.parse(text) });
    } catch (uncopyable) {
      reportError(uncopyable, false);
    }
  }

  /**
   * Before a replay, the fields late addProperties calls set before the reload, added again (nothing is sent: no row
   * is recorded yet): the replay skips display code, a plugin's trial() or an on_load, that may have set them, and
   * jsPsych adds them to the rows to come (a call-function trial's function, run again, sets them again alike).
   */
  function restoreProperties(data) {
    if (replay.length && restored && typeof restored === "object") data.addProperties(restored);
  }

  /** Tell the page to set `properties` on the recorded rows `first`…`last` (by their place in this page load). */
  function amend(first, last, properties, keep = false) {
    sendJSON({ type: "studyhive:amend", first, last, keep }, "properties", properties);
  }

  /** Note that the server's rows `from`…`to` hold `properties` (a change sent now, or stored before the reload). */
  function noted(from, to, properties) {
    const text = jsonText(properties);
    for (let n = from; n <= to && text !== null; n += 1) {
      if (typeof recordedText[n] === "string") recordedText[n] = JSON.stringify({ ...JSON.parse(recordedText[n]), ...JSON.parse(text) });
    }
  }

  /**
   * jsPsych changes rows it holds when the experiment calls data.addProperties (every row, and those to come) or
   * data.addDataToLastTrial (the last row). Rows recorded before are on their way to the server already, so the page
   * is told at once to change the stored ones too ("amend": every row recorded in this page load, or the last). A
   * row jsPsych has written but not yet recorded (the current trial's, in its on_finish) goes out with the
   * change. Not while replaying: the stored rows hold what the run before the reload changed.
   */
  function watchData(data) {
    jsPsychData = data;
    const changes = [{ name: "addProperties", earlier: true }, { name: "addDataToLastTrial", earlier: false }];
    for (const { name, earlier } of changes) {
      const change = data && data[name];
      if (typeof change !== "function") continue;
      data[name] = function (properties, ...rest) {
        const result = change.call(this, properties, ...rest);
        const last = recorded - 1;
        const held = data.get().count() === recorded - dataBase;
        if (last >= dataBase && properties && typeof properties === "object" && (earlier || held)) {
          const first = earlier ? dataBase : last;
          if (!replaying()) amend(first, last, properties, earlier);
          noted(first, last, properties);
        }
        return result;
      };
    }
  }

  /**
   * When the run ends: rows recorded that jsPsych holds otherwise now than they were recorded, changed through the
   * data collection itself (`data.get().addToAll(…)`, `.last(1).addToAll(…)`, a value assigned to a row), are set on
   * the stored rows too: the fields that differ, one change for the first rows when they all changed alike (an
   * addToAll), then one per row. A field removed from a row is not.
   */
  function amendChanged() {
    if (!jsPsychData) return;
    const rows = jsPsychData.get().values();
    const changed = recordedText.slice(dataBase).map((before, n) => {
      const now = n < rows.length ? jsonText(rows[n]) : null;
      if (before === null || now === null || now === before) return null;
      const was = JSON.parse(before);
      const is = JSON.parse(now);
      const fields = Object.keys(is).filter((key) => JSON.stringify(is[key]) !== JSON.stringify(was[key]));
      return fields.length ? Object.fromEntries(fields.map((key) => [key, is[key]])) : null;
    });
    const alike = changed[0] ? JSON.stringify(changed[0]) : null;
    let alikeRows = 0;
    while (alike && alikeRows < changed.length && JSON.stringify(changed[alikeRows]) === alike) alikeRows += 1;
    if (alikeRows > 0) amend(dataBase, dataBase + alikeRows - 1, changed[0]);
    for (let n = alikeRows; n < changed.length; n += 1) if (changed[n]) amend(dataBase + n, dataBase + n, changed[n]);
  }

  let ending = { ended_early: false, message: null };
  let phase = "waiting"; // "running" once run() starts the timeline, "done" once it reaches initJsPsych's on_finish
  let finished = false; // the page has heard "finished"
  let stopTimeline = null; // jsPsych's own endExperiment (7.x) / abortExperiment (8.x), not counted as an early end

  function endEarly(message) {
    if (!ending.ended_early) ending = { ended_early: true, message: typeof message === "string" ? message : null };
  }

  /**
   * Call `then` once the page's own requests are answered (each answer's callbacks have run), or after QUIET_MS of
   * waiting for them: a request that hangs delays the end no longer.
   * @param {() => void} then
   */
  function whenQuiet(then, deadline = performance.now() + QUIET_MS) {
    setTimeout(() => (pending > 0 && performance.now() < deadline ? whenQuiet(then, deadline) : then()), 20);
  }

  /** Tell the page, once, that the run has ended and how (after the changes to rows it has not heard of). */
  function finish() {
    if (finished) return;
    finished = true;
    amendChanged();
    send({ type: "studyhive:finished", ...ending });
  }

  /** Learn that the run ends early, and with which message: jsPsych itself never calls these two. */
  function watchEnding(jsPsych) {
    for (const name of ["endExperiment", "abortExperiment"]) {
      const stop = jsPsych[name];
      if (typeof stop !== "function") continue;
      stopTimeline = () => stop.call(jsPsych);
      jsPsych[name] = function (message, ...rest) {
        endEarly(message);
        return stop.call(this, message, ...rest);
      };
    }
  }

  // An experiment written for JATOS ends the run with jatos.endStudy, startNextComponent … (jatos.js): a successful
  // end is the timeline's natural end, an unsuccessful one an early end with its message. On JATOS the page then
  // leaves; here a timeline still running stops as jsPsych's own end stops it, without showing the message, which
  // JATOS only logs. A run that has not started yet ends at once and never starts; one past its last trial (in
  // initJsPsych's on_finish, JATOS's usual place) ends as it finishes.
  window.addEventListener("studyhive:jatos-end", (event) => {
    if (finished) return;
    if (!event.detail.successful) endEarly(event.detail.message);
    if (phase === "running") stopTimeline();
    else if (phase === "waiting") finish();
  });
  // A JATOS call studyhive does not make (jatos.js): recorded as the experiment's error, which does not stop it.
  window.addEventListener("studyhive:jatos-refused", (event) => {
    refusals.add(event.detail.error);
    reportError(event.detail.error, false);
  });

  /** @type {Promise<void>} */
  const initialised = new Promise((resolve) => {
    window.addEventListener("message", (event) => {
      if (event.source !== host || !event.data || event.data.type !== "studyhive:init") return;
      replay = event.data.rows || [];
      positions = event.data.replay || [];
      restored = event.data.properties || null;
      resolve();
    });
  });
  send({ type: "studyhive:ready" });

  /**
   * A replayed call-function trial's function, run again before the trial finishes with its stored row (a promise
   * of its return, or with `async` of its done). That plugin shows nothing: its function is where experiments keep
   * state (a global set, a listener attached, a condition drawn), which the rest of the run needs after a reload as
   * before it. What it returns is not recorded again: the stored row holds it. Any other plugin's trial() is display
   * code, and is not run.
   * @param {any} plugin a jsPsych 7/8 plugin class or a jsPsych 6 plugin object
   * @param {any} parameters the trial's evaluated parameters
   * @returns {Promise<void>}
   */
  function rerunState(plugin, parameters) {
    if (plugin.info?.name !== "call-function" || typeof parameters.func !== "function") return Promise.resolve();
    if (parameters.async) return new Promise((resolve) => parameters.func(() => resolve()));
    parameters.func();
    return Promise.resolve();
  }

  /** Make the plugin's trial() finish at once with its stored row while rows are being replayed. */
  const wrapped = new WeakSet();
  function wrapPlugin(plugin) {
    if (typeof plugin !== "function" || !plugin.prototype || typeof plugin.prototype.trial !== "function") return;
    if (wrapped.has(plugin)) return;
    wrapped.add(plugin);
    const trial = plugin.prototype.trial;
    plugin.prototype.trial = function (displayElement, parameters, onLoad) {
      if (!replaying()) {
        const result = trial.call(this, displayElement, parameters, onLoad);
        // A jsPsych 8 plugin may end its trial by resolving a promise rather than calling finishTrial.
        if (result && typeof result.then === "function") result.then(trialEnded, () => {});
        return result;
      }
      const data = { ...replay[recorded] };
      for (const field of JSPSYCH_FIELDS) delete data[field];
      const position = positions[recorded];
      // A promise: jsPsych 7.0, 7.3 and 8 then leave on_load to the plugin, and a replayed trial has no screen for
      // it. Finishing a microtask later gives each replayed trial a fresh stack (jsPsych 7 starts the next trial
      // inside finishTrial). The randomness stands where it stood when the trial ended before the reload, so the
      // data functions and on_finish code that follow draw what they drew then.
      return Promise.resolve()
        .then(() => rerunState(plugin, parameters))
        .then(() => {
          if (position) random.restore(position.draws);
          this.jsPsych.finishTrial(data);
        });
    };
  }

  /** The current trial's plugin finished (the first time only: endExperiment in on_finish finishes it again). */
  function trialEnded() {
    if (ended === null) ended = random.draws;
  }

  function wrapTimeline(node) {
    if (Array.isArray(node)) node.forEach(wrapTimeline);
    else if (node && typeof node === "object") {
      wrapPlugin(node.type);
      if (node.timeline) wrapTimeline(node.timeline);
    }
  }

  /**
   * The experiment's init options with the runtime's callbacks around its own (which still run): each trial's start
   * (`starting`, for what one version does more), its finish (a replayed trial gets its stored row back) and its row
   * (sent unless replayed); `finished` runs once the experiment's own on_finish has.
   */
  function hooked(options, starting, finished) {
    const own = { ...options };
    return {
      ...options,
      on_finish(...args) {
        phase = "done";
        // What the experiment's own on_finish throws, or its promise rejects with (a save to the lab's server that
        // the frame refuses, a helper never defined), comes after the timeline's end with every row stored: it is
        // recorded, not fatal, and the run ends (jsPsych 7 would leave run() pending for ever, 8 reject it).
        let result;
        try {
          result = own.on_finish ? own.on_finish.apply(this, args) : undefined;
        } catch (error) {
          reportError(error, false);
        } finally {
          if (finished) finished();
        }
        if (!result || typeof result.then !== "function") return result;
        return Promise.resolve(result).catch((error) => reportError(error, false));
      },
      on_trial_start(trial) {
        trialStart = clock.getTotalTime();
        seen = [];
        ended = null;
        currentTrial = recorded;
        if (starting) starting(trial);
        if (own.on_trial_start) own.on_trial_start.call(this, trial);
      },
      on_trial_finish(data) {
        if (data && replaying()) {
          checkReplayed(replay[recorded]);
          Object.assign(data, replay[recorded]);
        }
        if (own.on_trial_finish) own.on_trial_finish.call(this, data);
      },
      on_data_update(data) {
        const stored = replaying() ? replay[recorded] : null;
        // The row counts as recorded once the experiment's own on_data_update has run: what that adds to the rows
        // (addProperties) is in this row as it goes out, and is sent to the rows recorded before it alone. The row
        // goes out even if that code throws (the run stops there).
        try {
          if (own.on_data_update) own.on_data_update.call(this, data);
        } finally {
          recorded += 1;
          // A replayed row stays the stored one: what the experiment's on_data_update writes into it again (the
          // interaction data of this page load, say) was written into it before the reload, as it was then.
          if (data && stored) Object.assign(data, stored);
          // With the row, how many random values the page had drawn when the trial ended, to stand there again
          // when the row is replayed.
          const text = jsonText(data);
          recordedText.push(text);
          if (!stored) sendRow(data, text, { draws: ended === null ? random.draws : ended });
        }
      },
    };
  }

  /**
   * jsPsych 6 (jsPsych.init): the same guarantees through its own hooks. Its plugins are objects in jsPsych.plugins
   * whose trial() is wrapped as a 7/8 plugin's is; init() waits for the stored rows and for the page's load (where
   * jsPsych 6 starts anyway), so that what its first trials throw is caught here. jsPsych 6 never rejects a promise
   * when it cannot go on, so what leaves it stuck is fatal: an error thrown by a plugin's trial() or out of
   * finishTrial (the trial's on_finish, the next trial's start), and an uncaught one between a trial's start and its
   * plugin's trial() (a plugin that is not loaded, a throwing on_start). The run ends in init's on_finish, after the
   * experiment's own on_finish.
   */
  function hookSix(jsPsych) {
    const init = jsPsych.init;
    // jsPsych 6 starts another timeline when the page calls jsPsych.init again, often from its own on_finish or from
    // the answer to a request that on_finish makes (a condition from the lab's server, then the experiment proper):
    // the run ends only when a timeline ends and the page, its requests answered, starts no other.
    let inits = 0;
    function finishUnlessInitAgain() {
      const at = inits;
      whenQuiet(() => {
        if (inits === at) finish();
      });
    }
    clock = {
      getTotalTime: () => jsPsych.totalTime(),
      data: jsPsych.data,
      getCurrentTrial: () => jsPsych.currentTrial(),
    };

    function wrapSixPlugin(plugin) {
      if (!plugin || typeof plugin.trial !== "function" || wrapped.has(plugin)) return;
      wrapped.add(plugin);
      const trial = plugin.trial;
      plugin.trial = function (displayElement, parameters) {
        entering = false;
        if (!replaying()) {
          try {
            return trial.call(this, displayElement, parameters);
          } catch (error) {
            reportError(error, true);
            throw error;
          }
        }
        const data = { ...replay[recorded] };
        for (const field of JSPSYCH_FIELDS) delete data[field];
        const position = positions[recorded];
        // A microtask later, as for 7/8: jsPsych 6 starts the next trial inside finishTrial. A call-function's
        // function that throws leaves jsPsych 6 stuck, as it does live: fatal.
        Promise.resolve()
          .then(() => rerunState(plugin, parameters))
          .then(
            () => {
              if (position) random.restore(position.draws);
              jsPsych.finishTrial(data);
            },
            (error) => reportError(error, true),
          );
        return undefined;
      };
    }

    const finishTrial = jsPsych.finishTrial;
    jsPsych.finishTrial = function (...args) {
      trialEnded();
      try {
        return finishTrial.apply(this, args);
      } catch (error) {
        currentTrial = recorded; // the trial whose on_finish threw, or once its row is recorded, the next one
        reportError(error, true);
        throw error;
      }
    };
    watchEnding(jsPsych);
    watchData(jsPsych.data);
    /** @type {Promise<void>} */
    const loaded = new Promise((resolve) => {
      if (document.readyState === "complete") resolve();
      else window.addEventListener("load", () => resolve());
    });

    jsPsych.init = function (options = {}) {
      started = true;
      inits += 1;
      const settings = hooked(
        options,
        (trial) => {
          entering = true;
          wrapSixPlugin(jsPsych.plugins[trial.type]);
          if (replaying()) {
            // A replayed trial has no screen for on_load, and nothing to wait for after it.
            delete trial.on_load;
            trial.post_trial_gap = 0;
          }
        },
        finishUnlessInitAgain,
      );
      Promise.all([initialised, loaded]).then(() => {
        if (finished) {
          // ended before it started (jatos.endStudy in jatos.onLoad), or a timeline started after the run ended
          if (inits > 1) reportError(new Error("jsPsych.init was called after the run had ended: not started"), false);
          return;
        }
        dataBase = recorded; // init empties jsPsych.data: what this timeline records is its rows from here
        restoreProperties(jsPsych.data);
        for (const plugin of Object.values(jsPsych.plugins)) wrapSixPlugin(plugin);
        phase = "running";
        try {
          init.call(jsPsych, settings);
        } catch (error) {
          reportError(error, true);
          throw error;
        }
      });
    };
  }

  if (six) {
    hookSix(six);
    return;
  }

  window.initJsPsych = function initJsPsych(options = {}) {
    const jsPsych = realInit(hooked(options, null, null)); // run() resolving says finished (below)
    clock = jsPsych;
    const finishTrial = jsPsych.finishTrial;
    jsPsych.finishTrial = function (...args) {
      trialEnded();
      return finishTrial.apply(this, args);
    };
    watchEnding(jsPsych);
    watchData(jsPsych.data);
    const run = jsPsych.run.bind(jsPsych);
    jsPsych.run = async (timeline) => {
      started = true;
      await initialised;
      if (finished) return undefined; // ended before it started (jatos.endStudy in jatos.onLoad)
      restoreProperties(jsPsych.data);
      // Plugins the page loaded (globals such as jsPsychHtmlKeyboardResponse) and those the timeline names.
      for (const name of Object.keys(window)) if (/^jsPsych/.test(name)) wrapPlugin(window[name]);
      wrapTimeline(timeline);
      let result;
      try {
        phase = "running";
        result = await run(timeline);
      } catch (error) {
        reportError(error, true);
        throw error; // the experiment's own catch, if any, still sees it
      }
      finish();
      return result;
    };
    return jsPsych;
  };
})();
