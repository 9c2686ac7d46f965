// The game page (game.html?match=ID): draws the match's board, lets the seats this
// browser holds (seat.js) move by clicking (a piece, then a highlighted target; empty
// cells for placements; shift- or ctrl-click for a group of pieces grown by the server's
// closure) or by notation, follows the match live over a WebSocket (the other side's
// moves, the server's bots, the result), undoes, lists the moves, shows the outcome and
// offers the record for download. Every move carries the revision it was chosen on; one
// the server refuses as out of date makes the page load the match again. The match id
// lives in the URL and in localStorage, so a reload (or coming back later) resumes it.
// Every phrase comes from i18n.js (loaded by game.html before this module).

import {BoardView, describeMove, seatColours} from "./board.js";
import {connectLive} from "./live.js";

const LAST_MATCH = "boardlab.lastMatch";
const $ = (id) => document.getElementById(id);
const i18n = globalThis.BoardlabI18n;
const {t, setText} = i18n;

const page = {
  id: null,
  match: null,        // the latest match view from the server
  game: null,         // GET /api/games/{name}: rules, board geometry
  boardView: null,
  thinking: false,
  busy: null,         // {revision}: a move of ours sent at that revision, not answered yet
  generation: 0,      // bumped by undo so a stale bot answer is ignored
  selection: null,    // {mode, cells, anchor, moves, exact, targets: Map name -> moves}
  live: null,         // the live connection (js/live.js), reopened when it drops
  replay: null,       // {ply, data}: an earlier position shown instead of the live one
  clockAt: 0,         // Date.now() when the clocks shown were read from the server
};

async function api(path, body) {
  const options = body === undefined ? {} : {method: "POST",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const response = await fetch(path, globalThis.BoardlabSeat.authorize(options));
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = {error: response.statusText};
  }
  if (!response.ok) {
    // the server's error by its code, in the page's language (English for a new code)
    const error = new Error(i18n.errorText(data, response.statusText));
    error.status = response.status;
    throw error;
  }
  return data;
}

function showError(error) {
  $("error").textContent = error ? String(error.message || error) : "";
}

function matchUrl(suffix = "") {
  return `/api/matches/${encodeURIComponent(page.id)}${suffix}`;
}

// --- who is to move ------------------------------------------------------------------
function colourName(seat) {
  const name = page.match.player_names[seat];
  return name ? i18n.playerName(name) : t("playerN", {n: seat + 1});
}

// the seat's name in the form the phrases call {of} ("ход чёрных", "au tour des Noirs")
function colourOf(seat) {
  const name = page.match.player_names[seat];
  return name ? i18n.playerOf(name) : t("playerN", {n: seat + 1});
}

function playerLabel(seat) {
  const player = page.match.players[seat] || {type: "human"};
  const colour = colourName(seat);
  if (player.type === "open") return `${colour}: ${t("openSeat")}`;
  // a random player (a die): nobody's seat, the server draws its moves
  if (player.type === "chance") return t("chancePlayer", {name: colour});
  const name = player.name ? `${colour} · ${player.name}` : colour;
  if (player.type === "human") return t("humanPlayer", {name});
  const budget = player.time ? t("budgetTime", {time: player.time}) : player.depth
    ? t("budgetDepth", {depth: player.depth}) : "";
  return t("botPlayer", {name, bot: i18n.phrase(`bot.${player.bot}`, player.bot), budget});
}

function isOver() {
  return page.match.outcome !== null && page.match.outcome !== undefined;
}

function humanToMove() {
  const match = page.match;
  if (!match || isOver() || match.to_move === null) return false;
  const player = match.players[match.to_move];
  return (!player || player.type === "human") && (match.you || []).includes(match.to_move);
}

// every human seat is this browser's: against bots, or hot-seat (undo needs no consent)
function ownsEveryHuman() {
  const match = page.match;
  return match.players.every((p, seat) => p.type !== "human" || match.you.includes(seat));
}

function botToMove() {
  const match = page.match;
  if (!match || isOver() || match.to_move === null || match.status !== "playing") return false;
  const player = match.players[match.to_move];
  // the server moves a random player's seat as it moves a bot's
  return !!player && (player.type === "bot" || player.type === "chance");
}

// the seats that play: every seat but a random player's (which scores nothing)
function realSeats() {
  return page.match.player_names.map((_, seat) => seat)
    .filter((seat) => (page.match.players[seat] || {}).type !== "chance");
}

function outcomeText(outcome) {
  const names = page.match.player_names.map((_, seat) => colourName(seat));
  const values = outcome.map((p) => {
    const [a, b] = p.split("/");
    return b ? Number(a) / Number(b) : Number(a);
  });
  const seats = realSeats();
  const best = Math.max(...seats.map((i) => values[i]));
  const winners = seats.filter((i) => values[i] === best);
  const score = seats.map((i) => `${names[i]} ${outcome[i]}`).join(" – ");
  // a random player's own win leaves every real player 0: nobody won
  if (best === 0 && seats.length < values.length) return t("gameOver", {score});
  if (winners.length === seats.length) return t("gameOverDraw", {score});
  if (winners.length === 1) {
    return t("gameOverWinner", {name: names[winners[0]], of: colourOf(winners[0]), score});
  }
  return t("gameOver", {score});
}

// --- rendering -------------------------------------------------------------------------
function lastCells() {
  const moves = page.match.moves;
  if (!moves.length || !page.lastMove) return new Set();
  return new Set(page.lastMove.cells || []);
}

function render() {
  const match = page.match;
  // an imported game's id names a file; its title says more
  const title = page.game && page.game.imported ? page.game.description
    : i18n.gameTitle(match.game);
  document.title = `${title} – boardlab`;
  delete $("title").dataset.i18n;
  $("title").textContent = title;
  // the game's rules page, beside the title
  $("rules-link").href = `/games/${encodeURIComponent(match.game)}/rules`;
  $("rules-link").hidden = false;
  const players = $("players");
  players.replaceChildren();
  match.player_names.forEach((_, seat) => {
    const row = document.createElement("div");
    row.className = "player" + (seat === match.to_move ? " to-move" : "");
    row.dataset.seat = seat;
    const swatch = document.createElement("span");
    swatch.className = `swatch owner-${seat}`;
    // the seat's colour as the board draws it (a player called black is dark)
    const style = page.game && page.game.board ? page.game.board.style : "";
    const [fill, stroke] = seatColours(match.player_names, style)[seat];
    swatch.style.background = fill;
    swatch.style.borderColor = stroke;
    row.append(swatch, document.createTextNode(playerLabel(seat)));
    if (match.clock && (match.players[seat] || {}).type !== "chance") {
      const clock = document.createElement("span");
      clock.className = "clock";
      clock.dataset.seat = seat;
      row.appendChild(clock);
    }
    players.appendChild(row);
  });
  showClocks();
  const moves = $("moves");
  moves.replaceChildren();
  for (const notation of match.moves) {
    const item = document.createElement("li");
    const step = document.createElement("button");
    step.type = "button";
    step.className = "link";
    step.textContent = notation;
    const ply = moves.children.length + 1;
    item.dataset.ply = ply;
    if (page.replay && page.replay.ply === ply) item.className = "shown";
    step.addEventListener("click", () => showPosition(ply));
    item.appendChild(step);
    moves.appendChild(item);
  }
  if (!page.replay) moves.scrollTop = moves.scrollHeight;
  setText($("move-count"), "moves", {n: match.moves.length});
  $("text").textContent = match.text || "";
  $("record").href = matchUrl("/record");
  const outcome = $("outcome");
  if (isOver()) {
    outcome.hidden = false;
    $("outcome-banner").hidden = false;
    outcome.textContent = [reasonText(), outcomeText(match.outcome)].filter(Boolean)
      .join(" ");
  } else {
    outcome.hidden = true;
    $("outcome-banner").hidden = true;
    outcome.textContent = "";
  }
  renderLegal();
  renderStatus();
  $("group-help").hidden = !humanToMove() || !groupGame();
  renderSeats();
  renderReplay();
  drawBoard();
  $("undo").hidden = !ownsEveryHuman() || !match.you.length;
  $("undo").disabled = page.thinking || page.busy || !match.moves.length || isOver();
}

// who resigned, whose time ran out, or that both agreed
function reasonText() {
  const match = page.match;
  const real = realSeats();
  const losers = (match.outcome || []).map((p, seat) => [p, seat])
    .filter(([p, seat]) => p === "0" && real.includes(seat));
  const loser = losers.length === 1 ? {name: colourName(losers[0][1]),
    of: colourOf(losers[0][1])} : {name: "", of: ""};
  if (match.reason === "time") return t("reasonTime", loser);
  if (match.reason === "resignation") return t("reasonResignation", loser);
  if (match.reason === "agreement") return t("reasonAgreement");
  return "";
}

function isPeople() {
  return page.match.players.every((p) => p.type !== "bot");
}

// joining, the invitation, watching, offers and the buttons that act for a seat
function renderSeats() {
  const match = page.match;
  const you = match.you || [];
  const waiting = match.status === "waiting";
  const openSeats = match.players.map((p, seat) => [p, seat]).filter(([p]) => p.type === "open");
  $("join-form").hidden = !(waiting && !you.length);
  const joins = $("join-buttons");
  joins.replaceChildren();
  if (waiting && !you.length) {
    setText($("seat-open"), "seatOpen", {name: openSeats.map(([, s]) => colourName(s))
      .join(t("or")), of: openSeats.map(([, s]) => colourOf(s)).join(t("or"))});
    for (const [, seat] of openSeats) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "join";
      button.dataset.seat = seat;
      setText(button, "joinAs", {name: colourName(seat), of: colourOf(seat)});
      button.addEventListener("click", () => join(seat));
      joins.appendChild(button);
    }
  }
  $("waiting").hidden = !(waiting && you.length);
  $("invite").hidden = !(waiting && you.length);
  $("invite-link").value = `${location.origin}/game?match=${encodeURIComponent(match.id)}`;
  $("spectating").hidden = !!you.length || waiting;
  const playing = match.status === "playing";
  const others = match.players.some((p, seat) => p.type === "human" && !you.includes(seat));
  $("resign").hidden = !(playing && you.length);
  $("offer-draw").hidden = !(playing && you.length && isPeople() && others);
  $("ask-takeback").hidden = !(playing && you.length && others && match.moves.length);
  $("rematch").hidden = !(isOver() && you.length);
  $("new-game").hidden = !isOver();
  renderOffers(you);
}

function renderOffers(you) {
  const offers = page.match.offers || {};
  const box = $("offers");
  const buttons = $("offer-buttons");
  buttons.replaceChildren();
  const answer = (kind, key) => buttons.appendChild(actionButton(key, () => offer(kind, key)));
  const draw = offers.draw || [];
  const takeback = offers.takeback;
  box.hidden = true;
  if (draw.length) {
    box.hidden = false;
    const mine = draw.every((seat) => you.includes(seat));
    if (mine) setText($("offer-text"), "waitingForAnswer");
    else {
      setText($("offer-text"), "drawOffered", {name: draw.map(colourName).join(", "),
        of: draw.map(colourOf).join(", ")});
      if (you.length) { answer("draw", "accept"); answer("draw", "decline"); }
    }
  } else if (takeback !== null && takeback !== undefined) {
    box.hidden = false;
    if (you.includes(takeback)) setText($("offer-text"), "waitingForAnswer");
    else {
      setText($("offer-text"), "takebackAsked", {name: colourName(takeback),
        of: colourOf(takeback)});
      if (you.length) { answer("takeback", "accept"); answer("takeback", "decline"); }
    }
  }
}

function actionButton(key, onClick) {
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.action = key;
  setText(button, key);
  button.addEventListener("click", onClick);
  return button;
}

// --- clocks -------------------------------------------------------------------------------
function clockText(ms) {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 10) return seconds.toFixed(1);
  const whole = Math.ceil(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

function showClocks() {
  const match = page.match;
  if (!match || !match.clock) return;
  const clock = match.clock;
  const since = Date.now() - (page.clockAt || Date.now());
  for (const span of document.querySelectorAll("#players .clock")) {
    const seat = Number(span.dataset.seat);
    const running = clock.running === seat;
    const left = clock.left[seat] - (running ? since : 0);
    span.textContent = clockText(left);
    span.classList.toggle("running", running);
    span.classList.toggle("low", running && left < 10000);
  }
}

// --- acting for a seat -------------------------------------------------------------------
async function join(seat) {
  showError(null);
  try {
    const name = $("join-name").value.trim();
    accept(await api(matchUrl("/join"), {seat, ...(name ? {name} : {})}));
    localStorage.setItem("boardlab.name", name);
    hello();
  } catch (error) {
    showError(error);
    await resync();
  }
}

async function act(path, body) {
  showError(null);
  try {
    accept(await api(matchUrl(path), body));
  } catch (error) {
    showError(error);
    await resync();
  }
}

function offer(kind, action) {
  return act(`/${kind}`, {action});
}

async function rematch() {
  showError(null);
  try {
    const next = page.match.rematch ? {id: page.match.rematch}
      : await api(matchUrl("/rematch"), {});
    window.location.href = `/game?match=${encodeURIComponent(next.id)}`;
  } catch (error) {
    showError(error);
  }
}

// --- replay ---------------------------------------------------------------------------------
async function showPosition(ply) {
  const total = page.match.moves.length;
  if (ply === null || ply >= total) {
    page.replay = null;
    render();
    return;
  }
  ply = Math.max(0, ply);
  try {
    const data = await api(matchUrl(`/positions/${ply}`));
    page.replay = {ply, data};
    clearSelection();
    render();
  } catch (error) {
    showError(error);
  }
}

function renderReplay() {
  const total = page.match.moves.length;
  const ply = page.replay ? page.replay.ply : total;
  $("replay-first").disabled = ply === 0;
  $("replay-back").disabled = ply === 0;
  $("replay-forward").disabled = ply >= total;
  $("replay-last").disabled = ply >= total;
  if (page.replay) setText($("replay-at"), "replayAt", {n: ply, of: total});
  else $("replay-at").textContent = "";
  document.body.classList.toggle("replaying", !!page.replay);
}

function renderStatus() {
  const match = page.match;
  let status = "";
  const name = colourName(match.to_move);
  const of = colourOf(match.to_move);
  const chanceTurn = (match.players[match.to_move] || {}).type === "chance";
  if (page.thinking && !chanceTurn) status = t("thinking", {name, of});
  else if (isOver()) status = "";
  else if (match.status === "waiting") status = "";   // the seat panel says it
  else if (chanceTurn) status = t("chanceToMove", {name, of});
  // a spectator is told a person is to move, not a bot
  else if (humanToMove() || (match.players[match.to_move] || {}).type !== "bot") {
    status = t("toMove", {name, of});
    const pending = match.view && match.view.pending;
    if (pending) status += t("collapse", {label: pending.label,
      squares: pending.squares.join(t("or"))});
  } else status = t("botToMove", {name, of});
  $("status").textContent = status;
  $("status").classList.toggle("thinking", page.thinking);
}

function renderLegal() {
  const legal = humanToMove() && !page.thinking ? page.match.legal_moves : [];
  const list = $("legal");
  list.replaceChildren();
  const buttons = $("legal-list");
  buttons.replaceChildren();
  $("legal-count").textContent = String(legal.length);
  for (const move of legal.slice(0, 400)) {
    const option = document.createElement("option");
    option.value = move.notation;
    list.appendChild(option);
    buttons.appendChild(moveButton(move));
  }
  $("notation").disabled = !humanToMove() || page.thinking;
}

function moveButton(move, onChoose) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "move";
  button.textContent = describeMove(move);
  button.title = move.notation;
  button.dataset.notation = move.notation;
  button.addEventListener("click", () => (onChoose ? onChoose(move) : playMove(move.notation)));
  button.addEventListener("mouseenter", () => drawBoard(new Set(move.cells)));
  button.addEventListener("mouseleave", () => drawBoard());
  return button;
}

function drawBoard(preview) {
  if (!page.boardView) return;
  if (page.replay) {
    const move = page.replay.data.move;
    page.boardView.draw(page.replay.data.view, {selected: new Set(), picked: new Set(),
      targets: new Set(), last: new Set(move ? move.cells : [])});
    return;
  }
  const selection = page.selection;
  const move = page.animate ? page.lastMove : null;
  page.animate = false;
  page.boardView.draw(page.match.view, {
    move,
    selected: new Set(selection && selection.mode !== "drop" ? selection.cells : []),
    picked: new Set(selection && selection.mode === "drop" ? selection.cells : []),
    targets: preview || new Set(selection ? selection.targets.keys() : []),
    last: lastCells(),
  });
}

// title: [phrase key, params], so the title follows a change of language
function showChooser(title, moves, onChoose) {
  const box = $("chooser");
  setText($("chooser-title"), ...title);
  const list = $("chooser-moves");
  list.replaceChildren(...moves.map((m) => moveButton(m, onChoose)));
  box.hidden = moves.length === 0;
  // the same choice as arrows on the board, where the moves are
  if (page.boardView) {
    page.boardView.showArrows(moves, (m) => (onChoose ? onChoose(m) : playMove(m.notation)),
      page.selection ? page.selection.anchor : null);
  }
}

function hideChooser() {
  $("chooser").hidden = true;
  $("chooser-moves").replaceChildren();
  if (page.boardView) page.boardView.clearArrows();
}

function clearSelection() {
  page.selection = null;
  hideChooser();
  drawBoard();
}

// --- selecting and moving --------------------------------------------------------------
function destination(move, anchor) {
  const i = move.from.indexOf(anchor);
  if (i >= 0 && i < move.to.length) return move.to[i];
  return move.to[move.to.length - 1] || move.cells[move.cells.length - 1];
}

function targetsOf(moves, anchor) {
  const targets = new Map();
  for (const move of moves) {
    const target = destination(move, anchor);
    if (!target) continue;
    if (!targets.has(target)) targets.set(target, []);
    targets.get(target).push(move);
  }
  return targets;
}

function selectStart(name) {
  const moves = page.match.legal_moves.filter((m) => m.arrow && m.arrow[0] === name);
  if (!moves.length) {
    clearSelection();
    return;
  }
  const targets = new Map();
  for (const move of moves) {
    const end = move.arrow[1];
    if (!targets.has(end)) targets.set(end, []);
    targets.get(end).push(move);
  }
  page.selection = {mode: "piece", cells: [name], anchor: name, moves, exact: moves, targets};
  hideChooser();
  drawBoard();
}

// In a frame of columns (Connect Four) a disc goes into a column wherever it is clicked:
// the one placement whose cell is in the clicked cell's column.
function columnDrop(name) {
  const board = page.game.board;
  if (!board || board.style !== "columns") return null;
  const x = (cell) => (board.cells.find((c) => c.name === cell) || {coords: [NaN]}).coords[0];
  const column = x(name);
  const drops = dropMoves().filter((m) => m.cells.length === 1 && x(m.cells[0]) === column);
  return drops.length === 1 ? drops[0] : null;
}

// Dragging across pieces selects them together where moves take several pieces.
function canGroup(name) {
  if (!humanToMove() || page.thinking || page.busy || page.replay) return false;
  const piece = page.match.view && page.match.view.cells ? page.match.view.cells[name] : null;
  return Boolean(piece && piece.owner === page.match.to_move && groupGame());
}

function groupGame() {
  return page.match.legal_moves.some((m) => m.from.length > 1 && !m.arrow);
}

async function onGroup(cells) {
  showError(null);
  try {
    await selectGroup(cells);
  } catch (error) {
    showError(error);
  }
}

function selectPiece(name) {
  const moves = page.match.legal_moves.filter((m) => m.from.includes(name));
  page.selection = {mode: "piece", cells: [name], anchor: name, moves, exact: moves,
    targets: targetsOf(moves, name)};
  hideChooser();
  drawBoard();
}

async function toggleGroup(name) {
  const old = page.selection && page.selection.mode === "group" ? page.selection.cells
    : page.selection && page.selection.mode === "piece" ? page.selection.cells : [];
  const cells = old.includes(name) ? old.filter((c) => c !== name) : [...old, name];
  if (!cells.length) {
    clearSelection();
    return;
  }
  await selectGroup(cells);
}

async function selectGroup(cells, note) {
  const answer = await api(matchUrl("/group-moves"), {group: cells});
  const anchor = cells[0];
  page.selection = {mode: "group", cells, anchor, moves: answer.moves_using,
    exact: answer.moves, targets: targetsOf(answer.moves_using, anchor)};
  drawBoard();
  const title = note || [answer.moves.length ? "movesOfExactly" : "noMoveExactly",
    {cells: cells.join(" ")}];
  showChooser(title, answer.moves, chooseGroupMove);
  $("chooser").hidden = false;
}

async function chooseGroupMove(move) {
  const selection = page.selection;
  if (selection.exact.some((m) => m.notation === move.notation)) {
    await playMove(move.notation);
    return;
  }
  // The move needs more pieces than selected: the server says which (Game.closure).
  const grown = await api(matchUrl("/closure"), {group: selection.cells, move: move.notation});
  if (grown.group.length === selection.cells.length) {
    await playMove(move.notation);
    return;
  }
  await selectGroup(grown.group, ["grownGroup", {move: move.notation,
    cells: grown.group.join(" ")}]);
}

function dropMoves() {
  return page.match.legal_moves.filter((m) => m.from.length === 0 && m.cells.length);
}

async function pickCell(name) {
  const drops = dropMoves();
  let picked = page.selection && page.selection.mode === "drop" ? page.selection.cells : [];
  picked = picked.includes(name) ? picked.filter((c) => c !== name) : [...picked, name];
  const covering = (cells) => drops.filter((m) => cells.every((c) => m.cells.includes(c)));
  let candidates = covering(picked);
  if (!candidates.length && picked.length > 1) {
    picked = [name];
    candidates = covering(picked);
  }
  if (!picked.length || !candidates.length) {
    clearSelection();
    return;
  }
  if (candidates.length === 1) {
    await playMove(candidates[0].notation);
    return;
  }
  // Moves over the same cells in another order (quantum collapses "→1", "→2"): the
  // clicked cell names the one that starts there.
  const sameCells = (m) => m.cells.length === candidates[0].cells.length
    && m.cells.every((c) => candidates[0].cells.includes(c));
  const starting = candidates.filter((m) => m.cells[0] === name);
  if (picked.length === 1 && starting.length === 1 && candidates.every(sameCells)) {
    await playMove(starting[0].notation);
    return;
  }
  const targets = new Map();
  for (const move of candidates) {
    for (const cell of move.cells) {
      if (picked.includes(cell)) continue;
      if (!targets.has(cell)) targets.set(cell, []);
      targets.get(cell).push(move);
    }
  }
  page.selection = {mode: "drop", cells: picked, anchor: picked[0], moves: candidates,
    exact: candidates, targets};
  showChooser(["movesWith", {cells: picked.join(" ")}], candidates);
  drawBoard();
}

async function onCell(name, event) {
  if (!humanToMove() || page.thinking || page.busy || page.replay) return;
  showError(null);
  try {
    const match = page.match;
    const selection = page.selection;
    const piece = match.view && match.view.cells ? match.view.cells[name] : undefined;
    if (event.shiftKey || event.ctrlKey || event.metaKey) {
      if (piece && piece.owner === match.to_move) await toggleGroup(name);
      return;
    }
    if (selection && selection.mode !== "drop" && selection.targets.has(name)) {
      const moves = selection.targets.get(name);
      if (selection.mode === "group") {
        if (moves.length === 1) await chooseGroupMove(moves[0]);
        else showChooser(["movesTo", {name}], moves, chooseGroupMove);
      } else if (moves.length === 1) {
        await playMove(moves[0].notation);
      } else {
        showChooser(["movesTo", {name}], moves);
      }
      return;
    }
    if (selection && selection.cells.includes(name) && selection.mode !== "drop") {
      clearSelection();
      return;
    }
    // a game that names a move by other cells than its pieces' (GESS: the footprint's
    // centre) is played by clicking those cells
    if (match.legal_moves.some((m) => m.arrow)) {
      selectStart(name);
      return;
    }
    if (match.legal_moves.some((m) => m.from.includes(name))) {
      selectPiece(name);
      return;
    }
    const column = columnDrop(name);
    if (column) {
      await playMove(column.notation);
      return;
    }
    if (dropMoves().some((m) => m.cells.includes(name))) {
      await pickCell(name);
      return;
    }
    clearSelection();
  } catch (error) {
    showError(error);
  }
}

async function playMove(notation) {
  if (page.busy) return;
  const sent = {revision: page.match.revision};
  page.busy = sent;
  showError(null);
  try {
    const before = page.match.legal_moves.find((m) => m.notation === notation);
    const match = await api(matchUrl("/moves"), {move: notation,
      revision: page.match.revision});
    page.lastMove = before || null;
    page.animate = Boolean(before);
    $("notation").value = "";
    accept(match);
  } catch (error) {
    showError(error);
    // out of date (the other side moved, the clock fell): show the match as it is
    if (error.status === 409) await resync();
  } finally {
    // the live push may have shown this move first and freed the board for the next one
    if (page.busy === sent) page.busy = null;
    render();
  }
  maybeBot();
}

function accept(match) {
  if (page.match && match.revision < page.match.revision) return;   // an older answer
  page.match = match;
  page.clockAt = Date.now();
  page.selection = null;
  hideChooser();
  render();
}

async function resync() {
  try {
    accept(await api(matchUrl()));
  } catch (_) { /* the error shown already says enough */ }
}

// A change pushed by the server: the other side's move, a bot's, an undo, the result.
function onLive(message) {
  if (message.type !== "match" || !page.match) return;
  if (message.error) {
    showError(message.error);
    return;
  }
  const old = page.match;
  if (message.revision < old.revision) return;
  if (message.revision === old.revision && String(message.you) === String(old.you)) return;
  const grew = message.moves.length === old.moves.length + 1
    && old.moves.every((m, i) => m === message.moves[i]);
  const notation = message.moves[message.moves.length - 1];
  page.lastMove = grew ? old.legal_moves.find((m) => m.notation === notation) || null
    : message.moves.length ? page.lastMove : null;
  page.animate = grew;
  if (page.thinking && message.moves.length !== old.moves.length) page.thinking = false;
  // our move's answer may come after its live push (a loaded server): the board shows
  // the move, so the next one may be played meanwhile
  if (page.busy && message.revision > page.busy.revision) page.busy = null;
  page.generation += 1;
  accept(message);
}

// Who this browser is, so the server's views name its seats ("you").
function helloMessage() {
  return {type: "hello", token: globalThis.BoardlabSeat.token()};
}

function hello() {
  if (page.live) page.live.send(helloMessage());
}

// The one live-connection helper (js/live.js): it says hello on every (re)connection and
// reopens a dropped connection; the first message after it is the match as it is now.
function connect() {
  page.live = connectLive(matchUrl("/live"), {
    hello: helloMessage,
    onMessage: onLive,
    onState: (state) => {
      $("connection").hidden = state !== "closed";
      if (state === "open") document.body.dataset.live = "1";
      else delete document.body.dataset.live;
    },
  });
}

async function maybeBot() {
  if (!botToMove() || page.thinking) return;
  page.thinking = true;
  const generation = page.generation;
  let played = false;
  render();
  try {
    const legal = page.match.legal_moves;
    const match = await api(matchUrl("/bot"), {revision: page.match.revision});
    if (generation !== page.generation) return;
    const notation = match.moves[match.moves.length - 1];
    page.lastMove = legal.find((m) => m.notation === notation) || null;
    page.animate = true;
    page.thinking = false;
    accept(match);
    played = true;
  } catch (error) {
    if (generation === page.generation) showError(error);
  } finally {
    if (generation === page.generation) page.thinking = false;
    render();
  }
  // bot against bot: keep going, letting the page draw in between
  if (played && generation === page.generation) setTimeout(maybeBot, 150);
}

async function undo() {
  page.generation += 1;
  page.thinking = false;
  showError(null);
  try {
    page.lastMove = null;
    accept(await api(matchUrl("/undo"), {to_human: true}));
  } catch (error) {
    showError(error);
    try {
      accept(await api(matchUrl()));
    } catch (_) { /* the first error says enough */ }
  }
  maybeBot();
}

// --- start --------------------------------------------------------------------------------
function makeBoard() {
  return new BoardView($("board"), page.game.board, {onCell, canGroup, onGroup},
    {players: page.match.player_names, game: page.match.game});
}

// After a reload the page knows the last move only by its notation: the server's
// replay of that ply says which cells it touched, so it is highlighted as before.
async function loadLastMove(match) {
  try {
    const data = await api(matchUrl(`/positions/${match.moves.length}`));
    if (data.move && page.match.moves.length === match.moves.length) page.lastMove = data.move;
  } catch (_) { /* no highlight is all that is lost */ }
}

async function load() {
  const params = new URLSearchParams(window.location.search);
  page.id = params.get("match");
  if (!page.id) {
    page.id = localStorage.getItem(LAST_MATCH);
    if (!page.id) {
      setText($("title"), "noMatch");
      setText($("status"), "startInLobby");
      return;
    }
    history.replaceState(null, "", `?match=${encodeURIComponent(page.id)}`);
  }
  let match;
  try {
    match = await api(matchUrl());
  } catch (error) {
    if (error.status === 404 && localStorage.getItem(LAST_MATCH) === page.id) {
      localStorage.removeItem(LAST_MATCH);
    }
    throw error;
  }
  localStorage.setItem(LAST_MATCH, page.id);
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(match.options || {})) query.set(key, String(value));
  page.game = await api(`/api/games/${encodeURIComponent(match.game)}?${query}`);
  page.match = match;
  document.body.dataset.game = match.game;
  if (page.game.board) {
    page.boardView = makeBoard();
    if (match.moves.length) await loadLastMove(match);
  } else {
    setText($("board"), "noBoard");
  }
  render();
  document.body.dataset.ready = "1";
  connect();
  maybeBot();
}

$("notation-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const notation = $("notation").value.trim();
  if (notation && humanToMove() && !page.thinking) playMove(notation);
});
$("undo").addEventListener("click", undo);
$("resign").addEventListener("click", () => {
  if (window.confirm(t("resignConfirm"))) act("/resign", {});
});
$("offer-draw").addEventListener("click", () => offer("draw", "offer"));
$("ask-takeback").addEventListener("click", () => offer("takeback", "request"));
$("rematch").addEventListener("click", rematch);
$("copy-invite").addEventListener("click", async () => {
  $("invite-link").select();
  try {
    await navigator.clipboard.writeText($("invite-link").value);
    setText($("copy-invite"), "copied");
  } catch (_) { /* the link stays selected for a manual copy */ }
});
$("join-form").addEventListener("submit", (event) => event.preventDefault());
$("join-name").value = localStorage.getItem("boardlab.name") || "";
$("replay-first").addEventListener("click", () => showPosition(0));
$("replay-back").addEventListener("click", () => showPosition(
  (page.replay ? page.replay.ply : page.match.moves.length) - 1));
$("replay-forward").addEventListener("click", () => showPosition(
  page.replay ? page.replay.ply + 1 : null));
$("replay-last").addEventListener("click", () => showPosition(null));
setInterval(showClocks, 200);
i18n.onChange(() => {
  if (!page.match) return;
  // the board's labels and tooltips are drawn in the language of the moment
  if (page.boardView) page.boardView = makeBoard();
  render();
});
$("clear").addEventListener("click", clearSelection);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") clearSelection();
});

i18n.init();
load().catch((error) => {
  // no such match (or the server is gone): say so, and leave nothing that seems to work
  showError(error);
  setText($("title"), "noMatch");
  setText($("status"), "startInLobby");
  for (const control of document.querySelectorAll("aside button, aside input")) {
    control.disabled = true;
  }
  document.body.dataset.failed = "1";
});
