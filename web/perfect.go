package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/solver"
)

// perfectReq asks for the exact value of a position and of its moves.
type perfectReq struct {
	gameReq
	// Seconds bounds the solve (0 or absent: 3; at most MaxMoveTime, more
	// or a negative time refused): an early Connect Four position can
	// take minutes, and then the answer is the bounds proven so far.
	Seconds float64 `json:"seconds"`
}

// perfectView is a position's verdict under perfect play.
type perfectView struct {
	// Verdict is for the side to move: "win for X in 9 plies", "draw".
	Verdict string `json:"verdict"`
	// Exact is false when the time ran out before every move settled.
	Exact bool          `json:"exact"`
	Scale string        `json:"scale"`
	Moves []perfectMove `json:"moves"`
}

type perfectMove struct {
	moveView
	Score   string `json:"score"`   // on Scale; lo..hi when not settled
	Verdict string `json:"verdict"` // for the mover: "wins in 9 plies"
	Best    bool   `json:"best"`    // one of the best moves
}

// exactSolverFor is the solver of st's game: the game's own, solving
// positions when asked (one shared solver, so that a game's positions
// reuse its table), or a table the server was given that covers st.
// release gives the solver back.
func (s *Server) exactSolverFor(ctx context.Context, st env.State) (x env.ExactSolver, scale string, release func(), err error) {
	g := st.Game()
	if pool, ok := s.solvers[g.Name()]; ok {
		select {
		case x := <-pool:
			if x == nil {
				// made on first use: its table is 64 MB
				if x, _, err = solver.Exact(g, 64); err != nil {
					pool <- nil
					return nil, "", nil, err
				}
			}
			return x, solver.Scale(g), func() { pool <- x }, nil
		case <-ctx.Done():
			return nil, "", nil, ctx.Err()
		}
	}
	for _, t := range s.cfg.Tables {
		if t.Covers(st) == nil {
			return t, solver.Scale(t.Game()), func() {}, nil
		}
	}
	return nil, "", nil, badRequest("no exact solver for %s here (%s is solved by search; %s needs its table: sliderzero serve --table FILE)",
		g.Describe(), solver.Titles(solver.Searched), solver.Titles(solver.Tabled))
}

// perfect answers a position's exact value and every legal move's.
func (s *Server) perfect(w http.ResponseWriter, r *http.Request) {
	var q perfectReq
	if err := decode(w, r, &q); err != nil {
		s.fail(w, r, http.StatusBadRequest, err)
		return
	}
	_, st, err := q.playable()
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err)
		return
	}
	// Checked before it becomes a duration: 9.3e9 seconds once overflowed
	// into a deadline already past, a negative time meant 3 s unsaid.
	if !(q.Seconds >= 0 && q.Seconds <= MaxMoveTime.Seconds()) {
		s.fail(w, r, http.StatusBadRequest, badRequest("seconds=%v: want 0 (the default, 3) to %g", q.Seconds, MaxMoveTime.Seconds()))
		return
	}
	limit := 3 * time.Second
	if q.Seconds > 0 {
		limit = time.Duration(q.Seconds * float64(time.Second))
	}
	ctx, cancel := context.WithTimeout(r.Context(), limit)
	defer cancel()
	// The solver first: waiting for Connect Four's one solver must not
	// hold a search slot that analyses need.
	x, scale, release, err := s.exactSolverFor(ctx, st)
	if err != nil {
		status := http.StatusBadRequest
		if ctx.Err() != nil {
			status = http.StatusServiceUnavailable
		}
		s.fail(w, r, status, err)
		return
	}
	defer release()
	if err := s.sem.acquire(ctx); err != nil {
		s.fail(w, r, http.StatusServiceUnavailable, err)
		return
	}
	defer s.sem.release()
	moves, err := env.ScoreMoves(ctx, x, st, nil, false)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		if r.Context().Err() != nil {
			return // the page went
		}
		s.fail(w, r, http.StatusBadRequest, badRequest("%v", err))
		return
	}
	_, bestActions := env.BestMoves(moves)
	v := perfectView{Verdict: solver.Verdict(st, env.PositionBounds(moves)), Exact: err == nil, Scale: scale}
	isBest := map[int]bool{}
	for _, a := range bestActions {
		isBest[a] = true
	}
	for _, m := range moves {
		v.Moves = append(v.Moves, perfectMove{moveView: shapeOf(st, m.Action), Score: m.Score.String(),
			Verdict: solver.MoveVerdict(st, m.Score), Best: isBest[m.Action] && m.Score.Exact()})
	}
	if !v.Exact {
		v.Verdict = fmt.Sprintf("%s (so far: %s ran out)", v.Verdict, limit)
	}
	reply(w, v)
}
