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
const SQRT3 = Math.sqrt(3);

/** Colours of the seats: fill, outline, label. */
export const OWNER_COLOURS = [
  ["#f6f1e3", "#333", "#222"],
  ["#2b2b2b", "#000", "#f4f4f4"],
  ["#c0392b", "#6d1f17", "#fff"],
  ["#2e6fd8", "#163a75", "#fff"],
  ["#2f9e44", "#17511f", "#fff"],
  ["#e8a317", "#7a5308", "#222"],
];

function colours(owner) {
  return OWNER_COLOURS[((owner % OWNER_COLOURS.length) + OWNER_COLOURS.length)
    % OWNER_COLOURS.length];
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
  const n = board.cells.length;
  let rects = board.rects;
  if (!rects || !rects.some((r) => r[2] > r[0] || r[3] > r[1])) {
    const columns = Math.max(1, Math.ceil(Math.sqrt(n)));
    rects = board.cells.map((_, i) => {
      const x = (i % columns) * 50;
      const y = Math.floor(i / columns) * 50;
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
  const span = extent(boxes.flatMap((b) => [b[0], b[2]]), boxes.flatMap((b) => [b[1], b[3]]));
  const scale = clamp(560 / Math.max(span.w, span.h, 1), 0.2, 2.5);
  boxes.forEach(([l, t, r, b], i) => {
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

/**
 * The board on the page: draw(view, marks) redraws the pieces and the highlights;
 * onCell(name, event) is called when a cell (or a piece on it) is clicked.
 */
export class BoardView {
  constructor(container, board, onCell) {
    this.board = board;
    this.layout = layout(board);
    this.svg = el("svg", {class: "board", role: "img",
      "aria-label": t("boardLabel", {kind: board.kind, n: board.cells.length}),
      viewBox: `0 0 ${this.layout.width.toFixed(1)} ${this.layout.height.toFixed(1)}`,
      width: this.layout.width.toFixed(0), "data-kind": board.kind});
    container.replaceChildren(this.svg);
    this.cells = new Map();
    this.drawGrid();
    this.svg.addEventListener("click", (event) => {
      const group = event.target.closest("[data-cell]");
      if (group) onCell(group.dataset.cell, event);
    });
  }

  drawGrid() {
    const lay = this.layout;
    for (const panel of lay.panels) {
      if (lay.panels.length > 1) {
        text(this.svg, panel.x + panel.width / 2, panel.y - 11, panel.name,
          {class: "panel-name"});
      }
    }
    const edges = el("g", {class: "edges"}, this.svg);
    for (const [a, b] of lay.edges) {
      const p = lay.cells[a];
      const q = lay.cells[b];
      el("line", {x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: "edge"}, edges);
    }
    lay.cells.forEach((cell, index) => {
      const group = el("g", {class: "cell", "data-cell": cell.name}, this.svg);
      const s = cell.size;
      let shape;
      if (cell.shape === "square") {
        const c = this.board.cells[index].coords;
        shape = el("rect", {x: cell.x - s / 2, y: cell.y - s / 2, width: s, height: s,
          class: `cell-shape ${(c[0] + c[1]) % 2 === 0 ? "dark" : "light"}`}, group);
        // on big boards the names would hide the pieces; the tooltip still has them
        if (s >= 34) {
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
        text(group, cell.x, cell.y + s * 0.68, cell.name, {class: "cell-name"});
      } else {
        shape = el("circle", {cx: cell.x, cy: cell.y, r: s * 0.45,
          class: "cell-shape point"}, group);
        el("circle", {cx: cell.x, cy: cell.y, r: s * 1.2, class: "hit"}, group);
        text(group, cell.x + s * 0.9, cell.y + s * 0.9, cell.name,
          {class: "cell-name", "text-anchor": "start"});
      }
      const layer = el("g", {class: "content"}, group);
      const title = el("title", {}, group);
      title.textContent = cell.name;
      this.cells.set(cell.name, {...cell, group, outline: shape, layer, title});
    });
  }

  /** Redraw pieces and highlights. marks: {selected, targets, picked, last} (Sets). */
  draw(view, marks) {
    const pieces = (view && view.cells) || {};
    const spooky = (view && view.spooky) || {};
    const kinds = new Set(Object.values(pieces).map((p) => p.kind));
    for (const [name, cell] of this.cells) {
      cell.layer.replaceChildren();
      const piece = pieces[name];
      const classes = ["cell"];
      for (const key of ["selected", "targets", "picked", "last"]) {
        if (marks && marks[key] && marks[key].has(name)) classes.push(key === "targets"
          ? "target" : key);
      }
      if (piece) classes.push("occupied");
      cell.group.setAttribute("class", classes.join(" "));
      cell.title.textContent = piece ? t("pieceOf", {cell: name, kind: piece.kind,
        n: piece.owner + 1}) : name;
      if (piece) this.drawPiece(cell, piece, kinds.size > 1);
      else cell.group.removeAttribute("data-owner");
      const marksHere = spooky[name];
      if (marksHere && marksHere.length) this.drawSpooky(cell, marksHere);
      if (marks && marks.targets && marks.targets.has(name) && !piece) {
        el("circle", {cx: cell.x, cy: cell.y, r: Math.max(4, cell.size * 0.13),
          class: "target-dot"}, cell.layer);
      }
    }
  }

  drawPiece(cell, piece, severalKinds) {
    const [fill, stroke, ink] = colours(piece.owner);
    const r = cell.shape === "square" ? cell.size * 0.36 : cell.shape === "rect"
      ? cell.size * 0.38 : cell.shape === "hex" ? cell.size * 0.62 : cell.size * 1.05;
    cell.group.dataset.owner = piece.owner;
    const disc = el("g", {class: "piece", "data-piece": cell.name, "data-owner": piece.owner,
      "data-kind": piece.kind}, cell.layer);
    el("circle", {cx: cell.x, cy: cell.y, r, fill, stroke, "stroke-width": 1.5}, disc);
    const kind = String(piece.kind);
    const labels = this.board.labels;
    const label = labels ? labels[kind] || kind.slice(0, 2)
      : kind.length <= 2 ? kind : severalKinds ? kind[0].toUpperCase() : "";
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
        const [f, s] = colours(owner);
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
}
