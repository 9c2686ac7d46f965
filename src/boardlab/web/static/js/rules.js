// The rules page (/games/NAME/rules): the server writes the game's rules, players, options
// and sources into the page; this script only translates its labels (i18n.js, loaded
// before it) and keeps them translated when the language changes.
"use strict";
const i18n = globalThis.BoardlabI18n;
// What the server names (a registered game's title, players, options and their help) is
// marked data-phrase: shown in the reader's language where the table has the phrase,
// as the server wrote it where it has none.
for (const element of document.querySelectorAll("[data-phrase]")) {
  i18n.setPhrase(element, element.dataset.phrase, element.textContent);
}
// A choice's label is shown beside its value only where it says more than the value.
function relabel() {
  const heading = document.getElementById("title");
  document.title = `${heading.textContent} – boardlab`;
  for (const label of document.querySelectorAll("[data-choice]")) {
    const value = label.previousElementSibling.textContent;
    const text = i18n.phrase(label.dataset.choice, value);
    label.textContent = ` (${text})`;
    label.hidden = text === value;
  }
}
i18n.onChange(relabel);
i18n.init();
relabel();
