package match

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	if rec.End != EndRepetition || rec.Outcome.Winner != env.NoSide {
		t.Fatalf("record %+v, want a tie by repetition", rec)
	}
	// Every board recurs every 4 plies. As the tournament server counted,
	// the start does not count, so the first board counted six times is
	// the one after ply 1, for the sixth time after ply 21.
	if len(rec.Moves) != 21 {
		t.Errorf("ended after %d plies, want 21", len(rec.Moves))
	}
	// Without the limit the ply cap (4*4*4 = 64) ends it.
	players = [2]player.Player{&scripted{moves: []string{"a4D", "a3U"}}, &scripted{moves: []string{"b1R", "c1L"}}}
	rec, err = Play(context.Background(), s, players, Options{})
	if err != nil || rec.End != EndPlyCap || len(rec.Moves) != 64 || rec.Outcome.Winner != env.NoSide {
		t.Errorf("without a limit: %d plies, %+v, %v", len(rec.Moves), rec.Outcome, err)
	}
}

// failing answers with an error, as a program that died would.
type failing struct{}

func (failing) String() string { return "failing" }
func (failing) Move(context.Context, env.State) (int, error) {
	return 0, fmt.Errorf("the program exited: %w", io.ErrUnexpectedEOF)
}

// timing out answers with the time-limit error.
type timingOut struct{}

func (timingOut) String() string { return "slow" }
func (timingOut) Move(context.Context, env.State) (int, error) {
	return 0, fmt.Errorf("after 2s: %w", player.ErrTimeLimit)
}

// A player's failure loses it the game, with the reason on record; it does
// not end the match with an error.
func TestForfeits(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 4})
	for _, c := range []struct {
		p    player.Player
		end  End
		want string
	}{
		{illegal{}, EndIllegal, "V (illegal) chose action -7"},
		{failing{}, EndCrash, "unexpected EOF"},
		{timingOut{}, EndTime, "time limit"},
	} {
		r, _ := player.New("random", g, player.Options{Seed: 1})
		rec, err := Play(context.Background(), g.Start(nil), [2]player.Player{r, c.p}, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.p, err)
		}
		if rec.End != c.end || rec.Outcome.Winner != slider.H || !strings.Contains(rec.Detail, c.want) {
			t.Errorf("%s: end %q, winner %v, detail %q", c.p, rec.End, rec.Outcome.Winner, rec.Detail)
		}
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

// A records line too long to read is named by file and line, in one short
// message.
func TestOverlongRecordsLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	os.WriteFile(path, append(bytes.Repeat([]byte("x"), 17<<20), '\n'), 0o644)
	_, err := ReadRecords(path)
	if err == nil || !strings.Contains(err.Error(), "line 1 is longer than 16 MB") || !strings.Contains(err.Error(), path) || len(err.Error()) > 300 {
		t.Errorf("%v", err)
	}
}
