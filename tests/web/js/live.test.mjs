// Never a stale board (web/js/live.js): the state fetched once, a failure retried with backoff and said,
// an update that does not follow the board shown fetches the state again, a stream that comes back catches up.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Live, backoff } from "../../../web/js/live.js";

class FakeSource {
  static all = [];
  constructor(url) { this.url = url; this.readyState = 0; this.listeners = {}; FakeSource.all.push(this); }
  addEventListener(name, f) { this.listeners[name] = f; }
  close() { this.readyState = 2; }
  open() { this.readyState = 1; this.onopen && this.onopen(); }
  fail(closed) { this.readyState = closed ? 2 : 0; this.onerror && this.onerror(); }
  send(data) { this.listeners.state({ data: JSON.stringify(data) }); }
  busy(text) { this.listeners.busy({ data: JSON.stringify({ text }) }); this.fail(false); }
}

function harness(answers) {
  FakeSource.all = [];
  const calls = [], states = [], statuses = [], timers = [];
  const live = new Live({
    stateUrl: () => "/api/m/x",
    eventsUrl: (ply) => "/api/m/x/events?ply=" + ply,
    onState: (s) => states.push(s),
    onEvent: (d) => d.ply === states.at(-1).ply + 1 && !d.gap,
    onStatus: (s) => statuses.push(s),
    fetch: async (url) => {
      calls.push(url);
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return { ok: next.status === 200, status: next.status, json: async () => next.body, text: async () => "refused" };
    },
    EventSource: FakeSource,
    setTimeout: (f, ms) => { timers.push([f, ms]); return timers.length; },
    clearTimeout: () => {},
    random: () => 0,
  });
  const tick = async () => { const [f] = timers.shift(); f(); await new Promise((r) => setImmediate(r)); };
  return { live, calls, states, statuses, timers, tick };
}

const ok = (ply) => ({ status: 200, body: { ply } });

test("backoff doubles up to a minute", () => {
  assert.deepEqual([0, 1, 2, 3, 6, 9].map((a) => backoff(a, () => 0)), [1, 2, 4, 8, 60, 60]);
  assert.equal(backoff(0, () => 1), 1.2);
});

test("the first load fetches the state once, then listens from its ply", async () => {
  const h = harness([ok(3)]);
  await h.live.start();
  assert.equal(h.calls.length, 1);
  assert.equal(FakeSource.all[0].url, "/api/m/x/events?ply=3");
  FakeSource.all[0].open();
  assert.equal(h.calls.length, 1, "opening the stream does not fetch again");
});

test("a page that came with its state fetches nothing and listens from its ply", async () => {
  const h = harness([]);
  await h.live.start({ ply: 7 });
  assert.equal(h.calls.length, 0);
  assert.equal(h.states[0].ply, 7);
  assert.equal(FakeSource.all[0].url, "/api/m/x/events?ply=7");
});

test("a failed fetch is retried with backoff and said; it recovers", async () => {
  const h = harness([new Error("network"), { status: 500, body: null }, ok(5)]);
  const started = h.live.start();
  await new Promise((r) => setImmediate(r));
  assert.equal(h.statuses.at(-1).kind, "retrying");
  assert.equal(h.statuses.at(-1).seconds, 1);
  await h.tick();
  assert.equal(h.statuses.at(-1).seconds, 2);
  await h.tick();
  await started;
  assert.equal(h.states.at(-1).ply, 5);
  assert.equal(h.statuses.at(-1).kind, "ok");
  assert.equal(FakeSource.all.length, 1, "listening once loaded");
});

test("retry now does not wait for the backoff", async () => {
  const h = harness([new Error("network"), ok(2)]);
  const started = h.live.start();
  await new Promise((r) => setImmediate(r));
  await h.live.retryNow();
  await started;
  assert.equal(h.states.at(-1).ply, 2);
});

test("a gap in the updates fetches the whole state", async () => {
  const h = harness([ok(3), ok(6)]);
  await h.live.start();
  const es = FakeSource.all[0];
  es.open();
  es.send({ ply: 4 });
  assert.equal(h.calls.length, 1, "an update that follows is taken");
  es.send({ ply: 6, gap: true });
  await new Promise((r) => setImmediate(r));
  assert.equal(h.calls.length, 2);
  assert.equal(h.states.at(-1).ply, 6);
  es.send({ nonsense: true });
  await new Promise((r) => setImmediate(r));
  assert.equal(h.calls.length, 3, "an update without its ply is not trusted");
});

test("a stream that breaks says so and catches up when it comes back; one closed for good is reopened", async () => {
  const h = harness([ok(3), ok(4), ok(4)]);
  await h.live.start();
  const es = FakeSource.all[0];
  es.open();
  es.fail(false);
  assert.equal(h.statuses.at(-1).kind, "reconnecting");
  es.open();
  await new Promise((r) => setImmediate(r));
  assert.equal(h.calls.length, 2, "what happened meanwhile is fetched");
  es.fail(true);
  assert.equal(h.statuses.at(-1).kind, "retrying");
  await h.tick();
  await new Promise((r) => setImmediate(r));
  assert.equal(FakeSource.all.length, 2, "a new stream");
});

test("a link that names no board is said once, not retried", async () => {
  const h = harness([{ status: 404, body: null }]);
  await h.live.start();
  assert.equal(h.statuses.at(-1).kind, "gone");
  assert.equal(h.timers.length, 0);
  assert.equal(FakeSource.all.length, 0, "nor listened to");
});

test("a large event comes deflated and is inflated in order", async () => {
  const { deflateRawSync } = await import("node:zlib");
  const { unpack } = await import("../../../web/js/live.js");
  const big = { ply: 9, moves: Array.from({ length: 50 }, (_, i) => ({ ply: i, text: "a move in words" })) };
  const packed = JSON.stringify({ ply: 9, deflated: deflateRawSync(Buffer.from(JSON.stringify(big))).toString("base64") });
  assert.deepEqual(await unpack(packed), big);
  assert.deepEqual(await unpack('{"ply": 3}'), { ply: 3 });
});

test("a stream the server refuses as busy says why until the browser comes back, then catches up", async () => {
  const h = harness([ok(3), ok(5)]);
  await h.live.start();
  const source = FakeSource.all[0];
  source.busy("Too many live boards open from your address.");
  assert.deepEqual(h.statuses.at(-1), { kind: "busy", text: "Too many live boards open from your address." });
  source.open();
  assert.deepEqual(h.statuses.at(-1), { kind: "ok" });
  await new Promise((r) => setImmediate(r));
  assert.equal(h.calls.length, 2, "back after the refusal: what happened meanwhile is fetched");
});
