// The globals jsPsych 8's browser builds (static/vendor/, served before studyhive's scripts) define on the study
// page, typed by the npm packages they are copied from (package.json pins them).
declare var jsPsychModule: typeof import("jspsych");
declare var initJsPsych: typeof import("jspsych").initJsPsych;
declare var jsPsychBrowserCheck: typeof import("@jspsych/plugin-browser-check").default;
declare var jsPsychHtmlButtonResponse: typeof import("@jspsych/plugin-html-button-response").default;
declare var jsPsychInstructions: typeof import("@jspsych/plugin-instructions").default;
declare var jsPsychSurveyHtmlForm: typeof import("@jspsych/plugin-survey-html-form").default;

/** What jsPsych.run takes: a timeline, or an array of trials and timelines. */
type JsPsychTimeline = Parameters<import("jspsych").JsPsych["run"]>[0];
/** A trial or a timeline, as one entry of a timeline's array. */
type JsPsychTrial = Extract<JsPsychTimeline, unknown[]>[number];
