// Play by narrowing: the server sends the legal moves as cells to click (games.base.ClickMove, one
// [notation, cells, ordered, group, turn, mirrored] each); the page only narrows that list by the cells
// chosen so far and posts the notation of the one move left. The engine judges every move. Pure functions:
// the page (main.js) keeps the choice and draws it.

import { areaOf, centreOf } from "./scene.js";

/**
 * The legal moves as the server sends them (bot/web/wire.py `compact_clicks`: entries of [group, turn,
 * mirrored, ordered, shape, anchor steps, notations?], where each anchor (the steps summed) plus the shape's
 * offsets gives a move's cells, and its notation is their names in `labels` joined by spaces unless the
 * entry lists it), as this page narrows them: [notation, cells, ordered, group, turn, mirrored]. Entries
 * already in that form pass as they are.
 */
export function expand(entries, labels) {
  const out = [];
  for (const entry of entries || []) {
    if (Array.isArray(entry[1])) { out.push(entry); continue; }
    const [group, turn, mirrored, ordered, shape, steps, names] = entry;
    let anchor = 0;
    steps.forEach((step, k) => {
      anchor += step;
      const cells = shape.map((d) => anchor + d);
      out.push([names ? names[k] : cells.map((c) => labels[c]).join(" "), cells, !!ordered, group, turn, !!mirrored]);
    });
  }
  return out;
}

/** A clickable move's parts. */
export const notation = (c) => c[0];
export const cellsOf = (c) => c[1];
export const ordered = (c) => !!c[2];
export const groupOf = (c) => c[3] || "";
export const poseOf = (c) => [c[4] || 0, !!c[5]];

/** Whether the cells chosen so far (in order) fit move `c`: a prefix of its cells if they are ordered, a
 * subset otherwise. */
export function fits(c, chosen) {
  const mc = c[1];
  if (chosen.length > mc.length) return false;
  return c[2] ? chosen.every((x, i) => mc[i] === x) : chosen.every((x) => mc.includes(x));
}

/** Whether `chosen` is all of move `c`. */
export const exact = (c, chosen) => c[1].length === chosen.length && fits(c, chosen);

/** The moves still possible after `chosen`. */
export const candidates = (clicks, chosen) => clicks.filter((c) => fits(c, chosen));

/** The cells a click may add to `chosen`: the next cell of an ordered move, any missing cell otherwise. */
export function targets(clicks, chosen) {
  const out = new Set();
  for (const c of candidates(clicks, chosen)) {
    if (c[2]) { if (c[1].length > chosen.length) out.add(c[1][chosen.length]); }
    else for (const x of c[1]) if (!chosen.includes(x)) out.add(x);
  }
  return out;
}

/**
 * What a click on `cell` does, given the cells chosen so far: {play: notation} when it leaves exactly one
 * move made of the chosen cells, else {chosen: the new choice} (a click on a chosen cell takes it back; a
 * click that fits nothing starts again from that cell, or clears the choice).
 */
export function click(clicks, chosen, cell) {
  let next = chosen.includes(cell) ? chosen.filter((x) => x !== cell) : chosen.concat([cell]);
  let cands = candidates(clicks, next);
  if (!cands.length) { next = [cell]; cands = candidates(clicks, next); }
  if (!cands.length) return { chosen: [] };
  const done = cands.filter((c) => exact(c, next));
  if (done.length === 1 && cands.length === 1) return { play: done[0][0], chosen: next };
  return { chosen: next };
}

/** The piece groups of the moves, in natural order ("I3" before "L4" before "T10"). */
export function groups(clicks) {
  return [...new Set(clicks.map(groupOf).filter(Boolean))].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
}

/** The poses [turn, mirrored] a piece has among the moves, unmirrored first. */
export function posesOf(clicks, group) {
  const seen = new Map();
  for (const c of clicks) if (groupOf(c) === group) seen.set(c[4] + (c[5] ? "m" : ""), poseOf(c));
  return [...seen.values()].sort((a, b) => (a[1] - b[1]) || (a[0] - b[0]));
}

/** The next pose by turning (same side), or null. */
export function rotated(clicks, group, pose) {
  const same = posesOf(clicks, group).filter((p) => p[1] === pose[1]);
  if (!same.length) return null;
  const i = same.findIndex((p) => p[0] === pose[0]);
  return same[(i + 1) % same.length];
}

/** The pose on the other side (the same turn where it has one), or null. */
export function reflected(clicks, group, pose) {
  const other = posesOf(clicks, group).filter((p) => p[1] !== pose[1]);
  if (!other.length) return null;
  return other.find((p) => p[0] === pose[0]) || other[0];
}

/**
 * The placement of `group` a pointer at `cell` stands for: among the moves of that piece covering the
 * cell, those in `pose` if any; the one whose lowest cell is `cell` first (the piece hangs from the
 * pointer), else the one whose cells' middle is nearest to the pointer's cell (`centres`: cell -> [x, y]).
 */
export function ghost(clicks, group, pose, cell, centres) {
  if (!group || cell < 0) return null;
  const mine = clicks.filter((c) => groupOf(c) === group && c[1].includes(cell));
  if (!mine.length) return null;
  const posed = mine.filter((c) => c[4] === pose[0] && !!c[5] === pose[1]);
  const pool = posed.length ? posed : mine;
  const anchored = pool.find((c) => Math.min(...c[1]) === cell);
  if (anchored || !centres) return anchored || pool[0];
  const [px, py] = centres[cell];
  let best = pool[0], bestD = Infinity;
  for (const c of pool) {
    let x = 0, y = 0;
    for (const k of c[1]) { x += centres[k][0]; y += centres[k][1]; }
    const d = (x / c[1].length - px) ** 2 + (y / c[1].length - py) ** 2;
    if (d < bestD) { bestD = d; best = c; }
  }
  return best;
}

/**
 * Each piece's shape for the tray: the cells of one of its moves in its first pose (unturned, unmirrored
 * where it has that pose), by group. The page draws those cells' polygons, shrunk to a button.
 */
export function shapes(clicks) {
  const out = new Map();
  for (const g of groups(clicks)) {
    const poses = posesOf(clicks, g);
    const first = poses[0];
    const c = clicks.find((m) => groupOf(m) === g && m[4] === first[0] && !!m[5] === first[1]);
    out.set(g, c ? c[1].slice() : []);
  }
  return out;
}

/** The cells whose middle shows something a legal-move mark must not hide (a disc and its rank, a stone,
 * a piece, a label written in the cell's middle): a mark there is drawn round the cell's edge instead of
 * on its middle. A label in a corner (Paintscape's tile letters) leaves the middle free. */
export function covered(scene) {
  const out = new Set();
  const cells = scene.cells || [];
  for (const item of scene.items) {
    if (item.layer === "panel") continue;
    if (["stone", "disc", "piece"].includes(item.kind) || (item.type === "circle" && item.text)) {
      for (const c of item.cells || []) out.add(c);
    } else if (item.type === "text") {
      for (const c of item.cells || []) {
        if (!cells[c]) continue;
        const [cx, cy] = centreOf(cells[c]);
        const size = Math.sqrt(areaOf(cells[c]));
        if (Math.hypot(item.at[0] - cx, item.at[1] - cy) < size * 0.3) out.add(c);
      }
    }
  }
  return out;
}
