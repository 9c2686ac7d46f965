// Plumber in the browser: draw the pipe grid as SVG, turn a segment by 90 degrees per
// click, fill the pipe with water from the tap as far as it runs, and when it reaches the
// drain ask the server to check the board and show the code it confirms.
// Rotations as in boardlab/web/api_pipes.py: sides 0 top, 1 right, 2 bottom, 3 left; a
// straight at rotation r opens r and r + 2, an elbow r and r + 1.

const SVG_NS = "http://www.w3.org/2000/svg";
const SIDES = ["top", "right", "bottom", "left"];
const STEPS = [[-1, 0], [0, 1], [1, 0], [0, -1]];
const SIZE = 60;      // a cell's side in SVG units
const MARGIN = 40;    // room around the grid for the tap and the drain

const state = { level: null, rotations: [], seed: 1, checking: 0, known: new Map() };
const $ = (id) => document.getElementById(id);
// Every string comes from the shared phrase table (js/i18n.js), in five languages.
const i18n = globalThis.BoardlabI18n;
const t = (key, params) => i18n.t(key, params);

function showError(message) {
  $("error").textContent = message || "";
}

async function getJson(url, options) {
  const response = await fetch(url, options);
  const data = await response.json();
  if (!response.ok) {
    // the server's error by its code, in the page's language (English for a new code)
    const error = new Error(i18n.errorText(data, `${response.status} ${response.statusText}`));
    error.status = response.status;
    throw error;
  }
  return data;
}

function states(cell) {
  return cell === null ? 1 : cell.kind === "I" ? 2 : 4;
}

function openings(cell, rotation) {
  if (cell === null) return [];
  const other = cell.kind === "I" ? 2 : 1;
  return [rotation % 4, (rotation + other) % 4];
}

// Where the water goes: {cells: [[row, col]], end} with end "drain", "edge", "empty" or
// "closed" -- the same walk as api_pipes.flow on the server.
export function flow(level, rotations) {
  let { row, col } = level.tap;
  let entering = SIDES.indexOf(level.tap.side);
  const drainSide = SIDES.indexOf(level.drain.side);
  const cells = [];
  const seen = new Set();
  for (;;) {
    if (row < 1 || row > level.rows || col < 1 || col > level.cols) {
      return { cells, end: "edge" };
    }
    const cell = level.cells[row - 1][col - 1];
    if (cell === null) return { cells, end: "empty" };
    const opened = openings(cell, rotations[row - 1][col - 1]);
    const key = `${row}-${col}`;
    if (!opened.includes(entering) || seen.has(key)) return { cells, end: "closed" };
    cells.push([row, col]);
    seen.add(key);
    const leaving = opened[0] === entering ? opened[1] : opened[0];
    if (row === level.drain.row && col === level.drain.col && leaving === drainSide) {
      return { cells, end: "drain" };
    }
    row += STEPS[leaving][0];
    col += STEPS[leaving][1];
    entering = (leaving + 2) % 4;
  }
}

function element(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function pipeShape(kind) {
  const half = SIZE / 2;
  return kind === "I" ? `M ${half} 0 V ${SIZE}`
    : `M ${half} 0 A ${half} ${half} 0 0 0 ${SIZE} ${half}`;
}

function drawPort(svg, port, name) {
  const step = STEPS[SIDES.indexOf(port.side)];
  const cx = MARGIN + (port.col - 0.5) * SIZE;
  const cy = MARGIN + (port.row - 0.5) * SIZE;
  const edgeX = cx + step[1] * SIZE / 2;
  const edgeY = cy + step[0] * SIZE / 2;
  const endX = edgeX + step[1] * MARGIN * 0.55;
  const endY = edgeY + step[0] * MARGIN * 0.55;
  const group = element("g", { class: `port-group ${name}` }, svg);
  const line = `M ${edgeX} ${edgeY} L ${endX} ${endY}`;
  element("path", { d: line, class: "pipe-wall" }, group);
  const bore = element("path", { d: line, class: "pipe-bore" }, group);
  if (name === "tap") bore.style.stroke = "#2e86de";
  const w = 26;
  const h = 12;
  const vertical = step[0] !== 0;
  element("rect", {
    id: name, class: `port ${name}`, rx: 3,
    x: endX - (vertical ? w : h) / 2, y: endY - (vertical ? h : w) / 2,
    width: vertical ? w : h, height: vertical ? h : w,
  }, group);
  const labelX = endX + step[1] * 14 + (vertical ? 30 : 0);
  const labelY = endY + step[0] * 4 + (vertical ? 0 : 24);
  const label = element("text", { class: "port-label", x: labelX, y: labelY }, group);
  i18n.setText(label, name === "tap" ? "pipesTap" : "pipesDrain");
  return bore;
}

function render() {
  const level = state.level;
  const board = $("board");
  board.replaceChildren();
  const width = level.cols * SIZE + 2 * MARGIN;
  const height = level.rows * SIZE + 2 * MARGIN;
  const svg = element("svg", {
    class: "pipes", viewBox: `0 0 ${width} ${height}`, width, height,
    role: "img", "aria-label": t("pipesGrid", { rows: level.rows, cols: level.cols }),
    "data-i18n-aria-label": "pipesGrid",
    "data-i18n-params": JSON.stringify({ rows: level.rows, cols: level.cols }),
  });
  for (let r = 1; r <= level.rows; r++) {
    for (let c = 1; c <= level.cols; c++) {
      const cell = level.cells[r - 1][c - 1];
      const group = element("g", {
        class: cell === null ? "cell empty" : `cell kind-${cell.kind}`,
        "data-row": r, "data-col": c,
        transform: `translate(${MARGIN + (c - 1) * SIZE} ${MARGIN + (r - 1) * SIZE})`,
      }, svg);
      element("rect", { class: "tile", width: SIZE, height: SIZE }, group);
      if (cell === null) continue;
      const pipe = element("g", { class: "pipe" }, group);
      element("path", { class: "pipe-wall", d: pipeShape(cell.kind) }, pipe);
      element("path", { class: "pipe-bore", d: pipeShape(cell.kind) }, pipe);
      const letter = element("text", { class: "letter", x: SIZE / 2, y: SIZE / 2 }, group);
      letter.textContent = cell.letter;
      group.addEventListener("click", () => turn(r, c));
    }
  }
  drawPort(svg, level.tap, "tap");
  drawPort(svg, level.drain, "drain");
  board.appendChild(svg);
  update();
}

function update() {
  const level = state.level;
  const svg = document.querySelector("#board svg");
  const water = flow(level, state.rotations);
  const wet = new Set(water.cells.map(([r, c]) => `${r}-${c}`));
  for (const group of svg.querySelectorAll(".cell")) {
    const r = Number(group.dataset.row);
    const c = Number(group.dataset.col);
    const rotation = state.rotations[r - 1][c - 1];
    group.dataset.rotation = rotation;
    group.classList.toggle("wet", wet.has(`${r}-${c}`));
    const pipe = group.querySelector(".pipe");
    if (pipe) pipe.setAttribute("transform", `rotate(${90 * rotation} ${SIZE / 2} ${SIZE / 2})`);
  }
  const solved = water.end === "drain";
  svg.dataset.end = water.end;
  svg.dataset.wet = water.cells.length;
  $("drain").classList.toggle("wet", solved);
  const drainBore = svg.querySelector(".port-group.drain .pipe-bore");
  drainBore.style.stroke = solved ? "#2e86de" : "";
  $("solved").hidden = true;
  $("code").textContent = "";
  $("status").className = "";
  if (solved) {
    i18n.setText($("status"), "pipesChecking");
    check();
  } else {
    if (water.cells.length) i18n.setText($("status"), "pipesRuns", {n: water.cells.length});
    else i18n.setText($("status"), "pipesNowhere");
    state.checking += 1;  // a check still on its way is stale now
  }
}

async function check() {
  const token = ++state.checking;
  try {
    const result = await getJson(`/api/pipes/levels/${encodeURIComponent(state.level.id)}/check`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ rotations: state.rotations }),
    });
    if (token !== state.checking) return;
    if (!result.solved) {
      i18n.setText($("status"), "pipesServerDisagrees");
      return;
    }
    i18n.setText($("status"), "pipesSolved");
    $("status").className = "solved";
    $("code").textContent = result.code;
    $("solved").hidden = false;
    showError("");
  } catch (error) {
    if (token === state.checking) showError(t("pipesCheckFailed", {error: error.message}));
  }
}

// A level's name in the page's language: the sample and random levels are named by the
// server in English ("sample 1", "random 6x6 #5"), a stored level by its author.
function levelName(level) {
  const sample = /^sample-(\d+)$/.exec(level.id);
  if (sample) return t("pipesSample", { n: Number(sample[1]) });
  const random = /^random-(\d+)-(\d+)$/.exec(level.id);
  if (random) return t("pipesRandomLevel", { size: Number(random[1]), seed: Number(random[2]) });
  return level.name;
}

// The level names shown (the selector, the title, the level line), again after a change of
// language.
function showNames() {
  for (const option of $("level").options) {
    const level = state.known.get(option.value);
    if (level) {
      option.textContent = t("pipesLevelSize", { name: levelName(level), rows: level.rows,
        cols: level.cols });
    }
  }
  const level = state.level;
  if (!level) return;
  i18n.setText($("title"), "pipesTitleLevel", { name: levelName(level) });
  i18n.setText($("level-info"), "pipesInfo", { id: levelName(level), seed: state.seed });
}

function turn(r, c) {
  const cell = state.level.cells[r - 1][c - 1];
  state.rotations[r - 1][c - 1] = (state.rotations[r - 1][c - 1] + 1) % states(cell);
  update();
}

// Shows the level; true when it came, false when an error is shown instead (or, with
// quiet, when the server found this random level too costly to make: 422).
async function load(levelId, seed, quiet = false) {
  showError("");
  try {
    const level = await getJson(
      `/api/pipes/levels/${encodeURIComponent(levelId)}?seed=${seed}`);
    state.level = level;
    state.seed = seed;
    state.rotations = level.start.map((row) => row.slice());
    state.known.set(level.id, level);
    i18n.setText($("solution-count"), "pipesSolutions", {n: level.solutions});
    const select = $("level");
    if (![...select.options].some((o) => o.value === level.id)) {
      const option = document.createElement("option");
      option.value = level.id;
      select.appendChild(option);
    }
    select.value = level.id;
    showNames();
    const url = new URL(window.location.href);
    url.searchParams.set("level", level.id);
    url.searchParams.set("seed", seed);
    window.history.replaceState(null, "", url);
    render();
    return true;
  } catch (error) {
    if (!(quiet && error.status === 422)) {
      showError(t("pipesCannotLoad", {id: levelId, error: error.message}));
    }
    return false;
  }
}

// A new random level: a seed the server gives up on (a few in a hundred at 10x10 would
// take it too long) is replaced by another, a few times, before an error is shown.
async function randomLevel(size) {
  for (let tries = 0; tries < 5; tries += 1) {
    const seed = Math.floor(Math.random() * 1_000_000);
    if (await load(`random-${size}-${seed}`, seed, tries < 4)) return;
  }
}

async function start() {
  const params = new URLSearchParams(window.location.search);
  let levels = [];
  try {
    levels = await getJson("/api/pipes/levels");
  } catch (error) {
    showError(t("pipesCannotList", {error: error.message}));
  }
  const select = $("level");
  for (const level of levels) {
    const option = document.createElement("option");
    option.value = level.id;
    state.known.set(level.id, level);
    select.appendChild(option);
  }
  showNames();
  select.addEventListener("change", () => load(select.value, state.seed));
  $("rescramble").addEventListener("click", () => load(state.level.id, state.seed + 1));
  $("random").addEventListener("click", () => {
    randomLevel(Math.min(10, Math.max(3, Number($("size").value) || 6)));
  });
  const seed = Number.parseInt(params.get("seed") || "1", 10);
  const first = params.get("level") || (levels[0] && levels[0].id) || "random-6-1";
  await load(first, Number.isFinite(seed) && seed >= 0 ? seed : 1);
}

i18n.init();
i18n.onChange(showNames);
start();
