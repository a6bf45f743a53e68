package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/sliderzero/sliderzero/env/registry"
)

// browser finds a Chromium to drive, or skips the test loudly.
func browser(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Log("*** NO BROWSER: install Debian's chromium (apt-get install -y chromium) to run the end-to-end tests; .ci/run does ***")
	t.Skip("no chromium on this machine")
	return ""
}

// artefacts is where the tests leave their screenshots.
func artefacts(t *testing.T) string {
	dir := os.Getenv("SLIDERZERO_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	os.MkdirAll(dir, 0o755)
	return dir
}

func shot(t *testing.T, ctx context.Context, dir, name string) {
	var png []byte
	if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	os.WriteFile(filepath.Join(dir, name), png, 0o644)
}

// pageState is what the page holds of the game.
type pageState struct {
	Req struct {
		Game  registry.Spec `json:"game"`
		Start string        `json:"start"`
		Moves []string      `json:"moves"`
	} `json:"req"`
	View view `json:"view"`
}

func readPage(t *testing.T, ctx context.Context) pageState {
	var raw string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`JSON.stringify({req: play.req, view: play.view})`, &raw)); err != nil {
		t.Fatal(err)
	}
	var ps pageState
	if err := json.Unmarshal([]byte(raw), &ps); err != nil {
		t.Fatal(err)
	}
	return ps
}

// boardTokens reads the board the page shows, rows top first: the cells
// that hold a token, a row being the cells of one data-y.
func boardTokens(t *testing.T, ctx context.Context, sel string) string {
	var raw string
	js := fmt.Sprintf(`(() => { const cells = [...document.querySelectorAll(%q)].filter(c => c.dataset.token !== undefined);
		const rows = []; let y = null;
		for (const c of cells) { if (c.dataset.y !== y) { rows.push([]); y = c.dataset.y; } rows[rows.length-1].push(c.dataset.token); }
		return rows.map(r => r.join(" ")).join("\n"); })()`, sel+" .cell")
	if err := chromedp.Run(ctx, chromedp.Evaluate(js, &raw)); err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestBrowser plays a whole Slider game by clicking in a real headless
// Chromium, checking the board after every move against the game's own
// position; turns analysis on and watches it update; steps through a
// replay; opens a run's charts. Screenshots go to SLIDERZERO_ARTIFACTS.
func TestBrowser(t *testing.T) {
	exe := browser(t)
	f := newFixture(t)
	dir := artefacts(t)
	// The shipped 5x5 player, when the repository has it, gives the answer
	// time of a real network (the fixture's is tiny).
	shipped := false
	if data, err := os.ReadFile(filepath.Join("..", "checkpoints", "slider-5x5.player")); err == nil {
		shipped = os.WriteFile(filepath.Join(f.root, "slider-5x5.player"), data, 0o644) == nil
	}
	// Chromium's helper processes may still write to the profile for a
	// moment after the browser exits, so it is removed with retries rather
	// than by t.TempDir, whose cleanup fails the test on a busy folder.
	profile, err := os.MkdirTemp("", "sliderzero-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for range 20 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1300, 950),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-quic", true), chromedp.NoFirstRun,
		chromedp.UserDataDir(profile))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()

	t0 := time.Now()
	if err := chromedp.Run(ctx, chromedp.Navigate(f.ts.URL), chromedp.Poll(`window.szReady === true`, nil)); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	load := time.Since(t0)

	// A game of each registered game against random, played by clicking
	// (Slider on 4x4 with a screenshot).
	for _, name := range registry.Names() {
		size := ""
		if name == registry.Names()[0] {
			size = "4"
		}
		playByClicks(t, ctx, name, size, dir)
		if name == "hex" {
			hexDrawn(t, ctx)
		}
	}

	// The trained player, with analysis on: the shown search advances.
	err = chromedp.Run(ctx,
		chromedp.Evaluate(fmt.Sprintf(`document.getElementById("game").value = %q; fillSides(); true`, registry.Names()[0]), nil),
		chromedp.SetValue("#setting-size", "4", chromedp.ByID),
		chromedp.SetValue("#agent", "player:"+f.player, chromedp.ByID),
		chromedp.SetValue("#sims", "100", chromedp.ByID),
		chromedp.Click("#new", chromedp.ByID),
		chromedp.Poll(`play.view && play.req.start !== "" && play.view.start === play.req.start && play.view.moves.length === 0 && !play.busy`, nil),
		chromedp.Click(`#board .cell[data-x="0"][data-y="1"]`, chromedp.ByQuery),
		chromedp.Click(`#board .cell[data-x="1"][data-y="1"]`, chromedp.ByQuery),
		chromedp.Poll(`play.view.moves.length === 2`, nil),
		chromedp.Click("#analysis", chromedp.ByID),
		chromedp.Poll(`Number(document.getElementById("analysis-value").dataset.visits) > 0`, nil))
	if err != nil {
		t.Fatalf("analysis: %v", err)
	}
	// Every update shows more simulations than the one before (the last,
	// which says the search is done, may repeat the count: the search of
	// the 4x4 fixture fills its tree in well under a second).
	var log []int
	if err := chromedp.Run(ctx, chromedp.Poll(`play.analysisLog.length >= 2`, nil), chromedp.Evaluate(`play.analysisLog`, &log)); err != nil {
		t.Fatalf("analysis updates: %v", err)
	}
	for i := 1; i < len(log); i++ {
		if log[i] < log[i-1] || log[i] == log[i-1] && i < len(log)-1 {
			t.Errorf("analysis updates went %v: the search does not advance", log)
		}
	}
	// Each line shows its visits, value and principal variation.
	// Polled and read in one expression: each update redraws the list,
	// so a line found by one query can be empty by the next.
	var lineText string
	if err := chromedp.Run(ctx, chromedp.Poll(`[...document.querySelectorAll("#analysis-moves li")].map(li => li.textContent).find(t => t.includes("visits, value")) || false`, &lineText)); err != nil || !strings.Contains(lineText, "visits, value") {
		t.Errorf("an analysis line: %v %q", err, lineText)
	}
	// The analysis goes on past the 4,000 simulations it once stopped at,
	// until it is switched off; then the count stands still.
	var before, stood int
	err = chromedp.Run(ctx,
		chromedp.Poll(`Number(document.getElementById("analysis-value").dataset.visits) > 4000`, nil, chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.Click("#analysis", chromedp.ByID),
		chromedp.Sleep(300*time.Millisecond),
		chromedp.Evaluate(`Number(document.getElementById("analysis-value").dataset.visits)`, &before),
		chromedp.Sleep(700*time.Millisecond),
		chromedp.Evaluate(`Number(document.getElementById("analysis-value").dataset.visits)`, &stood))
	if err != nil || before <= 4000 || stood != before {
		t.Errorf("analysis past 4,000 simulations, then stopped: %v, %d then %d", err, before, stood)
	}
	chromedp.Run(ctx, chromedp.Click("#analysis", chromedp.ByID))
	shot(t, ctx, dir, "analysis.png")

	// The time from the click on a target to the agent's answer on the
	// board, at 100 simulations.
	answer := func(size, agent string) string {
		t.Helper()
		err := chromedp.Run(ctx,
			chromedp.Evaluate(`document.getElementById("analysis").checked = false; stopAnalysis()`, nil),
			chromedp.SetValue("#setting-size", size, chromedp.ByID),
			chromedp.SetValue("#agent", agent, chromedp.ByID),
			chromedp.SetValue("#sims", "100", chromedp.ByID),
			chromedp.SetValue("#setting-blocked", "none", chromedp.ByID),
			chromedp.Click("#new", chromedp.ByID),
			chromedp.Poll(`play.view && play.req.start !== "" && play.view.start === play.req.start && !play.busy && play.view.to_move === "H"`, nil))
		if err != nil {
			t.Fatalf("a new game against %s: %v", agent, err)
		}
		ps := readPage(t, ctx)
		mv := ps.View.Legal[0]
		before := len(ps.Req.Moves)
		cellSel := func(c *cell) string { return fmt.Sprintf(`#board .cell[data-x="%d"][data-y="%d"]`, c[0], c[1]) }
		if err := chromedp.Run(ctx, chromedp.Click(cellSel(mv.From), chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		err = chromedp.Run(ctx, chromedp.Click(cellSel(mv.To), chromedp.ByQuery),
			chromedp.Poll(fmt.Sprintf(`play.view.moves.length >= %d && !play.busy`, before+2), nil, chromedp.WithPollingInterval(time.Millisecond)))
		took := time.Since(t0)
		var server float64
		if err == nil {
			err = chromedp.Run(ctx, chromedp.Evaluate(`window.lastAgentMs`, &server))
		}
		if err != nil {
			t.Fatalf("the answer of %s: %v", agent, err)
		}
		return fmt.Sprintf("%v (%.0f ms of it the move's request)", took.Round(time.Millisecond), server)
	}
	tiny := answer("4", "player:"+f.player)
	real := "no shipped player"
	if shipped {
		real = answer("5", "player:slider-5x5.player")
	}

	analysisBoard(t, ctx, f, dir)

	// A replay, stepped with the keyboard.
	var ply string
	err = chromedp.Run(ctx,
		chromedp.Click("#tab-replay", chromedp.ByID),
		chromedp.Poll(`document.getElementById("rec-file").options.length > 1`, nil),
		chromedp.SetValue("#rec-file", f.recs, chromedp.ByID),
		chromedp.Poll(`rep.data !== null`, nil),
		// The keys go to the page, not to the list just used.
		chromedp.Evaluate(`document.activeElement.blur()`, nil),
		chromedp.KeyEvent(kb.ArrowRight),
		chromedp.KeyEvent(kb.ArrowRight),
		chromedp.KeyEvent(kb.ArrowRight),
		// Each ply's position comes from the server, one at a time.
		chromedp.Poll(`document.getElementById("rec-status").dataset.ply === "3"`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.AttributeValue("#rec-status", "data-ply", &ply, nil, chromedp.ByID))
	if err != nil {
		var state string
		chromedp.Run(ctx, chromedp.Evaluate(`JSON.stringify({file: document.getElementById("rec-file").value, files: [...document.getElementById("rec-file").options].map(o => o.value), plies: rep.data && rep.data.plies, ply: document.getElementById("rec-status").dataset.ply, hidden: document.getElementById("replay").className})`, &state))
		t.Fatalf("replay: %v (%s)", err, state)
	}
	if ply != "3" {
		t.Errorf("after three steps the replay shows ply %s", ply)
	}
	if got := boardTokens(t, ctx, "#rec-board"); !strings.Contains(got, "H") && !strings.Contains(got, "V") {
		t.Errorf("the replay's board is empty:\n%s", got)
	}
	shot(t, ctx, dir, "replay.png")

	// "Analyse from here" opens the replayed position on the play board
	// with the analysis on.
	var moves int
	err = chromedp.Run(ctx,
		chromedp.Click("#rec-analyse", chromedp.ByID),
		chromedp.Poll(`!document.getElementById("play").classList.contains("hidden") && play.view && play.view.moves.length === 3 && document.getElementById("analysis").checked`, nil),
		chromedp.Evaluate(`play.req.moves.length`, &moves))
	if err != nil || moves != 3 {
		t.Fatalf("analyse from here: %v (%d moves)", err, moves)
	}
	chromedp.Run(ctx, chromedp.Evaluate(`stopAnalysis(); document.getElementById("analysis").checked = false; true`, nil))

	// A run's page: its charts are drawn.
	var charts int
	err = chromedp.Run(ctx,
		chromedp.Click("#tab-runs", chromedp.ByID),
		chromedp.Poll(`document.getElementById("run").options.length > 1`, nil),
		chromedp.SetValue("#run", f.run, chromedp.ByID),
		chromedp.Poll(`document.querySelectorAll("#charts canvas").length >= 3 && [...document.querySelectorAll("#charts canvas")].every(c => c.dataset.yticks)`, nil),
		chromedp.Evaluate(`document.querySelectorAll("#charts canvas").length`, &charts))
	if err != nil {
		t.Fatalf("runs: %v", err)
	}
	// Round ticks: minutes in steps of 1, 2 or 5 times a power of ten, Elo
	// in hundreds, whatever the data's own ends.
	var ticks []string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`[[0, 9.7, 5], [-741, -22.8, 4], [0.00038, 0.00048, 4], [150000, 580000, 4], [0, 10.01, 5]].map(([lo, hi, n]) => { const t = niceTicks(lo, hi, n); return t.ticks.map(v => tickLabel(v, t.step)).join(" "); })`, &ticks)); err != nil {
		t.Fatal(err)
	}
	if want := []string{"0 2 4 6 8 10", "-800 -600 -400 -200 0", "0.00035 0.00040 0.00045 0.00050", "0 200k 400k 600k", "0 2 4 6 8 10"}; strings.Join(ticks, "|") != strings.Join(want, "|") {
		t.Errorf("tick labels %q, want %q", ticks, want)
	}
	// Its last evaluation, each baseline's games by side.
	var seats string
	// (Waited for by its text: until the run's own data arrives, the page
	// may still show the run selected before it.)
	// The text is read in the poll that finds it: a render of the run's
	// events between a poll and a later read once emptied it under load.
	if err := chromedp.Run(ctx, chromedp.Poll(`(() => { const t = (document.querySelector("#run-last .seats") || {}).textContent || ""; return /^as H \d+-\d+.*; as V \d+-\d+/.test(t) ? t : false; })()`, &seats)); err != nil || !regexp.MustCompile(`^as H \d+-\d+.*; as V \d+-\d+`).MatchString(seats) {
		t.Errorf("the last evaluation by side: %q, %v", seats, err)
	}
	shot(t, ctx, dir, "run.png")
	// The run's self-play games open in the replay.
	err = chromedp.Run(ctx,
		chromedp.Poll(`!document.getElementById("run-games").classList.contains("hidden")`, nil),
		chromedp.Click("#run-games", chromedp.ByID),
		chromedp.Poll(`rep.data && rep.path.endsWith("selfplay.jsonl") && rep.data.plies > 0 && !document.getElementById("replay").classList.contains("hidden")`, nil))
	if err != nil {
		t.Fatalf("the run's self-play games: %v", err)
	}
	// Perfect play on Connect Four: the verdict and every column's value.
	var verdict string
	err = chromedp.Run(ctx,
		chromedp.Click("#tab-play", chromedp.ByID),
		chromedp.SetValue("#game", "connect4", chromedp.ByID),
		chromedp.Evaluate(`document.getElementById("game").dispatchEvent(new Event("change")); true`, nil),
		chromedp.Poll(`play.view && play.req.game.name === "connect4" && !play.busy && !document.getElementById("perfect-label").classList.contains("hidden")`, nil),
		chromedp.Evaluate(`showLine(["d","d","d","d","d","d","e","c","c","c","c","c","a","b","b","a"], []); true`, nil),
		chromedp.Poll(`play.view.moves.length === 16`, nil),
		chromedp.Click("#perfect", chromedp.ByID),
		chromedp.Poll(`document.querySelectorAll("#perfect-moves li").length === 6`, nil),
		chromedp.Text("#perfect-value", &verdict, chromedp.ByID))
	if err != nil || verdict != "Perfect play: win for X in 3 plies" {
		t.Errorf("the perfect-play verdict: %v %q", err, verdict)
	}
	// A move the solver did not settle gives its bounds once.
	var lines []string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`[perfectMoveText({move: "a", verdict: "not settled (0..1)", score: "0..1", best: false}), perfectMoveText({move: "d", verdict: "wins in 3 plies", score: "17", best: true}), perfectMoveText({move: "a5", verdict: "wins in 9 plies", score: "9", best: true})]`, &lines)); err != nil ||
		strings.Join(lines, "|") != "a: not settled (0..1)|d: wins in 3 plies (score 17) - best|a5: wins in 9 plies (score 9) - best" {
		t.Errorf("the perfect-play moves: %v %q", err, lines)
	}
	// Connect Four is drawn as itself: an upright frame of 7x6 holes, no
	// ring of cells for moves off the board (Slider has one); the
	// position box no longer holds Slider's position.
	var frame []int
	if err := chromedp.Run(ctx, chromedp.Evaluate(`[document.querySelectorAll("#board .cell").length, document.querySelectorAll("#board .cell.ring").length, document.getElementById("board").classList.contains("columns") ? 1 : 0, document.getElementById("setup").value.length]`, &frame)); err != nil || len(frame) != 4 || frame[0] != 42 || frame[1] != 0 || frame[2] != 1 || frame[3] != 0 {
		t.Errorf("the Connect Four board: %v cells, ring cells, columns style, characters in the position box: %v", err, frame)
	}
	shot(t, ctx, dir, "perfect.png")
	// The address holds the position: opened again, it shows the same
	// board, the game's moves and all.
	var href string
	var after []string
	err = chromedp.Run(ctx, chromedp.Location(&href))
	if err == nil {
		// A query makes it a new page load, not a jump within the page.
		err = chromedp.Run(ctx, chromedp.Navigate(strings.Replace(href, "/#", "/?reopened#", 1)), chromedp.Poll(`window.szReady === true`, nil),
			chromedp.Evaluate(`[play.req.game.name, String(play.view.moves.length), play.view.position]`, &after))
	}
	if err != nil || !strings.Contains(href, "#") || len(after) != 3 || after[0] != "connect4" || after[1] != "16" {
		t.Errorf("the position's address %q opened again: %v %v", href, after, err)
	}
	// A link with a move that is not legal says so, over the new game it
	// starts instead (it once kept the previous position without a word).
	var status string
	bad := f.ts.URL + "/?bad#" + url.PathEscape(`{"game":{"name":"connect4"},"start":"","moves":["d","z"]}`)
	err = chromedp.Run(ctx, chromedp.Navigate(bad), chromedp.Poll(`window.szReady === true`, nil), chromedp.Text("#status", &status, chromedp.ByID))
	if err != nil || !strings.Contains(status, "was not opened") || !strings.Contains(status, "z") {
		t.Errorf("a link with an illegal move: %v %q", err, status)
	}
	// A size out of its range is sent as given, and the server's refusal
	// shown (it was once dropped, and the default size played).
	err = chromedp.Run(ctx,
		chromedp.SetValue("#game", "slider", chromedp.ByID),
		chromedp.Evaluate(`document.getElementById("game").dispatchEvent(new Event("change")); true`, nil),
		chromedp.Poll(`play.view && play.req.game.name === "slider" && !play.busy`, nil),
		chromedp.Evaluate(`settingControl("size").value = "12"; newGame(); true`, nil),
		chromedp.Poll(`document.getElementById("status").textContent.includes("12")`, nil),
		chromedp.Text("#status", &status, chromedp.ByID))
	if err != nil || !strings.Contains(status, "3 to 8") {
		t.Errorf("a size out of its range: %v %q", err, status)
	}
	t.Logf("page load %.0f ms; from a click to the agent's answer on the board at 100 simulations: %s with the fixture's 4x4 network, %s with the shipped 5x5 player; %d charts; screenshots in %s",
		float64(load.Milliseconds()), tiny, real, charts, dir)
}

// hexDrawn checks that Hex is drawn as itself: hexagons, each row half a
// cell right of the one below and a quarter of a cell into it.
func hexDrawn(t *testing.T, ctx context.Context) {
	var hex []float64
	err := chromedp.Run(ctx, chromedp.Evaluate(`(() => { const b = document.getElementById("board");
	const r = (x, y) => b.querySelector('.cell[data-x="' + x + '"][data-y="' + y + '"]').getBoundingClientRect();
	const a1 = r(0, 0), a2 = r(0, 1), b1 = r(1, 0);
	return [b.classList.contains("hex") ? 1 : 0, getComputedStyle(b.querySelector(".cell")).clipPath.startsWith("polygon") ? 1 : 0,
		a2.left - a1.left, a1.top - a2.top, b1.left - a1.left, a1.height]; })()`, &hex))
	if err != nil || len(hex) != 6 || hex[0] != 1 || hex[1] != 1 || hex[2] != hex[4]/2 || hex[3] != hex[5]*3/4 {
		t.Errorf("the Hex board: %v; hex style, hexagons, a2's shift right and up from a1, b1's shift, a cell's height: %v", err, hex)
	}
}
