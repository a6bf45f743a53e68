package match

import (
	"context"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/player"
)

// scripted plays fixed moves in notation, cycling.
type scripted struct {
	moves []string
	i     int
}

func (p *scripted) String() string { return "scripted" }
func (p *scripted) Move(_ context.Context, s env.State) (int, error) {
	m := p.moves[p.i%len(p.moves)]
	p.i++
	return s.ParseAction(m)
}

// illegal returns an action that is never legal.
type illegal struct{}

func (illegal) String() string                                   { return "illegal" }
func (illegal) Move(_ context.Context, s env.State) (int, error) { return -7, nil }

func TestRepetitionLimit(t *testing.T) {
	// H and V shuffle one piece up and down (H) and left and right (V).
	s, err := slider.ParsePosition("H+++/++++/++++/+V++ H")
	if err != nil {
		t.Fatal(err)
	}
	players := [2]player.Player{&scripted{moves: []string{"a4D", "a3U"}}, &scripted{moves: []string{"b1R", "c1L"}}}
	rec, err := Play(context.Background(), s, players, Options{RepetitionLimit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Repetition || rec.Outcome.Winner != env.NoSide {
		t.Fatalf("record %+v, want a tie by repetition", rec)
	}
	// The start position recurs every 4 plies: its 6th occurrence is after ply 20.
	if len(rec.Moves) != 20 {
		t.Errorf("ended after %d plies, want 20", len(rec.Moves))
	}
	// Without the limit the ply cap (4*4*4 = 64) ends it.
	players = [2]player.Player{&scripted{moves: []string{"a4D", "a3U"}}, &scripted{moves: []string{"b1R", "c1L"}}}
	rec, err = Play(context.Background(), s, players, Options{})
	if err != nil || rec.Repetition || len(rec.Moves) != 64 || rec.Outcome.Winner != env.NoSide {
		t.Errorf("without a limit: %d plies, %+v, %v", len(rec.Moves), rec.Outcome, err)
	}
}

func TestIllegalMoveIsAnError(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 4})
	r, _ := player.New("random", g, player.Options{Seed: 1})
	_, err := Play(context.Background(), g.Start(nil), [2]player.Player{r, illegal{}}, Options{})
	if err == nil || !strings.Contains(err.Error(), "V (illegal)") {
		t.Errorf("err %v, want one naming V's player", err)
	}
}

func TestSameSeedsSameGame(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 5})
	game := func() Record {
		a, _ := player.New("mcts:sims=30", g, player.Options{Seed: 5})
		b, _ := player.New("random", g, player.Options{Seed: 6})
		rec, err := Play(context.Background(), g.Start(nil), [2]player.Player{a, b}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	x, y := game(), game()
	if strings.Join(x.Moves, " ") != strings.Join(y.Moves, " ") || !x.Outcome.Over {
		t.Errorf("games differ:\n%v\n%v", x.Moves, y.Moves)
	}
}
