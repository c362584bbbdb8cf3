/*
 * Task registry. The runner (runner.js) knows nothing about any particular task: it looks up
 * StudyhiveTasks[config.task_type] and asks it for
 *   buildTrial(planItem, ctx) -> a jsPsych trial that calls ctx.record(planItem, response, rt_ms) when done;
 *                                `response` is what the server's task type validates.
 *   instructionsPages(config) -> the HTML pages shown before the first trial.
 *   steps (optional)          -> {name: (state, ctx) -> [jsPsych trials]} for flow steps the task adds
 *                                (server side: TaskType.steps), e.g. a preview of examples.
 * Other task types register themselves the same way from their own files.
 */
window.StudyhiveTasks = window.StudyhiveTasks || {};

StudyhiveTasks["ratio-estimation"] = {
  buildTrial(planItem, ctx) {
    return {
      type: jsPsychRatioEstimate,
      stimulus_url: planItem.stimulus_url,
      practice: planItem.practice,
      true_percent: planItem.feedback ? planItem.feedback.true_percent : null,
      on_finish: (data) => ctx.record(planItem, { percent: data.response_percent }, data.rt_ms),
    };
  },

  instructionsPages(config) {
    if (config.instructions_html && config.instructions_html.length) return config.instructions_html;
    return [
      "<h2>Instructions</h2><p>You will see a series of bar charts. In each chart, two bars are marked.</p>" +
        "<p>Your task is to estimate what percent the <strong>smaller</strong> marked bar is of the " +
        "<strong>larger</strong> one, and type that number.</p>",
      "<p>For example, if the smaller bar is half as tall as the larger one, the answer is 50.</p>" +
        "<p>Please make quick, honest estimates; do not measure the bars. The first few charts are practice " +
        "and show you the correct answer afterwards.</p>",
    ];
  },
};
