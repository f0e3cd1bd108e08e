// The board in the document: the scene's board layer painted as SVG (painter.js) and kept up to date item by
// item (by key), with brief animations of what a move placed or moved; above it the marks of play (legal
// targets, the chosen cells, the ghost piece, keyboard focus, analysis arrows) and the cells to click.

import { Patterns, BOARD_SHIFT, nodes } from "./painter.js";
import { areaOf, boardView, centreOf, palette, placeOf } from "./scene.js";

const SVG = "http://www.w3.org/2000/svg";
/** Milliseconds a placement or a slide takes to show. */
export const MOTION_MS = 220;
/** Kinds whose new items grow in and whose moved items slide. */
const MOVING = new Set(["stone", "disc", "piece"]);

function make(node) {
  const e = document.createElementNS(SVG, node.tag);
  for (const [k, v] of Object.entries(node.attrs || {})) e.setAttribute(k, String(v));
  if (node.text !== undefined) e.textContent = node.text;
  for (const child of node.children || []) e.append(make(child));
  return e;
}

const signature = (item) => JSON.stringify(item);

export class Board {
  /** `svg`: the <svg> to draw in; `motion()`: whether to animate (false with prefers-reduced-motion). */
  constructor(svg, { motion = () => true } = {}) {
    this.svg = svg;
    this.motion = motion;
    this.scene = null;
    this.theme = "default";
    this.view = null;
    this.els = new Map();
    this.sigs = new Map();
    svg.textContent = "";
    this.defs = this.layer("defs");
    this.paper = this.layer("rect", { class: "paper" });
    this.items = this.layer("g", { class: "scene", transform: `translate(${BOARD_SHIFT} ${BOARD_SHIFT})`, "aria-hidden": "true" });
    this.marks = this.layer("g", { class: "marks", transform: `translate(${BOARD_SHIFT} ${BOARD_SHIFT})`, "aria-hidden": "true" });
    this.hits = this.layer("g", { class: "hits", transform: `translate(${BOARD_SHIFT} ${BOARD_SHIFT})` });
    this.patterns = new Patterns();
    this.cells = [];
    this.centres = [];
    this.cellKey = "";
    this.animations = 0;  // started so far (tests read it)
  }

  layer(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    this.svg.append(e);
    return e;
  }

  /** Draw `scene` in `theme`: item by item from the scene drawn before where it is of the same match
   * (with animations when `animate`), else afresh. */
  show(scene, theme, { animate = false } = {}) {
    const old = this.scene;
    const fresh = !old || old.game !== scene.game || old.width !== scene.width || theme !== this.theme;
    this.theme = theme;
    this.pal = palette(scene, theme);
    if (fresh) this.repaint(scene); else this.update(old, scene, animate && this.motion());
    this.scene = scene;
    this.hitCells(scene);
    const view = boardView(scene);
    if (!this.view || view.join() !== this.view.join()) {
      this.view = view;
      this.svg.setAttribute("viewBox", view.join(" "));
      for (const [k, v] of Object.entries({ x: view[0], y: view[1], width: view[2], height: view[3] })) this.paper.setAttribute(k, v);
    }
    this.paper.setAttribute("fill", this.pal.colour(scene.background || "background"));
  }

  /** Every item drawn anew (a theme change, another match). */
  repaint(scene) {
    this.items.textContent = "";
    this.defs.textContent = "";
    this.patterns = new Patterns();
    this.els.clear();
    this.sigs.clear();
    for (const item of scene.items) {
      if ((item.layer || "board") !== "board") continue;
      const g = this.element(item, scene);
      this.items.append(g);
    }
    this.flushPatterns();
  }

  element(item, scene) {
    const g = document.createElementNS(SVG, "g");
    g.dataset.key = item.key;
    g.dataset.kind = item.kind;
    for (const node of nodes(item, scene, this.pal, this.patterns)) g.append(make(node));
    this.els.set(item.key, g);
    this.sigs.set(item.key, signature(item));
    return g;
  }

  flushPatterns() {
    for (const [id, node] of this.patterns.defs) {
      if (!this.defs.querySelector("#" + CSS.escape(id))) this.defs.append(make(node));
    }
  }

  /** From `old` to `scene` by keys: removed items go, changed ones are drawn again in place, new ones are
   * put after the item before them; a moved piece slides, a new one grows in. */
  update(old, scene, animate) {
    const keep = new Set();
    const placed = [];
    const moved = [];
    const before = new Map(old.items.map((item) => [item.key, item]));
    let previous = null;
    for (const item of scene.items) {
      if ((item.layer || "board") !== "board") continue;
      keep.add(item.key);
      let g = this.els.get(item.key);
      const sig = signature(item);
      if (!g) {
        g = this.element(item, scene);
        placed.push([item, g]);
      } else if (this.sigs.get(item.key) !== sig) {
        const was = before.get(item.key);
        const fresh = this.element(item, scene);
        g.replaceWith(fresh);
        g = fresh;
        if (was && MOVING.has(item.kind)) moved.push([was, item, g]);
      }
      const next = previous ? previous.nextSibling : this.items.firstChild;
      if (next !== g) this.items.insertBefore(g, next);
      previous = g;
    }
    const removed = [];
    for (const [key, g] of [...this.els]) {
      if (keep.has(key)) continue;
      removed.push(before.get(key));
      g.remove();
      this.els.delete(key);
      this.sigs.delete(key);
    }
    this.flushPatterns();
    if (!animate) return;
    // A piece that left one place and came to another in the same move slides there (Paint's discs are
    // keyed by their square); anything else new grows in.
    for (const [item, g] of placed) {
      if (!MOVING.has(item.kind)) continue;
      const like = removed.filter((r) => r && r.kind === item.kind && r.type === item.type && r.fill === item.fill);
      const from = like.find((r) => r.text === item.text) || like[0];
      if (from) {
        removed.splice(removed.indexOf(from), 1);
        this.slide(g, placeOf(from, old), placeOf(item, scene));
      } else {
        this.grow(g, placeOf(item, scene));
      }
    }
    for (const [was, item, g] of moved) {
      const a = placeOf(was, old), b = placeOf(item, scene);
      if (Math.hypot(a[0] - b[0], a[1] - b[1]) > 1) this.slide(g, a, b);
    }
  }

  slide(g, from, to) {
    if (!g.animate) return;
    this.animations++;
    const dx = from[0] - to[0], dy = from[1] - to[1];
    g.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0px, 0px)" }], { duration: MOTION_MS, easing: "ease-out" });
  }

  grow(g, at) {
    if (!g.animate) return;
    this.animations++;
    g.style.transformOrigin = `${at[0]}px ${at[1]}px`;
    g.animate([{ opacity: 0, transform: "scale(0.6)" }, { opacity: 1, transform: "scale(1)" }], { duration: MOTION_MS, easing: "ease-out" });
  }

  /** The invisible polygons that take clicks and taps, one per cell, named for screen readers. */
  hitCells(scene) {
    const key = (scene.cells || []).length + ":" + JSON.stringify((scene.cells || [])[0] || []) + (scene.labels || []).join();
    if (key === this.cellKey) return;
    this.cellKey = key;
    this.hits.textContent = "";
    this.cells = [];
    this.centres = [];
    (scene.cells || []).forEach((flat, i) => {
      const p = document.createElementNS(SVG, "polygon");
      const pts = [];
      for (let k = 0; k < flat.length; k += 2) pts.push(flat[k] + "," + flat[k + 1]);
      p.setAttribute("points", pts.join(" "));
      p.setAttribute("class", "cell");
      p.dataset.i = String(i);
      p.dataset.label = (scene.labels || [])[i] || String(i);
      const title = document.createElementNS(SVG, "title");
      title.textContent = p.dataset.label;
      p.append(title);
      this.hits.append(p);
      this.cells.push(p);
      this.centres.push(centreOf(flat));
    });
  }

  /** The size of a cell (the side of a square of its area), for marks drawn in it. */
  cellSize(i) {
    const flat = this.scene.cells[i];
    return Math.sqrt(areaOf(flat));
  }

  /**
   * The marks of play: `targets` (legal cells: a dot in the middle, or a ring round the edge of a cell in
   * `covered`, so a disc's rank stays readable), `chosen` cells, the `ghost` move's cells (in `ghostColour`,
   * `firm` once a tap has chosen it), the `focus` cell, and `arrows` ([{from: [x, y], to: [x, y], kind}]).
   */
  mark({ targets = new Set(), chosen = [], ghost = [], ghostColour = "#2b7de9", firm = false, focus = -1, covered = new Set(), arrows = [], outlines = [] } = {}) {
    const g = this.marks;
    g.textContent = "";
    if (!this.scene) return;
    const cell = (i, cls) => {
      const p = document.createElementNS(SVG, "polygon");
      p.setAttribute("points", this.cells[i].getAttribute("points"));
      p.setAttribute("class", cls);
      p.dataset.i = String(i);
      g.append(p);
      return p;
    };
    for (const i of chosen) cell(i, "sel");
    for (const [cls, list] of outlines) for (const i of list) cell(i, cls);
    for (const i of ghost) {
      const p = cell(i, firm ? "ghost firm" : "ghost");
      p.setAttribute("fill", ghostColour);
    }
    for (const i of targets) {
      if (chosen.includes(i) || ghost.includes(i)) continue;
      const [cx, cy] = this.centres[i];
      const size = this.cellSize(i);
      const c = document.createElementNS(SVG, "circle");
      c.setAttribute("cx", String(cx));
      c.setAttribute("cy", String(cy));
      c.dataset.i = String(i);
      if (covered.has(i)) {
        c.setAttribute("r", String(size * 0.44));
        c.setAttribute("class", "target ring");
        c.setAttribute("stroke-width", String(Math.max(2, size * 0.07)));
      } else {
        c.setAttribute("r", String(size * 0.16));
        c.setAttribute("class", "target dot");
      }
      g.append(c);
    }
    for (const a of arrows) g.append(this.arrow(a));
    if (focus >= 0 && this.cells[focus]) cell(focus, "focus");
    this.cells.forEach((p, i) => p.classList.toggle("live", targets.has(i) || ghost.includes(i) || chosen.includes(i)));
  }

  arrow({ from, to, kind = "better" }) {
    const g = document.createElementNS(SVG, "g");
    g.setAttribute("class", "arrow " + kind);
    const [x0, y0] = from, [x1, y1] = to;
    const len = Math.hypot(x1 - x0, y1 - y0) || 1;
    const ux = (x1 - x0) / len, uy = (y1 - y0) / len;
    const w = Math.max(6, (this.view ? this.view[2] : 960) / 90);
    const head = w * 2.6;
    const bx = x1 - ux * head, by = y1 - uy * head;
    const line = document.createElementNS(SVG, "line");
    for (const [k, v] of Object.entries({ x1: x0, y1: y0, x2: bx, y2: by, "stroke-width": w })) line.setAttribute(k, String(v));
    const tip = document.createElementNS(SVG, "polygon");
    const px = -uy * head * 0.6, py = ux * head * 0.6;
    tip.setAttribute("points", `${x1},${y1} ${bx + px},${by + py} ${bx - px},${by - py}`);
    g.append(line, tip);
    if (len < head * 1.2) {  // the same cell: a ring instead
      g.textContent = "";
      const c = document.createElementNS(SVG, "circle");
      for (const [k, v] of Object.entries({ cx: x1, cy: y1, r: w * 2.4, "stroke-width": w * 0.8, fill: "none" })) c.setAttribute(k, String(v));
      g.append(c);
    }
    return g;
  }

  /** The cell under a point of the page (client coordinates), or -1. */
  cellAt(x, y) {
    const hit = document.elementFromPoint(x, y);
    return hit && hit.dataset && hit.dataset.i !== undefined && hit.closest("svg") === this.svg ? Number(hit.dataset.i) : -1;
  }
}
