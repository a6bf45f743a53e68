"use strict";
// The play board: games against any player, the analysis, lines and
// positions (app.js holds what every view shares).

// ---- Play ----
const play = { req: null, view: null, selected: null, busy: false, source: null };

function sidesOf(game) { return (info && info.sides[game]) || ["", ""]; }

// settingsOf are a game's settings as the server declares them: the page
// knows no game or setting by name, and draws a control for each.
function settingsOf(game) { return (info && info.settings[game]) || []; }

// settingControl is the form's control of a setting.
function settingControl(key) { return $("setting-" + key); }

// fillSettings draws the controls of the game's settings: a number box
// for a whole number, a list for a setting with choices, else a text box.
// Each starts at the game's default (a default in words, "4 x size x
// size", is a box left empty: the game's default).
function fillSettings(game) {
  const box = $("settings");
  box.innerHTML = "";
  for (const o of settingsOf(game)) {
    const label = document.createElement("label");
    label.title = o.help + (o.default ? " (default " + o.default + ")" : "");
    label.appendChild(document.createTextNode(o.key + " "));
    let c;
    if (o.values && o.values.length) {
      c = document.createElement("select");
      for (const v of o.values) c.add(new Option(v, v));
      if (o.values.includes(o.default)) c.value = o.default;
    } else {
      c = document.createElement("input");
      if (o.max > 0) {
        c.type = "number";
        c.min = o.min;
        c.max = o.max;
        if (/^-?\d+$/.test(o.default)) c.value = o.default;
      } else {
        c.type = "text";
        c.size = 10;
      }
      c.placeholder = o.default;
    }
    c.id = "setting-" + o.key;
    // A setting the players learn decides which of them can play.
    if (o.learned && !o.input) c.addEventListener("change", fillAgents);
    label.appendChild(c);
    box.appendChild(label);
  }
}

// showSettings puts a spec's settings into the form (a position or game
// opened from elsewhere), so that a new game keeps them.
function showSettings(spec) {
  for (const o of settingsOf(spec.name)) {
    const c = settingControl(o.key);
    if (c && spec[o.key] !== undefined && spec[o.key] !== null) c.value = String(spec[o.key]);
  }
}

// gameSpec is the game the form chooses: each setting given, a number
// out of its range or an empty box left to the game's default.
function gameSpec() {
  const name = $("game").value;
  const spec = { name };
  for (const o of settingsOf(name)) {
    const c = settingControl(o.key);
    const v = c ? c.value.trim() : "";
    if (v === "") continue;
    if (o.max > 0) {
      // Out of range or not a number, it is sent as it is: the server's
      // refusal says why in the status line (it was once dropped without
      // a word, and the game's default played).
      const n = Number(v);
      spec[o.key] = Number.isInteger(n) ? n : v;
    } else {
      spec[o.key] = v;
    }
  }
  return spec;
}

function agentSpec() {
  let spec = $("agent").value;
  const sims = Math.max(1, Math.min(20000, parseInt($("sims").value, 10) || 100));
  if (spec.startsWith("net:") || spec.startsWith("player:") || spec.startsWith("mcts")) spec += (spec.includes(":") ? "," : ":") + "sims=" + sims;
  return spec;
}

async function newGame() {
  stopAnalysis();
  play.req = { game: gameSpec(), start: "", moves: [], seed: Math.floor(Math.random() * 1e9) };
  play.values = [];
  play.variations = [];
  await refresh();
}

async function refresh() {
  play.selected = null;
  try {
    play.view = await api("/api/state", play.req);
  } catch (e) {
    $("status").textContent = e.message;
    return;
  }
  play.req.start = play.view.start;
  // The position in the address, with the other lines of the move tree:
  // copied and opened elsewhere, it shows the same board and tree
  // (replaceState: no history entry a move).
  const lines = (play.variations || []).filter((v) => !isPrefix(v, play.req.moves));
  history.replaceState(null, "", "#" + encodeURIComponent(JSON.stringify({ game: play.req.game, start: play.req.start, moves: play.req.moves, lines })));
  render();
  // After going back or setting a position up, nobody moves until you do:
  // the position is yours to study.
  if (!play.view.over && play.view.to_move !== $("you").value && !play.goneBack) await agentMove();
  else startAnalysis();
}

function render() {
  const v = play.view;
  drawBoard($("board"), v, onBoardClick);
  const status = $("status");
  status.dataset.over = v.over ? "true" : "false";
  status.dataset.toMove = v.to_move;
  status.textContent = v.over ? "Game over: " + v.reason : (v.to_move === $("you").value ? "Your move (" + v.to_move + ")" :
    play.goneBack ? "Studying: move for " + v.to_move + " (the agent answers)" : "The agent thinks (" + v.to_move + ")");
  renderHistory();
  drawValues();
  showPerfect();
  const pass = $("pass-area");
  pass.innerHTML = "";
  if (!v.over && movesForYou(v)) {
    // Buttons for the moves not on the board (a pass); the others are
    // clicks on their cells.
    for (const m of v.legal) {
      if (!m.from && !m.to) {
        const b = document.createElement("button");
        b.className = "movebtn";
        b.textContent = m.move === "pass" ? "pass (forced)" : (m.button || m.move);
        b.addEventListener("click", () => playMove(m.move));
        pass.appendChild(b);
      }
    }
  }
}

// showPerfect asks the game's exact solver for the position's value and
// each move's, when "Perfect play" is on and the game has a solver; an
// answer for a position no longer shown is dropped.
async function showPerfect() {
  const game = play.req && play.req.game ? play.req.game.name : $("game").value;
  const has = !!(info && info.perfect && info.perfect[game]);
  $("perfect-label").classList.toggle("hidden", !has);
  const on = has && $("perfect").checked && play.view && !play.view.over;
  $("perfect-box").classList.toggle("hidden", !on);
  if (!on) return;
  const token = (play.perfectToken = (play.perfectToken || 0) + 1);
  $("perfect-value").textContent = "Solving...";
  $("perfect-moves").innerHTML = "";
  let p;
  try {
    p = await api("/api/perfect", play.req);
  } catch (e) {
    if (token === play.perfectToken) $("perfect-value").textContent = e.message;
    return;
  }
  if (token !== play.perfectToken) return;
  $("perfect-value").textContent = "Perfect play: " + p.verdict;
  $("perfect-value").dataset.exact = p.exact ? "true" : "false";
  const ol = $("perfect-moves");
  for (const m of p.moves) {
    const li = document.createElement("li");
    li.textContent = perfectMoveText(m);
    if (m.best) li.className = "best";
    ol.appendChild(li);
  }
}

// perfectMoveText is a move's line of the perfect-play box: its verdict
// and its score, once (an unsettled verdict already gives its bounds,
// "not settled (0..1)").
function perfectMoveText(m) {
  const score = m.score.includes("..") && m.verdict.includes(m.score) ? "" : ` (score ${m.score})`;
  return `${m.move}: ${m.verdict}${score}` + (m.best ? " - best" : "");
}

// movesForYou: your side's moves are yours; in a position you went back to
// or set up, the agent's are too (it moves only once you have).
function movesForYou(v) { return v.to_move === $("you").value || play.goneBack; }

function onBoardClick(x, y) {
  const v = play.view;
  if (!v || v.over || play.busy || !movesForYou(v)) return;
  if (play.selected) {
    const m = v.legal.find((m) => m.from && m.from[0] === play.selected[0] && m.from[1] === play.selected[1] && m.to && m.to[0] === x && m.to[1] === y);
    if (m) { playMove(m.move); return; }
  }
  // A drop: onto this cell, or into this column.
  const drop = v.legal.find((m) => !m.from && m.to && (m.column ? m.to[0] === x : m.to[0] === x && m.to[1] === y));
  if (drop) { playMove(drop.move); return; }
  const from = v.legal.filter((m) => m.from && m.from[0] === x && m.from[1] === y);
  play.selected = from.length ? [x, y] : null;
  render();
  if (play.selected) {
    cellEl($("board"), x, y).classList.add("selected");
    for (const m of from) cellEl($("board"), m.to[0], m.to[1]).classList.add("target");
  }
}

// goToPly takes the game back to the position after its first n moves
// (the move list's and the value graph's clicks).
async function goToPly(n) {
  if (!play.req || play.busy || n >= play.req.moves.length) return;
  await showLine(play.req.moves.slice(0, n), (play.values || []).slice(0, n + 1));
}

// showLine makes moves the current line, to study (nobody moves until you
// do); the line left is kept.
async function showLine(moves, values) {
  stopAnalysis();
  keepLine(play.req.moves);
  play.req.moves = moves;
  play.values = values;
  play.goneBack = true;
  $("moves-note").textContent = "";
  await refresh();
}

// exportGame writes the whole tree on one line: the position and the
// current line's moves, then each kept line after "; moves", which set-up
// reads back ("POS moves a2R c1U; moves a2R d1U").
function exportGame() {
  if (!play.req) return;
  const cur = play.req.moves;
  let text = play.req.start + (cur.length ? " moves " + cur.join(" ") : "");
  for (const v of (play.variations || []).filter((v) => !isPrefix(v, cur))) text += "; moves " + v.join(" ");
  const box = $("export-text");
  box.value = text;
  box.classList.remove("hidden");
  if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
}

async function setUp() {
  const text = $("setup").value.trim();
  if (!text) return;
  stopAnalysis();
  // "POS moves M1 M2" (what Export gives, with "; moves ..." for each
  // other line of the tree) or a position alone.
  const [first, ...others] = text.split(";");
  const [pos, rest] = first.split(" moves ");
  play.req = { game: gameSpec(), start: pos.trim(), moves: rest ? rest.trim().split(/\s+/) : [], seed: 1 };
  play.values = [];
  play.variations = [];
  for (const o of others) {
    const line = o.trim().replace(/^moves\s+/, "");
    if (line) keepLine(line.split(/\s+/));
  }
  play.goneBack = true;
  await refresh();
}

// Variations: lines left by going back are kept, so that playing on from
// an earlier move does not lose them; a line that the current one
// contains is not kept twice.
function isPrefix(a, b) { return a.length <= b.length && a.every((m, i) => m === b[i]); }

function keepLine(moves) {
  play.variations = (play.variations || []).filter((v) => !isPrefix(v, moves));
  if (moves.length && !play.variations.some((v) => isPrefix(moves, v))) play.variations.push(moves.slice());
}


// renderHistory writes the move list as a tree, as chess sites do: the
// current line, and each kept line in parentheses after the move it is an
// alternative to, inside the line it leaves latest (its parent: of the
// lines before it, the one it shares most moves with), as deep as the
// lines go. A click on any move goes to it, in its line.
function renderHistory() {
  const hist = $("history");
  hist.innerHTML = "";
  const cur = play.req ? play.req.moves : play.view.moves;
  const lines = [cur].concat((play.variations || []).filter((v) => !isPrefix(v, cur)));
  const common = (a, b) => { let i = 0; while (i < a.length && i < b.length && a[i] === b[i]) i++; return i; };
  const children = lines.map(() => []);
  const at = [0];
  for (let k = 1; k < lines.length; k++) {
    let parent = 0;
    for (let j = 1; j < k; j++) if (common(lines[j], lines[k]) > common(lines[parent], lines[k])) parent = j;
    at[k] = common(lines[parent], lines[k]);
    children[parent].push(k);
  }
  const moveSpan = (k, i, resumed) => {
    const sp = document.createElement("span");
    sp.className = "histmove";
    if (k === 0) sp.dataset.ply = i + 1;
    else sp.dataset.vply = i + 1;
    const m = lines[k][i];
    // Numbered as chess notation does: every second ply, and a line's
    // first move or the move after a variation with "N...".
    sp.textContent = (i % 2 === 0 ? Math.floor(i / 2) + 1 + ". " : ((k > 0 && i === at[k]) || resumed ? Math.floor(i / 2) + 1 + "... " : "")) + m;
    sp.addEventListener("click", () => (k === 0 ? goToPly(i + 1) : goToLine(lines[k], i + 1)));
    return sp;
  };
  const branch = (k, container) => {
    const box = document.createElement("span");
    box.className = "variation";
    box.appendChild(document.createTextNode("("));
    writeLine(k, at[k], box);
    if (box.lastChild && box.lastChild.nodeType === Node.TEXT_NODE) box.removeChild(box.lastChild); // the space before ")"
    box.appendChild(document.createTextNode(")"));
    container.appendChild(box);
    container.appendChild(document.createTextNode(" "));
  };
  const writeLine = (k, from, container) => {
    const line = lines[k];
    let resumed = false;
    for (let i = from; i < line.length; i++) {
      container.appendChild(moveSpan(k, i, resumed));
      container.appendChild(document.createTextNode(" "));
      // Alternatives to move i come after it; a line that only goes on
      // past this one's end comes at its end.
      resumed = false;
      for (const c of children[k]) if (at[c] === i) { branch(c, container); resumed = true; }
    }
    for (const c of children[k]) if (at[c] >= line.length) branch(c, container);
  };
  writeLine(0, 0, hist);
}

// goToLine makes the kept line v the current one, at its ply n; the line
// left and the whole of v are kept.
async function goToLine(v, n) {
  if (play.busy) return;
  keepLine(v);
  await showLine(v.slice(0, n), []);
}

async function playMove(move) {
  stopAnalysis();
  play.goneBack = false;
  play.req.moves.push(move);
  await refresh();
}

async function agentMove() {
  play.busy = true;
  try {
    const t0 = performance.now();
    const r = await api("/api/move", Object.assign({ player: agentSpec() }, play.req));
    window.lastAgentMs = performance.now() - t0;
    play.req.moves.push(r.move);
    if (r.value !== undefined) noteValue(play.req.moves.length - 1, r.value, play.view.to_move);
    $("moves-note").textContent = "Agent: " + r.move + (r.value !== undefined ? `, value ${scoreText(r.value)}, ${r.visits} visits` : "");
  } catch (e) {
    $("status").textContent = e.message;
    play.busy = false;
    return;
  }
  play.busy = false;
  await refresh();
}

function undo() {
  stopAnalysis();
  if (!play.req || !play.req.moves.length) return;
  // Back to the last position where it was your move.
  play.req.moves.pop();
  if (play.req.moves.length && play.view && play.view.to_move === $("you").value) play.req.moves.pop();
  refresh();
}

// scoreText shows a value in [-1, 1] as the expected score it stands for
// (a win 1, a draw a half, a loss 0), as a percentage, with the value.
function scoreText(v) {
  return `${Math.round(50 * (v + 1))}% (${v >= 0 ? "+" : ""}${v.toFixed(2)})`;
}

function stopAnalysis() {
  if (play.source) { play.source.close(); play.source = null; }
}

function startAnalysis() {
  stopAnalysis();
  const box = $("analysis-box");
  box.classList.toggle("hidden", !$("analysis").checked);
  if (!$("analysis").checked || !play.view || play.view.over) return;
  const agent = $("agent").value;
  if (!agent.startsWith("net:") && !agent.startsWith("player:")) {
    $("analysis-value").textContent = "Choose a trained agent (net: or player:) to see its analysis.";
    return;
  }
  const threads = Math.max(0, Math.min(256, parseInt($("threads").value, 10) || 0));
  // Until the analysis is switched off or the position changes.
  const q = Object.assign({ player: agent, infinite: true, top: 5, threads: threads }, play.req);
  const src = new EventSource("/api/analyze?q=" + encodeURIComponent(JSON.stringify(q)));
  play.source = src;
  play.analysisLog = []; // the visits of each update, for the tests
  src.onmessage = (ev) => {
    const a = JSON.parse(ev.data);
    play.analysisLog.push(a.visits);
    noteValue(play.req.moves.length, a.value, play.view.to_move);
    $("analysis-value").textContent = `Value for ${play.view.to_move}: ${a.proof ? a.proof + " (proven)" : scoreText(a.value)}${!a.proof && a.plies ? `, about ${Math.round(a.plies)} plies to the end` : ""} after ${a.visits} simulations (${Math.round(a.nps)} a second)` + (a.done ? " (done)" : "");
    $("analysis-value").dataset.visits = a.visits;
    const ol = $("analysis-moves");
    ol.innerHTML = "";
    for (const el of document.querySelectorAll("#board .shade")) el.remove();
    for (const m of a.moves) {
      const li = document.createElement("li");
      li.textContent = `${m.move}: ${(100 * m.share).toFixed(1)}% of the search, ${m.visits} visits, value ${scoreText(m.value)}` + (m.proof ? ` (${m.proof})` : m.plies ? `, ~${Math.round(m.plies)} plies` : "") + (m.pv && m.pv.length > 1 ? `; line ${m.pv.join(" ")}` : "");
      li.className = "line";
      ol.appendChild(li);
      if (m.to) {
        const c = cellEl($("board"), m.to[0], m.to[1]);
        if (c) {
          const s = document.createElement("div");
          s.className = "shade";
          s.style.opacity = Math.min(0.75, 0.2 + m.share);
          c.appendChild(s);
          const l = document.createElement("div");
          l.className = "shade share";
          l.textContent = Math.round(100 * m.share) + "%";
          c.appendChild(l);
        }
      }
    }
    if (a.done) stopAnalysis();
  };
  src.onerror = () => stopAnalysis();
}

function fillSides() {
  const you = $("you");
  you.innerHTML = "";
  const game = $("game").value;
  for (const s of sidesOf(game)) you.add(new Option(s, s));
  fillSettings(game);
  fillAgents();
}

// fillAgents lists the agents that play the chosen game: the baselines,
// and the trained players of that game at the values of the settings
// players learn (a board's size) the form has.
function fillAgents() {
  const sel = $("agent"), keep = sel.value, game = $("game").value;
  const spec = gameSpec();
  // (A setting of the network's input alone does not: a player sees any
  // position of its game through its own input.)
  const learned = settingsOf(game).filter((o) => o.learned && !o.input).map((o) => o.key);
  sel.innerHTML = "";
  for (const p of info.players) {
    const pg = (info.player_games || {})[p];
    if (pg && (pg.name !== game || learned.some((k) => spec[k] !== undefined && pg[k] !== undefined && String(pg[k]) !== String(spec[k])))) continue;
    sel.add(new Option(p, p));
  }
  const names = [...sel.options].map((o) => o.value);
  sel.value = names.includes(keep) ? keep : (names.find((p) => p.startsWith("player:")) || "random");
}
