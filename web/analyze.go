package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
)

// analyzeReq asks for a trained player's view of a position.
type analyzeReq struct {
	gameReq
	Player string `json:"player"`
	Sims   int    `json:"sims"`
	Top    int    `json:"top"`
}

// analysis is one update of a running search.
type analysis struct {
	Value  float32    `json:"value"` // for the side to move
	Visits int        `json:"visits"`
	Moves  []candView `json:"moves"`
	Done   bool       `json:"done"`
	// Proof is what the search proved for the side to move: "win in 5",
	// "loss in 4", "draw", or nothing.
	Proof string `json:"proof,omitempty"`
}

type candView struct {
	moveView
	Share float64 `json:"share"`
	Proof string  `json:"proof,omitempty"`
}

// analyze streams a search's view of a position as server-sent events, an
// update every few hundred simulations, until the budget is spent or the
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
	tp, trained, err := player.Trained(sp)
	weights := tp.Weights
	if !trained {
		s.fail(w, r, http.StatusBadRequest, badRequest("only trained players (net:, player:) analyse positions"))
		return
	}
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, badRequest("%v", err))
		return
	}
	if err := weights.Arch.CheckGame(g); err != nil {
		s.fail(w, r, http.StatusBadRequest, badRequest("the player does not play %s: %v", g.Describe(), err))
		return
	}
	sims := q.Sims
	if sims <= 0 {
		sims = 2000
	}
	sims = min(sims, MaxSims)
	top := q.Top
	if top <= 0 || top > 20 {
		top = 5
	}
	net, err := model.NewNet(weights)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err)
		return
	}
	search := tp.Search
	search.Sims, search.Time = sims, 0
	tree, err := mcts.NewTree(search, seedFrom(q.gameReq))
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err)
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		s.fail(w, r, http.StatusInternalServerError, fmt.Errorf("streaming is not supported"))
		return
	}
	ctx := r.Context()
	if err := s.acquire(ctx); err != nil {
		s.fail(w, r, http.StatusServiceUnavailable, err)
		return
	}
	defer s.release()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	tree.Reset(st)
	fwd := net.NewForward()
	input := make([]float32, g.InputShape().Size())
	logits := make([]float32, g.ActionSize())
	values := make([]float32, 1)
	pi := make([]float32, g.ActionSize())
	send := func(done bool) bool {
		tree.Policy(pi)
		a := analysis{Value: tree.Value(), Visits: tree.Sims(), Done: done, Proof: mcts.Describe(tree.RootProof())}
		for _, act := range st.LegalActions(nil) {
			proof := mcts.Describe(tree.ChildProof(act))
			if pi[act] > 0 || proof != "" {
				a.Moves = append(a.Moves, candView{moveView: shapeOf(st, act), Share: float64(pi[act]), Proof: proof})
			}
		}
		sort.SliceStable(a.Moves, func(i, j int) bool { return a.Moves[i].Share > a.Moves[j].Share })
		if len(a.Moves) > top {
			a.Moves = a.Moves[:top]
		}
		data, _ := json.Marshal(a)
		if _, err := fmt.Fprintf(w, "data: %s\n\n", data); err != nil {
			return false
		}
		flusher.Flush()
		return true
	}
	// The first update comes early so that the page shows something at once
	// even when the whole budget takes less than one interval.
	last, early := time.Now(), true
	for !tree.Done() {
		if ctx.Err() != nil {
			return // the page went: the search stops with it
		}
		if leaf := tree.SelectLeaf(); leaf != nil {
			leaf.Encode(input)
			fwd.Run(1, input, logits, values)
			tree.Expand(logits, values[0])
		}
		if (early && tree.Sims() >= 64) || time.Since(last) > 200*time.Millisecond {
			if !send(false) {
				return
			}
			last, early = time.Now(), false
		}
	}
	send(true)
}
