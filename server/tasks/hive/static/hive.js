/*
 * jsPsych 8 plugin "hive": one trial of a HIVE task (server/tasks/hive/task.py) on a photo and a model's explanations.
 *   mode "agreement":  the prediction's explanation; optional 1–4 similarity rating per prototype match; then a
 *                      4-point confidence that the prediction is correct.
 *   mode "choice":     four explanations side by side; pick one (distinction / output prediction); confidence 1–5;
 *                      optionally a 1–4 similarity rating per match of every option, and (distinction) which option
 *                      the model predicts with its own confidence, in the same trial.
 *   mode "prototree":  the path so far, then present/absent at the last two nodes, which reaches one of four
 *                      leaves; confidence 1–5.
 * Options arrive in their display order (randomised by the server at plan time). Every control is disabled after
 * the first submit, so a double click records one answer. With a `description` (the study's instructions), every
 * trial has a button that reopens it in a dialog, as HIVE lets participants read the method description at any time.
 */
/* exported jsPsychHive */
var jsPsychHive = (function (jspsych) {
  "use strict";

  const { ParameterType } = jspsych;

  const info = {
    name: "hive",
    version: "1.0.0",
    parameters: {
      mode: { type: ParameterType.STRING, default: "choice" },
      /** The "choice" question, e.g. which one is the correct class; HTML, the task type's own (hive-tasks.js). */
      question: { type: ParameterType.HTML_STRING, default: "" },
      photo_url: { type: ParameterType.STRING, default: undefined },
      /** [{key, explanation: [urls], label}] in display order. */
      options: { type: ParameterType.COMPLEX, default: [] },
      /** agreement, choice: ask a 1–4 similarity rating per explanation image (prototype match) of every option. */
      similarity_ratings: { type: ParameterType.BOOL, default: false },
      /** choice (distinction): also ask which option the model predicts, with its own confidence. */
      output_prediction: { type: ParameterType.BOOL, default: false },
      /** HTML of the method description, reopened from a button on the trial; none: no button. */
      description: { type: ParameterType.HTML_STRING, default: "" },
      /** prototree: {root, present, absent} prototype urls and the path image so far (or null). */
      nodes: { type: ParameterType.COMPLEX, default: null },
      path_url: { type: ParameterType.STRING, default: null },
      button_label: { type: ParameterType.STRING, default: _("Next") },
      /** Called with (type, target, value) for each input event: the trial's interaction records (ctx.event). */
      on_event: { type: ParameterType.FUNCTION, default: () => {} },
    },
    data: {
      /**
       * The response the server validates: {confidence, similarity?} | {choice, confidence, similarity?,
       * predicted?, predicted_confidence?} | {decisions, confidence}.
       */
      response: { type: ParameterType.COMPLEX },
      rt_ms: { type: ParameterType.INT },
    },
  };

  const AGREEMENT_SCALE = [
    [1, _("Fairly confident the prediction is correct")],
    [2, _("Somewhat confident it is correct")],
    [3, _("Somewhat confident it is incorrect")],
    [4, _("Fairly confident it is incorrect")],
  ];
  const FIVE_SCALE = [[1, _("1 not at all")], [2, "2"], [3, "3"], [4, "4"], [5, _("5 very")]];
  const SIMILARITY_SCALE = [[1, _("1 not similar")], [2, "2"], [3, "3"], [4, _("4 very similar")]];
  const similarity = (n) => _("How similar are the two parts of match {n}?", { n });
  const explanationAlt = (n) => _("Explanation {n}", { n });
  const optionTitle = (n) => _("Option {n}", { n });

  function radios(name, scale, legend) {
    const inputs = scale.map(([value, caption]) =>
      `<label class="sh-hive-radio"><input type="radio" name="${name}" value="${value}"> ${escapeHtml(caption)}</label>`);
    return `<fieldset class="sh-hive-scale" data-name="${name}"><legend>${legend}</legend>${inputs.join("")}</fieldset>`;
  }

  function explanationImages(option, cls) {
    return option.explanation.map((url, i) =>
      `<img class="${cls}" src="${escapeHtml(url)}" alt="${explanationAlt(i + 1)}" draggable="false">`).join("");
  }

  /** Radio names may not hold arbitrary keys: options are named by their index in the display order. */
  function similarityName(optionIndex, match) {
    return `similarity-${optionIndex}-${match}`;
  }

  function label(option) {
    return option.label ? `<p class="sh-hive-label">${escapeHtml(option.label)}</p>` : "";
  }

  class HivePlugin {
    static info = info;

    constructor(jsPsych) {
      this.jsPsych = jsPsych;
    }

    trial(display_element, trial) {
      const photoText = _("Photo");
      const photo = `<figure class="sh-hive-photo"><img src="${escapeHtml(trial.photo_url)}" alt="${photoText}" ` +
        `draggable="false"><figcaption>${photoText}</figcaption></figure>`;
      let body;
      if (trial.mode === "agreement") {
        const option = trial.options[0];
        const matches = option.explanation.map((url, i) => {
          const rating = trial.similarity_ratings
            ? radios(`similarity-${i}`, SIMILARITY_SCALE, similarity(i + 1)) : "";
          return `<div class="sh-hive-match"><img class="sh-hive-expl" src="${escapeHtml(url)}" ` +
            `alt="${explanationAlt(i + 1)}" draggable="false">${rating}</div>`;
        }).join("");
        const prediction = _("The model's prediction");
        body = `<div class="sh-hive-row">${photo}<div class="sh-hive-matches"><h2>${prediction}` +
          `</h2>${label(option)}${matches}</div></div>` +
          radios("confidence", AGREEMENT_SCALE, _("How confident are you that the model's prediction is correct?"));
      } else if (trial.mode === "choice") {
        // The ratings sit outside each card's label, so that rating a match does not pick the option.
        const ratings = (option, i) => trial.similarity_ratings
          ? option.explanation.map((unused, m) => radios(similarityName(i, m), SIMILARITY_SCALE,
            similarity(m + 1))).join("") : "";
        const cards = trial.options.map((option, i) =>
          `<div class="sh-hive-card"><label class="sh-hive-pick"><input type="radio" name="choice" ` +
          `value="${escapeHtml(option.key)}"><span class="sh-hive-card-title">${optionTitle(i + 1)}</span>${label(option)}` +
          `${explanationImages(option, "sh-hive-expl")}</label>${ratings(option, i)}</div>`).join("");
        const predicted = trial.output_prediction
          ? radios("predicted", trial.options.map((option, i) => [option.key, optionTitle(i + 1)]),
            _("Which option did the <strong>model choose</strong> as its prediction?")) +
            radios("predicted_confidence", FIVE_SCALE, _("How confident are you in that answer?")) : "";
        const optionsLegend = _("Options");
        body = `<div class="sh-hive-row">${photo}</div><p class="sh-prompt">${trial.question}</p>` +
          `<fieldset class="sh-hive-cards" data-name="choice"><legend class="sh-hidden">${optionsLegend}</legend>${cards}</fieldset>` +
          radios("confidence", FIVE_SCALE, _("How confident are you in your answer?")) + predicted;
      } else {
        const nodes = trial.nodes;
        const decision = (name, url, caption) =>
          `<div class="sh-hive-node" data-node="${name}"><img src="${escapeHtml(url)}" alt="${caption}" draggable="false">` +
          radios(`node-${name}`, [["present", _("Present in the photo")], ["absent", _("Absent")]], caption) + "</div>";
        const paths = [_("present, present"), _("present, absent"), _("absent, present"), _("absent, absent")];
        const leaves = trial.options.map((option, i) =>
          `<div class="sh-hive-leaf" data-leaf="${i + 1}"><span class="sh-hive-path-caption">${paths[i]}</span>` +
          `${label(option)}${explanationImages(option, "sh-hive-leaf-img")}</div>`).join("");
        const decisions = _("The model's decisions so far");
        const path = trial.path_url
          ? `<figure class="sh-hive-path"><img src="${escapeHtml(trial.path_url)}" alt="${decisions}" ` +
            `draggable="false"><figcaption>${decisions}</figcaption></figure>` : "";
        const root = decision("root", nodes.root, _("Is this part present in the photo?"));
        const ifPresent = decision("present", nodes.present, _("If present: is this part present too?"));
        const ifAbsent = decision("absent", nodes.absent, _("If absent: is this part present?"));
        body = `<div class="sh-hive-row">${photo}${path}</div>` +
          `<div class="sh-hive-tree">${root}<div class="sh-hive-second">${ifPresent}${ifAbsent}</div></div>` +
          `<div class="sh-hive-leaves">${leaves}</div>` +
          radios("confidence", FIVE_SCALE, _("How confident are you in your answer?"));
      }
      const howItWorks = _("How the model works");
      const back = _("Back to the task");
      const help = trial.description
        ? `<button type="button" class="jspsych-btn sh-hive-help">${howItWorks}</button>` : "";
      const dialog = trial.description
        ? `<dialog class="sh-hive-description" aria-label="${howItWorks}">${trial.description}` +
          `<p><button type="button" class="jspsych-btn sh-hive-close">${back}</button></p></dialog>` : "";
      display_element.innerHTML = `<form class="sh-hive" novalidate>${help}${body}` +
        '<p class="sh-error" role="alert"></p>' +
        `<button type="submit" class="jspsych-btn sh-primary">${escapeHtml(trial.button_label)}</button></form>${dialog}`;

      const form = display_element.querySelector("form");
      if (trial.description) {
        const box = display_element.querySelector("dialog.sh-hive-description");
        form.querySelector(".sh-hive-help").addEventListener("click", () => box.showModal());
        box.querySelector(".sh-hive-close").addEventListener("click", () => box.close());
      }
      const error = form.querySelector(".sh-error");
      const next = form.querySelector("button[type=submit]");
      const value = (name) => {
        const checked = form.querySelector(`input[name="${name}"]:checked`);
        return checked ? checked.value : null;
      };

      // ProtoTree: only the second node the root decision leads to is asked; the reached leaf is highlighted.
      const updateTree = () => {
        if (trial.mode !== "prototree") return;
        const root = value("node-root");
        form.querySelector(".sh-hive-second").hidden = !root;
        for (const branch of ["present", "absent"]) {
          const node = form.querySelector(`.sh-hive-node[data-node="${branch}"]`);
          // visibility, not display: the tree keeps its shape whichever branch is taken
          node.classList.toggle("sh-hive-off", root !== branch);
          node.querySelectorAll("input").forEach((input) => { input.disabled = root !== branch; });
        }
        const second = root && value(`node-${root}`);
        const leaves = { "present,present": 1, "present,absent": 2, "absent,present": 3, "absent,absent": 4 };
        const leaf = second ? leaves[`${root},${second}`] : null;
        form.querySelectorAll(".sh-hive-leaf").forEach((el) => {
          el.classList.toggle("sh-hive-reached", Number(el.dataset.leaf) === leaf);
        });
      };
      form.addEventListener("change", updateTree);
      form.addEventListener("change", (event) => trial.on_event("change", event.target.name, event.target.value));
      updateTree();

      // The clock starts when every image is on screen; Next stays disabled until then.
      const images = Array.from(form.querySelectorAll("img"));
      const pending = new Set(images.filter((img) => !img.complete || img.naturalWidth === 0));
      let shownAt = pending.size ? null : performance.now();
      next.disabled = pending.size > 0;
      for (const img of pending) {
        img.addEventListener("load", () => {
          pending.delete(img);
          if (!pending.size) { shownAt = performance.now(); next.disabled = false; }
        });
        img.addEventListener("error", () => {
          error.textContent = _("An image could not be loaded. Retrying…");
          this.jsPsych.pluginAPI.setTimeout(() => {
            error.textContent = "";
            img.src = img.src; // eslint-disable-line no-self-assign -- setting src again loads the image again
          }, 2000);
        });
      }

      let finished = false;
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        if (finished || shownAt === null || next.disabled) return;
        const confidence = value("confidence");
        let response;
        let problem = "";
        if (trial.mode === "agreement") {
          response = { confidence: Number(confidence) };
          if (trial.similarity_ratings) {
            const ratings = trial.options[0].explanation.map((unused, i) => value(`similarity-${i}`));
            if (ratings.some((r) => r === null)) problem = _("Please rate the similarity of every match.");
            response.similarity = ratings.map(Number);
          }
        } else if (trial.mode === "choice") {
          const choice = value("choice");
          if (choice === null) problem = _("Please pick one of the options.");
          response = { choice, confidence: Number(confidence) };
          if (trial.similarity_ratings) {
            const ratings = trial.options.map((option, i) =>
              option.explanation.map((unused, m) => value(similarityName(i, m))));
            if (!problem && ratings.flat().some((r) => r === null)) problem = _("Please rate the similarity of every match.");
            response.similarity = Object.fromEntries(trial.options.map((option, i) => [option.key, ratings[i].map(Number)]));
          }
          if (trial.output_prediction) {
            const predicted = value("predicted");
            const sure = value("predicted_confidence");
            if (!problem && (predicted === null || sure === null)) {
              problem = _("Please say which option the model chose, and how confident you are.");
            }
            Object.assign(response, { predicted, predicted_confidence: Number(sure) });
          }
        } else {
          const root = value("node-root");
        form.querySelector(".sh-hive-second").hidden = !root;
          const second = root && value(`node-${root}`);
          if (!root || !second) problem = _("Please decide present or absent at both questions.");
          response = { decisions: [root, second], confidence: Number(confidence) };
        }
        if (!problem && confidence === null) problem = _("Please say how confident you are.");
        if (problem) {
          error.textContent = problem;
          return;
        }
        finished = true;
        next.disabled = true;
        form.querySelectorAll("input").forEach((input) => { input.disabled = true; });
        this.jsPsych.finishTrial({ response, rt_ms: Math.round(performance.now() - shownAt) });
      });
    }
  }

  return HivePlugin;
})(jsPsychModule);
