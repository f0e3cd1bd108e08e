// The panel's live clocks (issue 43): they count down from when they were read, show tenths under ten
// seconds, and turn "low" under their low time (10 s, or a tenth of the base).
import { test } from "node:test";
import assert from "node:assert/strict";
import { clockText, tickClocks } from "../../../web/js/panel.js";

function fakeClock(seconds, at, low) {
  const classes = new Set(["clock", "running"]);
  return {
    dataset: { seconds: String(seconds), at: String(at), low: String(low) },
    textContent: "",
    classList: { toggle: (name, on) => (on ? classes.add(name) : classes.delete(name)), has: (n) => classes.has(n) },
  };
}

function root(clocks) {
  return { querySelectorAll: (selector) => (selector === ".clock.running" ? clocks : []) };
}

test("a clock reads minutes and seconds, hours when it has them, tenths under ten seconds", () => {
  assert.equal(clockText(245), "4:05");
  assert.equal(clockText(3723), "1:02:03");
  assert.equal(clockText(9.46), "0:09.4");
  assert.equal(clockText(-3), "0:00.0");
});

test("a running clock ticks down from when it was read and turns low under its low time", () => {
  const clock = fakeClock(65, 1_000_000, 30);
  const page = root([clock]);
  assert.deepEqual(tickClocks(page, 1_000_000 + 5_000), [60]);
  assert.equal(clock.textContent, "1:00");
  assert.equal(clock.classList.has("low"), false);
  tickClocks(page, 1_000_000 + 36_000);
  assert.equal(clock.textContent, "0:29");
  assert.equal(clock.classList.has("low"), true);
  assert.deepEqual(tickClocks(page, 1_000_000 + 70_000), [0]);
  assert.equal(clock.textContent, "0:00.0");
});
