package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/player"
)

func newEngine(t testing.TB) *Engine {
	t.Helper()
	rules := Rules{
		NewGame: func(n int) (env.Game, error) { return slider.New(slider.Config{Size: n}) },
		ParsePosition: func(text string) (env.State, error) {
			s, err := slider.ParsePosition(text)
			if err != nil {
				return nil, err
			}
			return s, nil
		},
		Size: func(g env.Game) int { return g.(*slider.Game).Size() },
	}
	sp, err := player.ParseSpec("alphabeta:depth=2")
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Config{Name: "test", Version: "0", Rules: rules, Game: slider.MustNew(slider.Config{Size: 4}), Player: sp, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// answers splits the engine's output into responses.
func answers(out string) []string {
	out = strings.TrimSuffix(out, "\n\n")
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n\n")
}

func TestOneAnswerPerCommand(t *testing.T) {
	e := newEngine(t)
	var out strings.Builder
	in := "protocol_version\n\n# comment\n1 genmove H\nplay V b1D\n  legal_moves  \r\nquit\nname\n"
	if err := e.Run(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	got := answers(out.String())
	want := []string{"= 1", "=1 ", "? illegal move b1D: V never moves down", "= ", "="}
	if len(got) != len(want) {
		t.Fatalf("answers %q, want %d of them (nothing after quit)", got, len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("answer %d = %q, want it to start with %q", i, got[i], want[i])
		}
	}
}

// Whatever arrives, the engine answers each command line once with = or ?,
// never panics, and keeps its state consistent.
func FuzzEngine(f *testing.F) {
	for _, s := range []string{
		"boardsize 4\ngenmove H\nplay V b1U\nresult\n",
		"position H+++/H+B+/HB++/+VVV H\nlegal_moves\nshowboard\n",
		"3 set movetime 0.01\nset visits 7\nknown_command play\n",
		"play H pass\nposition HB++/BB++/++BB/++BV H\nplay H pass\nplay V pass\nresult\n",
		"boardsize 9\nclear_board\n12\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if strings.Contains(in, "quit") {
			return
		}
		e := newEngine(t)
		var out strings.Builder
		if err := e.Run(context.Background(), strings.NewReader(in), &out); err != nil {
			t.Fatal(err)
		}
		commands := 0
		for _, l := range strings.Split(in, "\n") {
			l = strings.TrimSpace(strings.TrimSuffix(l, "\r"))
			if l != "" && !strings.HasPrefix(l, "#") {
				commands++
			}
		}
		got := answers(out.String())
		if len(got) != commands {
			t.Fatalf("%d commands, %d answers: %q", commands, len(got), out.String())
		}
		for _, a := range got {
			if a[0] != '=' && a[0] != '?' {
				t.Fatalf("answer %q starts with neither = nor ?", a)
			}
		}
		// The state is still a valid position.
		if _, err := slider.ParsePosition(e.state.String()); err != nil && !e.state.Outcome().Over {
			t.Fatalf("state %s no longer parses: %v", e.state, err)
		}
	})
}
