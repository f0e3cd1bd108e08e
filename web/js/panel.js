// The panel as HTML (renderer.scene.Panel): the players with their colours, scores, pieces left, notes and
// clocks, the counters the game races on (Paint's tiles and lead, Paintscape's colour race), the key and
// the game's other lines; beside the board on a wide screen, below it on a phone, and complete on both.
// Colours come from the scene's palette of the theme in use.

import { markCorners, markup, nodes, Patterns } from "./painter.js";

const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

/** A small SVG swatch: a disc (a seat, a sphere) or a square (a tile, a cell) in a theme's colours, with
 * the pattern or mark that is its second cue where the theme shows cues. */
export function swatch(pal, { colours, rim = null, shape = "square", pattern = null, mark = "", markInk = null, size = 20 }) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 20 20");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "swatch");
  const patterns = new Patterns();
  const parts = [];
  if (shape === "disc" || shape === "sphere") {
    parts.push({ type: "circle", key: "s", kind: "legend", centre: [10.5, 10.5], r: 8, fill: colours[0], stroke: rim || undefined, width: rim ? 1.5 : 0, shading: shape === "sphere" ? "sphere" : "flat" });
  } else {
    const w = 16 / Math.max(1, colours.length);
    colours.forEach((c, i) => parts.push({ type: "rect", key: "s" + i, kind: "legend", box: [2 + i * w, 2, 2 + (i + 1) * w, 18], fill: c, pattern: pattern || undefined }));
    parts.push({ type: "rect", key: "edge", kind: "legend", box: [2, 2, 18, 18], stroke: "ink", width: 1 });
  }
  let body = "";
  for (const item of parts) for (const node of nodes(item, { cells: [] }, pal, patterns)) body += markup(node);
  if (mark && pal.cues) body += markup({ tag: "polygon", attrs: { points: markPoints(mark, 10, 10, 4.5), fill: pal.colour(markInk || rim || "ink") } });
  const defs = [...patterns.defs.values()].map(markup).join("");
  svg.innerHTML = `<defs>${defs}</defs><g transform="translate(0.5 0.5)">${body}</g>`;
  return svg;
}

/** A seat's mark (renderer.canvas.mark_polygon) as SVG points. */
export function markPoints(shape, cx, cy, r) {
  return markCorners(shape, cx, cy, r).map(([x, y]) => x.toFixed(2) + "," + y.toFixed(2)).join(" ");
}

/** "4:05" (or "1:02:03") of seconds left; "0:09.4" under ten seconds. */
export function clockText(seconds) {
  if (seconds < 10) return "0:0" + (Math.max(0, Math.floor(seconds * 10)) / 10).toFixed(1);
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const two = (v) => String(v).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(r)}` : `${m}:${two(r)}`;
}

/**
 * Fill the panel's parts from `panel` in the palette `pal`: `players` (a <ul>), `counters`, `legend`,
 * `lines` (elements to fill), with `t(key)` for the page's words, `you` the viewer's seats, `clockAt` the
 * time (ms) the clocks were read.
 */
export function renderPanel(parts, panel, pal, { t = (k) => k, you = [], clockAt = Date.now() } = {}) {
  const { players, counters, legend, lines } = parts;
  players.textContent = "";
  for (const seat of panel.players || []) {
    const li = el("li", { class: "player", "data-seat": String(seat.seat) });
    if (seat.to_move && !panel.over) li.classList.add("turn");
    if (seat.winner) li.classList.add("winner");
    if (you.includes(seat.seat)) li.classList.add("you");
    li.append(swatch(pal, { colours: [seat.colour], rim: seat.rim, shape: "disc", mark: seat.mark || "", markInk: seat.mark_ink || null, size: 24 }));
    const who = el("div", { class: "who" });
    const name = el("span", { class: "name" }, seat.name);
    who.append(name);
    if (seat.role) who.append(el("span", { class: "role" }, seat.role));
    if (seat.detail) who.append(el("span", { class: "detail" }, seat.detail));
    if (seat.note) who.append(el("span", { class: "note" }, seat.note));
    li.append(who);
    const side = el("div", { class: "side" });
    if (seat.winner) side.append(el("span", { class: "flag win", title: t("winner") }, "★"));
    else if (seat.to_move && !panel.over) side.append(el("span", { class: "flag turn", title: t("to_play") }, "▶"));
    if (seat.score !== undefined && seat.score !== null) side.append(el("span", { class: "score", title: t("score") }, String(seat.score)));
    if (seat.pieces !== undefined && seat.pieces !== null) side.append(el("span", { class: "pieces" }, t("pieces_left", { count: seat.pieces })));
    if (seat.clock !== undefined && seat.clock !== null) {
      const low = seat.clock_low ?? 10;
      const clock = el("span", { class: "clock", "data-seconds": String(seat.clock), "data-at": String(clockAt), "data-low": String(low), title: t("clock") }, clockText(seat.clock));
      if (seat.to_move && !panel.over) clock.classList.add("running");
      if (seat.clock < low) clock.classList.add("low");
      side.append(clock);
    }
    li.append(side);
    players.append(li);
  }
  counters.textContent = "";
  for (const counter of panel.counters || []) {
    const box = el("div", { class: "counter" + (counter.done ? " done" : ""), "data-key": counter.key });
    const head = el("div", { class: "counter-head" });
    if (counter.colour) head.append(swatch(pal, { colours: [counter.colour], size: 16 }));
    head.append(el("span", { class: "label" }, counter.label));
    box.append(head);
    const parts = counter.parts || [];
    const total = counter.goal || parts.reduce((a, p) => a + Math.max(0, p.value), 0) || 1;
    const bar = el("div", { class: "bar", role: "img", "aria-label": counter.label + ": " + parts.map((p) => p.label + " " + p.value).join(", ") });
    for (const part of parts) {
      const seg = el("span", { class: "seg" });
      seg.style.width = Math.max(0, Math.min(100, (100 * part.value) / total)) + "%";
      seg.style.background = pal.colour(part.colour);
      bar.append(seg);
    }
    box.append(bar);
    const values = el("div", { class: "values" });
    for (const part of parts) {
      const v = el("span", { class: "value" });
      v.append(el("b", {}, String(part.value) + (counter.goal ? "/" + counter.goal : "")), document.createTextNode(" " + part.label));
      values.append(v);
    }
    box.append(values);
    if (counter.note) box.append(el("div", { class: "note" }, counter.note));
    counters.append(box);
  }
  legend.textContent = "";
  for (const entry of panel.legend || []) {
    const li = el("li");
    const round = entry.shape === "disc" || entry.shape === "sphere";
    li.append(swatch(pal, { colours: round ? entry.colours.slice(0, 1) : entry.colours, rim: round ? entry.colours[1] || null : null, shape: entry.shape || "square", pattern: entry.pattern || null }));
    li.append(el("span", {}, entry.label));
    legend.append(li);
  }
  lines.textContent = "";
  for (const line of panel.lines || []) lines.append(el("p", {}, line));
}

/** Count the running clocks down (from when they were read), marking one under its low time (10 s, or a
 * tenth of the base) "low": the page's warning. Returns the seconds left on each running clock. */
export function tickClocks(root, now = Date.now()) {
  const left = [];
  for (const clock of root.querySelectorAll(".clock.running")) {
    const seconds = Number(clock.dataset.seconds) - (now - Number(clock.dataset.at)) / 1000;
    clock.textContent = clockText(seconds);
    clock.classList.toggle("low", seconds < Number(clock.dataset.low || 10));
    left.push(Math.max(0, seconds));
  }
  return left;
}
