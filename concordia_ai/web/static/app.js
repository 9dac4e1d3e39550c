// The Concordia board: one page, plain JavaScript, no build step and nothing fetched from elsewhere.
// The server sends the whole state (board SVG included) as JSON; this file draws the panels, lights up
// the legal moves, turns taps into moves, and runs hints, reviews and replays through the JSON API.
"use strict";

const TOKEN = new URLSearchParams(location.search).get("token");
const GOODS = ["brick", "food", "tool", "wine", "cloth"];

const S = {
  state: null,        // the last state from the server (the live game, or a view)
  live: null,         // the live game's state while a view is shown
  selected: [],       // element ids tapped so far for the move being made
  hint: null,         // the last hint job's result (with the moveCount and version it searched)
  review: null,       // the last review job's result
  replay: null,       // {file, games, game, at, of}
  busy: false,
  log: [],
  logOf: null,        // the game file whose history the log holds (GET /api/history)
  logMoves: 0,        // how many of its moves the log has accounted for
  refusal: null,      // why the last tap made no move (the server's line, web/why.py), shown above the board
};

// ------------------------------------------------------------------ helpers
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

function svgEl(tag, attrs) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  return el;
}

async function api(path, body) {
  const opts = {headers: {}};
  if (TOKEN) opts.headers["X-Concordia-Token"] = TOKEN;
  if (body !== undefined) {
    opts.method = "POST";
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  let data;
  try { data = await r.json(); } catch (e) { data = {error: `the server answered ${r.status} without JSON`}; }
  if (!r.ok) {
    const err = new Error(data.error || `error ${r.status}`);
    err.status = r.status;
    err.field = data.field || null;     // the form field a refusal of /api/new names, and its cities or places
    err.items = data.items || [];
    throw err;
  }
  return data;
}

function count(n, one, many) { return `${n} ${n === 1 ? one : many}`; }
function pct(x) { return x === null || x === undefined ? "–" : (100 * x).toFixed(1); }
function signed(x) { return (x >= 0 ? "+" : "") + x.toFixed(1); }

const LOG_LINES = 80;

function say(lines, kind) {
  for (const line of [].concat(lines || [])) {
    S.log.unshift({text: line, kind: kind || (line.startsWith("announce:") ? "announce" : "info")});
  }
  S.log = S.log.slice(0, LOG_LINES);
  drawLog();
}

// The log's turns are the game file's history, one line per turn as `concordia log` groups them ("turn 2,
// Bob: play Architect; move land Roma > Casinum-Roma; done"), from one source, table/history.py: GET
// /api/history when a game is opened, the page reloaded or the file changed elsewhere (another tab, a
// terminal: the line says "from elsewhere"), and the "log" of a play's, undo's or redo's own answer (the same
// turns from the first move it changed). A turn's line grows with its steps, so the live log reads as it
// reads after a reload; a step taken back leaves its line. `elsewhere`: s was read after a change this tab
// did not make.
function trackLog(s, elsewhere) {
  if (S.logOf !== s.file) {
    S.logOf = s.file;
    S.logMoves = 0;
    S.log = S.log.filter(l => !l.turn);
    if (s.moveCount) background(() => fetchHistory(s.file, 0, "load"));
    return;
  }
  if (s.log) { mergeHistory(s.log, "here"); return; }
  if (!elsewhere && s.moveCount === S.logMoves) return;
  if (s.moveCount < S.logMoves) {
    say(`${count(S.logMoves - s.moveCount, "move", "moves")} taken back elsewhere (another tab or a terminal)`, "elsewhere");
  }
  const file = s.file, from = Math.min(S.logMoves, s.moveCount);
  background(() => fetchHistory(file, from, elsewhere ? "elsewhere" : "here"));
}

async function fetchHistory(file, from, how) {
  const r = await api(`/api/history?from=${from}`);
  if (S.logOf === file) mergeHistory(r, how);
}

// r: the history from its `from`-th move on (its turns' later steps). The log's turn lines keep their steps up
// to there and take r's after; a line that grew goes to the top (the newest), as do new turns ("load": under
// anything said since, being older); a line with no step left goes.
function mergeHistory(r, how) {
  if (r.file !== S.logOf) return;
  if (r.from > S.logMoves) { const file = r.file, from = S.logMoves; background(() => fetchHistory(file, from, how)); return; }
  const incoming = new Map(r.turns.map(t => [t.turn, t]));
  const log = [], grown = [];
  const mark = how === "elsewhere";
  for (const l of S.log) {
    if (!l.turn) { log.push(l); continue; }
    const t = incoming.get(l.turn);
    incoming.delete(l.turn);
    const kept = l.steps.filter(x => x.move <= r.from);
    const steps = kept.concat(t ? t.steps.filter(x => x.move > r.from).map(x => ({move: x.move, text: x.text})) : []);
    if (!steps.length) continue;
    if (JSON.stringify(steps) === JSON.stringify(l.steps)) { log.push(l); continue; }
    const line = Object.assign({}, l, {steps, elsewhere: l.elsewhere || mark});
    (steps.length > kept.length ? grown : log).push(line);
  }
  for (const t of incoming.values()) {
    const steps = t.steps.filter(x => x.move > r.from).map(x => ({move: x.move, text: x.text}));
    if (steps.length) grown.push({turn: t.turn, player: t.player, steps, elsewhere: mark});
  }
  grown.sort((a, b) => b.turn - a.turn);
  S.log = (how === "load" ? log.concat(grown) : grown.concat(log)).slice(0, LOG_LINES);
  S.logMoves = r.moves;
  drawLog();
}

function turnLine(l) {
  return `turn ${l.turn}, ${l.player}: ${l.steps.map(x => x.text).join("; ")}` + (l.elsewhere ? " (from elsewhere)" : "");
}

async function background(fn) {      // a search: the board stays usable while it runs
  try { await fn(); } catch (e) { say(e.message, "error"); }
}

async function act(fn) {
  if (S.busy) return;
  S.busy = true;
  document.body.classList.add("busy");
  try { await fn(); } catch (e) {
    say(e.message, "error");
    if (e.status === 409 && S.live) {      // the game moved on elsewhere: show it as it is now
      try { S.hint = null; show(await api("/api/state"), true); } catch (e2) { say(e2.message, "error"); }
    }
  } finally { S.busy = false; document.body.classList.remove("busy"); }
}

// ------------------------------------------------------------------ loading and polling
async function load() {
  const s = await api("/api/state");
  if (s.file === null && s.games !== undefined) { S.state = null; drawStart(s); return; }
  show(s);
}

function show(s, elsewhere) {
  const ended = !s.view && s.over && S.live && !S.live.over;    // the move just recorded ended the game
  S.state = s;
  if (!s.view) S.live = s;
  S.selected = [];
  S.refusal = null;
  if (!s.view && s.file) trackLog(s, elsewhere);       // the turn's line first, what the change announced above it
  if (s.lines) say(s.lines);
  draw();
  if (ended) document.getElementById("score-sheet").scrollIntoView({block: "start"});
}

async function poll() {
  if (S.busy || !S.live) return;
  try {
    const v = await api("/api/version");
    if (S.live && v.file !== S.live.file) {     // another tab left this game (New game) or opened another
      const left = S.live.file;
      S.live = null; S.state = null; S.hint = null; S.review = null; S.replay = null; S.selected = [];
      S.logOf = null;
      await load();
      say(`${left} was left in another tab of this board; it is still on disk`);
      return;
    }
    if (v.version && S.live && v.version !== S.live.version) {
      const s = await api("/api/state");
      const viewing = S.state && S.state.view;
      S.live = s;
      trackLog(s, true);       // the moves made there, in the log
      if (!viewing) { S.state = s; S.selected = []; S.hint = null; draw(); }
    }
  } catch (e) { /* the next poll tries again */ }
}

// ------------------------------------------------------------------ the page
function draw() {
  const s = S.state;
  const app = document.getElementById("app");
  app.replaceChildren(...[
    header(s),
    h("main", {class: "layout"},
      h("section", {class: "board-wrap"}, viewBanner(s), refusalLine(), h("div", {id: "board", class: "board-box"}),
        playersPanel(s)),       // the players under the board: in view with it on a wide window
      h("aside", {class: "side"}, decisionPanel(s), hintPanel(), h("div", {id: "log", class: "log"}))),
    scoreSheet(s),
    marketPanel(s),
    reviewPanel(),
    replayPanel()].filter(Boolean));
  const box = document.getElementById("board");
  box.innerHTML = s.svg;              // drawn and escaped by the server (web/board.py)
  fitToWindow();
  box.addEventListener("click", onTap);
  document.querySelectorAll(".panel-tap").forEach(el => el.addEventListener("click", onTap));
  light();
  drawLog();
  drawChart();
}

// The board and the side panel fill the window below the header (app.css, wide windows): the header's
// height, which wraps with the window's width, is handed to the CSS. On a tall window the board, as wide
// as its column, and the players under it need less than the window: the layout then ends under the
// players (no empty band), and the market display follows at once.
function fitToWindow() {
  const top = document.querySelector("header.top");
  if (top) document.documentElement.style.setProperty("--head", `${top.offsetHeight}px`);
  const layout = document.querySelector("main.layout");
  if (!layout) return;
  layout.style.height = "";
  if (!window.matchMedia("(min-width: 1101px)").matches) return;
  const wrap = layout.querySelector(".board-wrap"), last = wrap && wrap.lastElementChild;
  if (!last) return;
  const spare = wrap.getBoundingClientRect().bottom - last.getBoundingClientRect().bottom;
  if (spare > 1) layout.style.height = `${Math.max(layout.offsetHeight - spare, 480)}px`;
}
window.addEventListener("resize", fitToWindow);

function header(s) {
  const live = !s.view;
  const lastTurn = S.live && S.live.moveCount > 0;
  return h("header", {class: "top"},
    h("div", {class: "brand"}, h("span", {class: "logo"}, "Concordia"),
      h("span", {class: "where"}, `${s.title} · ${s.file}`)),
    h("div", {class: "status", id: "status"}, s.status),
    h("nav", {class: "tools"},
      h("button", {id: "undo", title: "take back the last move", disabled: !live || !lastTurn,
                   onclick: () => act(() => change("/api/undo", {}))}, "↶ Undo"),
      h("button", {id: "undo-turn", title: "take back the whole turn", disabled: !live || !lastTurn,
                   onclick: () => act(() => change("/api/undo", {turn: true}))}, "↶ Turn"),
      h("button", {id: "redo", title: "put back what undo took back", disabled: !live || !(S.live && S.live.redo),
                   onclick: () => act(() => change("/api/redo", {}))}, "↷ Redo"),
      h("span", {class: "sep"}),
      h("button", {id: "review", onclick: () => background(startReview), disabled: !S.live}, "Review"),
      budgetSelect("review-budget", "search per turn",
                   [["it:1000", "1,000 it/turn"], ["s:1", "1 s/turn"], ["s:3", "3 s/turn"]]),
      h("button", {id: "games", onclick: () => act(openGames)}, "Games…"),
      h("button", {id: "new-game", title: "back to the start page: start another game or open one (this game's file stays as it is)",
                   onclick: () => act(newGame)}, "New game")));
}

function viewBanner(s) {
  if (!s.view) return null;
  const v = s.view;
  if (v.kind === "replay") {
    const step = at => act(() => replayAt(v.game, at));
    return h("div", {class: "banner replay"},
      h("b", {}, `Replay: game ${v.game + 1}`), ` ${v.seats.join(" · ")} — move ${v.at} of ${v.of}`,
      h("span", {class: "stepper"},
        h("button", {onclick: () => step(0)}, "⏮"), h("button", {id: "replay-back", onclick: () => step(v.at - 1)}, "◀"),
        h("input", {type: "range", min: 0, max: v.of, value: v.at, onchange: e => step(+e.target.value)}),
        h("button", {id: "replay-next", onclick: () => step(v.at + 1)}, "▶"), h("button", {onclick: () => step(v.of)}, "⏭")),
      h("button", {onclick: backToGame}, "Back to the game"));
  }
  return h("div", {class: "banner"},
    h("b", {}, "Viewing an earlier position"), ` (after move ${v.at} of ${v.of}; read-only) `,
    h("button", {id: "back", onclick: backToGame}, "Back to the game"));
}

// "New game": the server leaves the open game (its file stays on disk, listed on the start page to open again)
async function newGame() {
  const f = await api("/api/close", {});
  S.live = null; S.state = null; S.hint = null; S.review = null; S.replay = null; S.selected = [];
  S.logOf = null;
  drawStart(f);
  window.scrollTo(0, 0);
}

function backToGame() {
  if (S.live) { S.state = S.live; S.selected = []; draw(); } else act(load);
}

// ------------------------------------------------------------------ the decision of the moment
function decisionPanel(s) {
  const box = h("section", {class: "panel decide panel-tap", id: "decide"});
  if (s.over) {        // the final ranking (the players' win bars are left out then)
    const bySeat = Object.fromEntries(s.players.map(p => [p.name, p]));
    box.append(h("h2", {}, "Game over"),
      h("ol", {class: "final"}, s.ranking.map(name => h("li", {}, h("b", {}, name), ` ${bySeat[name].vp} VP`))),
      h("button", {class: "small", id: "to-sheet", onclick: () =>
        document.getElementById("score-sheet").scrollIntoView({behavior: "smooth"})}, "the score sheet ↓"));
    return box;
  }
  if (s.view) {
    box.append(h("h2", {}, s.status));
    return box;
  }
  const steps = s.stepsLeft !== null && s.stepsLeft !== undefined ? ` · ${s.stepsLeft} step${s.stepsLeft === 1 ? "" : "s"} left` : "";
  box.append(h("h2", {}, h("span", {class: "who"}, s.decider === "chance" ? "Reveal" : s.decider),
                 " ", s.phaseText, steps));
  if (s.decider === "chance") {
    box.append(h("p", {class: "help"}, "Which card was turned up into the display? Tap it:"));
    box.append(revealPicker(s));
  } else {
    box.append(h("p", {class: "help"}, tapHelp(s)));
    box.append(...[deciderHand(s), choiceStrip(s)].filter(Boolean));
  }
  const cands = candidates();
  if (S.selected.length) {
    box.append(h("div", {class: "chips"}, "Chosen: ",
      S.selected.map(id => h("span", {class: "chip"}, id.split(":").slice(1).join(":"))),
      h("button", {class: "small", id: "clear", onclick: () => { S.selected = []; draw(); }}, "clear")));
  }
  const list = h("div", {class: "moves", id: "moves"});
  const shown = s.decider === "chance" ? [] : S.selected.length ? cands : s.moves;
  for (const m of shown.slice(0, 400)) {
    const b = h("button", {class: "move" + (m.targets.length ? "" : " plain") + (m.late ? " late" : ""), "data-move": m.text,
                           title: m.late ? "taken in any order, as concordia play takes it: recorded with this turn's " +
                                           "earlier steps in the engine's order" : null,
                           onclick: () => act(() => play([m.text]))},
      h("span", {}, m.text), m.cost ? h("small", {}, m.cost) : null);
    b.addEventListener("mouseenter", () => light(m.targets, "hover"));
    b.addEventListener("mouseleave", () => light());
    list.append(b);
  }
  if (shown.length > 400) list.append(h("p", {class: "help"}, `… and ${shown.length - 400} more: tap the board to narrow them`));
  box.append(list);
  return box;
}

// The final score sheet, as `concordia score` prints it: VP per god, the Concordia card, the special
// squares and the total, players in the final ranking's order (a table on the page: touch screens show no
// hover tooltip)
function scoreSheet(s) {
  if (!s.over || !s.ranking) return null;
  const bySeat = Object.fromEntries(s.players.map(p => [p.name, p]));
  const cols = Object.keys(s.players[0].score), ties = tiedGroups(s);
  return h("section", {class: "panel score-sheet", id: "score-sheet"},
    h("h3", {}, "Final score sheet"),
    h("table", {class: "turns sheet"},
      h("tr", {}, h("th", {}, "#"), h("th", {}, "player"), cols.map(c => h("th", {class: c === "total" ? "total" : null}, c))),
      s.ranking.map((name, i) => h("tr", {"data-player": name}, h("td", {}, i + 1), h("td", {}, h("b", {}, name)),
        cols.map(c => h("td", {class: c === "total" ? "total" : null}, bySeat[name].score[c]))))),
    ties.length ? h("p", {class: "help", id: "sheet-ties"}, `ties: Praefectus Magnus order (as concordia score ranks them): ` +
      ties.map(names => `${names.join(", ")} on ${bySeat[names[0]].vp} VP`).join("; ")) : null);
}

// The players of equal total, in the final ranking's order: [["Ann", "Bob"]] when they tie (none: [])
function tiedGroups(s) {
  const groups = [];
  for (const name of s.ranking) {
    const last = groups[groups.length - 1], vp = s.players.find(p => p.name === name).vp;
    if (last && last.vp === vp) last.names.push(name); else groups.push({vp, names: [name]});
  }
  return groups.filter(g => g.names.length > 1).map(g => g.names);
}

// The deciding player's hand in the decision panel, beside the board (the players' panels are below it):
// the cards to tap for a card play, and where a hint lights its card up
function deciderHand(s) {
  const p = s.players.find(x => x.decides);
  if (!p) return null;
  return h("div", {class: "decider-hand", id: "decider-hand", "data-player": p.name},
    h("div", {class: "p-row hand"}, h("span", {class: "help"}, `${p.name}'s hand:`), handCards(s, p)));
}

// What a Senator or a Consul buys (the display) and what a Diplomat copies (the other players' top
// discards), beside the prompt as the deciding hand is: the market display and the other players lie below
// the fold on a tablet, out of view on a phone. The same tap targets as there (card:..., top:...).
function choiceStrip(s) {
  if (s.phase === "senator" || s.phase === "consul") {
    return h("div", {class: "p-row choices", id: "choices"}, h("span", {class: "help"}, "The display:"),
      s.display.filter(d => d.card).map(d => h("span", {class: `choice-card el god-edge-${(d.god || "").toLowerCase()}`,
                                                         "data-el": `card:${d.card}`, title: d.price ? `${d.name}: ${d.price}` : d.name},
        h("span", {}, d.card), h("span", {class: "price"}, priceChips(d.price)))));
  }
  if (s.phase === "diplomat") {
    const tops = s.players.filter(p => p.name !== s.decider && p.top);
    return h("div", {class: "p-row choices", id: "choices"}, h("span", {class: "help"}, "Top discards:"),
      tops.length ? tops.map(p => h("span", {class: `choice-card el god-edge-${(s.gods[p.top] || "").toLowerCase()}`,
                                             "data-el": `top:${p.top}`}, `${p.name}: ${p.top}`))
                  : h("i", {class: "help"}, "none"));
  }
  return null;
}

// A card bought as Mercator/II is held as Mercator/5: a hand holds card kinds and a bought card's deck is
// not kept. The line `concordia show` prints, visible under the hand in the player's panel (a tooltip
// shows nowhere on touch); once, and short: the players' panels share the board's column on a wide window.
function boughtNote(p) {
  if (!p.boughtAs || !p.boughtAs.length) return null;
  return h("div", {class: "bought-note"}, "A bought card's deck is not kept: ", p.boughtAs.join("; "));
}

function handCards(s, p) {
  return Object.entries(p.hand).map(([label, n]) =>
    h("span", {class: `hand-card el god-edge-${(s.gods[label] || "").toLowerCase()}`,
               "data-el": s.decider === p.name ? `hand:${label}` : `held:${p.name}:${label}`, title: s.gods[label] || null},
      label, n > 1 ? h("b", {}, ` ×${n}`) : null));
}

// The prompt, from the legal moves of the moment: a tap it names is one that makes a move now
function tapHelp(s) {
  const p = s.phase;
  const can = verb => s.moves.some(m => m.text === verb || m.text.startsWith(verb + " "));
  const cash = can("cash") ? ", or take the cash" : "";
  if (p === "play") return "Tap a card in the hand of " + s.decider + ", or pick it from the list.";
  if (p === "architect-move") return "Tap a colonist's place, then the route it moves to; tap a city to build.";
  if (p === "architect-build") return "Tap the cities to build in, then done.";
  if (p === "prefect") return can("produce") ? `Tap a province to produce there${cash}.` : onlyButtons(s, "No province can produce now");
  if (p === "mercator") return "Tap a good to sell or buy it, then choose how many.";
  if (p === "senator" || p === "consul") return "Tap the display cards to buy: here, or in the market display below.";
  if (p === "colonist") {
    if (can("place")) return `Tap Roma or a city with a house to place a colonist there${cash}.`;
    const me = s.players.find(x => x.decides), lacks = [];
    if (me && me.colonistsHome.land + me.colonistsHome.sea === 0) lacks.push("no colonist is left in the storehouse");
    else if (me) {
      const missing = ["food", "tool"].filter(g => !me.goods[g]);
      if (missing.length) lacks.push(`${me.name} has no ${missing.join(" and no ")}, and a colonist costs 1 food and 1 tool`);
    }
    return onlyButtons(s, "No colonist can be placed" + (lacks.length ? ` (${lacks.join("; ")})` : ""));
  }
  if (p === "diplomat") return "Tap the top discard card of another player to copy it.";
  if (p === "keep") return "Tap the good to keep (the storehouse is full).";
  if (p === "tribune") return "Take a new colonist, or done.";
  return "Choose a move.";
}

// Nothing to tap: the prompt says why, then what the list below offers ("take the cash below, or done ...")
function onlyButtons(s, why) {
  const texts = s.moves.map(m => m.text), rest = texts.filter(t => t !== "cash" && t !== "done");
  const what = [texts.includes("cash") ? "take the cash below" : null, rest.length ? `choose ${rest.join(", ")} below` : null,
                texts.includes("done") ? (texts.length > 1 ? "or done to take nothing" : "done below") : null].filter(Boolean);
  return `${why}: ${what.join(", ") || "nothing is left to do"}.`;
}

function revealPicker(s) {
  return h("div", {class: "reveal panel-tap"},
    s.moves.map(m => h("button", {class: "card-btn el", "data-el": m.targets[0]},
      m.text.replace("reveal ", ""))));
}

function candidates() {
  const s = S.state;
  if (!s || !s.moves) return [];
  let cands = s.moves.filter(m => S.selected.every(id => m.targets.includes(id)));
  if (cands.length > 1) {     // the order tapped: a colonist's place first, its new route second
    const ordered = cands.filter(m => inOrder(m.targets, S.selected));
    if (ordered.length) cands = ordered;
  }
  return cands;
}

function inOrder(targets, chosen) {
  let i = 0;
  for (const t of targets) if (i < chosen.length && t === chosen[i]) i++;
  return i === chosen.length;
}

function onTap(ev) {
  const s = S.state;
  if (!s || s.view || S.busy) return;
  let el = ev.target.closest("[data-el]");
  const tapped = el ? [el.getAttribute("data-el"), el.getAttribute("data-alt")] : null;
  if (!s.over) {
    while (el) {
      const id = el.getAttribute("data-el");
      if (tryTap(id)) return;
      const alt = el.getAttribute("data-alt");
      if (alt && tryTap(alt)) return;
      el = el.parentElement ? el.parentElement.closest("[data-el]") : null;
    }
  }
  if (tapped) background(() => explainTap(tapped[0], tapped[1]));
}

// A tap that makes no move: the server says why, in the words of `concordia play` (GET /api/why)
async function explainTap(id, alt) {
  const q = `/api/why?el=${encodeURIComponent(id)}` + (alt ? `&alt=${encodeURIComponent(alt)}` : "") +
            `&selected=${encodeURIComponent(S.selected.join(","))}`;
  const shownAt = S.live ? S.live.moveCount : null;
  const r = await api(q);
  if (!S.live || r.moveCount !== shownAt) return;     // the game moved on meanwhile: the line would be stale
  S.refusal = r.reason;
  const box = document.getElementById("refusal");
  if (!box) return;
  const line = refusalLine();
  box.replaceWith(line);
  fitToWindow();
  const rect = line.getBoundingClientRect();         // above the board; floating at the window's foot when the
  if (rect.top < 0 || rect.bottom > window.innerHeight) line.classList.add("floating");   // board is out of view
}

function refusalLine() {
  if (!S.refusal) return h("div", {id: "refusal", class: "refusal empty", role: "status"});
  return h("div", {id: "refusal", class: "refusal", role: "status"}, h("span", {}, S.refusal),
    h("button", {class: "small", title: "hide this line", onclick: () => { S.refusal = null;
      document.getElementById("refusal").replaceWith(refusalLine()); fitToWindow(); }}, "×"));
}

function tryTap(id) {
  const s = S.state;
  const uses = s.moves.filter(m => m.targets.includes(id));
  if (!uses.length) return false;
  S.refusal = null;
  if (S.selected.includes(id)) { S.selected = S.selected.filter(x => x !== id); draw(); return true; }
  S.selected.push(id);
  let cands = candidates();
  if (!cands.length) { S.selected = [id]; cands = candidates(); }
  if (cands.length === 1) { act(() => play([cands[0].text])); return true; }
  draw();
  return true;
}

function light(only, cls) {
  const s = S.state;
  // the tap targets only (elements with a data-el): a panel's own classes stay as they are
  document.querySelectorAll(":is(.legal, .next, .hover, .hint, .sel)[data-el]").forEach(
    el => el.classList.remove("legal", "next", "hover", "hint", "sel"));
  if (!s) return;
  const mark = (ids, c) => {
    for (const id of ids) {
      document.querySelectorAll(`[data-el="${CSS.escape(id)}"]`).forEach(el => el.classList.add(c));
    }
  };
  if (only) { mark(only, cls); return; }
  if (s.view || !s.moves) return;
  const ids = new Set();
  const cands = S.selected.length ? candidates() : s.moves;
  for (const m of cands) for (const t of m.targets) ids.add(t);
  const svg = document.querySelector("#board svg");     // a province to choose: only targets catch taps over it
  if (svg) svg.classList.toggle("province-choice", [...ids].some(id => id.startsWith("province:")));
  for (const id of S.selected) ids.delete(id);
  mark([...ids], S.selected.length ? "next" : "legal");
  mark(S.selected, "sel");
}

async function play(texts, expect) {
  const s = S.live;
  const r = await api("/api/play", {moves: texts, expect: expect === undefined ? s.moveCount : expect});
  S.hint = null;
  show(r);
}

async function change(path, body) {
  const r = await api(path, Object.assign({expect: S.live.moveCount}, body));
  S.hint = null;
  show(r);
}

// ------------------------------------------------------------------ market and players
function marketPanel(s) {
  const cards = s.display.map(d => {
    const el = h("div", {class: "card el" + (d.card ? ` god-top-${d.god.toLowerCase()}` : " empty"),
                         "data-el": d.card ? `card:${d.card}` : null},
      h("div", {class: "card-top"}, h("span", {class: "slot"}, d.slot),
        d.god ? h("span", {class: "god", "data-god": d.god}, d.god) : null),
      h("div", {class: "card-name"}, d.name || (s.decider === "chance" ? "the card turned up" : "—")),
      h("div", {class: "card-deck"}, d.card ? `deck ${d.card.split("/")[1]}` : ""),
      h("div", {class: "price"}, priceChips(d.price)));
    if (d.god) el.querySelector(".god").classList.add("god-" + d.god.toLowerCase());
    return el;
  });
  const goods = GOODS.map(g => h("span", {class: "good-price el", "data-el": `good:${g}`},
    goodDot(g), ` ${g} ${s.prices[g]}`));
  const unseen = Object.entries(s.unseen).filter(([d, n]) => n).map(([d, n]) => `${d}: ${n}`).join(" · ") || "none (the stack is empty)";
  return h("section", {class: "panel market panel-tap"},
    h("div", {class: "market-head"}, h("h3", {}, "Market display"),
      h("span", {class: "help"}, `price for a Senator: cost + surcharge · unseen ${unseen}`),
      h("span", {class: "goods-prices"}, goods)),
    h("div", {class: "cards"}, cards));
}

function priceChips(text) {
  if (!text) return [];
  return text.split(" + ").flatMap(part => {
    const m = part.match(/^(\d+) (\w+)$/);
    const n = m ? +m[1] : 1, g = m ? m[2] : part;
    const chips = [];
    for (let i = 0; i < n; i++) chips.push(g === "?" ? h("span", {class: "dot any", title: "any good"}, "?") : goodDot(g));
    return chips;
  });
}

function goodDot(g) {
  const d = h("span", {class: "dot", title: g});
  d.classList.add("g-" + g);
  return d;
}

// What the players' win bars show: after a hint, its seats' win shares (the figures of its top turn) while
// the live game is still the position it searched; else the server's estimate of the position without a
// search (both from the one final-result model). Null: no bars (the game is over, or no estimate).
function winFigures(s) {
  const r = S.hint;
  if (!s.view && r && r.seats && r.seats.length === s.players.length && S.live &&
      r.moveCount === S.live.moveCount && r.version === S.live.version) {
    return {wins: r.seats, label: r.seatsLabel || "after the hint's top turn", source: "hint"};
  }
  if (!s.winLabel || s.players.some(p => p.win === null || p.win === undefined)) return null;
  return {wins: s.players.map(p => p.win), label: s.winLabel, source: "position"};
}

function playersPanel(s) {
  const fig = winFigures(s);
  const source = fig ? h("div", {class: "win-source", id: "win-source", "data-source": fig.source},
    "win bars: ", fig.label) : null;
  return h("section", {class: "players panel-tap"}, source, s.players.map(p => {
    const hand = handCards(s, p);
    const goods = GOODS.map(g => h("span", {class: "good el" + (p.goods[g] ? "" : " none"),
                                            "data-el": s.decider === p.name ? `good:${g}` : null},
      goodDot(g), h("b", {}, p.goods[g])));
    const colonists = ["land", "sea"].map(k => h("span", {class: "home el", "data-el": s.decider === p.name ? `colonist:${k}` : null,
                                                           title: `${k} colonists in the storehouse`},
      pawnIcon(k, p.color), ` ${p.colonistsHome[k]}`));
    const w = fig ? fig.wins[p.seat] : null;
    const win = w === null || w === undefined ? null :
      h("div", {class: "winbar from-" + fig.source, title: `chance of winning: ${fig.label}`, "data-source": fig.source},
        h("div", {class: "fill"}), h("span", {class: "win-pct"}, `${pct(w)} % win`));
    const card = h("div", {class: "player" + (p.isTurn ? " turn" : "") + (p.decides ? " decides" : ""),
                           "data-seat": p.seat},
      h("div", {class: "p-head"}, h("span", {class: "swatch"}), h("b", {class: "p-name"}, p.name),
        p.praefectus ? h("span", {class: "badge", title: "Praefectus Magnus"}, "PM") : null,
        p.concordia ? h("span", {class: "badge gold", title: "Concordia card"}, "Concordia") : null,
        h("span", {class: "vp", title: "score if the game ended now: " + Object.entries(p.score)
          .filter(([k, v]) => k !== "total" && v).map(([k, v]) => `${k} ${v}`).join(", ")}, `${p.vp} VP`)),
      win,
      h("div", {class: "p-row"}, h("span", {class: "coins", title: "sestertii"}, `${p.coins}`),
        h("span", {class: "houses", title: "houses built"}, houseIcon(), ` ${p.houses}`), colonists,
        h("span", {class: "space", title: "storehouse spaces used by goods and colonists"},
          `storehouse ${p.space.used}/${p.space.of}`)),
      h("div", {class: "p-row goods"}, goods),
      h("div", {class: "p-row hand"}, hand),
      boughtNote(p),
      h("div", {class: "p-row top"}, "top discard: ",
        p.top ? h("span", {class: `hand-card el god-edge-${(s.gods[p.top] || "").toLowerCase()}`, "data-el": `top:${p.top}`},
          p.top) : h("i", {}, "none")));
    card.querySelector(".swatch").style.background = p.color;
    if (win) card.querySelector(".winbar .fill").style.width = `${(100 * w).toFixed(1)}%`;
    if (win) card.querySelector(".winbar .fill").style.background = p.color;
    return card;
  }));
}

function pawnIcon(kind, color) {
  const svg = svgEl("svg", {viewBox: "-10 -12 20 20", width: 16, height: 16, class: "icon"});
  const d = kind === "sea" ? "M-9 -1 h18 l-4 7 h-10 z M-1 -1 v-9 l7 7 z"
                           : "M0 -10 a4 4 0 1 1 0.1 0 z M-7 7 q0 -11 7 -11 q7 0 7 11 z";
  svg.append(svgEl("path", {d, fill: color, stroke: "#111", "stroke-width": 1.1}));
  return svg;
}

function houseIcon() {
  const svg = svgEl("svg", {viewBox: "-7 -7 14 13", width: 14, height: 13, class: "icon"});
  svg.append(svgEl("path", {d: "M-6 5 v-6 l6 -5 l6 5 v6 z", fill: "#d8c9a6", stroke: "#5b4a36", "stroke-width": 1.1}));
  return svg;
}

// ------------------------------------------------------------------ hints

// The most visited line after the top turn, on one line (a long line pushed the later turns out of view on a
// laptop screen); the whole line on hover (title) and on a tap, which opens it (touch screens have no hover).
function afterLine(after) {
  const text = "then " + after.slice(0, 3).map(seg => `${seg.who}: ${seg.moves.join("; ")}`).join(" · ");
  return h("div", {class: "turn-after", title: `the most visited line after this turn: ${text}`,
                   onclick: ev => ev.currentTarget.classList.toggle("open")}, text);
}
function hintPanel() {
  if (S.state && S.state.over && !S.state.view) return afterGamePanel();
  const box = h("section", {class: "panel hint-panel", id: "hint"},
    h("div", {class: "hint-head"}, h("h3", {}, "Hint"),
      budgetSelect("hint-budget", "search budget",
                   [["it:3000", "quick (3,000 it.)"], ["s:1", "1 s"], ["s:3", "3 s (as concordia hint)"], ["s:10", "10 s"]]),
      h("button", {id: "hint-go", onclick: () => background(startHint),
                   disabled: !S.state || S.state.view || S.state.over || S.state.decider === "chance"}, "Suggest turns")),
    jobBox("hint"));
  const r = S.hint;
  if (r && r.turns) {
    const list = h("div", {class: "hint-turns", id: "hint-turns"},
      h("div", {class: "help"}, `Whole turns for ${r.player}:`));
    r.turns.forEach((t, i) => {
      const loss = i ? `loss ${pct(t.lossWinrate)} win % · ${t.lossVp.toFixed(1)} VP` : "best";
      const row = h("div", {class: "turn-row", "data-turn": i, "data-targets": JSON.stringify(t.targets)},
        h("div", {class: "turn-line"}, h("span", {class: "rank"}, i + 1),
          h("span", {class: "turn-moves"}, t.moves.join("; ")),
          h("button", {class: "small play-turn", title: "record this turn in the game",
                       onclick: () => act(() => play(t.moves, r.moveCount))}, "Play this turn")),
        h("div", {class: "turn-stats"},
          h("b", {}, `${pct(t.winrate)} ± ${pct(t.winrateSe)} % win`),
          ` · ${t.vp.toFixed(1)} VP · margin ${signed(t.scoreLead)} · ${t.visits.toLocaleString()} visits · ${loss}`),
        i === 0 && t.after && t.after.length ? afterLine(t.after) : null);
      row.addEventListener("mouseenter", () => light(t.targets, "hint"));
      row.addEventListener("mouseleave", () => light());
      row.addEventListener("click", ev => { if (!ev.target.closest("button")) light(t.targets, "hint"); });   // touch screens
      list.append(row);
    });
    box.append(list);
    if (r.warnings && r.warnings.length) box.append(h("ul", {class: "notes"}, r.warnings.map(w => h("li", {}, w))));
    box.append(h("p", {class: "help", id: "hint-order"}, `the order: ${r.order}`));     // below the turns: they come first
    box.append(h("p", {class: "help"}, `${r.iterations.toLocaleString()} iterations · hover a turn to see it on the board`));
  }
  return box;
}

// Once the game is over there is nothing to hint: in the hint's place, what comes next (the review, the score
// sheet), as the decision panel above shows the final ranking
function afterGamePanel() {
  return h("section", {class: "panel hint-panel after-game", id: "after-game"},
    h("h3", {}, "After the game"),
    h("p", {class: "help"}, "The game is over: there is no turn left to hint. Review grades every turn of it, as " +
      "concordia review does, with each player's win % before each turn on a chart; a point opens that position."),
    h("div", {class: "after-tools"},
      h("button", {id: "review-game", disabled: !!JOBS.review, title: "the budget per turn is chosen beside Review at the top",
                   onclick: () => background(startReview)}, "Review the game"),
      h("button", {class: "small", onclick: () =>
        document.getElementById("score-sheet").scrollIntoView({behavior: "smooth"})}, "the score sheet ↓")));
}

// the budgets chosen survive the page's redraws; any "it:N" or "s:N" value is understood
const BUDGETS = {"hint-budget": "s:3", "review-budget": "s:1"};

function budgetSelect(id, title, options) {
  const chosen = BUDGETS[id];
  if (!options.some(([v]) => v === chosen)) options = options.concat([[chosen, chosen.replace("it:", "") + (chosen.startsWith("it:") ? " it." : " s")]]);
  const sel = h("select", {id, title, onchange: e => { BUDGETS[id] = e.target.value; }},
    options.map(([v, label]) => h("option", {value: v, selected: v === chosen}, label)));
  return sel;
}

function budget(id) {
  const [kind, n] = BUDGETS[id].split(":");
  return kind === "it" ? {iterations: +n} : {seconds: +n};
}

// ------------------------------------------------------------------ background jobs
// the running job of each kind ("hint", "review"): its progress bar and its Stop button survive redraws
const JOBS = {hint: null, review: null};

function jobBox(kind) {
  const job = JOBS[kind];
  const box = h("div", {class: "job" + (job ? " on" : ""), id: `${kind}-job`},
    h("div", {class: "progress" + (job ? " on" : ""), id: `${kind}-progress`}, h("div", {class: "bar"}), h("span", {class: "label"})),
    job ? h("button", {class: "small stop-job", id: `${kind}-stop`, disabled: job.stopping,
                       title: "stop the search: what it found so far is shown",
                       onclick: () => background(() => stopJob(kind))}, job.stopping ? "stopping…" : "Stop") : null);
  if (job) jobProgress(box, job);
  return box;
}

function jobProgress(box, job) {
  box.querySelector(".bar").style.width = `${(100 * job.progress).toFixed(0)}%`;
  box.querySelector(".label").textContent = `${(100 * job.progress).toFixed(0)} % ${job.detail || ""}`;
}

function drawJob(kind) {
  const box = document.getElementById(`${kind}-job`);
  if (!box) return;
  const job = JOBS[kind], stop = document.getElementById(`${kind}-stop`);
  // the bar moves in place while the button stays as it is (a button replaced under the pointer loses its click)
  if (job && stop && stop.disabled === !!job.stopping) jobProgress(box, job);
  else box.replaceWith(jobBox(kind));
}

async function stopJob(kind) {
  const job = JOBS[kind];
  if (!job || job.stopping) return;
  job.stopping = true;
  drawJob(kind);
  await api("/api/stop", {job: job.job});
}

async function runJob(kind, path, body) {
  let job = await api(path, body);
  JOBS[kind] = job;
  drawJob(kind);
  try {
    while (job.state === "running") {
      await new Promise(r => setTimeout(r, 250));
      job = Object.assign(await api(`/api/job?id=${encodeURIComponent(job.job)}`),
                          {stopping: JOBS[kind] ? JOBS[kind].stopping : false});
      JOBS[kind] = job;
      drawJob(kind);
    }
  } finally {
    JOBS[kind] = null;
    drawJob(kind);
  }
  if (job.state === "error") throw new Error(job.error);
  return job;
}

async function startHint() {
  const version = S.live ? S.live.version : null;     // the file the hint searched (a move meanwhile changes it)
  const job = await runJob("hint", "/api/hint", Object.assign({top: 5}, budget("hint-budget")));
  S.hint = Object.assign({moveCount: job.moveCount, version}, job.result);
  if (job.state === "stopped") say("hint stopped: the turns below are what the search found until then");
  draw();
}

// ------------------------------------------------------------------ review
async function startReview() {
  const body = budget("review-budget");
  S.review = {running: true};
  draw();
  const job = await runJob("review", "/api/review", body);
  S.review = job.result;
  if (job.state === "stopped") {
    say(`review stopped: ${count(job.result.records.length, "turn", "turns")} graded; the turn being searched was ` +
        "not recorded (Review again grades the rest)");
  }
  draw();
  document.getElementById("review-panel").scrollIntoView({behavior: "smooth"});
}

function reviewPanel() {
  if (!S.review) return null;
  const box = h("section", {class: "panel review", id: "review-panel"},
    h("div", {class: "hint-head"}, h("h3", {}, "Review: the search's win % before each turn"),
      h("button", {class: "small", onclick: () => { S.review = null; draw(); }}, "close")));
  const r = S.review;
  if (r.running) { box.append(jobBox("review")); return box; }
  if (r.notes && r.notes.length) box.append(h("ul", {class: "notes"}, r.notes.map(w => h("li", {}, w))));
  box.append(h("div", {id: "chart", class: "chart"}));
  const rows = h("table", {class: "turns graded"},
    h("tr", {}, h("th", {}, "turn"), h("th", {}, "player"), h("th", {}, "grade"), h("th", {}, "win % best"),
      h("th", {}, "played"), h("th", {}, "loss"), h("th", {}, "VP loss"), h("th", {}, "played turn / best")));
  for (const rec of r.records) {
    const tr = h("tr", {class: "grade-" + (rec.forced ? "forced" : rec.grade || "ok")},
      h("td", {}, rec.turn), h("td", {}, rec.player), h("td", {}, rec.forced ? "forced" : rec.grade || "–"),
      h("td", {}, pct(rec.winBest)), h("td", {}, pct(rec.winPlayed)), h("td", {}, pct(rec.lossWin)),
      h("td", {}, rec.lossVp === null ? "–" : rec.lossVp.toFixed(1)),
      h("td", {}, rec.played.join("; "),
        JSON.stringify(rec.best) !== JSON.stringify(rec.played) ? h("div", {class: "best"}, "best: " + rec.best.join("; ")) : null));
    tr.addEventListener("click", () => act(() => viewAt(rec.start)));
    rows.append(tr);
  }
  box.append(h("div", {class: "summary"}, r.summary.map(row =>
    h("span", {}, h("b", {}, row.player), ` ${row.graded} graded: ${count(row.inaccuracies, "inaccuracy", "inaccuracies")}, ` +
      `${count(row.mistakes, "mistake", "mistakes")}, ${count(row.blunders, "blunder", "blunders")}` +
      (row.meanLossWin === null ? "" : `; mean loss ${pct(row.meanLossWin)} win %, ${row.meanLossVp.toFixed(1)} VP`)))));
  box.append(rows);
  return box;
}

function drawChart() {
  const box = document.getElementById("chart");
  const r = S.review;
  if (!box || !r || !r.records) return;
  const W = 900, H = 260, L = 44, R = 16, T = 14, B = 30;
  const turns = r.records.map(x => x.turn);
  const maxT = Math.max(2, ...turns), minT = Math.min(1, ...turns);
  const X = t => L + (W - L - R) * (t - minT) / Math.max(1, maxT - minT);
  const Y = p => T + (H - T - B) * (1 - p);
  const svg = svgEl("svg", {viewBox: `0 0 ${W} ${H}`, class: "chart-svg", role: "img",
                            "aria-label": "win probability over the game"});
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(svgEl("line", {x1: L, x2: W - R, y1: Y(p), y2: Y(p), class: "grid"}));
    const t = svgEl("text", {x: L - 6, y: Y(p) + 4, class: "axis", "text-anchor": "end"});
    t.textContent = `${p * 100}%`;
    svg.append(t);
  }
  const fair = 1 / r.players.length;
  svg.append(svgEl("line", {x1: L, x2: W - R, y1: Y(fair), y2: Y(fair), class: "fair"}));
  const step = Math.max(1, Math.ceil((maxT - minT) / 12));
  for (let t = minT; t <= maxT; t += step) {
    const tick = svgEl("text", {x: X(t), y: H - 12, class: "axis", "text-anchor": "middle"});
    tick.textContent = t;
    svg.append(tick);
  }
  const xl = svgEl("text", {x: L, y: H - 1, class: "axis"});
  xl.textContent = "turn";
  svg.append(xl);
  const colors = (S.live || S.state).players.map(p => p.color);
  r.players.forEach((name, seat) => {
    const pts = r.records.filter(x => x.seat === seat && x.winBest !== null);
    if (!pts.length) return;
    svg.append(svgEl("polyline", {points: pts.map(x => `${X(x.turn)},${Y(x.winBest)}`).join(" "),
                                  class: "series", stroke: colors[seat]}));
    for (const x of pts) {
      const c = svgEl("circle", {cx: X(x.turn), cy: Y(x.winBest), r: x.grade === "blunder" || x.grade === "mistake" ? 6 : 4,
                                 fill: colors[seat], class: "point grade-" + (x.grade || "ok"),
                                 "data-turn": x.turn, "data-start": x.start});
      const tip = svgEl("title", {});
      tip.textContent = `turn ${x.turn}, ${name}: ${pct(x.winBest)} % best` + (x.grade ? ` — ${x.grade}` : "");
      c.append(tip);
      c.addEventListener("click", () => act(() => viewAt(x.start)));
      svg.append(c);
    }
  });
  const legend = h("div", {class: "legend"}, r.players.map((n, i) => {
    const sw = h("span", {class: "swatch"});
    sw.style.background = colors[i];
    return h("span", {}, sw, n);
  }), h("span", {}, "● larger: mistake or blunder · dotted: fair share · tap a point to open that position"));
  box.replaceChildren(svg, legend);
}

async function viewAt(at) {
  const s = await api(`/api/view?at=${at}`);
  S.state = s;
  S.selected = [];
  draw();
  window.scrollTo({top: 0, behavior: "smooth"});
}

// ------------------------------------------------------------------ games and replays
async function openGames() {
  const f = await api("/api/files");
  S.replay = {files: f};
  draw();
  document.getElementById("replay-panel").scrollIntoView({behavior: "smooth"});
}

function replayPanel() {
  if (!S.replay || !S.replay.files) return null;
  const f = S.replay.files;
  const box = h("section", {class: "panel games", id: "replay-panel"},
    h("div", {class: "hint-head"}, h("h3", {}, `Games in ${f.folder}`),
      h("button", {class: "small", onclick: () => { S.replay = null; draw(); }}, "close")),
    h("div", {class: "cols"},
      h("div", {}, h("h4", {}, "Game files"), f.games.length ? f.games.map(g =>
        h("button", {class: "move", onclick: () => act(async () => { S.replay = null; S.review = null; show(await api("/api/open", {file: g})); })}, g))
        : h("p", {class: "help"}, "none in this folder")),
      h("div", {}, h("h4", {}, "Tournament logs"), f.logs.length ? f.logs.map(l =>
        h("button", {class: "move log-file", onclick: () => act(() => listReplay(l))}, l))
        : h("p", {class: "help"}, "no games.jsonl under this folder"))));
  if (S.replay.games) {
    const t = h("table", {class: "turns", id: "replay-games"},
      h("tr", {}, h("th", {}, "game"), h("th", {}, "board"), h("th", {}, "seats"), h("th", {}, "scores"),
        h("th", {}, "winner"), h("th", {}, "moves")));
    S.replay.games.forEach(g => {
      const tr = h("tr", {class: "turn-row"}, h("td", {}, g.game + 1), h("td", {}, g.board),
        h("td", {}, g.seats.join(", ")), h("td", {}, g.scores.join(" · ")), h("td", {}, g.winner || ""), h("td", {}, g.moves));
      tr.addEventListener("click", () => act(async () => { await replayAt(g.game, 0); window.scrollTo({top: 0}); }));
      t.append(tr);
    });
    box.append(h("h4", {}, S.replay.file), t);
  }
  return box;
}

async function listReplay(file) {
  const r = await api(`/api/replay?file=${encodeURIComponent(file)}`);
  Object.assign(S.replay, {file: r.file, games: r.games});
  draw();
}

async function replayAt(game, at) {
  const q = `/api/replay?file=${encodeURIComponent(S.replay.file)}&game=${game}&at=${Math.max(0, at)}`;
  const s = await api(q);
  S.state = s;
  draw();
}

// ------------------------------------------------------------------ the start: a new game or an open one
function drawStart(files) {
  const app = document.getElementById("app");
  const maps = files.maps;
  const sim = h("form", {class: "panel start-card", id: "new-sim", novalidate: true},
    h("h2", {}, "A simulated game"),
    h("p", {class: "help"}, "The engine deals the cities and the stack from a seed and turns up the cards."),
    field("file", "file name", h("input", {name: "file", value: freeName(files.games)})),
    field("map", "board", h("select", {name: "map"}, maps.map(m => h("option", {value: m, selected: m === "italia"}, m)))),
    field("names", "players (first player first)", h("input", {name: "names", value: "Ann, Bob, Cy"})),
    field("seed", "seed (empty: random)", h("input", {name: "seed", type: "number", min: 0})),
    h("button", {type: "submit", id: "start-sim"}, "Start"));
  sim.addEventListener("submit", ev => { ev.preventDefault(); act(() => startGame(sim, () => null)); });

  const table = h("form", {class: "panel start-card", id: "new-table", novalidate: true},
    h("h2", {}, "A real table"),
    h("p", {class: "help"}, "Enter the layout you see: every city's good and the seven display cards. Cards turned up later are tapped in as they come."),
    field("file", "file name", h("input", {name: "file", value: freeName(files.games, "table")})),
    field("map", "board", h("select", {name: "map", id: "table-map"}, maps.map(m => h("option", {value: m, selected: m === "italia"}, m)))),
    field("names", "players (first player first)", h("input", {name: "names", value: "Ann, Bob, Cy"})),
    h("div", {id: "layout-fields"}),
    h("button", {type: "submit", id: "start-table"}, "Start"));
  table.addEventListener("submit", ev => { ev.preventDefault(); act(() => startGame(table, () => layoutOf(table))); });
  for (const form of [sim, table]) {      // a field changed: its mark of a refusal goes
    form.addEventListener("change", ev => { ev.target.classList.remove("bad"); });
    form.addEventListener("input", ev => { ev.target.classList.remove("bad"); });
  }
  table.querySelector("#table-map").addEventListener("change", e => background(() => layoutFields(e.target.value)));

  const games = files.left ? [files.left].concat(files.games.filter(g => g !== files.left)) : files.games;
  const open = h("section", {class: "panel start-card", id: "open-games"}, h("h2", {}, "Open"),
    h("h4", {}, "Game files here"),
    games.length ? games.map(g => h("button", {class: "move" + (g === files.left ? " left-game" : ""), "data-file": g,
                                               onclick: () => act(() => openFromStart(g))},
        h("span", {}, g), g === files.left ? h("small", {}, "the game just left") : null))
      : h("p", {class: "help"}, "none yet"),
    h("h4", {}, "Tournament logs"),
    files.logs.length ? files.logs.map(l => h("button", {class: "move", onclick: () => act(async () => {
      S.replay = {files}; await listReplay(l); const r = S.replay; const s = await api(`/api/replay?file=${encodeURIComponent(l)}&game=0&at=0`);
      S.replay = r; S.state = s; draw(); })}, l))
      : h("p", {class: "help"}, "none under this folder"));
  app.replaceChildren(h("header", {class: "top"}, h("div", {class: "brand"}, h("span", {class: "logo"}, "Concordia"),
      h("span", {class: "where"}, files.folder))),
    h("main", {class: "start"}, sim, table, open), h("div", {id: "log", class: "log"}));
  drawLog();
  background(() => layoutFields("italia"));
}

function field(name, label, input) {
  return h("label", {class: "field"}, h("span", {}, label), input);
}

function freeName(taken, base) {
  base = base || "game";
  for (let i = 1; ; i++) {
    const n = i === 1 ? `${base}.json` : `${base}-${i}.json`;
    if (!taken.includes(n)) return n;
  }
}

async function layoutFields(map) {
  const info = await api(`/api/boardinfo?map=${encodeURIComponent(map)}`);
  const box = document.getElementById("layout-fields");
  if (!box) return;
  const byProvince = {};
  for (const c of info.cities) (byProvince[c.province] = byProvince[c.province] || []).push(c);
  const cities = h("div", {class: "city-grid"}, Object.entries(byProvince).map(([prov, cs]) =>
    h("fieldset", {}, h("legend", {}, prov), cs.map(c => h("label", {class: "city-pick"},
      h("span", {}, `${c.name} (${c.letter})`),
      h("select", {"data-city": c.name}, h("option", {value: ""}, "?"), info.goods.map(g => h("option", {value: g}, g))))))));
  const display = h("div", {class: "display-pick"}, [1, 2, 3, 4, 5, 6, 7].map(i =>
    h("select", {"data-slot": i}, h("option", {value: ""}, `card ${i}`), info.deckI.map(c => h("option", {value: c}, c)))));
  box.replaceChildren(h("h4", {}, "City goods"), cities, h("h4", {}, "Display, left to right"), display);
}

function layoutOf(form) {
  const cities = {};
  form.querySelectorAll("[data-city]").forEach(s => { if (s.value) cities[s.getAttribute("data-city")] = s.value; });
  const display = [...form.querySelectorAll("[data-slot]")].map(s => s.value).filter(Boolean);
  return {cities, display};
}

async function startGame(form, tableOf) {
  clearFormError();
  const table = tableOf();
  const names = form.elements.names.value.split(",").map(x => x.trim());
  const body = {file: form.elements.file.value.trim(), map: form.elements.map.value,
                names: names.length === 1 && !names[0] ? [] : names};
  if (table) body.table = table;
  else if (form.elements.seed.value !== "") body.seed = +form.elements.seed.value;
  let s;
  try { s = await api("/api/new", body); } catch (e) { formError(form, e); return; }
  S.log = [];        // a new game's log starts with it: no refusal of the start page stays in it
  S.logOf = null;
  show(s);
  window.scrollTo(0, 0);      // the game at its top, not where the form's Start button was
}

async function openFromStart(file) {
  const s = await api("/api/open", {file});
  S.log = [];
  S.logOf = null;
  show(s);
  window.scrollTo(0, 0);
}

// A refusal of the start page: the server's line (the words of `concordia new`) beside the field it names,
// the field and its cities or display places marked, scrolled into view; at the top of the form when it
// names no field. Never in the log.
function formError(form, err) {
  clearFormError();
  const field = err.field === "players" ? "names" : err.field;
  const line = h("div", {class: "form-error", role: "alert", "data-field": field || ""}, err.message);
  let marks = [];
  if (field === "cities" || field === "display") {
    const box = form.querySelector(field === "cities" ? ".city-grid" : ".display-pick");
    marks = err.items.map(x => form.querySelector(field === "cities" ? `[data-city="${CSS.escape(String(x))}"]`
                                                                     : `[data-slot="${+x + 1}"]`)).filter(Boolean);
    if (box) { box.before(line); if (!marks.length) marks = [box]; } else form.querySelector("h2").after(line);
  } else if (field && form.elements[field] && form.elements[field].closest(".field")) {
    form.elements[field].closest(".field").append(line);
    marks = [form.elements[field]];
  } else {
    form.querySelector("h2").after(line);      // the top of the form
  }
  marks.forEach(m => m.classList.add("bad"));
  if (marks[0] && marks[0].focus) marks[0].focus({preventScroll: true});
  line.scrollIntoView({block: "center"});
}

function clearFormError() {      // the start page shows one refusal: the last Start's
  document.querySelectorAll("main.start .form-error").forEach(e => e.remove());
  document.querySelectorAll("main.start .bad").forEach(e => e.classList.remove("bad"));
}

// ------------------------------------------------------------------ the log
function drawLog() {
  const box = document.getElementById("log");
  if (!box) return;
  box.replaceChildren(...S.log.map(l => l.turn ? h("div", {class: "line turn " + (l.elsewhere ? "elsewhere" : "history"),
                                                       "data-turn": l.turn}, turnLine(l))
                                              : h("div", {class: "line " + l.kind}, l.text)));
}

document.addEventListener("keydown", ev => {
  if (ev.key === "Escape" && S.selected.length) { S.selected = []; draw(); }
});

act(load);
setInterval(poll, 1000);
