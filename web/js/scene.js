// The scene as data (renderer/scene.py, docs/architecture.md "The scene"): a diff applied to a scene, the
// colours of a theme, and the part of the picture the board takes. Pure functions on the JSON the server
// sends; nothing here knows a game.

/** Item fields that hold colour tokens. */
export const TOKEN_FIELDS = ["fill", "stroke", "colour", "edge", "inner", "text_colour"];

/** A ring's defaults (renderer.scene.Ring), which its JSON leaves out. */
export const RING = { stroke: "highlight", edge: "ink", inner: "highlight_ink", width: 3.5, thin: 1.2 };

/**
 * The scene `diff` makes of `scene` (renderer.scene.apply): the removed keys dropped, the changed items
 * replaced in place, the placed items woven in after their anchors, and the panel, cells, labels, fixed
 * count and size where the diff has them. Throws when the diff was made for another scene (game or ply):
 * the caller then fetches the whole scene again. The palettes the diff brings are merged in.
 */
export function applyDiff(scene, diff) {
  if (diff.game !== scene.game || diff.before !== scene.ply) {
    throw new StaleDiff(`the diff goes from ${diff.game} ply ${diff.before}, not from ${scene.game} ply ${scene.ply}`);
  }
  const gone = new Set(diff.removed || []);
  const updated = new Map((diff.changed || []).map((item) => [item.key, item]));
  let order = [];
  for (const item of scene.items) if (!gone.has(item.key)) order.push(updated.get(item.key) || item);
  if (diff.placed && diff.placed.length) {
    const chains = new Map();
    for (const [anchor, item] of diff.placed) {
      const at = anchor === null ? null : anchor;
      if (!chains.has(at)) chains.set(at, []);
      chains.get(at).push(item);
    }
    order = woven(order, chains);
  }
  const out = Object.assign({}, scene, {
    ply: diff.after,
    items: order,
    panel: diff.panel !== undefined ? diff.panel : scene.panel,
    cells: diff.cells !== undefined ? diff.cells : scene.cells,
    labels: diff.labels !== undefined ? diff.labels : scene.labels,
    fixed: diff.fixed !== undefined ? diff.fixed : scene.fixed,
  });
  if (diff.size) { out.width = diff.size[0]; out.height = diff.size[1]; }
  if (diff.palettes) out.palettes = mergePalettes(scene.palettes || {}, diff.palettes);
  return out;
}

/** Thrown by applyDiff for a diff made for another scene. */
export class StaleDiff extends Error {}

function woven(kept, chains) {
  const out = [];
  const put = (anchor) => {
    for (const item of chains.get(anchor) || []) { out.push(item); put(item.key); }
  };
  put(null);
  for (const item of kept) { out.push(item); put(item.key); }
  return out;
}

/** Both palettes' colours, per theme (the second's where both name a token). */
export function mergePalettes(a, b) {
  const out = {};
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const pa = a[name] || { cues: false, colours: {} };
    const pb = b[name] || {};
    out[name] = { cues: pb.cues !== undefined ? pb.cues : pa.cues, colours: Object.assign({}, pa.colours, pb.colours || {}) };
  }
  return out;
}

/**
 * The palette of `theme` in a scene: {cues, colour(token)}; a token it does not list (a literal "#rrggbb",
 * or an unknown one) is used as is, or drawn in the default theme's colour.
 */
export function palette(scene, theme) {
  const all = scene.palettes || {};
  const chosen = all[theme] || all.default || { cues: false, colours: {} };
  const fallback = (all.default && all.default.colours) || {};
  return {
    cues: !!chosen.cues,
    colour(token) {
      if (token === undefined || token === null) return null;
      const found = chosen.colours[token] || fallback[token];
      if (found) return found;
      return /^#[0-9a-fA-F]{6}$/.test(token) ? token : "#ff00ff";
    },
  };
}

/** Whether a theme with (or without) second cues shows `item` (renderer.painter.shown). */
export function shown(item, cues) {
  const show = item.show || "always";
  return show === "always" || (show === "cues") === cues;
}

/** [x, y] pairs of a flat [x, y, x, y...] list. */
export function pairs(flat) {
  const out = [];
  for (let k = 0; k + 1 < flat.length; k += 2) out.push([flat[k], flat[k + 1]]);
  return out;
}

/** The polygons an item covers: its points, or its cells' polygons. */
export function polygonsOf(item, scene) {
  if (item.points && item.points.length) return [pairs(item.points)];
  return (item.cells || []).map((c) => pairs(scene.cells[c] || []));
}

/** Approximate advance of a text (a DejaVu Sans average), for bounds only. */
const TEXT_ADVANCE = 0.6;

/** The box [left, top, right, bottom] an item may paint (roughly, for texts). */
export function itemBounds(item, scene) {
  switch (item.type) {
    case "rect": return item.box.slice();
    case "polygon": {
      let box = null;
      for (const poly of polygonsOf(item, scene)) for (const [x, y] of poly) box = grow(box, x, y, x, y);
      return box || [0, 0, 0, 0];
    }
    case "circle": {
      const [cx, cy] = item.centre;
      const pad = item.shading === "shadow" || item.shading === "sphere" ? Math.ceil(item.r * 0.12) : 0;
      return [cx - item.r - 1, cy - item.r - 1, cx + item.r + 1 + pad, cy + item.r + 1 + pad];
    }
    case "ring": {
      const reach = item.r + (item.width ?? RING.width) / 2 + (item.thin ?? RING.thin) * 1.5;
      return [item.centre[0] - reach, item.centre[1] - reach, item.centre[0] + reach, item.centre[1] + reach];
    }
    case "line": {
      let box = null;
      const half = (item.width || 1) / 2;
      for (const [x, y] of pairs(item.points)) box = grow(box, x - half, y - half, x + half, y + half);
      return box || [0, 0, 0, 0];
    }
    case "mark": {
      const reach = item.r * 1.2 + 1;
      return [item.centre[0] - reach, item.centre[1] - reach, item.centre[0] + reach, item.centre[1] + reach];
    }
    case "text": {
      const w = item.text.length * item.size * TEXT_ADVANCE;
      const [x, y] = item.at;
      const anchor = item.anchor || "lt";
      const left = x - { l: 0, m: w / 2, r: w }[anchor[0]];
      const top = y - { t: 0, m: item.size * 0.6, b: item.size * 1.2, c: item.size * 0.6 }[anchor[1]];
      return [left, top, left + w, top + item.size * 1.2];
    }
    default: return null;  // a primitive this page does not know takes no room
  }
}

function grow(box, x0, y0, x1, y1) {
  if (!box) return [x0, y0, x1, y1];
  return [Math.min(box[0], x0), Math.min(box[1], y0), Math.max(box[2], x1), Math.max(box[3], y1)];
}

/**
 * The part of the picture the board takes: every board-layer item's bounds (the header strip and the
 * side panel are the page's HTML instead), with a margin; [x, y, width, height] for a viewBox.
 */
export function boardView(scene, margin = 6) {
  let box = null;
  for (const item of scene.items) {
    if ((item.layer || "board") !== "board" || item.kind === "background") continue;
    const b = itemBounds(item, scene);
    if (b) box = grow(box, b[0], b[1], b[2], b[3]);
  }
  for (const cell of scene.cells || []) for (const [x, y] of pairs(cell)) box = grow(box, x, y, x, y);
  if (!box) return [0, 0, scene.width, scene.height];
  const left = Math.max(0, Math.floor(box[0] - margin));
  const top = Math.max(0, Math.floor(box[1] - margin));
  const right = Math.min(scene.width, Math.ceil(box[2] + margin));
  const bottom = Math.min(scene.height, Math.ceil(box[3] + margin));
  return [left, top, right - left, bottom - top];
}

/** The centre of a flat polygon (the mean of its corners). */
export function centreOf(flat) {
  let x = 0, y = 0;
  const n = flat.length / 2;
  for (let k = 0; k < flat.length; k += 2) { x += flat[k]; y += flat[k + 1]; }
  return [x / n, y / n];
}

/** The area of a flat polygon. */
export function areaOf(flat) {
  let a = 0;
  for (let k = 0; k < flat.length; k += 2) {
    const n = (k + 2) % flat.length;
    a += flat[k] * flat[n + 1] - flat[n] * flat[k + 1];
  }
  return Math.abs(a) / 2;
}

/** Where an item sits, for animations: a circle's or ring's centre, a text's point, a box's middle. */
export function placeOf(item, scene) {
  if (item.centre) return item.centre;
  if (item.at) return item.at;
  const b = itemBounds(item, scene) || [0, 0, 0, 0];
  return [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
}
