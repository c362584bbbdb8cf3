/*
 * The researcher bar's script, on a preview session's page only (participant/preview_bar.html; docs/researchers.md,
 * "Preview"): where a jump starts the study (runner.js asks jumpTarget), and, after each stored trial, the row
 * trials.csv holds for it, from the server (GET /preview/row: the export's own code, so what is shown is what a
 * download will have).
 */
"use strict";

const StudyhivePreview = {
  /**
   * The page's `#jump=trial-N` or `#jump=step-NAME` as {position, trial}: the flow step the study starts at and the
   * first plan index of its trials; null without a jump (or one this study has no place for).
   */
  jumpTarget(flow, plan) {
    const match = /^#jump=(trial|step)-(.+)$/.exec(window.location.hash);
    if (!match) return null;
    if (match[1] === "step") {
      const position = flow.indexOf(decodeURIComponent(match[2]));
      return position < 0 ? null : { position, trial: 0 };
    }
    const trial = Number(match[2]);
    const position = flow.indexOf("task");
    if (!Number.isInteger(trial) || trial < 0 || trial >= plan.length || position < 0) return null;
    return { position, trial };
  },

  /** Trial `index` has been queued: once the server holds it, show its row as trials.csv has it. */
  stored(sync, index) {
    const body = document.querySelector("#sh-preview-row .sh-preview-row-body");
    if (!body) return;
    sync.flush()
      .then(() => sync.getJSON(`/preview/row?trial_index=${index}`))
      .then((answer) => body.replaceChildren(StudyhivePreview.table(answer)))
      .catch((error) => { body.textContent = `The row of trial ${index} could not be loaded (${error.message}).`; });
  },

  /** A table of one row's columns and values (text only: a value is never read as HTML). */
  table(answer) {
    const table = document.createElement("table");
    table.dataset.trialIndex = answer.trial_index;
    table.createCaption().textContent = `trials.csv, trial ${answer.trial_index}`;
    for (const column of answer.columns) {
      const value = answer.row[column];
      const line = table.insertRow();
      const name = document.createElement("th");
      name.scope = "row";
      name.textContent = column;
      line.append(name);
      line.insertCell().textContent = value === null ? "" : typeof value === "object" ? JSON.stringify(value) : value;
    }
    return table;
  },
};
