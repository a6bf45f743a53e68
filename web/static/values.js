// The play page's value bar and graph: what the agent's search or the
// analysis last said of each position of the game.

// values[ply] is the value of the position after ply moves for the first
// side, as the agent's search or the analysis last saw it.
function noteValue(ply, valueForMover, mover) {
  const sides = sidesOf($("game").value);
  play.values = play.values || [];
  play.values[ply] = mover === sides[0] ? valueForMover : -valueForMover;
  drawValues();
}

// graphArea is the value graph's plot inside its margins (labels left and
// below), in canvas pixels.
function graphArea(c) {
  const left = 48, right = 6, top = 8, bottom = 16;
  return { left, top, width: c.width - left - right, height: c.height - top - bottom };
}

// drawValues shows the last value as a bar (the first side's share in its
// colour) and every value over the game as a graph; a click on the graph
// goes to that ply.
function drawValues() {
  const vals = play.values || [];
  let last;
  for (let i = vals.length - 1; i >= 0; i--) if (vals[i] !== undefined) { last = vals[i]; break; }
  $("value-fill").style.width = (last === undefined ? 50 : 50 + 50 * last) + "%";
  $("value-bar").dataset.value = last === undefined ? "" : last.toFixed(3);
  const c = $("value-graph"), ctx = c.getContext("2d"), W = c.width, H = c.height;
  const n = Math.max(1, (play.req ? play.req.moves.length : 0));
  const g = graphArea(c);
  const x = (i) => g.left + i / n * g.width, y = (v) => g.top + (1 - v) / 2 * g.height;
  ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, W, H);
  // Axes: the first side's expected score on the left, plies below.
  ctx.font = "10px sans-serif"; ctx.fillStyle = "#555"; ctx.textBaseline = "middle"; ctx.textAlign = "right";
  const first = sidesOf($("game").value)[0];
  // A long side name (Hex's "Blue") would not fit left of the graph.
  const top = ctx.measureText(first + " 100%").width <= g.left - 4 ? first + " 100%" : first.slice(0, 1) + " 100%";
  for (const [v, label] of [[1, top], [0, "50%"], [-1, "0%"]]) {
    ctx.strokeStyle = v === 0 ? "#bbb" : "#eee";
    ctx.beginPath(); ctx.moveTo(g.left, y(v)); ctx.lineTo(g.left + g.width, y(v)); ctx.stroke();
    ctx.fillText(label, g.left - 3, y(v));
  }
  ctx.textBaseline = "top"; ctx.textAlign = "center";
  for (const i of [...new Set([0, Math.round(n / 2), n])]) ctx.fillText(i === 0 ? "ply 0" : String(i), Math.min(x(i), W - 10), g.top + g.height + 2);
  ctx.strokeStyle = "#2c6fbb"; ctx.beginPath();
  let started = false;
  vals.forEach((v, i) => {
    if (v === undefined) return;
    if (started) ctx.lineTo(x(i), y(v)); else { ctx.moveTo(x(i), y(v)); started = true; }
  });
  ctx.stroke();
  c.dataset.points = vals.filter((v) => v !== undefined).length;
}
