// This browser's seat token: one secret, made here once and kept in localStorage, that
// the server hashes into every seat this browser takes (creating a match, joining one).
// Every API call presents it (Authorization: Bearer), so only this browser moves for its
// seats; another browser, or a private window, is someone else.
"use strict";

(() => {
  const KEY = "boardlab.seatToken";

  function make() {
    const bytes = new Uint8Array(24);
    crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
      .replace(/=+$/, "");
  }

  function token() {
    let value = null;
    try {
      value = localStorage.getItem(KEY);
      if (!value || value.length < 16) {
        value = make();
        localStorage.setItem(KEY, value);
      }
    } catch (_) {
      // storage refused (a locked-down browser): a token for this page's life only
      value = value || globalThis.__boardlabToken || (globalThis.__boardlabToken = make());
    }
    return value;
  }

  // fetch() options with this browser's token added to their headers
  function authorize(options = {}) {
    return {...options, headers: {...(options.headers || {}),
      Authorization: `Bearer ${token()}`}};
  }

  globalThis.BoardlabSeat = {token, authorize};
})();
