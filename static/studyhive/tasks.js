/*
 * Task registry. The runner (runner.js) knows nothing about any particular task: it looks up
 * StudyhiveTasks[config.task_type] and asks it for
 *   buildTrial(planItem, ctx) -> a jsPsych trial that calls ctx.record(planItem, response, rt_ms) the moment the
 *                                participant submits the answer, before showing anything that could sway it (a
 *                                practice trial's correct answer): record() queues it in localStorage at once, so
 *                                a reload from then on resumes at the next trial.
 *                                `response` is what the server's task type validates. ctx.instructionsHtml()
 *                                gives the instructions pages as one HTML block, for trials that reopen them.
 *   instructionsPages(config) -> the HTML pages shown before the first trial.
 *   steps (optional)          -> {name: (state, ctx) -> [jsPsych trials]} for flow steps the task adds
 *                                (server side: TaskType.steps), e.g. a preview of examples.
 * Each task type registers itself from its own files (its package's static/ folder, server/tasks/<type>/), which
 * the page loads after this one. Text goes into their markup through escapeHtml (escape.js).
 */

/**
 * @typedef {object} StudyhiveTaskContext What the runner gives a task's trials (runner.js `ctx`).
 * @property {(planItem: object, response: unknown, rtMs: number) => void} record
 * @property {() => string} instructionsHtml
 * @property {(type: string, target?: string | null, value?: unknown) => void} event
 *
 * @typedef {object} StudyhiveTask A task type's entry.
 * @property {(planItem: any, ctx: StudyhiveTaskContext) => JsPsychTrial} buildTrial
 * @property {(config: any) => string[]} instructionsPages
 * @property {Record<string, (state: any, ctx: StudyhiveTaskContext) => JsPsychTrial[]>} [steps]
 * @property {(config: any) => string} [page] The address of the task's own page, for a task that has one.
 */
window.StudyhiveTasks = window.StudyhiveTasks || {};
