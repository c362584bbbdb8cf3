// The sandboxed frame a researcher's jsPsych experiment runs in (runtime.js, jatos.js, pavlovia.js): what the experiment's own
// jsPsych (6, 7 or 8, whichever it loads) leaves on its window, found at run time; and the events jatos.js sends
// runtime.js.
interface Window {
  /** jsPsych 7 and 8. */
  initJsPsych?: (options?: object) => any;
  /** jsPsych 6's one global object (its init() starts the timeline). */
  jsPsych?: any;
  /** studyhive's stand-in for JATOS's object (jatos.js). */
  jatos?: object;
  /** jsPsych 7 and 8's module global, whose ParameterType plugins name (pavlovia.js). */
  jsPsychModule?: any;
}

interface WindowEventMap {
  /** The experiment ended its JATOS study (jatos.js): successfully or not, with its message. */
  "studyhive:jatos-end": CustomEvent<{ successful: boolean; message: string | null }>;
  /** The experiment called a part of JATOS studyhive does not offer: the error its refused call rejects with. */
  "studyhive:jatos-refused": CustomEvent<{ error: Error }>;
}

interface String {
  /** ES2024, missing from older browsers: runtime.js checks for it. */
  toWellFormed?(): string;
}
