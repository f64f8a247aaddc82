/* The Settle page: the standings, what ends a hand (a draw, an abortive draw, chombo), riichi, undo, the history,
   the final results, a new game and the game file. */
import { $, SEAT_WINDS, WIND_NAMES, api, el, live, markCjkFont, renderFinal, toast } from "./shared.js";

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
    onclick: () => act("/api/game/riichi", { seat: s.seat }, "Riichi recorded."),
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
        onclick: () => act("/api/game/event", { type: "dealer_stops", dealer: game.dealer }, "The dealer ended the game.") }, "End the game here"));
  } else if (choice) choice.hidden = true;
  $("#corr-count").textContent = st.corrections ? `(${st.corrections.corrections} so far)` : "";
}

/** A write of the game (``url``, ``body``): ``done`` said and the answer's state shown, or the refusal said. */
const act = (url, body, done) => api("POST", url, body).then((r) => { toast(done); renderSettle(r.state); }).catch((e) => toast(e.message, true));

markCjkFont();
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
live(renderSettle);
