// Never a stale board: the state is fetched once on load, then kept by the event stream. Every update
// carries its ply; one that does not follow the board shown (a gap: updates missed while the stream was
// slow or away) or a failed fetch makes the page fetch the whole state again, retrying with backoff and
// saying so; a stream that reconnects fetches what it missed. Everything the page needs from the browser
// (fetch, EventSource, timers) is passed in, so tests drive it without one.

/** Seconds between tries after a failure: doubling, at most a minute (each with up to a fifth more, so
 * many pages that lost the same server do not come back at the same moment). */
export function backoff(attempt, random = Math.random) {
  const base = Math.min(60, 2 ** Math.min(attempt, 6));
  return base * (1 + random() / 5);
}

/**
 * An event as the server wrote it (bot/web/wire.py `packed`): its JSON, or {"ply", "deflated": base64 of
 * its raw-deflated JSON} for a large one (an event stream is not compressed as a whole).
 */
export async function unpack(text) {
  const data = JSON.parse(text);
  if (!data || typeof data.deflated !== "string") return data;
  const bytes = Uint8Array.from(atob(data.deflated), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return JSON.parse(await new Response(stream).text());
}

export class Live {
  /**
   * `stateUrl()` and `eventsUrl(ply)`: where the state and its stream are; `onState(state)`: a whole state
   * arrived; `onEvent(data)`: an update arrived: it returns true when the page took it, false when it does
   * not follow what the page shows (then the state is fetched again); `onStatus({kind, seconds, error})`:
   * the connection's state for the page to say ("ok", "loading", "retrying", "reconnecting").
   */
  constructor({ stateUrl, eventsUrl, onState, onEvent, onStatus, fetch, EventSource, setTimeout, clearTimeout, random }) {
    Object.assign(this, { stateUrl, eventsUrl, onState, onEvent, onStatus });
    this.fetch = fetch || ((...a) => window.fetch(...a));
    this.EventSource = EventSource || window.EventSource;
    this.setTimeout = setTimeout || ((f, ms) => window.setTimeout(f, ms));
    this.clearTimeout = clearTimeout || ((t) => window.clearTimeout(t));
    this.random = random || Math.random;
    this.source = null;
    this.ply = null;
    this.failures = 0;
    this.timer = null;
    this.wake = null;
    this.loading = null;
    this.broken = false;
    this.stopped = false;
    this.queue = Promise.resolve();
  }

  /** Take the state the page came with (`initial`), or load it; then listen. */
  async start(initial = null) {
    if (initial && typeof initial.ply === "number") {
      this.ply = initial.ply;
      this.onState(initial);
      this.onStatus({ kind: "ok" });
      this.listen();
      return;
    }
    if (await this.load()) this.listen();
  }

  stop() {
    this.stopped = true;
    if (this.source) this.source.close();
    if (this.timer !== null) this.clearTimeout(this.timer);
  }

  /** Fetch the whole state (once at a time: a second call while one runs waits for the same). */
  load() {
    if (!this.loading) this.loading = this.attempt().finally(() => { this.loading = null; });
    return this.loading;
  }

  async attempt() {
    if (this.timer !== null) { this.clearTimeout(this.timer); this.timer = null; }
    let state = null, error = null;
    try {
      const r = await this.fetch(this.stateUrl(), { credentials: "same-origin", cache: "no-store" });
      if (r.ok) state = await r.json();
      else error = { status: r.status, text: (await r.text()).slice(0, 300) };
    } catch (e) {
      error = { status: 0, text: String((e && e.message) || e) };
    }
    if (this.stopped) return false;
    if (state) {
      this.failures = 0;
      this.ply = state.ply;
      this.onState(state);
      this.onStatus({ kind: this.broken ? "reconnecting" : "ok" });
      return true;
    }
    if (error.status === 404 || error.status === 401 || error.status === 403) {
      this.onStatus({ kind: "gone", error: error.text });  // a wrong link or a board turned off: no retry
      return false;
    }
    const seconds = backoff(this.failures++, this.random);
    this.onStatus({ kind: "retrying", seconds, error: error.text });
    await new Promise((resolve) => { this.wake = resolve; this.timer = this.setTimeout(resolve, seconds * 1000); });
    this.timer = null;
    this.wake = null;
    return this.stopped ? false : this.attempt();
  }

  /** Retry now (the page's button) instead of at the end of the wait. */
  retryNow() {
    if (this.wake) {
      this.clearTimeout(this.timer);
      const wake = this.wake;
      this.wake = null;
      wake();
      return this.loading;
    }
    return this.load().then(() => { if (!this.source || this.source.readyState === 2) this.listen(); });
  }

  /** Open the event stream (again: after a language or theme change, or a stream the server closed). */
  listen() {
    if (this.stopped) return;
    if (this.source) this.source.close();
    const es = new this.EventSource(this.eventsUrl(this.ply));
    this.source = es;
    es.addEventListener("state", (ev) => {
      // one after the other, in the order they came (a deflated one takes a moment to inflate)
      this.queue = this.queue.then(async () => {
        let data;
        try { data = await unpack(ev.data); } catch (_) { this.load(); return; }
        if (this.source !== es) return;  // a stream since replaced
        if (typeof data.ply !== "number" || !this.onEvent(data)) { this.load(); return; }
        this.ply = data.ply;
      });
    });
    // refused by the server's caps (too many streams): it asks to come back later; say so meanwhile
    es.addEventListener("busy", (ev) => {
      this.busy = true;
      let text = "";
      try { text = JSON.parse(ev.data).text || ""; } catch (_) { /* the page's own words then */ }
      this.onStatus({ kind: "busy", text });
    });
    es.onopen = () => {
      this.busy = false;
      if (this.broken) {  // back after a break: what happened meanwhile was not heard
        this.broken = false;
        this.load();
      }
      this.failures = 0;
      this.onStatus({ kind: "ok" });
    };
    es.onerror = () => {
      this.broken = true;
      if (this.busy && es.readyState !== 2) return;  // the browser comes back when the server said: still busy
      if (es.readyState === 2) {  // closed for good (the server refused it): open a new one later
        const seconds = backoff(this.failures++, this.random);
        this.onStatus({ kind: "retrying", seconds });
        this.timer = this.setTimeout(() => { this.timer = null; this.load().then(() => this.listen()); }, seconds * 1000);
      } else {
        this.onStatus({ kind: "reconnecting" });
      }
    };
  }
}
