/* The Score page: a hand from a photo, the table camera or the tile keyboard, scored; a win settled at the table. */
import {
  $, WIND_NAMES, api, el, formatTiles, keyboard, live, markCjkFont, parseTiles, paymentTables, picker,
  seatName as nameIn, sheetOf, tile, toast, valueTables,
} from "./shared.js";

/** The page's hand (tiles tapped or read, each with its frame and index when read), the winning tile's place, the
 *  dora and ura indicators entered, the table's game (null: scoring alone) and the winners kept on one discard. */
const page = { hand: [], win: null, dora: [], ura: [], game: null, others: [] };
const seatName = (seat) => nameIn(page.game, seat);
const sortKey = (t) => "mpsz".indexOf(t[1]) * 100 + (t[0] === "0" ? 49 : Number(t[0]) * 10);

function renderHand() {
  const box = $("#hand");
  box.replaceChildren(...page.hand.map((h, i) => tile(h.tile, {
    cls: [i === page.win && "win", h.fixed && "fixed", h.conf !== undefined && h.conf < 0.5 && "low"].filter(Boolean).join(" "),
    onclick: () => picker(h.tile, (t) => fixTile(i, t), { extras: [
      { id: "mark-win", label: "★ winning tile", value: "*win" }, { label: "✕ not a tile", value: "none" }] }),
  })));
  $("#dora-tiles").replaceChildren(...page.dora.map((t, i) => tile(t, { onclick: () => { page.dora.splice(i, 1); renderHand(); } })));
  $("#ura-tiles").replaceChildren(...page.ura.map((t, i) => tile(t, { onclick: () => { page.ura.splice(i, 1); renderHand(); } })));
}

async function fixTile(i, t) {
  if (t === "*win") { page.win = i; renderHand(); return; }
  const h = page.hand[i];
  if (h.frame !== undefined && h.frame !== null && t !== h.tile) {
    try { await api("POST", "/api/corrections", { frame_id: h.frame, index: h.index, tile: t }); }
    catch (e) { toast(`Correction not kept: ${e.message}`, true); }
  }
  if (t === "none") {
    page.hand.splice(i, 1);
    if (page.win === i) page.win = null; else if (page.win !== null && page.win > i) page.win -= 1;
  } else { h.tile = t; h.fixed = true; }
  renderHand();
}

/** The tiles the hand on the page counts: those tapped or read, and three for each meld typed (a kan's fourth
 *  tile is its replacement's, so three too): 14 for a winning hand. */
function handCount() {
  return page.hand.length + 3 * $("#melds").value.trim().split(/\s+/).filter(Boolean).length;
}

/** A hand of 13: ask which tile won it (the hand's waits first, as the server finds them, then every tile); the
 *  tile picked is added as the winning tile, then ``then()``. */
function askWinningTile(then) {
  const pick = (t) => { sheet.remove(); page.hand.push({ tile: t }); page.win = page.hand.length - 1; renderHand(); then(); };
  const waitsRow = el("div", { class: "tiles hand likely", id: "win-waits" });
  const kb = el("div", { class: "keyboard" });
  keyboard(kb, pick);
  const sheet = sheetOf("winning tile", "Which tile won the hand?", [],
    el("p", { class: "small", text: "These are 13 tiles: a winning hand has 14. Tap the winning tile; it is added and marked ★." }),
    waitsRow, kb);
  const melds = $("#melds").value.trim();
  const hand = (formatTiles(page.hand.map((h) => h.tile)) + (melds ? " " + melds : "")).trim();
  api("POST", "/api/waits", { hand }).then((r) => {
    if (r.tenpai && r.waits.length) waitsRow.replaceChildren(el("span", { class: "small", text: "It waits on " }),
      ...r.waits.map((w) => tile(w.tile, { onclick: () => pick(w.tile) })));
  }).catch(() => {});  // not tenpai or not a hand the server reads: the keyboard is there
}

function handText() {
  const tiles = page.hand.map((h) => h.tile);
  const win = page.win !== null ? tiles[page.win] : tiles[tiles.length - 1];
  const rest = tiles.slice();
  if (page.win !== null) rest.splice(page.win, 1); else rest.pop();
  rest.sort((a, b) => sortKey(a) - sortKey(b));
  const melds = $("#melds").value.trim();
  return { hand: (formatTiles([...rest, win].filter(Boolean)) + (melds ? " " + melds : "")).trim(), win };
}

function scoreRequest() {
  const { hand, win } = handText();
  const req = {
    hand, win_tile: win, tsumo: $('input[name="how"]:checked').value === "tsumo",
    seat_wind: $("#seat-wind").value, round_wind: $("#round-wind").value,
    dora: formatTiles(page.dora), ura: formatTiles(page.ura),
    honba: Number($("#honba-in").value) || 0, sticks: Number($("#sticks-in").value) || 0,
    flags: [...document.querySelectorAll('input[name="flag"]:checked')].map((c) => c.value),
  };
  if (page.game && !req.tsumo) {  // who dealt in: the payments name the seat
    const d = page.game.seats[Number($("#discarder-seat").value)];
    if (d && d.wind !== req.seat_wind) req.discarder = d.wind;
  }
  return req;
}

function payerName(wind) {
  const seat = page.game && page.game.seats.find((s) => s.wind === wind);
  return seat ? `${seat.name} (${WIND_NAMES[wind]})` : WIND_NAMES[wind];
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
  const pays = page.game ? el("div", { id: "table-payments", "aria-live": "polite" })
    : el("table", {}, el("tbody", {}, r.payments.map((p) =>
      el("tr", {}, el("td", { text: p.payer ? `${payerName(p.payer)} pays` : "the discarder pays" }), el("td", { class: "num", text: p.amount.toLocaleString() }))),
      r.sticks_won ? el("tr", {}, el("td", { text: "riichi sticks" }), el("td", { class: "num", text: r.sticks_won.toLocaleString() })) : null));
  box.replaceChildren(...[el("h2", { text: "Result" }), head, el("h3", { text: "Yaku" }), yaku,
    r.fu_items.length ? el("h3", { text: "Fu" }) : null, r.fu_items.length ? fu : null,
    el("h3", { text: "Payments" }), pays,
    r.notes && r.notes.length ? el("p", { class: "muted small", text: r.notes.join(" ") }) : null].filter(Boolean));
  box.dataset.request = JSON.stringify(req);
  const settle = $("#settle-win");
  settle.hidden = !page.game;
  // pao: offered when the hand holds a yakuman the table's rules make someone liable for (the server says which)
  const liable = (page.game && page.game.pao_yakuman) || [];
  const pao = !!page.game && r.yaku.some((y) => liable.includes(y.name));
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
  if ($("#liable-label").hidden || !page.game) return;
  const winner = Number($("#winner-seat").value);
  const chosen = select.value;
  select.replaceChildren(el("option", { value: "", text: "nobody" }),
    ...page.game.seats.filter((x) => x.seat !== winner).map((x) => el("option", { value: x.seat, text: seatName(x.seat) })));
  select.value = chosen !== "" && Number(chosen) !== winner ? chosen : "";
}

/** The body of POST /api/game/win for the win on the page now: this winner (and any kept before, on one discard). */
function settleBody(req) {
  const w = winnerOf(req);
  let body = { ...req, winner: w.winner };
  if (w.liable_seat !== undefined) body.liable_seat = w.liable_seat;
  if (!req.tsumo) body.discarder_seat = Number($("#discarder-seat").value);
  if (page.others.length) {  // double (or triple) ron: the winners kept before, and this one
    body = { discarder_seat: body.discarder_seat, tsumo: !!req.tsumo, win_tile: req.win_tile, dora: req.dora, ura: req.ura,
             winners: [...page.others, w] };
  }
  return body;
}

let previewSeq = 0;
/** The payments by seat that confirming this win would make, as the engine settles them (POST /api/game/win/preview
 *  with the very body the Confirm button sends): the liable player's share included, nothing recorded. */
async function previewPayments() {
  const box = $("#table-payments");
  if (!box || !page.game || $("#settle-win").hidden) return;
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
  box.replaceChildren(...paymentTables(r, page.game));
}

/** The winner on the score page now, as one entry of a win: seat, hand, winning tile, flags, liable seat. */
function winnerOf(req) {
  const w = { winner: Number($("#winner-seat").value), hand: req.hand, win_tile: req.win_tile, flags: req.flags };
  if (!$("#liable-label").hidden && $("#liable-seat").value !== "") w.liable_seat = Number($("#liable-seat").value);
  return w;
}

function renderOthers() {
  const box = $("#other-winners");
  box.hidden = !page.others.length;
  box.replaceChildren(el("p", { text: "Also winning on this discard:" }),
    el("ul", {}, page.others.map((w) => el("li", { text: `${seatName(w.winner)}: ${w.hand}${w.liable_seat !== undefined ? ", pao " + seatName(w.liable_seat) : ""}` }))),
    el("button", { type: "button", class: "secondary", onclick: () => { page.others = []; renderOthers(); previewPayments(); } }, "Forget them"));
}

async function readPhoto(file) {
  const status = $("#read-status");
  status.textContent = "Reading the photo…";
  const fd = new FormData();
  fd.append("image", file);
  try {
    const r = await api("POST", "/api/read", fd);
    page.hand = r.read.filter((t) => t.tile !== "back").map((t) => ({ tile: t.tile, frame: r.frame_id, index: t.index, conf: t.conf }));
    page.win = page.hand.length ? page.hand.length - 1 : null;
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
  if (!page.dora.length) page.dora = cameraDora(st.camera);
  renderHand();
}

function fillFromGame(game) {
  page.game = game;
  if (!game) return;
  $("#round-wind").value = game.round.wind;
  $("#honba-in").value = game.honba;
  $("#sticks-in").value = game.sticks;
  if (!page.dora.length) page.dora = game.dora_indicators.slice();
  const seatSel = (id) => { const s = $(id); s.replaceChildren(...game.seats.map((x) => el("option", { value: x.seat, text: `${x.name || "seat " + (x.seat + 1)} (${WIND_NAMES[x.wind]})` }))); };
  seatSel("#winner-seat"); seatSel("#discarder-seat");
  $("#seat-row").hidden = false;
  const mine = localStorage.getItem("jantaku-seat");
  if (mine !== null && mine !== "") { $("#winner-seat").value = mine; $("#seat-wind").value = game.seats[Number(mine)].wind; }
  $("#discarder-seat").value = String((Number($("#winner-seat").value) + 3) % 4);
  renderHand();
}

markCjkFont();
keyboard($("#keyboard"), (t) => {
  const target = $("#kb-target").value;
  if (target === "dora") { if (page.dora.length < 5) page.dora.push(t); }
  else if (target === "ura") { if (page.ura.length < 5) page.ura.push(t); }
  else if (page.hand.length < 18) { page.hand.push({ tile: t }); page.win = page.hand.length - 1; }
  renderHand();
});
$("#kb-back").addEventListener("click", () => {
  const target = $("#kb-target").value;
  if (target === "dora") page.dora.pop(); else if (target === "ura") page.ura.pop();
  else { page.hand.pop(); page.win = page.hand.length ? page.hand.length - 1 : null; }
  renderHand();
});
$("#clear-hand").addEventListener("click", () => { page.hand = []; page.win = null; $("#result").hidden = true; renderHand(); });
$("#photo").addEventListener("change", (e) => { if (e.target.files[0]) readPhoto(e.target.files[0]); e.target.value = ""; });
$("#from-camera").addEventListener("click", async () => {
  const st = await api("GET", "/api/state");
  const cam = st.camera;
  if (!cam || !cam.tiles.length) { toast("The camera sees no tiles now.", true); return; }
  if (!page.dora.length) page.dora = cameraDora(cam);
  const near = cam.table ? cam.table.seats.find((s) => s.side === "bottom") : null;
  if (cam.table) {  // a whole table: the near seat's hand and drawn tile (not its pond, not another row)
    const tiles = near ? parseTiles(near.hand + (near.drawn || "")) : [];
    if (!tiles.length) { toast("The camera sees no face-up hand at the near seat.", true); renderHand(); return; }
    page.hand = tiles.map((t) => ({ tile: t }));
    page.win = page.hand.length - 1;
    renderHand();
    return;
  }
  // the close-up hand: the longest row; with the frame's own reading each tile can be corrected
  const rows = [];
  if (cam.read && cam.read.length) for (const t of cam.read) (rows[t.row] = rows[t.row] || []).push({ tile: t.tile, frame: cam.frame_id, index: t.index });
  else for (const r of cam.tiles) rows.push(r.map((t) => ({ tile: t })));
  page.hand = rows.filter(Boolean).reduce((a, b) => (b.length > a.length ? b : a), []);
  page.win = page.hand.length ? page.hand.length - 1 : null;
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
  if (page.game) $("#seat-wind").value = page.game.seats[Number($("#winner-seat").value)].wind;
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
    page.others = []; renderOthers();
    toast("Win recorded: points moved.");
    $("#settle-note").textContent = "Recorded. Undo it on the Settle page if it was wrong.";
  } catch (e) { toast(e.message, true); }
});
$("#add-winner-btn").addEventListener("click", () => {
  const req = JSON.parse($("#result").dataset.request || "{}");
  const w = winnerOf(req);
  if (page.others.some((o) => o.winner === w.winner)) { toast(`${seatName(w.winner)} is already listed.`, true); return; }
  page.others.push(w);
  renderOthers();
  page.hand = []; page.win = null; $("#result").hidden = true; $("#settle-win").hidden = true; renderHand();
  toast("Winner kept: now enter the next winner's hand, pick them as the winner and score it.");
});
api("GET", "/api/state").then(fillFromState).catch(() => {});
live((st) => { page.game = st.game; });
renderHand();
