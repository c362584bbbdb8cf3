/*
 * The page's text in the study's language: the server puts the catalog's translations of every string the scripts
 * mark with _() or ngettext() into <script type="application/json" id="studyhive-i18n"> (server/i18n.py). A string
 * the catalog lacks shows as written (English). Placeholders are {name}: _("Example {n}", { n: 2 }).
 */
"use strict";
/* exported _, ngettext */

const StudyhiveI18n = (() => {
  const element = document.getElementById("studyhive-i18n");
  const catalog = element ? JSON.parse(element.textContent) : { language: "en", plural_categories: ["one", "other"], messages: {} };
  const rules = new Intl.PluralRules(catalog.language);

  const numbers = new Intl.NumberFormat(catalog.language, { maximumFractionDigits: 3 });
  // A typed number's decimal separator: "." in every language, and the language's own where it is a comma (de: 12,5).
  const comma = numbers.formatToParts(1.5).find((part) => part.type === "decimal").value === ",";
  const fill = (text, values) => (values
    ? text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole)) : text);

  return {
    language: catalog.language,
    gettext(message, values) {
      const text = catalog.messages[message];
      return fill(typeof text === "string" && text ? text : message, values);
    },
    /** A number as the language writes it (42,5 in German). */
    formatNumber(value) {
      return numbers.format(value);
    },
    /**
     * A number typed into a text field (inputmode="decimal": type=number follows the browser's locale, not the
     * study's): "12.5" everywhere, "12,5" where the language writes a decimal comma, Arabic-Indic digits and the
     * Arabic decimal separator; NaN for anything else.
     */
    parseNumber(text) {
      let plain = text.trim()
        .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
        .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
        .replace("\u066b", ".");
      if (comma) plain = plain.replace(",", ".");
      return /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)$/.test(plain) ? Number(plain) : NaN;
    },
    ngettext(singular, plural, n, values) {
      const forms = catalog.messages[singular];
      const index = Array.isArray(forms) ? catalog.plural_categories.indexOf(rules.select(n)) : -1;
      const text = index >= 0 && forms[index] ? forms[index] : n === 1 ? singular : plural;
      return fill(text, { n, ...values });
    },
  };
})();

const _ = StudyhiveI18n.gettext;
const ngettext = StudyhiveI18n.ngettext;
