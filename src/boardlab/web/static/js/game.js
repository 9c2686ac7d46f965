// The game page (game.html?match=ID): draws the match's board, lets the humans move by
// clicking (a piece, then a highlighted target; empty cells for placements; shift- or
// ctrl-click for a group of pieces grown by the server's closure) or by notation, asks
// the server's bot when a bot is to move (without blocking the page), undoes, lists the
// moves, shows the outcome and offers the record for download. The match id lives in the
// URL and in localStorage, so a reload (or coming back later) resumes the match.
// Every phrase comes from i18n.js (loaded by game.html before this module).

import {BoardView} from "./board.js";

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
  busy: false,
  generation: 0,      // bumped by undo so a stale bot answer is ignored
  selection: null,    // {mode, cells, anchor, moves, exact, targets: Map name -> moves}
};

async function api(path, body) {
  const options = body === undefined ? {} : {method: "POST",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const response = await fetch(path, options);
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = {error: response.statusText};
  }
  if (!response.ok) {
    const error = new Error((data && data.error) || response.statusText);
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
function playerLabel(seat) {
  const player = page.match.players[seat] || {type: "human"};
  const name = page.match.player_names[seat] || t("playerN", {n: seat + 1});
  if (player.type === "human") return t("humanPlayer", {name});
  const budget = player.time ? t("budgetTime", {time: player.time}) : player.depth
    ? t("budgetDepth", {depth: player.depth}) : "";
  return t("botPlayer", {name, bot: player.bot, budget});
}

function isOver() {
  return page.match.outcome !== null && page.match.outcome !== undefined;
}

function humanToMove() {
  const match = page.match;
  if (!match || isOver() || match.to_move === null) return false;
  const player = match.players[match.to_move];
  return !player || player.type === "human";
}

function botToMove() {
  const match = page.match;
  return match && !isOver() && match.to_move !== null && !humanToMove();
}

function outcomeText(outcome) {
  const names = page.match.player_names;
  const values = outcome.map((p) => {
    const [a, b] = p.split("/");
    return b ? Number(a) / Number(b) : Number(a);
  });
  const best = Math.max(...values);
  const winners = values.map((v, i) => [v, i]).filter(([v]) => v === best).map(([, i]) => i);
  const score = outcome.map((p, i) => `${names[i]} ${p}`).join(" – ");
  if (winners.length === values.length) return t("gameOverDraw", {score});
  if (winners.length === 1) return t("gameOverWinner", {name: names[winners[0]], score});
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
  const title = page.game && page.game.imported ? page.game.description : match.game;
  document.title = `${title} – boardlab`;
  delete $("title").dataset.i18n;
  $("title").textContent = title;
  const players = $("players");
  players.replaceChildren();
  match.player_names.forEach((_, seat) => {
    const row = document.createElement("div");
    row.className = "player" + (seat === match.to_move ? " to-move" : "");
    row.dataset.seat = seat;
    const swatch = document.createElement("span");
    swatch.className = `swatch owner-${seat}`;
    row.append(swatch, document.createTextNode(playerLabel(seat)));
    players.appendChild(row);
  });
  const moves = $("moves");
  moves.replaceChildren();
  for (const notation of match.moves) {
    const item = document.createElement("li");
    item.textContent = notation;
    item.dataset.ply = moves.children.length + 1;
    moves.appendChild(item);
  }
  moves.scrollTop = moves.scrollHeight;
  setText($("move-count"), "moves", {n: match.moves.length});
  $("text").textContent = match.text || "";
  $("record").href = matchUrl("/record");
  const outcome = $("outcome");
  if (isOver()) {
    outcome.hidden = false;
    outcome.textContent = outcomeText(match.outcome);
  } else {
    outcome.hidden = true;
    outcome.textContent = "";
  }
  renderLegal();
  renderStatus();
  drawBoard();
  $("undo").disabled = page.thinking || page.busy || !match.moves.length;
}

function renderStatus() {
  const match = page.match;
  let status = "";
  const name = match.player_names[match.to_move];
  if (page.thinking) status = t("thinking", {name});
  else if (isOver()) status = "";
  else if (humanToMove()) {
    status = t("toMove", {name});
    const pending = match.view && match.view.pending;
    if (pending) status += t("collapse", {label: pending.label,
      squares: pending.squares.join(t("or"))});
  } else status = t("botToMove", {name});
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
  button.textContent = move.notation;
  button.dataset.notation = move.notation;
  button.addEventListener("click", () => (onChoose ? onChoose(move) : playMove(move.notation)));
  button.addEventListener("mouseenter", () => drawBoard(new Set(move.cells)));
  button.addEventListener("mouseleave", () => drawBoard());
  return button;
}

function drawBoard(preview) {
  if (!page.boardView) return;
  const selection = page.selection;
  page.boardView.draw(page.match.view, {
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
}

function hideChooser() {
  $("chooser").hidden = true;
  $("chooser-moves").replaceChildren();
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
  if (!humanToMove() || page.thinking || page.busy) return;
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
    if (match.legal_moves.some((m) => m.from.includes(name))) {
      selectPiece(name);
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
  page.busy = true;
  showError(null);
  try {
    const before = page.match.legal_moves.find((m) => m.notation === notation);
    const match = await api(matchUrl("/moves"), {move: notation});
    page.lastMove = before || null;
    $("notation").value = "";
    accept(match);
  } catch (error) {
    showError(error);
  } finally {
    page.busy = false;
    render();
  }
  maybeBot();
}

function accept(match) {
  page.match = match;
  page.selection = null;
  hideChooser();
  render();
}

async function maybeBot() {
  if (!botToMove() || page.thinking) return;
  page.thinking = true;
  const generation = page.generation;
  let played = false;
  render();
  try {
    const legal = page.match.legal_moves;
    const match = await api(matchUrl("/bot"), {});
    if (generation !== page.generation) return;
    const notation = match.moves[match.moves.length - 1];
    page.lastMove = legal.find((m) => m.notation === notation) || null;
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
    page.boardView = new BoardView($("board"), page.game.board, onCell);
  } else {
    setText($("board"), "noBoard");
  }
  render();
  document.body.dataset.ready = "1";
  maybeBot();
}

$("notation-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const notation = $("notation").value.trim();
  if (notation && humanToMove() && !page.thinking) playMove(notation);
});
$("undo").addEventListener("click", undo);
i18n.onChange(() => {
  if (!page.match) return;
  // the board's labels and tooltips are drawn in the language of the moment
  if (page.boardView) page.boardView = new BoardView($("board"), page.game.board, onCell);
  render();
});
$("clear").addEventListener("click", clearSelection);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") clearSelection();
});

i18n.init();
load().catch(showError);
