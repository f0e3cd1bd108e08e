// The SVG painter (web/js/painter.js): each primitive as the Pillow painter draws it, in a theme's colours.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BOARD_SHIFT, baseline, blend, markup, nodes, Patterns, sceneMarkup, SHADOW, FONT } from "../../../web/js/painter.js";

const colours = { ink: "#22223b", light: "#fff6d8", dark: "#5b6078", hl: "#e8b400", rim: "#000000", white: "#ffffff", highlight: "#ff00aa", highlight_ink: "#ffffff", background: "#f4efe6" };
const pal = (cues = false) => ({ cues, colour: (t) => colours[t] || t });
const scene = { cells: [[0, 0, 10, 0, 10, 10, 0, 10], [10, 0, 20, 0, 20, 10, 10, 10]] };
const draw = (item, cues = false, patterns = new Patterns()) => nodes(item, scene, pal(cues), patterns);

test("a rectangle covers its box (right and bottom exclusive) with its outline inside", () => {
  const [r] = draw({ type: "rect", key: "r", kind: "frame", box: [10, 20, 30, 60], fill: "light" });
  assert.deepEqual(r.attrs, { x: 10 - BOARD_SHIFT, y: 20 - BOARD_SHIFT, width: 20, height: 40, fill: "#fff6d8" });
  const [o] = draw({ type: "rect", key: "r", kind: "frame", box: [10, 20, 30, 60], stroke: "ink", width: 4 });
  assert.equal(o.attrs.fill, "none");
  assert.equal(o.attrs["stroke-width"], 4);
  assert.equal(o.attrs.x, 10 - BOARD_SHIFT + 2, "the outline's middle lies half its width inside");
  assert.equal(o.attrs.width, 16);
});

test("a pattern is drawn only in a theme with second cues, laid from the shape's corner", () => {
  const item = { type: "rect", key: "r", kind: "cell", box: [11, 21, 31, 41], fill: "light", pattern: { kind: "hatch", ink: "dark", step: 4, width: 1 } };
  assert.equal(draw(item).length, 1);
  const patterns = new Patterns();
  const drawn = draw(item, true, patterns);
  assert.equal(drawn.length, 2);
  assert.match(drawn[1].attrs.fill, /^url\(#p-hatch-5b6078-4-1-3-1-0\)$/);
  const [def] = patterns.defs.values();
  assert.equal(def.tag, "pattern");
  assert.deepEqual([def.attrs.x, def.attrs.y, def.attrs.width], [3, 1, 4], "the tile's origin is the box's corner, modulo the step");
  assert.ok(def.children.every((c) => c.attrs.stroke === "#5b6078"));
  for (const kind of ["stripes", "dots", "cross"]) {
    const p = new Patterns();
    draw(Object.assign({}, item, { pattern: { kind, ink: "dark", step: 6, width: 1 } }), true, p);
    assert.equal(p.defs.size, 1, kind);
  }
});

test("items shown only with cues, or only without, follow the theme", () => {
  const item = { type: "text", key: "t", kind: "label", at: [0, 0], text: "x", size: 10, colour: "ink", show: "cues" };
  assert.equal(draw(item).length, 0);
  assert.equal(draw(item, true).length, 1);
  assert.equal(draw(Object.assign({}, item, { show: "plain" }), true).length, 0);
});

test("a polygon of cells draws each cell's polygon, with a hairline of its fill where it has no outline", () => {
  const [p] = draw({ type: "polygon", key: "p", kind: "piece", cells: [0, 1], fill: "dark" });
  assert.equal(p.tag, "path");
  assert.equal(p.attrs.d, "M0 0L10 0L10 10L0 10ZM10 0L20 0L20 10L10 10Z");
  assert.equal(p.attrs.stroke, "#5b6078");
  const drawn = draw({ type: "polygon", key: "p", kind: "cell", points: [0, 0, 5, 0, 5, 5], fill: "light", stroke: "ink" });
  assert.equal(drawn.length, 2);
  assert.equal(drawn[1].attrs.stroke, "#22223b");
  assert.equal(drawn[1].attrs.fill, "none");
});

test("a disc with a shadow, a rim and its rank; a sphere has a highlight; a dot is hard-edged", () => {
  const drawn = draw({ type: "circle", key: "d", kind: "disc", centre: [100, 50], r: 20, fill: "white", stroke: "rim", width: 2, shading: "shadow", text: "3", text_size: 24, text_colour: "ink" });
  assert.deepEqual(drawn.map((n) => n.tag), ["circle", "circle", "circle", "text"]);
  const [shadow, rim, inside, rank] = drawn;
  assert.equal(shadow.attrs["fill-opacity"], Math.round(SHADOW.opacity * 100) / 100);
  assert.equal(shadow.attrs.cx - rim.attrs.cx, Math.ceil(20 * SHADOW.offset));
  assert.deepEqual([rim.attrs.r, rim.attrs.fill, inside.attrs.r, inside.attrs.fill], [20, "#000000", 18, "#ffffff"]);
  assert.equal(rank.text, "3");
  assert.equal(rank.attrs["text-anchor"], "middle");
  const sphere = draw({ type: "circle", key: "s", kind: "disc", centre: [0, 0], r: 27, fill: "dark", shading: "sphere" });
  assert.equal(sphere.at(-1).attrs.fill, blend("#5b6078", "#ffffff", 0.6));
  assert.equal(sphere.at(-1).attrs.r, 7);
  const [dot] = draw({ type: "circle", key: "o", kind: "mark", centre: [5, 5], r: 3, fill: "hl", shading: "dot" });
  assert.deepEqual([dot.attrs.cx, dot.attrs.r], [5, 3.5], "Pillow's ellipse holds both ends of its box");
});

test("the last-move ring is three rings: an edge, the ring, an inner line", () => {
  const drawn = draw({ type: "ring", key: "mark:last", kind: "mark", centre: [50, 50], r: 20 });
  assert.deepEqual(drawn.map((n) => n.attrs.stroke), ["#22223b", "#ff00aa", "#ffffff"]);
  assert.deepEqual(drawn.map((n) => n.attrs.r), [22.35, 20, 18.8]);
});

test("lines: open with butt or round caps, closed with round joints", () => {
  const [open] = draw({ type: "line", key: "l", kind: "outline", points: [0, 0, 10, 0, 10, 10], stroke: "ink", width: 3, caps: "round" });
  assert.equal(open.tag, "polyline");
  assert.equal(open.attrs["stroke-linecap"], "round");
  const [closed] = draw({ type: "line", key: "l", kind: "outline", points: [0, 0, 10, 0, 10, 10], stroke: "ink", closed: true });
  assert.equal(closed.tag, "polygon");
  assert.equal(closed.attrs["stroke-linejoin"], "round");
});

test("texts sit on their anchor: left, middle or right; top, middle, bottom of the line, or the ink's middle", () => {
  const at = (anchor) => draw({ type: "text", key: "t", kind: "label", at: [100, 200], text: "Ab", size: 20, colour: "ink", anchor })[0].attrs;
  assert.equal(at("lt")["text-anchor"], "start");
  assert.equal(at("mm")["text-anchor"], "middle");
  assert.equal(at("rb")["text-anchor"], "end");
  assert.equal(at("lt").y, 200 + Math.round(FONT.ascent * 20) - BOARD_SHIFT);
  assert.equal(at("lb").y, 200 - Math.round(FONT.descent * 20) - BOARD_SHIFT);
  assert.ok(at("lt").y > at("lm").y && at("lm").y > at("lb").y);
  assert.equal(baseline(0, 20, "c"), FONT.cap * 10);
});

test("markup escapes text and a whole scene draws in any theme", () => {
  assert.equal(markup({ tag: "text", attrs: { x: 1 }, text: "<b>&\"" }), '<text x="1">&lt;b&gt;&amp;&quot;</text>');
  const sc = {
    width: 100, height: 60, background: "background", cells: [],
    items: [{ type: "rect", key: "a", kind: "cell", box: [0, 0, 10, 10], fill: "light" }, { type: "text", key: "p", kind: "panel", layer: "panel", at: [50, 5], text: "panel", size: 9, colour: "ink" }],
    palettes: { default: { cues: false, colours: { light: "#fff6d8", background: "#f4efe6", ink: "#22223b" } }, dark: { cues: false, colours: { light: "#e9dfbd", background: "#1d1f27", ink: "#eeeeee" } } },
  };
  const svg = sceneMarkup(sc, "dark", { layers: ["board"] });
  assert.match(svg, /fill="#e9dfbd"/);
  assert.match(svg, /fill="#1d1f27"/);
  assert.doesNotMatch(svg, /panel/, "the panel layer is the page's HTML");
});

test("a seat's mark is its shape filled", () => {
  const [square] = draw({ type: "mark", key: "m", kind: "mark", centre: [10, 10], r: 4, shape: "square", fill: "ink" });
  assert.equal(square.attrs.d, "M6.6 6.6L13.4 6.6L13.4 13.4L6.6 13.4Z");
  assert.equal(square.attrs.fill, "#22223b");
  const [circle] = draw({ type: "mark", key: "m", kind: "mark", centre: [0, 0], r: 4, shape: "circle", fill: "ink" });
  assert.equal(circle.attrs.d.split("L").length, 16);
});
