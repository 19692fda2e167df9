// The web table: one visitor (seat 0) against bots, through the service's HTTP API.
// Plain JavaScript, no build step, nothing fetched from elsewhere. Opening the page starts a
// game at once; ?players=3..5, ?seed=N and ?bots=greedy,search,random choose it, and the
// New game form offers the same. Every value shown comes from the service's answers and is
// written with textContent, never as HTML. The plain-words log, the Novel legend and the
// game-over outcome are the service's (pastiche_core.server.narrate); this page draws them.
// insight.js (loaded first) adds the outs in the legend, the reasons a Novel cannot be
// published and the game review.
"use strict";

const CARD = /^(MYT|LOV|SCI|HOR|MYS|FAN|MAG)(1[0-3]|[1-9])$/;
const REF = /^([0-4]):(.+)$/;
const BOT_KINDS = ["random", "greedy", "search"];
const PHASES = {
  keep: ["keep some of your cards; the others go face down on the discard pile", "R10"],
  action: [null, "R11"], // said from the legal moves: only what can be played now
  choose: ["keep one of the two cards you drew; the other goes face up on the discard pile", "R11"],
  flag: ["put a card of your hand under the End Flag", "R12"],
  over: ["the game is over", "R12, R13"],
};
const POLL_MS = 200;
const POLL_TRIES = 300; // a minute of bots thinking at most, then the page asks the visitor to reload

const table = { game: null, token: null, state: null, busy: false, novels: new Map(), outs: null, outsKey: null, open: null };
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

function plural(count, noun) {
  return count + " " + noun + (count === 1 ? "" : "s");
}

// What a Novel needs and scores, for a tooltip: "3 of a Kind (kind-3): 3 cards of one rank · 1 point".
function novelTitle(id) {
  const novel = table.novels.get(id);
  if (!novel) return id;
  return novel.name + " (" + id + "): " + novel.requirement + " · " + plural(novel.points, "point") + (novel.publishable ? " as a Masterpiece" : "");
}

// The rulebook's name of a Novel ("5-Card Straight"); the id is what notation writes.
function novelName(id) {
  const novel = table.novels.get(id);
  return novel ? novel.name : id;
}

// A Novel by its name, explained (with its id) on hover wherever it appears.
function novelTag(id) {
  const node = element("abbr", "novel-id", novelName(id));
  node.dataset.novel = id;
  node.title = novelTitle(id);
  return node;
}

// Seats are named as the log and the hints name them: "you", "player 2".
function seatName(seat) {
  return seat === table.state.seat ? "you" : "player " + seat;
}

function whose(owner, view) {
  return owner === view.player ? "your" : "player " + owner + "'s";
}

// A cited Masterpiece drawn as its card: "p1's kind-3 [MYT7]".
function masterpiece(owner, id, view) {
  const node = element("span", "cite");
  node.append(element("span", "word", whose(owner, view) + " "), novelTag(id));
  const found = (view.tables[owner] || []).find((novel) => novel.novel === id);
  if (found && found.cards.length === 1) node.append(card(found.cards[0], true));
  return node;
}

// A move's notation drawn: cards as cards, Novels with their requirement on hover, cited
// Masterpieces as their cards, gifts as "→p1 [card]".
function moveLabel(move, view) {
  const parts = [];
  let section = "";
  const words = move.split(/\s+/);
  words.forEach((word, index) => {
    if (word === "cite" || word === "gift") {
      section = word;
      parts.push(element("span", "word", word === "cite" ? "citing" : "giving"));
    } else if (CARD.test(word)) {
      parts.push(card(word, true));
    } else if (section === "cite" && REF.test(word)) {
      const [, owner, id] = REF.exec(word);
      parts.push(masterpiece(Number(owner), id, view));
    } else if (section === "gift" && REF.test(word)) {
      const [, seat, given] = REF.exec(word);
      parts.push(element("span", "word", "→" + seatName(Number(seat))));
      parts.push(card(given, true));
    } else if (index === 1 && words[0] === "publish" && table.novels.has(word)) {
      parts.push(novelTag(word));
    } else if (index === 1 && words[0] === "read" && REF.test(word)) {
      const [, owner, id] = REF.exec(word);
      parts.push(element("span", "word", whose(Number(owner), view)), novelTag(id));
    } else {
      parts.push(element("span", "word", word));
    }
  });
  return parts;
}

function clamp(text, low, high, fallback) {
  const value = /^\d+$/.test(text || "") ? Number(text) : fallback;
  return Math.min(high, Math.max(low, value));
}

// The game the address asks for: ?players=4&seed=7&bots=greedy,search,random.
function choiceFromQuery() {
  const named = (query.get("bots") || "").split(",").filter((name) => name !== "");
  const players = clamp(query.get("players"), 3, 5, named.length ? Math.min(5, Math.max(3, named.length + 1)) : 4);
  const bots = [];
  for (let seat = 1; seat < players; seat += 1) {
    const name = named[seat - 1];
    bots.push(BOT_KINDS.includes(name) ? name : "random");
  }
  const seed = query.get("seed");
  return { players, bots, seed: seed !== null && /^\d{1,18}$/.test(seed) ? seed : null };
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
    failure.path = error ? error.path : null;
    failure.detail = error ? error.message : null;
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
  $("setup-start").disabled = busy;
}

// A refused move is told beside the controls, to "you", with its ruling in a tooltip; any
// other failure at the top of the page.
function showError(error) {
  const move = $("move-error");
  move.textContent = "";
  move.title = "";
  $("error").textContent = "";
  if (!error) return;
  if (error.path === "$.move" && error.detail) {
    const words = refusal(error.detail, table.state ? table.state.seat : 0);
    move.textContent = words.text;
    move.title = words.rules ? "the rule: " + words.rules : "";
    move.scrollIntoView({ block: "nearest" });
  } else {
    $("error").textContent = String(error.message || error);
  }
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

async function newGame(choice) {
  const body = { players: choice.players, seats: ["human"].concat(choice.bots) };
  if (choice.seed !== null) body.seed = Number(choice.seed);
  table.token = null;
  const created = await api("POST", "v1/games", body);
  table.game = created.game;
  table.token = created.tokens["0"];
  table.state = null;
  table.outs = null;
  table.outsKey = null;
  table.open = null;
  await refresh();
}

// The state, asked again while a bot is still thinking (each answer drawn, so the log grows).
async function refresh() {
  let state = await api("GET", "v1/games/" + encodeURIComponent(table.game));
  for (let tries = 0; state.waiting && tries < POLL_TRIES; tries += 1) {
    render(state);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    state = await api("GET", "v1/games/" + encodeURIComponent(table.game));
  }
  render(state);
  if (state.waiting) throw new Error("the bots are still thinking: reload the page to see their moves");
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
      ? "best first" + (answer.complete ? "" : " (the time ran out)")
      : "nothing to suggest";
    for (const ranked of answer.moves) {
      const item = element("li");
      const button = element("button");
      button.type = "button";
      button.dataset.move = ranked.move;
      button.append(...moveLabel(ranked.move, table.state.view));
      button.addEventListener("click", () => run(() => play(ranked.move)));
      const margin = (ranked.margin >= 0 ? "+" : "−") + Math.abs(ranked.margin).toFixed(1);
      const stats = element(
        "span",
        "stats",
        "wins " + Math.round(ranked.win_probability * 100) + "% · " + margin + " points against the best opponent",
      );
      stats.title =
        "win " + Math.round(ranked.win_probability * 100) + "%, margin " + margin + ", " + plural(ranked.visits, "visit") +
        ": in " + plural(ranked.visits, "simulated game") + " that tried this move, how often you won and " +
        "your expected final score minus the best opponent's (see Help)";
      item.append(button, stats, element("span", "why", ranked.explanation));
      $("hints").append(item);
    }
  } catch (error) {
    $("hint-status").textContent = error.status === 503 ? "hints are not available here" : "";
    throw error;
  }
}

function fact(label, title, ...content) {
  const node = element("div", "fact");
  const name = element("b", null, label);
  if (title) node.title = title;
  node.append(name, ...content);
  return node;
}

function renderSummary(view, state) {
  const summary = $("summary");
  summary.replaceChildren();
  const top = view.discard.length ? card(view.discard[view.discard.length - 1]) : element("span", "muted", "empty");
  summary.append(
    fact("turn", null, String(view.turn)),
    fact("deck", null, plural(view.deck_size, "card")),
    fact("discard pile (" + view.discard.length + ")", "its top card; face-down cards were laid at the deal (R10)", top),
  );
  if (view.trigger !== null) {
    const left = view.turns_left === null || state.over ? "" : ": " + plural(view.turns_left, "turn") + " left";
    summary.append(
      fact("end game", "a player's Masterpieces reached 15 points: 2n − 1 more turns (R12)", seatName(view.trigger) + " reached 15" + left),
    );
  }
  const supply = element("div", "supply");
  for (const [id, copies] of Object.entries(view.supply)) {
    const entry = element("span", "chip" + (copies ? "" : " gone"));
    entry.append(novelTag(id), element("span", "count", "×" + copies));
    supply.append(entry);
  }
  summary.append(fact("Novels left", "copies left of each Novel: first come, first served (R6)", supply));
}

function renderPlayers(view, state) {
  const players = $("players");
  players.replaceChildren();
  for (let seat = 0; seat < view.players; seat += 1) {
    const box = element("div", "player");
    box.dataset.player = String(seat);
    if (seat === view.player) box.classList.add("me");
    if (!state.over && seat === view.to_move) box.classList.add("to-move");
    const kind = state.seats[seat];
    const name = seat === view.player ? "You (player " + seat + ")" : "Player " + seat + (kind === "human" ? "" : " · " + kind + " bot");
    const head = element("header");
    head.append(
      element("h3", null, name),
      element("span", "score", plural(view.scores[seat], "point")),
      element("span", "muted", plural(view.hand_sizes[seat], "card") + " in hand"),
    );
    if (view.flag && view.flag.player === seat) {
      // The view's End Flag is {"player": seat, "card": "MYS11"}: the card lies face up (R12).
      const flag = element("span", "flag", "End Flag");
      const spec = table.novels.get("end-flag");
      flag.title = "+" + plural(spec ? spec.points : 1, "point") + "; the card under it: " + view.flag.card;
      flag.append(" ", card(view.flag.card, true));
      head.append(flag);
    }
    if (!state.over && seat === view.to_move && seat !== view.player) head.append(element("span", "muted thinking", "thinking…"));
    box.append(head);
    const novels = element("div", "novels");
    for (const novel of view.tables[seat]) {
      const entry = element("div", "novel " + novel.status);
      entry.dataset.novel = novel.novel;
      const label = element("span", "name");
      label.append(novelTag(novel.novel));
      const spec = table.novels.get(novel.novel);
      if (novel.status === "masterpiece") {
        label.append(element("span", null, " ★ Masterpiece" + (spec ? ", " + plural(spec.points, "point") : "")));
      } else {
        const status = element("span", null, " · Published");
        status.title = "scores nothing until it is read down to one card, a Masterpiece (R11)";
        label.append(status);
      }
      entry.append(label);
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

// The service's log, newest line first; cards and Novels drawn as on the table.
function renderLog(state) {
  const log = $("log");
  log.replaceChildren();
  const lines = state.log || [];
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index];
    const item = element("li", line.about_you ? "you" : "");
    item.dataset.kind = line.kind;
    item.append(element("span", "turn", line.turn ? "turn " + line.turn : line.kind === "keep" ? "deal" : ""));
    item.append(logText(line));
    log.append(item);
  }
  if (!lines.length) log.append(element("li", "muted", "nothing yet"));
}

// A log line's parts drawn: text, cards as cards, Novels by name.
function logText(line) {
  const text = element("span", "text");
  for (const part of line.parts) {
    if (typeof part === "string") text.append(document.createTextNode(part));
    else if (part.card !== undefined) text.append(card(part.card, true));
    else if (part.novel !== undefined) text.append(novelTag(part.novel));
  }
  return text;
}

// The legend: each Novel by name (its id below), what it needs, its points, the copies left
// and how far you are from it; a tap on a row opens your outs and odds (insight.js).
function renderLegend(state) {
  const body = $("legend").tBodies[0];
  body.replaceChildren();
  for (const novel of state.novels || []) {
    const row = element("tr", novel.left ? "" : "gone");
    row.dataset.novel = novel.id;
    const name = element("td");
    name.append(novelTag(novel.id), element("span", "novel-code", novel.id));
    const distance = element("td", "distance");
    row.append(name, element("td", null, novel.requirement), element("td", "number", String(novel.points)), element("td", "number", novel.left + "/" + novel.copies), distance);
    body.append(row);
    if (novel.publishable) legendDistance(row, distance, novel, state);
  }
}

function groupOf(move) {
  const word = move.split(" ", 1)[0];
  return { draw: "write", take: "write", read: "read", publish: "publish", pass: "pass" }[word] || word;
}

const GROUP_ORDER = ["publish", "write", "read", "pass"];
const GROUP_TITLES = {
  publish: "publish a Novel",
  write: "write: draw two and keep one, or take the top discard",
  read: "read: take a card from a Published novel",
  pass: "pass",
  keep: "keep cards: the others go face down",
  choose: "keep one of the two",
  flag: "put a card under the End Flag",
};

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
      moves.append(element("div", "group", GROUP_TITLES[name] || name));
    }
    const button = element("button");
    button.type = "button";
    button.dataset.move = move;
    button.append(...moveLabel(move, state.view));
    button.addEventListener("click", () => run(() => play(move)));
    moves.append(button);
  }
  renderWhyNot(state);
  const note = $("moves-note");
  note.textContent = "";
  note.title = "";
  if (state.publish_options && !state.legal_complete) {
    note.textContent = "More ways to publish exist than are listed; type any of them below.";
  } else if (state.legal_count > state.legal.length) {
    note.textContent = "Each publish is shown with one choice of gift cards; type another below.";
  }
  if (state.publish_options) {
    note.title =
      plural(state.publish_options, "different way") + " to publish (R8: equal ranks count once); " +
      plural(state.legal_count, "legal move") + " counting every choice of cards and gifts";
  }
}

// The game-over panel: who won, by which rule, every seat's score and the End Flag's fate.
function renderResult(state) {
  const result = $("result");
  result.replaceChildren();
  const outcome = state.outcome;
  result.hidden = !(state.over && outcome);
  if (result.hidden) return;
  result.dataset.tieBreak = outcome.tie_break;
  result.dataset.flag = outcome.flag;
  result.dataset.flagPlayer = outcome.flag_player === null ? "" : String(outcome.flag_player);
  result.append(element("h2", null, "Game over"), element("p", "winner", outcome.lines[0]));
  const scores = element("table", "scores");
  const head = element("tr");
  head.append(element("th", null, "player"), element("th", null, "points"), element("th", null, "Masterpieces"));
  scores.append(head);
  const order = outcome.scores.map((score, seat) => seat);
  order.sort((a, b) => outcome.scores[b] - outcome.scores[a] || outcome.masterpieces[a] - outcome.masterpieces[b] || a - b);
  for (const seat of order) {
    const row = element("tr", outcome.winners.includes(seat) ? "won" : "");
    row.dataset.seat = String(seat);
    const named = outcome.names[seat];
    const name = element("td", null, (outcome.winners.includes(seat) ? "★ " : "") + named.charAt(0).toUpperCase() + named.slice(1));
    const points = element("td", "number", String(outcome.scores[seat]));
    if (outcome.flag === "taken" && outcome.flag_player === seat) points.title = "including the End Flag's point";
    row.append(name, points, element("td", "number", String(outcome.masterpieces[seat])));
    scores.append(row);
  }
  result.append(scores);
  for (const line of outcome.lines.slice(1)) result.append(element("p", null, line));
  result.append(reviewBox());
  const tie = { points: "", "fewer-masterpieces": "A tie on points goes to fewer Masterpieces (R13).", shared: "A tie on points and Masterpieces is a shared win (R13)." }[outcome.tie_break];
  if (tie) result.append(element("p", "muted", tie));
  const again = element("button", null, "Play again");
  again.type = "button";
  again.id = "play-again";
  again.addEventListener("click", () => run(() => newGame({ ...readSetup(), seed: null })));
  result.append(again);
  const details = element("details");
  details.append(element("summary", null, "the game record"));
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
  table.novels = new Map((state.novels || []).map((novel) => [novel.id, novel]));
  const view = state.view;
  renderSummary(view, state);
  renderPlayers(view, state);
  renderLog(state);
  renderLegend(state);
  $("hand").replaceChildren(...view.hand.map((notation) => card(notation)));
  $("hand-size").textContent = plural(view.hand.length, "card");
  const pending = $("pending");
  pending.replaceChildren();
  if (view.pending) {
    pending.append(element("h2", null, "You drew"), ...view.pending.map((notation) => card(notation)));
  }
  renderMoves(state);
  renderResult(state);
  const status = $("status");
  if (state.over) {
    status.textContent = "Game over: " + (state.outcome ? state.outcome.lines[0] : "");
    status.title = "";
  } else if (view.to_move === view.player) {
    const [text, rule] = PHASES[view.phase];
    status.textContent = "Your turn: " + (text || turnChoices(state.legal));
    status.title = "the rule: " + rule;
  } else {
    status.textContent = "Player " + view.to_move + " is thinking…";
    status.title = "";
  }
  $("turn-box").hidden = state.over || view.to_move !== view.player;
  $("hint-box").hidden = state.over || view.to_move !== view.player;
  document.body.dataset.phase = view.phase;
  setBusy(table.busy);
  askOuts(state);
}

// What the visitor may do now, from the legal moves alone: "draw two cards and keep one, or
// take the top discard" when nothing else is legal.
function turnChoices(legal) {
  const words = {
    draw: "draw two cards and keep one",
    take: "take the top discard",
    publish: "publish a Novel",
    read: "read a Published novel",
    pass: "pass",
  };
  const found = [];
  for (const keyword of Object.keys(words)) {
    if (legal.some((move) => move.split(" ", 1)[0] === keyword)) found.push(words[keyword]);
  }
  if (!found.length) return "choose a move";
  return found.length === 1 ? found[0] : found.slice(0, -1).join(", ") + " or " + found[found.length - 1];
}

// The new-game form: players 3 to 5, and random, greedy or search for each opponent.
function setupBots(players, chosen) {
  const box = $("setup-bots");
  const current = Array.from(box.querySelectorAll("select")).map((select) => select.value);
  box.replaceChildren();
  for (let seat = 1; seat < players; seat += 1) {
    const label = element("label", null, "player " + seat + " ");
    const select = element("select");
    select.name = "bot" + seat;
    select.dataset.seat = String(seat);
    for (const kind of BOT_KINDS) {
      const option = element("option", null, kind);
      option.value = kind;
      select.append(option);
    }
    select.value = (chosen && chosen[seat - 1]) || current[seat - 1] || "random";
    label.append(select);
    box.append(label);
  }
}

function readSetup() {
  const players = Number($("setup-players").value);
  const bots = Array.from($("setup-bots").querySelectorAll("select")).map((select) => select.value);
  const seed = $("setup-seed").value.trim();
  return { players, bots, seed: /^\d{1,18}$/.test(seed) ? seed : null };
}

function toggle(id, button) {
  const panel = $(id);
  panel.hidden = !panel.hidden;
  $(button).setAttribute("aria-expanded", String(!panel.hidden));
}

const start = choiceFromQuery();
$("setup-players").value = String(start.players);
if (start.seed !== null) $("setup-seed").value = start.seed;
setupBots(start.players, start.bots);
$("setup-players").addEventListener("change", () => setupBots(Number($("setup-players").value)));
$("new-game").addEventListener("click", () => toggle("setup", "new-game"));
$("help-button").addEventListener("click", () => toggle("help", "help-button"));
$("setup").addEventListener("submit", (event) => {
  event.preventDefault();
  const choice = readSetup();
  // The address says the game chosen, so a reload or a shared link deals the same table.
  const address = new URLSearchParams({ players: String(choice.players), bots: choice.bots.join(",") });
  if (choice.seed !== null) address.set("seed", choice.seed);
  window.history.replaceState(null, "", "?" + address.toString());
  $("setup").hidden = true;
  $("new-game").setAttribute("aria-expanded", "false");
  run(() => newGame(choice));
});
$("hint").addEventListener("click", () => run(hint));
$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("move-text").value.trim();
  if (text) run(() => play(text)).then(() => { $("move-text").value = ""; });
});
run(() => newGame(start));
