// Rulecraft's page: choose a ruleset, play on the SVG board, step through records.
// Plain script, no build step, no network but this server.
"use strict";
const $ = (id) => document.getElementById(id);
let catalog = null, view = null, selection = [], pending = null;
let inflight = 0;  // requests under way (tests wait for 0 before looking)

async function api(path, options = {}) {
  inflight++;
  try { return await request(path, options); } finally { inflight--; }
}
async function request(path, options) {
  const response = await fetch(path, options);
  const isJson = (response.headers.get("content-type") || "").includes("json");
  const body = isJson ? await response.json() : await response.text();
  if (!response.ok) throw new Error(body.error || body || response.statusText);
  return body;
}
const post = (path, data) => api(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                        body: JSON.stringify(data || {})});
function say(text, ok) { const m = $("message"); m.textContent = text || ""; m.className = ok ? "ok" : ""; }
async function guarded(work) { try { say(""); await work(); } catch (e) { say(e.message); } }
function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }

// -- setup -----------------------------------------------------------------------------
function currentGame() { return catalog.games.find((g) => g.name === $("game").value); }
function currentRuleset() { return currentGame().rulesets.find((r) => r.id === $("ruleset").value); }

function fillGames() {
  $("game").replaceChildren(...catalog.games.map((g) => new Option(g.name, g.name)));
  fillRulesets();
}
function fillRulesets() {
  const game = currentGame();
  $("ruleset").replaceChildren(...game.rulesets.map((r) => new Option(`${r.title} (${r.id})`, r.id, r.default, r.default)));
  const box = $("overlays");
  box.replaceChildren(el("legend", "House rules (overlays)"));
  for (const o of game.overlays) {
    const label = el("label"); const check = el("input"); check.type = "checkbox"; check.value = o.name;
    label.title = o.description + (o.sources.length ? ` (sources: ${o.sources.join("; ")})` : "");
    label.append(check, ` ${o.title}`); box.append(label);
  }
  showRuleset();
}
function showRuleset() {
  const r = currentRuleset(), info = $("ruleset-info");
  info.replaceChildren(el("strong", r.title), el("p", r.description),
                       el("p", r.sources.length ? `Sources: ${r.sources.join("; ")}` : "", "sources"));
  const players = $("players");
  players.min = r.players.min; players.max = r.players.max; players.value = r.players.default;
  fillSeats();
}
function fillSeats() {
  const n = Math.max(+$("players").min, Math.min(+$("players").max, +$("players").value || 1));
  const seats = $("seats"); seats.replaceChildren();
  for (let s = 0; s < n; s++) {
    const label = el("label", `P${s + 1} `); const pick = el("select"); pick.className = "seat";
    pick.append(new Option("you (human)", "human"));
    for (const a of catalog.agents) {
      const option = new Option(`computer: ${a}`, a); option.title = (catalog.agent_info || {})[a] || "";
      pick.append(option);
    }
    // the other seats: the search (a person beats greedy at once), else greedy
    const computer = ["mcts:100", "greedy"].find((a) => catalog.agents.includes(a)) || catalog.agents[0];
    pick.value = s === 0 ? "human" : computer;
    label.append(pick); seats.append(label);
  }
}
async function start() {
  const overlays = [...$("overlays").querySelectorAll("input:checked")].map((c) => c.value);
  const seats = [...document.querySelectorAll("select.seat")].map((s) => s.value);
  show(await post("/api/games", {ruleset: $("ruleset").value, overlays, seats, seed: +$("seed").value || 0}));
}
async function loadRecord(file) {
  const text = await file.text();
  show(await api("/api/records", {method: "POST", headers: {"Content-Type": "application/json"}, body: text}));
}

// -- the game --------------------------------------------------------------------------
function show(v) {
  view = v; selection = []; pending = null;
  $("setup").hidden = true; $("play").hidden = false;
  $("game-title").textContent = `${v.ruleset.title}` + (v.ruleset.overlays.length ? ` with ${v.ruleset.overlays.join(", ")}` : "");
  // A replayed record's seats are all `human` (so no agent moves); none of them is "you".
  const scores = v.scores.map((p, s) => `P${s + 1}${v.seats[s] === "human" && !v.replay ? " (you)" : ""}: ${p}`).join("   ");
  const z = v.zones;
  let turn = v.over ? `game over (${v.reason}); winner: ${v.winner === null ? "nobody" : "P" + (v.winner + 1)}`
                    : `P${v.to_move + 1} to move` + (v.your_turn ? " (you)" : "");
  $("status").textContent = `${scores}   |   ${turn}   |   round ${v.round}   |   ${z.pool.name}: ${z.pool.count}` +
    (z.pile.top ? `   |   ${z.pile.name}: ${z.pile.top}` : "") + (v.clock === null ? "" : `   |   time ${v.clock} s`);
  $("board").innerHTML = v.svg;
  prepareBoard();
  listMoves(v.moves);
  listLog(v.log);
  $("download").href = `/api/games/${v.id}/record`;
  // stepping through a record: only the record's own controls (no hint, undo, restart,
  // solver: nobody plays); a ruleset with `play.undo: false` has no Undo
  $("solve").hidden = !v.solitaire || !!v.replay;
  $("replay").hidden = !v.replay;
  $("hint").hidden = $("restart").hidden = $("moves-panel").hidden = !!v.replay;
  $("undo").hidden = !!v.replay || !v.undo;
  if (v.replay) { $("cursor").textContent = `move ${v.replay.cursor} of ${v.replay.length}`; $("jump").value = v.replay.cursor; }
  if (v.recent.length) say(`computer: ${v.recent.join("; ")}`, true);
}
// A move's points beside its text: "+5", "-3", and nothing for none (a "0" after
// "exchange 1" would read as a piece).
function plus(points) { return points > 0 ? `+${points}` : `${points}`; }
function signed(points) { return points ? ` ${plus(points)}` : ""; }
function why(events) {
  return events.map((e) => `P${e.player + 1} ${e.rule} ${plus(e.points)} (${e.where})`).join(", ") || "no points";
}
function listMoves(moves) {
  $("moves").replaceChildren(...moves.map((m) => {
    const li = el("li"), b = el("button"); b.type = "button"; b.dataset.move = m.text;
    b.append(el("span", `${m.text} ${signed(m.points)}`), el("br"), el("span", why(m.events), "why"));
    b.addEventListener("click", () => guarded(() => play(m.text)));
    li.append(b); return li;
  }));
  $("play-selection").hidden = true;
}
function listLog(log) {
  const cursor = view.replay ? view.replay.cursor : log.length;
  $("log").replaceChildren(...log.map((p) => {
    const li = el("li", `P${p.seat + 1}${p.computer ? " (computer)" : ""}: ${p.move} ${signed(p.points)}`,
                  (p.computer ? "computer" : "") + (p.n === cursor ? " current" : ""));
    li.append(el("br"), el("span", why(p.events), "why")); return li;
  }));
  $("log").scrollTop = $("log").scrollHeight;
}
async function play(text) {
  show(await post(`/api/games/${view.id}/move`, {move: text}));
}

// -- clicking on the board: a piece, then a target; or a piece that is its own target --
function prepareBoard() {
  for (const node of $("board").querySelectorAll(".piece.hand, .piece.zoned, [data-target].target, .slot.exposed, [data-zone=pool]")) {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
  }
}
// A pair is [uid, target, name]; a selection is [name, target]: tokens alike are one choice.
const samePair = (p, s) => p[2] === s[0] && p[1] === s[1];
function candidates() {
  return view.moves.filter((m) => selection.every((s) => m.pairs.some((p) => samePair(p, s))));
}
function boardClick(event) {
  if (!view || !view.your_turn) return;
  const pieceNode = event.target.closest("[data-piece]"), targetNode = event.target.closest("[data-target]");
  const zone = event.target.closest("[data-zone]");
  if (zone && zone.dataset.zone === "pool") {
    const m = view.moves.find((x) => x.kind === "draw" || x.kind === "deal");
    if (m) guarded(() => play(m.text)); else say("you cannot take from there now");
    return;
  }
  const target = targetNode ? targetNode.dataset.target : null;
  const uid = pieceNode ? pieceNode.dataset.name : null;
  if (uid !== null && target !== null && view.moves.some((m) => m.pairs.some((p) => samePair(p, [uid, target])))) {
    return choose([uid, target]);          // a card taken from where it lies
  }
  const movable = uid && view.moves.some((m) => m.pairs.some((p) => p[2] === uid));
  if (pieceNode && (movable || pieceNode.classList.contains("hand"))) {
    pending = uid; markSelected(pieceNode); markTargets(uid); return;   // then where it goes
  }
  if (target !== null && pending !== null) return choose([pending, target]);
  if (target !== null) say("choose a piece first, then where it goes");
}
function markSelected(node) {
  for (const n of $("board").querySelectorAll(".selected")) n.classList.remove("selected");
  if (node) node.classList.add("selected");
}
function markTargets(uid) {
  const wanted = new Set(candidates().flatMap((m) => m.pairs.filter((p) => p[2] === uid).map((p) => p[1])));
  for (const n of $("board").querySelectorAll("[data-target]")) n.classList.toggle("target", wanted.has(n.dataset.target));
  if (!wanted.size) say("that piece has no legal place now");
}
function choose(pair) {
  selection.push(pair); pending = null;
  const left = candidates();
  if (!left.length) { selection = []; say("no legal move does that"); return; }
  const exact = left.filter((m) => m.pairs.length === selection.length);
  if (left.length === 1 || (exact.length === 1 && left.length === exact.length)) return guarded(() => play((exact[0] || left[0]).text));
  listMoves(left);
  $("play-selection").hidden = !exact.length;
  say(`${left.length} moves do that: choose one from the list` + (exact.length ? ", play the selection," : "") + " or pick another piece", true);
}
function playSelection() {
  const exact = candidates().filter((m) => m.pairs.length === selection.length);
  if (exact.length) guarded(() => play(exact[0].text));
}

// -- hints, undo, records --------------------------------------------------------------
async function hint() {
  const h = await api(`/api/games/${view.id}/hint`);
  const best = h.moves[0];
  const solver = h.solver ? ` The solver plays: ${h.solver.next || "nothing found"}.` : "";
  const searched = h.search && h.search.moves[0];
  const search = searched ? ` The search (${h.search.spec}) plays: ${searched.text} (${Math.round(100 * searched.share)}% of visits).` : "";
  const marked = searched ? searched.text : best && best.text;  // the move to play, marked in the list
  for (const b of $("moves").querySelectorAll("button")) b.classList.toggle("hinted", b.dataset.move === marked);
  const points = best && (best.points ? `${plus(best.points)}: ${why(best.events)}` : "no points");
  say(best ? `Best for points: ${best.text} (${points}).${solver}${search}` : "no move", true);
}
async function solve() {
  const s = await api(`/api/games/${view.id}/solver`);
  const verdict = s.clearable === true ? "can still be cleared" : s.clearable === false ? "can no longer be cleared" : "too large to decide quickly";
  say(`The deal ${verdict}.` + (s.next ? ` The solver's next move: ${s.next}.` : ""), true);
}
const step = (n) => guarded(async () => show(await post(`/api/games/${view.id}/goto`, {n})));

function keys(event) {
  if (event.target.matches("input, select, textarea")) return;
  if ((event.key === "Enter" || event.key === " ") && event.target.closest("#board")) {
    // a focused slot or zone acts as a click on the piece lying in it
    const inner = event.target.querySelector("[data-piece]") || event.target;
    event.preventDefault(); boardClick({target: inner}); return;
  }
  if (!view || $("play").hidden) return;
  const actions = view.replay  // a record stepped through: its arrows, no hint or undo
    ? {ArrowLeft: () => step(view.replay.cursor - 1), ArrowRight: () => step(view.replay.cursor + 1)}
    : {h: hint, t: () => $("move-text").focus()};
  if (!view.replay && view.undo) actions.u = () => post(`/api/games/${view.id}/undo`).then(show);
  const action = actions[event.key];
  if (action) { event.preventDefault(); guarded(action); }
}

function wire() {
  $("game").addEventListener("change", fillRulesets);
  $("ruleset").addEventListener("change", showRuleset);
  $("players").addEventListener("change", fillSeats);
  $("start").addEventListener("click", () => guarded(start));
  $("record-file").addEventListener("change", (e) => e.target.files[0] && guarded(() => loadRecord(e.target.files[0])));
  $("board").addEventListener("click", boardClick);
  $("hint").addEventListener("click", () => guarded(hint));
  $("solve").addEventListener("click", () => guarded(solve));
  $("undo").addEventListener("click", () => guarded(async () => show(await post(`/api/games/${view.id}/undo`))));
  $("restart").addEventListener("click", () => guarded(async () => show(await post(`/api/games/${view.id}/restart`))));
  $("new").addEventListener("click", () => { $("play").hidden = true; $("setup").hidden = false; view = null; });
  $("typed").addEventListener("submit", (e) => { e.preventDefault(); guarded(() => play($("move-text").value)).then(() => { $("move-text").value = ""; }); });
  $("play-selection").addEventListener("click", playSelection);
  $("first").addEventListener("click", () => step(0));
  $("back").addEventListener("click", () => step(view.replay.cursor - 1));
  $("forward").addEventListener("click", () => step(view.replay.cursor + 1));
  $("last").addEventListener("click", () => step(view.replay.length));
  $("go").addEventListener("click", () => step(+$("jump").value || 0));
  document.addEventListener("keydown", keys);
}

wire();
guarded(async () => { catalog = await api("/api/catalog"); fillGames(); });
