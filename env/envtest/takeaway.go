// Package envtest holds a tiny game for testing code that must work for
// every game: searches, players and trainers.
package envtest

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env"
)

// TakeAway is a pile of stones; a move takes 1 or 2 and whoever takes the
// last stone wins. With Double set, side 0's turn is two moves (the second
// skipped if the pile is empty), so turns do not alternate, as in Cats &
// Dogs. Actions: 0 takes one stone, 1 takes two.
type TakeAway struct {
	Stones int
	Double bool
}

// State is a TakeAway position.
type State struct {
	g      *TakeAway
	stones int
	toMove env.Side
	step   int // moves already made this turn
	ply    int
	winner env.Side
}

func (g *TakeAway) Name() string { return "takeaway" }
func (g *TakeAway) Describe() string {
	return fmt.Sprintf("takeaway stones=%d double=%v", g.Stones, g.Double)
}
func (g *TakeAway) ActionSize() int       { return 2 }
func (g *TakeAway) InputShape() env.Shape { return env.Shape{C: 2, H: 1, W: 1} }
func (g *TakeAway) SideName(s env.Side) string {
	return strconv.Itoa(int(s))
}
func (g *TakeAway) ParseSide(s string) (env.Side, error) {
	switch s {
	case "0":
		return 0, nil
	case "1":
		return 1, nil
	}
	return env.NoSide, fmt.Errorf("unknown side %q", s)
}
func (g *TakeAway) Start(*rand.Rand) env.State {
	return &State{g: g, stones: g.Stones, winner: env.NoSide}
}

// ParseState reads "STONES SIDE STEP".
func (g *TakeAway) ParseState(text string) (env.State, error) {
	f := strings.Fields(text)
	if len(f) != 3 {
		return nil, fmt.Errorf("want stones, side and step")
	}
	n, err1 := strconv.Atoi(f[0])
	side, err2 := g.ParseSide(f[1])
	step, err3 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil || err3 != nil || n < 0 {
		return nil, fmt.Errorf("malformed state %q", text)
	}
	st := &State{g: g, stones: n, toMove: side, step: step, winner: env.NoSide}
	if n == 0 {
		st.winner = side // the side that took the last stone keeps the move
	}
	return st, nil
}

// Evaluate implements env.Evaluator knowing nothing: every position is even.
func (g *TakeAway) Evaluate(env.State) float64 { return 0 }

func (s *State) Game() env.Game   { return s.g }
func (s *State) ToMove() env.Side { return s.toMove }
func (s *State) Ply() int         { return s.ply }
func (s *State) Outcome() env.Outcome {
	if s.stones == 0 {
		return env.Outcome{Over: true, Winner: s.winner}
	}
	return env.Outcome{}
}
func (s *State) LegalActions(dst []int) []int {
	if s.stones == 0 {
		return dst
	}
	dst = append(dst, 0)
	if s.stones >= 2 {
		dst = append(dst, 1)
	}
	return dst
}
func (s *State) Apply(a int) {
	s.stones -= a + 1
	s.ply++
	if s.stones == 0 {
		s.winner = s.toMove
		return
	}
	s.step++
	if !s.g.Double || s.toMove != 0 || s.step == 2 {
		s.toMove, s.step = s.toMove.Other(), 0
	}
}
func (s *State) Clone() env.State          { c := *s; return &c }
func (s *State) CopyFrom(src env.State)    { *s = *src.(*State) }
func (s *State) Hash() uint64              { return uint64(s.stones)<<8 | uint64(s.toMove)<<4 | uint64(s.step) }
func (s *State) Encode(dst []float32)      { dst[0], dst[1] = float32(s.stones), float32(s.step) }
func (s *State) ActionString(a int) string { return strconv.Itoa(a + 1) }
func (s *State) ParseAction(t string) (int, error) {
	n, err := strconv.Atoi(t)
	if err != nil || n < 1 || n > 2 || n > s.stones {
		return 0, fmt.Errorf("illegal move %q", t)
	}
	return n - 1, nil
}
func (s *State) String() string  { return fmt.Sprintf("%d %d %d", s.stones, s.toMove, s.step) }
func (s *State) Board() string   { return s.String() + "\n" }
func (s *State) Display() string { return s.String() + "\n" }

// Solve returns the winner of s under perfect play, by exhaustive search.
func Solve(s env.State) env.Side {
	if o := s.Outcome(); o.Over {
		return o.Winner
	}
	me := s.ToMove()
	for _, a := range s.LegalActions(nil) {
		c := s.Clone()
		c.Apply(a)
		if Solve(c) == me {
			return me
		}
	}
	return me.Other()
}
