"use strict";
// sliderzero's page: play, replay and runs, all from the server's JSON API.

const $ = (id) => document.getElementById(id);
let info = null;

async function api(path, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

// ---- Tabs ----
for (const b of document.querySelectorAll(".tab")) {
  b.addEventListener("click", () => {
    for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t === b);
    for (const v of document.querySelectorAll(".view")) v.classList.toggle("hidden", v.id !== b.dataset.tab);
    if (b.dataset.tab === "replay") loadRecords();
    if (b.dataset.tab === "runs") loadRuns();
  });
}

// ---- Boards ----
// The server sends each board with its rows and columns and how to draw
// each token (a piece of side 0 or 1 with its label, or a cell's marking),
// so the page has no code of its own per game.

// drawBoard draws a view into el, with a ring of cells around the board
// for moves that leave it; onClick(x, y) hears clicks.
function drawBoard(el, view, onClick) {
  const rows = view.rows || view.board.length, cols = view.cols || (view.board[0] || []).length;
  // A ring only for games whose pieces leave the board (views from before
  // the field have one).
  const ring = view.off_board !== false ? 1 : 0;
  // Hexagons: each row half a cell right of the row below, a cell two
  // half-cell columns wide, the rows overlapping by a quarter of a cell.
  const hex = view.style === "hex";
  el.innerHTML = "";
  el.classList.toggle("columns", view.style === "columns");
  el.classList.toggle("hex", hex);
  el.style.gridTemplateColumns = hex ? `repeat(${2 * (cols + 2 * ring) + rows - 1}, 26px)` : `repeat(${cols + 2 * ring}, 56px)`;
  el.style.gridAutoRows = hex ? "45px" : "";
  for (let row = -ring; row < rows + ring; row++) {
    for (let col = -ring; col < cols + ring; col++) {
      const x = col, y = rows - 1 - row;
      const c = document.createElement("div");
      c.className = "cell";
      c.dataset.x = x;
      c.dataset.y = y;
      const inside = row >= 0 && row < rows && col >= 0 && col < cols;
      if (hex) {
        c.style.gridRow = String(row + ring + 1);
        c.style.gridColumn = `${1 + 2 * (col + ring) + y + ring} / span 2`;
        if (inside && view.edges) edgeColours(c, x, y, rows, cols);
      }
      if (!inside) {
        c.classList.add("ring");
      } else {
        const t = view.board[row][col];
        c.dataset.token = t;
        const look = (view.looks || {})[t];
        if (look && look.side >= 0) {
          const p = document.createElement("div");
          p.className = "piece p" + look.side;
          p.textContent = look.label || "";
          c.appendChild(p);
        } else if (look && look.mark) {
          c.classList.add(look.mark);
        } else if (!look && t !== "." && t !== "+") {
          const p = document.createElement("div");
          p.className = "token";
          p.textContent = t;
          c.appendChild(p);
        }
        if (col === 0 || row === rows - 1) {
          const k = document.createElement("span");
          k.className = "coord";
          k.textContent = String.fromCharCode(97 + x) + (y + 1);
          c.appendChild(k);
        }
      }
      const last = view.last;
      if (last && ((last.from && last.from[0] === x && last.from[1] === y) || (last.to && last.to[0] === x && last.to[1] === y))) c.classList.add("last");
      if (onClick) c.addEventListener("click", () => onClick(x, y));
      el.appendChild(c);
    }
  }
}

// edgeColours paints a cell's sides on the board's edges in the colour
// of the side that joins them: side 0 the bottom and top, side 1 the left
// and right.
function edgeColours(c, x, y, rows, cols) {
  const layers = [];
  if (y === rows - 1) layers.push("linear-gradient(to bottom, var(--side0) 30%, transparent 30%)");
  if (y === 0) layers.push("linear-gradient(to top, var(--side0) 30%, transparent 30%)");
  if (x === 0) layers.push("linear-gradient(to right, var(--side1) 12%, transparent 12%)");
  if (x === cols - 1) layers.push("linear-gradient(to left, var(--side1) 12%, transparent 12%)");
  if (layers.length) {
    c.style.background = layers.join(", ") + ", var(--hex-line)";
    c.classList.add("edge");
  }
}

function cellEl(el, x, y) { return el.querySelector(`.cell[data-x="${x}"][data-y="${y}"]`); }

// ---- Start ----
async function start() {
  info = await api("/api/info");
  for (const g of info.games) $("game").add(new Option(g, g));
  fillSides();
  $("game").addEventListener("change", () => {
    // The boxes held the last game's position and moves: clear them, and
    // the analysis with them.
    $("setup").value = "";
    $("export-text").value = "";
    $("export-text").classList.add("hidden");
    stopAnalysis();
    $("analysis-value").textContent = "";
    $("analysis-moves").innerHTML = "";
    fillSides();
    newGame();
  });
  $("new").addEventListener("click", newGame);
  $("undo").addEventListener("click", undo);
  $("setup-go").addEventListener("click", setUp);
  $("export").addEventListener("click", exportGame);
  $("rec-analyse").addEventListener("click", analyseFromHere);
  $("value-graph").addEventListener("click", (e) => {
    const n = play.req ? play.req.moves.length : 0;
    const c = $("value-graph"), g = graphArea(c);
    const at = (e.offsetX * c.width / c.clientWidth - g.left) / g.width;
    goToPly(Math.max(0, Math.min(n, Math.round(at * Math.max(1, n)))));
  });
  $("analysis").addEventListener("change", startAnalysis);
  $("threads").addEventListener("change", startAnalysis);
  $("perfect").addEventListener("change", showPerfect);
  $("agent").addEventListener("change", startAnalysis);
  $("rec-file").addEventListener("change", loadRecordGames);
  $("rec-game").addEventListener("change", loadRecordGame);
  $("rec-ply").addEventListener("input", showPly);
  $("run").addEventListener("change", openRun);
  $("run-games").addEventListener("click", openRunGames);
  window.addEventListener("beforeunload", () => { stopAnalysis(); if (runs.source) runs.source.close(); });
  if (!(await openFromAddress())) {
    await newGame();
    // A link whose position could not be opened says why, over the new
    // game's status (it once kept the previous position without a word).
    if (play.addressError) $("status").textContent = "The link's position was not opened (" + play.addressError + "): a new game instead.";
  }
  window.szReady = true;
}
start();
