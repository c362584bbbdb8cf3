// The researchers' replay page (server/templates/researcher/replay.html): one stored trial at a time. Without
// this script every trial shows, one below the other.
(function () {
  "use strict";
  const steps = /** @type {HTMLElement[]} */ (Array.from(document.querySelectorAll(".replay-step")));
  const prev = /** @type {HTMLButtonElement} */ (document.getElementById("replay-prev"));
  const next = /** @type {HTMLButtonElement} */ (document.getElementById("replay-next"));
  const position = document.getElementById("replay-position");
  let current = 0;

  function show(index) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    steps.forEach((step, n) => { step.hidden = n !== current; });
    position.textContent = `Trial ${current + 1} of ${steps.length}`;
    prev.disabled = current === 0;
    next.disabled = current === steps.length - 1;
    // The address names the trial, so a reload or a shared link opens it again.
    history.replaceState(null, "", `#${steps[current].id}`);
  }

  prev.addEventListener("click", () => show(current - 1));
  next.addEventListener("click", () => show(current + 1));
  document.addEventListener("keydown", (event) => {
    const target = /** @type {Element} */ (event.target);
    if (event.altKey || event.ctrlKey || event.metaKey || target.closest("input, textarea, select")) return;
    const moves = {
      ArrowRight: current + 1, j: current + 1, PageDown: current + 1,
      ArrowLeft: current - 1, k: current - 1, PageUp: current - 1,
      Home: 0, End: steps.length - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      show(moves[event.key]);
    }
  });
  // The trial the address names (a reload, a shared link, an edited #trial-N), else the first.
  function showLinked() {
    const linked = steps.findIndex((step) => `#${step.id}` === window.location.hash);
    show(linked < 0 ? 0 : linked);
  }
  window.addEventListener("hashchange", showLinked);
  showLinked();
})();
