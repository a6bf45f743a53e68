package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"runtime"
	"strings"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/player"
)

const accuracyAbout = `Measures players against perfect play: on each critical position of a
solver table's sets (positions where some legal move gives away the exact
value), the player moves once, and the move keeps the value or not. It
prints the share kept with its 95% (Wilson) interval, on the real-game set
and the uniformly random set, in all and split by the position's value
(won or drawn for the side to move; lost positions are never critical).

Positions are given to players with their ply count at 0. Each position's
player is built with its own seed, so results do not depend on --parallel.

--convert N also plays out the first N won positions of each set, the
player against --opponent (by default the table's perfect player, which
resists longest), under the ply cap: the share won is how often the player
converts a won position, rather than shuffling it into a tie.

Examples:
  sliderzero solve --size 5 --out t5.table
  sliderzero accuracy --table t5.table --player "alphabeta:depth=4;player:checkpoints/slider-5x5.player,sims=800"

` + player.Help

func runAccuracy(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("accuracy", flag.ContinueOnError)
	tablePath := fs.String("table", "", "solver table file (sliderzero solve; required)")
	list := fs.String("player", "", "player specs, separated by ; (required)")
	set := fs.String("set", "all", "position set: all, "+strings.Join(accuracy.SetNames, " or "))
	limit := fs.Int("positions", 0, "measure only the first N positions of each set (0: all)")
	seed := fs.Uint64("seed", 1, "seed of the players")
	parallel := fs.Int("parallel", runtime.NumCPU(), "positions measured at once")
	asJSON := fs.Bool("json", false, "print one JSON line per player and set instead of a table")
	convert := fs.Int("convert", 0, "play out this many won positions of each set and count the wins (0: off)")
	opponent := fs.String("opponent", "", "with --convert: the defender (default: the table's perfect player)")
	if err := parseFlags(fs, args, io, accuracyAbout); err != nil {
		return ignoreHelp(err)
	}
	if *tablePath == "" || *list == "" {
		return fmt.Errorf("accuracy: --table and --player are required (see sliderzero accuracy --help)")
	}
	if *opponent == "" {
		*opponent = "solver:table=" + *tablePath
	}
	if *limit < 0 || *parallel < 1 || *convert < 0 {
		return fmt.Errorf("accuracy: --positions must not be negative and --parallel must be at least 1")
	}
	sets := accuracy.SetNames
	if *set != "all" {
		sets = []string{*set}
	}
	tabs := new(tables)
	tab, err := tabs.get(*tablePath)
	if err != nil {
		return err
	}
	for _, s := range sets {
		if _, ok := tab.Sets[s]; !ok {
			return fmt.Errorf("--set %s: %s has no such set (it has %s)", s, *tablePath, strings.Join(keys(tab.Sets), ", "))
		}
	}
	kinds := tabs.playerKinds()
	g := tab.Game()
	specs := splitSpecs(*list)
	for _, spec := range append(specs, *opponent) {
		if _, err := player.New(spec, g, player.Options{Kinds: kinds}); err != nil {
			return fmt.Errorf("--player %s: %w", spec, err)
		}
	}
	if !*asJSON {
		fmt.Fprintf(io.out, "%s\n\n%-36s %-11s %-27s %-27s %-27s", tab.Describe(), "player", "set", "all", "won", "drawn")
		if *convert > 0 {
			fmt.Fprintf(io.out, " converted against %s", *opponent)
		}
		fmt.Fprintln(io.out)
	}
	for _, spec := range specs {
		for _, s := range sets {
			n := len(tab.Sets[s])
			if *limit > 0 {
				n = min(n, *limit)
			}
			bar := newCountBar(io.err, n, "positions")
			newPlayer := func(seed uint64) (player.Player, error) {
				return player.New(spec, g, player.Options{Seed: seed, Kinds: kinds})
			}
			res, err := accuracy.Measure(ctx, tab, s, newPlayer,
				accuracy.Options{Limit: *limit, Seed: *seed, Parallel: *parallel, Progress: func(int, int) { bar.Add(1) }})
			bar.Finish()
			if err != nil {
				return fmt.Errorf("%s: %w", spec, err)
			}
			var conv *accuracy.Tally
			if *convert > 0 {
				cbar := newCountBar(io.err, *convert, "games")
				c, err := accuracy.Convert(ctx, tab, s, newPlayer, func(seed uint64) (player.Player, error) {
					return player.New(*opponent, g, player.Options{Seed: seed, Kinds: kinds})
				}, accuracy.Options{Limit: *convert, Seed: *seed, Parallel: *parallel, Progress: func(int, int) { cbar.Add(1) }})
				cbar.Finish()
				if err != nil {
					return fmt.Errorf("%s: converting: %w", spec, err)
				}
				conv = &c
			}
			if *asJSON {
				line, _ := json.Marshal(struct {
					Player string `json:"player"`
					accuracy.Result
					Converted *accuracy.Tally `json:"converted,omitempty"`
				}{spec, res, conv})
				fmt.Fprintln(io.out, string(line))
				continue
			}
			fmt.Fprintf(io.out, "%-36s %-11s %-27s %-27s %-27s", spec, s, res.All, res.Won, res.Drawn)
			if conv != nil {
				fmt.Fprintf(io.out, " %s", conv)
			}
			fmt.Fprintln(io.out)
		}
	}
	return nil
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
