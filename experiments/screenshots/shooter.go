package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"

	"github.com/chromedp/chromedp"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/match"
)

// shooter drives the page.
type shooter struct {
	ctx  context.Context
	base string
	out  string
}

// do runs actions, with a deadline.
func (s *shooter) do(d time.Duration, actions ...chromedp.Action) error {
	ctx, cancel := context.WithTimeout(s.ctx, d)
	defer cancel()
	return chromedp.Run(ctx, actions...)
}

// js evaluates a statement of the page's own code.
func js(code string) chromedp.Action {
	return chromedp.Evaluate(code+"; true", nil)
}

// await evaluates an expression of the page's code, waiting for its
// promise.
func await(code string, res any) chromedp.Action {
	return chromedp.Evaluate(code, res, func(p *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams {
		return p.WithAwaitPromise(true)
	})
}

func poll(cond string) chromedp.Action {
	return chromedp.Poll(cond, nil, chromedp.WithPollingInterval(50*time.Millisecond))
}

// shot writes the whole page as name.
func (s *shooter) shot(name string) error {
	var png []byte
	if err := s.do(time.Minute, chromedp.FullScreenshot(&png, 100)); err != nil {
		return err
	}
	path := filepath.Join(s.out, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		return err
	}
	say("wrote %s (%d KB)", path, (len(png)+1023)/1024)
	return nil
}

// open loads the page on a position through its address, as a link to
// it would: the game, its start and moves, and the lines kept beside.
func (s *shooter) open(rec match.Record, moves []string, lines [][]string) error {
	if lines == nil {
		lines = [][]string{}
	}
	q, err := json.Marshal(map[string]any{"game": rec.Spec, "start": rec.Start, "moves": moves, "lines": lines})
	if err != nil {
		return err
	}
	u := fmt.Sprintf("%s/?t=%d#%s", s.base, time.Now().UnixNano(), url.PathEscape(string(q)))
	return s.do(time.Minute, chromedp.Navigate(u), poll(`window.szReady === true`),
		poll(fmt.Sprintf(`play.view && play.view.moves.length === %d && !play.busy`, len(moves))))
}

// study sets the page up on the position it shows: you to move, agent
// chosen, the graph of the game's values so far from the record, and
// the analysis and perfect play switched on as asked.
func (s *shooter) study(rec match.Record, ply int, agent string, analysis, perfect bool) error {
	// The record's values are the searching player's, for the side to
	// move before its move: the graph's are the first side's, by ply.
	vals := map[int]float64{}
	g, err := games.New(rec.Spec)
	if err != nil {
		return err
	}
	st, err := g.ParseState(rec.Start)
	if err != nil {
		return err
	}
	for k := 0; k < ply && k < len(rec.Values) && k < len(rec.Visits); k++ {
		mover := st.ToMove()
		if v := float64(rec.Values[k]); rec.Visits[k] > 0 && !math.IsNaN(v) && strings.HasPrefix(rec.Players[mover], "player:") {
			if mover != 0 {
				v = -v
			}
			vals[k] = v
		}
		a, err := st.ParseAction(rec.Moves[k])
		if err != nil {
			return err
		}
		st.Apply(a)
	}
	vj, _ := json.Marshal(vals)
	a, _ := json.Marshal(agent)
	setup := fmt.Sprintf(`$("you").value = play.view.to_move; $("sims").value = "800";
		if (%s) $("agent").value = %s;
		play.values = []; for (const [k, v] of Object.entries(%s)) play.values[+k] = v;
		render()`, a, a, vj)
	if err := s.do(time.Minute, js(setup)); err != nil {
		return err
	}
	if analysis {
		err := s.do(time.Minute, js(`$("analysis").checked = true; startAnalysis()`),
			poll(`Number($("analysis-value").dataset.visits) > 0 && $("analysis-moves").children.length > 0`))
		if err != nil {
			return fmt.Errorf("the analysis: %w", err)
		}
	}
	if perfect {
		var verdict string
		err := s.do(time.Minute, poll(`!$("perfect-label").classList.contains("hidden")`),
			js(`$("perfect").checked = true; showPerfect()`),
			poll(`$("perfect-value").textContent.startsWith("Perfect play") && $("perfect-moves").children.length > 0`),
			chromedp.Text("#perfect-value", &verdict, chromedp.ByID))
		if err != nil {
			return fmt.Errorf("the perfect-play verdict: %w", err)
		}
		say("  %s", verdict)
	}
	return nil
}

// settle lets the analysis search on to visits simulations (or for at
// most wait), then stops it where it is, so that the picture holds still.
func (s *shooter) settle(visits int, wait time.Duration) error {
	err := s.do(wait, poll(fmt.Sprintf(`Number($("analysis-value").dataset.visits) >= %d || $("analysis-value").textContent.includes("(done)")`, visits)))
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var text string
	if err := s.do(time.Minute, js(`stopAnalysis()`), chromedp.Text("#analysis-value", &text, chromedp.ByID)); err != nil {
		return err
	}
	say("  %s", text)
	return nil
}

// middle is the ply of a record's middle game: at, or earlier in a short
// game, never its end.
func middle(rec match.Record, at int) int {
	return max(1, min(at, len(rec.Moves)-6))
}

// slider: play-analysis.png, then move-list.png with the analysis's
// other lines kept.
func (s *shooter) slider(rec match.Record, agent string, perfect bool) error {
	ply := middle(rec, 10)
	if perfect {
		ply = s.choosePly(rec, ply, min(40, len(rec.Moves)-6), ply)
	}
	moves := rec.Moves[:ply]
	if err := s.open(rec, moves, nil); err != nil {
		return err
	}
	if err := s.study(rec, ply, agent, true, perfect); err != nil {
		return err
	}
	if err := s.settle(200_000, 45*time.Second); err != nil {
		return err
	}
	if err := s.shot("play-analysis.png"); err != nil {
		return err
	}
	// The analysis's lines: the best played on three plies, the next two
	// kept beside it.
	var pvs [][]string
	err := s.do(time.Minute, chromedp.Evaluate(`[...document.querySelectorAll("#analysis-moves li")].map(li => { const m = li.textContent.match(/; line (.*)$/); return m ? m[1].split(" ") : [li.textContent.split(":")[0]]; })`, &pvs))
	if err != nil {
		return err
	}
	if len(pvs) < 3 {
		return fmt.Errorf("the analysis shows %d lines, want 3", len(pvs))
	}
	line := func(pv []string, n int) []string {
		return append(append([]string{}, moves...), pv[:min(n, len(pv))]...)
	}
	cur := line(pvs[0], 3)
	lines := [][]string{line(pvs[1], 4), line(pvs[2], 4)}
	// And one from earlier in the game: the move before last, answered
	// otherwise.
	if ply >= 3 {
		var alt []string
		q, _ := json.Marshal(map[string]any{"game": rec.Spec, "start": rec.Start, "moves": rec.Moves[:ply-2]})
		err := s.do(time.Minute, await(fmt.Sprintf(`api("/api/state", %s).then(v => v.legal.map(m => m.move))`, q), &alt))
		if err != nil {
			return err
		}
		for _, m := range alt {
			if m != rec.Moves[ply-2] {
				lines = append(lines, append(append([]string{}, rec.Moves[:ply-2]...), m))
				break
			}
		}
	}
	if err := s.open(rec, cur, lines); err != nil {
		return err
	}
	if err := s.study(rec, ply, agent, false, false); err != nil {
		return err
	}
	var vars int
	if err := s.do(time.Minute, chromedp.Evaluate(`document.querySelectorAll("#history .variation").length`, &vars)); err != nil || vars < len(lines) {
		return fmt.Errorf("the move list shows %d variations, want %d (%v)", vars, len(lines), err)
	}
	return s.shot("move-list.png")
}

// connect4: play-connect4.png, a middle game with the analysis and the
// solver's verdict.
func (s *shooter) connect4(rec match.Record, agent string) error {
	ply := middle(rec, 12)
	ply = s.choosePly(rec, ply, len(rec.Moves)-4, ply)
	if err := s.open(rec, rec.Moves[:ply], nil); err != nil {
		return err
	}
	if err := s.study(rec, ply, agent, true, true); err != nil {
		return err
	}
	if err := s.settle(100_000, 30*time.Second); err != nil {
		return err
	}
	return s.shot("play-connect4.png")
}

// perfectView is what the app's /api/perfect answers.
type perfectView struct {
	Verdict string `json:"verdict"`
	Exact   bool   `json:"exact"`
	Moves   []struct {
		Move    string `json:"move"`
		Verdict string `json:"verdict"`
		Best    bool   `json:"best"`
	} `json:"moves"`
}

// choosePly is the first ply from..to of the game whose position the
// solver settles and that holds a choice: two moves or more that do not
// lose, and a move that is not best; or else ply.
func (s *shooter) choosePly(rec match.Record, from, to, ply int) int {
	for k := from; k <= to; k++ {
		body, _ := json.Marshal(map[string]any{"game": rec.Spec, "start": rec.Start, "moves": rec.Moves[:k]})
		resp, err := http.Post(s.base+"/api/perfect", "application/json", bytes.NewReader(body))
		if err != nil {
			break
		}
		var v perfectView
		err = json.NewDecoder(resp.Body).Decode(&v)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || !v.Exact {
			continue
		}
		best, holds := 0, 0
		for _, m := range v.Moves {
			if m.Best {
				best++
			}
			if !strings.HasPrefix(m.Verdict, "loses") {
				holds++
			}
		}
		if best < len(v.Moves) && holds >= 2 {
			return k
		}
	}
	return ply
}

// hex: play-hex.png, a middle game with the solver's verdict (and the
// analysis, with a trained player).
func (s *shooter) hex(rec match.Record, agent string) error {
	ply := middle(rec, 8)
	if err := s.open(rec, rec.Moves[:ply], nil); err != nil {
		return err
	}
	if agent == "" {
		agent = "alphabeta"
	}
	trained := strings.HasPrefix(agent, "player:")
	if err := s.study(rec, ply, agent, trained, true); err != nil {
		return err
	}
	if trained {
		if err := s.settle(100_000, 30*time.Second); err != nil {
			return err
		}
	}
	return s.shot("play-hex.png")
}

// replay: replay.png, the recorded game at a searched move of the shipped
// player at or before its middle (before the search proved the game),
// with the move's time, value and visits.
func (s *shooter) replay(path string, rec match.Record) error {
	ply := len(rec.Moves) / 2
	for ply > 1 && (rec.Visits[ply-1] == 0 || math.Abs(float64(rec.Values[ply-1])) > 0.99) {
		ply--
	}
	p, _ := json.Marshal(path)
	// The tab opens the first records file under the root unless a game
	// is shown: one is said to be, and the file chosen once listed.
	return errors.Join(s.do(2*time.Minute,
		chromedp.Navigate(fmt.Sprintf("%s/?t=%d", s.base, time.Now().UnixNano())), poll(`window.szReady === true`),
		js(`rep.data = {}; $("tab-replay").click()`),
		poll(fmt.Sprintf(`[...$("rec-file").options].some(o => o.value === %s)`, p)),
		js(fmt.Sprintf(`$("rec-file").value = %s; rep.data = null; loadRecordGames()`, p)),
		poll(fmt.Sprintf(`rep.data && rep.path === %s && $("rec-status").dataset.ply === "0"`, p)),
		js(fmt.Sprintf(`$("rec-ply").value = %d; showPly()`, ply)),
		poll(fmt.Sprintf(`$("rec-status").dataset.ply === "%d" && $("rec-note").textContent !== ""`, ply)),
	), s.shot("replay.png"))
}

// run: run.png, the run's page with its charts drawn and its last
// evaluation.
func (s *shooter) run(path string) error {
	p, _ := json.Marshal(path)
	err := s.do(2*time.Minute,
		chromedp.Navigate(fmt.Sprintf("%s/?t=%d", s.base, time.Now().UnixNano())), poll(`window.szReady === true`),
		js(`$("tab-runs").click()`),
		poll(fmt.Sprintf(`[...$("run").options].some(o => o.value === %s)`, p)),
		js(fmt.Sprintf(`$("run").value = %s; openRun()`, p)),
		poll(fmt.Sprintf(`$("run-totals").textContent.startsWith(%s + ":") && document.querySelectorAll("#charts canvas").length >= 5 &&
			[...document.querySelectorAll("#charts canvas")].every(c => c.dataset.yticks) && $("run-last").querySelector("h3") !== null &&
			!$("run-games").classList.contains("hidden")`, p)))
	if err != nil {
		return err
	}
	var totals string
	if err := s.do(time.Minute, chromedp.Text("#run-totals p", &totals, chromedp.ByQuery)); err != nil {
		return err
	}
	say("  %s", totals)
	return s.shot("run.png")
}
