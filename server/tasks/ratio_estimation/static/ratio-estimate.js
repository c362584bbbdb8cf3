/*
 * jsPsych 8 plugin "ratio-estimate" and the task's entry in StudyhiveTasks: shows a chart (an SVG with viewBox
 * 0 0 100 100) and asks what percent the smaller marked bar is of the larger one. Practice trials show the correct
 * answer before moving on, once the answer has been handed to on_answer (stored).
 */
var jsPsychRatioEstimate = (function (jspsych) {
  "use strict";

  const { ParameterType } = jspsych;

  const info = {
    name: "ratio-estimate",
    version: "1.0.0",
    parameters: {
      /** URL of the chart, an SVG with viewBox 0 0 100 100. */
      stimulus_url: { type: ParameterType.STRING, default: undefined },
      /** The question shown above the answer field (plain text). */
      prompt: { type: ParameterType.STRING, default: _("What percent is the smaller marked bar of the larger one?") },
      /** Practice trials show feedback after Next. */
      practice: { type: ParameterType.BOOL, default: false },
      /** The correct answer, shown in the feedback of practice trials. */
      true_percent: { type: ParameterType.FLOAT, default: null },
      button_label: { type: ParameterType.STRING, default: _("Next") },
      /**
       * Called with the trial's data the moment the answer is submitted, before any feedback: a reload while the
       * feedback shows must not lose the answer, nor bring the trial back to be answered again knowing the truth.
       */
      on_answer: { type: ParameterType.FUNCTION, default: () => {} },
      /** Called with (type, target, value) for each input event: the trial's interaction records (ctx.event). */
      on_event: { type: ParameterType.FUNCTION, default: () => {} },
    },
    data: {
      /** The participant's answer, a number between 0 and 100. */
      response_percent: { type: ParameterType.FLOAT },
      /** Milliseconds from the chart appearing to the click on Next. */
      rt_ms: { type: ParameterType.INT },
      practice: { type: ParameterType.BOOL },
    },
  };

  /** 42.857 -> "42.9" ("42,9" in German), 40 -> "40" */
  const formatPercent = (value) => StudyhiveI18n.formatNumber(Math.round(value * 10) / 10);

  class RatioEstimatePlugin {
    static info = info;

    constructor(jsPsych) {
      this.jsPsych = jsPsych;
    }

    trial(display_element, trial) {
      const alt = _("Bar chart");
      display_element.innerHTML = `
        <div class="sh-ratio">
          <img class="sh-chart" alt="${alt}" draggable="false">
          <div class="sh-stack">
            <form class="sh-ratio-form" novalidate>
              <p class="sh-prompt" id="sh-ratio-prompt">${escapeHtml(trial.prompt)}</p>
              <div class="sh-answer">
                <input id="sh-ratio-input" type="text" inputmode="decimal" autocomplete="off"
                       aria-labelledby="sh-ratio-prompt" aria-describedby="sh-ratio-error">
                <span class="sh-unit">%</span>
              </div>
              <p class="sh-error" id="sh-ratio-error" role="alert"></p>
              <button type="submit" class="jspsych-btn sh-primary">${escapeHtml(trial.button_label)}</button>
            </form>
            <div class="sh-feedback sh-inactive" role="status"></div>
          </div>
        </div>`;
      const chart = display_element.querySelector(".sh-chart");
      const form = display_element.querySelector(".sh-ratio-form");
      const input = form.querySelector("input");
      const error = form.querySelector(".sh-error");
      const next = form.querySelector("button");
      const feedback = display_element.querySelector(".sh-feedback");

      const sizeChart = () => {
        const side = Math.round(Math.max(window.innerHeight / 3, 300));
        chart.style.width = chart.style.height = `${side}px`;
      };
      sizeChart();
      window.addEventListener("resize", sizeChart);

      // The clock starts when the chart is on screen, and Next stays disabled until then: an answer given
      // before the chart loaded would measure nothing. A failed load (say the connection dropped) is retried.
      let shownAt = null;
      next.disabled = true;
      chart.addEventListener("load", () => {
        shownAt = performance.now();
        next.disabled = false;
      });
      chart.addEventListener("error", () => {
        error.textContent = _("The chart could not be loaded. Retrying…");
        this.jsPsych.pluginAPI.setTimeout(() => {
          error.textContent = "";
          chart.src = trial.stimulus_url;
        }, 2000);
      });
      chart.src = trial.stimulus_url;
      input.focus();
      input.addEventListener("input", () => trial.on_event("input", "percent", input.value));

      let finished = false;
      const finish = (data) => {
        if (finished) return;
        finished = true;
        window.removeEventListener("resize", sizeChart);
        this.jsPsych.finishTrial(data);
      };

      // Enter in the field submits the form, the same as clicking Next.
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        if (shownAt === null || next.disabled) return; // chart not shown yet, or a second click
        const value = StudyhiveI18n.parseNumber(input.value);
        let problem = "";
        if (input.value.trim() === "") problem = _("Please enter your estimate.");
        else if (Number.isNaN(value)) problem = _("Please enter a number, for example {example}.", { example: formatPercent(42.5) });
        else if (value < 0 || value > 100) problem = _("Please enter a number between 0 and 100.");
        if (problem) {
          error.textContent = problem;
          input.focus();
          return;
        }
        const data = { response_percent: value, rt_ms: Math.round(performance.now() - shownAt), practice: trial.practice };
        next.disabled = input.disabled = true;
        error.textContent = "";
        trial.on_answer(data);
        if (!trial.practice) {
          finish(data);
          return;
        }
        let message = _("You answered {value} %.", { value: formatPercent(value) });
        if (trial.true_percent !== null) {
          message += " " + _("The correct answer was {value} %.", { value: formatPercent(trial.true_percent) });
        }
        feedback.innerHTML = `<p></p><button type="button" class="jspsych-btn sh-primary">${_("Continue")}</button>`;
        feedback.querySelector("p").textContent = message;
        // Swapped with visibility, not display: both share one grid cell, so the chart does not move.
        form.classList.add("sh-inactive");
        feedback.classList.remove("sh-inactive");
        const proceed = feedback.querySelector("button");
        proceed.addEventListener("click", () => finish(data));
        proceed.focus();
      });
    }
  }

  return RatioEstimatePlugin;
})(jsPsychModule);

StudyhiveTasks["ratio-estimation"] = {
  buildTrial(planItem, ctx) {
    return {
      type: jsPsychRatioEstimate,
      stimulus_url: planItem.stimulus_url,
      practice: planItem.practice,
      true_percent: planItem.feedback ? planItem.feedback.true_percent : null,
      on_answer: (data) => ctx.record(planItem, { percent: data.response_percent }, data.rt_ms),
      on_event: ctx.event,
    };
  },

  instructionsPages(config) {
    if (config.instructions_html && config.instructions_html.length) return config.instructions_html;
    return [
      `<h2>${_("Instructions")}</h2><p>${_("You will see a series of bar charts. In each chart, two bars are marked.")}</p>` +
        `<p>${_("Your task is to estimate what percent the <strong>smaller</strong> marked bar is of the " +
        "<strong>larger</strong> one, and type that number.")}</p>`,
      `<p>${_("For example, if the smaller bar is half as tall as the larger one, the answer is 50.")}</p>` +
        `<p>${_("Please make quick, honest estimates; do not measure the bars. The first few charts are practice " +
        "and show you the correct answer afterwards.")}</p>`,
    ];
  },
};
