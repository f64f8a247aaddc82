/* Jantaku phone site. Plain JavaScript, no build step, no external resources. */
"use strict";

const J = (() => {
  const $ = (sel, root = document) => root.querySelector(sel);
  const csrf = () => $('meta[name="csrf-token"]').content;
  const SEAT_WINDS = ["E", "S", "W", "N"];
  const WIND_NAMES = { E: "East", S: "South", W: "West", N: "North" };
  const KINDS = [];
  for (const s of "mpsz") for (let n = 1; n <= (s === "z" ? 7 : 9); n++) KINDS.push(`${n}${s}`);
  const REDS = ["0m", "0p", "0s"];
  const HONOR_NAMES = { "1z": "East", "2z": "South", "3z": "West", "4z": "North", "5z": "White", "6z": "Green", "7z": "Red" };

  function el(tag, attrs = {}, ...children) {
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
  const ja = (text) => el("span", { lang: "ja", class: "ja", text });

  /** Without a font for Japanese the browser draws boxes: mark the page so that CSS hides the Japanese (the
   *  English beside it carries the meaning). A CJK glyph drawn like a private-use character is a missing one. */
  function markCjkFont() {
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

  function tileName(t) {
    if (t === "back") return "face-down tile";
    if (HONOR_NAMES[t]) return HONOR_NAMES[t];
    if (t[0] === "0") return `red 5${t[1]}`;
    return t;
  }

  /** One tile as an image (a button when onclick is given). */
  function tile(t, opts = {}) {
    const cls = ["tile", opts.sideways && "sideways", opts.cls].filter(Boolean).join(" ");
    const img = el("img", { src: `/static/tiles/${t === "none" ? "back" : t}.png`, alt: tileName(t), draggable: "false" });
    const attrs = { class: cls, title: tileName(t), "data-tile": t };
    if (opts.onclick) return el("button", { ...attrs, type: "button", onclick: opts.onclick, "aria-label": tileName(t) }, img);
    return el("span", attrs, img);
  }

  /** mpsz text ("123m0p55z") to a list of tile codes. */
  function parseTiles(text) {
    const out = [];
    let pending = [];
    for (const ch of (text || "").replace(/\s+/g, "")) {
      if (/[0-9]/.test(ch)) pending.push(ch);
      else if ("mpsz".includes(ch)) { for (const d of pending) out.push(d + ch); pending = []; }
    }
    return out;
  }
  const formatTiles = (tiles) => {
    let out = "", suit = null, digits = "";
    for (const t of tiles) {
      if (suit !== null && t[1] !== suit) { out += digits + suit; digits = ""; }
      suit = t[1]; digits += t[0];
    }
    return suit === null ? "" : out + digits + suit;
  };
  const sortKey = (t) => "mpsz".indexOf(t[1]) * 100 + (t[0] === "0" ? 49 : Number(t[0]) * 10);
  const doraOf = (t) => {
    const n = t[0] === "0" ? 5 : Number(t[0]), s = t[1];
    if (s !== "z") return `${n % 9 + 1}${s}`;
    if (n <= 4) return `${n % 4 + 1}z`;
    return `${(n - 5 + 1) % 3 + 5}z`;
  };

  let toastTimer = null;
  function toast(msg, bad = false) {
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

  async function api(method, url, body) {
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
   *  keep one of the address's few slots), reopened when shown again; a dead stream is reconnected. */
  function live(onState, onCamera, onFollow) {
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
      es.addEventListener("camera", (e) => { seen(e); onCamera && onCamera(JSON.parse(e.data)); });
      es.addEventListener("follow", (e) => { seen(e); onFollow && onFollow(JSON.parse(e.data)); });
      es.addEventListener("corrections", seen);
      es.addEventListener("heartbeat", (e) => { lastBeat = Date.now(); mark(true); });
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
    window.J_live = { reconnect: connect, close, get open() { return es !== null && es.readyState !== EventSource.CLOSED; } };
    connect();
  }

  const signed = (n, text) => (n > 0 ? "+" : "") + text;

  /** The game's final results in ``#final`` (the server's figures: placement, final points, uma and oka as the
   *  rules have them, the result); hidden while the game has none. */
  function renderFinal(game) {
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

  /** Whose turn it is (the engine's ``to_act`` and ``phase``), who deals next between hands, or that the game is
   *  over; the seat to act is marked on its card. */
  function renderTurn(game) {
    const box = $("#turn");
    if (!box) return;
    box.hidden = !game;
    if (!game) return;
    const name = (seat) => `${game.seats[seat].name || "seat " + (seat + 1)} (${WIND_NAMES[game.seats[seat].wind]})`;
    const doing = { draw: "to draw", discard: "to discard", react: "to draw (or a call / ron on the discard)",
                    kan: "to draw the replacement tile (or chankan)" };
    let text;
    if (game.finished) text = "Game over: the final results are below.";
    else if (game.to_act !== null && game.to_act !== undefined) text = `${name(game.to_act)}'s turn ${doing[game.phase] || ""}`.trim();
    else text = `Between hands: ${name(game.dealer)} deals next.`;
    box.textContent = text;
    box.className = `turn${game.finished ? " over" : ""}`;
    box.dataset.toAct = game.finished || game.to_act === null || game.to_act === undefined ? "" : game.to_act;
  }

  /* --- the live table page --- */
  function renderRound(game) {
    // past the last hand the engine's round has moved on to one never played
    $("#round-name").textContent = game ? (game.finished ? "Game over" : game.round.name) : "No game yet";
    const honba = game ? game.honba : 0, sticks = game ? game.sticks : 0;
    $("#honba").replaceChildren(`${honba} honba `, ja("本場"));
    $("#sticks").replaceChildren(`${sticks} riichi stick${sticks === 1 ? "" : "s"} `, ja("供託"));
    const wall = $("#wall");
    if (game && game.wall_left !== null && game.wall_left !== undefined) { wall.hidden = false; wall.textContent = `${game.wall_left} left`; }
    else wall.hidden = true;
    const dora = $("#dora");
    $("#dora").parentElement.hidden = !(game && game.dora_indicators.length);
    // the dora as the server gives them (the engine's rule); computed here only from an older server
    dora.replaceChildren(...(game ? game.dora_indicators : []).map((t, i) =>
      el("span", { class: "row" }, tile(t), el("span", { class: "arrow", text: "→" }),
        tile(game.dora && game.dora[i] ? game.dora[i] : doraOf(t), { cls: "dora" }))));
    const ura = game ? game.ura_indicators || [] : [];
    $("#ura-line").hidden = !ura.length;
    $("#ura").replaceChildren(...ura.map((t) => el("span", { class: "row" }, tile(t), el("span", { class: "arrow", text: "→" }), tile(doraOf(t)))));
  }

  function renderSeats(game) {
    const box = $("#seats");
    if (!game) { box.replaceChildren(el("p", { class: "card muted", text: "Start a game on the Settle page." })); return; }
    const mine = localStorage.getItem("jantaku-seat");
    box.replaceChildren(...game.seats.map((s) => {
      const pond = el("div", { class: "pond tiles", "aria-label": "discards" },
        s.pond.map((d) => tile(d.tile, { sideways: d.riichi, cls: [d.tsumogiri && "tsumogiri", d.called && "called"].filter(Boolean).join(" ") })));
      const head = el("div", { class: "head" },
        el("span", {}, el("span", { class: "wind", text: WIND_NAMES[s.wind] }), s.name || `seat ${s.seat + 1}`,
          s.riichi ? el("span", { class: "riichi", text: "riichi" }) : null),
        el("span", { class: "points", text: s.points.toLocaleString() }));
      const parts = [head, pond];
      if (s.melds && s.melds.length) parts.push(el("div", { class: "melds muted small", text: s.melds.join("  ") }));
      if (s.furiten) parts.push(el("div", { class: `warn${String(s.seat) === mine ? " mine-warn" : ""}`, role: "alert",
        text: `⚠ furiten (${s.furiten.kind}): ${s.furiten.detail || "you cannot ron"}` }));
      if (s.waits && s.waits.length) {
        parts.push(el("div", { class: "small" }, "Waits: ", el("ul", { class: "waits" }, s.waits.map((w) =>
          el("li", {}, tile(w.tile, { cls: "" }), " ", w.score ? `${w.score.han} han ${w.score.fu} fu · ${w.score.points.toLocaleString()}` +
            (w.score.limit_name ? ` (${w.score.limit_name})` : "") : (w.reason || "no yaku"))))));
      }
      const acts = !game.finished && game.to_act === s.seat;
      if (acts) head.firstChild.append(el("span", { class: "to-act", text: "to play" }));
      return el("section", { class: `card seat${s.seat === game.dealer ? " dealer" : ""}${acts ? " acting" : ""}`, "data-seat": s.seat }, parts);
    }));
  }

  let cameraProblem = null;  // what is wrong with the table's camera ("camera not found: check the cable"), or null
  function renderCamera(cam) {
    const box = $("#camera");
    if (!box) return;
    renderTable(cam && cam.table ? cam : null);
    const problem = cameraProblem ? el("p", { class: "error", id: "camera-problem", role: "alert", text: cameraProblem }) : null;
    if (!cam || !cam.rows || !cam.rows.length) {
      box.replaceChildren(problem || el("p", { class: "muted", text: "No camera reading yet." }));
      return;
    }
    if (problem) { box.replaceChildren(problem); return; }
    const rows = cam.tiles.map((row) => el("div", { class: "tiles small row" }, row.map((t) => tile(t))));
    // with a whole table the seats say it all: the raw rows stay one tap away
    if (cam.table) {
      const open = !!box.querySelector("details[open]");
      box.replaceChildren(el("details", { open }, el("summary", { class: "muted small", text: `All ${rows.length} rows read` }), rows));
    } else box.replaceChildren(...rows);
    box.dataset.at = cam.at;
    updateAge();
  }

  /* --- the whole table, seat by seat, as the camera reads it (seat names and dora come from the server) --- */
  const SIDE_TEXT = { bottom: "near", right: "right", top: "far", left: "left" };
  const ordinal = (n) => n + (n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th");

  /** Tiles as one picture for assistive tech: its text alternative is the group's name and its mpsz. */
  function group(cls, label, text, children) {
    const alt = `${label}: ${text || "none"}`;
    return el("div", { class: `tiles ${cls}`, role: "img", "aria-label": alt, title: alt, "data-mpsz": text }, children);
  }

  function meldTiles(m) {
    const tiles = parseTiles(m.tiles);
    // a closed kan lies with its ends face down; any other face-down tile is shown after the faces
    if (m.called === null && m.backs === 2) return ["back", ...tiles, "back"].map((t) => tile(t));
    return [...tiles, ...Array(m.backs).fill("back")].map((t, i) => tile(t, { sideways: i === m.called }));
  }

  function tableSeat(seat, who, view, deadWall, mine) {
    const label = who.label;
    const head = el("div", { class: "thead" }, el("strong", { text: label }),
      who.wind === "E" ? el("span", { class: "chip", text: "dealer" }) : null,
      who.seat !== null && String(who.seat) === mine ? el("span", { class: "chip", text: "you" }) : null,
      seat.riichi !== null && seat.riichi !== undefined ? el("span", { class: "riichi", text: "riichi" }) : null,
      deadWall === seat.side ? el("span", { class: "chip", text: "dead wall" }) : null,
      seat.wall_backs ? el("span", { class: "chip muted", text: `wall ${seat.wall_backs}` }) : null,
      who.seat !== null && String(who.seat) === mine ? null
        : el("button", { type: "button", class: "secondary sit-here", "data-side": seat.side, "aria-label": `I sit here, at ${label}`,
          onclick: () => sitHere(seat.side) }, "I sit here"));
    const hand = parseTiles(seat.hand);
    const handRow = el("div", { class: "thand" },
      group("thtiles", `${label} hand`, seat.hand + (seat.hand_backs ? ` and ${seat.hand_backs} face down` : ""), hand.map((t) => tile(t))),
      seat.hand_backs ? el("span", { class: "muted small backs", text: `${hand.length ? "+" : ""}${seat.hand_backs} face down` }) : null,
      seat.drawn ? group("thdrawn", `${label} drawn tile`, seat.drawn, [tile(seat.drawn)]) : null);
    const pond = parseTiles(seat.pond);
    const rows = [];
    for (let i = 0; i < pond.length; i += 6) {
      rows.push(el("div", { class: "prow" }, pond.slice(i, i + 6).map((t, k) => tile(t, { sideways: i + k === seat.riichi }))));
    }
    const riichiText = seat.riichi !== null && seat.riichi !== undefined ? `, riichi on the ${ordinal(seat.riichi + 1)}` : "";
    const pondAlt = `${label} discards: ${seat.pond || "none"}${riichiText}`;
    const pondBox = el("div", { class: "tpond tiles", role: "img", "data-mpsz": seat.pond, "aria-label": pondAlt, title: pondAlt }, rows);
    const sideName = (side) => { const s = view.seats.find((x) => x.side === side); return s ? s.label : SIDE_TEXT[side]; };
    const melds = el("div", { class: "tmelds" }, seat.melds.map((m) =>
      group("meld", `${label} meld`, m.tiles + (m.from ? ` called from ${sideName(m.from)}` : m.backs ? " closed kan" : ""), meldTiles(m))));
    return el("section", { class: `tseat${who.wind === "E" ? " dealer" : ""}`, "data-side": seat.side, "aria-label": label },
      head, handRow, el("div", { class: "tlow" }, pondBox, melds));
  }

  let lastTable = null;
  function renderTable(cam) {
    const box = $("#camera-table");
    if (!box) return;
    const mine = localStorage.getItem("jantaku-seat") || "";
    const key = cam ? JSON.stringify([cam.table, cam.table_view, mine]) : null;
    if (key === lastTable) return;  // the same table again: leave the page as it is (no flicker, no jump)
    lastTable = key;
    if (!cam || !cam.table_view) { box.hidden = true; box.replaceChildren(); return; }
    const table = cam.table, view = cam.table_view;
    const dora = el("div", { class: "dora-line tdora" }, el("span", { class: "label", text: "Dora" }),
      view.dora.length ? view.dora.map((d) => el("span", { class: "row", role: "img", "aria-label": `indicator ${d.indicator} gives dora ${d.dora}`, "data-dora": d.dora },
        tile(d.indicator), el("span", { class: "arrow", text: "→" }), tile(d.dora, { cls: "dora" })))
        : el("span", { class: "muted small", text: "no indicator seen" }));
    const note = view.named_by === "camera"
      ? el("p", { class: "muted small tnote", text: "Seats as the camera sees them (near = its bottom edge): the table does not know which seat sits where." })
      : null;
    const seats = table.seats.map((s, i) => tableSeat(s, view.seats[i], view, table.dead_wall, mine));
    const extra = table.unassigned && table.unassigned.length
      ? el("p", { class: "muted small", text: `${table.unassigned.length} tile(s) fit no seat.` }) : null;
    box.replaceChildren(...[dora, note, ...seats, extra].filter(Boolean));
    box.hidden = false;
  }
  function updateAge() {
    const box = $("#camera"), age = $("#camera-age");
    if (!box || !age || !box.dataset.at) return;
    const s = Math.max(0, Math.round(Date.now() / 1000 - Number(box.dataset.at)));
    age.textContent = s < 2 ? "· now" : `· ${s} s ago`;
  }

  /** Whose hand the server priced: the seat told, or (none told) a non-dealer, said so with how to change it. */
  function pricedAs(p) {
    if (!p) return null;
    const wind = WIND_NAMES[p.seat_wind];
    const text = p.seat === null
      ? `Priced as a non-dealer (${wind}): pick your seat below for your own wind.`
      : `Priced for seat ${p.seat + 1} (${wind}${p.dealer ? ", dealer" : ""}).`;
    return el("p", { class: "muted small priced-as", text });
  }

  let waitsSeq = 0;
  async function checkMyHand() {
    const hand = $("#my-hand").value.trim();
    const box = $("#my-waits");
    const seq = ++waitsSeq;
    if (!hand) { box.replaceChildren(); return; }
    localStorage.setItem("jantaku-hand", hand);
    const seat = localStorage.getItem("jantaku-seat");
    try {
      const r = await api("POST", "/api/waits", { hand, seat: seat === null || seat === "" ? null : Number(seat) });
      if (seq !== waitsSeq) return;  // asked again since (another seat, another hand): that answer shows
      const parts = [pricedAs(r.priced_as)].filter(Boolean);
      if (r.furiten) parts.push(el("p", { class: "warn mine-warn", role: "alert", text: `⚠ ${r.furiten.detail}: no ron` }));
      if (!r.tenpai) parts.push(el("p", { class: "muted", text: r.shanten > 0 ? `${r.shanten} from tenpai` : "not waiting" }));
      else parts.push(el("ul", { class: "waits" }, r.waits.map((w) => el("li", {}, tile(w.tile), ` ${w.unseen} left · ron `,
        w.ron && w.ron.is_win ? `${w.ron.total.toLocaleString()}${w.ron.limit_name ? " (" + w.ron.limit_name + ")" : ""}` : "no yaku",
        " · tsumo ", w.tsumo && w.tsumo.is_win ? w.tsumo.total.toLocaleString() : "no yaku"))));
      box.replaceChildren(...parts);
    } catch (e) { if (seq === waitsSeq) box.replaceChildren(el("p", { class: "error", text: e.message })); }
  }

  /* --- the camera's game: its events this hand, what it cannot square with the game, a win or draw laid out --- */
  const SIDE_TURNS = { bottom: 0, right: 1, top: 2, left: 3 };  // seats after the camera's bottom seat, in play order
  const F = { offset: 0 };  // the server's clock minus this phone's, in seconds (for the countdown)

  /** One of the camera game's actions (POST /api/camera/...); the answer's state is shown at once. */
  async function cameraAct(action, body, done) {
    try {
      const r = await api("POST", `/api/camera/${action}`, body);
      toast(done);
      if (r.state && r.state.camera) renderFollow(r.state.camera.follow);
    } catch (e) { toast(e.message, true); }
  }

  /** The tile an event is about (a discard's, a kan's, a new dora indicator), if any. */
  const eventTile = (ev) => (ev && (ev.tile || ev.indicator || ev.dora_indicator)) || null;

  function fixEvent(e) {
    const ev = e.event || {}, current = eventTile(ev) || "back";
    const seatBox = Number.isInteger(ev.seat)
      ? el("select", { class: "fix-seat", "aria-label": "whose" }, [0, 1, 2, 3].map((s) =>
        el("option", { value: s, selected: s === ev.seat, text: seatName(s) })))
      : null;
    picker(current, (t) => {
      const body = { id: e.id };
      if (t !== "*seat") body.tile = t;
      if (seatBox && Number(seatBox.value) !== ev.seat) body.seat = Number(seatBox.value);
      if (t === "*seat" && body.seat === undefined) return;  // nothing changed
      cameraAct("fix", body, "Fixed.");
    }, {
      title: `Fix: ${e.text}`,
      head: seatBox ? el("label", { class: "row small" }, "By ", seatBox) : null,
      extras: seatBox ? [{ id: "fix-seat-only", label: "Only the seat", value: "*seat" }] : [],
    });
  }

  function renderEvents(events, status) {
    const card = $("#follow-card");
    card.hidden = !events;
    if (!events) return;
    $("#follow-status").hidden = status !== "waiting_for_deal";
    const list = [...events].reverse();  // newest first
    $("#follow-events").replaceChildren(...(list.length ? list.map((e) => {
      const t = eventTile(e.event);
      return el("li", { class: "fevent", "data-id": e.id },
        t ? tile(t) : null, el("span", { class: "ftext", text: e.text }),
        el("span", { class: "factions" },
          el("button", { type: "button", class: "secondary undo-event", onclick: () => cameraAct("undo", { id: e.id }, "Undone.") }, "Undo"),
          el("button", { type: "button", class: "secondary fix-event", onclick: () => fixEvent(e) }, "Fix")));
    }) : [el("li", { class: "muted", text: "Nothing seen yet in this hand." })]));
  }

  /** The picture of the frame a contradiction was seen in, while the table keeps it; else null. */
  const clashPicture = (c) => (c.image && typeof c.frame_id === "string" ? `/api/camera/frame/${encodeURIComponent(c.frame_id)}.jpg` : null);

  const frameNumber = (c) => el("span", { class: "muted small", text: `(frame ${c.frame_id})` });

  /** The frame's picture across the phone's width. */
  function enlargeFrame(path, what) {
    sheetOf("frame", what, [], el("img", { src: path, alt: what, class: "clash-frame-big" }));
  }

  function renderClashes(list) {
    const box = $("#follow-clashes");
    const whom = list.map((c) => (Number.isInteger(c.seat) ? seatName(c.seat) : c.side ? SIDE_TEXT[c.side] || c.side : ""));
    const key = JSON.stringify([list, whom]);
    if (box.dataset.key === key) return;  // the same contradictions: their pictures are not loaded again
    box.dataset.key = key;
    box.hidden = !list.length;
    if (!list.length) { box.replaceChildren(); return; }
    box.replaceChildren(el("h2", { text: "The camera cannot square the table with the game" }),
      el("ul", { class: "clash-list" }, list.map((c, i) => {
        const who = whom[i];
        const path = clashPicture(c);
        const what = `${who ? who + ": " : ""}${c.detail || c.clash}`;
        return el("li", { class: "clash", "data-frame": c.frame_id || null },
          el("span", { class: "error", text: what }), " ",
          path ? el("a", { href: path, class: "frame-link", title: "Tap to enlarge",
            onclick: (ev) => { ev.preventDefault(); enlargeFrame(path, what); } },
          el("img", { src: path, alt: `the frame ${c.frame_id} it was seen in`, class: "clash-frame",
            onerror: (ev) => ev.target.closest("a").replaceWith(frameNumber(c)) }))  // dropped meanwhile
            : c.frame_id ? frameNumber(c) : null);
      })),
      el("p", { class: "small", text: "Put the table or the game right (undo or fix an event below), then:" }),
      el("button", { type: "button", id: "resync-btn", onclick: () => cameraAct("resync", {}, "The camera takes the table as it is now.") },
        "The table is right now"));
  }

  function renderPending(p) {
    const box = $("#follow-pending");
    const key = p ? JSON.stringify(p) : "";
    if (box.dataset.key === key) return;  // the same result again: the card (and its countdown) stays as it is
    box.dataset.key = key;
    box.hidden = !p;
    if (!p) { box.replaceChildren(); return; }
    const r = p.preview || {};
    const title = p.kind === "draw" ? "Exhaustive draw: the hands laid out"
      : p.kind === "abort" ? `Abortive draw: ${p.hand.split(":")[0]}`
      : p.kind === "tsumo" ? `Tsumo: ${seatName(p.seat)}`
        : `Ron: ${seatName(p.seat)} on ${seatName(p.discarder)}'s ${tileName(p.win_tile)}`;
    const parts = [el("h2", { text: title })];
    // tiles in mpsz (the tile set apart after a "+"): drawn, the winning tile apart at the right
    if (p.hand && /^[0-9mpsz\s]+(\+\s*[0-9][mpsz])?$/.test(p.hand)) {
      const tiles = parseTiles(p.hand.split("+")[0]);
      const at = p.win_tile && tiles.length % 3 === 2 ? tiles.lastIndexOf(p.win_tile) : -1;
      if (at >= 0) tiles.splice(at, 1);
      parts.push(el("div", { class: "tiles small pending-hand", role: "img", "aria-label": `hand ${p.hand}`, "data-mpsz": p.hand },
        tiles.map((t) => tile(t)), p.win_tile ? tile(p.win_tile, { cls: "win" }) : null));
    } else if (p.hand) {  // the hands as the camera read them, in words
      parts.push(el("p", { class: "pending-hand-text", text: p.hand }),
        p.win_tile ? el("div", { class: "tiles small pending-hand" }, "Winning tile ", tile(p.win_tile, { cls: "win" })) : null);
    }
    if (p.furiten) {
      parts.push(el("p", { class: "warn mine-warn furiten-flag", role: "alert", text: `⚠ furiten: ${p.furiten_reason || "a ron on a furiten wait"}` }));
    }
    if (p.error) parts.push(el("p", { class: "error pending-error", text: `The rules refuse it as it is: ${p.error}` }));
    // each winner's value: the engine's result, else (the rules refuse it) what the scorer makes of the hand
    const values = r.wins ? r.wins.map((w) => [w.seat, w.score]) : p.score ? [[p.seat, p.score]] : [];
    for (const [seat, sc] of values) {
      if (values.length > 1) parts.push(el("h3", { text: seatName(seat) }));
      if (sc.is_win === false) { parts.push(el("p", { class: "error", text: `Not a win: ${sc.reason}` })); continue; }
      parts.push(el("div", { class: "row" }, el("span", { class: "big-num", text: sc.total.toLocaleString() }),
        el("span", { text: sc.limit === "yakuman" ? "" : `${sc.han} han ${sc.fu} fu` }),
        sc.limit_name ? el("span", { class: "limit", text: sc.limit_name }) : null));
      const { yaku, fu } = valueTables(sc);
      parts.push(yaku);
      if (sc.fu_items.length) parts.push(el("h3", { text: "Fu" }), fu);
    }
    if (r.tenpai) {
      const ten = r.tenpai.map((t, s) => (t ? seatName(s) : null)).filter(Boolean);
      parts.push(el("p", { text: `Tenpai: ${ten.length ? ten.join(", ") : "nobody"}` }));
    }
    if (r.deltas) parts.push(el("h3", { text: "Payments" }), ...paymentTables(r));
    if (p.auto_confirm_at) parts.push(el("p", { class: "muted small countdown", id: "pending-countdown", "data-at": p.auto_confirm_at }));
    if (document.body.dataset.unlocked !== "yes") parts.push(el("p", { class: "muted small" }, "Confirming needs the table's PIN: ", el("a", { href: "/join", text: "join" }), "."));
    parts.push(el("div", { class: "row" },
      el("button", { type: "button", id: "pending-confirm", class: "big", disabled: !!p.error,
        onclick: () => cameraAct("confirm", {}, "Confirmed: points moved.") },
        p.kind === "draw" ? "Confirm the draw: move the points"
          : p.kind === "abort" ? "Confirm the draw: the hand is replayed" : "Confirm: move the points"),
      el("button", { type: "button", id: "pending-dismiss", class: "secondary", onclick: () => cameraAct("dismiss", {}, "Dismissed.") }, "Dismiss")));
    box.replaceChildren(...parts);
    updateCountdown();
  }

  function updateCountdown() {
    const c = $("#pending-countdown");
    if (!c) return;
    const left = Math.ceil(Number(c.dataset.at) - (Date.now() / 1000 + F.offset));
    c.textContent = left > 0 ? `Confirms by itself in ${left} s unless dismissed.` : "Confirming by itself…";
  }

  /** The camera game's state (``camera.follow``); null or absent: no camera game, nothing shown. */
  function renderFollow(f) {
    if (!$("#follow-card")) return;
    renderPending(f ? f.pending : null);
    renderClashes(f ? f.contradictions || [] : []);
    renderEvents(f ? f.events || [] : null, f && f.status);
  }

  /** Which seat is this phone's? Asked once, kept as the My hand seat. */
  function askSeat(then) {
    const sheet = sheetOf("your seat", "Which seat is yours?", [0, 1, 2, 3].map((s) =>
      el("button", { type: "button", class: "secondary pick-seat", "data-seat": s, onclick: () => { sheet.remove(); then(s); } }, seatName(s))));
  }

  /** "I sit here" at a side of the camera's view: this phone's seat is at that edge of the frame. */
  function sitHere(side) {
    const mine = localStorage.getItem("jantaku-seat");
    if (mine === null || mine === "") {
      askSeat((s) => { const sel = $("#my-seat"); sel.value = String(s); sel.dispatchEvent(new Event("change")); sitHere(side); });
      return;
    }
    const seat = (((Number(mine) - SIDE_TURNS[side]) % 4) + 4) % 4;
    cameraAct("seat", { seat }, `The camera's near edge is ${seatName(seat)}.`);
  }

  function initLive() {
    $("#my-hand").value = localStorage.getItem("jantaku-hand") || "";
    $("#my-hand-form").addEventListener("submit", (e) => { e.preventDefault(); checkMyHand(); });
    const sel = $("#my-seat");
    sel.value = localStorage.getItem("jantaku-seat") || "";
    let last = null;
    sel.addEventListener("change", () => {
      localStorage.setItem("jantaku-seat", sel.value);
      if (last) { renderSeats(last.game); renderTable(last.camera && last.camera.table ? last.camera : null); }
      if ($("#my-hand").value.trim()) checkMyHand();  // the values depend on the seat: ask again
    });
    live((st) => {
      last = st; S.game = st.game; F.offset = st.at - Date.now() / 1000;
      cameraProblem = st.camera_problem || null;
      renderRound(st.game); renderTurn(st.game); renderSeats(st.game); renderFinal(st.game); renderCamera(st.camera);
      renderFollow(st.camera ? st.camera.follow : null);
      if ($("#my-hand").value.trim()) checkMyHand();  // the table moved on: furiten may have changed
    }, (cam) => {
      if (last) last.camera = cam;
      renderCamera(cam);
      if (cam && "follow" in cam) renderFollow(cam.follow);
    }, renderFollow);
    setInterval(() => { updateAge(); updateCountdown(); }, 1000);
  }

  /* --- the score page --- */
  const S = { hand: [], read: null, win: null, dora: [], ura: [], game: null, others: [] };
  const seatName = (seat) => {
    const s = S.game && S.game.seats[seat];
    return s ? `${s.name || "seat " + (seat + 1)} (${WIND_NAMES[s.wind]})` : `seat ${seat + 1}`;
  };

  function keyboard(box, onpick, extra = []) {
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
  function sheetOf(label, title, buttons, ...body) {
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
  function picker(current, onpick, { title = `Fix ${tileName(current)}:`, extras = [], head = null } = {}) {
    const pick = (t) => { sheet.remove(); onpick(t); };
    const kb = el("div", { class: "keyboard" });
    keyboard(kb, pick);
    const near = el("div", { class: "tiles hand likely" }, likely(current).map((t) => tile(t, { onclick: () => pick(t) })));
    const buttons = extras.map((x) => el("button", { type: "button", class: "secondary", id: x.id, onclick: () => pick(x.value) }, x.label));
    const sheet = sheetOf("fix tile", title, buttons, head, near, kb);
  }

  function renderHand() {
    const box = $("#hand");
    box.replaceChildren(...S.hand.map((h, i) => tile(h.tile, {
      cls: [i === S.win && "win", h.fixed && "fixed", h.conf !== undefined && h.conf < 0.5 && "low"].filter(Boolean).join(" "),
      onclick: () => picker(h.tile, (t) => fixTile(i, t), { extras: [
        { id: "mark-win", label: "★ winning tile", value: "*win" }, { label: "✕ not a tile", value: "none" }] }),
    })));
    $("#dora-tiles").replaceChildren(...S.dora.map((t, i) => tile(t, { onclick: () => { S.dora.splice(i, 1); renderHand(); } })));
    $("#ura-tiles").replaceChildren(...S.ura.map((t, i) => tile(t, { onclick: () => { S.ura.splice(i, 1); renderHand(); } })));
  }

  async function fixTile(i, t) {
    if (t === "*win") { S.win = i; renderHand(); return; }
    const h = S.hand[i];
    if (h.frame !== undefined && h.frame !== null && t !== h.tile) {
      try { await api("POST", "/api/corrections", { frame_id: h.frame, index: h.index, tile: t }); }
      catch (e) { toast(`Correction not kept: ${e.message}`, true); }
    }
    if (t === "none") {
      S.hand.splice(i, 1);
      if (S.win === i) S.win = null; else if (S.win !== null && S.win > i) S.win -= 1;
    } else { h.tile = t; h.fixed = true; }
    renderHand();
  }

  /** The tiles the hand on the page counts: those tapped or read, and three for each meld typed (a kan's fourth
   *  tile is its replacement's, so three too): 14 for a winning hand. */
  function handCount() {
    return S.hand.length + 3 * $("#melds").value.trim().split(/\s+/).filter(Boolean).length;
  }

  /** A hand of 13: ask which tile won it (the hand's waits first, as the server finds them, then every tile); the
   *  tile picked is added as the winning tile, then ``then()``. */
  function askWinningTile(then) {
    const pick = (t) => { sheet.remove(); S.hand.push({ tile: t }); S.win = S.hand.length - 1; renderHand(); then(); };
    const waitsRow = el("div", { class: "tiles hand likely", id: "win-waits" });
    const kb = el("div", { class: "keyboard" });
    keyboard(kb, pick);
    const sheet = sheetOf("winning tile", "Which tile won the hand?", [],
      el("p", { class: "small", text: "These are 13 tiles: a winning hand has 14. Tap the winning tile; it is added and marked ★." }),
      waitsRow, kb);
    const melds = $("#melds").value.trim();
    const hand = (formatTiles(S.hand.map((h) => h.tile)) + (melds ? " " + melds : "")).trim();
    api("POST", "/api/waits", { hand }).then((r) => {
      if (r.tenpai && r.waits.length) waitsRow.replaceChildren(el("span", { class: "small", text: "It waits on " }),
        ...r.waits.map((w) => tile(w.tile, { onclick: () => pick(w.tile) })));
    }).catch(() => {});  // not tenpai or not a hand the server reads: the keyboard is there
  }

  function handText() {
    const tiles = S.hand.map((h) => h.tile);
    const win = S.win !== null ? tiles[S.win] : tiles[tiles.length - 1];
    const rest = tiles.slice();
    if (S.win !== null) rest.splice(S.win, 1); else rest.pop();
    rest.sort((a, b) => sortKey(a) - sortKey(b));
    const melds = $("#melds").value.trim();
    return { hand: (formatTiles([...rest, win].filter(Boolean)) + (melds ? " " + melds : "")).trim(), win };
  }

  function scoreRequest() {
    const { hand, win } = handText();
    const req = {
      hand, win_tile: win, tsumo: $('input[name="how"]:checked').value === "tsumo",
      seat_wind: $("#seat-wind").value, round_wind: $("#round-wind").value,
      dora: formatTiles(S.dora), ura: formatTiles(S.ura),
      honba: Number($("#honba-in").value) || 0, sticks: Number($("#sticks-in").value) || 0,
      flags: [...document.querySelectorAll('input[name="flag"]:checked')].map((c) => c.value),
    };
    if (S.game && !req.tsumo) {  // who dealt in: the payments name the seat
      const d = S.game.seats[Number($("#discarder-seat").value)];
      if (d && d.wind !== req.seat_wind) req.discarder = d.wind;
    }
    return req;
  }

  function payerName(wind) {
    const seat = S.game && S.game.seats.find((s) => s.wind === wind);
    return seat ? `${seat.name} (${WIND_NAMES[wind]})` : WIND_NAMES[wind];
  }

  /** A scored hand's yaku (with their han) and fu items, as tables. */
  function valueTables(r) {
    const yaku = el("table", { class: "yaku" }, el("tbody", {}, r.yaku.map((y) =>
      el("tr", {}, el("td", {}, `${y.name} `, ja(y.name_ja), y.gloss ? el("span", { class: "muted small gloss", text: ` · ${y.gloss}` }) : null),
        el("td", { class: "num", text: y.yakuman_multiple ? `${y.yakuman_multiple > 1 ? y.yakuman_multiple + "× " : ""}yakuman` : `${y.han} han` })))));
    const fu = el("table", { class: "fu" }, el("tbody", {}, r.fu_items.map((f) =>
      el("tr", {}, el("td", { text: f.reason }), el("td", { class: "num", text: `${f.fu} fu` })))));
    return { yaku, fu };
  }

  /** What a hand's result moves (``HandResult.to_dict()``: transfers with reasons, deltas by seat), as tables. */
  function paymentTables(r) {
    const why = (t) => t.reason.replace(/^seat \d+ /, "");  // the engine names the winner by seat: the row already does
    const rows = r.transfers.map((t) => el("tr", {},
      el("td", {}, t.payer === null ? `riichi sticks to ${seatName(t.payee)}` : `${seatName(t.payer)} pays ${seatName(t.payee)}`,
        el("br"), el("span", { class: "muted small", text: why(t) })),
      el("td", { class: "num", text: t.amount.toLocaleString() })));
    const net = r.deltas.map((d, seat) => el("tr", { "data-seat": seat }, el("td", { text: seatName(seat) }),
      el("td", { class: "num", text: (d > 0 ? "+" : "") + d.toLocaleString() })));
    return [
      el("table", { class: "transfers" }, el("tbody", {}, rows)),
      el("p", { class: "muted small", text: r.outcome === "abortive_draw" ? "Recorded as it is, this is an abortive draw (triple ron)." : "Points by seat:" }),
      el("table", { class: "deltas" }, el("tbody", {}, net))];
  }

  function renderResult(r, req) {
    const box = $("#result");
    box.hidden = false;
    if (!r.is_win) {
      box.replaceChildren(el("h2", { text: "Not a win" }), el("p", { class: "error", text: r.reason }));
      $("#settle-win").hidden = true;
      return;
    }
    const head = el("div", { class: "row" },
      el("span", { class: "big-num", text: r.total.toLocaleString() }),
      el("span", { text: r.limit === "yakuman" || r.limit_name && r.han >= 13 ? "" : `${r.han} han ${r.fu} fu` }),
      r.limit_name ? el("span", { class: "limit", text: r.limit_name }) : null);
    const { yaku, fu } = valueTables(r);
    // at a table the payments are the game's own settlement (liability, honba, sticks, every winner): previewed
    // by the engine below; the scorer's, by wind, know nothing of a liable player
    const pays = S.game ? el("div", { id: "table-payments", "aria-live": "polite" })
      : el("table", {}, el("tbody", {}, r.payments.map((p) =>
        el("tr", {}, el("td", { text: p.payer ? `${payerName(p.payer)} pays` : "the discarder pays" }), el("td", { class: "num", text: p.amount.toLocaleString() }))),
        r.sticks_won ? el("tr", {}, el("td", { text: "riichi sticks" }), el("td", { class: "num", text: r.sticks_won.toLocaleString() })) : null));
    box.replaceChildren(...[el("h2", { text: "Result" }), head, el("h3", { text: "Yaku" }), yaku,
      r.fu_items.length ? el("h3", { text: "Fu" }) : null, r.fu_items.length ? fu : null,
      el("h3", { text: "Payments" }), pays,
      r.notes && r.notes.length ? el("p", { class: "muted small", text: r.notes.join(" ") }) : null].filter(Boolean));
    box.dataset.request = JSON.stringify(req);
    const settle = $("#settle-win");
    settle.hidden = !S.game;
    // pao: offered when the hand holds a yakuman the table's rules make someone liable for (the server says which)
    const liable = (S.game && S.game.pao_yakuman) || [];
    const pao = !!S.game && r.yaku.some((y) => liable.includes(y.name));
    $("#liable-label").hidden = !pao;
    $("#liable-seat").replaceChildren();
    fillLiable();
    $("#add-winner-btn").hidden = !!req.tsumo;
    previewPayments();
  }

  /** The players who can be liable (pao) for the yakuman on the page: anyone but the winner, so rebuilt when the
   *  winner changes; a choice still valid is kept. */
  function fillLiable() {
    const select = $("#liable-seat");
    if ($("#liable-label").hidden || !S.game) return;
    const winner = Number($("#winner-seat").value);
    const chosen = select.value;
    select.replaceChildren(el("option", { value: "", text: "nobody" }),
      ...S.game.seats.filter((x) => x.seat !== winner).map((x) => el("option", { value: x.seat, text: seatName(x.seat) })));
    select.value = chosen !== "" && Number(chosen) !== winner ? chosen : "";
  }

  /** The body of POST /api/game/win for the win on the page now: this winner (and any kept before, on one discard). */
  function settleBody(req) {
    const w = winnerOf(req);
    let body = { ...req, winner: w.winner };
    if (w.liable_seat !== undefined) body.liable_seat = w.liable_seat;
    if (!req.tsumo) body.discarder_seat = Number($("#discarder-seat").value);
    if (S.others.length) {  // double (or triple) ron: the winners kept before, and this one
      body = { discarder_seat: body.discarder_seat, tsumo: !!req.tsumo, win_tile: req.win_tile, dora: req.dora, ura: req.ura,
               winners: [...S.others, w] };
    }
    return body;
  }

  let previewSeq = 0;
  /** The payments by seat that confirming this win would make, as the engine settles them (POST /api/game/win/preview
   *  with the very body the Confirm button sends): the liable player's share included, nothing recorded. */
  async function previewPayments() {
    const box = $("#table-payments");
    if (!box || !S.game || $("#settle-win").hidden) return;
    const req = JSON.parse($("#result").dataset.request || "{}");
    const seq = ++previewSeq;
    box.replaceChildren(el("p", { class: "muted small", text: "Settling at this table…" }));
    let r;
    try { r = await api("POST", "/api/game/win/preview", settleBody(req)); }
    catch (e) {
      if (seq === previewSeq) box.replaceChildren(el("p", { class: "error", text: `Cannot be recorded as it is: ${e.message}` }));
      return;
    }
    if (seq !== previewSeq) return;  // a newer choice (liable player, discarder) was previewed since
    box.replaceChildren(...paymentTables(r));
  }

  /** The winner on the score page now, as one entry of a win: seat, hand, winning tile, flags, liable seat. */
  function winnerOf(req) {
    const w = { winner: Number($("#winner-seat").value), hand: req.hand, win_tile: req.win_tile, flags: req.flags };
    if (!$("#liable-label").hidden && $("#liable-seat").value !== "") w.liable_seat = Number($("#liable-seat").value);
    return w;
  }

  function renderOthers() {
    const box = $("#other-winners");
    box.hidden = !S.others.length;
    box.replaceChildren(el("p", { text: "Also winning on this discard:" }),
      el("ul", {}, S.others.map((w) => el("li", { text: `${seatName(w.winner)}: ${w.hand}${w.liable_seat !== undefined ? ", pao " + seatName(w.liable_seat) : ""}` }))),
      el("button", { type: "button", class: "secondary", onclick: () => { S.others = []; renderOthers(); previewPayments(); } }, "Forget them"));
  }

  async function readPhoto(file) {
    const status = $("#read-status");
    status.textContent = "Reading the photo…";
    const fd = new FormData();
    fd.append("image", file);
    try {
      const r = await api("POST", "/api/read", fd);
      S.hand = r.read.filter((t) => t.tile !== "back").map((t) => ({ tile: t.tile, frame: r.frame_id, index: t.index, conf: t.conf }));
      S.win = S.hand.length ? S.hand.length - 1 : null;
      status.textContent = `Read ${r.count} tiles in ${(r.ms.total / 1000).toFixed(2)} s. Tap any tile to fix it.`;
      renderHand();
      if (r.score) renderResult(r.score, scoreRequest());
    } catch (e) { status.textContent = ""; toast(`Could not read the photo: ${e.message}`, true); }
  }

  /** The dora indicators the camera sees on the table now (a whole-table reading), else none. */
  const cameraDora = (cam) => (cam && cam.table_view ? cam.table_view.dora.map((d) => d.indicator) : []);

  /** The page's fields from /api/state: the game's, and the dora indicators (recorded, else the camera's). */
  function fillFromState(st) {
    fillFromGame(st.game);
    if (!S.dora.length) S.dora = cameraDora(st.camera);
    renderHand();
  }

  function fillFromGame(game) {
    S.game = game;
    if (!game) return;
    $("#round-wind").value = game.round.wind;
    $("#honba-in").value = game.honba;
    $("#sticks-in").value = game.sticks;
    if (!S.dora.length) S.dora = game.dora_indicators.slice();
    const seatSel = (id) => { const s = $(id); s.replaceChildren(...game.seats.map((x) => el("option", { value: x.seat, text: `${x.name || "seat " + (x.seat + 1)} (${WIND_NAMES[x.wind]})` }))); };
    seatSel("#winner-seat"); seatSel("#discarder-seat");
    $("#seat-row").hidden = false;
    const mine = localStorage.getItem("jantaku-seat");
    if (mine !== null && mine !== "") { $("#winner-seat").value = mine; $("#seat-wind").value = game.seats[Number(mine)].wind; }
    $("#discarder-seat").value = String((Number($("#winner-seat").value) + 3) % 4);
    renderHand();
  }

  function initScore() {
    keyboard($("#keyboard"), (t) => {
      const target = $("#kb-target").value;
      if (target === "dora") { if (S.dora.length < 5) S.dora.push(t); }
      else if (target === "ura") { if (S.ura.length < 5) S.ura.push(t); }
      else if (S.hand.length < 18) { S.hand.push({ tile: t }); S.win = S.hand.length - 1; }
      renderHand();
    });
    $("#kb-back").addEventListener("click", () => {
      const target = $("#kb-target").value;
      if (target === "dora") S.dora.pop(); else if (target === "ura") S.ura.pop();
      else { S.hand.pop(); S.win = S.hand.length ? S.hand.length - 1 : null; }
      renderHand();
    });
    $("#clear-hand").addEventListener("click", () => { S.hand = []; S.win = null; $("#result").hidden = true; renderHand(); });
    $("#photo").addEventListener("change", (e) => { if (e.target.files[0]) readPhoto(e.target.files[0]); e.target.value = ""; });
    $("#from-camera").addEventListener("click", async () => {
      const st = await api("GET", "/api/state");
      const cam = st.camera;
      if (!cam || !cam.tiles.length) { toast("The camera sees no tiles now.", true); return; }
      if (!S.dora.length) S.dora = cameraDora(cam);
      const near = cam.table ? cam.table.seats.find((s) => s.side === "bottom") : null;
      if (cam.table) {  // a whole table: the near seat's hand and drawn tile (not its pond, not another row)
        const tiles = near ? parseTiles(near.hand + (near.drawn || "")) : [];
        if (!tiles.length) { toast("The camera sees no face-up hand at the near seat.", true); renderHand(); return; }
        S.hand = tiles.map((t) => ({ tile: t }));
        S.win = S.hand.length - 1;
        renderHand();
        return;
      }
      // the close-up hand: the longest row; with the frame's own reading each tile can be corrected
      const rows = [];
      if (cam.read && cam.read.length) for (const t of cam.read) (rows[t.row] = rows[t.row] || []).push({ tile: t.tile, frame: cam.frame_id, index: t.index });
      else for (const r of cam.tiles) rows.push(r.map((t) => ({ tile: t })));
      S.hand = rows.filter(Boolean).reduce((a, b) => (b.length > a.length ? b : a), []);
      S.win = S.hand.length ? S.hand.length - 1 : null;
      renderHand();
    });
    $("#score-btn").addEventListener("click", async () => {
      // 13 tiles are a hand still waiting: scored as they are, the last tile would count twice
      if (handCount() === 13) { askWinningTile(() => $("#score-btn").click()); return; }
      const req = scoreRequest();
      if (!req.hand) { toast("No tiles yet: take a photo or use the keyboard.", true); return; }
      try { renderResult(await api("POST", "/api/score", req), req); }
      catch (e) { toast(e.message, true); }
    });
    $("#winner-seat").addEventListener("change", () => {
      if (S.game) $("#seat-wind").value = S.game.seats[Number($("#winner-seat").value)].wind;
      fillLiable();  // before the preview below reads the liable choice
    });
    const howChanged = () => { $("#discarder-label").hidden = $('input[name="how"]:checked').value === "tsumo"; };
    document.querySelectorAll('input[name="how"]').forEach((r) => r.addEventListener("change", howChanged));
    // who pays depends on these too: the preview follows each change
    for (const id of ["#liable-seat", "#winner-seat", "#discarder-seat"]) $(id).addEventListener("change", () => previewPayments());
    $("#settle-btn").addEventListener("click", async () => {
      const body = settleBody(JSON.parse($("#result").dataset.request || "{}"));
      try {
        await api("POST", "/api/game/win", body);
        S.others = []; renderOthers();
        toast("Win recorded: points moved.");
        $("#settle-note").textContent = "Recorded. Undo it on the Settle page if it was wrong.";
      } catch (e) { toast(e.message, true); }
    });
    $("#add-winner-btn").addEventListener("click", () => {
      const req = JSON.parse($("#result").dataset.request || "{}");
      const w = winnerOf(req);
      if (S.others.some((o) => o.winner === w.winner)) { toast(`${seatName(w.winner)} is already listed.`, true); return; }
      S.others.push(w);
      renderOthers();
      S.hand = []; S.win = null; $("#result").hidden = true; $("#settle-win").hidden = true; renderHand();
      toast("Winner kept: now enter the next winner's hand, pick them as the winner and score it.");
    });
    api("GET", "/api/state").then(fillFromState).catch(() => {});
    live((st) => { S.game = st.game; }, null);
    renderHand();
  }

  /* --- the settle page --- */
  function renderSettle(st) {
    const game = st.game;
    $("#standings").replaceChildren(...(game ? game.seats.map((s) =>
      el("div", {}, el("span", { text: `${WIND_NAMES[s.wind]} · ${s.name || "seat " + (s.seat + 1)}` }), el("br"), el("b", { text: s.points.toLocaleString() })))
      : [el("p", { class: "muted", text: "No game yet: start one below." })]));
    const seats = game ? game.seats : [0, 1, 2, 3].map((i) => ({ seat: i, name: "", wind: SEAT_WINDS[i] }));
    $("#tenpai-boxes").replaceChildren(...seats.map((s) =>
      el("label", {}, el("input", { type: "checkbox", name: "tenpai", value: s.seat }), ` ${s.name || "seat " + (s.seat + 1)} tenpai`)),
      ...seats.map((s) =>
      el("label", { class: "small" }, el("input", { type: "checkbox", name: "nagashi", value: s.seat }), ` ${s.name || "seat " + (s.seat + 1)} nagashi mangan`)));
    $("#riichi-buttons").replaceChildren(...seats.map((s) => el("button", {
      type: "button", class: "secondary riichi-btn", "data-seat": s.seat, disabled: !!s.riichi,
      onclick: () => settleAct("/api/game/riichi", { seat: s.seat }, "Riichi recorded."),
    }, `${s.name || "seat " + (s.seat + 1)}${s.riichi ? " ✓" : ""}`)));
    const chombo = $("#chombo-seat");
    chombo.replaceChildren(...seats.map((s) => el("option", { value: s.seat, text: s.name || `seat ${s.seat + 1}` })));
    // the points one seat a line: four figures side by side do not fit a phone's width
    $("#history").replaceChildren(...(game ? game.history : []).map((h) =>
      el("tr", {}, el("td", { text: h.hand }), el("td", { text: h.result }), el("td", { class: "num deltas" },
        h.deltas.map((d, seat) => el("span", { title: game.seats[seat].name, text: (d > 0 ? "+" : "") + d.toLocaleString() }))))));
    $("#actions").hidden = !!(game && game.finished);  // undo stays reachable below
    $("#undo-final").hidden = !(game && game.finished);
    renderFinal(game);
    // agari-yame / tenpai-yame: the dealer, first after the last hand, may end the game or play on
    const choice = $("#dealer-choice");
    if (choice && game && game.dealer_may_stop) {
      const d = game.seats[game.dealer];
      choice.hidden = false;
      choice.replaceChildren(el("h2", { text: "End of the game?" }),
        el("p", { text: `${d.name || "seat " + (game.dealer + 1)} (dealer) is first after the last hand and may end the game here, or play on: then just record the next hand.` }),
        el("button", { type: "button", id: "dealer-stops-btn",
          onclick: () => settleAct("/api/game/event", { type: "dealer_stops", dealer: game.dealer }, "The dealer ended the game.") }, "End the game here"));
    } else if (choice) choice.hidden = true;
    $("#corr-count").textContent = st.corrections ? `(${st.corrections.corrections} so far)` : "";
  }

  const settleAct = (url, body, done) => api("POST", url, body).then((r) => { toast(done); renderSettle(r.state); }).catch((e) => toast(e.message, true));

  function initSettle() {
    const act = settleAct;
    $("#draw-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const tenpai = [0, 1, 2, 3].map((i) => !!document.querySelector(`input[name="tenpai"][value="${i}"]:checked`));
      const nagashi = [0, 1, 2, 3].filter((i) => !!document.querySelector(`input[name="nagashi"][value="${i}"]:checked`));
      act("/api/game/draw", { tenpai, nagashi }, "Draw recorded.");
    });
    $("#abort-form").addEventListener("submit", (e) => { e.preventDefault(); act("/api/game/abort", { reason: $("#abort-kind").value }, "Abortive draw recorded."); });
    $("#chombo-form").addEventListener("submit", (e) => { e.preventDefault(); act("/api/game/chombo", { seat: Number($("#chombo-seat").value) }, "Chombo recorded."); });
    $("#undo-btn").addEventListener("click", () => act("/api/game/undo", {}, "Undone."));
    $("#undo-final-btn").addEventListener("click", () => act("/api/game/undo", {}, "Undone."));
    $("#import-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const file = $("#import-file").files[0];
      if (!file) { toast("Choose a game file (an export) first.", true); return; }
      if (!confirm("Make this file the table's game? The current game stays stored.")) return;
      const fd = new FormData();
      fd.append("game", file);
      act("/api/game/import", fd, "Game imported.");
    });
    $("#new-form").addEventListener("submit", (e) => {
      e.preventDefault();
      if (!confirm("Start a new game? The current one stays in the export.")) return;
      act("/api/game/new", { rules: $("#new-rules").value, names: [0, 1, 2, 3].map((i) => $(`#name-${i}`).value) }, "New game started.");
    });
    live(renderSettle, null);
  }

  function init() {
    markCjkFont();
    const page = document.body.dataset.page;
    if (page === "live") initLive();
    else if (page === "score") initScore();
    else if (page === "settle") initSettle();
  }
  return { init, parseTiles, formatTiles, doraOf, S };
})();

document.addEventListener("DOMContentLoaded", J.init);
