// Draws any boardlab board as SVG from its geometry (GET /api/games/{name} "board"):
// square grids (a1 bottom left, y up), pointy-top hex boards from axial (q, r), 3-D grids
// as one panel per layer side by side, graphs (2-D coordinates, else a circle, with
// their links as lines), and the boards of Zillions rule files (kind "zrf": each
// position at its rectangle on the file's screen, "rects", scaled to fit; the file's
// pictures are not available, so pieces show the letters of "labels"). Pieces come from State.view(): "cells" {name: {owner, kind}},
// plus quantum tic-tac-toe's "spooky" marks and hex column checkers' "column" stacks.
// No board is drawn by hand: every cell's place comes from the model's coordinates.

const SVG = "http://www.w3.org/2000/svg";

// The page's phrases (i18n.js), or English where the board is drawn without them.
const ENGLISH = {
  boardLabel: "{kind} board of {n} cells",
  pieceOf: "{cell}: {kind} of player {n}",
  layerN: "layer {n}",
};

function t(key, params) {
  const i18n = globalThis.BoardlabI18n;
  if (i18n) return i18n.t(key, params);
  return ENGLISH[key].replace(/\{(\w+)\}/g, (_, name) => String(params[name]));
}

// A kind of board or piece the server names ("square", "marble") in the page's language
// when the phrase table has it ("boardKind.square", "piece.marble"), else as named.
function kindName(key, fallback) {
  const i18n = globalThis.BoardlabI18n;
  return i18n && i18n.has && i18n.has(key) ? i18n.t(key) : fallback;
}
const SQRT3 = Math.sqrt(3);

/** Colours of the seats when their names say none: fill, outline, label. */
export const OWNER_COLOURS = [
  ["#c0392b", "#6d1f17", "#fff"],
  ["#f2c230", "#8a6a0a", "#222"],
  ["#2e6fd8", "#163a75", "#fff"],
  ["#2f9e44", "#17511f", "#fff"],
  ["#8e44ad", "#4a1f5c", "#fff"],
  ["#e67e22", "#7a3f08", "#222"],
];

// Ink for marks written on a light ruled board (noughts and crosses).
const MARK_COLOURS = [
  ["#1f4fa0", "#12306a", "#fff"],
  ["#b3261e", "#6d1f17", "#fff"],
  ...OWNER_COLOURS.slice(2),
];

// Players named after a colour get that colour (Abalone's, GESS's and Othello's black
// is dark, as players expect); the keys are the names games use, in lower case.
const NAMED_COLOURS = {
  black: ["#262626", "#000", "#f4f4f4"],
  white: ["#f7f3e8", "#4a4a4a", "#222"],
  red: ["#c0392b", "#6d1f17", "#fff"],
  yellow: ["#f2c230", "#8a6a0a", "#222"],
  blue: ["#2e6fd8", "#163a75", "#fff"],
  green: ["#2f9e44", "#17511f", "#fff"],
  orange: ["#e67e22", "#7a3f08", "#222"],
  purple: ["#8e44ad", "#4a1f5c", "#fff"],
  brown: ["#7b4a26", "#3d2412", "#fff"],
  grey: ["#8a8a8a", "#3d3d3d", "#fff"],
  gray: ["#8a8a8a", "#3d3d3d", "#fff"],
  silver: ["#c7ccd1", "#5b6166", "#222"],
  gold: ["#d4a62a", "#6e5210", "#222"],
  pink: ["#e86aa0", "#7a2a4c", "#222"],
};

/**
 * The colours of each seat [fill, outline, label] for players called `names`: a
 * colour word takes its colour; the other seats take, in order, the palette's colours
 * that no named seat uses: Connect Four's X and O are red and yellow discs, and on a
 * ruled board ("lines") X and O are written in blue and red ink.
 */
export function seatColours(names, style) {
  const named = (names || []).map((name) => NAMED_COLOURS[String(name).toLowerCase()]);
  const taken = new Set(named.filter(Boolean).map((c) => c[0]));
  const palette = style === "lines" ? MARK_COLOURS : OWNER_COLOURS;
  const free = palette.filter((c) => !taken.has(c[0]));
  let next = 0;
  return named.map((c) => c || free[next++ % free.length]);
}

function el(tag, attributes, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    node.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, attributes) {
  const node = el("text", {x, y, "text-anchor": "middle", "dominant-baseline": "central",
                           ...attributes}, parent);
  node.textContent = content;
  return node;
}

function polygon(points) {
  return points.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" ");
}

/**
 * Where each cell goes: {kind, cells: [{name, x, y, shape, size, panel}], panels, width,
 * height, edges}. Shapes: "square" (side size), "hex" (radius size), "point" (a circle of
 * radius size for graph nodes), "rect" (width by height; size is the smaller).
 */
export function layout(board) {
  const cells = board.cells;
  const dims = cells.length ? cells[0].coords.length : 0;
  const out = {kind: board.kind, cells: [], panels: [], edges: [], width: 0, height: 0};
  const margin = 14;
  if (board.kind === "zrf") {
    zrfLayout(board, out, margin);
  } else if (board.kind === "hex") {
    // Overlaid layers (Board.layered: a third coordinate) are drawn as panels side by side.
    const layerOf = (c) => (c.coords.length > 2 ? c.coords[2] : 0);
    const layers = [...new Set(cells.map(layerOf))].sort((a, b) => a - b);
    const span = extent(cells.map((c) => SQRT3 * (c.coords[0] - c.coords[1] / 2)),
      cells.map((c) => -1.5 * c.coords[1]));
    const radius = clamp(560 / Math.max((span.w + SQRT3) * layers.length, span.h + 2), 10, 44);
    const panelWidth = radius * (span.w + SQRT3);
    const gap = layers.length > 1 ? radius : 0;
    const top = layers.length > 1 ? 22 : 0;
    layers.forEach((z, i) => {
      const name = board.layers && board.layers[i] ? board.layers[i] : t("layerN", {n: i + 1});
      out.panels.push({name, x: margin + i * (panelWidth + gap), y: margin + top,
        width: panelWidth, height: radius * (span.h + 2)});
    });
    for (const c of cells) {
      const [q, r] = c.coords;
      const panel = out.panels[layers.indexOf(layerOf(c))];
      out.cells.push({name: c.name, shape: "hex", size: radius,
        panel: layers.length > 1 ? panel.name : null,
        x: panel.x + radius * (SQRT3 * (q - r / 2) - span.x0 + SQRT3 / 2),
        y: panel.y + radius * (-1.5 * r - span.y0 + 1)});
    }
    out.width = 2 * margin + layers.length * panelWidth + (layers.length - 1) * gap;
    out.height = 2 * margin + top + radius * (span.h + 2);
  } else if (board.kind === "graph" && dims !== 2) {
    const n = cells.length;
    const ring = Math.max(120, n * 14);
    cells.forEach((c, i) => {
      const angle = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(n, 1);
      out.cells.push({name: c.name, shape: "point", size: 14,
        x: margin + 30 + ring + ring * Math.cos(angle),
        y: margin + 30 + ring + ring * Math.sin(angle)});
    });
    out.width = out.height = 2 * (margin + 30 + ring);
  } else {
    // square, grid3d (panels by z) and 2-D graphs: x right, y up.
    const layerOf = (c) => (c.coords.length > 2 ? c.coords[2] : 0);
    const layers = [...new Set(cells.map(layerOf))].sort((a, b) => a - b);
    const span = extent(cells.map((c) => c.coords[0]), cells.map((c) => c.coords[1]));
    const cols = span.w + 1;
    const rows = span.h + 1;
    const graph = board.kind === "graph";
    const size = clamp(540 / Math.max(cols * layers.length + (layers.length - 1) * 0.6,
      rows), 18, graph ? 70 : 96);
    const gap = layers.length > 1 ? size * 0.6 : 0;
    const top = layers.length > 1 ? 22 : 0;
    layers.forEach((z, i) => {
      const name = board.layers && board.layers[i] ? board.layers[i] : t("layerN", {n: i + 1});
      out.panels.push({name, x: margin + i * (cols * size + gap), y: margin + top,
        width: cols * size, height: rows * size});
    });
    for (const c of cells) {
      const panel = out.panels[layers.indexOf(layerOf(c))];
      out.cells.push({name: c.name, shape: graph ? "point" : "square",
        size: graph ? size * 0.3 : size, panel: layers.length > 1 ? panel.name : null,
        x: panel.x + (c.coords[0] - span.x0 + 0.5) * size,
        y: panel.y + (span.y1 - c.coords[1] + 0.5) * size});
    }
    out.width = 2 * margin + layers.length * cols * size + (layers.length - 1) * gap;
    out.height = 2 * margin + top + rows * size;
  }
  if (board.kind === "graph") {
    const seen = new Set();
    for (const direction of board.directions) {
      board.links[direction].forEach((target, source) => {
        if (target < 0) return;
        const key = source < target ? `${source}-${target}` : `${target}-${source}`;
        if (!seen.has(key)) {
          seen.add(key);
          out.edges.push([source, target]);
        }
      });
    }
  }
  return out;
}

// A rule file's positions at their rectangles, the largest side scaled to about 560
// pixels. Positions sharing one rectangle (boards drawn over each other) split it into
// columns, so each can be clicked; a point-sized rectangle grows to a small square; a
// file without rectangles gets a grid in cell order.
function zrfLayout(board, out, margin) {
  // Dummy positions exist off the board: they hold pieces but are not drawn.
  const hidden = new Set(board.hidden || []);
  const n = board.cells.length;
  let rects = board.rects;
  if (!rects || !rects.some((r) => r[2] > r[0] || r[3] > r[1])) {
    const columns = Math.max(1, Math.ceil(Math.sqrt(n - hidden.size)));
    let k = 0;
    rects = board.cells.map((_, i) => {
      if (hidden.has(i)) return [0, 0, 0, 0];
      const x = (k % columns) * 50;
      const y = Math.floor(k / columns) * 50;
      k += 1;
      return [x, y, x + 50, y + 50];
    });
  }
  const boxes = rects.map(([l, t, r, b]) => {
    const [cx, cy] = [(l + r) / 2, (t + b) / 2];
    const [w, h] = [Math.max(r - l, 12), Math.max(b - t, 12)];
    return [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2];
  });
  const shared = new Map();
  rects.forEach((r, i) => {
    const key = r.join(",");
    if (!shared.has(key)) shared.set(key, []);
    shared.get(key).push(i);
  });
  for (const group of shared.values()) {
    if (group.length < 2) continue;
    const [l, t, r, b] = boxes[group[0]];
    const w = (r - l) / group.length;
    group.forEach((cell, k) => { boxes[cell] = [l + k * w, t, l + (k + 1) * w, b]; });
  }
  const shown = boxes.filter((_, i) => !hidden.has(i));
  const span = shown.length
    ? extent(shown.flatMap((b) => [b[0], b[2]]), shown.flatMap((b) => [b[1], b[3]]))
    : extent([0], [0]);
  const scale = clamp(560 / Math.max(span.w, span.h, 1), 0.2, 2.5);
  boxes.forEach(([l, t, r, b], i) => {
    if (hidden.has(i)) {
      out.cells.push({name: board.cells[i].name, shape: "rect", width: 0, height: 0,
        size: 0, x: margin, y: margin, hidden: true});
      return;
    }
    const width = (r - l) * scale;
    const height = (b - t) * scale;
    out.cells.push({name: board.cells[i].name, shape: "rect", width, height,
      size: Math.min(width, height),
      x: margin + ((l + r) / 2 - span.x0) * scale,
      y: margin + ((t + b) / 2 - span.y0) * scale});
  });
  out.width = 2 * margin + span.w * scale;
  out.height = 2 * margin + span.h * scale;
}

function extent(xs, ys) {
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs);
  const y0 = Math.min(...ys);
  const y1 = Math.max(...ys);
  return {x0, x1, y0, y1, w: x1 - x0, h: y1 - y0};
}

function clamp(value, low, high) {
  return Math.max(low, Math.min(high, value));
}

// Pieces of chess-like and shogi-like games drawn as the game's own figures: chess's
// Unicode figures (DejaVu Sans has them), shogi's kanji on a pentagon that points at
// the opponent. Keys are piece names in lower case, as the rule files name them.
const CHESS_GLYPHS = {king: "\u265a", queen: "\u265b", rook: "\u265c", bishop: "\u265d",
  knight: "\u265e", pawn: "\u265f"};
const SHOGI_GLYPHS = {king: "王", rook: "飛", bishop: "角", gold: "金", silver: "銀",
  knight: "桂", lance: "香", pawn: "歩", dragon: "龍", horse: "馬", prosilver: "全",
  proknight: "圭", prolance: "杏", tokin: "と"};

/**
 * Which figures a set of piece kinds is drawn with: "shogi" when it has shogi's own
 * pieces (a lance, a gold or a silver general), "chess" when every kind is a chess piece
 * and either some piece besides the pawn is or pawns are all there is (Breakthrough);
 * otherwise "" (discs with letters).
 */
export function glyphSet(kinds) {
  const lower = [...kinds].map((k) => String(k).toLowerCase());
  if (!lower.length) return "";
  if (lower.some((k) => k === "lance" || k === "gold" || k === "silver")) return "shogi";
  if (lower.every((k) => k in CHESS_GLYPHS)) return "chess";
  return "";
}

const REDUCED_MOTION = globalThis.matchMedia
  && globalThis.matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * The board on the page. draw(view, marks) redraws the pieces and the highlights;
 * handlers: onCell(name, event) when a cell (or its piece) is clicked or chosen with
 * the keyboard, canGroup(name) whether a drag may start a group there, onGroup(cells)
 * when a drag crossed several such pieces; options: players (their names, for the
 * colours) and game (its name, for the page's styles).
 */
export class BoardView {
  constructor(container, board, handlers, options = {}) {
    const on = typeof handlers === "function" ? {onCell: handlers} : handlers || {};
    this.board = board;
    this.style = board.style || "";
    this.on = on;
    this.players = options.players || [];
    // where a cell's own fill is hidden (holes, points of lines, a graph's points) the
    // last move is ringed; elsewhere the cell is tinted
    this.ringsLast = ["intersections", "columns"].includes(this.style)
      || board.kind === "graph";
    this.colours = seatColours(this.players, this.style);
    this.layout = layout(board);
    this.svg = el("svg", {class: "board", role: "group",
      "aria-label": t("boardLabel", {kind: kindName(`boardKind.${board.kind}`, board.kind),
        n: board.cells.length}),
      viewBox: `0 0 ${this.layout.width.toFixed(1)} ${this.layout.height.toFixed(1)}`,
      "data-kind": board.kind, "data-style": this.style || board.kind,
      "data-game": options.game || ""});
    container.replaceChildren(this.svg);
    this.cells = new Map();
    this.coords = new Map(board.cells.map((c) => [c.name, c.coords]));
    this.drawGrid();
    this.overlay = el("g", {class: "overlay"}, this.svg);
    this.focused = this.layout.cells.length ? this.layout.cells[0].name : null;
    if (this.focused) this.cells.get(this.focused).group.setAttribute("tabindex", "0");
    this.dragged = null;
    this.svg.addEventListener("click", (event) => {
      if (this.swallowClick) {
        this.swallowClick = false;
        return;
      }
      const arrow = event.target.closest("[data-arrow]");
      if (arrow && this.arrowChoice) {
        this.arrowChoice(this.arrowMoves[Number(arrow.dataset.arrow)]);
        return;
      }
      const group = event.target.closest("[data-cell]");
      if (group && on.onCell) {
        this.focus(group.dataset.cell, false);
        on.onCell(group.dataset.cell, event);
      }
    });
    this.svg.addEventListener("keydown", (event) => this.key(event));
    this.svg.addEventListener("pointerdown", (event) => this.dragStart(event));
    this.svg.addEventListener("pointermove", (event) => this.dragMove(event));
    this.svg.addEventListener("pointerup", () => this.dragEnd());
    this.svg.addEventListener("pointercancel", () => { this.dragged = null; });
  }

  /** The colours [fill, outline, label] of a seat. */
  colour(owner) {
    const n = this.colours.length || 1;
    return this.colours[((owner % n) + n) % n] || OWNER_COLOURS[0];
  }

  drawGrid() {
    const lay = this.layout;
    const style = this.style;
    for (const panel of lay.panels) {
      if (lay.panels.length > 1) {
        text(this.svg, panel.x + panel.width / 2, panel.y - 11, panel.name,
          {class: "panel-name"});
      }
      if (style === "intersections" || style === "columns" || style === "lines") {
        const pad = style === "columns" ? 4 : 0;
        el("rect", {x: panel.x - pad, y: panel.y - pad, width: panel.width + 2 * pad,
          height: panel.height + 2 * pad, rx: style === "columns" ? 10 : 2,
          class: `backdrop ${style}`}, this.svg);
      }
    }
    const edges = el("g", {class: "edges"}, this.svg);
    for (const [a, b] of lay.edges) {
      const p = lay.cells[a];
      const q = lay.cells[b];
      el("line", {x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: "edge"}, edges);
    }
    if (style === "intersections") this.drawLines(edges);
    if (style === "intersections" || (style === "lines" && lay.panels.length === 1
        && lay.cells.length > 9)) {
      this.edgeLabels(edges);
    }
    lay.cells.forEach((cell, index) => {
      const group = el("g", {class: "cell", "data-cell": cell.name, role: "button",
        tabindex: "-1"}, this.svg);
      const s = cell.size;
      let shape;
      if (cell.shape === "square" && style === "columns") {
        el("rect", {x: cell.x - s / 2, y: cell.y - s / 2, width: s, height: s,
          class: "hit"}, group);
        shape = el("circle", {cx: cell.x, cy: cell.y, r: s * 0.41,
          class: "cell-shape hole"}, group);
      } else if (cell.shape === "square" && style === "intersections") {
        shape = el("rect", {x: cell.x - s / 2, y: cell.y - s / 2, width: s, height: s,
          class: "cell-shape grid"}, group);
      } else if (cell.shape === "square") {
        const c = this.board.cells[index].coords;
        const shade = style === "lines" ? "plain" : (c[0] + c[1]) % 2 === 0 ? "dark"
          : "light";
        shape = el("rect", {x: cell.x - s / 2, y: cell.y - s / 2, width: s, height: s,
          class: `cell-shape ${shade}`}, group);
        // on big boards the names would hide the pieces; the tooltip still has them
        if (s >= 34 && style !== "lines") {
          text(group, cell.x - s / 2 + 3, cell.y + s / 2 - 6, cell.name,
            {class: "cell-name", "text-anchor": "start"});
        }
      } else if (cell.shape === "rect") {
        shape = el("rect", {x: cell.x - cell.width / 2, y: cell.y - cell.height / 2,
          width: cell.width, height: cell.height, class: "cell-shape zrf"}, group);
        if (s >= 34) {
          text(group, cell.x - cell.width / 2 + 3, cell.y + cell.height / 2 - 6, cell.name,
            {class: "cell-name", "text-anchor": "start"});
        }
      } else if (cell.shape === "hex") {
        const corners = [];
        for (let k = 0; k < 6; k++) {
          const angle = Math.PI / 180 * (60 * k - 90);
          corners.push([cell.x + s * Math.cos(angle), cell.y + s * Math.sin(angle)]);
        }
        shape = el("polygon", {points: polygon(corners), class: "cell-shape hex"}, group);
        text(group, cell.x, cell.y + s * 0.74, cell.name, {class: "cell-name"});
      } else {
        shape = el("circle", {cx: cell.x, cy: cell.y, r: s * 0.45,
          class: "cell-shape point"}, group);
        el("circle", {cx: cell.x, cy: cell.y, r: s * 1.2, class: "hit"}, group);
        text(group, cell.x + s * 0.9, cell.y + s * 0.9, cell.name,
          {class: "cell-name", "text-anchor": "start"});
      }
      const layer = el("g", {class: "content"}, group);
      const markLayer = el("g", {class: "marks"}, group);
      const title = el("title", {}, group);
      title.textContent = cell.name;
      group.setAttribute("aria-label", cell.name);
      if (cell.hidden) {
        group.setAttribute("display", "none");
        group.setAttribute("aria-hidden", "true");
      }
      this.cells.set(cell.name, {...cell, group, outline: shape, layer, markLayer, title});
    });
  }

  // A Go-like board: lines through the cells' centres to their right and upper
  // neighbours.
  drawLines(parent) {
    const at = new Map();
    for (const cell of this.layout.cells) {
      at.set(this.coords.get(cell.name).slice(0, 2).join(","), cell);
    }
    for (const cell of this.layout.cells) {
      const [x, y] = this.coords.get(cell.name);
      for (const [dx, dy] of [[1, 0], [0, 1]]) {
        const next = at.get(`${x + dx},${y + dy}`);
        if (next) {
          el("line", {x1: cell.x, y1: cell.y, x2: next.x, y2: next.y, class: "grid-line"},
            parent);
        }
      }
    }
  }

  // The files and ranks named along the bottom and the left edge, where the cells
  // themselves carry no names.
  edgeLabels(parent) {
    const xs = new Map();
    const ys = new Map();
    for (const cell of this.layout.cells) {
      const [x, y] = this.coords.get(cell.name);
      const [file, rank] = [cell.name.match(/^[a-z]+/i), cell.name.match(/\d+$/)];
      if (file && (!xs.has(x) || cell.y > xs.get(x).y)) xs.set(x, {cell, label: file[0]});
      if (rank && (!ys.has(y) || cell.x < ys.get(y).x)) ys.set(y, {cell, label: rank[0]});
    }
    for (const {cell, label} of xs.values()) {
      text(parent, cell.x, cell.y + cell.size * 0.5 + 6, label, {class: "edge-label"});
    }
    for (const {cell, label} of ys.values()) {
      text(parent, cell.x - cell.size * 0.5 - 6, cell.y, label, {class: "edge-label"});
    }
  }

  /**
   * Redraw pieces and highlights. marks: {selected, targets, picked, last} (Sets of
   * cell names) and move, the move just played (its pieces slide or drop in).
   */
  draw(view, marks) {
    const pieces = (view && view.cells) || {};
    const spooky = (view && view.spooky) || {};
    const kinds = new Set(Object.values(pieces).map((p) => String(p.kind)));
    const figures = glyphSet(this.board.labels ? Object.keys(this.board.labels) : kinds);
    // the pieces are drawn again only for another position, so a redraw of the
    // highlights does not cut a move's animation short
    const fresh = view !== this.shownView;
    this.shownView = view;
    for (const [name, cell] of this.cells) {
      if (fresh) cell.layer.replaceChildren();
      cell.markLayer.replaceChildren();
      const piece = pieces[name];
      const classes = ["cell"];
      for (const key of ["selected", "targets", "picked", "last"]) {
        if (marks && marks[key] && marks[key].has(name)) classes.push(key === "targets"
          ? "target" : key);
      }
      if (piece) classes.push("occupied");
      cell.group.setAttribute("class", classes.join(" "));
      const label = piece ? t("pieceOf", {cell: name, n: piece.owner + 1,
        kind: kindName(`piece.${String(piece.kind).toLowerCase()}`, piece.kind)})
        : name;
      cell.title.textContent = label;
      cell.group.setAttribute("aria-label", label);
      if (!piece) cell.group.removeAttribute("data-owner");
      else if (fresh) this.drawPiece(cell, piece, kinds.size > 1, figures);
      const marksHere = spooky[name];
      if (fresh && marksHere && marksHere.length) this.drawSpooky(cell, marksHere);
      if (marks && marks.last && marks.last.has(name) && this.ringsLast) {
        el("circle", {cx: cell.x, cy: cell.y, r: cell.size * (piece ? 0.12 : 0.16),
          class: "last-mark"}, cell.markLayer);
      }
      if (marks && marks.targets && marks.targets.has(name) && !piece) {
        el("circle", {cx: cell.x, cy: cell.y, r: Math.max(4, cell.size * 0.13),
          class: "target-dot"}, cell.markLayer);
      }
    }
    if (fresh && marks && marks.move) this.animate(marks.move);
  }

  drawPiece(cell, piece, severalKinds, figures) {
    const [fill, stroke, ink] = this.colour(piece.owner);
    const style = this.style;
    const r = style === "columns" ? cell.size * 0.41
      : style === "intersections" ? cell.size * 0.47
        : cell.shape === "square" ? cell.size * 0.36 : cell.shape === "rect"
          ? cell.size * 0.38 : cell.shape === "hex" ? cell.size * 0.55 : cell.size * 1.05;
    cell.group.dataset.owner = piece.owner;
    const disc = el("g", {class: "piece", "data-piece": cell.name, "data-owner": piece.owner,
      "data-kind": piece.kind}, cell.layer);
    const kind = String(piece.kind);
    const lower = kind.toLowerCase();
    const players = this.players;
    if (figures === "chess" && CHESS_GLYPHS[lower]) {
      text(disc, cell.x, cell.y + r * 0.08, CHESS_GLYPHS[lower], {class: "figure chess",
        fill, stroke, "stroke-width": Math.max(0.8, r * 0.05).toFixed(2),
        "font-size": (r * 2.3).toFixed(1)});
      return;
    }
    if (figures === "shogi" && SHOGI_GLYPHS[lower]) {
      const w = r * 1.5;
      const h = r * 1.9;
      const turn = piece.owner === 1 ? ` rotate(180 ${cell.x} ${cell.y})` : "";
      const tile = el("g", {class: "figure shogi", transform: turn.trim()}, disc);
      el("polygon", {points: polygon([[cell.x, cell.y - h / 2],
        [cell.x + w * 0.42, cell.y - h * 0.3], [cell.x + w / 2, cell.y + h / 2],
        [cell.x - w / 2, cell.y + h / 2], [cell.x - w * 0.42, cell.y - h * 0.3]]),
      class: "shogi-tile"}, tile);
      text(tile, cell.x, cell.y + h * 0.08, SHOGI_GLYPHS[lower], {class: "shogi-kanji",
        "font-size": (w * 0.62).toFixed(1),
        fill: lower.startsWith("pro") || ["tokin", "dragon", "horse"].includes(lower)
          ? "#b3261e" : "#1a1a1a"});
      return;
    }
    // noughts and crosses: the players' own marks, not discs; quantum tic-tac-toe's
    // classical marks keep their move number as a subscript (X3)
    const written = /^([xo])(\d*)$/.exec(lower);
    if (style === "lines" && written
        && String(players[piece.owner]).toLowerCase() === written[1]) {
      const m = cell.size * (written[2] ? 0.25 : 0.3);
      if (written[2]) {
        text(disc, cell.x + m * 1.45, cell.y + m * 1.2, written[2], {class: "mark-number",
          fill, "font-size": (cell.size * 0.16).toFixed(1)});
      }
      if (written[1] === "x") {
        el("path", {d: `M${cell.x - m},${cell.y - m}L${cell.x + m},${cell.y + m}`
          + `M${cell.x + m},${cell.y - m}L${cell.x - m},${cell.y + m}`, class: "mark x",
        stroke: fill, "stroke-width": (cell.size * 0.09).toFixed(1)}, disc);
      } else {
        el("circle", {cx: cell.x, cy: cell.y, r: m, class: "mark o", fill: "none",
          stroke: fill, "stroke-width": (cell.size * 0.09).toFixed(1)}, disc);
      }
      return;
    }
    el("circle", {cx: cell.x, cy: cell.y, r, fill, stroke, "stroke-width": 1.5,
      class: style === "intersections" ? "stone" : "disc"}, disc);
    if (style === "intersections" || style === "columns") {
      // a soft shine, so stones and discs read as round objects
      el("circle", {cx: cell.x - r * 0.3, cy: cell.y - r * 0.3, r: r * 0.3,
        class: "shine"}, disc);
    }
    const labels = this.board.labels;
    // a kind named after its owner (Othello's "black") or the only kind says nothing
    const named = lower === String(players[piece.owner] || "").toLowerCase();
    const label = labels ? labels[kind] || kind.slice(0, 2)
      : named ? "" : kind.length <= 2 ? kind : severalKinds ? kind[0].toUpperCase() : "";
    if (label) {
      const scale = label.length > 2 ? 0.62 : label.length > 1 ? 0.82 : 0.95;
      text(disc, cell.x, cell.y, label, {class: "piece-label", fill: ink,
        "font-size": (r * scale).toFixed(1)});
    }
    const column = piece.column;
    if (Array.isArray(column) && column.length > 1) {
      const w = r * 0.6;
      const h = Math.min(r * 0.45, (r * 1.6) / column.length);
      const x = cell.x + r * 0.7;
      const stack = el("g", {class: "column", "data-height": column.length}, disc);
      // the column from top to bottom, drawn as a little tower beside the top man
      column.forEach((owner, i) => {
        const [f, s] = this.colour(owner);
        el("rect", {x, y: cell.y - r * 0.8 + i * h, width: w, height: h - 0.5, fill: f,
          stroke: s, "stroke-width": 0.6}, stack);
      });
      text(stack, cell.x - r * 0.05, cell.y + r * 0.95, String(column.length),
        {class: "column-height"});
    }
  }

  drawSpooky(cell, marks) {
    const s = cell.size;
    const per = 3;
    const box = el("g", {class: "spooky"}, cell.layer);
    marks.forEach((mark, i) => {
      const col = i % per;
      const row = Math.floor(i / per);
      const node = text(box, cell.x + (col - 1) * s * 0.28, cell.y + (row - 1) * s * 0.24 - 2,
        mark.label, {class: `spooky-mark owner-${mark.owner}${mark.pending ? " pending" : ""}`,
          "font-size": (s * 0.16).toFixed(1)});
      node.dataset.label = mark.label;
    });
  }

  // The move just played, shown moving: each piece slides from where it left, and a
  // piece placed in a Connect Four frame falls from above its column.
  animate(move) {
    if (REDUCED_MOTION || typeof Element.prototype.animate !== "function") return;
    const from = move.arrow && !move.from.length ? [] : move.from || [];
    const to = move.to || [];
    const moved = new Set();
    from.forEach((source, i) => {
      const a = this.cells.get(source);
      const b = this.cells.get(to[i]);
      const piece = b && b.layer.querySelector(".piece");
      if (!a || !b || !piece || moved.has(to[i])) return;
      moved.add(to[i]);
      piece.animate([{transform: `translate(${a.x - b.x}px, ${a.y - b.y}px)`},
        {transform: "translate(0px, 0px)"}], {duration: 260, easing: "ease-out"});
    });
    if (from.length) return;
    for (const name of move.cells || []) {
      const cell = this.cells.get(name);
      const piece = cell && cell.layer.querySelector(".piece");
      if (!piece) continue;
      if (this.style === "columns") {
        const rise = cell.y + cell.size;
        piece.animate([{transform: `translate(0px, ${-rise}px)`},
          {transform: "translate(0px, 0px)"}],
        {duration: 120 + rise * 0.8, easing: "cubic-bezier(.45,0,1,1)"});
      } else {
        piece.animate([{opacity: 0}, {opacity: 1}], {duration: 200});
      }
    }
  }

  /**
   * Show `moves` as arrows on the board (from where a move starts to where it ends);
   * clicking one calls onChoose(move). Moves without a start (placements) are left
   * to the list beside the board.
   */
  showArrows(moves, onChoose, anchor) {
    this.clearArrows();
    this.arrowMoves = moves;
    this.arrowChoice = onChoose;
    const seen = new Map();
    moves.forEach((move, i) => {
      const [start, end] = arrowOf(move, anchor);
      const a = this.cells.get(start);
      const b = this.cells.get(end);
      if (!a || !b || a === b) return;
      // arrows along the same line are set apart, so each stays clickable
      const key = `${start}>${end}`;
      const k = seen.get(key) || 0;
      seen.set(key, k + 1);
      const [dx, dy] = [b.x - a.x, b.y - a.y];
      const length = Math.hypot(dx, dy);
      const [nx, ny] = [-dy / length, dx / length];
      const shift = k * Math.min(a.size, b.size) * 0.18;
      const head = Math.min(a.size, b.size) * 0.32;
      const x1 = a.x + nx * shift;
      const y1 = a.y + ny * shift;
      const x2 = b.x + nx * shift - (dx / length) * head * 0.2;
      const y2 = b.y + ny * shift - (dy / length) * head * 0.2;
      const arrow = el("g", {class: "arrow", "data-arrow": i, role: "button",
        "aria-label": describeMove(move)}, this.overlay);
      const title = el("title", {}, arrow);
      title.textContent = describeMove(move);
      el("line", {x1, y1, x2: x2 - (dx / length) * head * 0.6,
        y2: y2 - (dy / length) * head * 0.6, class: "arrow-shaft",
        "stroke-width": Math.max(3, head * 0.28).toFixed(1)}, arrow);
      el("polygon", {points: polygon([[x2, y2],
        [x2 - (dx / length) * head + nx * head * 0.5, y2 - (dy / length) * head + ny * head * 0.5],
        [x2 - (dx / length) * head - nx * head * 0.5, y2 - (dy / length) * head - ny * head * 0.5]]),
      class: "arrow-head"}, arrow);
    });
  }

  clearArrows() {
    this.arrowMoves = [];
    this.arrowChoice = null;
    if (this.overlay) this.overlay.replaceChildren();
  }

  // --- the keyboard: one cell in the tab order; arrows move, Enter or Space choose ---
  focus(name, move = true) {
    const old = this.focused && this.cells.get(this.focused);
    if (old) old.group.setAttribute("tabindex", "-1");
    this.focused = name;
    const cell = this.cells.get(name);
    cell.group.setAttribute("tabindex", "0");
    if (move) cell.group.focus();
  }

  key(event) {
    const group = event.target.closest && event.target.closest("[data-cell]");
    if (!group) return;
    const name = group.dataset.cell;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (this.on.onCell) this.on.onCell(name, event);
      return;
    }
    const step = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1],
      ArrowDown: [0, 1]}[event.key];
    if (!step) return;
    event.preventDefault();
    const here = this.cells.get(name);
    let best = null;
    let bestScore = Infinity;
    // the nearest cell on the screen in the arrow's direction, preferring straight lines
    for (const [other, cell] of this.cells) {
      const dx = cell.x - here.x;
      const dy = cell.y - here.y;
      const along = dx * step[0] + dy * step[1];
      if (along <= 1) continue;
      const across = Math.abs(dx * step[1] - dy * step[0]);
      const score = along + across * 3;
      if (score < bestScore) {
        bestScore = score;
        best = other;
      }
    }
    if (best) this.focus(best);
  }

  // --- dragging across pieces selects them as a group --------------------------------
  dragStart(event) {
    const group = event.target.closest("[data-cell]");
    if (!group || !this.on.canGroup || !this.on.canGroup(group.dataset.cell)) return;
    this.dragged = [group.dataset.cell];
  }

  dragMove(event) {
    if (!this.dragged) return;
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const group = under && under.closest && under.closest("svg.board [data-cell]");
    if (!group) return;
    const name = group.dataset.cell;
    if (this.dragged.includes(name) || !this.on.canGroup(name)) return;
    this.dragged.push(name);
    for (const cell of this.dragged) this.cells.get(cell).group.classList.add("dragged");
  }

  dragEnd() {
    const cells = this.dragged;
    this.dragged = null;
    if (!cells || cells.length < 2) return;
    // the click that ends a drag is not a click on the last cell
    this.swallowClick = true;
    setTimeout(() => { this.swallowClick = false; }, 0);
    if (this.on.onGroup) this.on.onGroup(cells);
  }
}

/** Where the arrow of `move` starts and ends (from the piece at `anchor` if it moves). */
export function arrowOf(move, anchor) {
  if (move.arrow) return move.arrow;
  const from = move.from || [];
  const to = move.to || [];
  const i = anchor ? from.indexOf(anchor) : -1;
  if (i >= 0 && i < to.length) return [from[i], to[i]];
  return [from[0], to[0]];
}

/** A move as a reader would say it: "b2 → b3", or its cells for a placement. */
export function describeMove(move) {
  if (move.arrow) return `${move.arrow[0]} \u2192 ${move.arrow[1]}`;
  const from = move.from || [];
  const to = move.to || [];
  if (from.length === 1 && to.length === 1) return `${from[0]} \u2192 ${to[0]}`;
  if (from.length) return `${from.join(" ")} \u2192 ${to.join(" ")}`;
  return move.notation;
}
