/*
 * jsPsych 8 plugin "hypothesis-rating" (Two4Two-style studies) and the task's entry in StudyhiveTasks.
 * Shows an example-based explanation — a grid of images in columns by model score, scaled to fit the window (and
 * scrolled vertically only in a small one) — next to one statement about the model, rated on a 7-point scale.
 */
window.StudyhiveTasks = window.StudyhiveTasks || {};

var jsPsychHypothesisRating = (function (jspsych) {
  "use strict";

  const { ParameterType } = jspsych;
  const MIN_CELL = 48; // CSS px: the smallest image side before the grid scrolls rather than shrinks

  const info = {
    name: "hypothesis-rating",
    version: "1.0.0",
    parameters: {
      /** URL prefix of the images: an image's URL is image_base + its id. */
      image_base: { type: ParameterType.STRING, default: undefined },
      /** Image ids per column, left to right; each column top to bottom. */
      grid: { type: ParameterType.COMPLEX, default: undefined },
      /** A heading per column (e.g. the model's score range). */
      column_labels: { type: ParameterType.STRING, array: true, default: [] },
      /** The statement to rate (plain text). */
      statement: { type: ParameterType.STRING, default: undefined },
      /** The question above it (plain text). */
      question: { type: ParameterType.STRING, default: _("How much do you agree with this statement?") },
      /** Labels of the scale's ends (ratings 1 and 7). */
      scale_labels: { type: ParameterType.STRING, array: true, default: [_("Strongly disagree"), _("Strongly agree")] },
      button_label: { type: ParameterType.STRING, default: _("Next") },
      /** Largest image side, CSS px (images are never drawn larger than this). */
      max_cell: { type: ParameterType.INT, default: 160 },
      /** Called with (type, target, value) for each input event: the trial's interaction records (ctx.event). */
      on_event: { type: ParameterType.FUNCTION, default: () => {} },
    },
    data: {
      /** The rating, an integer 1–7. */
      rating: { type: ParameterType.INT },
      /** Milliseconds from the trial's start to the click on Next. */
      rt_ms: { type: ParameterType.INT },
    },
  };

  class HypothesisRatingPlugin {
    static info = info;

    constructor(jsPsych) {
      this.jsPsych = jsPsych;
    }

    trial(display_element, trial) {
      const columns = trial.grid.length;
      const heading = (i) => escapeHtml(trial.column_labels[i] || _("Column {n}", { n: i + 1 }));
      const headings = trial.grid.map((unused, i) => `<div class="sh-hr-heading">${heading(i)}</div>`).join("");
      const cells = trial.grid.map((column, c) => column.map((id, r) =>
        `<img class="sh-hr-cell" alt="" draggable="false" data-column="${c + 1}" data-row="${r + 1}" ` +
        `style="grid-column:${c + 1};grid-row:${r + 2}" src="${escapeHtml(trial.image_base + encodeURIComponent(id))}">`
      ).join("")).join("");
      const legend = escapeHtml(_("Your rating, from 1 ({low}) to 7 ({high})",
        { low: trial.scale_labels[0], high: trial.scale_labels[1] }));
      const points = [1, 2, 3, 4, 5, 6, 7].map((v) => `<label class="sh-hr-point">` +
        `<input type="radio" name="sh-hr-rating" value="${v}"><span>${v}</span></label>`).join("");
      display_element.innerHTML = `
        <div class="sh-hr">
          <div class="sh-hr-scroll"><div class="sh-hr-grid">${headings}${cells}</div></div>
          <form class="sh-hr-form" novalidate>
            <p class="sh-hr-question">${escapeHtml(trial.question)}</p>
            <p class="sh-hr-statement">${escapeHtml(trial.statement)}</p>
            <fieldset class="sh-hr-scale">
              <legend class="sh-hr-legend">${legend}</legend>
              <span class="sh-hr-end">${escapeHtml(trial.scale_labels[0])}</span>
              <span class="sh-hr-points">${points}</span>
              <span class="sh-hr-end">${escapeHtml(trial.scale_labels[1])}</span>
            </fieldset>
            <button type="submit" class="jspsych-btn sh-primary" disabled>${escapeHtml(trial.button_label)}</button>
          </form>
        </div>`;
      const scroll = display_element.querySelector(".sh-hr-scroll");
      const grid = display_element.querySelector(".sh-hr-grid");
      const form = display_element.querySelector(".sh-hr-form");
      const next = form.querySelector("button");

      // Columns share the width left beside the form and rows the window's height below the grid's top, so the
      // whole grid is in view. Only a window too small for MIN_CELL px images scrolls the box: then it takes the
      // keyboard focus (arrows and Page Down scroll it) and an arrow at its lower edge says there is more below.
      const rows = Math.max(...trial.grid.map((column) => column.length));
      const fit = () => {
        const top = scroll.getBoundingClientRect().top;
        scroll.style.maxHeight = `${Math.max(240, window.innerHeight - top - 24)}px`;
        const size = (cell) => {
          grid.style.gridTemplateColumns = `repeat(${columns}, ${Math.max(MIN_CELL, cell)}px)`;
          return Math.max(MIN_CELL, cell);
        };
        let cell = size(Math.min(trial.max_cell, Math.floor((scroll.clientWidth - 8 * (columns + 1)) / columns)));
        // Then smaller by the rows' share of what still overflows, a few times: narrower columns wrap their headings.
        for (let pass = 0; pass < 4 && cell > MIN_CELL && scroll.scrollHeight > scroll.clientHeight; pass++) {
          cell = size(cell - Math.ceil((scroll.scrollHeight - scroll.clientHeight) / rows));
        }
        if (scroll.scrollHeight > scroll.clientHeight) scroll.setAttribute("tabindex", "0");
        else scroll.removeAttribute("tabindex");
        showMore();
      };
      const showMore = () => scroll.classList.toggle("sh-hr-more",
        scroll.scrollTop + scroll.clientHeight < scroll.scrollHeight - 1);
      scroll.addEventListener("scroll", showMore);
      fit();
      window.addEventListener("resize", fit);
      // A broken image (say the connection dropped) is fetched again rather than left as a hole in the grid.
      grid.addEventListener("error", (event) => {
        const img = event.target;
        this.jsPsych.pluginAPI.setTimeout(() => {
          img.src = img.src; // eslint-disable-line no-self-assign -- setting src again loads the image again
        }, 2000);
      }, true);

      const startedAt = performance.now();
      form.addEventListener("change", (event) => {
        next.disabled = !form.querySelector("input:checked");
        trial.on_event("change", "rating", event.target.value);
      });
      let finished = false;
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const checked = form.querySelector("input:checked");
        if (finished || !checked) return; // a second click, or no rating yet
        finished = true;
        next.disabled = true;
        window.removeEventListener("resize", fit);
        this.jsPsych.finishTrial({ rating: Number(checked.value), rt_ms: Math.round(performance.now() - startedAt) });
      });
    }
  }

  return HypothesisRatingPlugin;
})(jsPsychModule);

StudyhiveTasks["hypothesis-rating"] = {
  buildTrial(planItem, ctx) {
    const shown = planItem.presented;
    return {
      type: jsPsychHypothesisRating,
      // Images are served at /stimuli/<slug>/<id>, next to this trial's own stimulus URL.
      image_base: planItem.stimulus_url.slice(0, planItem.stimulus_url.lastIndexOf("/") + 1),
      grid: shown.grid,
      column_labels: planItem.column_labels,
      statement: shown.statement_text,
      question: planItem.question,
      scale_labels: planItem.scale_labels,
      on_finish: (data) => ctx.record(planItem, { rating: data.rating }, data.rt_ms),
      on_event: ctx.event,
    };
  },

  instructionsPages(config) {
    if (config.instructions_html && config.instructions_html.length) return config.instructions_html;
    return [
      `<h2>${_("Instructions")}</h2><p>${_("You will see a grid of example images. A computer model has sorted " +
        "them into columns by its prediction: from one class on the left to the other on the right.")}</p>`,
      `<p>${_("Study the grid and form an idea of which features the model uses. Then rate, for each of a few " +
        "statements about the model, how much you agree, from 1 (strongly disagree) to 7 (strongly agree).")}</p>`,
    ];
  },
};
