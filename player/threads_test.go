package player_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/player"
)

// selfGame plays a shipped player against itself from a seeded start and
// returns the moves.
func selfGame(t *testing.T, file, options string, seed uint64) string {
	t.Helper()
	pf, err := player.LoadPlayerFile(file)
	if err != nil {
		t.Fatal(err)
	}
	g, err := games.New(pf.Game)
	if err != nil {
		t.Fatal(err)
	}
	var ps [2]player.Player
	for side := range ps {
		if ps[side], err = player.New("player:"+file+","+options, g, player.Options{Seed: seed + uint64(side)}); err != nil {
			t.Fatal(err)
		}
	}
	s := g.Start(rand.New(rand.NewPCG(seed, 0)))
	var moves []string
	for !s.Outcome().Over {
		a, err := ps[s.ToMove()].Move(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, s.ActionString(a))
		s.Apply(a)
	}
	return strings.Join(moves, " ")
}

// On one thread a seeded search is exactly what it was before the search
// had threads: the games below were recorded with the search of commit
// 372a3cb, before the parallel search came, with the players shipped then
// (kept in testdata since newer networks replaced them).
func TestShippedPlayersRepeatOnOneThread(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"testdata/slider-5x5-ship5.player", "a2R c1U a3R c2U b2R b1U a4D e1U c2R e2U d2U c3U a5D b2R b3R d1L a4R c2L b4D c1U a3D c4R b3U d4L b4U c4U b5D e3U a2U e4L a3D b2U a2U c2L d3D b2R d2U c2L d3D b2R d2U c2L d3D b2R d2U c2L d3D b2R d2U c2L d3D b2R d2U c2L d3D b2R d2U c2L d3D b2R d2U c2L d3D b2R d2U c2L d3D b2R d2U c2L d3D b2R d2U c2L d3D b2R d2U c2L d3D b2R d2U c2L d3D b2R d2U c2L d3D b2R d2U c2L d3D b2R d2U c2L d3D b2R d2U c2L d3D b2R"},
		{"testdata/connect4-shipc4.player", "d c f f g e e e c e e b d b d d d d a b b b b g e a a g g f f f f g g a a a c"},
	} {
		for _, options := range []string{"sims=60", "sims=60,threads=1"} {
			if got := selfGame(t, c.file, options, 7); got != c.want {
				t.Errorf("%s,%s: played\n%s\nwant\n%s", c.file, options, got, c.want)
			}
		}
	}
}

// threads=N and the commands' default reach the search; Gumbel, which
// searches on one thread, gives way to a default and refuses an explicit
// setting.
func TestThreadsOption(t *testing.T) {
	file := "../checkpoints/connect4.player"
	g, err := games.New(registry.Spec{Name: "connect4"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spec     string
		defaults int
		want     int
	}{
		{"player:" + file, 0, 1},
		{"player:" + file, 4, 4},
		{"player:" + file + ",threads=3", 0, 3},
		{"player:" + file + ",threads=2", 8, 2},
		{"player:" + file + ",gumbel=true", 4, 1},
	} {
		p, err := player.New(c.spec+",sims=300", g, player.Options{Seed: 1, Threads: c.defaults})
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		n := p.(*player.Net)
		if got := n.Params().Threads; max(got, 1) != c.want {
			t.Errorf("%s with a default of %d: %d threads, want %d", c.spec, c.defaults, got, c.want)
		}
		s := g.Start(nil)
		if _, err := n.Move(context.Background(), s); err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		if _, visits := n.LastSearch(); visits != 300 {
			t.Errorf("%s: %d simulations, want the budget's 300", c.spec, visits)
		}
	}
	for _, c := range []struct{ spec, want string }{
		{"player:" + file + ",gumbel=true,threads=2", "need PUCT"},
		{"player:" + file + ",threads=0", "threads"},
		{"player:" + file + ",threads=many", "threads"},
	} {
		if _, err := player.New(c.spec, g, player.Options{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error naming %q", c.spec, err, c.want)
		}
	}
}

// A streamed analysis on several threads spends its budget exactly and
// reports as it goes.
func TestStreamOnThreads(t *testing.T) {
	const file = "../checkpoints/slider-5x5.player"
	pf, err := player.LoadPlayerFile(file)
	if err != nil {
		t.Fatal(err)
	}
	g, err := games.New(pf.Game)
	if err != nil {
		t.Fatal(err)
	}
	p, err := player.New("player:"+file, g, player.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tp := p.(player.Streamer)
	var last player.Progress
	updates := 0
	err = tp.Stream(context.Background(), g.Start(rand.New(rand.NewPCG(3, 0))), player.StreamOptions{Sims: 5000, Every: 0, Top: 3, Depth: 4, Threads: 3},
		func(p player.Progress) bool {
			updates++
			last = p
			return true
		})
	if err != nil {
		t.Fatal(err)
	}
	if !last.Done || last.Visits != 5000 || updates < 3 || len(last.Lines) == 0 {
		t.Errorf("last update %+v after %d updates, want done at 5000 visits with moves, and updates on the way", last, updates)
	}
}

// Plain UCT takes threads=N, and the commands' default, like a trained
// player, and spends its simulation budget exactly on any of them.
func TestUCTThreadsOption(t *testing.T) {
	g, err := games.New(registry.Spec{Name: "connect4"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spec           string
		defaults, want int
	}{
		{"mcts:sims=300", 0, 1},
		{"mcts:sims=300", 4, 4},
		{"mcts:sims=300,threads=3", 0, 3},
		{"mcts:sims=300,threads=2", 8, 2},
	} {
		p, err := player.New(c.spec, g, player.Options{Seed: 1, Threads: c.defaults})
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		u := p.(*player.UCT)
		if got := u.Config().Threads; got != c.want {
			t.Errorf("%s with a default of %d: %d threads, want %d", c.spec, c.defaults, got, c.want)
		}
		if _, err := u.Move(context.Background(), g.Start(nil)); err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		if _, visits := u.LastSearch(); visits != 300 {
			t.Errorf("%s: %d simulations, want the budget's 300", c.spec, visits)
		}
	}
	for _, spec := range []string{"mcts:threads=0", "mcts:threads=many", "mcts:threads=100000"} {
		if _, err := player.New(spec, g, player.Options{}); err == nil || !strings.Contains(err.Error(), "threads") {
			t.Errorf("%s: got %v, want an error naming threads", spec, err)
		}
	}
}
