"use strict";
// Replaying recorded games.

// ---- Replay ----
const rep = { data: null, token: 0, plyToken: 0, path: "", number: 0 };

async function loadRecords() {
  const d = await api("/api/records");
  const sel = $("rec-file");
  sel.innerHTML = "";
  sel.add(new Option("(choose a records file)", ""));
  for (const f of d.files) sel.add(new Option(f, f));
  // Open the first file at once rather than an empty board.
  if (d.files.length && !rep.data) { sel.value = d.files[0]; await loadRecordGames(); }
}

async function loadRecordGames() {
  const path = $("rec-file").value;
  const sel = $("rec-game");
  sel.innerHTML = "";
  if (!path) return;
  const d = await api("/api/record?path=" + encodeURIComponent(path));
  for (const g of d.games) sel.add(new Option(`${g.number}: ${g.players[0]} - ${g.players[1]}, ${g.result} (${g.end}, ${g.plies} plies)`, g.number));
  await loadRecordGame();
}

async function loadRecordGame() {
  const path = $("rec-file").value, n = $("rec-game").value;
  if (!path || !n) return;
  // The game already shown stays where it is.
  if (rep.data && rep.path === path && String(rep.number) === String(n)) return;
  // Only the newest request may show its game: an older answer that comes
  // late must not reset the board under the user.
  const token = ++rep.token;
  const data = await api(`/api/record?path=${encodeURIComponent(path)}&number=${n}`);
  if (token !== rep.token) return;
  rep.data = data;
  rep.path = path;
  rep.number = n;
  const r = $("rec-ply");
  r.max = rep.data.plies;
  r.value = 0;
  await showPly();
}

// showPly asks the server for the position after the slider's ply (one
// position at a time: a game may be long) and draws it, unless a newer
// request has been made meanwhile.
async function showPly() {
  if (!rep.data) return;
  const ply = parseInt($("rec-ply").value, 10);
  const token = ++rep.plyToken;
  const v = await api(`/api/record?path=${encodeURIComponent(rep.path)}&number=${rep.number}&ply=${ply}`);
  if (token !== rep.plyToken) return;
  drawBoard($("rec-board"), v, null);
  $("rec-status").textContent = `ply ${ply} of ${rep.data.plies}` + (v.over ? ": " + v.reason : ", " + v.to_move + " to move");
  $("rec-status").dataset.ply = ply;
  const note = ply > 0 ? rep.data.notes[ply - 1] : null;
  $("rec-note").textContent = note ? `${note.move}` + (note.seconds !== undefined ? `, ${note.seconds.toFixed(2)} s` : "") +
    (note.value !== undefined ? `, value ${note.value.toFixed(2)}` : "") + (note.visits !== undefined ? `, ${note.visits} visits` : "") : "";
}

// analyseFromHere opens the replayed position on the play board, with the
// analysis on and you to move: study it, or play on from it.
async function analyseFromHere() {
  if (!rep.data) return;
  const ply = parseInt($("rec-ply").value, 10);
  const moves = rep.data.notes.slice(0, ply).map((n) => n.move);
  $("game").value = rep.data.spec.name;
  fillSides();
  showSettings(rep.data.spec);
  document.querySelector('.tab[data-tab="play"]').click();
  play.req = { game: rep.data.spec, start: rep.data.start, moves, seed: 1 };
  play.values = [];
  play.variations = [];
  play.goneBack = true;
  $("analysis").checked = true;
  await refresh();
  $("you").value = play.view.to_move;
  render();
}

document.addEventListener("keydown", (e) => {
  if ($("replay").classList.contains("hidden") || !rep.data) return;
  // Arrows belong to a focused list or text box; on the slider itself the
  // browser would step it too, so the page takes the key over.
  const tag = e.target.tagName;
  if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && e.target.type !== "range")) return;
  const r = $("rec-ply");
  const max = parseInt(r.max, 10);
  let p = parseInt(r.value, 10);
  if (e.key === "ArrowRight") p = Math.min(max, p + 1);
  else if (e.key === "ArrowLeft") p = Math.max(0, p - 1);
  else if (e.key === "Home") p = 0;
  else if (e.key === "End") p = max;
  else return;
  e.preventDefault();
  r.value = p;
  showPly();
});
