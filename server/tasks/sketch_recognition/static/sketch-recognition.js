window.StudyhiveTasks = window.StudyhiveTasks || {};

/*
 * jsPsych 8 plugin "sketch-recognition" (the sketch-abstraction benchmark's recognition trial): a sketch, "What is
 * this object?", and three ranked text boxes. Typing shows the vocabulary labels that match (prefix matches first,
 * then labels with a word starting with what was typed); arrows move through them, Enter picks one, Escape closes
 * the list. Only vocabulary entries are accepted. At least one guess, at most three; each guess records the time
 * from the sketch appearing to its being picked.
 *
 * The vocabulary comes from GET /vocabulary/<slug>.json (docs/participant-api.md), fetched once per page and
 * indexed once (lowercase text and word starts), so matching 1,854 labels is a scan of precomputed strings.
 */
var jsPsychSketchRecognition = (function (jspsych) {
  "use strict";

  const { ParameterType } = jspsych;

  const info = {
    name: "sketch-recognition",
    version: "1.0.0",
    parameters: {
      /** URL of the sketch (PNG or SVG). */
      stimulus_url: { type: ParameterType.STRING, default: undefined },
      /** URL of the study's vocabulary JSON ({entries: [[unique_id, label, display], ...]}). */
      vocabulary_url: { type: ParameterType.STRING, default: undefined },
      /** The question above the boxes (plain text). */
      prompt: { type: ParameterType.STRING, default: _("What is this object?") },
      max_guesses: { type: ParameterType.INT, default: 3 },
      /** Most suggestions shown at once. */
      max_suggestions: { type: ParameterType.INT, default: 8 },
      button_label: { type: ParameterType.STRING, default: _("Next") },
      /** Called with (type, target, value) for each input event: the trial's interaction records (ctx.event). */
      on_event: { type: ParameterType.FUNCTION, default: () => {} },
    },
    data: {
      /** Ranked guesses: [{label_id, rt_ms}], rt_ms from the sketch appearing to the guess being picked. */
      guesses: { type: ParameterType.COMPLEX },
      /** Milliseconds from the sketch appearing to the click on Next. */
      rt_ms: { type: ParameterType.INT },
    },
  };

  // ------------------------------------------------------------------ the vocabulary, loaded and indexed once

  const vocabularies = new Map(); // url -> Promise<index>

  function buildIndex(json) {
    const entries = json.entries.map(([id, label, display]) => {
      const lower = display.toLowerCase();
      // Offsets where a word starts ("fishing pole" -> 0, 8), for word matches past the first.
      const starts = [];
      for (let i = 1; i < lower.length; i += 1) if (/[^a-z0-9]/.test(lower[i - 1]) && /[a-z0-9]/.test(lower[i])) starts.push(i);
      return { id, label, display, lower, starts };
    });
    entries.sort((a, b) => (a.lower < b.lower ? -1 : a.lower > b.lower ? 1 : 0));
    const byLower = new Map();
    for (const entry of entries) byLower.set(entry.lower, entry);
    return { entries, byLower };
  }

  function loadVocabulary(url) {
    if (!vocabularies.has(url)) {
      const attempt = (tries) => fetch(url, { credentials: "same-origin" })
        .then((response) => {
          if (!response.ok) throw new Error(_("the list of names could not be loaded (HTTP {status})", { status: response.status }));
          return response.json();
        })
        .then(buildIndex)
        .catch((error) => {
          if (tries >= 5) throw error;
          return new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** tries)).then(() => attempt(tries + 1));
        });
      const promise = attempt(0);
      promise.catch(() => vocabularies.delete(url)); // a later trial tries again
      vocabularies.set(url, promise);
    }
    return vocabularies.get(url);
  }

  /** Entries matching `text`: whole-label prefix matches, then word-start matches; alphabetical within each. */
  function search(index, text, limit) {
    const query = text.trim().toLowerCase().replace(/\s+/g, " ");
    if (!query) return [];
    const prefix = [];
    const word = [];
    for (const entry of index.entries) {
      if (entry.lower.startsWith(query)) prefix.push(entry);
      else if (word.length < limit && entry.starts.some((at) => entry.lower.startsWith(query, at))) word.push(entry);
      if (prefix.length >= limit) break;
    }
    return prefix.concat(word).slice(0, limit);
  }

  // ------------------------------------------------------------------ the trial

  let instance = 0; // element ids unique across trials

  class SketchRecognitionPlugin {
    static info = info;

    constructor(jsPsych) {
      this.jsPsych = jsPsych;
    }

    trial(display_element, trial) {
      instance += 1;
      const uid = `sh-sketch-${instance}`;
      const guessLabel = (i) => (i === 0 ? _("Best guess") : _("Guess {n} (optional)", { n: i + 1 }));
      const sketchAlt = _("A sketch");
      const boxes = Array.from({ length: trial.max_guesses }, (unused, i) => `
          <div class="sh-guess">
            <label for="${uid}-g${i}">${guessLabel(i)}</label>
            <input id="${uid}-g${i}" type="text" autocomplete="off" spellcheck="false" role="combobox"
                   aria-autocomplete="list" aria-expanded="false" aria-controls="${uid}-list" disabled>
          </div>`).join("");
      display_element.innerHTML = `
        <div class="sh-sketch">
          <img class="sh-sketch-image" alt="${sketchAlt}" draggable="false">
          <form class="sh-sketch-form" novalidate>
            <p class="sh-prompt" id="${uid}-prompt">${escapeHtml(trial.prompt)}</p>
            <div class="sh-guesses">${boxes}</div>
            <ul class="sh-suggestions" id="${uid}-list" role="listbox" hidden></ul>
            <p class="sh-error" role="alert"></p>
            <button type="submit" class="jspsych-btn sh-primary" disabled>${escapeHtml(trial.button_label)}</button>
          </form>
        </div>`;
      const image = display_element.querySelector(".sh-sketch-image");
      const form = display_element.querySelector("form");
      const inputs = Array.from(form.querySelectorAll("input"));
      const list = form.querySelector(".sh-suggestions");
      const error = form.querySelector(".sh-error");
      const next = form.querySelector("button");

      let index = null; // the vocabulary index, once loaded
      let shownAt = null; // when the sketch appeared
      const chosen = inputs.map(() => null); // per box: {entry, rt_ms} once a vocabulary entry is picked
      let open = null; // {box, matches, active} while the list is shown

      const ready = () => {
        if (index === null || shownAt === null) return;
        inputs.forEach((input) => { input.disabled = false; });
        next.disabled = false;
        inputs[0].focus();
      };
      error.textContent = _("Loading…");
      loadVocabulary(trial.vocabulary_url).then((loaded) => {
        index = loaded;
        error.textContent = "";
        ready();
      }, (problem) => {
        error.textContent = _("{problem}. Please reload the page; your answers so far are saved.", { problem: problem.message });
      });
      image.addEventListener("load", () => {
        if (shownAt === null) shownAt = performance.now();
        ready();
      });
      image.addEventListener("error", () => {
        error.textContent = _("The sketch could not be loaded. Retrying…");
        this.jsPsych.pluginAPI.setTimeout(() => {
          error.textContent = "";
          image.src = trial.stimulus_url;
        }, 2000);
      });
      image.src = trial.stimulus_url;

      // -------------------------------------------------------------- the suggestion list

      const close = () => {
        if (open) inputs[open.box].setAttribute("aria-expanded", "false");
        inputs.forEach((input) => input.removeAttribute("aria-activedescendant"));
        open = null;
        list.hidden = true;
        list.innerHTML = "";
      };

      const highlight = (active) => {
        open.active = active;
        Array.from(list.children).forEach((item, i) => item.setAttribute("aria-selected", String(i === active)));
        if (active >= 0) {
          inputs[open.box].setAttribute("aria-activedescendant", `${uid}-opt${active}`);
          list.children[active].scrollIntoView({ block: "nearest" });
        } else {
          inputs[open.box].removeAttribute("aria-activedescendant");
        }
      };

      const show = (box) => {
        const matches = search(index, inputs[box].value, trial.max_suggestions);
        if (!matches.length) {
          close();
          if (inputs[box].value.trim()) error.textContent = _("No name in the list starts with “{text}”.", { text: inputs[box].value.trim() });
          return;
        }
        error.textContent = "";
        list.innerHTML = matches.map((entry, i) =>
          `<li id="${uid}-opt${i}" role="option" aria-selected="false" data-i="${i}">${escapeHtml(entry.display)}</li>`).join("");
        // The list sits under the box being typed in.
        const field = inputs[box].getBoundingClientRect();
        const frame = form.getBoundingClientRect();
        list.style.left = `${field.left - frame.left}px`;
        list.style.top = `${field.bottom - frame.top}px`;
        list.style.width = `${field.width}px`;
        list.hidden = false;
        open = { box, matches, active: -1 };
        inputs[box].setAttribute("aria-expanded", "true");
        highlight(0);
      };

      const pick = (box, entry) => {
        chosen[box] = { entry, rt_ms: Math.round(performance.now() - shownAt) };
        trial.on_event("pick", `guess${box + 1}`, entry.id);
        inputs[box].value = entry.display;
        inputs[box].classList.remove("sh-invalid");
        inputs[box].setAttribute("aria-invalid", "false");
        close();
        error.textContent = "";
      };

      /** A box left with text that is not a picked entry: take an exact (case-insensitive) match, else refuse. */
      const settle = (box) => {
        const text = inputs[box].value.trim();
        if (chosen[box] && chosen[box].entry.display === inputs[box].value) return true;
        chosen[box] = null;
        if (!text) {
          inputs[box].classList.remove("sh-invalid");
          return true;
        }
        const exact = index && index.byLower.get(text.toLowerCase().replace(/\s+/g, " "));
        if (exact) {
          pick(box, exact);
          return true;
        }
        inputs[box].classList.add("sh-invalid");
        inputs[box].setAttribute("aria-invalid", "true");
        error.textContent = _("“{text}” is not in the list of names. Please pick a name from the list.", { text });
        return false;
      };

      inputs.forEach((input, box) => {
        input.addEventListener("input", () => {
          chosen[box] = null;
          input.classList.remove("sh-invalid");
          show(box);
        });
        input.addEventListener("keydown", (event) => {
          trial.on_event("key", `guess${box + 1}`, event.key); // the key's name, not the text typed so far
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            if (!open || open.box !== box) {
              show(box);
              return;
            }
            const step = event.key === "ArrowDown" ? 1 : -1;
            highlight((open.active + step + open.matches.length) % open.matches.length);
          } else if (event.key === "Enter") {
            if (open && open.box === box && open.active >= 0) {
              event.preventDefault(); // picks the suggestion; Enter with no list open submits the form
              pick(box, open.matches[open.active]);
              if (box + 1 < inputs.length) inputs[box + 1].focus();
            }
          } else if (event.key === "Escape") {
            if (open) {
              event.preventDefault();
              close();
            }
          }
        });
        input.addEventListener("blur", () => {
          // A click on a suggestion blurs the box first; the list's mousedown handler has picked by then.
          if (open && open.box === box) close();
          settle(box);
        });
      });
      // mousedown, not click: it comes before the box's blur, which would close the list under the pointer.
      list.addEventListener("mousedown", (event) => {
        const item = event.target.closest("li");
        if (!item || !open) return;
        event.preventDefault();
        const box = open.box;
        pick(box, open.matches[Number(item.dataset.i)]);
        inputs[box].focus();
      });

      // -------------------------------------------------------------- submitting

      let finished = false;
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        if (finished || next.disabled || shownAt === null || index === null) return;
        close();
        if (!inputs.every((unused, box) => settle(box))) return;
        const guesses = [];
        const seen = new Set();
        for (const pickedGuess of chosen) {
          if (!pickedGuess) continue;
          if (seen.has(pickedGuess.entry.id)) {
            error.textContent = _("You gave “{name}” twice. Please give different guesses.", { name: pickedGuess.entry.display });
            return;
          }
          seen.add(pickedGuess.entry.id);
          guesses.push({ label_id: pickedGuess.entry.id, rt_ms: pickedGuess.rt_ms });
        }
        if (!guesses.length) {
          error.textContent = _("Please give at least one guess.");
          inputs[0].focus();
          return;
        }
        finished = true;
        next.disabled = true;
        inputs.forEach((input) => { input.disabled = true; });
        this.jsPsych.finishTrial({ guesses, rt_ms: Math.round(performance.now() - shownAt) });
      });
    }
  }

  SketchRecognitionPlugin.loadVocabulary = loadVocabulary;
  SketchRecognitionPlugin.search = search;
  return SketchRecognitionPlugin;
})(jsPsychModule);

(function () {
  "use strict";

  // The page's own config (server/templates/participant/study.html) names the study.
  const pageConfig = JSON.parse(document.getElementById("studyhive-config").textContent);
  const vocabularyUrl = `/vocabulary/${encodeURIComponent(pageConfig.slug)}.json`;

  StudyhiveTasks["sketch-recognition"] = {
    buildTrial(planItem, ctx) {
      jsPsychSketchRecognition.loadVocabulary(vocabularyUrl); // starts the one fetch while the timeline is built
      return {
        type: jsPsychSketchRecognition,
        stimulus_url: planItem.stimulus_url,
        vocabulary_url: vocabularyUrl,
        on_finish: (data) => ctx.record(planItem, { guesses: data.guesses }, data.rt_ms),
        on_event: ctx.event,
      };
    },

    instructionsPages(config) {
      if (config.instructions_html && config.instructions_html.length) return config.instructions_html;
      return [
        `<h2>${_("Instructions")}</h2><p>${_("You will see a series of sketches. For each, answer <strong>What is " +
          "this object?</strong> by typing and picking a name from the list that appears.")}</p>` +
          `<p>${_("Give at least one guess and up to three, best guess first.")}</p>`,
      ];
    },
  };
})();
