// The web table: one visitor (seat 0) against bots, through the service's HTTP API.
// Plain JavaScript, no build step. Opening the page starts a game at once;
// ?players=3..5 and ?seed=N choose it. Every value shown comes from the
// service's answers and is written with textContent, never as HTML.
"use strict";

const CARD = /^(MYT|LOV|SCI|HOR|MYS|FAN|MAG)(1[0-3]|[1-9])$/;
const GIFT = /^([0-4]):(.+)$/;
const PHASES = {
  keep: "keep three cards (R10)",
  action: "write, publish, read or pass (R11)",
  choose: "choose one of the two drawn cards (R11)",
  flag: "put a card under the End Flag (R12)",
  over: "the game is over",
};

const table = { game: null, token: null, state: null, busy: false };
const query = new URLSearchParams(window.location.search);

function $(id) {
  return document.getElementById(id);
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function card(notation, small) {
  const match = CARD.exec(notation || "");
  const node = element("span", "card" + (small ? " small" : ""));
  if (notation === null) {
    node.classList.add("down");
    node.textContent = "?";
    node.title = "face down";
    return node;
  }
  if (match) node.classList.add(match[1]);
  node.dataset.card = notation;
  node.textContent = notation;
  return node;
}

// A move's notation with its cards drawn as cards: "publish kind-3 MYS7 FAN7 cite 0:kind-3".
function moveLabel(move) {
  const parts = [];
  let section = "";
  for (const word of move.split(/\s+/)) {
    if (word === "cite" || word === "gift") {
      section = word;
      parts.push(element("span", "word", word));
    } else if (CARD.test(word)) {
      parts.push(card(word, true));
    } else if (section === "gift" && GIFT.test(word)) {
      const [, seat, given] = GIFT.exec(word);
      parts.push(element("span", "word", "→p" + seat));
      parts.push(card(given, true));
    } else {
      parts.push(element("span", "word", word));
    }
  }
  return parts;
}

function clamp(text, low, high, fallback) {
  const value = /^\d+$/.test(text || "") ? Number(text) : fallback;
  return Math.min(high, Math.max(low, value));
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (table.token) options.headers.Authorization = "Bearer " + table.token;
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data = null;
  try {
    data = await response.json();
  } catch (ignored) {
    data = null;
  }
  if (!response.ok) {
    const error = data && data.error;
    const where = error && error.path ? error.path + ": " : "";
    const failure = new Error(error ? where + error.message : "HTTP " + response.status);
    failure.status = response.status;
    throw failure;
  }
  return data;
}

function setBusy(busy) {
  table.busy = busy;
  document.body.dataset.state = busy ? "busy" : table.state && table.state.over ? "over" : "ready";
  for (const button of document.querySelectorAll("#moves button, #hints button, #move-form button, #hint")) {
    button.disabled = busy || (table.state !== null && table.state.over);
  }
}

function showError(error) {
  $("error").textContent = error ? String(error.message || error) : "";
}

async function run(task) {
  if (table.busy) return;
  setBusy(true);
  showError(null);
  try {
    await task();
  } catch (error) {
    showError(error);
  } finally {
    setBusy(false);
  }
}

async function newGame() {
  const players = clamp(query.get("players"), 3, 5, 4);
  const body = { players, seats: ["human"].concat(Array(players - 1).fill("random")) };
  const seed = query.get("seed");
  if (seed !== null && /^\d{1,18}$/.test(seed)) body.seed = Number(seed);
  table.token = null;
  const created = await api("POST", "v1/games", body);
  table.game = created.game;
  table.token = created.tokens["0"];
  await refresh();
}

async function refresh() {
  let state = await api("GET", "v1/games/" + encodeURIComponent(table.game));
  for (let tries = 0; state.waiting && tries < 50; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    state = await api("GET", "v1/games/" + encodeURIComponent(table.game));
  }
  render(state);
}

async function play(move) {
  const state = await api("POST", "v1/games/" + encodeURIComponent(table.game) + "/moves", { move });
  $("hints").replaceChildren();
  $("hint-status").textContent = "";
  render(state);
  if (state.waiting) await refresh();
}

async function hint() {
  $("hint-status").textContent = "thinking…";
  $("hints").replaceChildren();
  try {
    const answer = await api("POST", "v1/hint", { view: table.state.view, budget_ms: 300, seed: 1 });
    $("hint-status").textContent = answer.moves.length
      ? "best first" + (answer.complete ? "" : " (the budget ran out)")
      : "nothing to suggest";
    for (const ranked of answer.moves) {
      const item = element("li");
      const button = element("button");
      button.type = "button";
      button.dataset.move = ranked.move;
      button.append(...moveLabel(ranked.move));
      button.addEventListener("click", () => run(() => play(ranked.move)));
      const margin = (ranked.margin >= 0 ? "+" : "") + ranked.margin.toFixed(1);
      item.append(
        button,
        element(
          "span",
          "stats",
          "win " + Math.round(ranked.win_probability * 100) + "% · margin " + margin + " · " + ranked.visits + " visits",
        ),
        element("span", "why", ranked.explanation),
      );
      $("hints").append(item);
    }
  } catch (error) {
    $("hint-status").textContent = error.status === 503 ? "hints are not available here" : "";
    throw error;
  }
}

function fact(label, ...content) {
  const node = element("div", "fact");
  node.append(element("b", null, label), ...content);
  return node;
}

function renderSummary(view, state) {
  const summary = $("summary");
  summary.replaceChildren();
  const top = view.discard.length ? card(view.discard[view.discard.length - 1]) : element("span", "muted", "empty");
  summary.append(
    fact("turn", String(view.turn)),
    fact("deck", view.deck_size + " cards"),
    fact("discard top (" + view.discard.length + ")", top),
  );
  if (view.trigger !== null) {
    const left = view.turns_left === null ? "" : view.turns_left + " turns left";
    summary.append(fact("countdown (R12)", "triggered by p" + view.trigger + (left ? ": " + left : "")));
  }
  const supply = element("div", "supply");
  for (const [novel, copies] of Object.entries(view.supply)) {
    supply.append(element("span", copies ? "" : "gone", novel + " ×" + copies));
  }
  summary.append(fact("supply (R6)", supply));
  if (state.over) summary.dataset.over = "true";
}

function renderPlayers(view, state) {
  const players = $("players");
  players.replaceChildren();
  for (let seat = 0; seat < view.players; seat += 1) {
    const box = element("div", "player");
    box.dataset.player = String(seat);
    if (seat === view.player) box.classList.add("me");
    if (!state.over && seat === view.to_move) box.classList.add("to-move");
    const name = seat === view.player ? "You (p" + seat + ")" : "p" + seat + " · " + state.seats[seat] + " bot";
    const head = element("header");
    head.append(
      element("h3", null, name),
      element("span", "score", view.scores[seat] + " points"),
      element("span", "muted", view.hand_sizes[seat] + " cards in hand"),
    );
    if (view.flag && view.flag.player === seat) head.append(element("span", "muted", "holds the End Flag"));
    box.append(head);
    const novels = element("div", "novels");
    for (const novel of view.tables[seat]) {
      const entry = element("div", "novel " + novel.status);
      entry.dataset.novel = novel.novel;
      entry.append(element("span", "name", novel.novel + (novel.status === "masterpiece" ? " ★ masterpiece" : " · published")));
      const cards = element("span", "cards");
      cards.append(...novel.cards.map((notation) => card(notation, true)));
      entry.append(cards);
      novels.append(entry);
    }
    if (!view.tables[seat].length) novels.append(element("span", "muted", "no novel yet"));
    box.append(novels);
    players.append(box);
  }
}

function groupOf(move) {
  const word = move.split(" ", 1)[0];
  return { draw: "write", take: "write", read: "read", publish: "publish", pass: "pass" }[word] || word;
}

const GROUP_ORDER = ["publish", "write", "read", "pass"];

function renderMoves(state) {
  const moves = $("moves");
  moves.replaceChildren();
  let group = null;
  const rank = (move) => {
    const found = GROUP_ORDER.indexOf(groupOf(move));
    return found < 0 ? GROUP_ORDER.length : found;
  };
  // Publishes first: they are what a player looks for; the service lists them last.
  const ordered = state.legal.map((move, index) => [rank(move), index, move]);
  ordered.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (const [, , move] of ordered) {
    const name = groupOf(move);
    if (name !== group) {
      group = name;
      moves.append(element("div", "group", name));
    }
    const button = element("button");
    button.type = "button";
    button.dataset.move = move;
    button.append(...moveLabel(move));
    button.addEventListener("click", () => run(() => play(move)));
    moves.append(button);
  }
  const note = [];
  if (state.publish_options) {
    note.push(state.publish_options + " distinct publish options (R8)" + (state.legal_complete ? "" : ", the first listed"));
  }
  if (state.legal_count > state.legal.length) {
    note.push(state.legal_count + " legal moves counting each choice of cards and gifts; type any of them below");
  }
  $("moves-note").textContent = note.join("; ");
}

function renderResult(state) {
  const result = $("result");
  result.replaceChildren();
  if (!state.over || !state.result) return;
  const winners = state.result.winners.map((seat) => (seat === state.seat ? "you" : "p" + seat));
  result.append(
    element("p", "winner", "Game over (" + state.result.reason + "): " + winners.join(" and ") + (winners.length > 1 ? " share the win" : " won")),
    element("p", null, "Scores: " + state.result.scores.join(" · ")),
  );
  const details = element("details");
  details.append(element("summary", null, "the game record (R14)"));
  const pre = element("pre", null, "loading…");
  details.append(pre);
  details.addEventListener("toggle", () => {
    if (details.open && pre.textContent === "loading…") {
      api("GET", "v1/games/" + encodeURIComponent(table.game) + "/record")
        .then((record) => {
          pre.textContent = JSON.stringify(record, null, 1);
        })
        .catch(showError);
    }
  });
  result.append(details);
}

function render(state) {
  table.state = state;
  const view = state.view;
  renderSummary(view, state);
  renderPlayers(view, state);
  $("hand").replaceChildren(...view.hand.map((notation) => card(notation)));
  $("hand-size").textContent = view.hand.length + " cards";
  const pending = $("pending");
  pending.replaceChildren();
  if (view.pending) {
    pending.append(element("h2", null, "Drawn"), ...view.pending.map((notation) => card(notation)));
  }
  renderMoves(state);
  renderResult(state);
  let status;
  if (state.over) status = "Game over";
  else if (view.to_move === view.player) status = "Your turn: " + PHASES[view.phase];
  else status = "Waiting for p" + view.to_move;
  $("status").textContent = status;
  $("hint-box").hidden = state.over || view.to_move !== view.player;
  document.body.dataset.phase = view.phase;
  setBusy(table.busy);
}

$("new-game").addEventListener("click", () => run(newGame));
$("hint").addEventListener("click", () => run(hint));
$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("move-text").value.trim();
  if (text) run(() => play(text)).then(() => { $("move-text").value = ""; });
});
run(newGame);
