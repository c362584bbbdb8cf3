/*
 * studyhive's own `jatos` object, served in place of an experiment's <script src="…jatos.js"> tag (experiment.py):
 * the calls jsPsych experiments written for JATOS make, mapped onto studyhive's session (docs/own-experiments.md,
 * "Experiments written for JATOS").
 *
 * - Result data (submitResultData, appendResultData) is answered as saved and not stored again: every row jsPsych
 *   records is already stored as its trial ends (runtime.js). The callbacks and promises run as JATOS 3.x runs them.
 * - Ending the study (endStudy, endStudyAjax, endStudyAndRedirect, startNextComponent, startLastComponent) ends the
 *   run through the runtime ("studyhive:jatos-end"): successful (the default) is the timeline's natural end,
 *   unsuccessful an early end with the message, which study.toml's [[task.endings]] read. A redirect is never
 *   followed: studyhive's page goes on to its Continue button and the session's outcome.
 * - Reads: the frame URL's query (the entry link's), empty study and batch session data, and for the study result
 *   and the worker the session's seed (runtime.js), pseudonymous and the same after a reload, never its token. The
 *   study's, component's and batch's JSON inputs are study.toml's [task.jatos], which sync puts on this script's tag
 *   (data-studyhive-jatos), else JATOS's default `{}`.
 * - Anything else of JATOS's is refused: a console error naming it, reported once to the page as an error of the
 *   experiment that does not stop it ("studyhive:jatos-refused"). A refused function returns a promise rejected
 *   with that error, as JATOS's calls answer a failed request, so an experiment's `.then(…)` after one skips to its
 *   `.catch` or on, where `undefined` would throw a TypeError in the middle of its code (a trial's on_finish).
 */
(function () {
  "use strict";
  const seed = new URLSearchParams(window.location.hash.slice(1)).get("seed") || "";
  /** @type {Map<string, Error>} each refused name's error, made and reported once */
  const refusedNames = new Map();
  const script = document.currentScript;
  /** @type {Record<string, unknown>} */
  const inputs = JSON.parse((script && script.getAttribute("data-studyhive-jatos")) || "{}");
  const studyInput = "study_input" in inputs ? inputs.study_input : {};
  const componentInput = "component_input" in inputs ? inputs.component_input : {};
  const batchInput = "batch_input" in inputs ? inputs.batch_input : {};

  function refuse(name) {
    const known = refusedNames.get(name);
    if (known) return known;
    const error = new Error(`jatos.${name} is not available on studyhive (docs/own-experiments.md: "written for JATOS")`);
    refusedNames.set(name, error);
    console.error(`studyhive: ${error.message}`);
    window.dispatchEvent(new CustomEvent("studyhive:jatos-refused", { detail: { error } }));
    return error;
  }

  // JATOS's values (not functions) studyhive has no counterpart of: a refused one reads as undefined, as a missing
  // value would, so that it is not stored as a function's text (jatos.js 3.x's names).
  const FIELDS = new Set(
    (
      "version studyId studyProperties studyLength studyCode componentId componentPos componentProperties " +
      "componentList componentResultId batchId batchProperties workerType groupMemberId groupResultId groupMembers " +
      "groupChannels isLocalhost httpTimeout httpRetry httpRetryWait channelHeartbeatInterval"
    ).split(" "),
  );

  /** `known` with every other property refused: a refused value reads as undefined, any other as a function that
   * does nothing and returns a rejected promise (failed). */
  function refusing(known, prefix) {
    return new Proxy(known, {
      get(target, name, receiver) {
        if (typeof name === "symbol" || name in target || name === "then" || name === "toJSON") {
          return Reflect.get(target, name, receiver);
        }
        const error = refuse(prefix + name);
        return FIELDS.has(name) ? undefined : () => failed(error);
      },
    });
  }

  /**
   * `promise` with the done, fail and always of the jQuery promises some JATOS 3.x versions return: each calls its
   * callback when the promise settles that way, and returns the promise.
   * @template T
   * @param {Promise<T>} promise
   */
  function jqueryLike(promise) {
    /** @param {unknown} callback */
    const call = (callback) => (/** @type {unknown} */ value) =>
      typeof callback === "function" ? callback(value) : undefined;
    /** @type {Promise<T> & Record<"done" | "fail" | "always", (callback: unknown) => Promise<T>>} */
    const answer = Object.assign(promise, {
      done: (callback) => (promise.then(call(callback)), answer),
      fail: (callback) => (promise.catch(call(callback)), answer),
      always: (callback) => (promise.then(call(callback), call(callback)), answer),
    });
    return answer;
  }

  /** What JATOS 3.x answers a transfer that succeeded: onSuccess called, then a resolved promise. */
  function succeeded(onSuccess) {
    return jqueryLike(Promise.resolve().then(() => (typeof onSuccess === "function" ? onSuccess() : undefined)));
  }

  /** What JATOS 3.x answers a transfer that failed: a promise rejected with `error`. The runtime has reported that
   * error already: a rejection nobody handles reports nothing more. */
  function failed(error) {
    return jqueryLike(Promise.reject(error));
  }

  function end(successful, message) {
    const detail = { successful: successful !== false, message: typeof message === "string" ? message : null };
    window.dispatchEvent(new CustomEvent("studyhive:jatos-end", { detail }));
    return succeeded();
  }

  /** endStudy's and endStudyAjax's arguments as JATOS reads them: (successful, message …) or (resultData, successful,
   * message …); the result data is not stored again. */
  function endWith(first, second, third) {
    if (typeof first === "boolean") return end(first, second);
    if (typeof first === "string" || typeof first === "object") return end(second, third);
    return end(true, null);
  }

  function onLoad(callback) {
    // JATOS calls it once its own start-up requests are answered, by when the scripts a page adds from JavaScript
    // (which DOMContentLoaded does not wait for, and JATOS templates load their code with) are there too; the
    // window's load waits for them. The runtime comes right after jsPsych's script: it is ready before that.
    if (document.readyState === "complete") setTimeout(() => callback());
    else window.addEventListener("load", () => callback());
  }

  window.jatos = refusing(
    {
      onLoad,
      onload: onLoad,
      onError() {}, // studyhive's answers never fail
      submitResultData: (data, onSuccess) => succeeded(onSuccess),
      appendResultData: (data, onSuccess) => succeeded(onSuccess),
      startNextComponent: () => end(true, null),
      startLastComponent: () => end(true, null),
      endStudy: endWith,
      endStudyAjax: endWith,
      endStudyAndRedirect: (url, ...rest) => endWith(...rest),
      urlQueryParameters: Object.fromEntries(new URLSearchParams(window.location.search)),
      studySessionData: {},
      batchSession: refusing({ get: () => undefined, getAll: () => ({}) }, "batchSession."),
      studyResultId: seed,
      workerId: seed,
      studyInput,
      studyJsonInput: studyInput,
      componentInput,
      componentJsonInput: componentInput,
      batchInput,
      batchJsonInput: batchInput,
    },
    "",
  );
})();
