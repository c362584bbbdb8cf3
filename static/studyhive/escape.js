/*
 * The participant page's one HTML escaper, used by the runner and every task plugin; the page loads it before them
 * (server/templates/participant/study.html). The study keys documented as HTML (`consent`, `instructions`) are
 * inserted as they are; every other text that reaches the page (labels, statements, questions, server messages)
 * goes through escapeHtml, so `<b>` shows as `<b>` (docs/studies.md, "HTML and text").
 */
"use strict";
/* exported escapeHtml */

/** `text` as HTML text or attribute content: & < > " ' become character references. */
function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
