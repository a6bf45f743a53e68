package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/player"
)

// analyzeReq asks for a trained player's view of a position.
type analyzeReq struct {
	gameReq
	Player string `json:"player"`
	Sims   int    `json:"sims"`
	Top    int    `json:"top"`
	// Threads searches with that many threads (0: the server's default,
	// Config.Threads).
	Threads int `json:"threads"`
	// Infinite searches until the page goes (or the tree is full: at
	// most MaxNodes nodes), whatever Sims says.
	Infinite bool `json:"infinite"`
}

// analysis is one update of a running search.
type analysis struct {
	Value  float32    `json:"value"` // for the side to move
	Visits int        `json:"visits"`
	NPS    float64    `json:"nps"`
	Plies  float32    `json:"plies,omitempty"` // expected to the end; 0 for none
	Moves  []candView `json:"moves"`
	Done   bool       `json:"done"`
	// Proof is what the search proved for the side to move: "win in 5",
	// "loss in 4", "draw", or nothing.
	Proof string `json:"proof,omitempty"`
}

type candView struct {
	moveView
	Share  float64  `json:"share"`
	Proof  string   `json:"proof,omitempty"`
	Visits int      `json:"visits"`
	Value  float32  `json:"value"` // for the side to move
	Plies  float32  `json:"plies,omitempty"`
	PV     []string `json:"pv,omitempty"`
}

// analyze streams a search's view of a position as server-sent events, an
// update every few hundred milliseconds, until the budget is spent or the
// page goes (the request's context ends, and the search with it).
func (s *Server) analyze(w http.ResponseWriter, r *http.Request) {
	raw := r.URL.Query().Get("q")
	if len(raw) > MaxBody {
		s.fail(w, r, http.StatusRequestEntityTooLarge, fmt.Errorf("query over %d bytes", MaxBody))
		return
	}
	var q analyzeReq
	if err := strictJSON([]byte(raw), &q); err != nil {
		s.fail(w, r, http.StatusBadRequest, badRequest("query q: %v", err))
		return
	}
	g, st, err := q.playable()
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err)
		return
	}
	sp, err := s.playerSpec(q.Player)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err)
		return
	}
	if k, _ := s.players.Kind(sp.Kind); !k.Search {
		s.fail(w, r, http.StatusBadRequest, badRequest("only trained players (net:, player:) analyse positions"))
		return
	}
	if q.Sims < 0 || q.Sims > MaxSims {
		s.fail(w, r, http.StatusBadRequest, badRequest("sims %d: want 1 to %d (0: 2000)", q.Sims, MaxSims))
		return
	}
	if q.Top < 0 || q.Top > 20 {
		s.fail(w, r, http.StatusBadRequest, badRequest("top %d: want 1 to 20 (0: 5)", q.Top))
		return
	}
	sims := q.Sims
	if sims == 0 {
		sims = 2000
	}
	if q.Infinite {
		sims = mcts.MaxSims
	}
	top := q.Top
	if top == 0 {
		top = 5
	}
	threads := q.Threads
	if threads == 0 {
		threads = s.cfg.Threads
	}
	if threads < 0 || threads > mcts.MaxThreads {
		s.fail(w, r, http.StatusBadRequest, badRequest("threads %d: want 1 to %d (0: the server's default)", q.Threads, mcts.MaxThreads))
		return
	}
	p, err := s.players.Build(sp, g, player.Options{Seed: q.Seed ^ uint64(len(q.Moves)), Threads: threads})
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, badRequest("%v", err))
		return
	}
	tp, ok := p.(player.Streamer)
	if !ok {
		s.fail(w, r, http.StatusBadRequest, badRequest("only trained players (net:, player:) analyse positions"))
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		s.fail(w, r, http.StatusInternalServerError, fmt.Errorf("streaming is not supported"))
		return
	}
	ctx := r.Context()
	if err := s.sem.acquire(ctx); err != nil {
		s.fail(w, r, http.StatusServiceUnavailable, err)
		return
	}
	defer s.sem.release()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	opts := player.StreamOptions{Sims: sims, Every: 200 * time.Millisecond, Top: top, Depth: 8, Seed: q.Seed ^ uint64(len(q.Moves)), Threads: threads}
	// The page going ends ctx, and the search with it.
	_ = tp.Stream(ctx, st, opts, func(p player.Progress) bool {
		a := analysis{Value: p.Value, Visits: p.Visits, NPS: p.NPS, Done: p.Done, Proof: p.Proof, Plies: max(p.Plies, 0)}
		for _, c := range p.Lines {
			a.Moves = append(a.Moves, candView{moveView: shapeOf(st, c.Action), Share: c.Share, Proof: c.Proof, Visits: c.Visits, Value: c.Value, Plies: max(c.Plies, 0), PV: c.PV})
		}
		data, _ := json.Marshal(a)
		if _, err := fmt.Fprintf(w, "data: %s\n\n", data); err != nil {
			return false
		}
		flusher.Flush()
		return true
	})
}
