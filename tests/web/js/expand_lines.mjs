// Reads lines of JSON {"compact": [...], "labels": [...]} on stdin and writes, per line, the moves
// web/js/play.js expands them to (tests/web/test_js.py compares them with the server's own).
import { createInterface } from "node:readline";
import { expand } from "../../../web/js/play.js";

createInterface({ input: process.stdin }).on("line", (line) => {
  const { compact, labels } = JSON.parse(line);
  process.stdout.write(JSON.stringify(expand(compact, labels)) + "\n");
});
