package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
)

const matchAbout = `Plays games between players A and B, alternating colours: A plays the
first side in even-numbered games. With --blocked random, each pair of
games shares one layout with the colours swapped. Each game's players get
seeds derived from --seed and the game's number, so the results do not
depend on --parallel.

Example: sliderzero match --a alphabeta:depth=4 --b mcts:sims=1000 --games 100 --size 6

` + player.Help

func runMatch(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs, "none")
	specA := fs.String("a", "alphabeta", "player spec of A")
	specB := fs.String("b", "random", "player spec of B")
	games := fs.Int("games", 20, "number of games")
	seed := fs.Uint64("seed", 1, "seed of the players and of random blocked cells")
	parallel := fs.Int("parallel", runtime.NumCPU(), "games played at once")
	rep := fs.Int("repetition", 0, "tie when a position occurs more than this many times (0: off)")
	if err := parseFlags(fs, args, io, matchAbout); err != nil {
		return ignoreHelp(err)
	}
	g, err := gf.build()
	if err != nil {
		return err
	}
	if *games < 1 {
		return fmt.Errorf("--games %d: want at least 1", *games)
	}
	if *parallel < 1 {
		return fmt.Errorf("--parallel %d: want at least 1", *parallel)
	}
	// Build once to report bad specs before any game starts.
	for name, spec := range map[string]string{"--a": *specA, "--b": *specB} {
		if _, err := player.New(spec, g, player.Options{}); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([]match.Record, *games)
	errs := make([]error, *games)
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < *parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i], errs[i] = playMatchGame(ctx, g, *specA, *specB, *seed, i, *rep)
				if errs[i] != nil {
					cancel()
				}
				mu.Lock()
				done++
				if done%max(1, *games/10) == 0 || done == *games {
					fmt.Fprintf(io.err, "%d/%d games\n", done, *games)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := 0; i < *games; i++ {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("game %d: %w", i+1, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	printScore(io, g, *specA, *specB, results)
	return nil
}

// playMatchGame plays game i of a match: A plays side i%2.
func playMatchGame(ctx context.Context, g env.Game, specA, specB string, seed uint64, i, rep int) (match.Record, error) {
	aSide := env.Side(i % 2)
	var players [2]player.Player
	for k, spec := range []string{specA, specB} {
		p, err := player.New(spec, g, player.Options{Seed: playerSeed(seed, i, k)})
		if err != nil {
			return match.Record{}, err
		}
		side := aSide
		if k == 1 {
			side = aSide.Other()
		}
		players[side] = p
	}
	start := g.Start(rand.New(rand.NewPCG(seed, uint64(i/2))))
	return match.Play(ctx, start, players, match.Options{RepetitionLimit: rep})
}

// printScore prints A's wins, ties and losses per colour, its score, and
// the Elo difference that score implies.
func printScore(io stdio, g env.Game, specA, specB string, recs []match.Record) {
	var w, t, l [2]int
	plies := 0
	for i, r := range recs {
		aSide := env.Side(i % 2)
		plies += len(r.Moves)
		switch r.Outcome.Winner {
		case env.NoSide:
			t[aSide]++
		case aSide:
			w[aSide]++
		default:
			l[aSide]++
		}
	}
	n := len(recs)
	score := (float64(w[0]+w[1]) + float64(t[0]+t[1])/2) / float64(n)
	fmt.Fprintf(io.out, "%s\nA = %s\nB = %s\n%d games, %.1f plies a game\n\n", g.Describe(), specA, specB, n, float64(plies)/float64(n))
	fmt.Fprintf(io.out, "%-10s %6s %6s %6s\n", "", "wins", "ties", "losses")
	for side := env.Side(0); side < 2; side++ {
		fmt.Fprintf(io.out, "%-10s %6d %6d %6d\n", "A as "+g.SideName(side), w[side], t[side], l[side])
	}
	fmt.Fprintf(io.out, "%-10s %6d %6d %6d\n\n", "total", w[0]+w[1], t[0]+t[1], l[0]+l[1])
	fmt.Fprintf(io.out, "score of A: %.1f%%", 100*score)
	if score > 0 && score < 1 {
		fmt.Fprintf(io.out, " (Elo difference %+.0f)", -400*math.Log10(1/score-1))
	}
	fmt.Fprintln(io.out)
}
