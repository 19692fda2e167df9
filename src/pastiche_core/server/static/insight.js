// The web table's insight: how far the visitor is from each Novel and with which cards (the
// outs and odds of GET /v1/games/{id}/outs), why a Novel is not offered as a publish, a
// refused move in the visitor's words, and the review of a finished game (GET
// /v1/games/{id}/review). Loaded before table.js, whose helpers (element, card, api, run,
// moveLabel, novelTag, whose, masterpiece, seatName, plural, logText) these functions call
// once the page is running.
"use strict";

const REVIEW_SHOWN = 5; // the largest drops listed; the review document holds every decision
const CONTEXT_LINES = 3; // log lines shown before a reviewed decision

function percent(value) {
  if (value > 0 && value < 0.005) return "<1%";
  if (value < 1 && value > 0.995) return ">99%";
  return Math.round(value * 100) + "%";
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// A service message in the player's words: "player 0's hand" becomes "your hand", Novel ids
// their names, and the rulings move to a tooltip ("(R4)" out of the text).
function playerWords(text, seat) {
  const rules = [];
  const verbs = { has: "have", is: "are", does: "do", holds: "hold", was: "were" };
  const who = "(the player|player " + seat + ")";
  let words = text.replace(/\s*\((R\d+(?:\s*[,–-]\s*R?\d+)*)\)/g, (found, rule) => {
    rules.push(rule);
    return "";
  });
  words = words
    .replace(new RegExp("\\b" + who + "'s\\b", "g"), "your")
    .replace(new RegExp("\\b" + who + " (has|is|does|holds|was)\\b", "g"), (found, name, verb) => "you " + verbs[verb])
    .replace(new RegExp("\\b" + who + "\\b", "g"), "you");
  for (const [id, novel] of table.novels) {
    words = words.replace(new RegExp("(^|[^\\w-])" + escapeRegExp(id) + "(?![\\w-])", "g"), (found, before) => before + novel.name);
  }
  words = words.trim();
  return { text: words.charAt(0).toUpperCase() + words.slice(1), rules: rules.join(", ") };
}

// A reviewed move in words, as the log tells moves: "took the top discard (SCI5)", "read
// your Three Pairs (FAN6)". `past` for the move played ("You took…"), else the plain form for
// the better move ("Better: take…"); `decision` gives the top discard the seat saw.
const MOVE_VERBS = {
  draw: ["drew two cards and kept one", "draw two cards and keep one"],
  take: ["took the top discard", "take the top discard"],
  choose: ["kept", "keep"],
  keep: ["kept", "keep"],
  publish: ["published", "publish"],
  read: ["read", "read"],
  pass: ["passed", "pass"],
  flag: ["put", "put"],
};

function moveWords(move, decision, view, past) {
  const words = move.split(/\s+/);
  const verbs = MOVE_VERBS[words[0]];
  const parts = [verbs ? verbs[past ? 0 : 1] : move];
  const cards = (list) => list.flatMap((notation, index) => (index ? [" ", card(notation, true)] : [card(notation, true)]));
  const inBrackets = (notation) => {
    const bracket = element("span", "bracketed", "("); // kept on one line with its card
    bracket.append(card(notation, true), ")");
    return [" ", bracket];
  };
  if (words[0] === "take") {
    // The top discard as the seat saw it: face down when it was another seat's (R10, R16).
    parts.push(...(decision.top_discard ? inBrackets(decision.top_discard) : [", face down"]));
  } else if (words[0] === "choose") {
    parts.push(" ", card(words[1], true), " of the two drawn");
  } else if (words[0] === "keep") {
    const cut = words.indexOf("discard");
    parts.push(" ", ...cards(words.slice(1, cut < 0 ? undefined : cut)));
  } else if (words[0] === "flag") {
    parts.push(" ", card(words[1], true), " under the End Flag");
  } else if (words[0] === "read" && REF.test(words[1])) {
    const [, owner, id] = REF.exec(words[1]);
    parts.push(" " + whose(Number(owner), view) + " ", novelTag(id), ...inBrackets(words[2]));
  } else if (words[0] === "publish") {
    parts.push(...publishWords(words, view));
  }
  const node = element("span", "move-words");
  node.dataset.move = move;
  node.title = move;
  node.append(...parts);
  return node;
}

// "Three Pairs with FAN6 FAN6 SCI5, citing player 2's 3 of a Kind (MYT7), giving player 2 HOR4".
function publishWords(words, view) {
  const parts = [" ", novelTag(words[1]), " with"];
  let section = "played";
  let played = 0;
  let first = true;
  for (const word of words.slice(2)) {
    if (word === "cite" || word === "gift") {
      section = word;
      first = true;
      parts.push(word === "cite" ? ", citing" : ", giving");
      continue;
    }
    if (!first && section !== "played") parts.push(",");
    first = false;
    if (section === "played") {
      played += 1;
      parts.push(" ", card(word, true));
    } else if (REF.test(word)) {
      const [, seat, what] = REF.exec(word);
      if (section === "cite") parts.push(" ", masterpiece(Number(seat), what, view));
      else parts.push(" " + seatName(Number(seat)) + " ", card(what, true));
    }
  }
  if (played === 1) parts.push(": a Masterpiece at once"); // R7
  return parts;
}

// A move drawn inline (a summary, a sentence): its cards and Novels spaced as on a button.
function moveInline(move, view) {
  const node = element("span", "move-inline");
  node.append(...moveLabel(move, view));
  return node;
}

// "The hand…" reads "the hand…" inside a sentence; "MYT3 not…" stays as it is.
function lowerFirst(text) {
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

// A refused move: "You cannot play “publish kind-5 MYT3”: MYT3 not in your hand." (R4 on hover).
function refusal(message, seat) {
  const match = /^(illegal|invalid) move '([^']*)': ([\s\S]*)$/.exec(message);
  const words = playerWords(match ? match[3] : message, seat);
  let text = words.text;
  if (match) {
    const lead = match[1] === "illegal" ? "You cannot play “" : "“";
    const tail = match[1] === "illegal" ? "”: " : "” is not a move: ";
    text = lead + match[2] + tail + lowerFirst(text);
  }
  return { text: /[.!?]$/.test(text) ? text : text + ".", rules: words.rules };
}

// The outs document's entry of a Novel: {reach} (need, outs, odds) or {gone} (a reason).
function outsOf(id) {
  const doc = table.outs;
  if (!doc) return null;
  const reach = doc.novels.find((entry) => entry.novel === id);
  if (reach) return { reach };
  const gone = doc.unreachable.find((entry) => entry.novel === id);
  return gone ? { gone } : null;
}

// What the view alone says about a Novel out of reach (R6), while no outs are at hand.
function viewReason(id, state) {
  const view = state.view;
  if ((view.tables[view.player] || []).some((novel) => novel.novel === id)) return "you hold it already: one copy per player (R6)";
  const novel = table.novels.get(id);
  if (novel && novel.left === 0) return "no copy is left in the supply (R6)";
  return null;
}

function shortReason(reason) {
  if (/\bhold/.test(reason)) return "yours";
  if (/no copy/.test(reason)) return "none left";
  return "out of reach";
}

// The legend's last cell: how many cards you still need ("ready", "2 to go") or why not.
function legendDistance(row, cell, novel, state) {
  const found = outsOf(novel.id);
  const reason = found && found.gone ? found.gone.reason : viewReason(novel.id, state);
  if (found && found.reach) {
    const need = found.reach.need;
    cell.textContent = need === 0 ? "ready" : need + " to go";
    cell.classList.add(need === 0 ? "ready" : "near");
    row.title = outsSummary(found.reach);
  } else if (reason) {
    const words = playerWords(reason, state.seat);
    cell.textContent = shortReason(reason);
    cell.classList.add("away");
    row.title = words.text + (words.rules ? " (" + words.rules + ")" : "");
  }
  row.classList.add("tappable");
  row.addEventListener("click", () => {
    table.open = table.open === novel.id ? null : novel.id;
    renderLegend(table.state);
  });
  if (table.open === novel.id) {
    const detail = element("tr", "outs-detail");
    detail.dataset.novel = novel.id;
    const box = element("td");
    box.colSpan = 5;
    box.append(...outsDetail(novel, found, reason, state));
    detail.append(box);
    row.after(detail);
  }
}

function outsSummary(reach) {
  if (reach.need === 0) return "you can publish it now";
  const cards = reach.outs.flatMap((out) => out.cards);
  const odds = reach.odds.within[reach.odds.within.length - 1];
  return (
    plural(reach.need, "more card") + " needed; your outs: " + (cards.join(" ") || "none seen") +
    (odds ? " · within " + plural(odds.writes, "write") + ": " + percent(odds.publishable) : "")
  );
}

// The outs and odds of one Novel, opened by a tap on its legend row.
function outsDetail(novel, found, reason, state) {
  if (found && found.reach) {
    const reach = found.reach;
    if (reach.need === 0) return [element("p", null, "You can publish it now: see Your move.")];
    const parts = [element("p", null, "You need " + plural(reach.need, "more card") + ".")];
    const outs = element("p", "outs");
    outs.append(element("b", null, "Your outs: "));
    for (const out of reach.outs) {
      const group = element("span", "out");
      group.title = "rank " + out.rank + ": " + out.unseen + " unseen (in the deck or another hand)";
      group.append(...out.cards.map((notation) => card(notation, true)));
      outs.append(group, " ");
    }
    if (!reach.outs.length) outs.append("no single card brings you closer");
    parts.push(outs);
    const odds = reach.odds;
    const within = element("p", "odds");
    within.append(element("b", null, "Odds: "), "next write brings you closer " + percent(odds.next_write.closer));
    for (const step of odds.within) {
      const chance = element("span", "chance", "· within " + plural(step.writes, "write") + ": " + percent(step.publishable));
      if (!odds.exact) chance.title = "95% interval " + percent(step.low) + "–" + percent(step.high) + " from " + plural(odds.samples, "sampled deal");
      within.append(" ", chance); // the space outside the span: a line may break there
    }
    parts.push(within);
    if (!table.outs.complete) parts.push(element("p", "muted", "Counted in part: the time ran out."));
    return parts;
  }
  if (reason) {
    const words = playerWords(reason, state.seat);
    const text = element("p", "reason", words.text + ".");
    if (words.rules) text.title = "the rule: " + words.rules;
    return [text];
  }
  if (state.over) return [element("p", "muted", "The game is over.")];
  return [element("p", "muted", table.outsKey ? "Counting your outs…" : "Your outs are not available here.")];
}

// Why a Novel is not among the publishes offered: one reason per Novel (the outs route's
// unreachable list and needs; else what the view shows).
function renderWhyNot(state) {
  const box = $("why-not");
  const list = $("why-not-list");
  list.replaceChildren();
  const view = state.view;
  box.hidden = state.over || view.to_move !== view.player || view.phase !== "action";
  if (box.hidden) return;
  const offered = new Set(state.legal.filter((move) => move.startsWith("publish ")).map((move) => move.split(" ")[1]));
  let count = 0;
  for (const novel of state.novels || []) {
    if (!novel.publishable || offered.has(novel.id)) continue;
    const found = outsOf(novel.id);
    let reason = found && found.gone ? found.gone.reason : viewReason(novel.id, state);
    if (!reason && found && found.reach && found.reach.need > 0) {
      reason = "you need " + plural(found.reach.need, "more card") + " (R4)";
    } else if (!reason && state.legal_complete) {
      reason = "your hand and the Masterpieces on the table cannot make it now (R4, R5)";
    }
    if (!reason) continue;
    const words = playerWords(reason, view.player);
    const item = element("li");
    item.dataset.novel = novel.id;
    item.append(novelTag(novel.id), ": " + lowerFirst(words.text));
    if (words.rules) item.title = "the rule: " + words.rules;
    list.append(item);
    count += 1;
  }
  $("why-not-count").textContent = count ? "(" + count + ")" : "";
  box.hidden = count === 0;
}

// Asks for the visitor's outs once per new position (not while bots are still moving).
function askOuts(state) {
  if (state.over || state.waiting || !table.game) {
    if (state.over) table.outs = null;
    return;
  }
  const view = state.view;
  const key = [table.game, view.history.length, view.hand.join(" "), (view.pending || []).join(" ")].join("|");
  if (key === table.outsKey) return;
  table.outsKey = key;
  table.outs = null;
  api("GET", "v1/games/" + encodeURIComponent(table.game) + "/outs")
    .then((doc) => {
      if (table.outsKey !== key) return;
      table.outs = doc;
      document.body.dataset.outs = "ready";
      renderLegend(table.state);
      renderWhyNot(table.state);
    })
    .catch(() => {
      if (table.outsKey === key) document.body.dataset.outs = "none";
    });
  document.body.dataset.outs = "asking";
}

function counted(count, one, many) {
  return count + " " + (count === 1 ? one : many);
}

// The game-over panel's review: a button, then the largest drops with the better move.
function reviewBox() {
  const box = element("section", "review");
  box.id = "review";
  if (table.review && table.review.game === table.game) {
    drawReview(box, table.review.doc);
    return box;
  }
  const button = element("button", null, "Review this game");
  button.type = "button";
  button.id = "review-button";
  const note = element("span", "muted", " your largest drops in win chance, with the better move");
  button.addEventListener("click", () =>
    run(async () => {
      note.textContent = " reviewing…";
      try {
        const doc = await api("GET", "v1/games/" + encodeURIComponent(table.game) + "/review");
        table.review = { game: table.game, doc };
        drawReview(box, doc);
      } catch (error) {
        // Told beside the button, where the visitor is looking, not at the page bottom.
        note.textContent = " " + reviewTrouble(error);
      }
    }),
  );
  box.append(button, note);
  return box;
}

// Why no review came: the game still going (409), no service behind it, a time limit.
function reviewTrouble(error) {
  if (error.status === 409) return "the review opens once the game is over.";
  if (error.status === 404 || error.status === 503) return "the review is not available here.";
  if (error.status === 504) return "the review took too long; try again later.";
  return "the review failed: " + (error.detail || error.message) + ".";
}

function drawReview(box, doc) {
  const me = table.state.seat;
  box.replaceChildren(element("h3", null, "Your game reviewed"));
  const mine = doc.summary.find((entry) => entry.player === me);
  if (mine) {
    box.append(
      element(
        "p",
        "muted",
        "Accuracy " + mine.accuracy.toFixed(1) + "% over " + plural(mine.decisions, "decision") + ": " +
          counted(mine.blunders, "blunder", "blunders") + ", " + counted(mine.mistakes, "mistake", "mistakes") + ", " +
          counted(mine.inaccuracies, "inaccuracy", "inaccuracies") + ".",
      ),
    );
  }
  const drops = doc.decisions.filter((decision) => decision.player === me && decision.label !== null && !decision.forced);
  drops.sort((a, b) => b.drop - a.drop || a.index - b.index);
  if (!drops.length) {
    box.append(element("p", null, "No decision of yours lost " + percent(doc.thresholds.inaccuracy) + " of win chance or more: well played."));
  }
  const list = element("ol", "drops");
  for (const decision of drops.slice(0, REVIEW_SHOWN)) {
    const item = element("li");
    item.dataset.index = String(decision.index);
    item.dataset.label = decision.label;
    const details = element("details");
    const summary = element("summary");
    const better = element("span", "better", "better: ");
    better.append(moveWords(decision.best, decision, table.state.view, false));
    summary.append(
      element("span", "label " + decision.label, decision.label),
      " " + turnOfMove(decision.index) + ": −" + percent(decision.drop) + " win chance",
      better,
    );
    details.append(summary);
    details.addEventListener("toggle", () => {
      if (details.open && details.childElementCount === 1) details.append(decisionDetail(decision));
    });
    item.append(details);
    list.append(item);
  }
  box.append(list);
  if (drops.length > REVIEW_SHOWN) box.append(element("p", "muted", plural(drops.length - REVIEW_SHOWN, "smaller drop") + " not listed."));
  if (!doc.complete) box.append(element("p", "muted", "The review stopped at its time limit: some decisions were not weighed."));
}

// "deck 12 cards · discard pile 3 cards, SCI5 on top" (the top face down: another seat's, R10).
function pilesWords(decision) {
  const parts = ["deck " + plural(decision.deck_size, "card") + " · discard pile "];
  if (!decision.discard_size) return [...parts, "empty"];
  parts.push(plural(decision.discard_size, "card") + ", ");
  if (decision.top_discard) parts.push(card(decision.top_discard, true), " on top");
  else parts.push("the top one face down");
  return parts;
}

function turnOfMove(index) {
  const line = (table.state.log || []).find((entry) => entry.moves.includes(index));
  return line ? (line.turn ? "turn " + line.turn : "the deal") : "move " + (index + 1);
}

// One reviewed decision opened: the move played, the better one, the win chances, your hand
// if the review gives it, and what had just happened (the log lines before it).
function decisionDetail(decision) {
  const view = table.state.view;
  const box = element("div", "decision");
  const row = (label, ...content) => {
    const line = element("p");
    line.append(element("b", null, label), " ", ...content);
    box.append(line);
  };
  row("You", moveWords(decision.played, decision, view, true), element("span", "muted", " · wins " + percent(decision.win_played)));
  row("Better:", moveWords(decision.best, decision, view, false), element("span", "muted", " · wins " + percent(decision.win_best)));
  // What you saw as you decided, and only that (R16): your hand, the piles.
  if (Array.isArray(decision.hand)) row("Your hand", ...decision.hand.map((notation) => card(notation, true)));
  if (typeof decision.deck_size === "number") row("Piles", ...pilesWords(decision));
  const before = (table.state.log || []).filter((entry) => entry.moves.length && Math.max(...entry.moves) < decision.index);
  if (before.length) {
    const list = element("ul", "context");
    for (const entry of before.slice(-CONTEXT_LINES)) {
      const item = element("li");
      item.append(logText(entry));
      list.append(item);
    }
    box.append(element("b", null, "Just before"), list);
  }
  return box;
}
