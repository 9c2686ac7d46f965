/* Phrase tables in five languages: the machinery the web pages and the Triplex game share.
 *
 * A table maps a key to a translation per language; a translation is a string or, for a
 * phrase that depends on a number, an object of CLDR plural categories (one, few, many,
 * other) chosen by Intl.PluralRules, so Russian gets 1 секунду, 2 секунды, 5 секунд,
 * 21 секунду without hand-written rules. `{name}` in a phrase is replaced by the parameter
 * of that name. `phrases(LANGUAGES, MESSAGES)` gives the functions for one table.
 *
 * Loads as a browser script (global `BoardlabPhrases`) and as a CommonJS module, so the
 * offline Triplex file can inline it and node can test it.
 */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.BoardlabPhrases = api;
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  /** The CLDR plural category of `n` in `lang` ("one", "few", "many", "other"...). */
  function pluralCategory(lang, n) {
    try {
      return new Intl.PluralRules(lang).select(n);
    } catch (e) {
      return n === 1 ? "one" : "other";
    }
  }

  /** Pick the form of `forms` (an object of plural categories) for `n`. */
  function plural(lang, n, forms) {
    return forms[pluralCategory(lang, n)] || forms.other;
  }

  function fill(text, params) {
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return params && params[name] !== undefined ? String(params[name]) : whole;
    });
  }

  /** The functions of one phrase table. */
  function phrases(languages, messages) {
    var supported = languages.map(function (l) { return l.code; });

    /** The first supported language of a navigator.languages list ("ru-RU" -> "ru"). */
    function pickLanguage(preferred) {
      for (var i = 0; i < (preferred || []).length; i++) {
        var primary = String(preferred[i]).toLowerCase().split(/[-_]/)[0];
        if (supported.indexOf(primary) >= 0) return primary;
      }
      return "en";
    }

    /** The phrase `key` in `lang` (English when missing), with {params} filled in; a
     * phrase with plural forms is chosen by params.n. */
    function translate(lang, key, params) {
      var entry = messages[key];
      if (!entry) return key;
      var text = entry[lang] !== undefined ? entry[lang] : entry.en;
      if (typeof text === "object") text = plural(lang, params ? params.n : 0, text);
      return fill(text, params);
    }

    /** "N seconds/minutes/hours/days ago" in `lang` for an age in seconds (the table has
     * justNow, secondsAgo, minutesAgo, hoursAgo and daysAgo). */
    function ago(lang, seconds) {
      seconds = Math.max(0, Math.floor(seconds));
      if (seconds < 5) return translate(lang, "justNow");
      if (seconds < 60) return translate(lang, "secondsAgo", { n: seconds });
      if (seconds < 3600) return translate(lang, "minutesAgo", { n: Math.floor(seconds / 60) });
      if (seconds < 86400) return translate(lang, "hoursAgo", { n: Math.floor(seconds / 3600) });
      return translate(lang, "daysAgo", { n: Math.floor(seconds / 86400) });
    }

    return { supported: supported, pickLanguage: pickLanguage, translate: translate,
      ago: ago };
  }

  return { phrases: phrases, pluralCategory: pluralCategory, plural: plural, fill: fill };
});
