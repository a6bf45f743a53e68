package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
)

// lastMover is a player the packages have never heard of: it plays the
// last legal move, analyses by giving it all the share, and streams one
// view a millisecond until stopped when asked to, else three at once. The engine, match and the analysis
// reach it through player's interfaces alone (Player, Analyzer,
// Streamer), as they reach the built-in players.
type lastMover struct{}

func (lastMover) String() string { return "last" }

func (lastMover) Move(_ context.Context, s env.State) (int, error) {
	legal := s.LegalActions(nil)
	return legal[len(legal)-1], nil
}

func (p lastMover) Analyze(ctx context.Context, s env.State, top int) (player.Analysis, error) {
	a, _ := p.Move(ctx, s)
	return player.Analysis{Value: 0.25, Best: []player.Candidate{{Move: s.ActionString(a), Action: a, Share: 1}}}, nil
}

func (p lastMover) Stream(ctx context.Context, s env.State, o player.StreamOptions, emit func(player.Progress) bool) error {
	a, _ := p.Move(ctx, s)
	for visits := 1; ; visits++ {
		done := !o.Until && visits == 3
		if !emit(player.Progress{Value: 0.25, Visits: visits, Done: done, Lines: []player.Candidate{{Move: s.ActionString(a), Share: 1, Visits: visits}}}) || done {
			return nil
		}
		if o.Until {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Millisecond):
			}
		}
	}
}

func TestAPlayerOfTheCallersOwn(t *testing.T) {
	last := player.Kind{Name: "last", New: func(player.Spec, env.Game, player.Options) (player.Player, error) { return lastMover{}, nil }}
	game := registry.Spec{Name: "connect4"}
	e, err := New(Config{Name: "test", Version: "0", Game: game, Player: setupFor(t, game, "last", last)})
	if err != nil {
		t.Fatal(err)
	}
	got := session(t, e, "genmove X", "analyze 2", "analyze 2 0.001")
	want := []string{"= g", "= value 0.2500\ng 1.0000", "=\ninfo visits 1 nps 0 value 0.2500 move g share 1.0000 visits 1 value 0.0000\n" +
		"info visits 2 nps 0 value 0.2500 move g share 1.0000 visits 2 value 0.0000\n" +
		"info visits 3 nps 0 value 0.2500 move g share 1.0000 visits 3 value 0.0000 done"}
	if len(got) != len(want) {
		t.Fatalf("answers %q", got)
	}
	for i := range want {
		if strings.TrimSpace(got[i]) != want[i] {
			t.Errorf("answer %d: %q, want %q", i+1, got[i], want[i])
		}
	}

	// A match between it and a built-in player, through the same
	// interface.
	g, _ := games.New(registry.Spec{Name: "connect4"})
	r, err := player.New("random", g, player.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := match.Play(context.Background(), g.Start(nil), [2]player.Player{lastMover{}, r}, match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Outcome.Over || len(rec.Moves) == 0 || rec.Moves[0] != "g" {
		t.Errorf("the match: %+v", rec)
	}
}
