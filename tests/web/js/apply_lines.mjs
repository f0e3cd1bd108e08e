// Reads lines of JSON {"old": scene, "diff": diff} on stdin and writes, per line, the scene web/js/scene.js
// makes of them (tests/web/test_js.py compares it with the server's own).
import { createInterface } from "node:readline";
import { applyDiff } from "../../../web/js/scene.js";

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const { old, diff } = JSON.parse(line);
  let out;
  try { out = { scene: applyDiff(old, diff) }; } catch (e) { out = { error: String(e.message || e) }; }
  process.stdout.write(JSON.stringify(out) + "\n");
});
