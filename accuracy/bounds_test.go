package accuracy

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	c4solve "github.com/sliderzero/sliderzero/env/connect4/solve"
	slidersolve "github.com/sliderzero/sliderzero/env/slider/solve"
	"github.com/sliderzero/sliderzero/player"
)

// The games a set's or a table's players play are bounded, and nothing is
// sized by them: too many are refused at once, and as many as allowed
// stop within moments of an interrupt (issue 65: --games-per-pair
// 99999999999 built a list of every game, 9.1 GB in 40 s, and was still
// at it 30 s after Ctrl-C).
func TestGamesPerPairIsBoundedAndInterruptible(t *testing.T) {
	g := connect4.New()
	f, err := player.NewFactory()
	if err != nil {
		t.Fatal(err)
	}
	random, err := f.Read("random", g, player.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := slidersolve.Solve(context.Background(), 3, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	newSolver := func() env.ExactSolver { return c4solve.NewExact(8, 1000) }
	for _, perPair := range []int{99999999999, MaxGames/4 + 1} {
		t0 := time.Now()
		_, _, err := BuildSet(context.Background(), g, BuildSetOptions{From: FromGames, Players: []*player.Setup{random, random},
			GamesPerPair: perPair, Count: 2, Parallel: 2, NewSolver: newSolver})
		if err == nil || !strings.Contains(err.Error(), "at most 1000000 games") || time.Since(t0) > time.Second {
			t.Errorf("BuildSet, %d games a pair: %v after %s", perPair, err, time.Since(t0))
		}
		t0 = time.Now()
		err = Build(context.Background(), tab, BuildOptions{Count: 10, GamesPerPair: perPair, Parallel: 2})
		if err == nil || !strings.Contains(err.Error(), "at most 1000000 games") || time.Since(t0) > time.Second {
			t.Errorf("Build, %d games a pair: %v after %s", perPair, err, time.Since(t0))
		}
	}
	for name, build := range map[string]func(ctx context.Context) error{
		"BuildSet": func(ctx context.Context) error {
			_, _, err := BuildSet(ctx, g, BuildSetOptions{From: FromGames, Players: []*player.Setup{random, random},
				GamesPerPair: MaxGames / 4, Count: 2, Parallel: 2, NewSolver: newSolver})
			return err
		},
		"Build": func(ctx context.Context) error {
			return Build(ctx, tab, BuildOptions{Count: 10, GamesPerPair: MaxGames / len(Baselines) / len(Baselines), Parallel: 2})
		},
		"BuildSet from random playouts": func(ctx context.Context) error {
			_, _, err := BuildSet(ctx, g, BuildSetOptions{From: FromRandom, Count: MaxPositions, MinPly: 1000, Parallel: 2, NewSolver: newSolver})
			return err
		},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		t0 := time.Now()
		err := build(ctx)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(t0) > 2*time.Second {
			t.Errorf("%s interrupted after 0.3 s: %v after %s", name, err, time.Since(t0))
		}
	}
}

// The positions the games give to draw from are bounded, by a sample
// that does not depend on the order they come in, and equal to all of
// them when they fit.
func TestPositionPoolIsBoundedAndOrderFree(t *testing.T) {
	var positions []string
	for i := 0; i < 5000; i++ {
		positions = append(positions, fmt.Sprintf("position %d", i))
	}
	fill := func(order []int, max int) map[string]bool {
		p := newPositionPool(max)
		for _, i := range order {
			p.add(positions[i])
			p.add(positions[i]) // repeats count once
		}
		return p.all
	}
	forward, backward := make([]int, len(positions)), make([]int, len(positions))
	for i := range positions {
		forward[i], backward[i] = i, len(positions)-1-i
	}
	if all := fill(forward, len(positions)); len(all) != len(positions) {
		t.Errorf("%d of %d positions kept where all fit", len(all), len(positions))
	}
	a, b := fill(forward, 700), fill(backward, 700)
	if len(a) > 700 || len(a) < 150 || fmt.Sprint(sortedKeys(a)) != fmt.Sprint(sortedKeys(b)) {
		t.Errorf("bounded to 700: %d positions forward, %d backward, or not the same", len(a), len(b))
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
