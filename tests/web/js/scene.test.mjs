// The scene's diff applied in the browser (web/js/scene.js) gives the scene the server would send.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyDiff, boardView, mergePalettes, palette, shown, StaleDiff } from "../../../web/js/scene.js";

const rect = (key, box, extra = {}) => Object.assign({ type: "rect", key, kind: "cell", box, fill: "light" }, extra);
const disc = (key, x, y, extra = {}) => Object.assign({ type: "circle", key, kind: "disc", centre: [x, y], r: 10, fill: "disc_white" }, extra);
const base = () => ({
  game: "paint", width: 960, height: 640, ply: 4, fixed: 1, background: "background",
  items: [rect("frame", [10, 100, 200, 300], { kind: "frame" }), rect("cell:0", [20, 110, 60, 150]), disc("disc:0", 40, 130)],
  panel: { title: "T", status: "s", move: 2 }, cells: [[20, 110, 60, 110, 60, 150, 20, 150]], labels: ["a1"],
  palettes: { default: { cues: false, colours: { light: "#fff6d8", disc_white: "#ffffff", background: "#f4efe6" } } },
});

test("a diff removes, changes and places items where they belong", () => {
  const diff = {
    game: "paint", before: 4, after: 5,
    removed: ["disc:0"],
    changed: [rect("cell:0", [20, 110, 60, 150], { fill: "dark" })],
    placed: [[null, rect("bg", [0, 0, 960, 640], { kind: "background" })], ["cell:0", disc("disc:1", 80, 130)], ["disc:1", disc("disc:2", 90, 130)]],
    panel: { title: "T", status: "next", move: 3 },
    palettes: { default: { cues: false, colours: { dark: "#5b6078" } }, dark: { cues: false, colours: { dark: "#333333" } } },
  };
  const out = applyDiff(base(), diff);
  assert.deepEqual(out.items.map((i) => i.key), ["bg", "frame", "cell:0", "disc:1", "disc:2"]);
  assert.equal(out.items[2].fill, "dark");
  assert.equal(out.ply, 5);
  assert.equal(out.panel.status, "next");
  assert.equal(out.labels[0], "a1", "what the diff leaves out stays");
  assert.equal(out.palettes.default.colours.dark, "#5b6078");
  assert.equal(out.palettes.default.colours.light, "#fff6d8", "palettes merge");
  assert.equal(out.palettes.dark.colours.dark, "#333333");
});

test("a diff made for another ply or game is refused", () => {
  assert.throws(() => applyDiff(base(), { game: "paint", before: 3, after: 4 }), StaleDiff);
  assert.throws(() => applyDiff(base(), { game: "tilingking", before: 4, after: 5 }), StaleDiff);
});

test("the size, cells, labels and fixed count change when the diff says so", () => {
  const out = applyDiff(base(), { game: "paint", before: 4, after: 5, size: [480, 320], cells: [], labels: [], fixed: 0 });
  assert.deepEqual([out.width, out.height, out.cells, out.labels, out.fixed], [480, 320, [], [], 0]);
});

test("a theme's palette, with literal colours and the default theme's as a fallback", () => {
  const sc = base();
  sc.palettes.colorblind = { cues: true, colours: { light: "#f0e442" } };
  const pal = palette(sc, "colorblind");
  assert.equal(pal.cues, true);
  assert.equal(pal.colour("light"), "#f0e442");
  assert.equal(pal.colour("disc_white"), "#ffffff");
  assert.equal(pal.colour("#123456"), "#123456");
  assert.equal(palette(sc, "nonesuch").colour("light"), "#fff6d8");
});

test("items shown only with cues, or only without", () => {
  assert.equal(shown({}, true), true);
  assert.equal(shown({ show: "cues" }, true), true);
  assert.equal(shown({ show: "cues" }, false), false);
  assert.equal(shown({ show: "plain" }, false), true);
  assert.equal(shown({ show: "plain" }, true), false);
});

test("the board's view leaves out the panel layer", () => {
  const sc = base();
  sc.items.push(rect("panel", [600, 90, 960, 640], { kind: "panel", layer: "panel" }));
  const [x, y, w, h] = boardView(sc, 0);
  assert.deepEqual([x, y, x + w, y + h], [10, 100, 200, 300]);
});

test("palettes merge per theme", () => {
  const merged = mergePalettes({ a: { cues: false, colours: { x: "#000000" } } }, { a: { colours: { y: "#111111" } }, b: { cues: true, colours: {} } });
  assert.deepEqual(merged, { a: { cues: false, colours: { x: "#000000", y: "#111111" } }, b: { cues: true, colours: {} } });
});
