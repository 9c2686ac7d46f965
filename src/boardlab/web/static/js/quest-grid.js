// The quest's grid as SVG: every cell hidden until the team found its segment, then the
// segment (a straight or an elbow; segments turn freely, so the drawing only says which)
// and its letter. Shared by the team's page and the organiser's.

const SVG_NS = "http://www.w3.org/2000/svg";
const SIZE = 50;

function element(name, attributes, parent) {
  const made = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, value);
  if (parent) parent.appendChild(made);
  return made;
}

// `found`: [{row, col, kind, letter}]; `fresh`: "row-col" of a segment to highlight.
export function drawGrid(container, rows, cols, found, label, fresh = null) {
  const svg = element("svg", { viewBox: `0 0 ${cols * SIZE} ${rows * SIZE}`, role: "img",
    "aria-label": label });
  const known = new Map(found.map((f) => [`${f.row}-${f.col}`, f]));
  for (let r = 1; r <= rows; r++) {
    for (let c = 1; c <= cols; c++) {
      const x = (c - 1) * SIZE, y = (r - 1) * SIZE;
      const segment = known.get(`${r}-${c}`);
      const group = element("g", { class: segment ? "cell" : "cell hidden", "data-row": r,
        "data-col": c }, svg);
      if (!segment) {
        element("rect", { x: x + 1, y: y + 1, width: SIZE - 2, height: SIZE - 2,
          class: "hidden-cell" }, group);
        continue;
      }
      if (`${r}-${c}` === fresh) group.classList.add("new");
      element("rect", { x: x + 1, y: y + 1, width: SIZE - 2, height: SIZE - 2, class: "tile" },
        group);
      const half = SIZE / 2;
      const d = segment.kind === "I" ? `M ${x + half} ${y} V ${y + SIZE}`
        : `M ${x + half} ${y} A ${half} ${half} 0 0 0 ${x + SIZE} ${y + half}`;
      element("path", { d, class: "pipe" }, group);
      const letter = element("text", { x: x + half, y: y + half, class: "letter" }, group);
      letter.textContent = segment.letter;
    }
  }
  container.replaceChildren(svg);
  return svg;
}
