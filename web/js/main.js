// Tessera's web board: the page of one match. The board is the scene the server builds (renderer/scene.py)
// painted as SVG (board.js), with no code for any game; the panel beside or below it is HTML (panel.js).
// The engine judges every move on the server: the page only narrows the legal moves it was sent by the
// cells chosen (play.js) and posts the notation. The state arrives once, then live (live.js).

import { Board } from "./board.js";
import { Live } from "./live.js";
import { renderPanel, tickClocks } from "./panel.js";
import * as play from "./play.js";
import { applyDiff, palette } from "./scene.js";

const $ = (id) => document.getElementById(id);
const token = location.pathname.split("/")[2] || "";
const api = "/api/m/" + token;

// Kept choices (theme, language, sound): a browser may deny storage (a third-party frame such as
// Discord's, a private window), or its quota may be full; then they last as long as the page.
const kept = new Map();
const store = {
  get(key) {
    try { const value = window.localStorage.getItem(key); if (value !== null) return value; } catch (_) { /* denied */ }
    return kept.has(key) ? kept.get(key) : null;
  },
  set(key, value) {
    kept.set(key, String(value));
    try { window.localStorage.setItem(key, String(value)); } catch (_) { /* denied or full: kept in memory */ }
  },
};
const prefs = {
  lang: store.get("tessera.lang") || "",
  theme: store.get("tessera.theme") || "auto",
  sound: store.get("tessera.sound") === "on",
};
const darkSystem = window.matchMedia("(prefers-color-scheme: dark)");
const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
/** The theme drawn: the one chosen, or the system's light or dark one ("auto"). */
const theme = () => (prefs.theme === "auto" || !prefs.theme ? (darkSystem.matches ? "dark" : "default") : prefs.theme);

let S = null;             // the last state from the server
let scene = null;         // the live board's scene
let chosen = [];          // cells chosen so far
let group = "";           // the piece chosen (games with pieces)
let pose = [0, false];    // its turn and mirror
let hover = -1;           // the cell under the pointer
let focus = -1;           // the keyboard's cell
let preview = null;       // a move shown before it is played (touch): {move, cells}
let sending = false;      // a move on its way
let replayAt = -1;        // the ply shown in replay (-1: the live board)
let timer = null;         // the replay's player
let pointer = "mouse";    // how the last press on the board was made
let dragFrom = -1;
const scenes = new Map(); // replay scenes by ply (of this match, language)

const board = new Board($("board-svg"), { motion: () => !reduced.matches });

const q = () => "lang=" + encodeURIComponent(prefs.lang) + "&theme=" + encodeURIComponent(theme());
const t = (key, vals) => {
  let s = (S && S.texts && S.texts[key]) || key;
  for (const [k, v] of Object.entries(vals || {})) s = s.split("{" + k + "}").join(v);
  return s;
};
const el = (tag, attrs, text) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};
const btn = (label, onclick, cls) => {
  const b = el("button", { type: "button" }, label);
  if (cls) b.className = cls;
  b.addEventListener("click", onclick);
  return b;
};

// ------------------------------------------------------------------------------------------- messages

/** Say `text` next to the control that caused it ("board", "action", "words", "replay"); "" clears it. */
const ERRORS = { board: "error", action: "action-error", words: "words-error", replay: "replay-error" };
function say(where, text) {
  const box = $(ERRORS[where]);
  if (box) box.textContent = text || "";
}

function connection(status) {
  const box = $("live");
  const retry = $("retry");
  box.dataset.kind = status.kind;
  retry.hidden = status.kind !== "retrying";
  if (status.kind === "ok") box.textContent = spectators();
  else if (status.kind === "retrying") box.textContent = t("retrying", { seconds: Math.round(status.seconds) });
  else if (status.kind === "reconnecting") box.textContent = t("reconnecting");
  else if (status.kind === "busy") box.textContent = status.text || t("busy");
  else if (status.kind === "gone") box.textContent = status.error || t("gone");
  document.body.classList.toggle("stale", status.kind === "retrying" || status.kind === "gone");
}

function spectators() {
  const n = (S && S.spectators) || 0;
  return n ? t("spectators", { count: n }) : "";
}

// ------------------------------------------------------------------------------------------- live

const live = new Live({
  stateUrl: () => api + "?" + q(),
  eventsUrl: (ply) => api + "/events?" + q() + (ply === null || ply === undefined ? "" : "&ply=" + ply),
  onState: (state) => took(state, true),
  onEvent: (data) => heard(data),
  onStatus: connection,
});

/** A whole state arrived (the first load, a player's update, a catch-up). */
function took(state, whole) {
  const before = S;
  const moved = !before || before.ply !== state.ply || before.active !== state.active;
  const sameMatch = before && before.id === state.id;
  state.clicks = play.expand(state.clicks, state.scene ? state.scene.labels : []);
  S = state;
  if (state.scene) {
    const animate = sameMatch && scene && state.scene.ply !== scene.ply;
    scene = state.scene;
    if (moved) clearChoice();
    render({ animate, moved: sameMatch && moved });
  } else {
    render({ animate: false, moved });
  }
  if (whole && before && moved) chime();
}

/** An update from the stream (bot/web/wire.py): the board's diff (or a whole scene), the moves from
 * `movesFrom` on, and the rest of the public state. Returns false when it does not follow what the page
 * shows (a diff from another ply, moves from beyond those it has), so the whole state is fetched. */
function heard(data) {
  if (!S) return false;
  let next = scene;
  if (data.diff) {
    if (!scene || data.diff.before !== scene.ply) return false;
    try { next = applyDiff(scene, data.diff); } catch (_) { return false; }
  } else if (data.scene) {
    next = data.scene;
  } else if (data.ply !== S.ply) {
    return false;
  }
  let list = S.moves;
  if (typeof data.movesFrom === "number") {
    if (data.movesFrom > S.moves.length) return false;
    list = S.moves.slice(0, data.movesFrom).concat(data.moves || []);
  }
  const moved = S.ply !== data.ply || S.active !== data.active;
  const asked = JSON.stringify([S.pending, S.rematch]) !== JSON.stringify([data.pending, data.rematch]);
  const rematched = !!(S.rematch && S.rematch.next);
  const own = { you: S.you, clicks: S.clicks, actions: S.actions, texts: S.texts, themes: S.themes, locales: S.locales };
  S = Object.assign({}, S, data, own, { moves: list });
  delete S.diff;
  delete S.movesFrom;
  if (next) S.scene = next;
  if (moved) {
    S.clicks = [];
    clearChoice();
  }
  if (!S.active && moved) S.actions = [];  // a finished match has only its rematch buttons: asked for below
  const animate = !!next && !!scene && next.ply !== scene.ply;
  scene = next;
  render({ animate, moved });
  if (moved) chime();
  if (!rematched && S.rematch && S.rematch.next) {  // the rematch started: its page, wherever this one is
    location.assign(S.rematch.next + location.search);
    return true;
  }
  if (S.you && S.you.seats.length && (moved || asked)) mine();  // my moves and buttons
  return true;
}

/** A player's own part after a change: their legal moves and buttons at the current ply (the rest came
 * with the update); the whole state if the match has moved on meanwhile. */
async function mine() {
  let data = null;
  try {
    const r = await fetch(api + "/clicks?" + q(), { credentials: "same-origin", cache: "no-store" });
    data = r.ok ? await r.json() : null;
  } catch (_) { data = null; }
  if (!data || !S || data.ply !== S.ply) { live.load(); return; }
  S.clicks = play.expand(data.clicks, scene ? scene.labels : []);
  S.actions = data.actions || [];
  render();
}

// ------------------------------------------------------------------------------------------- drawing

const myTurn = () => !!(S && S.active && S.you && S.you.seats.includes(S.toMove));
const clicks = () => (replayAt < 0 && myTurn() && S.clicks) || [];

function render({ animate = false, moved = false } = {}) {
  if (!S) return;
  document.documentElement.lang = (S.locale || "en").replace("_", "-");
  document.documentElement.dataset.theme = theme();
  $("title").textContent = S.gameName + " · #" + S.id;
  $("moves-title").textContent = t("moves");
  $("keys").textContent = t(clicks().some((c) => c[3]) ? "keys_pieces" : "keys"); // R and F only with pieces to turn
  $("theme-label").textContent = t("theme");
  $("sound-label").textContent = t("sound");
  $("mine").textContent = t("my_matches");
  $("retry").textContent = t("retry_now");
  $("place").textContent = t("place");
  $("cancel").textContent = t("cancel");
  $("p-rotate").textContent = t("rotate");
  $("p-reflect").textContent = t("reflect");
  $("board-svg").setAttribute("aria-label", t("board", { match_id: S.id }));
  if (moved && replayAt >= 0 && S.active) replayAt = -1;
  drawBoard(animate);
  status();
  // The rest in a task of its own: a phone shows the board a moment sooner, and no task is long.
  const version = ++renders;
  setTimeout(() => {
    if (version !== renders) return;  // a newer state is being drawn
    who();
    panel();
    moves();
    words();
    actions();
    pending();
    tools();
    prefsMenu();
    replayBar();
    signal();
    if ($("live").dataset.kind === "ok") $("live").textContent = spectators();
    document.body.classList.add("ready");
  }, 0);
}
let renders = 0;

function shownScene() {
  if (replayAt >= 0 && replayAt !== (scene && scene.ply)) return scenes.get(replayAt) || null;
  return scene;
}

function drawBoard(animate) {
  const sc = shownScene();
  if (!sc) return;
  board.show(sc, theme(), { animate: animate && replayAt < 0 });
  $("board").classList.add("drawn");
  marks();
}

function status() {
  const sc = shownScene();
  const text = replayAt >= 0 && sc ? sc.panel.status : S.status;
  $("status").textContent = text;
  const last = sc && sc.panel && sc.panel.last_move;
  $("lastmove").textContent = last || "";
  $("alt").textContent = replayAt >= 0 ? t("board", { match_id: S.id }) + " · " + replayAt : S.alt;
}

function panel() {
  const sc = shownScene();
  if (!sc) return;
  renderPanel(
    { players: $("players"), counters: $("counters"), legend: $("legend"), lines: $("lines") },
    sc.panel,
    palette(sc, theme()),
    { t, you: (S.you && S.you.seats) || [] },
  );
  $("legend-title").hidden = !(sc.panel.legend || []).length;
  $("legend-title").textContent = t("key");
}

function who() {
  const box = $("who");
  box.textContent = "";
  if (S.you) {
    const seats = S.you.seats.map((s) => S.players[s].role).join(", ");
    box.append(el("span", { class: "name" }, S.you.name));
    box.append(el("span", { class: "seat" }, " · " + (seats ? t("you_play", { seat: seats }) : t("spectating"))));
    box.append(btn(t("logout"), async () => { await post("/logout", null, "action", true); location.reload(); }));
    box.append(btn(t("logout_everywhere"), async () => {  // every browser and the Activity: sessions revoked
      await post("/logout/everywhere", null, "action", true); location.reload();
    }));
  } else {
    const a = el("a", { href: S.demo ? "/" : "/login?next=" + encodeURIComponent(location.pathname) }, t("login"));
    box.append(a);
  }
  $("mine").hidden = !S.you;
}

function moves() {
  const ol = $("moves");
  ol.textContent = "";
  $("moves-title").hidden = !S.moves.length;
  const at = replayAt >= 0 ? replayAt : S.ply;
  for (const m of S.moves) {
    const li = el("li", { value: String(m.ply + 1) });
    const b = btn(m.text || m.notation, () => step(m.ply + 1), "move");
    b.dataset.ply = String(m.ply + 1);
    if (m.ply === at - 1) { li.className = "now"; b.setAttribute("aria-current", "step"); }
    li.append(b);
    ol.append(li);
  }
  const now = ol.querySelector("li.now");
  if (now && replayAt >= 0) now.scrollIntoView({ block: "nearest" });  // the move shown in replay
  else requestAnimationFrame(() => { ol.scrollTop = ol.scrollHeight; });  // the newest move
}

function words() {
  const box = $("words");
  box.textContent = "";
  if (!myTurn() || replayAt >= 0) return;
  for (const w of S.words) {
    box.append(btn(w.label, () => (w.irreversible ? confirmThen(w.label + "?", () => send(w.move, "words")) : send(w.move, "words")), w.main ? "main" : ""));
  }
}

/** The buttons the server says this viewer may press (bot/web/actions.py): match actions and answers. */
function actions() {
  const box = $("actions");
  box.textContent = "";
  for (const a of S.actions || []) {  // their words are keys of the page's texts
    const wrap = el("div", { class: "action" });
    const b = btn(t(a.text), () => (a.confirm ? confirmThen(t(a.confirm), () => act(a)) : act(a)), (a.main ? "main " : "") + (a.danger ? "danger" : ""));
    b.dataset.action = a.action;
    wrap.append(b);
    if (a.hint) {
      const hint = el("span", { class: "hint", id: "hint-" + a.action }, t(a.hint));
      b.setAttribute("aria-describedby", hint.id);
      wrap.append(hint);
    }
    box.append(wrap);
  }
}

function pending() {
  const box = $("pending");
  box.textContent = "";
  const r = S.rematch;  // the running score of a chain of rematches, and a finished match's offer
  if (r && r.score) box.append(el("p", { class: "score" }, t("rematch_score", { score: r.score })));
  if (!S.active) {
    if (r && r.offer) box.append(el("p", {}, t("rematch_asked", { name: r.offer.name })));
    return;
  }
  const p = S.pending;
  if (!p) return;
  const asked = { takeback: "takeback_asked", abort: "abort_asked", draw: "draw_asked" };
  box.append(el("p", {}, t(asked[p.kind] || "abort_asked", { name: p.name })));
}

// ------------------------------------------------------------------------------------------- the tray

function seatColour() {
  const sc = scene;
  const seat = S && S.toMove != null ? S.toMove : 0;
  const player = sc && (sc.panel.players || []).find((p) => p.seat === seat);
  return player ? palette(sc, theme()).colour(player.colour) : "#2b7de9";
}

function tools() {
  const box = $("tools");
  const list = clicks();
  const names = play.groups(list);
  box.textContent = "";
  box.hidden = !names.length;
  if (!names.length) { group = ""; return; }
  if (group && !names.includes(group)) group = "";
  const shapes = play.shapes(list);
  const tray = el("div", { class: "tray", role: "group", "aria-label": t("pieces") });
  const colour = seatColour();
  for (const g of names) {
    const b = btn("", () => { group = group === g ? "" : g; pose = [0, false]; chosen = []; preview = null; tools(); marks(); }, "piece");
    b.dataset.piece = g;
    b.title = g;
    b.setAttribute("aria-label", g);
    b.setAttribute("aria-pressed", String(group === g));
    if (group === g) b.classList.add("on");
    b.append(shapeOf(shapes.get(g) || [], colour));
    b.append(el("span", { class: "piece-name" }, g));
    tray.append(b);
  }
  box.append(tray);
  const row = el("div", { class: "tool-row" });
  for (const [what, run] of [["rotate", rotate], ["reflect", reflect], ["clear", clearAll]]) {
    const b = btn(t(what), run);
    b.dataset.tool = what;
    row.append(b);
  }
  box.append(row);
}

/** A piece's cells drawn small: their polygons from the scene, fitted to a button. */
function shapeOf(cells, colour) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "shape");
  svg.setAttribute("aria-hidden", "true");
  let box = null;
  const polys = cells.map((c) => scene.cells[c] || []);
  for (const flat of polys) for (let k = 0; k < flat.length; k += 2) {
    const x = flat[k], y = flat[k + 1];
    box = box ? [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)] : [x, y, x, y];
  }
  if (!box) return svg;
  const side = Math.max(box[2] - box[0], box[3] - box[1]) || 1;
  const pad = side * 0.08;
  svg.setAttribute("viewBox", [box[0] - pad, box[1] - pad, side + 2 * pad, side + 2 * pad].join(" "));
  for (const flat of polys) {
    const p = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
    const pts = [];
    for (let k = 0; k < flat.length; k += 2) pts.push(flat[k] + "," + flat[k + 1]);
    p.setAttribute("points", pts.join(" "));
    p.setAttribute("fill", colour);
    p.setAttribute("stroke-width", String(side / 40));
    svg.append(p);
  }
  return svg;
}

function rotate() {
  if (!group) return;
  const next = play.rotated(clicks(), group, pose);
  if (next) pose = next;
  refreshPreview();
  marks();
}

function reflect() {
  if (!group) return;
  const next = play.reflected(clicks(), group, pose);
  if (next) pose = next;
  refreshPreview();
  marks();
}

function clearChoice() { chosen = []; preview = null; dragFrom = -1; }
function clearAll() { clearChoice(); group = ""; tools(); marks(); }

/** A previewed piece follows its new pose. */
function refreshPreview() {
  if (!preview || !group) return;
  const g = play.ghost(clicks(), group, pose, preview.cell, board.centres);
  preview = g ? { move: g[0], cells: g[1], cell: preview.cell } : null;
}

// ------------------------------------------------------------------------------------------- marks

function marks() {
  const sc = shownScene();
  if (!sc || !board.scene) return;
  const list = clicks();
  const playing = list.length > 0;
  let ghostCells = [];
  let firm = false;
  if (preview) { ghostCells = preview.cells; firm = true; }
  else if (playing && group) {
    const at = hover >= 0 ? hover : focus;
    const g = play.ghost(list, group, pose, at, board.centres);
    ghostCells = g ? g[1] : [];
  }
  // A game of pieces marks no cells until a piece is picked (its ghost shows where it goes then).
  const pieces = play.groups(list).length > 0;
  const targets = playing && !pieces && !preview ? play.targets(list, chosen) : new Set();
  const arrows = replayArrows();
  board.mark({
    targets,
    chosen: preview ? [] : chosen,
    ghost: ghostCells,
    ghostColour: seatColour(),
    firm,
    focus,
    covered: play.covered(sc),
    arrows: arrows.arrows,
    outlines: arrows.outlines,
  });
  const bar = $("placebar");
  bar.hidden = !preview;
  $("p-rotate").hidden = $("p-reflect").hidden = !(preview && group);
  $("focusname").textContent = focus >= 0 && sc.labels ? sc.labels[focus] + (targets.has(focus) ? " ✓" : "") : "";
}

// ------------------------------------------------------------------------------------------- playing

function cellPressed(i) {
  if (replayAt >= 0 || sending) return;
  const list = clicks();
  if (!list.length) return;
  const touch = pointer === "touch";
  if (preview && preview.cells.includes(i) && (touch || pointer === "key")) { send(preview.move, "board"); return; }
  if (group) {
    const g = play.ghost(list, group, pose, i, board.centres);
    if (!g) { preview = null; marks(); return; }
    if (touch) { preview = { move: g[0], cells: g[1], cell: i }; marks(); return; }
    send(g[0], "board");
    return;
  }
  const result = play.click(list, preview ? [] : chosen, i);
  if (result.play) {
    if (touch) { preview = { move: result.play, cells: result.chosen, cell: i }; chosen = result.chosen; marks(); return; }
    send(result.play, "board");
    return;
  }
  preview = null;
  chosen = result.chosen;
  marks();
}

const svgEl = $("board-svg");
svgEl.addEventListener("pointerdown", (e) => {
  pointer = e.pointerType === "touch" || e.pointerType === "pen" ? "touch" : "mouse";
  const i = e.target.dataset ? Number(e.target.dataset.i ?? -1) : -1;
  dragFrom = pointer === "mouse" && i >= 0 && !group ? i : -1;
});
svgEl.addEventListener("click", (e) => {
  const i = e.target.dataset && e.target.dataset.i !== undefined ? Number(e.target.dataset.i) : -1;
  if (i < 0) return;
  if (i === dragFrom || dragFrom < 0) { focus = i; hover = i; cellPressed(i); }
  dragFrom = -1;
});
svgEl.addEventListener("pointerup", (e) => {
  // A drag from one cell to another: the cell let go on is clicked after the one pressed.
  if (pointer !== "mouse" || dragFrom < 0) return;
  const i = board.cellAt(e.clientX, e.clientY);
  if (i >= 0 && i !== dragFrom) {
    const from = dragFrom;
    dragFrom = -2;  // the click that follows is the drop's, not a new press
    if (!chosen.includes(from)) cellPressed(from);
    focus = i; hover = i;
    cellPressed(i);
  }
});
svgEl.addEventListener("pointermove", (e) => {
  if (e.pointerType === "touch") return;
  const i = board.cellAt(e.clientX, e.clientY);
  if (i !== hover) { hover = i; if (group && !preview) marks(); }
});
svgEl.addEventListener("pointerleave", () => { hover = -1; if (group && !preview) marks(); });

$("place").addEventListener("click", () => { if (preview) send(preview.move, "board"); });
$("cancel").addEventListener("click", () => { clearChoice(); marks(); });
$("p-rotate").addEventListener("click", rotate);
$("p-reflect").addEventListener("click", reflect);

// The keyboard: arrows walk the cells, Enter or Space clicks, R rotates, F reflects, Escape clears.
svgEl.addEventListener("keydown", (e) => {
  const centres = board.centres;
  if (!centres.length) return;
  const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (dirs[e.key]) {
    e.preventDefault();
    e.stopPropagation();
    if (focus < 0) focus = 0;
    else {
      const [dx, dy] = dirs[e.key];
      const [fx, fy] = centres[focus];
      let best = -1, bestScore = Infinity;
      centres.forEach(([x, y], i) => {
        const along = (x - fx) * dx + (y - fy) * dy;
        if (i === focus || along <= 1) return;
        const across = Math.abs((x - fx) * dy) + Math.abs((y - fy) * dx);
        const score = along + 2 * across;
        if (score < bestScore) { bestScore = score; best = i; }
      });
      if (best >= 0) focus = best;
    }
    hover = focus;
    marks();
  } else if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    if (focus >= 0) { pointer = "key"; hover = focus; cellPressed(focus); }
  } else if (e.key === "r" || e.key === "R") rotate();
  else if (e.key === "f" || e.key === "F") reflect();
  else if (e.key === "Escape") clearAll();
});
svgEl.addEventListener("focus", () => { if (focus < 0) { focus = 0; hover = 0; marks(); } });

// ------------------------------------------------------------------------------------------- requests

/** POST `body` to `path`; a refusal is said next to the control (`where`). */
async function post(path, body, where, raw) {
  let r;
  try {
    r = await fetch(path + (raw ? "" : "?" + q()), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": (S && S.you && S.you.csrf) || "" },
      body: JSON.stringify(body || {}),
    });
  } catch (_) {
    say(where, t("send_failed"));
    return { ok: false, offline: true };
  }
  let data = null;
  try { data = await r.json(); } catch (_) { data = { ok: false, error: r.status >= 500 ? t("send_failed") : r.statusText }; }
  if (!r.ok || !data.ok) say(where, data.error || r.statusText);
  else say(where, "");
  return data;
}

/** Seconds a page waits for the stream to bring the change its own request made before it asks. */
const HEARD_WITHIN = 2.5;

async function send(notation, where) {
  if (sending) return;
  sending = true;
  document.body.classList.add("sending");
  const ply = S.ply;
  const data = await post(api + "/move", { move: notation, ply }, where);
  sending = false;
  document.body.classList.remove("sending");
  clearChoice();
  if (data && data.ok) {
    S.clicks = [];
    tools();
    marks();
    // The stream brings the new position; should it not, the page asks for it.
    setTimeout(() => { if (S.ply === ply) live.load(); }, HEARD_WITHIN * 1000);
  } else {
    marks();
    if (!data.offline) live.load();  // the position the refusal was about
  }
}

async function act(a) {
  const body = { action: a.action };
  if (a.request) body.request = a.request;
  const data = await post(api + "/action", body, "action");
  if (data.ok) mine();
  else if (!data.offline) live.load();
}

function confirmThen(text, then) {
  const d = $("confirm");
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = t("yes");
  $("confirm-no").textContent = t("no");
  d.returnValue = "";
  d.onclose = () => { if (d.returnValue === "yes") then(); };
  d.showModal();
}

// ------------------------------------------------------------------------------------------- prefs

function prefsMenu() {
  const th = $("theme"), lg = $("lang"), snd = $("sound");
  if (!th.options.length) {
    for (const name of ["auto", ...S.themes]) th.append(el("option", { value: name }, t("theme_" + name)));
    for (const name of S.locales) lg.append(el("option", { value: name }, name));
    th.addEventListener("change", () => {
      prefs.theme = th.value;
      store.set("tessera.theme", th.value);
      render();
    });
    lg.addEventListener("change", () => { prefs.lang = lg.value; store.set("tessera.lang", lg.value); scenes.clear(); live.load().then(() => live.listen()); });
    snd.addEventListener("change", () => { prefs.sound = snd.checked; store.set("tessera.sound", snd.checked ? "on" : "off"); if (snd.checked) chime(true); });
  }
  for (const option of th.options) option.textContent = t("theme_" + option.value);
  th.value = prefs.theme;
  lg.value = S.locale;
  snd.checked = prefs.sound;
}
darkSystem.addEventListener("change", () => { if (prefs.theme === "auto") render(); });

// Move sounds (off by default): a short tone made on the spot, no file to fetch.
let audio = null;
let chimes = 0;
function chime(force) {
  if (!prefs.sound && !force) return;
  chimes++;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.12);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.13);
  } catch (_) { /* no audio here */ }
}

// ------------------------------------------------------------------------------------------- your turn

/** In a background tab, the title and the icon say when it is your turn. */
function signal() {
  const mine = myTurn();
  const base = S.gameName + " #" + S.id + " · Tessera";
  document.title = mine && document.hidden ? "● " + t("your_turn") + " · " + base : base;
  const icon = $("favicon");
  const want = "/static/icons/" + (mine && document.hidden ? "turn" : "idle") + ".svg";
  if (icon.getAttribute("href") !== want) icon.setAttribute("href", want);
}
document.addEventListener("visibilitychange", () => { if (S) signal(); });

// ------------------------------------------------------------------------------------------- replay

function replayBar() {
  const bar = $("replay");
  bar.hidden = !S.moves.length || (S.active && replayAt < 0);  // in play, the move list opens it
  const slider = $("r-slider");
  slider.max = String(S.ply);
  const at = replayAt >= 0 ? replayAt : S.ply;
  slider.value = String(at);
  slider.setAttribute("aria-label", t("replay"));
  $("r-at").textContent = at + " / " + S.ply;
  $("r-play").title = timer ? t("pause") : t("play");
  $("r-play").setAttribute("aria-label", $("r-play").title);
  $("r-live").hidden = replayAt < 0 || !S.active;
  $("r-live").textContent = t("back_to_game");
  turningPoints();
  analyse();
}

function analyse() {
  const b = $("analyse");
  const a = S.analysis || {};
  b.hidden = !(S.canAnalyse && !S.active && !(S.turningPoints || []).length);
  b.textContent = a.running ? t("analysing", { done: a.done || 0, of: a.of || "?" }) : t("analyse");
  b.disabled = !!a.running;
}
$("analyse").addEventListener("click", async () => {
  $("analyse").disabled = true;
  const data = await post(api + "/analyse", {}, "replay");
  if (!data.ok) $("analyse").disabled = false;
});

function turningPoints() {
  const points = S.turningPoints || [];
  $("turning").hidden = !points.length;
  $("turning-title").textContent = t("turning_points");
  const list = $("turning-list");
  list.textContent = "";
  for (const p of points) {
    const move = S.moves[p.ply];
    const label = (move && move.number ? move.number + ". " : "") + S.players[p.seat].name + ": " + p.played + " → " + p.preferred + " (−" + Math.round(p.drop * 100) + "%)";
    const b = btn(label, () => step(p.ply), "turning");
    b.dataset.ply = String(p.ply);
    if (replayAt === p.ply) b.classList.add("on");
    list.append(b);
  }
}

/** The analysis's better move at the position shown: an arrow along it (or to it from the move played),
 * the move played outlined. */
function replayArrows() {
  const out = { arrows: [], outlines: [] };
  if (replayAt < 0 || !board.scene) return out;
  const p = (S.turningPoints || []).find((x) => x.ply === replayAt);
  if (!p || !p.preferredCells || !p.preferredCells.length) return out;
  const centre = (cells) => {
    let x = 0, y = 0;
    for (const c of cells) { x += board.centres[c][0]; y += board.centres[c][1]; }
    return [x / cells.length, y / cells.length];
  };
  const better = p.preferredCells, played = p.playedCells || [];
  if (p.preferredOrdered && better.length > 1) out.arrows.push({ from: board.centres[better[0]], to: board.centres[better[better.length - 1]], kind: "better" });
  else if (played.length) out.arrows.push({ from: centre(played), to: centre(better), kind: "better" });
  else out.arrows.push({ from: centre(better), to: centre(better), kind: "better" });
  out.outlines.push(["played", played], ["better", better]);
  return out;
}

async function sceneAt(ply) {
  if (scene && ply === scene.ply) return scene;
  if (scenes.has(ply)) return scenes.get(ply);
  try {
    const r = await fetch(api + "/scene/" + ply + "?" + q(), { credentials: "same-origin" });
    if (!r.ok) { say("replay", await r.text()); return null; }
    const sc = await r.json();
    scenes.set(ply, sc);
    return sc;
  } catch (_) {
    say("replay", t("send_failed"));
    return null;
  }
}

async function step(to) {
  if (!S) return;
  const target = Math.max(0, Math.min(S.ply, to));
  const wanted = target === S.ply && S.active ? -1 : target;
  if (wanted >= 0) await sceneAt(wanted);
  replayAt = wanted;
  if (replayAt === S.ply && timer) { clearInterval(timer); timer = null; }
  clearChoice();
  drawBoard(false);
  status();
  panel();
  moves();
  words();
  tools();
  replayBar();
}

$("r-first").addEventListener("click", () => step(0));
$("r-prev").addEventListener("click", () => step((replayAt >= 0 ? replayAt : S.ply) - 1));
$("r-next").addEventListener("click", () => step((replayAt >= 0 ? replayAt : S.ply) + 1));
$("r-last").addEventListener("click", () => step(S.ply));
$("r-live").addEventListener("click", () => step(S.ply));
$("r-slider").addEventListener("input", (e) => step(Number(e.target.value)));
$("r-play").addEventListener("click", () => {
  if (timer) { clearInterval(timer); timer = null; replayBar(); return; }
  if ((replayAt >= 0 ? replayAt : S.ply) >= S.ply) replayAt = 0;
  step(replayAt);
  timer = setInterval(() => step((replayAt >= 0 ? replayAt : S.ply) + 1), 900);
  replayBar();
});

// Arrow keys step through the moves anywhere but on the board (whose arrows walk its cells) and in
// fields; Home and End go to the start and the end.
document.addEventListener("keydown", (e) => {
  if (!S || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  const target = e.target;
  if (target && (target.closest("input, select, textarea, dialog") || target === svgEl)) return;
  const at = replayAt >= 0 ? replayAt : S.ply;
  const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: S.ply };
  if (!(e.key in moves) || !S.moves.length) return;
  e.preventDefault();
  step(moves[e.key]);
});

// ------------------------------------------------------------------------------------------- start

$("retry").addEventListener("click", () => live.retryNow());
setInterval(() => tickClocks($("players")), 200);  // tenths under ten seconds

window.tessera = {
  state: () => S,
  scene: () => scene,
  shown: () => shownScene(),
  selected: () => chosen.slice(),
  targets: () => [...play.targets(clicks(), chosen)],
  pose: () => pose.slice(),
  preview: () => (preview ? { move: preview.move, cells: preview.cells.slice() } : null),
  replayAt: () => replayAt,
  focus: () => focus,
  animations: () => board.animations,
  chimes: () => chimes,
  centre: (i) => board.centres[i],
  live,
};
/** The state the page came with (bot/web/app.py puts it in), unless another language was chosen here. */
function initial() {
  const block = $("initial");
  if (!block) return null;
  try {
    const data = JSON.parse(block.textContent);
    return !prefs.lang || prefs.lang === data.locale ? data : null;
  } catch (_) {
    return null;
  }
}
live.start(initial());
