package solver

import (
	"context"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	c4solve "github.com/sliderzero/sliderzero/env/connect4/solve"
	"github.com/sliderzero/sliderzero/env/slider"
)

// Verdicts count plies from the position: on Connect Four, a score of 18
// with no disc played is a win with X's fourth disc, the 7th ply; a move's
// score counts from before the move.
func TestVerdict(t *testing.T) {
	g := connect4.New()
	st := g.Start(nil)
	for _, c := range []struct {
		b    env.Bounds
		want string
	}{
		{env.Bounds{Lo: 18, Hi: 18}, "win for X in 7 plies"},
		{env.Bounds{Lo: 1, Hi: 1}, "win for X in 41 plies"},
		{env.Bounds{Lo: -1, Hi: -1}, "loss for X in 42 plies"},
		{env.Bounds{}, "draw"},
		{env.Bounds{Lo: 2, Hi: 5}, "win for X"},
		{env.Bounds{Lo: 0, Hi: 5}, "X does not lose"},
		{env.Bounds{Lo: -3, Hi: 4}, "not settled"},
	} {
		if got := Verdict(st, c.b); got != c.want {
			t.Errorf("Verdict(%v) = %q, want %q", c.b, got, c.want)
		}
	}
	// Slider's table scale counts plies itself.
	sg, err := slider.New(slider.Config{Size: 5})
	if err != nil {
		t.Fatal(err)
	}
	ss := sg.Start(nil)
	if got := Verdict(ss, env.Bounds{Lo: 250, Hi: 250}); got != "win for H in 6 plies" {
		t.Errorf("a Slider win: %q", got)
	}
	if got := MoveVerdict(ss, env.Bounds{Lo: -247, Hi: -247}); got != "loses in 9 plies" {
		t.Errorf("a Slider move's loss: %q", got)
	}
	// A position three discs in a row: its winning move is one ply.
	for _, m := range []string{"a", "b", "a", "b", "a", "b"} {
		a, err := st.ParseAction(m)
		if err != nil {
			t.Fatal(err)
		}
		st.Apply(a)
	}
	x := c4solve.NewExact(1, 0)
	b, err := x.ScoreMove(context.Background(), st, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := MoveVerdict(st, b); got != "wins in 1 ply" {
		t.Errorf("the winning move: %q (score %v)", got, b)
	}
	b, err = x.ScoreMove(context.Background(), st, 4, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := MoveVerdict(st, b); got != "loses in 2 plies" {
		t.Errorf("a move that lets the opponent win: %q (score %v)", got, b)
	}
}
