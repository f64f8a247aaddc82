/* The Table page: the round, the seats, what the camera sees, the camera game's events and results, my waits. */
import {
  $, WIND_NAMES, api, doraRow, el, ja, live, markCjkFont, ordinal, parseTiles, paymentTables, picker, renderFinal,
  seatName as nameIn, sheetOf, tile, tileName, toast, valueTables,
} from "./shared.js";

/** The state as last told (``/events``: the whole state, then each camera reading into its ``camera``). */
let state = null;
let clockOffset = 0;  // the server's clock minus this phone's, in seconds (for the countdown)
const seatName = (seat) => nameIn(state && state.game, seat);
const mySeat = () => localStorage.getItem("jantaku-seat");

/** Whose turn it is (the engine's ``to_act`` and ``phase``), who deals next between hands, or that the game is
 *  over; the seat to act is marked on its card. */
function renderTurn(game) {
  const box = $("#turn");
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

/** The round, its counters and the dora (and, after a win, the ura): the dora as the server names them. */
function renderRound(game) {
  // past the last hand the engine's round has moved on to one never played
  $("#round-name").textContent = game ? (game.finished ? "Game over" : game.round.name) : "No game yet";
  const honba = game ? game.honba : 0, sticks = game ? game.sticks : 0;
  $("#honba").replaceChildren(`${honba} honba `, ja("本場"));
  $("#sticks").replaceChildren(`${sticks} riichi stick${sticks === 1 ? "" : "s"} `, ja("供託"));
  const wall = $("#wall");
  if (game && game.wall_left !== null && game.wall_left !== undefined) { wall.hidden = false; wall.textContent = `${game.wall_left} left`; }
  else wall.hidden = true;
  const indicators = game ? game.dora_indicators : [];
  $("#dora").parentElement.hidden = !indicators.length;
  $("#dora").replaceChildren(...indicators.map((t, i) => doraRow(t, game.dora[i])));
  const ura = game ? game.ura_indicators : [];
  $("#ura-line").hidden = !ura.length;
  $("#ura").replaceChildren(...ura.map((t, i) => doraRow(t, game.ura[i])));
}

function renderSeats(game) {
  const box = $("#seats");
  if (!game) { box.replaceChildren(el("p", { class: "card muted", text: "Start a game on the Settle page." })); return; }
  const mine = mySeat();
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

/** What the camera reads now (``problem``: what is wrong with the camera, said instead, or null). */
function renderCamera(cam, problem) {
  const box = $("#camera");
  renderTable(cam && cam.table ? cam : null);
  const said = problem ? el("p", { class: "error", id: "camera-problem", role: "alert", text: problem }) : null;
  if (!cam || !cam.rows || !cam.rows.length) {
    box.replaceChildren(said || el("p", { class: "muted", text: "No camera reading yet." }));
    return;
  }
  if (said) { box.replaceChildren(said); return; }
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

function tableSeat(seat, who, cam, mine) {
  const label = who.label;
  const head = el("div", { class: "thead" }, el("strong", { text: label }),
    who.wind === "E" ? el("span", { class: "chip", text: "dealer" }) : null,
    who.seat !== null && String(who.seat) === mine ? el("span", { class: "chip", text: "you" }) : null,
    seat.riichi !== null && seat.riichi !== undefined ? el("span", { class: "riichi", text: "riichi" }) : null,
    cam.table.dead_wall === seat.side ? el("span", { class: "chip", text: "dead wall" }) : null,
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
  const sideName = (side) => { const s = cam.table_view.seats.find((x) => x.side === side); return s ? s.label : SIDE_TEXT[side]; };
  const melds = el("div", { class: "tmelds" }, seat.melds.map((m) =>
    group("meld", `${label} meld`, m.tiles + (m.from ? ` called from ${sideName(m.from)}` : m.backs ? " closed kan" : ""), meldTiles(m))));
  return el("section", { class: `tseat${who.wind === "E" ? " dealer" : ""}`, "data-side": seat.side, "aria-label": label },
    head, handRow, el("div", { class: "tlow" }, pondBox, melds));
}

let lastTable = null;
function renderTable(cam) {
  const box = $("#camera-table");
  const mine = mySeat() || "";
  const key = cam ? JSON.stringify([cam.table, cam.table_view, mine]) : null;
  if (key === lastTable) return;  // the same table again: leave the page as it is (no flicker, no jump)
  lastTable = key;
  if (!cam || !cam.table_view) { box.hidden = true; box.replaceChildren(); return; }
  const named = cam.table_view;
  const dora = el("div", { class: "dora-line tdora" }, el("span", { class: "label", text: "Dora" }),
    named.dora.length ? named.dora.map((d) => el("span", { class: "row", role: "img", "aria-label": `indicator ${d.indicator} gives dora ${d.dora}`, "data-dora": d.dora },
      tile(d.indicator), el("span", { class: "arrow", text: "→" }), tile(d.dora, { cls: "dora" })))
      : el("span", { class: "muted small", text: "no indicator seen" }));
  const note = named.named_by === "camera"
    ? el("p", { class: "muted small tnote", text: "Seats as the camera sees them (near = its bottom edge): the table does not know which seat sits where." })
    : null;
  const seats = cam.table.seats.map((s, i) => tableSeat(s, named.seats[i], cam, mine));
  const extra = cam.table.unassigned && cam.table.unassigned.length
    ? el("p", { class: "muted small", text: `${cam.table.unassigned.length} tile(s) fit no seat.` }) : null;
  box.replaceChildren(...[dora, note, ...seats, extra].filter(Boolean));
  box.hidden = false;
}

function updateAge() {
  const box = $("#camera"), age = $("#camera-age");
  if (!box.dataset.at) return;
  const s = Math.max(0, Math.round(Date.now() / 1000 - Number(box.dataset.at)));
  age.textContent = s < 2 ? "· now" : `· ${s} s ago`;
}

/* --- my hand: its waits, priced for my seat --- */
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
  const seat = mySeat();
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

/** One of the camera game's actions (POST /api/camera/...); the answer's state is shown at once. */
async function cameraAct(action, body, done) {
  try {
    const r = await api("POST", `/api/camera/${action}`, body);
    toast(done);
    if (r.state) showState(r.state);
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
  if (r.deltas) parts.push(el("h3", { text: "Payments" }), ...paymentTables(r, state && state.game));
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
  const left = Math.ceil(Number(c.dataset.at) - (Date.now() / 1000 + clockOffset));
  c.textContent = left > 0 ? `Confirms by itself in ${left} s unless dismissed.` : "Confirming by itself…";
}

/** The camera game's state (the state's ``follow``); null: no camera game, nothing shown. */
function renderFollow(f) {
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
  const mine = mySeat();
  if (mine === null || mine === "") {
    askSeat((s) => { const sel = $("#my-seat"); sel.value = String(s); sel.dispatchEvent(new Event("change")); sitHere(side); });
    return;
  }
  const seat = (((Number(mine) - SIDE_TURNS[side]) % 4) + 4) % 4;
  cameraAct("seat", { seat }, `The camera's near edge is ${seatName(seat)}.`);
}

/** The whole state, each part drawn from its one place: the game, the camera (and its problem), the follow view. */
function showState(st) {
  state = st;
  clockOffset = st.at - Date.now() / 1000;
  renderRound(st.game); renderTurn(st.game); renderSeats(st.game); renderFinal(st.game);
  renderCamera(st.camera, st.camera_problem);
  renderFollow(st.follow);
}

/** A new camera reading between states: the state's camera part, nothing else. */
function showCamera(cam) {
  if (!state) return;  // the stream's first message is the whole state
  state.camera = cam;
  renderCamera(cam, state.camera_problem);
}

markCjkFont();
$("#my-hand").value = localStorage.getItem("jantaku-hand") || "";
$("#my-hand-form").addEventListener("submit", (e) => { e.preventDefault(); checkMyHand(); });
const seatSelect = $("#my-seat");
seatSelect.value = mySeat() || "";
seatSelect.addEventListener("change", () => {
  localStorage.setItem("jantaku-seat", seatSelect.value);
  if (state) { renderSeats(state.game); renderTable(state.camera && state.camera.table ? state.camera : null); }
  if ($("#my-hand").value.trim()) checkMyHand();  // the values depend on the seat: ask again
});
live((st) => {
  showState(st);
  if ($("#my-hand").value.trim()) checkMyHand();  // the table moved on: furiten may have changed
}, showCamera);
setInterval(() => { updateAge(); updateCountdown(); }, 1000);
