package web

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/player"
)

// cell is a board cell (x from the left, y from the bottom), as the rules
// number them.
type cell [2]int

// moveView is a legal move as the board shows it: from a cell (none for a
// pass or a pawn leaving its base) to a cell, or off the board.
type moveView struct {
	Move string `json:"move"`
	From *cell  `json:"from,omitempty"`
	To   *cell  `json:"to,omitempty"`
	Off  bool   `json:"off,omitempty"`
}

// view is a position as the page draws it.
type view struct {
	Game     string     `json:"game"`
	Start    string     `json:"start"`
	Position string     `json:"position"`
	Board    [][]string `json:"board"` // rows, top first
	ToMove   string     `json:"to_move"`
	Ply      int        `json:"ply"`
	Legal    []moveView `json:"legal"`
	Over     bool       `json:"over"`
	Result   string     `json:"result,omitempty"` // a side's name, or "tie"
	Reason   string     `json:"reason,omitempty"`
	Moves    []string   `json:"moves"`
}

func viewOf(g env.Game, s env.State, start string, moves []string) view {
	v := view{Game: g.Name(), Start: start, Position: s.String(), ToMove: g.SideName(s.ToMove()), Ply: len(moves), Moves: moves}
	if v.Moves == nil {
		v.Moves = []string{}
	}
	for _, line := range strings.Split(strings.TrimRight(s.Board(), "\n"), "\n") {
		v.Board = append(v.Board, strings.Fields(line))
	}
	n := len(v.Board)
	v.Legal = []moveView{}
	if o := s.Outcome(); o.Over {
		v.Over = true
		switch {
		case o.Winner != env.NoSide:
			v.Result, v.Reason = g.SideName(o.Winner), g.SideName(o.Winner)+" wins by the rules"
		case env.EndedByCap(s):
			v.Result, v.Reason = "tie", "tie at the ply cap"
		default:
			v.Result, v.Reason = "tie", "tie by the rules"
			if g.Name() == "slider" {
				v.Reason = "tie: two passes in a row"
			}
		}
		return v
	}
	for _, a := range s.LegalActions(nil) {
		v.Legal = append(v.Legal, geometry(s.ActionString(a), n))
	}
	return v
}

// geometry reads a move's cells from its notation: "a2R" (a piece and a
// direction: Slider, Cats & Dogs), "c3d3" (from, to: RLGame), "@c1" (a
// pawn leaving its base), "pass".
func geometry(move string, n int) moveView {
	mv := moveView{Move: move}
	parse := func(t string) (cell, bool) {
		if len(t) != 2 || t[0] < 'a' || t[0] > 'z' || t[1] < '1' || t[1] > '9' {
			return cell{}, false
		}
		return cell{int(t[0] - 'a'), int(t[1] - '1')}, true
	}
	switch {
	case move == "pass":
	case strings.HasPrefix(move, "@"):
		if to, ok := parse(move[1:]); ok {
			mv.To = &to
		}
	case len(move) == 4:
		from, ok1 := parse(move[:2])
		to, ok2 := parse(move[2:])
		if ok1 && ok2 {
			mv.From, mv.To = &from, &to
		}
	case len(move) == 3:
		from, ok := parse(move[:2])
		if !ok {
			break
		}
		d := map[byte]cell{'U': {0, 1}, 'D': {0, -1}, 'L': {-1, 0}, 'R': {1, 0}}[move[2]]
		to := cell{from[0] + d[0], from[1] + d[1]}
		mv.From, mv.To = &from, &to
		mv.Off = to[0] < 0 || to[1] < 0 || to[0] >= n || to[1] >= n
	}
	return mv
}

func (s *Server) state(w http.ResponseWriter, r *http.Request) {
	var q gameReq
	if err := decode(w, r, &q); err != nil {
		s.fail(w, r, http.StatusBadRequest, err)
		return
	}
	g, st, err := q.position()
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err)
		return
	}
	reply(w, viewOf(g, st, q.Start, q.Moves))
}

// moveReq asks a player for its move in a position.
type moveReq struct {
	gameReq
	Player string `json:"player"`
}

func (s *Server) move(w http.ResponseWriter, r *http.Request) {
	var q moveReq
	if err := decode(w, r, &q); err != nil {
		s.fail(w, r, http.StatusBadRequest, err)
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
	p, err := player.FromSpec(sp, g, player.Options{Seed: q.Seed ^ uint64(len(q.Moves))})
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, badRequest("player: %v", err))
		return
	}
	if c, ok := p.(interface{ Close() error }); ok {
		defer c.Close()
	}
	ctx, cancel := context.WithTimeout(r.Context(), MaxMoveTime+5*time.Second)
	defer cancel()
	if err := s.acquire(ctx); err != nil {
		s.fail(w, r, http.StatusServiceUnavailable, err)
		return
	}
	defer s.release()
	t0 := time.Now()
	a, err := p.Move(ctx, st)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, fmt.Errorf("%s: %v", q.Player, err))
		return
	}
	if !env.IsLegal(st, a) {
		s.fail(w, r, http.StatusInternalServerError, fmt.Errorf("%s chose an illegal move", q.Player))
		return
	}
	out := map[string]any{"move": st.ActionString(a), "seconds": time.Since(t0).Seconds()}
	if rep, ok := p.(player.Reporter); ok {
		v, n := rep.LastSearch()
		out["value"], out["visits"] = v, n
	}
	reply(w, out)
}

// seedFrom gives an analysis its own random stream.
func seedFrom(q gameReq) *rand.Rand { return rand.New(rand.NewPCG(q.Seed, uint64(len(q.Moves)))) }
