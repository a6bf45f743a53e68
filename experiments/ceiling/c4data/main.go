// Command c4data writes the Connect Four training data of the supervised
// ceiling diagnostic (experiments/ceiling): positions with the exact
// class (win, draw or loss for the side to move) of every legal move, from
// the exact solver. It is a diagnostic's data: nothing that trains or
// ships a player reads it.
//
// Positions come from random playouts (one position of each) and from
// games between baseline players (every position of each: random, greedy,
// alpha-beta at depths 2 and 4, each move random with a chance of 0.2 so
// that games vary), one of each in turn, deduplicated, without the
// positions of the held-out sets given with -exclude. Games are taken in a
// random order, each game's positions solved from its last back to its
// first by one worker, whose transposition table then holds most of what
// the next one needs. A position whose every move the solver does not
// settle within -nodes nodes is left out, with the positions of its game
// before it.
//
//	go build -C experiments/ceiling/c4data # from the repository's root; then
//	experiments/ceiling/c4data/c4data -count 300000 -minutes 20 -workers 2 -out checkpoints/ceiling/c4-train.txt \
//	    -exclude checkpoints/tables/connect4-real-games.set,checkpoints/tables/connect4-random.set
//
// Output: one line a position, tab-separated: the position in the game's
// one-line form, then the class of each column a..g (+1, 0, -1, or x for a
// full column), separated by spaces.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/solver"
)

func main() {
	count := flag.Int("count", 100000, "positions to write")
	out := flag.String("out", "", "the file to write")
	exclude := flag.String("exclude", "", "set files whose positions are held out, separated by commas")
	nodes := flag.Uint64("nodes", 2_000_000, "the solver's budget for one move's class")
	seed := flag.Uint64("seed", 7, "seed of the games")
	workers := flag.Int("workers", 1, "positions solved at once")
	minutes := flag.Float64("minutes", 0, "stop solving after this long and write what is solved (0: no limit)")
	flag.Parse()
	if *out == "" {
		log.Fatal("c4data: -out is required")
	}
	held := map[string]bool{}
	for _, path := range strings.Split(*exclude, ",") {
		if path == "" {
			continue
		}
		set, err := accuracy.ReadSetFile(path)
		if err != nil {
			log.Fatal(err)
		}
		for _, e := range set.Entries {
			held[e.Position] = true
		}
	}
	g := connect4.New()
	rng := rand.New(rand.NewPCG(*seed, 0xc4))
	seen := map[string]bool{}
	// Positions are solved a game at a time, from its last position back
	// to its first, by one worker: each position's solve fills the
	// worker's transposition table with most of what the position a ply
	// earlier needs.
	var units [][]string
	var unit []string
	add := func(s env.State) {
		p := s.String()
		if !held[p] && !seen[p] {
			seen[p] = true
			unit = append(unit, p)
		}
	}
	// Twice the positions wanted: some are left out unsettled.
	want := 2 * *count
	cands := 0
	endUnit := func() {
		if len(unit) > 0 {
			slices.Reverse(unit)
			units = append(units, unit)
			cands += len(unit)
		}
		unit = nil
	}
	specs := []string{"random", "greedy", "alphabeta:depth=2", "alphabeta:depth=4"}
	ctx := context.Background()
	for game := 0; cands < want; game++ {
		s := g.Start(nil)
		if game%2 == 0 {
			var line []env.State
			for !s.Outcome().Over {
				line = append(line, s.Clone())
				moves := s.LegalActions(nil)
				s.Apply(moves[rng.IntN(len(moves))])
			}
			add(line[rng.IntN(len(line))])
			endUnit()
			continue
		}
		var ps [2]player.Player
		for i := range ps {
			p, err := player.New(specs[rng.IntN(len(specs))], g, player.Options{Seed: rng.Uint64()})
			if err != nil {
				log.Fatal(err)
			}
			ps[i] = p
		}
		for !s.Outcome().Over {
			add(s)
			var a int
			if rng.Float64() < 0.2 {
				moves := s.LegalActions(nil)
				a = moves[rng.IntN(len(moves))]
			} else {
				var err error
				if a, err = ps[s.ToMove()].Move(ctx, s); err != nil {
					log.Fatal(err)
				}
			}
			s.Apply(a)
		}
		endUnit()
	}
	rng.Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
	log.Printf("%d candidate positions in %d games; solving", cands, len(units))

	lines := make([][]string, len(units))
	var mu sync.Mutex
	next, done, kept := 0, 0, 0
	t0 := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < *workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x, _, _ := solver.ExactWithBudget(g, 64, *nodes)
			for {
				mu.Lock()
				i := next
				next++
				stop := kept >= *count || *minutes > 0 && time.Since(t0).Minutes() >= *minutes
				mu.Unlock()
				if i >= len(units) || stop {
					return
				}
				for _, pos := range units[i] {
					line, ok := label(ctx, g, x, pos)
					mu.Lock()
					done++
					if ok {
						lines[i] = append(lines[i], line)
						kept++
					}
					if done%10000 == 0 {
						log.Printf("%d solved, %d kept, %.0f s", done, kept, time.Since(t0).Seconds())
					}
					mu.Unlock()
					if !ok {
						// The game's earlier positions are harder still.
						break
					}
				}
			}
		}()
	}
	wg.Wait()
	f, err := os.Create(*out + ".tmp")
	if err != nil {
		log.Fatal(err)
	}
	bw := bufio.NewWriter(f)
	n := 0
	for _, u := range lines {
		for _, l := range u {
			if n < *count {
				bw.WriteString(l)
				n++
			}
		}
	}
	if err := bw.Flush(); err != nil {
		log.Fatal(err)
	}
	f.Close()
	if err := os.Rename(*out+".tmp", *out); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote %d positions to %s (%d solved in %.0f s)", n, *out, done, time.Since(t0).Seconds())
}

// label is a position's line, false when the solver does not settle a
// move within its budget.
func label(ctx context.Context, g env.Game, x env.ExactSolver, pos string) (string, bool) {
	s, err := g.ParseState(pos)
	if err != nil {
		log.Fatal(err)
	}
	classes := []string{"x", "x", "x", "x", "x", "x", "x"}
	for _, a := range s.LegalActions(nil) {
		b, err := x.ScoreMove(ctx, s, a, true)
		if errors.Is(err, env.ErrBudget) {
			return "", false
		}
		if err != nil {
			log.Fatal(err)
		}
		classes[a] = fmt.Sprintf("%+d", b.Lo)
		if b.Lo == 0 {
			classes[a] = "0"
		}
	}
	return pos + "\t" + strings.Join(classes, " ") + "\n", true
}
