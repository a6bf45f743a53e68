// Command targets is a diagnostic, never part of training: it reads a
// Slider 5x5 run's self-play shards and compares what self-play teaches
// (each position's value target z and the search's policy target) with
// the exact values of the solver's table, on the positions the table
// covers (open-board ones). It answers: when the network keeps only
// 93% of critical positions, is it because its targets are wrong?
//
//	go build -C experiments/targets # from the repository's root; then
//	experiments/targets/targets --run checkpoints/strength2-base --table checkpoints/tables/slider-5x5.table
package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/sliderzero/sliderzero/env/slider"
	solver "github.com/sliderzero/sliderzero/env/slider/solve"
	"github.com/sliderzero/sliderzero/train/replay"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "targets:", err)
		}
		os.Exit(1)
	}
}

// class is a value's sign for the side to move: 0 loss, 1 draw, 2 win.
func class(r solver.Result) int { return int(r) + 1 }

var classNames = [3]string{"lost", "drawn", "won"}

// tally adds up one group of positions.
type tally struct {
	n int
	// z by class of the exact value: the share of targets above +band,
	// within it, below -band; and their sum for the mean.
	above, within, below int
	sumZ                 float64
}

func (t *tally) add(z float32, band float64) {
	t.n++
	t.sumZ += float64(z)
	switch {
	case float64(z) > band:
		t.above++
	case float64(z) < -band:
		t.below++
	default:
		t.within++
	}
}

func pct(a, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", 100*float64(a)/float64(n))
}

func run(args []string) error {
	fs := flag.NewFlagSet("targets", flag.ContinueOnError)
	runDir := fs.String("run", "", "the run's folder (its shards/ are read)")
	tablePath := fs.String("table", "checkpoints/tables/slider-5x5.table", "the solved 5x5 table")
	last := fs.Int("last", 0, "read only the last N shards (0: all)")
	band := fs.Float64("band", 0.05, "|z| up to this counts as a draw target")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *runDir == "" {
		return fmt.Errorf("--run is required")
	}
	tab, err := solver.Read(*tablePath)
	if err != nil {
		return err
	}
	names, _ := filepath.Glob(filepath.Join(*runDir, "shards", "*"))
	sort.Strings(names)
	if *last > 0 && len(names) > *last {
		names = names[len(names)-*last:]
	}
	if len(names) == 0 {
		return fmt.Errorf("no shards in %s", filepath.Join(*runDir, "shards"))
	}
	// The shards' game parses positions of any layout; the table covers
	// the open board only.
	sg, err := slider.New(slider.Config{Size: tab.Size(), RandomBlocked: true})
	if err != nil {
		return err
	}
	var read, covered, critical int
	var byClass [3]tally
	// Wins and losses by distance to the end with perfect play.
	type bucket struct{ lo, hi int }
	buckets := []bucket{{1, 10}, {11, 20}, {21, 35}, {36, 60}, {61, 255}}
	winBy := make([]tally, len(buckets))
	// Policy targets on critical positions (some legal move changes the
	// exact value): the target's top move keeps the value; the target's
	// mass on value-keeping moves.
	var topKeeps int
	var keptMass float64
	// Won and lost positions taught as draws: whether the win fitted in
	// the plies the game had left (Left: a tied game ended at the ply
	// cap, so Left is what remained of it).
	var drawTaught, fitted int
	// The same for the positions the search had only one good move.
	var single, singleTop int
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		sh, _, err := replay.Decode(data, name, false)
		if err != nil {
			fmt.Fprintf(os.Stderr, "skipping %s: %v\n", name, err)
			continue
		}
		for _, smp := range sh.Samples {
			read++
			st, err := sg.ParseState(smp.State)
			if err != nil {
				return fmt.Errorf("%s: %q: %w", name, smp.State, err)
			}
			if tab.Covers(st) != nil {
				continue
			}
			covered++
			v, err := tab.Value(st)
			if err != nil {
				return err
			}
			c := class(v.Result)
			byClass[c].add(smp.Value, *band)
			if v.Result != solver.Draw {
				for i, b := range buckets {
					if v.Plies >= b.lo && v.Plies <= b.hi {
						z := smp.Value
						if v.Result == solver.Loss {
							z = -z
						}
						winBy[i].add(z, *band)
					}
				}
				if math.Abs(float64(smp.Value)) <= *band {
					drawTaught++
					if smp.Left > 0 && v.Plies <= int(smp.Left) {
						fitted++
					}
				}
			}
			actions, values, err := tab.Moves(st)
			if err != nil {
				return err
			}
			keeps := map[int]bool{}
			nKeep := 0
			for i, a := range actions {
				if values[i].Result == v.Result {
					keeps[a] = true
					nKeep++
				}
			}
			if nKeep == len(actions) {
				continue
			}
			critical++
			best, bestP := -1, float32(-1)
			var mass float64
			for i, a := range smp.Actions {
				if smp.Policy[i] > bestP {
					best, bestP = int(a), smp.Policy[i]
				}
				if keeps[int(a)] {
					mass += float64(smp.Policy[i])
				}
			}
			if keeps[best] {
				topKeeps++
			}
			keptMass += mass
			if nKeep == 1 {
				single++
				if keeps[best] {
					singleTop++
				}
			}
		}
	}
	fmt.Printf("run %s: %d shards, %d positions, %d on the open board (%s%%), %d of them critical\n\n",
		*runDir, len(names), read, covered, pct(covered, read), critical)
	fmt.Printf("Value targets z by the exact value (side to move; |z| <= %.2f counts as a draw target)\n\n", *band)
	fmt.Println("| exact | positions | mean z | z > band % | draw band % | z < -band % |")
	fmt.Println("|---|---|---|---|---|---|")
	for c := 2; c >= 0; c-- {
		t := byClass[c]
		fmt.Printf("| %s | %d | %+.3f | %s | %s | %s |\n", classNames[c], t.n, t.sumZ/math.Max(1, float64(t.n)), pct(t.above, t.n), pct(t.within, t.n), pct(t.below, t.n))
	}
	fmt.Printf("\nWon and lost positions by plies to the end with perfect play (z from the winner's side)\n\n")
	fmt.Println("| plies | positions | mean z | right sign % | draw band % | wrong sign % |")
	fmt.Println("|---|---|---|---|---|---|")
	for i, b := range buckets {
		t := winBy[i]
		fmt.Printf("| %d-%d | %d | %+.3f | %s | %s | %s |\n", b.lo, b.hi, t.n, t.sumZ/math.Max(1, float64(t.n)), pct(t.above, t.n), pct(t.within, t.n), pct(t.below, t.n))
	}
	fmt.Printf("\nWon or lost positions taught as draws: %d; the win fitted in the plies the game had left (a failure to convert, not the cap) in %s%% of them\n", drawTaught, pct(fitted, drawTaught))
	fmt.Printf("\nPolicy targets on critical positions: top move keeps the value %s%%, mean mass on value-keeping moves %.3f; single-move positions %d, top move right %s%%\n",
		pct(topKeeps, critical), keptMass/math.Max(1, float64(critical)), single, pct(singleTop, single))
	return nil
}
