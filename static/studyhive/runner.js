/*
 * Generic study runner: reads the page's config, asks the server what this session has already done, and runs
 * the rest of the study's flow (study.toml `flow`: consent, surveys, instructions, the task's trials, score, and
 * steps a task adds) as one jsPsych timeline, after a browser check.
 * Everything task-specific comes from StudyhiveTasks[config.task_type] (tasks.js). See docs/participant-api.md.
 */
"use strict";

const config = JSON.parse(document.getElementById("studyhive-config").textContent);
const display = document.getElementById("studyhive-display");
const notice = document.getElementById("studyhive-notice");

let sync = null; // StudyhiveSync, created in main()
let plan = []; // the session's plan: every trial of the study, in order
let doneCount = 0; // plan items stored on the server or waiting in the queue
let started = false; // jsPsych.run() has begun
let ended = false; // the study stopped early (exclusion, no consent, error): do not call /complete
let leaving = false; // the flow goes on in the task's own page (task.page): that page completes
// The interaction records of the task trial running now (events.js): the window's events, and the task's own input
// events through ctx.event; record() sends them with the answer.
const interactions = new StudyhiveEvents.Recorder();
StudyhiveEvents.watchWindow(interactions);
const END_REDIRECT_MS = 3000; // how long the reason for an early end shows before the page goes back to Prolific
const SESSION_ENDED = `<div class="sh-message"><p>${_("This session has ended, so no more answers can be saved.")}</p>` +
  `<p>${_("Thank you for your time. You can close this page.")}</p></div>`;
const SESSION_WITHDRAWN = `<div class="sh-message"><p>${_("You have withdrawn from this study: your answers were " +
  "deleted and no more answers are saved.")}</p><p>${_("Thank you for your time. You can close this page.")}</p></div>`;

// Must be a top-level `var`: jspsych.js leaves a throwing stub on window.jsPsych that this replaces.
var jsPsych = initJsPsych({
  display_element: display,
  show_progress_bar: true,
  auto_update_progress_bar: false, // the bar counts task trials (updateProgress), not jsPsych timeline nodes
  message_progress_bar: _("Progress"),
  on_trial_start: updateProgress,
  on_finish: finishStudy, // awaited by jsPsych
});

function setNotice(text) {
  notice.textContent = text;
  notice.hidden = !text;
}

function updateProgress() {
  if (jsPsych.progressBar && plan.length) jsPsych.progressBar.progress = doneCount / plan.length;
}

/**
 * Prolific participants who cannot take part go back to Prolific with the completion code the study has for why
 * (config.coded_ends lists the outcomes with one); without a code, they should return the study rather than submit it.
 */
function endMessage(html, outcome) {
  let next = _("You can close this page.");
  if (config.platform === "prolific") {
    next = (config.coded_ends || []).includes(outcome) ? _("Taking you back to Prolific…")
      : _("Please return this study on Prolific (do not submit it), so that the place goes to someone else.");
  }
  return `<div class="sh-message">${html}<p>${next}</p></div>`;
}

/**
 * Tells the server why the study ended early (its place is freed at once), then follows its completion URL after a
 * moment, so the participant reads why.
 */
function reportEnd(outcome) {
  return sync.postJSON("/end", { outcome })
    .then((result) => {
      if (result.redirect_url) setTimeout(() => window.location.assign(result.redirect_url), END_REDIRECT_MS);
    })
    .catch((error) => console.error(error));
}

/** Ends the study early with a message; safe before jsPsych starts, during a trial and in an on_finish. */
function stopStudy(html) {
  ended = true;
  if (started) jsPsych.abortExperiment(html);
  else display.innerHTML = html;
}

function fail(error) {
  console.error(error);
  const what = _("Something went wrong: {message}", { message: escapeHtml(error.message) });
  const reload = _("Please reload this page to try again. The answers you have given so far are saved.");
  stopStudy(`<div class="sh-message"><p class="sh-error">${what}</p><p>${reload}</p></div>`);
}

/** Awaits a server call from a trial's on_finish, saying "Saving…" only if it takes long enough to notice. */
async function saving(request) {
  const content = jsPsych.getDisplayElement();
  const text = _("Saving…");
  const timer = setTimeout(() => { content.innerHTML = `<p class="sh-message">${text}</p>`; }, 300);
  try {
    return await request;
  } finally {
    clearTimeout(timer);
    content.innerHTML = ""; // some plugins append to the display element instead of replacing its content
  }
}

/**
 * Called by a task's trial the moment an answer is submitted, before any feedback: queue it for the server with the
 * trial's interaction records (in localStorage at once, so a reload resumes after it) and move the progress bar.
 */
function record(planItem, response, rtMs) {
  sync.enqueue({
    trial_id: crypto.randomUUID(),
    trial_index: planItem.index,
    stimulus_id: planItem.stimulus_id,
    response,
    rt_ms: Math.round(rtMs),
    client_time: new Date().toISOString(),
    events: interactions.take(),
  });
  doneCount += 1;
  updateProgress();
  if (config.preview) StudyhivePreview.stored(sync, planItem.index); // the researcher bar (preview.js)
}

function browserCheck() {
  // jsPsych's own text, translated; the plugin fills in the spans with the sizes while the window is resized.
  const size = (id) => `<span id="browser-check-${id}"></span>`;
  const resize = [
    _("Your browser window is too small to complete this experiment. Please maximize the size of your browser " +
      "window. If your browser window is already maximized, you will not be able to complete this experiment."),
    _("The minimum window width is {size} px.", { size: size("min-width") }),
    _("Your current window width is {size} px.", { size: size("actual-width") }),
    _("The minimum window height is {size} px.", { size: size("min-height") }),
    _("Your current window height is {size} px.", { size: size("actual-height") }),
  ];
  return {
    type: jsPsychBrowserCheck,
    features: ["width", "height", "browser", "browser_version", "mobile", "os"],
    minimum_width: config.min_width || 0,
    minimum_height: config.min_height || 0,
    window_resize_message: resize.map((text) => `<p>${text}</p>`).join(""),
    resize_fail_button_text: _("I cannot make the window any larger"),
    exclusion_message: () => {
      ended = true;
      const sorry = _("Sorry, this study needs a larger browser window than this device can show, " +
        "so you cannot take part.");
      return endMessage(`<p>${sorry}</p>`, "incompatible_device");
    },
    on_finish: (data) => {
      if (ended) return reportEnd("incompatible_device");
      return saving(sync.putJSON("/environment", {
        screen_width: window.screen.width,
        screen_height: window.screen.height,
        window_width: data.width,
        window_height: data.height,
      })).catch(fail);
    },
  };
}

function consent() {
  return {
    type: jsPsychHtmlButtonResponse,
    stimulus: `<div class="sh-consent">${config.consent_html}</div>`,
    choices: [_("I agree"), _("I do not agree")],
    on_finish: (data) => {
      if (data.response !== 0) {
        const thanks = _("Thank you for your interest. As you did not agree to take part, the study ends here.");
        stopStudy(endMessage(`<p>${thanks}</p>`, "no_consent"));
        return reportEnd("no_consent");
      }
      return saving(sync.putJSON("/surveys/consent", { answers: { agreed: true } })).catch(fail);
    },
  };
}

function fieldHtml(field) {
  const name = escapeHtml(field.name);
  const required = field.required ? " required" : "";
  const optional = field.required ? "" : ` <span class="sh-optional">${_("(optional)")}</span>`;
  const label = escapeHtml(field.label) + optional;
  if (field.type === "choice" || field.type === "scale") {
    const values = field.type === "choice" ? field.choices
      : Array.from({ length: field.max - field.min + 1 }, (unused, i) => String(field.min + i));
    const labels = field.labels || {};
    // A choice shows its label (its value is what is stored); a scale point its number, captioned at its ends.
    const options = values.map((value) => {
      const caption = field.type === "choice" ? escapeHtml(labels[value] || value) : escapeHtml(value) +
        (labels[value] ? ` <span class="sh-scale-label">${escapeHtml(labels[value])}</span>` : "");
      return `<label class="sh-choice"><input type="radio" name="${name}" value="${escapeHtml(value)}"${required}> ` +
        `${caption}</label>`;
    });
    const layout = field.type === "scale" ? " sh-scale" : "";
    return `<fieldset class="sh-field${layout}"><legend class="sh-label">${label}</legend>${options.join("")}</fieldset>`;
  }
  const id = `sh-field-${name}`;
  const maxLength = field.max_length != null ? ` maxlength="${field.max_length}"` : "";
  let input = `<input type="text" id="${id}" name="${name}"${maxLength}${required}>`;
  if (field.type === "integer") {
    // Text, not type=number (which follows the browser's locale): parsed in parseAnswers, checked by the server.
    input = `<input type="text" inputmode="numeric" autocomplete="off" id="${id}" name="${name}"${required}>`;
  } else if (field.type === "longtext") {
    input = `<textarea id="${id}" name="${name}" rows="4"${maxLength}${required}></textarea>`;
  }
  return `<div class="sh-field"><label class="sh-label" for="${id}">${label}</label>${input}</div>`;
}

/**
 * The form gives strings; the server wants integers as numbers (typed in the study's language: i18n.js) and
 * unanswered optional fields as null. What is not a number goes as typed, for the server to say why.
 */
function parseAnswers(fields, response) {
  const answers = {};
  for (const field of fields) {
    const raw = (response[field.name] || "").trim();
    const number = field.type === "integer" || field.type === "scale" ? StudyhiveI18n.parseNumber(raw) : NaN;
    answers[field.name] = raw === "" ? null : Number.isNaN(number) ? raw : number;
  }
  return answers;
}

/** One questionnaire of the flow (definitions come from the server: server/studies/surveys.py). */
function survey(name, definition) {
  let problem = ""; // the server's objection to the last submission; the form is shown again until it is ""
  const intro = definition.intro ? `<p>${escapeHtml(definition.intro)}</p>` : "";
  return {
    timeline: [{
      type: jsPsychSurveyHtmlForm,
      preamble: () => `<h2>${escapeHtml(definition.title)}</h2>${intro}` +
        (problem ? `<p class="sh-error">${escapeHtml(problem)}</p>` : ""),
      html: `<div class="sh-form">${definition.fields.map(fieldHtml).join("")}</div>`,
      button_label: _("Continue"),
      on_finish: async (data) => {
        try {
          await saving(sync.putJSON(`/surveys/${name}`, { answers: parseAnswers(definition.fields, data.response) }));
          problem = "";
        } catch (error) {
          problem = error.message;
        }
      },
    }],
    loop_function: () => problem !== "",
  };
}

function message(html, button) {
  return { type: jsPsychHtmlButtonResponse, stimulus: `<div class="sh-message">${html}</div>`, choices: [button] };
}

/** The "score" step: the participant's own result so far, fetched once every answer has reached the server. */
function scoreStep() {
  return {
    type: jsPsychHtmlButtonResponse,
    stimulus: `<div class="sh-message"><h2>${_("Your score")}</h2><div class="sh-score"><p>${_("Calculating…")}</p>` +
      "</div></div>",
    choices: [_("Continue")],
    on_load: () => {
      const box = jsPsych.getDisplayElement().querySelector(".sh-score");
      sync.flush()
        .then(() => sync.getJSON("/summary"))
        .then((summary) => { box.innerHTML = (summary.lines || []).map((l) => `<p>${escapeHtml(l)}</p>`).join(""); })
        .catch((error) => { box.textContent = _("Your score could not be loaded ({message}).", { message: error.message }); });
    },
  };
}

function instructions(task) {
  return {
    type: jsPsychInstructions,
    pages: task.instructionsPages(config).map((page) => `<div class="sh-message">${page}</div>`),
    show_clickable_nav: true,
    button_label_previous: _("Back"),
    button_label_next: _("Next"),
  };
}

function taskTrials(task, remaining, resuming) {
  const trials = [];
  if (resuming) {
    const left = ngettext("{n} question to go.", "{n} questions to go.", remaining.length);
    trials.push(message(`<h2>${_("Welcome back")}</h2><p>${_("You will continue where you left off.")} ${left}</p>`,
      _("Continue")));
  }
  for (const item of remaining) {
    const previous = plan[plan.indexOf(item) - 1];
    if (!item.practice && previous && previous.practice) {
      const after = _("From now on you will not be shown the correct answer.");
      trials.push(message(`<h2>${_("Practice complete")}</h2><p>${after}</p>`, _("Start")));
    }
    trials.push(recorded(task.buildTrial(item, ctx)));
  }
  return trials;
}

/** A task trial whose interaction records start with it (jsPsych's on_start, before its stimulus loads). */
function recorded(trial) {
  const own = trial.on_start;
  return {
    ...trial,
    on_start: (data) => {
      interactions.start();
      if (own) own(data);
    },
  };
}

/**
 * The study's instructions as one block of HTML, for a task whose trials let the participant reopen them (HIVE: "the
 * participant can access the method description at any time during the task").
 */
function instructionsHtml() {
  return StudyhiveTasks[config.task_type].instructionsPages(config)
    .map((page) => `<section class="sh-message">${page}</section>`).join("");
}

/** A task's input event during a trial (events-format: input, change, key, pick), timed from the trial's start. */
function reportEvent(type, target, value) {
  interactions.add(type, target, value);
}

const ctx = { record, instructionsHtml, event: reportEvent };

/** The "task" step of a task with a page of its own (a researcher's jsPsych experiment): go there. */
function ownPage(task) {
  return {
    ...message(`<h2>${_("Ready")}</h2><p>${_("The experiment starts on the next page.")}</p>`, _("Start")),
    on_finish: () => {
      leaving = true;
      window.location.assign(task.page(config));
    },
  };
}

/**
 * The study's flow (study.toml `flow`) as one timeline, skipping what this session has done: answered surveys,
 * stored trials, and the steps before the task once the task has begun (instructions, a task's preview). A
 * researcher's preview that jumps (`jump`: {position, trial}) starts at that step of the flow and that trial.
 */
function buildTimeline(state, jump) {
  const task = StudyhiveTasks[config.task_type];
  if (!task) throw new Error(`This page cannot run the task type "${config.task_type}".`);
  const surveysDone = new Set(state.surveys_done);
  const finished = new Set([...state.stored_indexes, ...sync.queuedIndexes()]);
  const remaining = plan.filter((item) => !finished.has(item.index) && (!jump || item.index >= jump.trial));
  doneCount = plan.length - remaining.length;
  const taskStarted = finished.size > 0;
  const taskAt = state.flow.indexOf("task");

  /** @type {JsPsychTrial[]} */
  const timeline = jump ? [] : [browserCheck()];
  state.flow.forEach((step, position) => {
    const beforeTask = position < taskAt;
    if (jump && position < jump.position) {
      // jumped over by the researcher's preview
    } else if (step === "consent") {
      if (!surveysDone.has("consent")) timeline.push(consent());
    } else if (state.surveys[step]) {
      if (!surveysDone.has(step)) timeline.push(survey(step, state.surveys[step]));
    } else if (step === "task" && task.page) {
      timeline.push(ownPage(task));
    } else if (step === "task") {
      timeline.push(...taskTrials(task, remaining, taskStarted && remaining.length > 0));
    } else if (beforeTask && taskStarted) {
      // instructions, previews: their purpose is served once the participant has started the task
    } else if (step === "instructions") {
      timeline.push(instructions(task));
    } else if (step === "score") {
      timeline.push(scoreStep());
    } else if (task.steps && task.steps[step]) {
      timeline.push(...task.steps[step](state, ctx));
    } else {
      throw new Error(`This page cannot run the step "${step}".`);
    }
  });
  // Fetch every remaining chart now, so a connection lost later does not stop the participant.
  jsPsych.pluginAPI.preloadImages(remaining.map((item) => item.stimulus_url).filter(Boolean));
  return timeline;
}

/** The experiment's on_finish: wait until every answer is on the server, then complete and leave. */
async function finishStudy() {
  if (ended || leaving) return;
  const content = jsPsych.getDisplayElement() || display;
  content.innerHTML = `<p class="sh-message">${_("Saving your answers…")}</p>`;
  await sync.flush();
  let result;
  try {
    result = await sync.postJSON("/complete", {});
  } catch (error) {
    if (error.body && error.body.error === "trials_missing") {
      // Reloading resumes at exactly the trials the server lacks.
      const missing = _("Some of your answers did not reach us.");
      const again = _("Answer the missing questions");
      content.innerHTML = `<div class="sh-message"><p class="sh-error">${missing}</p>` +
        `<p><button type="button" class="jspsych-btn sh-primary">${again}</button></p></div>`;
      content.querySelector("button").addEventListener("click", () => window.location.reload());
    } else {
      fail(error);
    }
    return;
  }
  content.innerHTML = `<p class="sh-message">${_("Thank you! Taking you onwards…")}</p>`;
  window.location.assign(result.redirect_url || result.results_url);
}

async function main() {
  sync = new StudyhiveSync(config.api, config.token);
  sync.onstatus = (offline) => setNotice(offline
    ? _("Connection lost. Your answers are kept on this device and will be sent when you are back online. " +
      "Reconnecting…")
    : "");
  // Answers the server refuses because the session is over (excluded, ended early) stay on this device (sync.js).
  sync.onended = (answer) => stopStudy(answer.error === "session_withdrawn" ? SESSION_WITHDRAWN : SESSION_ENDED);
  sync.onrefused = (refused) => {
    if (refused.error.error === "session_ended") return;
    setNotice(_("An answer was not saved: {reason}. It is kept on this device.",
      { reason: refused.error.message || refused.status }));
  };
  display.innerHTML = `<p class="sh-message">${_("Loading…")}</p>`;
  await sync.flush(); // send answers left over from an earlier visit first, so the state below includes them
  const state = await sync.getJSON("");
  plan = state.plan;
  if (state.status === "completed") {
    await finishStudy();
    return;
  }
  if (ended || !state.accepts_answers) {
    stopStudy(state.status === "withdrawn" ? SESSION_WITHDRAWN : SESSION_ENDED);
    return;
  }
  const jump = state.preview && config.preview ? StudyhivePreview.jumpTarget(state.flow, plan) : null;
  if (jump && !state.surveys_done.includes("consent") && jump.position > state.flow.indexOf("consent")) {
    // The server takes trials and surveys only after consent: a preview that jumps past it agrees on the way.
    await sync.putJSON("/surveys/consent", { answers: { agreed: true } });
    state.surveys_done.push("consent");
  }
  const timeline = buildTimeline(state, jump);
  display.innerHTML = "";
  started = true;
  await jsPsych.run(timeline);
}

main().catch(fail);
