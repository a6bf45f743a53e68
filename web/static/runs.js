"use strict";
// Training runs: their curves and last evaluation, followed as they grow.

// ---- Runs ----
const runs = { source: null };

async function loadRuns() {
  const d = await api("/api/runs");
  const sel = $("run");
  const current = sel.value;
  sel.innerHTML = "";
  sel.add(new Option("(choose a run)", ""));
  for (const r of d.runs) sel.add(new Option(r, r));
  sel.value = current;
  // Open the first run at once rather than an empty page.
  if (!current && d.runs.length) { sel.value = d.runs[0]; openRun(); }
}

function openRun() {
  if (runs.source) { runs.source.close(); runs.source = null; }
  const path = $("run").value;
  if (!path) return;
  const src = new EventSource("/api/run/events?path=" + encodeURIComponent(path));
  runs.source = src;
  src.onmessage = (ev) => showRun(JSON.parse(ev.data));
  $("run-live").textContent = "live: updates as the run writes its metrics";
}

const chartGroups = [
  ["Losses", ["policy loss", "value loss"]],
  ["Policy entropy", ["entropy"]],
  ["Elo against the ladder (random = 0)", ["Elo", "Elo 95% low", "Elo 95% high"]],
  ["Accuracy against perfect play (%)", (names) => names.filter((n) => n.startsWith("accuracy"))],
  ["Self-play results by side (%)", (names) => names.filter((n) => n.startsWith("self-play"))],
  ["Speed", ["simulations/s (thousands)", "games/s"]],
];

// openRunGames shows the games the run kept whole (selfplay.jsonl) in the
// replay tab.
async function openRunGames() {
  const file = $("run").value + "/selfplay.jsonl";
  document.querySelector('.tab[data-tab="replay"]').click();
  await loadRecords();
  $("rec-file").value = file;
  rep.data = null;
  await loadRecordGames();
  const sel = $("rec-game");
  if (sel.options.length) { sel.value = sel.options[sel.options.length - 1].value; rep.data = null; await loadRecordGame(); }
}

async function showRunGamesButton() {
  const d = await api("/api/records");
  $("run-games").classList.toggle("hidden", !d.files.includes($("run").value + "/selfplay.jsonl"));
}

function showRun(v) {
  const t = v.totals;
  showRunGamesButton();
  $("run-totals").innerHTML = `<p>${v.path}: ${v.rounds} rounds, ${(t.minutes || 0).toFixed(1)} training minutes, ${t.games || 0} games, ${t.steps || 0} steps</p>` + healthHTML(v.health);
  const charts = $("charts");
  charts.innerHTML = "";
  const names = Object.keys(v.series);
  for (const [title, pick] of chartGroups) {
    const chosen = (typeof pick === "function" ? pick(names) : pick).filter((n) => v.series[n]);
    if (!chosen.length) continue;
    const div = document.createElement("div");
    div.className = "chart";
    div.innerHTML = `<h3>${title}</h3>`;
    const canvas = document.createElement("canvas");
    canvas.width = 420; canvas.height = 220;
    div.appendChild(canvas);
    charts.appendChild(div);
    lineChart(canvas, chosen.map((n) => ({ name: n, points: v.series[n] })));
  }
  const last = v.last_evaluation;
  const el = $("run-last");
  if (!last) { el.innerHTML = ""; return; }
  let html = `<h3>Last evaluation (after ${(last.elapsed_seconds / 60).toFixed(1)} minutes)</h3><p>Elo ${Math.round(last.elo)}</p><table><tr><th>baseline</th><th>score</th><th>by side (wins-losses, mean plies)</th></tr>`;
  // By side: where one side wins every game, the score is 50% and the
  // speed of the wins and the length of the losses tell players apart.
  const seats = (list) => (list || []).map((s) => `as ${s.side} ${s.wins}-${s.losses}` +
    (s.wins ? `, won in ${s.win_plies.toFixed(1)}` : "") + (s.losses ? `, lost in ${s.loss_plies.toFixed(1)}` : "")).join("; ");
  for (const [b, sc] of Object.entries(last.eval_scores || {})) html += `<tr><td>${b}</td><td>${(100 * sc).toFixed(0)}%</td><td class="seats">${seats((last.eval_seats || {})[b])}</td></tr>`;
  html += "</table>";
  for (const a of last.accuracy || []) html += `<p>accuracy on ${a.set}: ${(100 * a.kept / a.total).toFixed(1)}% of ${a.total}</p>`;
  el.innerHTML = html;
}

// healthHTML says whether the run learns: each symptom of a stall with
// what shows it and the setting that addresses it (package health).
function healthHTML(findings) {
  if (!findings || !findings.length) return `<p class="health ok">Learning: no sign of a stall.</p>`;
  const esc = (t) => t.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]);
  return `<div class="health warn"><strong>Not learning?</strong><ul>` +
    findings.map((f) => `<li data-key="${esc(f.key)}"><b>${esc(f.problem)}</b>: ${esc(f.measured)}; ${esc(f.fix)}</li>`).join("") + `</ul></div>`;
}

const palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"];

// niceTicks gives round tick values covering [lo, hi]: steps of 1, 2 or
// 5 times a power of ten, about n of them, and the axis's new ends.
function niceTicks(lo, hi, n) {
  if (!(hi > lo)) { hi = lo + 1; }
  // A hair over a round value (a run's 10.01st minute) stays on it.
  const raw = 0.99 * (hi - lo) / Math.max(1, n);
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * p).find((st) => st >= raw);
  const first = Math.floor(lo / step + 0.01) * step, last = Math.ceil(hi / step - 0.01) * step;
  const ticks = [];
  for (let v = first; v <= last + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));
  return { ticks, lo: first, hi: last, step };
}

// tickLabel writes a tick value as short as its step allows.
function tickLabel(v, step) {
  const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  return Math.abs(v) >= 10000 && step >= 1000 ? (v / 1000).toFixed(0) + "k" : v.toFixed(digits);
}

// lineChart draws series of (x, y) points with round ticks on both axes
// and a legend below; a pair of series named "... 95% low" and "... 95%
// high" is drawn as a shaded band, labelled "95% interval".
function lineChart(canvas, series) {
  const ctx = canvas.getContext("2d");
  const low = series.find((s) => s.name.endsWith("95% low")), high = series.find((s) => s.name.endsWith("95% high"));
  const lines = series.filter((s) => s !== low && s !== high);
  const legend = lines.length + (low && high ? 1 : 0);
  const W = canvas.width, H = canvas.height, L = 50, R = 10, T = 10, B = 40 + 14 * legend;
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (const s of series) for (const [x, y] of s.points) { x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y); }
  if (x0 > 0 && x0 < (x1 - x0)) x0 = 0; // minutes from the start
  const xt = niceTicks(x0, x1, 5), yt = niceTicks(y0, y1, 4);
  x0 = xt.lo; x1 = xt.hi; y0 = yt.lo; y1 = yt.hi;
  const px = (x) => L + (x - x0) / (x1 - x0) * (W - L - R);
  const py = (y) => T + (1 - (y - y0) / (y1 - y0)) * (H - T - B);
  ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, W, H);
  ctx.font = "10px sans-serif";
  const labels = { x: [], y: [] };
  for (const yv of yt.ticks) {
    ctx.strokeStyle = "#eee"; ctx.beginPath(); ctx.moveTo(L, py(yv)); ctx.lineTo(W - R, py(yv)); ctx.stroke();
    const t = tickLabel(yv, yt.step);
    labels.y.push(t);
    ctx.fillStyle = "#333"; ctx.fillText(t, 2, py(yv) + 3);
  }
  for (const xv of xt.ticks) {
    const t = tickLabel(xv, xt.step);
    labels.x.push(t);
    ctx.fillStyle = "#333"; ctx.fillText(t, px(xv) - 4, H - B + 12);
  }
  ctx.strokeStyle = "#999"; ctx.beginPath(); ctx.moveTo(L, T); ctx.lineTo(L, H - B); ctx.lineTo(W - R, H - B); ctx.stroke();
  ctx.fillStyle = "#333"; ctx.fillText("training minutes", W - R - 80, H - B + 24);
  canvas.dataset.ticks = yt.ticks.length;
  canvas.dataset.xticks = labels.x.join(" ");
  canvas.dataset.yticks = labels.y.join(" ");
  let row = 0;
  const key = (color, text, band) => {
    ctx.fillStyle = color;
    if (band) ctx.fillRect(L, H - B + 27 + 14 * row, 10, 10); else ctx.fillRect(L, H - B + 30 + 14 * row, 10, 4);
    ctx.fillStyle = "#333"; ctx.fillText(text, L + 14, H - B + 36 + 14 * row);
    row++;
  };
  if (low && high && low.points.length) {
    ctx.fillStyle = "rgba(31, 119, 180, 0.15)";
    ctx.beginPath();
    low.points.forEach(([x, y], k) => (k ? ctx.lineTo(px(x), py(y)) : ctx.moveTo(px(x), py(y))));
    [...high.points].reverse().forEach(([x, y]) => ctx.lineTo(px(x), py(y)));
    ctx.closePath(); ctx.fill();
  }
  lines.forEach((s, i) => {
    ctx.strokeStyle = palette[i % palette.length];
    ctx.beginPath();
    s.points.forEach(([x, y], k) => (k ? ctx.lineTo(px(x), py(y)) : ctx.moveTo(px(x), py(y))));
    ctx.stroke();
    if (s.points.length === 1) { const [x, y] = s.points[0]; ctx.fillStyle = palette[i % palette.length]; ctx.fillRect(px(x) - 2, py(y) - 2, 4, 4); }
    key(palette[i % palette.length], s.name);
  });
  if (low && high) key("rgba(31, 119, 180, 0.3)", "95% interval", true);
}

// openFromAddress sets up the position the page's address holds (see
// refresh), if it holds one the server accepts.
// Whatever it cannot open, it says why in play.addressError, for the page
// to show once it has started a game of its own instead.
async function openFromAddress() {
  play.addressError = "";
  if (location.hash.length < 2) return false;
  let q;
  try {
    q = JSON.parse(decodeURIComponent(location.hash.slice(1)));
  } catch (e) {
    play.addressError = "the link holds no position";
    return false;
  }
  if (!q || !q.game || !info.games.includes(q.game.name)) {
    play.addressError = "the link names no game this app plays";
    return false;
  }
  $("game").value = q.game.name;
  fillSides();
  showSettings(q.game);
  play.req = { game: q.game, start: q.start || "", moves: Array.isArray(q.moves) ? q.moves.map(String) : [], seed: 1 };
  play.values = [];
  play.variations = [];
  for (const l of Array.isArray(q.lines) ? q.lines : []) if (Array.isArray(l) && l.length) keepLine(l.map(String));
  play.goneBack = true; // a position to study: nobody moves until you do
  play.view = null;
  await refresh();
  if (!!play.view && play.view.moves.length === play.req.moves.length) return true;
  play.addressError = $("status").textContent || "the link's position is not one of the game's";
  return false;
}
