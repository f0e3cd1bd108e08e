// Play by narrowing (web/js/play.js): the legal moves the server sent, narrowed by the cells chosen.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as play from "../../../web/js/play.js";

// Paint-like moves: from a disc to a square (ordered); a placement of two cells in any order; pieces.
const slides = [["a1-a3", [0, 2], true, "", 0, false], ["a1-b1", [0, 3], true, "", 0, false], ["c1-c2", [6, 7], true, "", 0, false]];
const pieces = [
  ["I2 a1", [0, 1], false, "I2", 0, false], ["I2 b1", [1, 2], false, "I2", 0, false],
  ["I2 a1v", [0, 3], false, "I2", 1, false], ["L3 a1", [0, 1, 4], false, "L3", 0, false],
  ["L3 a1m", [0, 1, 3], false, "L3", 0, true], ["L3 a1r", [1, 4, 5], false, "L3", 1, false],
];

test("a click narrows, a second one plays the only move left", () => {
  assert.deepEqual([...play.targets(slides, [])].sort(), [0, 6]);
  let step = play.click(slides, [], 0);
  assert.deepEqual(step, { chosen: [0] });
  assert.deepEqual([...play.targets(slides, [0])].sort(), [2, 3]);
  step = play.click(slides, [0], 3);
  assert.equal(step.play, "a1-b1");
});

test("a click on a chosen cell takes it back; a click that fits nothing starts again there", () => {
  assert.deepEqual(play.click(slides, [0], 0), { chosen: [] });
  assert.deepEqual(play.click(slides, [0], 6), { chosen: [6] });
  assert.deepEqual(play.click(slides, [0], 5), { chosen: [] });
});

test("pieces: groups in natural order, poses, turning and mirroring", () => {
  assert.deepEqual(play.groups(pieces), ["I2", "L3"]);
  assert.deepEqual(play.posesOf(pieces, "L3"), [[0, false], [1, false], [0, true]]);
  assert.deepEqual(play.rotated(pieces, "L3", [0, false]), [1, false]);
  assert.deepEqual(play.rotated(pieces, "L3", [1, false]), [0, false]);
  assert.deepEqual(play.reflected(pieces, "L3", [0, false]), [0, true]);
  assert.equal(play.reflected(pieces, "I2", [0, false]), null);
});

test("the ghost hangs from the cell pointed at, in the pose chosen", () => {
  assert.deepEqual(play.ghost(pieces, "I2", [0, false], 1, null)[1], [1, 2]);
  assert.deepEqual(play.ghost(pieces, "I2", [1, false], 0, null)[1], [0, 3]);
  assert.equal(play.ghost(pieces, "I2", [0, false], 9, null), null);
  const centres = { 0: [0, 0], 1: [1, 0], 2: [2, 0], 3: [0, 1], 4: [1, 1], 5: [2, 1] };
  assert.deepEqual(play.ghost(pieces, "L3", [1, false], 5, centres)[1], [1, 4, 5], "nearest placement covering the cell");
});

test("each piece's shape for the tray is one of its moves in its first pose", () => {
  const shapes = play.shapes(pieces);
  assert.deepEqual(shapes.get("I2"), [0, 1]);
  assert.deepEqual(shapes.get("L3"), [0, 1, 4]);
});

test("legal-move marks go round the cells whose middle shows a rank, a stone, a piece or a label", () => {
  const square = (x) => [x, 0, x + 10, 0, x + 10, 10, x, 10];
  const scene = { cells: [0, 10, 20, 30, 40, 50].map(square), items: [
    { type: "circle", key: "d", kind: "disc", cells: [1], text: "3" },
    { type: "text", key: "n", kind: "label", cells: [2], text: "1", at: [25, 5] },
    { type: "polygon", key: "c", kind: "cell", cells: [3] },
    { type: "text", key: "k", kind: "label", layer: "panel", cells: [4], text: "x", at: [45, 5] },
    { type: "text", key: "corner", kind: "label", cells: [5], text: "P", at: [51, 1] },
  ] };
  assert.deepEqual([...play.covered(scene)].sort(), [1, 2], "a letter in a corner leaves the middle free");
});

test("the server's compact moves expand to cells and notations", () => {
  const labels = ["a1", "b1", "c1", "a2", "b2", "c2"];
  const compact = [
    ["I2", 0, 0, 0, [0, 1], [0, 1, 2]],                 // a1 b1, b1 c1, c1 d1... anchors 0, 1, 3
    ["", 0, 0, 1, [0, 3], [1], ["b1-b2"]],              // a slide with its own notation
  ];
  const moves = play.expand(compact, labels);
  assert.deepEqual(moves[0], ["a1 b1", [0, 1], false, "I2", 0, false]);
  assert.deepEqual(moves[1], ["b1 c1", [1, 2], false, "I2", 0, false]);
  assert.deepEqual(moves[2][1], [3, 4]);
  assert.deepEqual(moves[3], ["b1-b2", [1, 4], true, "", 0, false]);
  assert.deepEqual(play.expand([["x", [1], true, "", 0, false]], labels), [["x", [1], true, "", 0, false]]);
});
