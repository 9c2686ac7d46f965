// The rules page (/games/NAME/rules): the server writes the game's rules, players, options
// and sources into the page; this script only translates its labels (i18n.js, loaded
// before it) and keeps them translated when the language changes.
"use strict";
globalThis.BoardlabI18n.init();
