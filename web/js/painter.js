// The SVG painter: any scene (renderer/scene.py) as SVG, drawn as the Pillow painter (renderer/painter.py)
// draws it for Discord, with no per-game code. `nodes` turns one item into plain node descriptions
// ({tag, attrs, text}) in a theme's colours; `Board` (board.js) puts them in the document and keeps them
// up to date move by move.
//
// Coordinates are the PNG's pixels. Pillow puts a polygon's corner or a line's point on a pixel's centre,
// so the whole picture is drawn shifted by half a pixel (BOARD_SHIFT) and the items Pillow lays on pixel
// edges (a rectangle's box, the sprites of discs and rings, the masks of texts) are shifted back.

import { RING, pairs, palette as paletteOf, polygonsOf, shown } from "./scene.js";

export const BOARD_SHIFT = 0.5;
/** A disc's drop shadow: black at this opacity, offset by this share of its radius (rounded up). */
export const SHADOW = { opacity: 90 / 255, offset: 0.12 };
/** A sphere's highlight: its radius and its offset up and left, as shares of the sphere's radius. */
export const SPHERE_SHINE = [7 / 27, 8 / 27];
/** DejaVu Sans (the renderer's first font): ascent, descent and cap height as shares of the size. */
export const FONT = { ascent: 0.928, descent: 0.236, cap: 0.729 };

const n = (v) => Math.round(v * 100) / 100;

/** The colour a share t of the way from a to b ("#rrggbb"; renderer.theme.blend). */
export function blend(a, b, t) {
  const pa = [1, 3, 5].map((k) => parseInt(a.slice(k, k + 2), 16));
  const pb = [1, 3, 5].map((k) => parseInt(b.slice(k, k + 2), 16));
  return "#" + pa.map((v, i) => Math.round(v + (pb[i] - v) * t).toString(16).padStart(2, "0")).join("");
}

/**
 * Where a text's baseline lies for `anchor`'s vertical letter (renderer.canvas.draw_text): t, m, b of the
 * line box (ascent + descent), or c for the middle of the ink (taken as the middle of a capital's height).
 */
export function baseline(y, size, v) {
  const ascent = Math.round(FONT.ascent * size), descent = Math.round(FONT.descent * size);
  switch (v) {
    case "t": return y + ascent;
    case "m": return y - (ascent + descent) / 2 + ascent;
    case "b": return y - descent;
    default: return y + (FONT.cap * size) / 2;
  }
}

/**
 * The patterns (second cues) the items use, as <pattern> nodes by id: one per kind, ink, step, width and
 * origin (a pattern is laid from its shape's top left corner, as the PNG lays it).
 */
export class Patterns {
  constructor() { this.defs = new Map(); }

  /** The fill that paints `pattern` laid from (x, y) in colour `ink`: "url(#id)". */
  use(pattern, ink, x, y, side) {
    const step = pattern.step, w = pattern.width;
    const ox = ((Math.round(x) % step) + step) % step, oy = ((Math.round(y) % step) + step) % step;
    const off = pattern.kind === "cross" ? ((-Math.round(side)) % step + step) % step : 0;
    const id = ["p", pattern.kind, ink.slice(1), step, w, ox, oy, off].join("-");
    if (!this.defs.has(id)) this.defs.set(id, patternNode(id, pattern.kind, ink, step, w, ox, oy, off));
    return "url(#" + id + ")";
  }
}

function patternNode(id, kind, ink, step, w, ox, oy, off) {
  const children = [];
  const line = (x1, y1, x2, y2) => children.push({ tag: "line", attrs: { x1, y1, x2, y2, stroke: ink, "stroke-width": w } });
  if (kind === "hatch" || kind === "cross") {
    // rising lines x + y = k * step from the shape's corner
    for (const k of [0, 1, 2]) line(k * step - step - 1, step + 1, k * step + 1, -1 + 0);
  }
  if (kind === "cross") {
    // falling lines x - y = off + k * step (renderer.painter.pattern_mask)
    for (const k of [-1, 0, 1]) line(off + k * step - 1, -1, off + k * step + step + 1, step + 1);
  }
  if (kind === "stripes") {
    const y = Math.floor(step / 2);
    line(-1, y, step + 1, y);
  }
  if (kind === "dots") {
    const c = Math.floor(step / 2);
    children.push({ tag: "circle", attrs: { cx: c, cy: c, r: w + 0.5, fill: ink } });
  }
  return {
    tag: "pattern",
    attrs: { id, patternUnits: "userSpaceOnUse", width: step, height: step, x: ox, y: oy },
    children,
  };
}

/** "M x y L ... Z" of polygons. */
function pathOf(polygons) {
  return polygons
    .filter((p) => p.length)
    .map((p) => "M" + p.map(([x, y]) => n(x) + " " + n(y)).join("L") + "Z")
    .join("");
}

/**
 * The nodes that draw `item` in the palette `pal` ({cues, colour(token)}); [] for an item the theme does
 * not show. Patterns go to `patterns` (a Patterns).
 */
export function nodes(item, scene, pal, patterns) {
  if (!shown(item, pal.cues)) return [];
  const draw = DRAWERS[item.type];
  return draw ? draw(item, scene, pal, patterns) : [];
}

function rect(item, scene, pal, patterns) {
  const [l, t, r, b] = item.box;
  const x = l - BOARD_SHIFT, y = t - BOARD_SHIFT, w = r - l, h = b - t;
  if (w <= 0 || h <= 0) return [];
  const fill = item.fill ? pal.colour(item.fill) : null;
  const stroke = item.stroke ? pal.colour(item.stroke) : null;
  const out = [];
  const radius = item.radius || 0;
  const sw = stroke ? Math.max(1, Math.round(item.width ?? 1)) : 0;
  const base = { x: n(x + sw / 2), y: n(y + sw / 2), width: n(Math.max(0, w - sw)), height: n(Math.max(0, h - sw)) };
  if (radius > 0) { base.rx = n(Math.max(0, radius - sw / 2)); }
  out.push({ tag: "rect", attrs: Object.assign({}, base, { fill: fill || "none" }, stroke ? { stroke, "stroke-width": sw } : {}) });
  if (item.pattern && pal.cues && !radius) {
    const side = Math.max(Math.round(r) - Math.round(l), Math.round(b) - Math.round(t));
    const url = patterns.use(item.pattern, pal.colour(item.pattern.ink), Math.round(l), Math.round(t), side);
    out.push({ tag: "rect", attrs: { x: n(x), y: n(y), width: n(w), height: n(h), fill: url } });
    if (stroke) out.push({ tag: "rect", attrs: Object.assign({}, base, { fill: "none", stroke, "stroke-width": sw }) });
  }
  return out;
}

function polygon(item, scene, pal, patterns) {
  const polys = polygonsOf(item, scene);
  const d = pathOf(polys);
  if (!d) return [];
  const fill = item.fill ? pal.colour(item.fill) : null;
  const stroke = item.stroke ? pal.colour(item.stroke) : null;
  // Pillow fills a polygon's edge pixels too: a fill-coloured hairline gives the same coverage, and no
  // seam shows between neighbouring cells.
  const attrs = { d, fill: fill || "none", "stroke-linejoin": "round" };
  if (fill && !stroke) Object.assign(attrs, { stroke: fill, "stroke-width": 1 });
  const out = [{ tag: "path", attrs }];
  if (item.pattern && pal.cues) {
    const ink = pal.colour(item.pattern.ink);
    for (const poly of polys) {
      if (!poly.length) continue;
      const xs = poly.map((p) => p[0]), ys = poly.map((p) => p[1]);
      const x0 = Math.floor(Math.min(...xs)), y0 = Math.floor(Math.min(...ys));
      const side = Math.max(Math.ceil(Math.max(...xs)) + 1 - x0, Math.ceil(Math.max(...ys)) + 1 - y0);
      out.push({ tag: "path", attrs: { d: pathOf([poly]), fill: patterns.use(item.pattern, ink, x0, y0, side) } });
    }
  }
  if (stroke) out.push({ tag: "path", attrs: { d, fill: "none", stroke, "stroke-width": 1, "stroke-linejoin": "round" } });
  return out;
}

function circle(item, scene, pal) {
  const fill = pal.colour(item.fill);
  const [cx0, cy0] = item.centre;
  const r = item.r;
  if (item.shading === "dot") {
    const attrs = { cx: n(cx0), cy: n(cy0), r: n(r + 0.5), fill };
    const w = Math.round(item.width || 0);
    if (item.stroke && w > 0) {
      Object.assign(attrs, { r: n(r + 0.5 - w / 2), stroke: pal.colour(item.stroke), "stroke-width": w });
    }
    return [{ tag: "circle", attrs }];
  }
  const cx = cx0 - BOARD_SHIFT, cy = cy0 - BOARD_SHIFT;
  const rim = item.stroke ? pal.colour(item.stroke) : fill;
  const out = [];
  if (item.shading === "shadow" || item.shading === "sphere") {
    const pad = Math.ceil(r * SHADOW.offset);
    out.push({ tag: "circle", attrs: { cx: n(cx + pad), cy: n(cy + pad), r: n(r), fill: "#000000", "fill-opacity": n(SHADOW.opacity) } });
  }
  const inner = r - (item.width || 0);
  out.push({ tag: "circle", attrs: { cx: n(cx), cy: n(cy), r: n(r), fill: rim } });
  if (inner > 0 && rim !== fill) out.push({ tag: "circle", attrs: { cx: n(cx), cy: n(cy), r: n(inner), fill } });
  if (item.shading === "sphere") {
    const light = blend(fill, "#ffffff", 0.6);
    const off = r * SPHERE_SHINE[1];
    out.push({ tag: "circle", attrs: { cx: n(cx - off), cy: n(cy - off), r: n(r * SPHERE_SHINE[0]), fill: light } });
  }
  if (item.text) {
    const size = item.text_size || Math.round(r);
    out.push({
      tag: "text",
      attrs: { x: n(cx), y: n(baseline(cy, size, "c")), "font-size": size, "text-anchor": "middle", fill: pal.colour(item.text_colour || "ink") },
      text: item.text,
    });
  }
  return out;
}

function line(item, scene, pal) {
  const pts = pairs(item.points);
  if (pts.length < 2) return [];
  const stroke = pal.colour(item.stroke);
  const w = Math.max(1, Math.round(item.width ?? 1));
  const attrs = {
    points: pts.map(([x, y]) => n(x) + "," + n(y)).join(" "),
    fill: "none",
    stroke,
    "stroke-width": w,
    "stroke-linecap": item.caps === "round" ? "round" : "butt",
    "stroke-linejoin": item.closed ? "round" : "miter",
  };
  return [{ tag: item.closed ? "polygon" : "polyline", attrs }];
}

function ring(item, scene, pal) {
  const cx = item.centre[0] - BOARD_SHIFT, cy = item.centre[1] - BOARD_SHIFT;
  const width = item.width ?? RING.width, thin = item.thin ?? RING.thin;
  const circle = (r, token, w) => ({ tag: "circle", attrs: { cx: n(cx), cy: n(cy), r: n(r), fill: "none", stroke: pal.colour(token), "stroke-width": n(w) } });
  return [
    circle(item.r + width / 2 + thin / 2, item.edge || RING.edge, thin),
    circle(item.r, item.stroke || RING.stroke, width),
    circle(item.r - thin, item.inner || RING.inner, thin),
  ];
}

function text(item, scene, pal) {
  if (!item.text) return [];
  const anchor = item.anchor || "lt";
  const attrs = {
    x: n(item.at[0] - BOARD_SHIFT),
    y: n(baseline(item.at[1], item.size, anchor[1]) - BOARD_SHIFT),
    "font-size": item.size,
    "text-anchor": { l: "start", m: "middle", r: "end" }[anchor[0]] || "start",
    fill: pal.colour(item.colour),
  };
  if (item.weight && item.weight !== "normal") attrs["font-weight"] = item.weight;
  return [{ tag: "text", attrs, text: item.text }];
}

/** A seat's mark (renderer.canvas.mark_polygon) as [x, y] corners: a square of half-side 0.85r; a
 * triangle with its apex 1.1r above the centre and its base 0.75r below; a diamond 1.15r high and r wide
 * each way; anything else a circle of radius r, as a 16-gon. */
export function markCorners(shape, cx, cy, r) {
  if (shape === "square") { const s = r * 0.85; return [[cx - s, cy - s], [cx + s, cy - s], [cx + s, cy + s], [cx - s, cy + s]]; }
  if (shape === "triangle") return [[cx, cy - r * 1.1], [cx + r, cy + r * 0.75], [cx - r, cy + r * 0.75]];
  if (shape === "diamond") return [[cx, cy - r * 1.15], [cx + r, cy], [cx, cy + r * 1.15], [cx - r, cy]];
  return Array.from({ length: 16 }, (_, a) => [cx + r * Math.cos((a * Math.PI) / 8), cy + r * Math.sin((a * Math.PI) / 8)]);
}

function mark(item, scene, pal) {
  const fill = pal.colour(item.fill);
  const d = pathOf([markCorners(item.shape, item.centre[0], item.centre[1], item.r)]);
  return [{ tag: "path", attrs: { d, fill, stroke: fill, "stroke-width": 1, "stroke-linejoin": "round" } }];
}

const DRAWERS = { rect, polygon, circle, line, ring, mark, text };

/** A node description as SVG markup (for tests, and a picture saved without a document). */
export function markup(node) {
  const attrs = Object.entries(node.attrs || {}).map(([k, v]) => ` ${k}="${escape(String(v))}"`).join("");
  const inner = (node.text !== undefined ? escape(node.text) : "") + (node.children || []).map(markup).join("");
  return `<${node.tag}${attrs}>${inner}</${node.tag}>`;
}

function escape(s) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The whole scene as standalone SVG markup in a theme (board and panel layers, as the PNG has them). */
export function sceneMarkup(scene, theme, { layers = ["board", "panel"], view = null } = {}) {
  const pal = paletteOf(scene, theme);
  const patterns = new Patterns();
  const body = [];
  for (const item of scene.items) {
    if (!layers.includes(item.layer || "board")) continue;
    for (const node of nodes(item, scene, pal, patterns)) body.push(markup(node));
  }
  const box = view || [0, 0, scene.width, scene.height];
  const defs = [...patterns.defs.values()].map(markup).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${box.join(" ")}" width="${box[2]}" height="${box[3]}">` +
    `<rect x="${box[0]}" y="${box[1]}" width="${box[2]}" height="${box[3]}" fill="${pal.colour(scene.background || "background")}"/>` +
    `<defs>${defs}</defs><g transform="translate(${BOARD_SHIFT} ${BOARD_SHIFT})" font-family="DejaVu Sans, sans-serif">${body.join("")}</g></svg>`;
}
