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

  /** The languages of every page: English, Russian, French, German and Chinese. */
  var LANGUAGES = [
    { code: "en", name: "English" },
    { code: "ru", name: "Русский" },
    { code: "fr", name: "Français" },
    { code: "de", name: "Deutsch" },
    { code: "zh", name: "中文" }
  ];

  /** "N seconds/minutes/hours/days ago", shared by every table (see `ago` below). */
  var AGO = {
    justNow: { en: "just now", ru: "только что", fr: "à l'instant", de: "gerade eben",
      zh: "刚刚" },
    secondsAgo: {
      en: { one: "{n} second ago", other: "{n} seconds ago" },
      ru: { one: "{n} секунду назад", few: "{n} секунды назад", many: "{n} секунд назад",
        other: "{n} секунды назад" },
      fr: { one: "il y a {n} seconde", other: "il y a {n} secondes" },
      de: { one: "vor {n} Sekunde", other: "vor {n} Sekunden" },
      zh: { other: "{n} 秒前" }
    },
    minutesAgo: {
      en: { one: "{n} minute ago", other: "{n} minutes ago" },
      ru: { one: "{n} минуту назад", few: "{n} минуты назад", many: "{n} минут назад",
        other: "{n} минуты назад" },
      fr: { one: "il y a {n} minute", other: "il y a {n} minutes" },
      de: { one: "vor {n} Minute", other: "vor {n} Minuten" },
      zh: { other: "{n} 分钟前" }
    },
    hoursAgo: {
      en: { one: "{n} hour ago", other: "{n} hours ago" },
      ru: { one: "{n} час назад", few: "{n} часа назад", many: "{n} часов назад",
        other: "{n} часа назад" },
      fr: { one: "il y a {n} heure", other: "il y a {n} heures" },
      de: { one: "vor {n} Stunde", other: "vor {n} Stunden" },
      zh: { other: "{n} 小时前" }
    },
    daysAgo: {
      en: { one: "{n} day ago", other: "{n} days ago" },
      ru: { one: "{n} день назад", few: "{n} дня назад", many: "{n} дней назад",
        other: "{n} дня назад" },
      fr: { one: "il y a {n} jour", other: "il y a {n} jours" },
      de: { one: "vor {n} Tag", other: "vor {n} Tagen" },
      zh: { other: "{n} 天前" }
    },
  };

  /** The functions of one phrase table; the table also gets the AGO phrases (its own
   * entries win), and `messages` is the merged table. */
  function phrases(languages, messages) {
    var supported = languages.map(function (l) { return l.code; });
    var merged = {};
    Object.keys(AGO).forEach(function (key) { merged[key] = AGO[key]; });
    Object.keys(messages).forEach(function (key) { merged[key] = messages[key]; });
    messages = merged;

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

    /** "N seconds/minutes/hours/days ago" in `lang` for an age in seconds (the AGO
     * phrases, merged into every table). */
    function ago(lang, seconds) {
      seconds = Math.max(0, Math.floor(seconds));
      if (seconds < 5) return translate(lang, "justNow");
      if (seconds < 60) return translate(lang, "secondsAgo", { n: seconds });
      if (seconds < 3600) return translate(lang, "minutesAgo", { n: Math.floor(seconds / 60) });
      if (seconds < 86400) return translate(lang, "hoursAgo", { n: Math.floor(seconds / 3600) });
      return translate(lang, "daysAgo", { n: Math.floor(seconds / 86400) });
    }

    return { supported: supported, messages: messages, pickLanguage: pickLanguage,
      translate: translate, ago: ago };
  }

  return { phrases: phrases, LANGUAGES: LANGUAGES, AGO: AGO, pluralCategory: pluralCategory, plural: plural,
    fill: fill };
});
