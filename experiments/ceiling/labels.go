// The labels command: how often self-play's own targets are wrong.

package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/solver"
	"github.com/sliderzero/sliderzero/train/replay"
)

// labelTally counts, for positions of one exact class, how often self-play's
// targets agree with perfect play.
type labelTally struct {
	N          int
	ValueRight int // the value target's class is the exact one
	SaysDraw   int // the value target says draw (wrongly or not)
	Critical   int // positions where some move gives the value away
	PolicyTop  int // of those, the policy target's most visited move keeps it
	Mass       float64
}

func (t *labelTally) add(valueRight, saysDraw, critical, topKeeps bool, mass float64) {
	t.N++
	if saysDraw {
		t.SaysDraw++
	}
	if valueRight {
		t.ValueRight++
	}
	if critical {
		t.Critical++
		t.Mass += mass
		if topKeeps {
			t.PolicyTop++
		}
	}
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
}

// labelsCmd reads a run's shards and compares each open-board position's
// targets with the table: the value target's class (win, draw, loss) and,
// on critical positions, whether the policy target's top move keeps the
// exact value. It says how noisy what self-play teaches is, by the exact
// class of the position and by how far perfect play is from the end.
func labelsCmd(args []string) error {
	fs := flag.NewFlagSet("labels", flag.ContinueOnError)
	table := fs.String("table", "checkpoints/tables/slider-5x5.table", "the solver's table")
	shards := fs.Int("shards", 0, "read the run's last N shards (0: all)")
	drawBand := fs.Float64("draw-band", 0.1, "a value target within this of 0 counts as a draw (a discounted win 100 plies away is 0.98^99 = 0.135)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("labels: give one or more run folders")
	}
	t, err := solver.Read(*table)
	if err != nil {
		return err
	}
	sg, err := slider.New(slider.Config{Size: t.Size(), RandomBlocked: true})
	if err != nil {
		return err
	}
	fmt.Println("| run | positions | class | value target right | target says draw | critical | policy top keeps | policy mass on keeping moves |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, run := range fs.Args() {
		names, _ := filepath.Glob(filepath.Join(run, "shards", "*"))
		sort.Strings(names)
		if *shards > 0 && len(names) > *shards {
			names = names[len(names)-*shards:]
		}
		if len(names) == 0 {
			return fmt.Errorf("no shards in %s", filepath.Join(run, "shards"))
		}
		byClass := map[string]*labelTally{}
		tally := func(k string) *labelTally {
			if byClass[k] == nil {
				byClass[k] = &labelTally{}
			}
			return byClass[k]
		}
		total := 0
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			sh, _, err := replay.Decode(data, name, false)
			if err != nil {
				return err
			}
			for _, smp := range sh.Samples {
				st, err := sg.ParseState(smp.State)
				if err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
				if t.Covers(st) != nil {
					continue // a blocked layout: not in the open board's table
				}
				p, err := t.Game().ParseState(st.String())
				if err != nil {
					return err
				}
				v, err := t.Value(p)
				if err != nil {
					return err
				}
				acts, vals, err := t.Moves(p)
				if err != nil {
					return err
				}
				keeps := map[int32]bool{}
				critical := false
				for i, a := range acts {
					if vals[i].Result == v.Result {
						keeps[int32(a)] = true
					} else {
						critical = true
					}
				}
				top, mass := -1, 0.0
				for i, a := range smp.Actions {
					if top < 0 || smp.Policy[i] > smp.Policy[top] {
						top = i
					}
					if keeps[a] {
						mass += float64(smp.Policy[i])
					}
				}
				cls := solver.Draw
				switch {
				case float64(smp.Value) > *drawBand:
					cls = solver.Win
				case float64(smp.Value) < -*drawBand:
					cls = solver.Loss
				}
				topKeeps := top >= 0 && keeps[smp.Actions[top]]
				right := cls == v.Result
				total++
				tally("all").add(right, cls == solver.Draw, critical, topKeeps, mass)
				tally(v.Result.String()).add(right, cls == solver.Draw, critical, topKeeps, mass)
				if v.Result != solver.Draw && cls == solver.Draw {
					// A decided position taught as a draw: could perfect
					// play have finished the game before the cap did?
					// (Left is the plies from the position to its game's
					// end, here the cap.)
					if v.Plies <= int(smp.Left) {
						tally("decided, taught draw: perfect play ends it before the game ended").add(right, true, critical, topKeeps, mass)
					} else {
						tally("decided, taught draw: perfect play needs more plies than the game had left").add(right, true, critical, topKeeps, mass)
					}
				}
				if v.Result != solver.Draw {
					tally(fmt.Sprintf("%s, %s plies to the end", v.Result, plyBucket(v.Plies))).add(right, cls == solver.Draw, critical, topKeeps, mass)
				}
			}
		}
		keys := make([]string, 0, len(byClass))
		for k := range byClass {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			b := byClass[k]
			m := "-"
			if b.Critical > 0 {
				m = fmt.Sprintf("%.3f", b.Mass/float64(b.Critical))
			}
			fmt.Printf("| %s | %d | %s | %s | %s | %d | %s | %s |\n", filepath.Base(run), b.N, k, pct(b.ValueRight, b.N), pct(b.SaysDraw, b.N), b.Critical, pct(b.PolicyTop, b.Critical), m)
		}
		fmt.Fprintf(os.Stderr, "%s: %d open-board positions from %d shards\n", run, total, len(names))
	}
	return nil
}

func plyBucket(p int) string {
	switch {
	case p <= 10:
		return "1-10"
	case p <= 30:
		return "11-30"
	default:
		return "31+"
	}
}
