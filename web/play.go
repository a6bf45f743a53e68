package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/player"
)

// cell is a board cell (x from the left, y from the bottom), as the rules
// number them.
type cell [2]int

// moveView is a legal move as the board shows it (env.MoveShape): from a
// cell (none for a drop or a button) to a cell, or off the board; a drop
// chosen by its column; or a button.
type moveView struct {
	Move   string `json:"move"`
	From   *cell  `json:"from,omitempty"`
	To     *cell  `json:"to,omitempty"`
	Off    bool   `json:"off,omitempty"`
	Column bool   `json:"column,omitempty"`
	Button string `json:"button,omitempty"`
}

// look is how the page draws a token (env.Look): a piece of side 0 or 1
// with its label, or a cell's marking.
type look struct {
	Side  int    `json:"side"` // -1: no piece
	Label string `json:"label,omitempty"`
	Mark  string `json:"mark,omitempty"`
}

// view is a position as the page draws it.
type view struct {
	Game     string          `json:"game"`
	Start    string          `json:"start"`
	Position string          `json:"position"`
	Board    [][]string      `json:"board"` // rows, top first
	Rows     int             `json:"rows"`
	Cols     int             `json:"cols"`
	Looks    map[string]look `json:"looks"`
	// OffBoard: draw a ring around the board for moves that leave it;
	// Style: "grid", "columns" or "hex"; Edges: colour the edges by the
	// side that joins them (env.Frame).
	OffBoard bool       `json:"off_board"`
	Style    string     `json:"style"`
	Edges    bool       `json:"edges,omitempty"`
	ToMove   string     `json:"to_move"`
	Ply      int        `json:"ply"`
	Legal    []moveView `json:"legal"`
	Over     bool       `json:"over"`
	Result   string     `json:"result,omitempty"` // a side's name, or "tie"
	Reason   string     `json:"reason,omitempty"`
	Moves    []string   `json:"moves"`
	// Last is the last move's shape, marked on the board.
	Last *moveView `json:"last,omitempty"`
}

func viewOf(g env.Game, s env.State, start string, moves []string) view {
	v := view{Game: g.Name(), Start: start, Position: s.String(), ToMove: g.SideName(s.ToMove()), Ply: len(moves), Moves: moves}
	if v.Moves == nil {
		v.Moves = []string{}
	}
	for _, line := range strings.Split(strings.TrimRight(s.Board(), "\n"), "\n") {
		v.Board = append(v.Board, strings.Fields(line))
	}
	v.Rows = len(v.Board)
	if v.Rows > 0 {
		v.Cols = len(v.Board[0])
	}
	fr := env.FrameOf(g)
	v.OffBoard, v.Style, v.Edges = fr.OffBoard, fr.Style, fr.Edges
	v.Looks = map[string]look{}
	if d, ok := g.(env.Drawn); ok {
		for token, l := range d.Looks() {
			v.Looks[token] = look{Side: int(l.Side), Label: l.Label, Mark: l.Mark}
		}
	}
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
		}
		return v
	}
	for _, a := range s.LegalActions(nil) {
		v.Legal = append(v.Legal, shapeOf(s, a))
	}
	return v
}

// shapeOf is a legal move as the page shows it.
func shapeOf(s env.State, a int) moveView {
	sh := env.ShapeOf(s, a)
	mv := moveView{Move: s.ActionString(a), Off: sh.Off, Column: sh.Column, Button: sh.Button}
	if sh.From != nil {
		mv.From = &cell{sh.From.Col, sh.From.Row}
	}
	if sh.To != nil {
		mv.To = &cell{sh.To.Col, sh.To.Row}
	}
	if mv.From == nil && mv.To == nil && mv.Button == "" {
		mv.Button = mv.Move
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
	v := viewOf(g, st, q.Start, q.Moves)
	v.Last = q.last
	reply(w, v)
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
	p, err := s.players.Build(sp, g, player.Options{Seed: q.Seed ^ uint64(len(q.Moves))})
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, "player") { // most errors name the player already
			msg = "player: " + msg
		}
		s.fail(w, r, http.StatusBadRequest, badRequest("%s", msg))
		return
	}
	if c, ok := p.(interface{ Close() error }); ok {
		defer c.Close()
	}
	ctx, cancel := context.WithTimeout(r.Context(), MaxMoveTime+5*time.Second)
	defer cancel()
	if err := s.sem.acquire(ctx); err != nil {
		s.fail(w, r, http.StatusServiceUnavailable, err)
		return
	}
	defer s.sem.release()
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
