/* Triplex: the browser page (DOM, pointer input, saving, languages, leaderboard).
 *
 * The rules and the logic live in triplex.js (TriplexLogic) and the strings in the phrase
 * table every page shares (../js/i18n.js, BoardlabI18n: its language is the one the lobby
 * remembers); this file only wires them to the page. Behaviour asked for by the seed
 * article's players (in its comments; docs/triplex.md): "solved" is decided from the
 * cover of the board after every move, so swapped identical pieces and an unturned rotatable
 * piece count, and nothing waits for an extra click; the game saves itself every 10 s and
 * after every move; (level number, code) restores progress on another device.
 *
 * Leaderboard calls (only when a server is configured or the page is served over HTTP;
 * docs/web.md has them in full):
 *   POST {server}/api/triplex/packs/{pack}/levels/{level}/start  {"unlock": code}
 *        -> {"token": ...}: asked when a level is opened and kept with the level (across
 *        reloads, until it expires), since the server times the solve from it;
 *   GET  {server}/api/leaderboard/{pack}/{level} -> {"first": {"name", "ago_seconds"} |
 *        null, "solves", "median_seconds", "best_seconds", ...}
 *   POST {server}/api/leaderboard/{pack}/{level}  {"name", "token", "seconds",
 *        "unlock": "XXXX-XXXX", "solution": "abbc/aacc"} -> {"accepted", "seconds", ...}
 *   POST {server}/api/triplex/progress/save and .../load  {"name", "secret", "pack",
 *        "level", "code"}: progress kept on the server behind a name and a secret.
 * where {pack} is the pack's salt in hex, unlock is the code that opened the level and
 * solution the board's canonical solution text: the server checks the solution against
 * the level itself (a checksum alone can be computed by anyone holding the file).
 * Names are shown with textContent only, never as HTML. A leaderboard failure never
 * stops the game: the page shows "offline". A solve without a name is only verified and
 * its clock stopped (recorded once the name is given); a refused submission says why,
 * and one refused for too many requests is sent again later.
 */
(function () {
  "use strict";
  var L = window.TriplexLogic, I = window.BoardlabI18n;
  var $ = function (id) { return document.getElementById(id); };
  // The language this page chose before every page shared one (its old key), kept once.
  var OLD_LANGUAGE_KEY = "boardlab-triplex:language";
  try {
    var old = window.localStorage.getItem(OLD_LANGUAGE_KEY);
    if (old && !window.localStorage.getItem(I.STORAGE_KEY)) {
      window.localStorage.setItem(I.STORAGE_KEY, old);
    }
  } catch (e) { /* file:// pages of some browsers have no localStorage */ }
  I.init();

  var config = JSON.parse($("triplex-config").textContent);
  var pack;
  try {
    pack = L.readPack(JSON.parse($("triplex-pack").textContent));
  } catch (e) {
    $("message").textContent = I.t("loadError");
    return;
  }
  var total = pack.levels.length;
  var STORE_KEY = "boardlab-triplex:" + pack.saltHex;
  var server = config.server ||
    (/^https?:$/.test(location.protocol) ? location.origin : null);
  var online = false;

  // -- storage (guarded: some browsers refuse localStorage on file:// pages) ---------------

  function readStore(key) {
    try {
      return window.localStorage.getItem(key);
    } catch (e) {
      return null;
    }
  }

  function writeStore(key, value) {
    try {
      window.localStorage.setItem(key, value);
    } catch (e) { /* private mode or quota: the game goes on unsaved */ }
  }

  function freshLevel(code) {
    return { code: code, placements: null, turns: {}, elapsed: 0, solved: null };
  }

  function loadState() {
    var state = null;
    try {
      state = JSON.parse(readStore(STORE_KEY) || "null");
    } catch (e) { state = null; }
    if (!state || state.version !== 1 || typeof state.levels !== "object") {
      state = { version: 1, current: 1, name: "", levels: {} };
    }
    if (!state.levels["1"] || !state.levels["1"].code) {
      state.levels["1"] = freshLevel(L.firstCode(pack));
    }
    if (!(state.current >= 1 && state.current <= total) ||
        !(state.levels[state.current] && state.levels[state.current].code)) {
      state.current = 1;
    }
    return state;
  }

  var state = loadState();
  var puzzle = null;
  var lastTick = Date.now();

  function save() {
    writeStore(STORE_KEY, JSON.stringify(state));
  }

  function tr(key, params) {
    return I.t(key, params);
  }

  function duration(seconds) {
    return I.durationIn(I.language(), seconds);
  }

  // -- the current level --------------------------------------------------------------------

  function current() {
    return state.levels[state.current];
  }

  function placements() {
    var lv = current();
    return lv.placements.map(function (p, i) {
      return p ? { x: p.x, y: p.y, turn: turnOf(lv, i) } : null;
    });
  }

  /** How far piece `i` is turned: 0 unless it is one of the level's rotatable pieces.
   * A level saved before a level could have several kept one `turn`. */
  function turnOf(lv, i) {
    if (!L.isRotatable(puzzle, i)) return 0;
    if (!lv.turns) lv.turns = L.turning(puzzle).length === 1 ? { [i]: lv.turn || 0 } : {};
    return lv.turns[i] || 0;
  }

  function openLevel(n) {
    var lv = state.levels[n];
    if (!lv || !lv.code) return;
    try {
      puzzle = L.unlockLevel(pack, n, lv.code);
    } catch (e) {
      showMessage(tr("damaged", { n: n }), true);
      return;
    }
    state.current = n;
    if (!Array.isArray(lv.placements) || lv.placements.length !== puzzle.pieces.length) {
      lv.placements = puzzle.pieces.map(function () { return null; });
    }
    lastTick = Date.now();
    save();
    render();
    showBoard();  // the leaderboard of the level now shown
    if (!lv.solved) startToken(n).catch(function () { /* offline: asked again at the solve */ });
  }

  function checkSolved() {
    var lv = current();
    if (lv.solved) return;
    var solution = L.solvedPlacements(puzzle, placements());
    if (!solution) return;
    var n = state.current;
    var next = L.levelCode(pack.salt, n + 1, solution);
    lv.solved = { next: next, seconds: Math.round(lv.elapsed / 1000), at: Date.now() };
    if (n < total) {
      var following = state.levels[n + 1];
      if (!following || following.code !== next) state.levels[n + 1] = freshLevel(next);
    }
    save();
    submitSolve(n, next, lv.solved.seconds);
  }

  function move(i, placement) {
    current().placements[i] = placement;
    checkSolved();
    save();
    render();
  }

  function turn(i) {
    var lv = current();
    var count = L.orientations(puzzle.pieces[i]).length;
    var next = (turnOf(lv, i) + 1) % count;  // turnOf first: it may create lv.turns
    lv.turns[i] = next;
    var p = lv.placements[i];
    if (p && !L.canPlace(puzzle, placements(), i, { x: p.x, y: p.y, turn: lv.turns[i] })) {
      lv.placements[i] = null;
    }
    checkSolved();
    save();
    render();
  }

  // -- drawing ------------------------------------------------------------------------------

  var PALETTE = ["#e4572e", "#29335c", "#f3a712", "#669bbc", "#a8c686", "#8e5572",
    "#2a9d8f", "#b56576", "#6d597a", "#e09f3e"];

  // Identical pieces share a colour (they are interchangeable); different ones never do.
  function colour(key) {
    var keys = [];
    puzzle.pieces.forEach(function (cells) {
      var k = L.shapeKey(cells);
      if (keys.indexOf(k) < 0) keys.push(k);
    });
    return PALETTE[keys.indexOf(key) % PALETTE.length];
  }

  function cellSize() {
    var room = Math.min(window.innerWidth - 40, 720);
    var size = Math.floor(Math.min(room / puzzle.width,
      (window.innerHeight * 0.45) / puzzle.height));
    return Math.max(24, Math.min(64, size));
  }

  function pieceElement(i, cs) {
    var lv = current();
    var shape = L.pieceShape(puzzle, i, turnOf(lv, i));
    var el = document.createElement("div");
    var w = 0, h = 0;
    shape.forEach(function (c) { w = Math.max(w, c[0] + 1); h = Math.max(h, c[1] + 1); });
    el.className = "piece" + (L.isRotatable(puzzle, i) ? " rotatable" : "");
    el.dataset.piece = String(i);
    el.dataset.shape = L.shapeKey(shape);
    el.style.width = w * cs + "px";
    el.style.height = h * cs + "px";
    var fill = colour(L.shapeKey(puzzle.pieces[i]));
    shape.forEach(function (c, k) {
      var square = document.createElement("div");
      square.className = "square";
      square.dataset.dx = String(c[0]);
      square.dataset.dy = String(c[1]);
      square.style.left = c[0] * cs + "px";
      square.style.top = c[1] * cs + "px";
      square.style.width = square.style.height = cs + "px";
      square.style.backgroundColor = fill;
      if (k === 0 && L.isRotatable(puzzle, i)) {
        var circle = document.createElement("div");
        circle.className = "circle";
        square.appendChild(circle);
      }
      el.appendChild(square);
    });
    el.addEventListener("pointerdown", function (event) { startDrag(event, el, i, cs); });
    return el;
  }

  function render() {
    var lv = current(), cs = cellSize(), board = $("board"), tray = $("tray");
    board.textContent = "";
    tray.textContent = "";
    board.style.width = puzzle.width * cs + "px";
    board.style.height = puzzle.height * cs + "px";
    board.dataset.cell = String(cs);
    for (var y = 0; y < puzzle.height; y++) {
      for (var x = 0; x < puzzle.width; x++) {
        var cell = document.createElement("div");
        cell.className = "cell";
        cell.style.left = x * cs + "px";
        cell.style.top = y * cs + "px";
        cell.style.width = cell.style.height = cs + "px";
        board.appendChild(cell);
      }
    }
    puzzle.pieces.forEach(function (_, i) {
      var el = pieceElement(i, cs), p = lv.placements[i];
      if (p) {
        el.classList.add("placed");
        el.style.left = p.x * cs + "px";
        el.style.top = p.y * cs + "px";
        board.appendChild(el);
      } else {
        var slot = document.createElement("div");
        slot.className = "slot";
        slot.appendChild(el);
        tray.appendChild(slot);
      }
    });
    board.classList.toggle("solved", !!lv.solved);
    renderTexts();
  }

  function renderTexts() {
    document.title = tr("triplexTitle") + (pack.name ? " — " + pack.name : "");
    $("status").textContent = tr(online ? "online" : "offline");
    $("status").className = online ? "online" : "offline";
    if (!puzzle) return;
    var lv = current(), n = state.current;
    $("level-title").textContent = tr("levelOf", { n: n, total: total });
    $("this-code").textContent = lv.code;
    $("timer").textContent = tr("time", { time: duration(lv.elapsed / 1000) });
    var panel = $("solved-panel");
    panel.hidden = !lv.solved;
    if (lv.solved) {
      $("solved-time").textContent = tr("solvedIn", { time: duration(lv.solved.seconds) });
      $("next-code-label").textContent = n < total ? tr("codeFor", { n: n + 1 }) :
        tr("completionCode");
      $("next-code").textContent = lv.solved.next;
      $("next").hidden = n >= total;
      $("all-solved").hidden = n < total;
    }
    renderLevels();
  }

  function renderLevels() {
    var list = $("level-list"), solved = 0, now = Date.now();
    list.textContent = "";
    for (var n = 1; n <= total; n++) {
      var lv = state.levels[n];
      if (!lv) continue;
      if (lv.solved || lv.elsewhere) solved += 1;
      var item = document.createElement("li");
      var button = document.createElement("button");
      button.type = "button";
      button.className = "level-button" + (n === state.current ? " current" : "");
      button.dataset.level = String(n);
      var status = lv.elsewhere ? tr("statusElsewhere") : lv.solved ?
        tr("statusSolved", { ago: I.ago((now - lv.solved.at) / 1000) }) : tr("statusOpen");
      button.textContent = tr("levelN", { n: n }) + " — " + status;
      button.disabled = !lv.code;
      button.addEventListener("click", openLevel.bind(null, n));
      item.appendChild(button);
      list.appendChild(item);
    }
    $("solved-count").textContent = tr("levelsSolved", { n: solved });
  }

  function showMessage(text, isError) {
    var el = $("message");
    el.textContent = text;
    el.className = isError ? "error" : "info";
  }

  // -- pointer input (mouse, pen and touch alike) -------------------------------------------

  function startDrag(event, el, i, cs) {
    if (event.button !== undefined && event.button !== 0) return;
    event.preventDefault();
    var start = { x: event.clientX, y: event.clientY }, dragging = false;
    try { el.setPointerCapture(event.pointerId); } catch (e) { /* synthetic events */ }

    function onMove(e) {
      if (e.pointerId !== event.pointerId) return;
      var dx = e.clientX - start.x, dy = e.clientY - start.y;
      if (!dragging && Math.abs(dx) + Math.abs(dy) < 5) return;
      dragging = true;
      el.classList.add("dragging");
      el.style.transform = "translate(" + dx + "px, " + dy + "px)";
    }

    function onUp(e) {
      if (e.pointerId !== event.pointerId) return;
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerup", onUp);
      window.removeEventListener("pointercancel", onUp);
      if (!dragging) {
        if (L.isRotatable(puzzle, i) && e.type === "pointerup") turn(i);
        return;
      }
      if (e.type === "pointercancel") {
        render();
        return;
      }
      var rect = el.getBoundingClientRect(), board = $("board").getBoundingClientRect();
      var x = Math.round((rect.left - board.left) / cs);
      var y = Math.round((rect.top - board.top) / cs);
      var lv = current();
      var placement = { x: x, y: y, turn: turnOf(lv, i) };
      // Off the board or onto another piece: back to the tray.
      move(i, L.canPlace(puzzle, placements(), i, placement) ? { x: x, y: y } : null);
    }

    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerup", onUp);
    window.addEventListener("pointercancel", onUp);
  }

  // -- restoring progress from (level number, code) ------------------------------------------

  function restore(event) {
    event.preventDefault();
    var n = parseInt($("restore-level").value, 10), text = $("restore-code").value;
    if (!(n >= 1 && n <= total)) {
      showMessage(tr("noSuchLevel", { n: $("restore-level").value, total: total }), true);
      return;
    }
    var code;
    try {
      code = L.normalizeCode(text);
    } catch (e) {
      if (e.kind === "malformed" && e.position) {
        showMessage(tr("badCharacter", { position: e.position, character: e.character }), true);
      } else {
        showMessage(tr("badLength", { n: e.length }), true);
      }
      return;
    }
    if (unlockTo(n, code)) showMessage(tr("restored", { n: n }), false);
  }

  // Level n with its code (from paper or from the server): the levels before it count
  // as solved elsewhere. False (and a message) when the code does not open it.
  function unlockTo(n, code) {
    try {
      L.unlockLevel(pack, n, code);
    } catch (e) {
      showMessage(tr("wrongCode", { n: n }), true);
      return false;
    }
    if (!state.levels[n] || state.levels[n].code !== code) state.levels[n] = freshLevel(code);
    for (var k = 1; k < n; k++) {
      if (!state.levels[k]) state.levels[k] = { elsewhere: true };
      else if (!state.levels[k].solved) state.levels[k].elsewhere = true;
    }
    openLevel(n);
    return true;
  }

  // -- leaderboard (optional, never breaks the offline game) ----------------------------------

  // A refused request rejects with an Error carrying the HTTP status, the JSON error
  // body and Retry-After; a network failure with a plain Error.
  function call(path, options) {
    if (!server || typeof fetch !== "function") return Promise.reject(new Error("offline"));
    var controller = typeof AbortController === "function" ? new AbortController() : null;
    var timer = setTimeout(function () { if (controller) controller.abort(); }, 15000);
    options = options || {};
    if (controller) options.signal = controller.signal;
    return fetch(server.replace(/\/+$/, "") + path, options)
      .then(function (response) {
        clearTimeout(timer);
        if (response.ok) return response.json();
        return response.json().catch(function () { return null; }).then(function (body) {
          var error = new Error("status " + response.status);
          error.status = response.status;
          error.body = body;
          error.retryAfter = parseInt(response.headers.get("Retry-After") || "", 10);
          throw error;
        });
      }, function (error) {
        clearTimeout(timer);
        throw error;
      });
  }

  function api(path, options) {
    return call("/api/leaderboard/" + pack.saltHex + path, options);
  }

  function post(path, body) {
    return call(path, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) });
  }

  // The server's start token of level n: kept with the level until it expires, so a
  // reload does not restart the server's clock.
  function startToken(n) {
    var lv = state.levels[n];
    if (lv.token && lv.token.code === lv.code && lv.token.expires > Date.now() / 1000 + 60) {
      return Promise.resolve(lv.token.token);
    }
    return post("/api/triplex/packs/" + pack.saltHex + "/levels/" + n + "/start",
      { unlock: lv.code }).then(function (answer) {
      setOnline(true);
      if (state.levels[n] === lv) {
        lv.token = { token: answer.token, code: lv.code, expires: answer.expires_at };
        save();
      }
      return answer.token;
    });
  }

  function setOnline(value) {
    online = value;
    renderTexts();
  }

  function showBoard() {
    var out = $("leaderboard-text");
    if (!server) {
      out.textContent = tr("leaderboardOffline");
      return;
    }
    var n = state.current;
    api("/" + n).then(function (info) {
      setOnline(true);
      if (n !== state.current) return;
      var lines = [];
      if (info.first) {
        // The server's own age of the record: the player's clock may be wrong.
        var age = typeof info.first.ago_seconds === "number" ? info.first.ago_seconds :
          Date.now() / 1000 - info.first.solved_at;
        lines.push(tr("firstSolver", { name: String(info.first.name), ago: I.ago(age) }));
      } else {
        lines.push(tr("nobodyYet"));
      }
      if (info.solves && typeof info.median_seconds === "number") {
        lines.push(tr("solveCount", { n: info.solves, time: duration(info.median_seconds) }));
      } else if (info.solves) {
        lines.push(tr("solveCountUntimed", { n: info.solves }));
      }
      if (typeof info.best_seconds === "number") {
        lines.push(tr("bestTime", { time: duration(info.best_seconds) }));
      }
      out.textContent = lines.join(" ");
    }).catch(function () {
      setOnline(false);
      out.textContent = tr("leaderboardOffline");
    });
  }

  // Called right after the board was found solved, so `puzzle` is level n's. The time
  // recorded is the server's, from the level's start token; `seconds` is sent as the
  // page's own figure only. A level opened offline gets its token now, and the server,
  // which saw no start, records the solve as too fast to count.
  function submitSolve(n, code, seconds, tries) {
    var name = (state.name || "").trim();
    var solution = puzzle && puzzle.number === n ? L.solvedPlacements(puzzle, placements()) : null;
    if (!server || !solution) return;
    var lv = state.levels[n];
    if (!name) {
      stopClock(n, lv, solution, seconds);
      return;
    }
    startToken(n).then(function (token) {
      return api("/" + n, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: name, token: token, seconds: seconds, unlock: lv.code,
          solution: solution })
      });
    }).then(function (answer) {
      setOnline(true);
      if (lv.solved) {
        lv.solved.submitted = true;
        lv.solved.serverSeconds = answer.seconds;
      }
      save();
      showMessage(tr(answer.suspect ? "submittedTooFast" : "submitted",
        { time: duration(answer.seconds) }), false);
      showBoard();
    }).catch(function (error) {
      if (!error.status) {
        setOnline(false);
        return;
      }
      setOnline(true);
      if (error.status === 429 && (tries || 0) < 3) {
        // The server limits this address, never the name: the solve is sent again later.
        var wait = error.retryAfter > 0 ? error.retryAfter : 10;
        setTimeout(function () { submitSolve(n, code, seconds, (tries || 0) + 1); },
          wait * 1000);
        return;
      }
      if (error.body && error.body.code === "tokenUsed" && lv.solved) {
        lv.solved.submitted = true;
        save();
      }
      showMessage(I.errorText(error.body, error.message), true);
    });
  }

  // Solved before a name was typed: the server verifies the solve and stops its clock
  // now (a stopped token, kept with the level), so the time the name takes to come does
  // not count when the solve is sent with it.
  function stopClock(n, lv, solution, seconds) {
    startToken(n).then(function (token) {
      return post("/api/leaderboard/" + pack.saltHex + "/" + n, { token: token,
        seconds: seconds, unlock: lv.code, solution: solution });
    }).then(function (answer) {
      setOnline(true);
      if (state.levels[n] === lv && lv.token) {
        lv.token.token = answer.token;
        save();
      }
    }).catch(function (error) {
      if (!error.status) setOnline(false);
    });
  }

  // -- progress on the server (a name and a secret; the secret is never stored here) -------

  function highestLevel() {
    for (var n = total; n >= 1; n--) {
      if (state.levels[n] && state.levels[n].code) return n;
    }
    return 1;
  }

  function account(path, extra) {
    var body = { name: (state.name || "").trim(), secret: $("player-secret").value,
      pack: pack.saltHex };
    Object.keys(extra || {}).forEach(function (k) { body[k] = extra[k]; });
    if (!body.name) {
      $("account-message").textContent = tr("needName");
      return Promise.reject(null);
    }
    return post("/api/triplex/progress/" + path, body).then(function (answer) {
      setOnline(true);
      return answer;
    }, function (error) {
      $("account-message").textContent = error.status ?
        I.errorText(error.body, error.message) : tr("leaderboardOffline");
      throw null;
    });
  }

  function saveProgress() {
    var n = highestLevel();
    account("save", { level: n, code: state.levels[n].code }).then(function (kept) {
      $("account-message").textContent = tr("progressSaved", { n: kept.level });
    }, function () { /* already said */ });
  }

  function loadProgress() {
    account("load").then(function (kept) {
      if (kept.level === null) {
        $("account-message").textContent = tr("progressNone");
        return;
      }
      if (unlockTo(kept.level, kept.code)) {
        $("account-message").textContent = tr("progressLoaded", { n: kept.level });
      }
    }, function () { /* already said */ });
  }

  // -- start ----------------------------------------------------------------------------------

  // the selector is BoardlabI18n's (init filled it): a new language draws the texts again
  I.onChange(function () {
    renderTexts();
    showBoard();
  });
  $("reset").addEventListener("click", function () {
    current().placements = puzzle.pieces.map(function () { return null; });
    save();
    render();
  });
  $("next").addEventListener("click", function () { openLevel(state.current + 1); });
  $("restore-form").addEventListener("submit", restore);
  $("save-progress").addEventListener("click", saveProgress);
  $("load-progress").addEventListener("click", loadProgress);
  $("account").hidden = !server;
  $("table-link").hidden = !server;
  if (server) {
    $("table-link").href = server.replace(/\/+$/, "") + "/triplex/" + pack.saltHex + "/table";
  }
  $("player-name").value = state.name || "";
  $("player-name").addEventListener("change", function () {
    state.name = $("player-name").value.slice(0, 40);
    save();
    // A level solved before the name was typed is submitted now.
    var lv = current();
    if (lv.solved && !lv.solved.submitted) {
      submitSolve(state.current, lv.solved.next, lv.solved.seconds);
    }
  });
  window.addEventListener("resize", function () { if (puzzle) render(); });
  window.addEventListener("pagehide", save);
  document.addEventListener("visibilitychange", function () {
    lastTick = Date.now();
    save();
  });
  setInterval(function () {
    var now = Date.now(), lv = current();
    if (puzzle && !lv.solved && !document.hidden) {
      lv.elapsed += now - lastTick;
      $("timer").textContent = tr("time", { time: duration(lv.elapsed / 1000) });
    }
    lastTick = now;
  }, 1000);
  setInterval(save, 10000);
  openLevel(state.current);
  window.triplexGame = { state: function () { return state; }, save: save };
})();
