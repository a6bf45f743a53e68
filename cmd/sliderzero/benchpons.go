// bench --pons: players judged on Pascal Pons' public Connect Four test
// sets (package accuracy/pons), every legal move labelled once by the
// exact solver and the labels kept beside the sets.

package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/accuracy/pons"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/rating"
)

const ponsAbout = `--pons DIR instead judges players (--player, specs separated by ; as in
sliderzero accuracy --help) on
Pascal Pons' six public Connect Four test sets, the files Test_L1_R1 to
Test_L3_R1 in DIR (experiments/connect4/pons has them): 1,000 positions
each, L1 to L3 the stage (moves played: beginning up to 14, middle up to
28, end), R1 to R3 the difficulty (moves left with best play: easy under
14, medium up to 28, hard). Each player moves once in each position; as
AlphaZero.jl counts (games/connect-four/scripts/pons_benchmark.jl), the
move is an error when its win, draw or loss is worse than the best
move's, over all the positions. Each set's row gives the errors, their
rate with its 95% (Wilson) interval, and the time it took. A player
file's network alone is player:FILE,sims=1. With more than one player,
each set's rows are followed by a paired line for each player after the
first: the positions only the first erred on and those only the other
did, with the exact sign test's p (McNemar's): two players judged on the
same positions differ by less than their intervals suggest, or more.

The sets give each position's score, not its moves', so every legal move
is labelled once with its win, draw or loss by the exact solver (weakly
solved) and kept in DIR/labels/SET.labels, which later runs read instead
of solving again; labels that do not fit their set are refused. In a
position the set scores lost every move loses: those are labelled without
a search; every other position's best move is checked against the set's
score. Labelling the beginning sets takes hours on two cores; an
interrupted run keeps what it labelled (saved as it goes). --label-only
labels and stops; --sets L1_R1,L2_R2 takes only those sets. Positions
are labelled and judged --parallel at a time; each position's player has
its own seed, so results do not depend on --parallel.

Examples:
  sliderzero bench --pons experiments/connect4/pons --label-only
  sliderzero bench --pons experiments/connect4/pons --player "player:checkpoints/connect4.player,sims=1;player:checkpoints/connect4.player,sims=600"`

// ponsOptions are bench --pons's flags.
type ponsOptions struct {
	dir, players, sets string
	positions, workers int
	seed               uint64
	labelOnly          bool
}

// register declares the flags; players is --player, shared with --search.
func (o *ponsOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&o.dir, "pons", "", "judge --player on Pons' Connect Four test sets in `DIR` instead (see above)")
	fs.IntVar(&o.positions, "positions", 0, "with --pons: only the first N positions of each set (0: all)")
	fs.IntVar(&o.workers, "parallel", runtime.NumCPU(), "with --pons: positions labelled or judged at once")
	fs.Uint64Var(&o.seed, "seed", 1, "with --pons: seed of the players")
	fs.BoolVar(&o.labelOnly, "label-only", false, "with --pons: label the sets' moves, then stop (no --player)")
	fs.StringVar(&o.sets, "sets", "", "with --pons: only these sets, separated by commas, such as L1_R1,L2_R2 (default all)")
}

// ponsFlags are the flags only --pons takes.
var ponsFlags = []string{"positions", "parallel", "seed", "label-only", "sets"}

// given reports whether the command line gave a flag only --pons takes.
func (o *ponsOptions) given(fs *flag.FlagSet) bool {
	return slices.ContainsFunc(ponsFlags, func(name string) bool { return flagGiven(fs, name) })
}

// check refuses --pons's flags without it, and other modes' flags with it.
func (o *ponsOptions) check(fs *flag.FlagSet) error {
	for _, name := range ponsFlags {
		if o.dir == "" && flagGiven(fs, name) {
			return usageError{fmt.Errorf("bench: --%s applies to --pons", name)}
		}
	}
	var bad error
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "pons" && f.Name != "player" && !slices.Contains(ponsFlags, f.Name) && bad == nil {
			bad = usageError{fmt.Errorf("bench: --%s does not apply to --pons", f.Name)}
		}
	})
	switch {
	case bad != nil:
		return bad
	case o.positions < 0 || o.workers < 1:
		return usageError{fmt.Errorf("bench: --positions must not be negative and --parallel must be at least 1")}
	case o.workers > maxParallel:
		return usageError{fmt.Errorf("bench: --parallel %d: at most %d", o.workers, maxParallel)}
	case o.labelOnly && o.players != "":
		return usageError{fmt.Errorf("bench: --label-only judges no player: drop --player")}
	case !o.labelOnly && o.players == "":
		return usageError{fmt.Errorf("bench: --pons needs --player SPEC[;SPEC...], or --label-only")}
	}
	return nil
}

// benchPons labels what the sets lack, then judges the players (the
// --player flag's specs) on them.
func benchPons(ctx context.Context, io stdio, fs *flag.FlagSet, o ponsOptions, players string) error {
	o.players = players
	if err := o.check(fs); err != nil {
		return err
	}
	sets, err := pons.ReadDir(o.dir)
	if err != nil {
		return fmt.Errorf("bench: --pons: %w", err)
	}
	if sets, err = chooseSets(sets, o.sets); err != nil {
		return err
	}
	g := pons.Game()
	var setups []*player.Setup
	if !o.labelOnly {
		if setups, err = readPlayers(new(tables).players(), "--player", splitSpecs(o.players), g, player.Options{}); err != nil {
			return err
		}
	}
	labels, err := labelSets(ctx, io, o, sets)
	if err != nil || o.labelOnly {
		return err
	}
	width := len("player")
	for _, s := range setups {
		width = max(width, len(s.Name()))
	}
	fmt.Fprintf(io.out, "Pons' test sets (%s): an error is a move whose win, draw or loss is worse than the best move's, over all positions (AlphaZero.jl's count)\n\n", o.dir)
	fmt.Fprintf(io.out, "%-11s %-18s %-*s %13s %6s  %-14s %s\n", "set", "stage", width, "player", "errors", "rate", "95% interval", "time")
	for _, s := range sets {
		var results []pons.Result
		for _, su := range setups {
			r, err := judgeRow(ctx, io, g, s, labels[s.Name], su, o, width)
			if err != nil {
				return err
			}
			results = append(results, r)
		}
		for i := 1; i < len(results); i++ {
			a, b := discordant(results[0], results[i])
			fmt.Fprintf(io.out, "%-11s %-18s   paired: positions only %s erred on %d, only %s %d (sign test p = %.2g)\n",
				s.Name, "", setups[0].Name(), a, setups[i].Name(), b, rating.SignTest(a, b))
		}
	}
	return nil
}

// discordant counts the positions only a erred on and those only b did.
func discordant(a, b pons.Result) (onlyA, onlyB int) {
	lines := func(r pons.Result) map[int]bool {
		m := map[int]bool{}
		for _, miss := range r.Misses {
			m[miss.Line] = true
		}
		return m
	}
	return onlyEach(lines(a), lines(b))
}

// onlyEach counts the keys only a holds and those only b holds: given
// two players' misses on the same positions, the evidence of a paired
// comparison, which the two rates' intervals, made for unpaired samples,
// understate (bench --pons, accuracy).
func onlyEach[K comparable](a, b map[K]bool) (onlyA, onlyB int) {
	for k := range a {
		if !b[k] {
			onlyA++
		}
	}
	for k := range b {
		if !a[k] {
			onlyB++
		}
	}
	return onlyA, onlyB
}

// judgeRow judges one player on one set and prints the row.
func judgeRow(ctx context.Context, io stdio, g env.Game, s *pons.Set, l *pons.Labels, su *player.Setup, o ponsOptions, width int) (pons.Result, error) {
	n := len(s.Entries)
	if o.positions > 0 {
		n = min(n, o.positions)
	}
	t0 := time.Now()
	bar := newCountBar(io.err, n, "positions")
	newPlayer := func(seed uint64) (player.Player, error) { return su.New(g, seed) }
	r, err := pons.Judge(ctx, g, s, l, newPlayer, accuracy.Options{Limit: o.positions, Seed: o.seed, Parallel: o.workers, Progress: func(int, int) { bar.Add(1) }})
	bar.Finish()
	if err != nil {
		if ctx.Err() != nil {
			return r, fmt.Errorf("bench: interrupted judging %s on %s", su.Name(), s.Name)
		}
		return r, fmt.Errorf("bench: %s: %w", su.Name(), err)
	}
	lo, hi := r.Interval()
	fmt.Fprintf(io.out, "%-11s %-18s %-*s %13s %5.1f%%  [%4.1f, %4.1f]   %s\n", s.Name, pons.Describe(s.Name), width, su.Name(),
		fmt.Sprintf("%d of %d", r.Errors, r.Positions), 100*r.Rate(), 100*lo, 100*hi, roundDuration(time.Since(t0)))
	return r, nil
}

// labelSets reads each set's labels and labels what they lack, the
// quickest sets first (the end, then the middle, then the beginning; easy
// before hard), saving as it goes.
func labelSets(ctx context.Context, io stdio, o ponsOptions, sets []*pons.Set) (map[string]*pons.Labels, error) {
	dir := filepath.Join(o.dir, "labels")
	order := slices.Clone(sets)
	slices.SortStableFunc(order, func(a, b *pons.Set) int { return labelCost(a.Name) - labelCost(b.Name) })
	out := map[string]*pons.Labels{}
	for _, s := range order {
		path := filepath.Join(dir, s.Name+".labels")
		l, err := pons.ReadLabels(path, s)
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		out[s.Name] = l
		missing := len(l.Missing(s, o.positions))
		if missing == 0 {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		bar := newCountBar(io.err, missing, "positions labelled")
		st, err := pons.Label(ctx, s, l, pons.LabelOptions{Limit: o.positions, Parallel: o.workers, SaveEvery: 10 * time.Second,
			Save:     func(l *pons.Labels) error { return l.WriteFile(path, s) },
			Progress: func(int, int) { bar.Add(1) }})
		bar.Finish()
		fmt.Fprintf(io.err, "%s: labelled %d positions (%d solved, %d lost ones without a search) in %s, %d nodes; %d of %d in %s\n",
			s.Name, st.Solved+st.Deduced, st.Solved, st.Deduced, roundDuration(st.Elapsed), st.Nodes, len(l.Rows), len(s.Entries), path)
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("bench: interrupted labelling %s; the positions labelled are kept in %s", s.Name, path)
			}
			return nil, fmt.Errorf("bench: %w", err)
		}
	}
	return out, nil
}

// chooseSets keeps the sets --sets names (Test_L1_R1 or L1_R1), in their
// order; "" keeps all.
func chooseSets(sets []*pons.Set, list string) ([]*pons.Set, error) {
	if list == "" {
		return sets, nil
	}
	var out []*pons.Set
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		i := slices.IndexFunc(sets, func(s *pons.Set) bool { return s.Name == name || s.Name == "Test_"+name })
		if i < 0 {
			var have []string
			for _, s := range sets {
				have = append(have, strings.TrimPrefix(s.Name, "Test_"))
			}
			return nil, usageError{fmt.Errorf("bench: --sets %s: no such set (there are %s)", name, strings.Join(have, ", "))}
		}
		if !slices.Contains(out, sets[i]) {
			out = append(out, sets[i])
		}
	}
	slices.SortFunc(out, func(a, b *pons.Set) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// labelCost orders Pons' sets by the time they take to label: late
// positions first, easy before hard.
func labelCost(name string) int {
	if d := pons.Describe(name); d != "" {
		var l, r int
		fmt.Sscanf(strings.TrimPrefix(name, "Test_"), "L%d_R%d", &l, &r)
		return 10*(10-l) + r
	}
	return 100
}
