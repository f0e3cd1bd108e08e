// Tessera's web board: the PNG Discord shows, with an SVG layer of its cells (the board's scene,
// renderer/scene.py: sent once, then a diff per move) for clicks,
// highlights, the ghost piece and keyboard focus. The engine judges every move on the server; this page
// only narrows the legal moves it was sent by the cells clicked (games.base.ClickMove). No framework.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const token = location.pathname.split("/")[2] || "";
  // Kept choices (theme, language): a browser may deny storage (a third-party frame such as Discord's, a
  // private window), or its quota may be full; then they last as long as the page.
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
  const prefs = { lang: store.get("tessera.lang") || "", theme: store.get("tessera.theme") || "default" };
  let S = null;             // the last state from the server
  let sel = [];             // cells clicked so far
  let group = "";           // the chosen piece (games with groups)
  let pose = [0, false];    // its turn and mirror
  let hover = -1;           // the cell under the pointer or the keyboard focus
  let focus = -1;
  let replayAt = -1;        // the ply shown in replay (-1: live)
  let timer = null;
  let polys = [];
  let dots = [];      // a legal target's mark, like a chess site's move dots
  let centres = [];

  const q = () => "lang=" + encodeURIComponent(prefs.lang) + "&theme=" + encodeURIComponent(prefs.theme);
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

  // The legal moves as sent (bot/web/wire.py compact_clicks: [group, turn, mirrored, ordered, shape,
  // anchor steps, notations?]) as this page narrows them: [notation, cells, ordered, group, turn, mirrored].
  function expand(entries, labels) {
    const out = [];
    for (const [g, turn, mirrored, ordered, shape, steps, names] of entries || []) {
      let a = 0;
      steps.forEach((step, k) => {
        a += step;
        const cells = shape.map((d) => a + d);
        out.push([names ? names[k] : cells.map((c) => labels[c]).join(" "), cells, !!ordered, g, turn, !!mirrored]);
      });
    }
    return out;
  }

  // A scene diff applied to the scene the page holds (renderer/scene.py apply: removed keys, items changed
  // in place, new or moved items each after its anchor key, then whatever else changed).
  function applyDiff(sc, d) {
    const gone = new Set(d.removed || []);
    const changed = new Map((d.changed || []).map((it) => [it.key, it]));
    let items = sc.items.filter((it) => !gone.has(it.key)).map((it) => changed.get(it.key) || it);
    if (d.placed && d.placed.length) {
      const after = new Map();
      for (const [anchor, it] of d.placed) {
        if (!after.has(anchor)) after.set(anchor, []);
        after.get(anchor).push(it);
      }
      const out = [];
      const put = (key) => { for (const it of after.get(key) || []) { out.push(it); put(it.key); } };
      put(null);
      for (const it of items) { out.push(it); put(it.key); }
      items = out;
    }
    const next = Object.assign({}, sc, { ply: d.after, items });
    for (const k of ["panel", "cells", "labels", "fixed"]) if (k in d) next[k] = d[k];
    if (d.size) { next.width = d.size[0]; next.height = d.size[1]; }
    if (d.palettes) {
      next.palettes = {};
      for (const [name, p] of Object.entries(sc.palettes)) {
        next.palettes[name] = { cues: p.cues, colours: Object.assign({}, p.colours, (d.palettes[name] || {}).colours) };
      }
    }
    return next;
  }

  async function load() {
    const r = await fetch("/api/m/" + token + "?" + q(), { credentials: "same-origin" });
    if (!r.ok) { $("status").textContent = await r.text(); return; }
    const data = await r.json();
    data.clicks = expand(data.clicks, data.scene.labels);
    const moved = !S || S.ply !== data.ply;
    S = data;
    if (moved) { sel = []; }
    render();
  }

  async function loadClicks() {
    const r = await fetch("/api/m/" + token + "/clicks?" + q(), { credentials: "same-origin" });
    const data = r.ok ? await r.json() : null;
    if (!data || !S || data.ply !== S.ply) { load(); return; }
    S.clicks = expand(data.clicks, S.scene.labels);
    render();
  }

  // An event brings the scene's diff and the moves since the last event (bot/web/wire.py); a page that
  // missed one (its scene is not at the diff's ply) fetches the whole state instead.
  function merge(pub) {
    if ((pub.diff && S.scene.ply !== pub.diff.before) || pub.movesFrom > S.moves.length) { load(); return; }
    const scene = pub.diff ? applyDiff(S.scene, pub.diff) : pub.scene || S.scene;
    const moves = S.moves.slice(0, pub.movesFrom).concat(pub.moves || []);
    const moved = S.ply !== pub.ply || S.active !== pub.active;
    const you = S.you, clicks = S.clicks;
    const rest = Object.assign({}, pub);
    delete rest.diff; delete rest.movesFrom;
    S = Object.assign({}, S, rest, { scene, moves, you, clicks: moved ? [] : clicks });  // events leave out what never changes
    if (moved) sel = [];
    if (you && pub.pending) load();
    else if (you && moved && pub.active && you.seats.includes(pub.toMove)) loadClicks();
    else render();
  }

  // A large event comes deflated (bot/web/wire.py packed): {"ply", "deflated": base64 of raw deflate}.
  async function unpack(text) {
    const pub = JSON.parse(text);
    if (!pub.deflated) return pub;
    const bytes = Uint8Array.from(atob(pub.deflated), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return JSON.parse(await new Response(stream).text());
  }

  function listen() {
    const es = new EventSource("/api/m/" + token + "/events?" + q());
    source = es;
    let queue = Promise.resolve();  // events are merged in the order they came, inflated or not
    es.addEventListener("state", (ev) => {
      queue = queue.then(async () => { $("error").textContent = ""; merge(await unpack(ev.data)); }).catch(() => load());
    });
    es.onerror = () => { $("error").textContent = t("reconnecting"); };
    es.onopen = () => { if ($("error").textContent === t("reconnecting")) $("error").textContent = ""; load(); };
  }

  // ---------------------------------------------------------------------------------------- narrowing

  const clicks = () => (S && S.clicks) || [];
  const hasGroups = () => clicks().some((c) => c[3]);
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  function fits(c, cells) {
    const mc = c[1];
    if (cells.length > mc.length) return false;
    return c[2] ? cells.every((x, i) => mc[i] === x) : cells.every((x) => mc.includes(x));
  }
  const exact = (c, cells) => c[1].length === cells.length && fits(c, cells);
  function candidates() { return clicks().filter((c) => fits(c, sel)); }
  function targets() {
    const out = new Set();
    for (const c of candidates()) {
      if (c[2]) { if (c[1].length > sel.length) out.add(c[1][sel.length]); }
      else for (const x of c[1]) if (!sel.includes(x)) out.add(x);
    }
    return out;
  }
  function ghost() {
    if (!group || hover < 0) return null;
    const mine = clicks().filter((c) => c[3] === group && c[1].includes(hover));
    if (!mine.length) return null;
    const posed = mine.filter((c) => c[4] === pose[0] && c[5] === pose[1]);
    const pool = posed.length ? posed : mine;
    return pool.find((c) => Math.min(...c[1]) === hover) || pool[0];
  }

  function clickCell(i) {
    if (!S || !S.clicks || !S.clicks.length) return;
    if (group) { const g = ghost(); if (g) play(g[0]); return; }
    let next = sel.concat([i]);
    if (sel.includes(i)) next = sel.filter((x) => x !== i);
    let cands = clicks().filter((c) => fits(c, next));
    if (!cands.length) { next = [i]; cands = clicks().filter((c) => fits(c, next)); }
    if (!cands.length) { sel = []; paint(); return; }
    const done = cands.filter((c) => exact(c, next));
    if (done.length === 1 && cands.length === 1) { play(done[0][0]); return; }
    sel = next;
    paint();
  }

  // ---------------------------------------------------------------------------------------- drawing

  function render() {
    if (!S) return;
    document.documentElement.lang = (S.locale || "en").replace("_", "-");
    $("title").textContent = S.gameName + " · #" + S.id;
    document.title = S.gameName + " #" + S.id + " · Tessera";
    $("status").textContent = S.status;
    $("moves-title").textContent = t("moves");
    $("keys").textContent = t("keys");
    $("theme-label").textContent = t("theme");
    buildOverlay();
    showImage();
    who();
    players();
    moves();
    words();
    actions();
    pending();
    tools();
    prefsMenu();
    replayBar();
  }

  function showImage() {
    const src = replayAt >= 0 ? S.imageBase + replayAt + ".png?" + S.imageQuery : S.image;
    const img = $("img");
    if (img && img.getAttribute("href") !== src) img.setAttribute("href", src);
    $("alt").textContent = replayAt >= 0 ? t("board", { match_id: S.id }) + " · " + replayAt : S.alt;
  }

  function who() {
    const box = $("who");
    box.textContent = "";
    if (S.you) {
      const seats = S.you.seats.map((s) => S.players[s].role).join(", ");
      box.append(el("span", {}, S.you.name + (seats ? " · " + t("you_play", { seat: seats }) : " · " + t("spectating")) + " "));
      box.append(btn(t("logout"), async () => { await post("/logout", null, true); location.reload(); }));
    } else if (!S.demo) {
      box.append(el("a", { href: "/login?next=" + encodeURIComponent(location.pathname) }, t("login")));
    } else {
      box.append(el("a", { href: "/" }, t("login")));
    }
  }

  function players() {
    const ul = $("players");
    ul.textContent = "";
    for (const p of S.players) {
      const li = el("li", {}, p.name + " · " + p.role);
      if (S.active && S.toMove === p.seat) { li.className = "turn"; li.prepend(el("span", { "aria-hidden": "true" }, "▶ ")); }
      ul.append(li);
    }
  }

  function moves() {
    const ol = $("moves");
    ol.textContent = "";
    for (const m of S.moves) {
      const li = el("li", { value: String(m.ply + 1) }, m.text || m.notation);
      if (replayAt >= 0 && m.ply === replayAt - 1) li.className = "now";
      ol.append(li);
    }
    ol.scrollTop = ol.scrollHeight;
  }

  const myTurn = () => S.active && S.you && S.you.seats.includes(S.toMove);

  function words() {
    const box = $("words");
    box.textContent = "";
    if (!myTurn()) return;
    for (const w of S.words) {
      box.append(btn(w.label, () => (w.irreversible ? confirmThen(w.label + "?", () => play(w.move)) : play(w.move)), w.main ? "main" : ""));
    }
  }

  function actions() {
    const box = $("actions");
    box.textContent = "";
    if (!S.active || !S.you || !S.you.seats.length) return;
    box.append(btn(t("takeback"), () => act("takeback")));
    box.append(btn(t("abort"), () => act("abort")));
    box.append(btn(t("resign"), () => confirmThen(t("confirm_resign"), () => act("resign"))));
  }

  function pending() {
    const box = $("pending");
    box.textContent = "";
    const p = S.pending;
    if (!p || !S.active) return;
    box.append(el("p", {}, t(p.kind === "takeback" ? "takeback_asked" : "abort_asked", { name: p.name })));
    if (S.you && S.you.seats.length && !S.you.seats.includes(p.seat)) {
      box.append(btn(t("accept"), () => act("accept"), "main"));
      box.append(btn(t("decline"), () => act("decline")));
    }
  }

  function tools() {
    const box = $("tools");
    box.textContent = "";
    if (!myTurn() || !hasGroups()) { group = ""; return; }
    const groups = [...new Set(clicks().map((c) => c[3]).filter(Boolean))].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    if (group && !groups.includes(group)) group = "";
    box.append(el("strong", {}, t("pieces") + ": "));
    for (const g of groups) {
      const b = btn(g, () => { group = group === g ? "" : g; pose = [0, false]; sel = []; tools(); paint(); });
      b.setAttribute("aria-pressed", String(group === g));
      b.dataset.piece = g;
      if (group === g) b.className = "on";
      box.append(b);
    }
    box.append(btn(t("rotate"), rotate));
    box.append(btn(t("reflect"), reflect));
    box.append(btn(t("clear"), () => { group = ""; sel = []; tools(); paint(); }));
  }

  function posesOf(g) {
    const seen = new Map();
    for (const c of clicks()) if (c[3] === g) seen.set(c[4] + (c[5] ? "m" : ""), [c[4], c[5]]);
    return [...seen.values()].sort((a, b) => (a[1] - b[1]) || (a[0] - b[0]));
  }
  function rotate() {
    if (!group) return;
    const same = posesOf(group).filter((p) => p[1] === pose[1]);
    if (!same.length) return;
    const i = same.findIndex((p) => p[0] === pose[0]);
    pose = same[(i + 1) % same.length];
    paint();
  }
  function reflect() {
    if (!group) return;
    const other = posesOf(group).filter((p) => p[1] !== pose[1]);
    if (other.length) pose = other.find((p) => p[0] === pose[0]) || other[0];
    paint();
  }

  function prefsMenu() {
    const th = $("theme"), lg = $("lang");
    if (!th.options.length) {
      for (const name of S.themes) th.append(el("option", { value: name }, name));
      for (const name of S.locales) lg.append(el("option", { value: name }, name));
      th.addEventListener("change", () => { prefs.theme = th.value; store.set("tessera.theme", th.value); reopen(); });
      lg.addEventListener("change", () => { prefs.lang = lg.value; store.set("tessera.lang", lg.value); reopen(); });
    }
    th.value = S.theme;
    lg.value = S.locale;
  }

  let source = null;
  function reopen() { if (source) source.close(); load().then(listen); }

  function replayBar() {
    const bar = $("replay");
    bar.hidden = S.active;
    if (S.active) { replayAt = -1; return; }
    const slider = $("r-slider");
    slider.max = String(S.ply);
    if (replayAt < 0) replayAt = S.ply;
    slider.value = String(replayAt);
    slider.setAttribute("aria-label", t("replay"));
    $("r-at").textContent = replayAt + " / " + S.ply;
    $("r-play").title = $("r-play").ariaLabel = timer ? t("pause") : t("play");
    turningPoints();
  }

  function turningPoints() {
    const points = S.turningPoints || [];
    $("turning").hidden = !points.length;
    $("turning-title").textContent = t("turning_points");
    const list = $("turning-list");
    list.textContent = "";
    for (const p of points) {
      const move = S.moves[p.ply];
      const label = (move && move.number ? move.number + ". " : "") + S.players[p.seat].name + ": " + p.played + " → " + p.preferred + " (−" + Math.round(p.drop * 100) + "%)";
      const b = btn(label, () => step(p.ply + 1));
      if (replayAt === p.ply + 1) b.className = "on";
      list.append(b);
    }
  }
  function step(to) {
    replayAt = Math.max(0, Math.min(S.ply, to));
    if (replayAt === S.ply && timer) { clearInterval(timer); timer = null; }
    showImage(); moves(); replayBar();
  }
  $("r-first").addEventListener("click", () => step(0));
  $("r-prev").addEventListener("click", () => step(replayAt - 1));
  $("r-next").addEventListener("click", () => step(replayAt + 1));
  $("r-last").addEventListener("click", () => step(S.ply));
  $("r-slider").addEventListener("input", (e) => step(Number(e.target.value)));
  $("r-play").addEventListener("click", () => {
    if (timer) { clearInterval(timer); timer = null; replayBar(); return; }
    if (replayAt >= S.ply) replayAt = 0;
    timer = setInterval(() => step(replayAt + 1), 900);
    replayBar();
  });

  const narrow = window.matchMedia("(max-width: 760px)");
  narrow.addEventListener("change", () => { if (S) { buildOverlay(); showImage(); } });

  // On a phone the board fills the width: the view is cropped to the cells and the coordinates drawn beside
  // them (the players, the status and the scores are in the page beside it anyway); elsewhere the whole
  // image, exactly as in Discord. The drawers write coordinates within 30 px of the cells (at the image's
  // 960 px): row letters left and right of hexagon and triangle rows, ranks left of and files below square
  // boards (renderer/canvas.py's SquareLayout, renderer/tilingking.py); nothing above the cells but a
  // square board's frame, and the side panel 27 px right of a square board. Margins at 960 px:
  const CROP = { left: 32, right: 24, top: 10, bottom: 32 };
  function viewBox(sc) {
    if (!narrow.matches || !sc.cells.length) return [0, 0, sc.width, sc.height];
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const flat of sc.cells) for (let k = 0; k < flat.length; k += 2) {
      x0 = Math.min(x0, flat[k]); x1 = Math.max(x1, flat[k]); y0 = Math.min(y0, flat[k + 1]); y1 = Math.max(y1, flat[k + 1]);
    }
    const k = sc.width / 960;
    const left = Math.max(0, x0 - CROP.left * k), top = Math.max(0, y0 - CROP.top * k);
    return [left, top, Math.min(sc.width, x1 + CROP.right * k) - left, Math.min(sc.height, y1 + CROP.bottom * k) - top];
  }

  function buildOverlay() {
    const svg = $("overlay");
    const sc = S.scene;
    const key = sc.width + "x" + sc.cells.length + ":" + (sc.cells[0] || []).join(",") + (narrow.matches ? "n" : "w");
    if (svg.dataset.key !== key) {
      svg.dataset.key = key;
      svg.setAttribute("viewBox", viewBox(sc).map((v) => Math.round(v)).join(" "));
      svg.textContent = "";
      const image = document.createElementNS(SVG, "image");
      image.id = "img";
      image.setAttribute("width", String(sc.width));
      image.setAttribute("height", String(sc.height));
      image.setAttribute("aria-hidden", "true");
      svg.append(image);
      polys = [];
      dots = [];
      centres = [];
      sc.cells.forEach((flat, i) => {
        const p = document.createElementNS(SVG, "polygon");
        const pts = [];
        let cx = 0, cy = 0;
        for (let k = 0; k < flat.length; k += 2) { pts.push(flat[k] + "," + flat[k + 1]); cx += flat[k]; cy += flat[k + 1]; }
        centres.push([cx / (flat.length / 2), cy / (flat.length / 2)]);
        let area = 0;
        for (let k = 0; k < flat.length; k += 2) {
          const n = (k + 2) % flat.length;
          area += flat[k] * flat[n + 1] - flat[n] * flat[k + 1];
        }
        const dot = document.createElementNS(SVG, "circle");
        dot.setAttribute("cx", String(centres[i][0]));
        dot.setAttribute("cy", String(centres[i][1]));
        dot.setAttribute("r", String(0.16 * Math.sqrt(Math.abs(area) / 2)));
        dot.setAttribute("class", "dot");
        dots.push(dot);
        p.setAttribute("points", pts.join(" "));
        p.setAttribute("class", "cell");
        p.dataset.i = String(i);
        p.dataset.label = sc.labels[i];
        const title = document.createElementNS(SVG, "title");
        title.textContent = sc.labels[i];
        p.append(title);
        p.addEventListener("click", () => { focus = i; hover = i; clickCell(i); });
        p.addEventListener("mouseenter", () => { hover = i; if (group) paint(); });
        svg.append(p);
        polys.push(p);
      });
      for (const dot of dots) svg.append(dot);  // above every cell, and never in the way of a click
    }
    const pal = (sc.palettes[S.theme] || sc.palettes.default).colours;
    svg.style.setProperty("--hl", pal.highlight);
    const seat = S.toMove == null ? 0 : S.toMove;
    const player = (sc.panel.players || [])[seat];
    svg.style.setProperty("--ghost", (player && pal[player.colour]) || "#2b7de9");
    svg.setAttribute("aria-label", t("board", { match_id: S.id }));
    paint();
  }

  function paint() {
    if (!polys.length) return;
    const live = replayAt < 0 && myTurn();
    const tg = live && !group ? targets() : new Set();
    const g = live ? ghost() : null;
    const gh = new Set(g ? g[1] : []);
    polys.forEach((p, i) => {
      let cls = "cell";
      if (tg.has(i)) cls += " target";
      if (sel.includes(i)) cls += " sel";
      if (gh.has(i)) cls += " ghost";
      if (i === focus) cls += " focus";
      p.setAttribute("class", cls);
      dots[i].setAttribute("class", tg.has(i) && !sel.includes(i) ? "dot on" : "dot");
    });
    $("focusname").textContent = focus >= 0 ? S.scene.labels[focus] + (tg.has(focus) ? " ✓" : "") : "";
  }

  // ---------------------------------------------------------------------------------------- keyboard

  $("overlay").addEventListener("keydown", (e) => {
    if (!centres.length) return;
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[e.key]) {
      e.preventDefault();
      if (focus < 0) { focus = 0; } else {
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
      paint();
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (focus >= 0) { hover = focus; clickCell(focus); }
    } else if (e.key === "r" || e.key === "R") { rotate(); }
    else if (e.key === "f" || e.key === "F") { reflect(); }
    else if (e.key === "Escape") { sel = []; group = ""; tools(); paint(); }
  });
  $("overlay").addEventListener("focus", () => { if (focus < 0) { focus = 0; hover = 0; paint(); } });

  // ---------------------------------------------------------------------------------------- requests

  async function post(path, body, raw) {
    const r = await fetch(path + (raw ? "" : "?" + q()), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": (S && S.you && S.you.csrf) || "" },
      body: JSON.stringify(body || {}),
    });
    let data = null;
    try { data = await r.json(); } catch (_) { data = { ok: false, error: r.statusText }; }
    if (!r.ok || !data.ok) $("error").textContent = data.error || r.statusText;
    else $("error").textContent = "";
    return data;
  }
  async function play(notation) {
    const at = S.ply;
    const data = await post("/api/m/" + token + "/move", { move: notation, ply: at });
    sel = [];
    if (data && data.ok) {  // the event stream brings the new position (it may have come already)
      if (S.ply === at) { S.clicks = []; paint(); }
      return;
    }
    load();
  }
  async function act(action) { await post("/api/m/" + token + "/action", { action }); load(); }

  function confirmThen(text, then) {
    const d = $("confirm");
    $("confirm-text").textContent = text;
    d.returnValue = "";
    d.onclose = () => { if (d.returnValue === "yes") then(); };
    d.showModal();
  }

  window.tessera = { state: () => S, selected: () => sel.slice(), targets: () => [...targets()], pose: () => pose.slice() };
  load().then(listen);
})();
