// Tessera inside Discord (an Activity): the Embedded App SDK's handshake, `authorize` (scopes identify and
// rpc.activities.write), the code exchanged on Tessera's server for a session, then the match page of the
// instance's channel (app.js), or the start screen: the people in the instance (Discord's participants, kept
// current), the bot with its levels' ratings, game cards with their pictures, presets and every option, the
// tables of the instance to watch, the challenges and tables waiting. On a match page: Discord's status
// (`setActivity`) follows the game, and at the end the result, the server's actions, a new game with the same
// people, the replay and the running score.
// Every request goes to this page's own origin, which Discord's URL mapping proxies to Tessera.
import { DiscordSDK } from "/static/vendor/discord-embedded-app-sdk/index.mjs";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs, text) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};
const query = new URLSearchParams(location.search);
let session = "";
let csrf = "";
let T = {};
const t = (key, vals) => {
  let s = T[key] || key;
  for (const [k, v] of Object.entries(vals || {})) s = s.split("{" + k + "}").join(v);
  return s;
};
const say = (key) => { $("status").textContent = t(key); };

// The session travels in a header: inside Discord's frame this site's cookies are third-party, which
// browsers may drop. Only requests to this origin carry it.
const plainFetch = window.fetch.bind(window);
window.fetch = (input, init) => {
  const url = new URL(typeof input === "string" ? input : input.url, location.href);
  if (url.origin !== location.origin || !session) return plainFetch(input, init);
  const headers = new Headers((init && init.headers) || {});
  headers.set("X-Tessera-Session", session);
  return plainFetch(input, Object.assign({}, init, { headers }));
};

async function json(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify(body),
  });
  let data = null;
  try { data = await r.json(); } catch (_) { data = { ok: false, error: r.statusText }; }
  if (!r.ok && data.ok === undefined) data = { ok: false, error: r.statusText };
  return data;
}

// Only Discord's client may frame this page: production's CSP says so to the browser, and the page checks
// its parent itself (ancestorOrigins where the browser has it; a mobile client's web view has no parent).
function framedByDiscord(parents) {
  if (query.get("platform") === "mobile") return true;
  if (window.parent === window) return false;
  const ancestors = location.ancestorOrigins;
  if (!ancestors || !ancestors.length) return true;
  return parents.includes(ancestors[ancestors.length - 1]);  // the top page: Discord's client
}

let sdk = null;
let me = null;          // {id, name} of the signed-in user
let info = null;        // the channel's answer (/api/activity/channel)
let people = [];        // the instance's participants, kept current by Discord's event (not me)
let heard = false;      // whether Discord has said who they are yet
const picked = [];      // the user ids picked to play ("bot": the bot)
let level = "2";

const params = () => {
  const p = new URLSearchParams();
  if (sdk.channelId) p.set("channel_id", sdk.channelId);
  if (sdk.guildId) p.set("guild_id", sdk.guildId);
  if (sdk.instanceId) p.set("instance_id", sdk.instanceId);  // the server checks it with Discord
  return p;
};
const where = () => ({ channel_id: sdk.channelId, guild_id: sdk.guildId, instance_id: sdk.instanceId });

/** Go to a match page (its board, live; as a spectator where the viewer has no seat): the page is loaded
 * again at the match's path, inside the same Activity frame (the SDK signs in again without a prompt). */
function goTo(path, extra) {
  const q = new URLSearchParams(location.search);
  q.delete("with");
  q.delete("fresh");
  for (const [k, v] of Object.entries(extra || {})) q.set(k, v);
  location.assign(path + "?" + q);
}

let opened = false;
function openMatch(path) {
  if (opened) return;  // the start screen's own answer and its next look at the channel may both say so
  opened = true;
  const lobbyBox = $("activity-lobby");
  if (lobbyBox) lobbyBox.remove();
  history.replaceState(null, "", path + location.search);
  document.body.dataset.view = "match";
  const s = el("script", { src: "/static/app.js" });
  document.body.append(s);
  follow();
}

const initials = (name) => (name || "?").trim().slice(0, 1).toUpperCase();

/** A person (or the bot) as a round picture and a name: the avatar through the Activity's `/cdn` URL mapping
 * (Discord's CDN), else the initial on a colour of their own. */
function face(user, name, avatar) {
  const box = el("span", { class: "face", "aria-hidden": "true" });
  box.style.setProperty("--hue", String((Number(String(user).slice(-4)) * 47) % 360 || 200));
  box.textContent = initials(name);
  if (avatar) {
    const img = el("img", { src: "/cdn/avatars/" + user + "/" + avatar + ".png?size=64", alt: "" });
    img.addEventListener("error", () => img.remove());
    box.append(img);
  }
  return box;
}

const displayName = (p) => p.nickname || p.global_name || p.username;
const gameOf = (id) => info.games.find((g) => g.id === id);
const most = () => Math.max(...info.games.flatMap((g) => g.seats)) - 1;

function renderPeople() {
  const list = $("a-people");
  if (!list) return;
  list.textContent = "";
  for (const p of people) {
    const b = el("button", { type: "button", class: "person", "data-user": p.id, "aria-pressed": String(picked.includes(p.id)) });
    b.append(face(p.id, displayName(p), p.avatar), el("span", { class: "who" }, displayName(p)));
    b.addEventListener("click", () => pick(p.id));
    list.append(b);
  }
  const bot = el("button", { type: "button", class: "person", "data-user": "bot", "aria-pressed": String(picked.includes("bot")) });
  bot.append(face(info.bot || "0", "T"), el("span", { class: "who" }, t("against_bot")));
  bot.addEventListener("click", () => pick("bot"));
  list.append(bot);
  const invite = el("button", { type: "button", id: "a-invite" }, "+ " + t("invite"));
  invite.addEventListener("click", () => sdk.commands.openInviteDialog().catch((e) => { $("error").textContent = String(e.message || e); }));
  list.append(invite);
  if (heard) {  // someone who left the instance is no longer picked
    for (const id of picked.slice()) if (id !== "bot" && !people.some((p) => p.id === id)) picked.splice(picked.indexOf(id), 1);
  }
  $("a-levelbox").hidden = !picked.includes("bot");
  $("a-hint").textContent = picked.length ? "" : t(most() > 1 ? "pick_up_to" : "pick_one", { count: String(most()) });
}

/** Tap someone to play with them (again: no longer); the bot plays alone against the starter. */
function pick(id) {
  const at = picked.indexOf(id);
  if (at >= 0) picked.splice(at, 1);
  else if (id === "bot") picked.splice(0, picked.length, "bot");
  else {
    if (picked.includes("bot")) picked.splice(0, picked.length);
    if (picked.length >= most()) picked.shift();
    picked.push(id);
  }
  $("error").textContent = "";
  renderPeople();
  renderLevel();
}

function renderLevel() {
  const slider = $("a-level");
  if (!slider) return;
  level = slider.value;
  const card = document.querySelector(".card.open") || document.querySelector(".card");
  const game = gameOf(card ? card.dataset.game : info.games[0].id);
  $("a-level-text").textContent = t("bot_level", { level, rating: String(game.ratings[level]) });
}

/** A control for one declared option: toggle, select, slider or number/text field. */
function control(c) {
  const label = el("label", { class: "opt", title: c.help });
  label.append(el("span", { class: "opt-name" }, c.name));
  let input;
  if (c.kind === "toggle") {
    input = el("input", { type: "checkbox", name: c.name });
    input.checked = !!c.default;
  } else if (c.kind === "select") {
    input = el("select", { name: c.name });
    for (const v of c.choices) input.append(el("option", { value: v }, v));
    input.value = String(c.default);
  } else if (c.kind === "slider") {
    input = el("input", { type: "range", name: c.name, min: String(c.min), max: String(c.max), value: String(c.default) });
    const out = el("output", {}, String(c.default));
    input.addEventListener("input", () => { out.textContent = input.value; });
    label.append(input, out);
    input.dataset.default = String(c.default);
    return label;
  } else {
    input = el("input", { type: c.kind === "number" ? "number" : "text", name: c.name, value: String(c.default), autocomplete: "off" });
    if (c.kind === "number") { input.inputMode = "numeric"; if (c.min !== null) input.min = String(c.min); if (c.max !== null) input.max = String(c.max); }
  }
  input.dataset.default = String(c.default);
  label.append(input);
  return label;
}

/** The options changed from the game's defaults on a card's controls. */
function changed(card) {
  const given = {};
  for (const input of card.querySelectorAll(".opts [name]")) {
    const value = input.type === "checkbox" ? input.checked : input.value;
    if (String(value) === input.dataset.default) continue;
    given[input.name] = input.type === "range" || input.type === "number" ? Number(value) : value;
  }
  return given;
}

function card(g) {
  const box = el("article", { class: "card", "data-game": g.id });
  const head = el("button", { type: "button", class: "card-head" });
  head.append(el("img", { src: g.picture, alt: "", width: "80", height: "80" }), el("strong", {}, g.name));
  head.addEventListener("click", () => { for (const c of document.querySelectorAll(".card.open")) if (c !== box) c.classList.remove("open"); box.classList.toggle("open"); renderLevel(); });
  const row = el("div", { class: "presets" });
  for (const p of info.presets) {
    const b = el("button", { type: "button", class: "main", "data-preset": p.id, title: p.hint }, p.name);
    b.append(el("small", {}, p.hint));
    b.addEventListener("click", () => start(g, p.id, box));
    row.append(b);
  }
  const clocks = el("div", { class: "presets clocks" });  // the game's live clocks (base minutes + increment)
  if ((g.clocks || []).length) clocks.append(el("span", { class: "clocks-label" }, t("clock")));
  for (const c of g.clocks || []) {
    const [base, increment] = c.split("+");
    const b = el("button", { type: "button", class: "main", "data-clock": c, title: t("clock_hint", { base, increment }) }, c);
    b.addEventListener("click", () => start(g, null, box, c));
    clocks.append(b);
  }
  const more = el("details", { class: "opts" });
  more.append(el("summary", {}, t("more_options")));
  for (const c of g.controls) more.append(control(c));
  box.append(head, row, clocks, more);
  return box;
}

/** Start `g` with the people picked: a preset's time per turn, or a live clock ("5+3"). */
async function start(g, preset, box, clock = "") {
  const err = $("error");
  const others = picked.filter((p) => p !== "bot");
  if (!picked.length) { err.textContent = t("pick_first"); return; }
  const players = others.length + 1;
  if (!picked.includes("bot") && players > Math.max(...g.seats)) { err.textContent = t("too_many", { game: g.name, count: String(Math.max(...g.seats)) }); return; }
  if (!picked.includes("bot") && players < Math.min(...g.seats)) { err.textContent = t("not_for_two", { game: g.name, count: String(Math.min(...g.seats)) }); return; }
  const body = Object.assign(where(), { game: g.id, preset, rated: $("a-rated").checked, options: changed(box), clock });
  if (picked.includes("bot")) Object.assign(body, { opponent: "bot", level });
  else body.opponents = others;
  const r = await json("/api/activity/start", body);
  err.textContent = r.ok ? "" : r.error;
  if (!r.ok) return;
  if (r.match) openMatch(r.match.path);
  else { $("status").textContent = t(r.lobby ? "lobby_waiting" : "waiting"); waitForMatch(true); }
}

/** The tables this user sits at, by id: once something is started from here (a challenge, a table for more),
 * the new one among them is where this page goes when it begins, the channel's main match or a side table. */
const seatedAt = (tables) => new Set((tables || []).filter((tb) => tb.players.some((p) => p.userId === me.id)).map((tb) => tb.id));
let knownTables = null;

/** The start screen asks the channel again now and then: once the channel's match has started (a challenge
 * accepted, the last one joined a table, or someone else started one), this page goes to it, as a player or
 * as a spectator; meanwhile the challenges, tables for more and the instance's tables stay current. A start
 * screen asked for on purpose (`fresh`: "new game", "new game with ...") stays until a match is started here. */
let waiting = false;
let anyMatch = false;
function waitForMatch(always) {
  if (always && !anyMatch) knownTables = seatedAt(info.tables);
  anyMatch = anyMatch || always;
  if (waiting) return;
  waiting = true;
  const tick = async () => {
    const again = await json("/api/activity/channel?" + params());
    if (opened) return;  // a match was opened meanwhile (a tap here): the start screen is gone
    const fresh = anyMatch ? (again.tables || []).find((tb) => !knownTables.has(tb.id) && seatedAt([tb]).size) : null;
    if (fresh) { openMatch(fresh.path); return; }
    if (again.match && !anyMatch && !query.get("fresh")) { openMatch(again.match.path); return; }
    if (again.challenges) {
      info = Object.assign(info, { challenges: again.challenges, lobbies: again.lobbies, tables: again.tables });
      renderWaiting();
    }
    setTimeout(tick, 2000);
  };
  setTimeout(tick, 2000);
}
function renderWaiting() {
  const box = $("a-waiting");
  if (!box) return;
  box.textContent = "";
  const lines = [];
  for (const c of info.challenges) {
    const li = el("li", {}, t("challenge_line", { challenger: c.challenger, opponent: c.opponent, game: c.game }) + " ");
    if (c.yours) {
      const b = el("button", { type: "button", class: "main", "data-challenge": String(c.id) }, t("accept"));
      b.addEventListener("click", async () => {
        const r = await json("/api/activity/accept", { challenge_id: c.id });
        if (r.ok) openMatch(r.match.path); else $("error").textContent = r.error;
      });
      li.append(b);
    }
    if (c.mine) li.append(withdrawButton({ challenge_id: c.id }, "data-withdraw-challenge", c.id));
    lines.push(li);
  }
  for (const l of info.lobbies || []) {
    const li = el("li", {}, t("lobby_line", { host: l.host, players: l.players.join(", "), game: l.game }) + " ");
    if (l.yours) {
      const b = el("button", { type: "button", class: "main", "data-lobby": String(l.id) }, t("join"));
      b.addEventListener("click", async () => {
        const r = await json("/api/activity/join", { lobby_id: l.id });
        if (!r.ok) { $("error").textContent = r.error; return; }
        if (r.match) openMatch(r.match.path); else { b.remove(); $("status").textContent = t("lobby_waiting"); waitForMatch(true); }
      });
      li.append(b);
    }
    if (l.mine) li.append(withdrawButton({ lobby_id: l.id }, "data-withdraw-lobby", l.id));
    lines.push(li);
  }
  if (!lines.length) return;
  box.append(el("h2", {}, t("challenges")));
  const ul = el("ul");
  ul.append(...lines);
  box.append(ul);
}

/** Withdraw this user's own waiting challenge, or close the table for more they started. */
function withdrawButton(body, attr, id) {
  const b = el("button", { type: "button", class: "withdraw", [attr]: String(id) }, t("withdraw"));
  b.addEventListener("click", async () => {
    const r = await json("/api/activity/withdraw", body);
    if (!r.ok) { $("error").textContent = r.error; return; }
    $("error").textContent = "";
    $("status").textContent = t("withdrawn");
    if (body.challenge_id) info.challenges = info.challenges.filter((c) => c.id !== body.challenge_id);
    else info.lobbies = (info.lobbies || []).filter((l) => l.id !== body.lobby_id);
    renderWaiting();
  });
  return b;
}

/** The instance's tables (its people's matches in this server, the channel's main match and the side
 * tables started beside it): watch one, or play where seated; switching goes to its page. */
function tablesList(current) {
  const box = el("nav", { id: "activity-tables", "aria-label": t("tables") });
  for (const tb of info.tables || []) {
    const seated = tb.players.some((p) => p.userId === me.id);
    const names = tb.players.map((p) => p.name).join(" · ");
    const b = el("button", { type: "button", class: tb.side ? "table side" : "table", "data-table": String(tb.id), "aria-pressed": String(current === tb.path) });
    if (tb.side) b.title = t("side_table");
    b.append(el("strong", {}, tb.game), el("span", {}, names), el("small", {}, t(seated ? "play" : "watch")));
    b.addEventListener("click", () => { if (current !== tb.path) goTo(tb.path); });
    box.append(b);
  }
  if (current) {
    const b = el("button", { type: "button", class: "table new", id: "a-new-table" }, "+ " + t("new_table"));
    b.addEventListener("click", () => goTo("/", { fresh: "1" }));
    box.append(b);
  }
  return box;
}

function lobby() {
  const box = el("section", { id: "activity-lobby" });
  if (info.tables && info.tables.length) { box.append(el("h2", {}, t("tables")), tablesList("")); }
  box.append(el("div", { id: "a-waiting" }));
  box.append(el("h2", {}, t("who_here")));
  box.append(el("div", { id: "a-people", class: "people" }), el("p", { id: "a-hint", class: "hint" }));
  const levels = el("label", { id: "a-levelbox", class: "levelbox", hidden: "" });
  const slider = el("input", { type: "range", id: "a-level", min: "1", max: String(info.levels.length), step: "1", value: (info.levels.find((l) => l.default) || { id: "2" }).id });
  slider.addEventListener("input", renderLevel);
  levels.append(el("span", { id: "a-level-text" }), slider);
  box.append(levels);
  const rated = el("label", { class: "rated" });
  const check = el("input", { type: "checkbox", id: "a-rated" });
  check.checked = true;
  rated.append(check, el("span", {}, t("rated")));
  const head = el("div", { class: "games-head" });
  head.append(el("h2", {}, t("start")), rated);
  box.append(head);
  const cards = el("div", { id: "a-games", class: "cards" });
  const asked = info.asked && info.asked.game;  // from /play game:X
  for (const g of info.games) cards.append(card(g));
  box.append(cards);
  if (asked) {  // its card first, open, with the options /play named set on its controls
    const c = cards.querySelector(`[data-game="${asked}"]`);
    if (c) {
      c.classList.add("open");
      cards.prepend(c);
      for (const pair of (info.asked.options || "").split(" ")) {
        const [name, value] = pair.split("=");
        const input = value === undefined ? null : c.querySelector(`.opts [name="${CSS.escape(name)}"]`);
        if (!input) continue;
        if (input.type === "checkbox") input.checked = value === "true"; else input.value = value;
        c.querySelector("details.opts").open = true;
      }
    }
  }
  $("left").prepend(box);
  const again = (query.get("with") || "").split(",").filter((id) => /^[0-9]{1,20}$/.test(id));  // "new game with ..."
  for (const id of again) if (id !== me.id && !picked.includes(id)) picked.push(id);
  renderWaiting();
  renderPeople();
  renderLevel();
}

// ------------------------------------------------------------------------------ the match, as it goes

const stateOf = () => (window.tessera && window.tessera.state && window.tessera.state()) || null;
let shownEnd = false;
let told = "";

/** Discord shows what this user is doing (`setActivity`): the game and their opponents and the move, or the
 * result; a spectator's shows the game watched. Sent again whenever that changes. */
function tell(S) {
  const seated = S.you && S.you.seats && S.you.seats.length > 0;
  const others = S.players.filter((p) => !(S.you && S.you.seats.includes(p.seat))).map((p) => p.name).join(", ");
  const details = seated ? t("status_playing", { game: S.gameName, opponents: others })
    : t("status_watching", { game: S.gameName, players: S.players.map((p) => p.name).join(", ") });
  const state = S.active ? t("status_move", { ply: String(S.ply + 1) }) : t("status_over", { result: S.status });
  const activity = { type: 0, details: details.slice(0, 128), state: state.slice(0, 128) };
  if (S.players.length > 1) activity.party = { id: "tessera-" + S.id, size: [S.players.length, S.players.length] };
  const key = JSON.stringify(activity);
  if (key === told) return;
  told = key;
  sdk.commands.setActivity({ activity }).catch(() => {});  // a client that refuses it changes nothing here
}

/** At the end: the result, the server's actions for the finished match (Rematch where it offers one), a new
 * game with the same people, the replay, and the running score, all inside the Activity. */
async function endScreen(S) {
  const token = location.pathname.split("/")[2];
  const after = await json("/api/activity/after/" + token);
  const box = el("section", { id: "activity-end", "aria-live": "polite" });
  box.append(el("p", { class: "result" }, S.status));
  if (after.score && after.score.played) {
    const parts = after.players.filter((p) => !p.ai).map((p) => p.name + " " + after.score.wins[p.userId]);
    if (after.score.draws) parts.push(t("draws", { count: String(after.score.draws) }));
    box.append(el("p", { class: "score", id: "a-score" }, t("score_line", { game: after.gameName, score: parts.join(" · ") })));
  }
  const row = el("div", { class: "end-actions" });
  const people = (after.players || []).filter((p) => !p.ai && p.userId !== me.id);
  const again = el("button", { type: "button", class: "main", id: "a-again" },
    t("new_game_with", { players: people.length ? people.map((p) => p.name).join(", ") : t("against_bot") }));
  again.addEventListener("click", () => goTo("/", { fresh: "1", with: people.map((p) => p.userId).join(",") }));
  const replay = el("button", { type: "button", id: "a-replay" }, t("replay"));
  replay.addEventListener("click", () => {
    const first = $("r-first");
    if (first) { first.click(); $("r-play").click(); $("replay").scrollIntoView({ block: "nearest" }); }
  });
  row.append(again, replay);
  box.append(row);
  const actions = $("actions");  // the server's actions for the finished match (bot/web/actions.py)
  box.append(actions);
  $("panel").prepend(box);
}

/** Follow the match page: Discord's status as the game goes, the end screen once it is over, the tables. */
function follow() {
  const tick = () => {
    const S = stateOf();
    if (S && S.players) {
      tell(S);
      if (!S.active && !shownEnd) { shownEnd = true; endScreen(S).catch((e) => { $("error").textContent = String(e.message || e); }); }
    }
    setTimeout(tick, 500);
  };
  tick();
  // The tables bar, kept current: a table started meanwhile (here or by someone else in the instance) shows up.
  const tables = async () => {
    const answer = await json("/api/activity/channel?" + params());
    if (answer.tables) {
      const shown = $("activity-tables");
      const ids = (list) => list.map((tb) => tb.id + ":" + tb.toMove).join(",");
      if (!shown || !info || !info.tables || ids(info.tables) !== ids(answer.tables)) {
        info = answer;
        const bar = tablesList(location.pathname);
        if (shown) shown.replaceWith(bar); else $("left").prepend(bar);
      }
    }
    setTimeout(() => { tables().catch(() => {}); }, 4000);
  };
  tables().catch(() => {});
}

async function participants() {
  const keep = (list) => {
    people = (list || []).filter((p) => p.id !== me.id && !p.bot);
    heard = true;
    renderPeople();
  };
  const answer = await sdk.commands.getInstanceConnectedParticipants();
  keep(answer.participants);
  await sdk.subscribe("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", (event) => keep(event.participants));
}

async function main() {
  document.body.classList.add("activity");
  document.head.append(el("link", { rel: "stylesheet", href: "/static/activity/activity.css" }));
  const config = await json("/api/activity/config" + (query.get("lang") ? "?lang=" + encodeURIComponent(query.get("lang")) : ""));
  T = config.texts || {};
  if (!config.clientId) { $("status").textContent = config.error || "Activity not configured"; return; }
  if (!query.get("frame_id")) { say("outside"); return; }
  if (!framedByDiscord(config.parents)) { say("refused"); document.body.dataset.activity = "refused"; return; }
  say("connecting");
  sdk = new DiscordSDK(config.clientId, { disableConsoleLogOverride: true });
  window.tesseraActivity = { sdk, session: () => session };
  await sdk.ready();
  say("authorizing");
  let code;
  try {
    ({ code } = await sdk.commands.authorize({
      client_id: config.clientId, response_type: "code", state: "", prompt: "none", scope: ["identify", "rpc.activities.write"],
    }));
  } catch (_) { say("failed"); return; }
  const login = await json("/api/activity/token", { code });
  if (!login.session) { say("failed"); return; }
  session = login.session;
  csrf = login.csrf;
  await sdk.commands.authenticate({ access_token: login.accessToken });
  me = login.user;
  document.body.dataset.activity = "signed-in";
  const token = location.pathname.startsWith("/m/") ? location.pathname : "";
  if (token) { $("status").textContent = ""; openMatch(token); return; }  // reloaded on a match page
  info = await json("/api/activity/channel?" + params());
  $("status").textContent = "";
  if (info.match && !query.get("fresh")) { openMatch(info.match.path); return; }
  document.body.dataset.view = "lobby";
  lobby();
  await participants();
  waitForMatch(false);
}

main().catch((e) => { $("error").textContent = String(e && e.message || e); });
