// "My matches": the viewer's own matches in progress, those where it is their turn first (as on Board Game
// Arena, for playing many at once), each a link to its board. Kept fresh every half minute; in a background
// tab the title and the icon say when some match waits for the viewer.

const $ = (id) => document.getElementById(id);
let T = {};
const t = (key) => T[key] || key;
let lang = "";
try { lang = window.localStorage.getItem("tessera.lang") || ""; } catch (_) { /* storage denied */ }

function entry(m) {
  const li = document.createElement("li");
  li.dataset.match = String(m.id);
  const a = document.createElement("a");
  a.href = m.path;
  a.textContent = m.game + " #" + m.id + " · " + m.players.join(" – ");
  if (m.yourTurn) a.className = "yours";
  li.append(a);
  const status = document.createElement("div");
  status.className = "hint";
  status.textContent = m.status;
  li.append(status);
  return li;
}

async function load() {
  let data;
  try {
    const r = await fetch("/api/me" + (lang ? "?lang=" + encodeURIComponent(lang) : ""), { credentials: "same-origin", cache: "no-store" });
    data = await r.json();
  } catch (_) {
    $("error").textContent = t("send_failed");
    return;
  }
  $("error").textContent = "";
  T = data.texts || {};
  document.documentElement.lang = (data.locale || "en").replace("_", "-");
  $("title").textContent = t("my_matches");
  $("who").textContent = data.you ? data.you.name : "";
  if (!data.you) { $("status").textContent = t("mine_login"); return; }
  const turn = data.matches.filter((m) => m.yourTurn), waiting = data.matches.filter((m) => !m.yourTurn);
  $("status").textContent = data.matches.length ? "" : t("mine_none");
  for (const [key, list] of [["turn", turn], ["waiting", waiting]]) {
    $(key + "-title").hidden = !list.length;
    $(key + "-title").textContent = t("mine_" + key);
    $(key).replaceChildren(...list.map(entry));
  }
  const due = turn.length > 0 && document.hidden;
  document.title = (due ? "● " + turn.length + " · " : "") + t("my_matches") + " · Tessera";
  $("favicon").setAttribute("href", "/static/icons/" + (due ? "turn" : "idle") + ".svg");
}

document.addEventListener("visibilitychange", load);
setInterval(load, 30000);
load();
