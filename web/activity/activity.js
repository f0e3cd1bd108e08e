// Tessera inside Discord (an Activity): the Embedded App SDK's handshake, `authorize` (scope identify), the
// code exchanged on Tessera's server for a session, then the match page of the instance's channel (app.js)
// or, when the channel has none, its challenges, the user's matches and a form to start one as /play does.
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

function openMatch(path) {
  const lobbyBox = $("activity-lobby");
  if (lobbyBox) lobbyBox.remove();
  history.replaceState(null, "", path + location.search);
  const s = el("script", { src: "/static/app.js" });
  document.body.append(s);
}

function lobby(sdk, info) {
  const box = el("section", { id: "activity-lobby" });
  box.append(el("p", { class: "lead" }, t("no_match")));
  const waiting = info.challenges;
  if (waiting.length) {
    box.append(el("h2", {}, t("challenges")));
    const ul = el("ul");
    for (const c of waiting) {
      const li = el("li", {}, t("challenge_line", { challenger: c.challenger, opponent: c.opponent, game: c.game }) + " ");
      if (c.yours) {
        const b = el("button", { type: "button", class: "main", "data-challenge": String(c.id) }, t("accept"));
        b.addEventListener("click", async () => {
          const r = await json("/api/activity/accept", { challenge_id: c.id });
          if (r.ok) openMatch(r.match.path); else $("error").textContent = r.error;
        });
        li.append(b);
      }
      ul.append(li);
    }
    box.append(ul);
  }
  if (info.mine.length) {
    box.append(el("h2", {}, t("your_matches")));
    const ul = el("ul");
    for (const m of info.mine) {
      const li = el("li", {}, m.game + " #" + m.id + " ");
      const b = el("button", { type: "button" }, t("open"));
      b.addEventListener("click", () => openMatch(m.path));
      li.append(b);
      ul.append(li);
    }
    box.append(ul);
  }
  box.append(el("h2", {}, t("start")));
  const form = el("form", { id: "activity-start" });
  const game = el("select", { name: "game", id: "a-game" });
  for (const g of info.games) game.append(el("option", { value: g.id }, g.name));
  const options = el("input", { name: "options", id: "a-options", autocomplete: "off", placeholder: "board=hex5" });
  const clock = el("select", { name: "clock", id: "a-clock" });
  const fillClocks = () => {  // the chosen game's live presets, then correspondence
    const chosen = info.games.find((g) => g.id === game.value);
    clock.textContent = "";
    for (const c of (chosen && chosen.clocks) || []) clock.append(el("option", { value: c }, c));
    clock.append(el("option", { value: "" }, t("correspondence")));
    clock.value = "";
  };
  game.addEventListener("change", fillClocks);
  const opponent = el("select", { name: "opponent", id: "a-opponent" });
  opponent.append(el("option", { value: "bot" }, t("against_bot")));
  opponent.append(el("option", { value: "member" }, t("opponent_id")));
  const member = el("input", { name: "member", id: "a-member", inputmode: "numeric", pattern: "[0-9]*" });
  member.hidden = true;
  const level = el("select", { name: "level", id: "a-level" });
  for (const l of info.levels || []) {
    const option = el("option", { value: l.id }, l.name);
    if (l.default) option.selected = true;
    level.append(option);
  }
  const levelLabel = el("label", {}, t("level") + " ");
  levelLabel.append(level);
  opponent.addEventListener("change", () => {
    member.hidden = opponent.value !== "member";
    levelLabel.hidden = opponent.value !== "bot";
  });
  const label = (key, input) => { const l = el("label", {}, t(key) + " "); l.append(input); return l; };
  if (info.asked) { game.value = info.asked.game; options.value = info.asked.options; }  // from /play game:X
  fillClocks();
  form.append(label("game", game), label("options", options), label("clock", clock), label("opponent", opponent), member, levelLabel);
  form.append(el("button", { type: "submit", class: "main" }, t("go")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await json("/api/activity/start", {
      channel_id: sdk.channelId, guild_id: sdk.guildId, instance_id: sdk.instanceId,
      game: game.value, options: options.value, clock: clock.value,
      opponent: opponent.value === "bot" ? "bot" : member.value, level: level.value,
    });
    $("error").textContent = r.ok ? "" : r.error;
    if (!r.ok) return;
    if (r.match) openMatch(r.match.path); else $("status").textContent = t("waiting");
  });
  box.append(form);
  $("left").prepend(box);
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
  const sdk = new DiscordSDK(config.clientId, { disableConsoleLogOverride: true });
  window.tesseraActivity = { sdk, session: () => session };
  await sdk.ready();
  say("authorizing");
  let code;
  try {
    ({ code } = await sdk.commands.authorize({
      client_id: config.clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
    }));
  } catch (_) { say("failed"); return; }
  const login = await json("/api/activity/token", { code });
  if (!login.session) { say("failed"); return; }
  session = login.session;
  csrf = login.csrf;
  await sdk.commands.authenticate({ access_token: login.accessToken });
  document.body.dataset.activity = "signed-in";
  const params = new URLSearchParams();
  if (sdk.channelId) params.set("channel_id", sdk.channelId);
  if (sdk.guildId) params.set("guild_id", sdk.guildId);
  if (sdk.instanceId) params.set("instance_id", sdk.instanceId);  // the server checks it with Discord
  const token = location.pathname.startsWith("/m/") ? location.pathname : "";
  if (token) { $("status").textContent = ""; openMatch(token); return; }  // reloaded on a match page
  const info = await json("/api/activity/channel?" + params);
  $("status").textContent = "";
  if (info.match) openMatch(info.match.path); else lobby(sdk, info);
}

main().catch((e) => { $("error").textContent = String(e && e.message || e); });
