/*
 * A researcher's jsPsych experiment in studyhive's own page: the flow's steps before it (browser check, consent,
 * surveys, instructions) run here, then its "task" step goes on to the experiment's page (host.js).
 */
StudyhiveTasks.jspsych = {
  instructionsPages: (config) => config.instructions_html,
  buildTrial() {
    throw new Error("A jsPsych experiment has no planned trials.");
  },
  page: (config) =>
    `/study/${encodeURIComponent(config.slug)}/s/${encodeURIComponent(config.token)}/experiment`,
};
