package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train/health"
	"github.com/sliderzero/sliderzero/train/runfolder"
)

func (s *Server) records(w http.ResponseWriter, r *http.Request) {
	files := s.root.walk(func(path string, d fs.DirEntry) bool {
		return !d.IsDir() && strings.HasSuffix(path, ".jsonl") && d.Name() != runfolder.MetricsFile
	})
	if files == nil {
		files = []string{}
	}
	reply(w, map[string]any{"files": files})
}

// gameSummary is a line of a records file's list.
type gameSummary struct {
	Number  int       `json:"number"`
	Players [2]string `json:"players"`
	Result  string    `json:"result"`
	End     string    `json:"end"`
	Plies   int       `json:"plies"`
}

// MaxListedGames bounds the games a records file's list gives: a file of
// more (a quarter of a million self-play games) is listed up to it, with
// "more", and its later games are asked for by number.
const MaxListedGames = 10_000

// recordList lists a records file's games, up to MaxListedGames, read a
// game at a time.
func recordList(ctx context.Context, path string) (map[string]any, error) {
	out := []gameSummary{}
	more := false
	err := match.EachRecord(path, func(rec match.Record) bool {
		if len(out) == MaxListedGames {
			more = true
			return false
		}
		g, _ := games.New(rec.Spec)
		res := "tie"
		if rec.Outcome.Winner != env.NoSide && g != nil {
			res = g.SideName(rec.Outcome.Winner) + " wins"
		}
		out = append(out, gameSummary{Number: len(out) + 1, Players: rec.Players, Result: res, End: string(rec.End), Plies: len(rec.Moves)})
		return ctx.Err() == nil
	})
	return map[string]any{"games": out, "more": more}, err
}

// MaxRecordPlies bounds the games a records file may hold for replay: a
// replay builds positions by playing the moves, so a game's length is
// what one request costs.
const MaxRecordPlies = 1_000_000

// record lists a records file's games; with number=N it gives game N's
// moves, with their time, value and visits where recorded; with ply=P as
// well, the position after P moves. Positions are served one at a time,
// so that a game of any length costs a request no more than its moves.
func (s *Server) record(w http.ResponseWriter, r *http.Request) {
	path, err := s.root.resolve(r.URL.Query().Get("path"))
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err)
		return
	}
	num := r.URL.Query().Get("number")
	if num == "" {
		list, err := recordList(r.Context(), path)
		if err != nil {
			// The reader's errors name the file; fail tells it under the root.
			s.fail(w, r, http.StatusBadRequest, badRequest("%v", err))
			return
		}
		reply(w, list)
		return
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 {
		s.fail(w, r, http.StatusBadRequest, badRequest("number %q: want a game's number, from 1", num))
		return
	}
	// The file is read a game at a time, up to the one asked for.
	var rec match.Record
	seen := 0
	err = match.EachRecord(path, func(g match.Record) bool {
		seen++
		rec = g
		return seen < n && r.Context().Err() == nil
	})
	if err != nil {
		// The reader's errors name the file; fail tells it under the root.
		s.fail(w, r, http.StatusBadRequest, badRequest("%v", err))
		return
	}
	if seen < n {
		s.fail(w, r, http.StatusBadRequest, badRequest("number %q: the file holds games 1 to %d", num, seen))
		return
	}
	if len(rec.Moves) > MaxRecordPlies {
		s.fail(w, r, http.StatusBadRequest, badRequest("game %d has %d plies, more than the %d a replay takes", n, len(rec.Moves), MaxRecordPlies))
		return
	}
	g, err := games.New(rec.Spec)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, badRequest("%v", err))
		return
	}
	st, err := g.ParseState(rec.Start)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, badRequest("%v", err))
		return
	}
	if q := r.URL.Query().Get("ply"); q != "" {
		ply, err := strconv.Atoi(q)
		if err != nil || ply < 0 || ply > len(rec.Moves) {
			s.fail(w, r, http.StatusBadRequest, badRequest("ply %q: game %d has plies 0 to %d", q, n, len(rec.Moves)))
			return
		}
		var last *moveView
		for i, m := range rec.Moves[:ply] {
			a, err := st.ParseAction(m)
			if err != nil {
				s.fail(w, r, http.StatusBadRequest, badRequest("move %d (%s): %v", i+1, env.Excerpt(m, 60), err))
				return
			}
			if i == ply-1 {
				mv := shapeOf(st, a)
				last = &mv
			}
			st.Apply(a)
		}
		// The position only: its moves are the game's, sent once.
		v := viewOf(g, st, rec.Start, nil)
		v.Ply, v.Legal, v.Last = ply, []moveView{}, last
		reply(w, v)
		return
	}
	notes := make([]map[string]any, len(rec.Moves))
	for i := range rec.Moves {
		m := map[string]any{"move": rec.Moves[i]}
		if i < len(rec.Seconds) {
			m["seconds"] = rec.Seconds[i]
		}
		if i < len(rec.Values) && !math.IsNaN(float64(rec.Values[i])) {
			m["value"] = rec.Values[i]
		}
		if i < len(rec.Visits) && rec.Visits[i] > 0 {
			m["visits"] = rec.Visits[i]
		}
		notes[i] = m
	}
	reply(w, map[string]any{"number": n, "game": g.Describe(), "players": rec.Players, "end": rec.End, "detail": rec.Detail,
		"plies": len(rec.Moves), "notes": notes, "spec": games.Keep(rec.Spec), "start": rec.Start})
}

func (s *Server) runs(w http.ResponseWriter, r *http.Request) {
	dirs := s.root.walk(func(path string, d fs.DirEntry) bool {
		if !d.IsDir() {
			return false
		}
		_, err := os.Stat(filepath.Join(path, runfolder.MetricsFile))
		return err == nil
	})
	if dirs == nil {
		dirs = []string{}
	}
	reply(w, map[string]any{"runs": dirs})
}

// runView is a run's curves, a point per round (thinned to at most 400),
// and its last evaluation.
type runView struct {
	Path   string                  `json:"path"`
	Config json.RawMessage         `json:"config"`
	Rounds int                     `json:"rounds"`
	Series map[string][][2]float64 `json:"series"` // name: (minutes, value) points
	Last   *runfolder.Metrics      `json:"last_evaluation,omitempty"`
	Totals map[string]float64      `json:"totals"`
	// Health is what the metrics say of whether the run learns (package
	// health): none for a run that shows no sign of a stall.
	Health []health.Finding `json:"health"`
}

func (s *Server) runOf(dir string) (runView, error) {
	ms, err := runfolder.ReadMetrics(dir)
	if err != nil {
		return runView{}, err
	}
	cfg, err := store.ReadFile(filepath.Join(dir, runfolder.ConfigFile), 1<<20)
	if err != nil || !json.Valid(cfg) {
		cfg = []byte("{}")
	}
	rounds := 0
	if len(ms) > 0 {
		rounds = ms[len(ms)-1].Round // ReadMetrics thins a long log
	}
	v := runView{Path: s.root.relative(dir), Config: cfg, Rounds: rounds, Series: map[string][][2]float64{}, Totals: map[string]float64{}}
	step := max(1, len(ms)/400)
	add := func(name string, x, y float64) {
		if !math.IsNaN(y) && !math.IsInf(y, 0) {
			v.Series[name] = append(v.Series[name], [2]float64{x, y})
		}
	}
	for i, m := range ms {
		x := m.Elapsed / 60
		if i%step == 0 || i == len(ms)-1 {
			if m.PolicyLoss != 0 || m.ValueLoss != 0 {
				add("policy loss", x, m.PolicyLoss)
				add("value loss", x, m.ValueLoss)
				add("entropy", x, m.Entropy)
			}
			add("games/s", x, m.GamesPerSec)
			add("simulations/s (thousands)", x, m.SimsPerSec/1000)
			total := 0
			for _, n := range m.Wins {
				total += n
			}
			for side, n := range m.Wins {
				add("self-play "+side+" (%)", x, 100*float64(n)/float64(max(total, 1)))
			}
		}
		// Evaluations are few: every one is kept.
		if m.Elo != nil {
			add("Elo", x, *m.Elo)
			if m.EloLo != nil && m.EloHi != nil {
				add("Elo 95% low", x, *m.EloLo)
				add("Elo 95% high", x, *m.EloHi)
			}
			mc := m
			v.Last = &mc
		}
		for _, a := range m.Accuracy {
			add("accuracy "+a.Set+" (%)", x, 100*a.Share())
		}
	}
	if len(ms) > 0 {
		last := ms[len(ms)-1]
		v.Totals = map[string]float64{"minutes": last.Elapsed / 60, "games": float64(last.Games), "positions": float64(last.Positions), "steps": float64(last.Steps)}
	}
	v.Health = health.Check(ms, health.OptionsOf(cfg))
	if v.Health == nil {
		v.Health = []health.Finding{}
	}
	return v, nil
}

func (s *Server) runDir(r *http.Request) (string, error) {
	dir, err := s.root.resolve(r.URL.Query().Get("path"))
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, runfolder.MetricsFile)); err != nil {
		return "", badRequest("%s is not a training run (no %s)", s.root.relative(dir), runfolder.MetricsFile)
	}
	return dir, nil
}

func (s *Server) run(w http.ResponseWriter, r *http.Request) {
	dir, err := s.runDir(r)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err)
		return
	}
	v, err := s.runOf(dir)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, badRequest("%v", err))
		return
	}
	reply(w, v)
}

// runEvents streams a run's view whenever its metrics log grows, while
// the page stays.
func (s *Server) runEvents(w http.ResponseWriter, r *http.Request) {
	dir, err := s.runDir(r)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err)
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		s.fail(w, r, http.StatusInternalServerError, fmt.Errorf("streaming is not supported"))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	var lastSize int64 = -1
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		if fi, err := os.Stat(filepath.Join(dir, runfolder.MetricsFile)); err == nil && fi.Size() != lastSize {
			lastSize = fi.Size()
			v, err := s.runOf(dir)
			if err == nil {
				var b bytes.Buffer
				json.NewEncoder(&b).Encode(v)
				if _, err := fmt.Fprintf(w, "data: %s\n", b.Bytes()); err != nil {
					return
				}
				flusher.Flush()
			}
		}
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
	}
}
