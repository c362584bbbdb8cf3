/*
 * HIVE task types (server/tasks/hive/task.py) for the generic runner: one trial per plan item through the "hive" plugin,
 * default instructions per explanation method, and the "preview" step (one correct and one incorrect example,
 * taken from the first plan item's `preview`). Every trial can reopen the instructions (the method description).
 */
/* global jsPsychHive -- hive.js, which the page loads first (task.py `assets`) */
window.StudyhiveTasks = window.StudyhiveTasks || {};

(function () {
  "use strict";

  const METHOD_TEXT = {
    gradcam: _("For each kind of object it considers, the model shows a heatmap: the red and yellow parts of the " +
      "photo are the parts it looked at most."),
    bagnet: _("The model colors the small pieces of the photo that speak for each kind of object (more red: " +
      "stronger evidence), adds the evidence up, and guesses the kind with the most."),
    protopnet: _("The model has learned example parts from previously-seen photos. It finds the parts of the " +
      "photo most like its examples and picks the kind whose examples match best."),
    prototree: _("The model asks a series of questions: is this example part from previously-seen photos present " +
      "in the photo, or absent? The answers lead to its final answer."),
  };

  const QUESTIONS = {
    "hive-distinction": _("Which option is the <strong>correct</strong> answer for this photo?"),
    "hive-output-prediction": _("Which option did the <strong>model choose</strong> as its prediction?"),
  };

  function mode(taskType) {
    if (taskType === "hive-agreement") return "agreement";
    if (taskType === "hive-prototree") return "prototree";
    return "choice";
  }

  function register(taskType) {
    StudyhiveTasks[taskType] = {
      buildTrial(planItem, ctx) {
        return {
          type: jsPsychHive,
          mode: mode(taskType),
          question: QUESTIONS[taskType] || "",
          photo_url: planItem.photo_url,
          options: planItem.options,
          similarity_ratings: Boolean(planItem.similarity_ratings),
          output_prediction: Boolean(planItem.output_prediction),
          description: ctx.instructionsHtml(),
          nodes: planItem.nodes || null,
          path_url: planItem.path_url || null,
          on_finish: (data) => ctx.record(planItem, data.response, data.rt_ms),
          on_event: ctx.event,
        };
      },

      instructionsPages(config) {
        if (config.instructions_html && config.instructions_html.length) return config.instructions_html;
        const decides = _("How the model decides");
        const guesses = _("A computer model looks at a photo and guesses what it shows.");
        const yours = _("Your task");
        const answer = _("You will see the model's explanations and answer a question about each photo.");
        return [`<h2>${decides}</h2><p>${guesses}</p>`, `<h2>${yours}</h2><p>${answer}</p>`];
      },

      steps: {
        /** One correct and one incorrect example, shown the way the task shows them, with the outcome told. */
        preview(state) {
          const examples = (state.plan[0] && state.plan[0].preview) || [];
          return examples.map((example, i) => {
            const method = METHOD_TEXT[example.method] || "";
            const outcome = example.model_correct
              ? _("In this example the model's prediction was <strong>correct</strong>.")
              : _("In this example the model's prediction was <strong>wrong</strong>.");
            const badges = (option) => [
              option.key === example.predicted_key ? _("the model's prediction") : "",
              option.key === example.truth_key ? _("the correct answer") : "",
            ].filter(Boolean).map((text) => `<span class="sh-hive-badge">${text}</span>`).join(" ");
            const explanation = _("Explanation");
            const options = example.options.map((option, n) =>
              '<div class="sh-hive-card"><span class="sh-hive-card-title">' +
              (example.options.length > 1 ? _("Option {n}", { n: n + 1 }) : _("Prediction")) + "</span>" +
              `<p>${badges(option)}</p>` +
              (option.label ? `<p class="sh-hive-label">${escapeHtml(option.label)}</p>` : "") +
              option.explanation.map((url) => `<img class="sh-hive-expl" src="${escapeHtml(url)}" alt="${explanation}">`).join("") +
              "</div>").join("");
            const heading = _("Example {n} of {total}", { n: i + 1, total: examples.length });
            const photo = _("Photo");
            return {
              type: jsPsychHtmlButtonResponse,
              stimulus: `<div class="sh-message sh-hive-preview"><h2>${heading}</h2>` +
                `<p>${escapeHtml(method)}</p><p>${outcome}</p>` +
                `<div class="sh-hive-row"><figure class="sh-hive-photo"><img src="${escapeHtml(example.photo_url)}" alt="${photo}">` +
                `<figcaption>${photo}</figcaption></figure></div><div class="sh-hive-cards">${options}</div></div>`,
              choices: [_("Continue")],
            };
          });
        },
      },
    };
  }

  ["hive-agreement", "hive-distinction", "hive-output-prediction", "hive-prototree"].forEach(register);
})();
