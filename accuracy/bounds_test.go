package accuracy

import (
	"context"
	"errors"
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
