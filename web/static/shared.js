/* Jantaku phone site: what every page uses (elements, tiles, the API, the live updates, the result tables).
   A native ES module: each page's own module imports what it needs; nothing is left on ``window``. */

export const $ = (sel, root = document) => root.querySelector(sel);
const csrf = () => $('meta[name="csrf-token"]').content;
export const SEAT_WINDS = ["E", "S", "W", "N"];
export const WIND_NAMES = { E: "East", S: "South", W: "West", N: "North" };
const KINDS = [];
for (const s of "mpsz") for (let n = 1; n <= (s === "z" ? 7 : 9); n++) KINDS.push(`${n}${s}`);
const REDS = ["0m", "0p", "0s"];
const HONOR_NAMES = { "1z": "East", "2z": "South", "3z": "West", "4z": "North", "5z": "White", "6z": "Green", "7z": "Red" };

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c.nodeType ? c : document.createTextNode(c));
  return e;
}

/** Japanese beside an English label: decoration, hidden where no font can draw it (see markCjkFont). */
export const ja = (text) => el("span", { lang: "ja", class: "ja", text });

/** Without a font for Japanese the browser draws boxes: mark the page so that CSS hides the Japanese (the
 *  English beside it carries the meaning). A CJK glyph drawn like a private-use character is a missing one. */
export function markCjkFont() {
  const c = document.createElement("canvas");
  c.width = 40; c.height = 40;
  const g = c.getContext("2d");
  if (!g) return;
  const pixels = (ch) => {
    g.clearRect(0, 0, 40, 40);
    g.font = `32px ${getComputedStyle(document.body).fontFamily}`;
    g.fillText(ch, 2, 34);
    return g.getImageData(0, 0, 40, 40).data.join();
  };
  const missing = pixels("\uE000");
  if (pixels("本") !== missing || pixels("場") !== missing) return;
  document.documentElement.classList.add("no-cjk");
  for (const o of document.querySelectorAll("option[data-en]")) o.textContent = o.dataset.en;  // no markup in options
}

export function tileName(t) {
  if (t === "back") return "face-down tile";
  if (HONOR_NAMES[t]) return HONOR_NAMES[t];
  if (t[0] === "0") return `red 5${t[1]}`;
  return t;
}

/** One tile as an image (a button when onclick is given). */
export function tile(t, opts = {}) {
  const cls = ["tile", opts.sideways && "sideways", opts.cls].filter(Boolean).join(" ");
  const img = el("img", { src: `/static/tiles/${t === "none" ? "back" : t}.png`, alt: tileName(t), draggable: "false" });
  const attrs = { class: cls, title: tileName(t), "data-tile": t };
  if (opts.onclick) return el("button", { ...attrs, type: "button", onclick: opts.onclick, "aria-label": tileName(t) }, img);
  return el("span", attrs, img);
}

/** An indicator, an arrow and the dora it gives, as the server names it (the engine's rule, never the page's). */
export const doraRow = (indicator, dora) =>
  el("span", { class: "row" }, tile(indicator), el("span", { class: "arrow", text: "→" }), tile(dora, { cls: "dora" }));

/** mpsz text ("123m0p55z") to a list of tile codes. */
export function parseTiles(text) {
  const out = [];
  let pending = [];
  for (const ch of (text || "").replace(/\s+/g, "")) {
    if (/[0-9]/.test(ch)) pending.push(ch);
    else if ("mpsz".includes(ch)) { for (const d of pending) out.push(d + ch); pending = []; }
  }
  return out;
}

/** A list of tile codes to mpsz text, a suit letter after each run of its digits. */
export const formatTiles = (tiles) => {
  let out = "", suit = null, digits = "";
  for (const t of tiles) {
    if (suit !== null && t[1] !== suit) { out += digits + suit; digits = ""; }
    suit = t[1]; digits += t[0];
  }
  return suit === null ? "" : out + digits + suit;
};

let toastTimer = null;
export function toast(msg, bad = false) {
  const t = $("#toast");
  t.textContent = msg;
  t.className = bad ? "toast bad" : "toast";
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (t.hidden = true), bad ? 5000 : 2500);
}

/* Every tap that writes sends its own Idempotency-Key, and a game write the revision this page last saw (a stale
   one is refused with 409 and the state now); the tapped button stays disabled until the answer comes back. */
let revision = null;
const noteRevision = (st) => { if (st && st.game && st.game.revision) revision = st.game.revision; };
const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
const WRITES = /^\/api\/(game\/(?!win\/preview)|camera\/|corrections)/;

/** One call of the JSON API (``body``: an object sent as JSON, or FormData); resolves to the answer, rejects with
 *  the server's sentence. */
export async function api(method, url, body) {
  const opts = { method, headers: { "X-CSRF-Token": csrf(), Accept: "application/json" }, credentials: "same-origin" };
  if (body instanceof FormData) opts.body = body;
  else if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  const write = method === "POST" && WRITES.test(url), ev = window.event;
  const btn = write && ev ? ev.submitter || (ev.target && ev.target.closest && ev.target.closest("button")) : null;
  const wasDisabled = btn ? btn.disabled : false;
  if (write) {
    opts.headers["Idempotency-Key"] = newKey();
    if (revision && url.startsWith("/api/game/")) opts.headers["X-Game-Revision"] = revision;
  }
  if (btn) btn.disabled = true;
  try {
    const r = await fetch(url, opts);
    let data = null;
    try { data = await r.json(); } catch (e) { data = { error: `HTTP ${r.status}` }; }
    noteRevision(data && (data.state || data));
    if (!r.ok) throw new Error((data && data.error) || `HTTP ${r.status}`);
    return data;
  } finally { if (btn) btn.disabled = wasDisabled; }
}

/* --- live updates: EventSource with heartbeat watchdog and reconnect --- */
/** This tab's own id (kept across its pages): the server lets a tab's new stream replace its old one. */
function tabId() {
  let id = sessionStorage.getItem("jantaku-tab");
  if (!id) {
    id = [...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, "0")).join("");
    sessionStorage.setItem("jantaku-tab", id);
  }
  return id;
}

/** Follow ``/events``: open while the page is shown, closed while it is hidden or left (a held stream would
 *  keep one of the address's few slots), reopened when shown again; a dead stream is reconnected. Each change
 *  comes once: ``onState`` gets the whole state (the game, the camera, the camera game's ``follow``), ``onCamera``
 *  a new camera reading alone (the state's ``camera`` part). */
export function live(onState, onCamera = null) {
  const dot = $("#conn");
  const tab = tabId();
  let es = null, lastBeat = 0, lastId = null, retry = 1000, timer = null;
  const mark = (ok, why = "reconnecting…") => { dot.className = ok ? "conn live" : "conn down"; dot.title = ok ? "live" : why; };
  function close() {
    clearTimeout(timer); timer = null;
    if (es) { es.close(); es = null; }
  }
  function connect() {
    close();
    if (document.hidden) return;  // shown again: visibilitychange connects
    lastBeat = Date.now();  // the watchdog counts from this try
    es = new EventSource(`/events?tab=${tab}` + (lastId === null ? "" : `&last_id=${lastId}`));
    es.onopen = () => { mark(true); lastBeat = Date.now(); retry = 1000; };
    const seen = (e) => { lastBeat = Date.now(); if (e.lastEventId) lastId = e.lastEventId; mark(true); };
    es.addEventListener("state", (e) => { seen(e); const st = JSON.parse(e.data); noteRevision(st); onState(st); });
    es.addEventListener("camera", (e) => { seen(e); if (onCamera) onCamera(JSON.parse(e.data)); });
    es.addEventListener("corrections", seen);
    es.addEventListener("heartbeat", () => { lastBeat = Date.now(); mark(true); });
    // another page of this phone took the stream: this one waits until it is shown again
    es.addEventListener("replaced", () => { close(); mark(false, "paused: another page has the live updates"); });
    es.onerror = () => {
      mark(false);
      if (es && es.readyState === EventSource.CLOSED) { timer = setTimeout(connect, retry); retry = Math.min(retry * 2, 15000); }
    };
  }
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) { close(); mark(false, "paused while hidden"); } else { retry = 1000; connect(); }
  });
  window.addEventListener("pagehide", close);  // leaving the page: the stream goes with it, not minutes later
  window.addEventListener("pageshow", (e) => { if (e.persisted) connect(); });  // back from the back-forward cache
  // no heartbeat for 40 s: the connection is dead even if the browser has not noticed
  setInterval(() => { if (!document.hidden && Date.now() - lastBeat > 40000) { mark(false); connect(); } }, 10000);
  connect();
}

/* --- seats, results and payments, as the Table, Score and Settle pages show them --- */
const signed = (n, text) => (n > 0 ? "+" : "") + text;
export const ordinal = (n) => n + (n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th");

/** A seat of ``game`` by its name and wind ("Ann (East)"); "seat 2" without a game. */
export const seatName = (game, seat) => {
  const s = game && game.seats[seat];
  return s ? `${s.name || "seat " + (seat + 1)} (${WIND_NAMES[s.wind]})` : `seat ${seat + 1}`;
};

/** The game's final results in ``#final`` (the server's figures: placement, final points, uma and oka as the
 *  rules have them, the result); hidden while the game has none. */
export function renderFinal(game) {
  const fin = $("#final");
  if (!fin) return;
  if (!game || !game.final) { fin.hidden = true; return; }
  const f0 = game.final;
  const uma = f0.some((f) => f.uma), oka = f0.some((f) => f.oka);
  const bonus = uma || oka;
  const head = ["", "Player", "Points", ...(bonus ? [uma && oka ? "Uma/oka" : uma ? "Uma" : "Oka"] : []), "Result"];
  fin.hidden = false;
  fin.replaceChildren(el("h2", { text: game.finished ? "Final results" : "If the game ended now" }),
    el("table", { class: "history final" },
      el("thead", {}, el("tr", {}, head.map((h) => el("th", { text: h })))),
      el("tbody", {}, f0.map((f) => el("tr", { "data-seat": f.seat, "data-place": f.place },
        el("td", { class: "place", text: ordinal(f.place) }), el("td", { text: f.name || `seat ${f.seat + 1}` }),
        el("td", { class: "num", text: f.points.toLocaleString() }),
        bonus ? el("td", { class: "num", text: signed(f.uma + f.oka, (f.uma + f.oka).toLocaleString()) }) : null,
        el("td", { class: "num", text: signed(f.result, f.result.toFixed(1)) }))))));
}

/** A scored hand's yaku (with their han) and fu items, as tables. */
export function valueTables(r) {
  const yaku = el("table", { class: "yaku" }, el("tbody", {}, r.yaku.map((y) =>
    el("tr", {}, el("td", {}, `${y.name} `, ja(y.name_ja), y.gloss ? el("span", { class: "muted small gloss", text: ` · ${y.gloss}` }) : null),
      el("td", { class: "num", text: y.yakuman_multiple ? `${y.yakuman_multiple > 1 ? y.yakuman_multiple + "× " : ""}yakuman` : `${y.han} han` })))));
  const fu = el("table", { class: "fu" }, el("tbody", {}, r.fu_items.map((f) =>
    el("tr", {}, el("td", { text: f.reason }), el("td", { class: "num", text: `${f.fu} fu` })))));
  return { yaku, fu };
}

/** What a hand's result moves (``HandResult.to_dict()``: transfers with reasons, deltas by seat) at ``game``'s
 *  table, as tables. */
export function paymentTables(r, game) {
  const name = (seat) => seatName(game, seat);
  const why = (t) => t.reason.replace(/^seat \d+ /, "");  // the engine names the winner by seat: the row already does
  const rows = r.transfers.map((t) => el("tr", {},
    el("td", {}, t.payer === null ? `riichi sticks to ${name(t.payee)}` : `${name(t.payer)} pays ${name(t.payee)}`,
      el("br"), el("span", { class: "muted small", text: why(t) })),
    el("td", { class: "num", text: t.amount.toLocaleString() })));
  const net = r.deltas.map((d, seat) => el("tr", { "data-seat": seat }, el("td", { text: name(seat) }),
    el("td", { class: "num", text: (d > 0 ? "+" : "") + d.toLocaleString() })));
  return [
    el("table", { class: "transfers" }, el("tbody", {}, rows)),
    el("p", { class: "muted small", text: r.outcome === "abortive_draw" ? "Recorded as it is, this is an abortive draw (triple ron)." : "Points by seat:" }),
    el("table", { class: "deltas" }, el("tbody", {}, net))];
}

/* --- sheets over the page: the tile keyboard and the tile picker (Table and Score pages) --- */
/** Every tile kind and the red fives as buttons in ``box``; a tap gives its tile to ``onpick``. */
export function keyboard(box, onpick, extra = []) {
  box.replaceChildren(...[...KINDS, ...REDS].map((t) => tile(t, { onclick: () => onpick(t) })), ...extra);
}

/** The tiles a misread is most often confused with: neighbours in the suit, the same number in the other
 *  suits, the red or plain five; for honours the other honours. */
function likely(t) {
  if (t === "back" || t === "none") return [];
  const n = t[0] === "0" ? 5 : Number(t[0]), s = t[1];
  const out = [];
  if (s === "z") for (let k = 1; k <= 7; k++) out.push(`${k}z`);
  else {
    for (const d of [-1, 1, -2, 2]) if (n + d >= 1 && n + d <= 9) out.push(`${n + d}${s}`);
    for (const o of "mps") if (o !== s) out.push(`${n}${o}`);
    if (n === 5) out.push(t[0] === "0" ? `5${s}` : `0${s}`);
  }
  return out.filter((x) => x !== t);
}

/** A sheet over the page: a heading row (its text, the caller's buttons, Cancel), then ``body``. */
export function sheetOf(label, title, buttons, ...body) {
  const old = $(".sheet");
  if (old) old.remove();
  const sheet = el("div", { class: "sheet", role: "dialog", "aria-label": label },
    el("div", { class: "row" }, el("strong", { text: title }), buttons,
      el("button", { type: "button", class: "secondary", onclick: () => sheet.remove() }, "Cancel")), body);
  document.body.append(sheet);
  return sheet;
}

/** The tile picker: the likely confusions of ``current`` first, then the keyboard. ``extras`` are more choices
 *  ({label, value, id}) beside Cancel, ``head`` more content above the tiles; a choice closes it. */
export function picker(current, onpick, { title = `Fix ${tileName(current)}:`, extras = [], head = null } = {}) {
  const pick = (t) => { sheet.remove(); onpick(t); };
  const kb = el("div", { class: "keyboard" });
  keyboard(kb, pick);
  const near = el("div", { class: "tiles hand likely" }, likely(current).map((t) => tile(t, { onclick: () => pick(t) })));
  const buttons = extras.map((x) => el("button", { type: "button", class: "secondary", id: x.id, onclick: () => pick(x.value) }, x.label));
  const sheet = sheetOf("fix tile", title, buttons, head, near, kb);
}
