/*
 * studyhive's stand-in for Pavlovia's jsPsych plugin (jspsych-pavlovia-<version>.js for jsPsych 6,
 * jspsych-7-pavlovia-<version>.js for 7 and 8), served in place of the experiment's tag (experiment.py): its "init"
 * and "finish" trials, which on Pavlovia open a session on pavlovia.org and upload jsPsych's data as CSV, end at once
 * here, recording the row the plugin records (no data of its own). studyhive stores every row as its trial ends, so
 * "finish" has nothing left to upload; the frame reaches no other host, so the real plugin's requests would fail and
 * its error page would replace the experiment (docs/own-experiments.md, "Experiments written for Pavlovia").
 */
(function () {
  "use strict";
  const COMMANDS = new Set(["init", "finish"]);

  /** @param {{command?: unknown}} trial */
  function said(trial) {
    const command = String(trial.command ?? "init").toLowerCase();
    if (!COMMANDS.has(command)) console.error(`studyhive: the Pavlovia plugin has no command ${command}`);
  }

  /**
   * The plugin's parameters, Pavlovia's (accepted, none used), in the parameter types of the jsPsych loaded.
   * @param {any} type
   */
  function parameters(type) {
    return {
      command: { type: type.STRING, default: "init" },
      participantId: { type: type.STRING, default: "PARTICIPANT" },
      errorCallback: { type: type.FUNCTION, default: null },
      dataFilter: { type: type.FUNCTION, default: null },
      completedCallback: { type: type.FUNCTION, default: null },
      setPavloviaInfo: { type: type.FUNCTION, default: null },
    };
  }

  const modern = window.jsPsychModule;
  if (modern) {
    class PavloviaPlugin {
      /** @param {any} jsPsych */
      constructor(jsPsych) {
        this.jsPsych = jsPsych;
      }

      /** @param {HTMLElement} displayElement @param {{command?: unknown}} trial */
      trial(displayElement, trial) {
        said(trial);
        this.jsPsych.finishTrial();
      }
    }
    /** @type {any} */ (PavloviaPlugin).info = { name: "pavlovia", parameters: parameters(modern.ParameterType) };
    /** @type {any} */ (window).jsPsychPavlovia = PavloviaPlugin;
  } else if (window.jsPsych && window.jsPsych.plugins) {
    const jsPsych = window.jsPsych;
    jsPsych.plugins.pavlovia = {
      info: { name: "pavlovia", parameters: parameters(jsPsych.plugins.parameterType) },
      /** @param {HTMLElement} displayElement @param {{command?: unknown}} trial */
      trial(displayElement, trial) {
        said(trial);
        jsPsych.finishTrial();
      },
    };
  }
})();
