// ESLint over every script the server serves (static/studyhive/, the task packages' static/) and the Node unit tests
// of them (tests/js/). The served files are classic scripts sharing one global scope per page, in the order the page
// loads them: each group below declares the globals its files read from the scripts loaded before them (and from
// jsPsych's browser builds in static/vendor/), and each file names what it leaves for the later ones in an
// `/* exported … */` comment. A name missing here is a script the page does not load first: no-undef says so.
"use strict";

const js = require("@eslint/js");
const globals = require("globals");

// What each script defines for those after it (the page's load order: server/templates/participant/).
const I18N = { StudyhiveI18n: "readonly", _: "readonly", ngettext: "readonly" };
const ESCAPE = { escapeHtml: "readonly" };
const SYNC = { StudyhiveSync: "readonly" };
const EVENTS = { StudyhiveEvents: "readonly" };
const TASKS = { StudyhiveTasks: "readonly" };
const PREVIEW = { StudyhivePreview: "readonly" };
// jsPsych 8's browser builds (static/vendor/): the library and the plugins study.html loads.
const JSPSYCH = { jsPsychModule: "readonly", initJsPsych: "readonly" };
const JSPSYCH_PLUGINS = {
  jsPsychBrowserCheck: "readonly",
  jsPsychHtmlButtonResponse: "readonly",
  jsPsychInstructions: "readonly",
  jsPsychSurveyHtmlForm: "readonly",
};

const browser = (files, own = {}, ignores = []) => ({
  files,
  ignores,
  languageOptions: { sourceType: "script", globals: { ...globals.browser, ...own } },
});

module.exports = [
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // `unused` names the parameters a callback's position needs (map((unused, i) => …)).
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^unused$", caughtErrors: "none" }],
      "prefer-const": "error",
      eqeqeq: ["error", "always", { null: "ignore" }],
    },
  },
  // study.html: jsPsych and its plugins, i18n, escape, sync, events, tasks, preview, the task type's files, runner.
  browser(["static/studyhive/i18n.js", "static/studyhive/escape.js", "static/studyhive/tasks.js"]),
  browser(["static/studyhive/sync.js"], I18N),
  browser(["static/studyhive/events.js"]),
  browser(["static/studyhive/preview.js"]),
  browser(
    ["server/tasks/*/static/*.js"],
    { ...JSPSYCH, ...JSPSYCH_PLUGINS, ...I18N, ...ESCAPE, ...TASKS },
    ["server/tasks/jspsych/static/{host,runtime,jatos,pavlovia}.js"],
  ),
  browser(["static/studyhive/runner.js"], {
    ...JSPSYCH, ...JSPSYCH_PLUGINS, ...I18N, ...ESCAPE, ...SYNC, ...EVENTS, ...TASKS, ...PREVIEW,
  }),
  // experiment.html: i18n, sync, events, host.js. The experiment's frame: jsPsych (6, 7 or 8), runtime.js, jatos.js, pavlovia.js.
  browser(["server/tasks/jspsych/static/host.js"], { ...I18N, ...SYNC, ...EVENTS }),
  browser([
    "server/tasks/jspsych/static/runtime.js",
    "server/tasks/jspsych/static/jatos.js",
    "server/tasks/jspsych/static/pavlovia.js",
  ]),
  // replay.html (the researchers' replay page).
  browser(["static/studyhive/replay.js"]),
  {
    files: ["eslint.config.js", "tests/js/**/*.js"],
    languageOptions: { sourceType: "commonjs", globals: globals.node },
  },
  { ignores: ["static/vendor/", "node_modules/", "corpus/", "bench-results/", ".venv/", ".bench-venvs/", "instance/"] },
];
