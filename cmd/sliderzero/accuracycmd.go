package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"runtime"
	"strings"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/rating"
	"github.com/sliderzero/sliderzero/solver"
	"github.com/sliderzero/sliderzero/store"
)

const accuracyAbout = `Measures players against perfect play: on each critical position of a
position set (positions where some legal move gives away the exact value),
the player moves once, and the move keeps the value or not. It prints the
share kept with its 95% (Wilson) interval, in all and split by the
position's value (won or drawn for the side to move; lost positions are
never critical), and apart the single-move positions (where only one move
keeps the value). With several players, each later player's row
is followed by a paired line: the positions only the first player missed
and only this one did, with the exact sign test's p, the evidence two
players judged on the same positions give.

The sets are set files (--set FILE;FILE, any game: sliderzero sets writes
them), or a Slider solver table's own two sets (--table FILE, with --set
naming all, real-games or random).

Positions are given to players with their ply count at 0. Each position's
player is built with its own seed, so results do not depend on --parallel.

The share of won positions converted (--convert) is how often the player
turns a won position into a win, rather than shuffling it into a tie.

--convert N also plays out the first N won positions of each set against
--opponent (by default the perfect player: the table's, or the game's own
solver at 2 s a move); --unconverted FILE keeps the games it did not win,
for replay --records FILE.

Examples:
  sliderzero solve --size 5 --out t5.table
  sliderzero accuracy --table t5.table --player "alphabeta:depth=4;player:checkpoints/slider-5x5.player,sims=800"
  sliderzero sets --game connect4 --from random --count 1000 --out c4-random.set
  sliderzero accuracy --set c4-random.set --player "alphabeta:time=0.1;player:checkpoints/connect4.player"

`

// accuracyFlags are accuracy's flags.
type accuracyFlags struct {
	tablePath, list, setFlag, opponent, unconvertedPath, missesPath *string
	limit, parallel, convert                                        *int
	seed                                                            *uint64
	asJSON, force                                                   *bool
}

func runAccuracy(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("accuracy", flag.ContinueOnError)
	f := accuracyFlags{
		tablePath:       fs.String("table", "", "a Slider solver table (sliderzero solve), measured on its own sets"),
		list:            fs.String("player", "", "player specs, separated by ; (required)"),
		setFlag:         fs.String("set", "", "set files separated by ; (sliderzero sets); with --table: all, "+strings.Join(accuracy.SetNames, " or ")+" (default all)"),
		limit:           countVar(fs, "positions", 0, "measure only the first N positions of each set (0: all)"),
		seed:            fs.Uint64("seed", 1, "seed of the players"),
		parallel:        parallelVar(fs, "parallel", runtime.NumCPU(), "positions measured at once"),
		asJSON:          fs.Bool("json", false, "print one JSON line per player and set instead of a table"),
		convert:         countVar(fs, "convert", 0, "play out this many won positions of each set and count the wins (0: off)"),
		opponent:        fs.String("opponent", "", "with --convert: the defender (default: the perfect player)"),
		unconvertedPath: fs.String("unconverted", "", "with --convert: write the games that did not convert a won position to this file, as match --records writes games (replay --records steps through them)"),
		missesPath:      fs.String("misses", "", "write each position a player's move gave away to this file, one tab-separated line each: player, set, position, its score, the plies to the end of its best line, the move played, its score and the plies to the end after it"),
		force:           forceVar(fs),
	}
	if err := parseFlags(fs, args, io, accuracyAbout+playerHelp()); err != nil {
		return ignoreHelp(err)
	}
	if err := f.check(); err != nil {
		return err
	}
	tabs := new(tables)
	g, title, sets, err := f.sets(tabs)
	if err != nil {
		return err
	}
	m := &accuracyRun{f: f, io: io, g: g, players: tabs.players()}
	if err := m.readPlayers(); err != nil {
		return err
	}
	m.header(title)
	for k := range m.specs {
		for _, set := range sets {
			if err := m.measure(ctx, k, set); err != nil {
				return err
			}
		}
	}
	return m.writeFiles()
}

// check refuses flags missing, out of range or without what they need,
// and outputs that cannot be written.
func (f accuracyFlags) check() error {
	if (*f.tablePath == "" && *f.setFlag == "") || *f.list == "" {
		return usageError{fmt.Errorf("accuracy: --player and --set FILE (or --table) are required (see sliderzero accuracy --help)")}
	}
	if len(splitSpecs(*f.list)) == 0 {
		return usageError{fmt.Errorf("accuracy: --player %s names no player", env.Quote(*f.list))}
	}
	if *f.unconvertedPath != "" && *f.convert == 0 {
		return usageError{fmt.Errorf("accuracy: --unconverted needs --convert N (the games it writes are those)")}
	}
	outputs := [][2]string{{"--misses", *f.missesPath}, {"--unconverted", *f.unconvertedPath}}
	if err := distinctOutputs(outputs...); err != nil {
		return err
	}
	inputs := append(specFiles(append(splitSpecs(*f.list), *f.opponent)...), *f.tablePath)
	if *f.tablePath == "" {
		inputs = append(inputs, splitSpecs(*f.setFlag)...)
	}
	for _, o := range outputs {
		if o[1] == "" {
			continue
		}
		if err := checkOutput(o[0], o[1], *f.force, inputs...); err != nil {
			return fmt.Errorf("accuracy: %w", err)
		}
	}
	return nil
}

// sets reads the sets to measure on (a table's, or set files of one
// game), and chooses the defender of --convert when none is given.
func (f accuracyFlags) sets(tabs *tables) (env.Game, string, []*accuracy.Set, error) {
	if *f.tablePath != "" {
		tab, err := tabs.Table(*f.tablePath)
		if err != nil {
			return nil, "", nil, err
		}
		sets, err := tableSets(tab, *f.tablePath, *f.setFlag)
		if *f.opponent == "" {
			*f.opponent = "solver:table=" + *f.tablePath
		}
		return tab.Game(), tab.Describe(), sets, err
	}
	var g env.Game
	var sets []*accuracy.Set
	for _, path := range splitSpecs(*f.setFlag) {
		s, err := accuracy.ReadSetFile(path)
		if err != nil {
			return nil, "", nil, fmt.Errorf("--set: %w", err)
		}
		sg, err := games.FromLine(s.Game)
		if err != nil {
			return nil, "", nil, fmt.Errorf("--set %s: its game %s: %w", path, env.Quote(s.Game), err)
		}
		if g != nil && sg.Describe() != g.Describe() {
			return nil, "", nil, fmt.Errorf("--set %s is a set of %s; the first set's game is %s", path, sg.Describe(), g.Describe())
		}
		if err := s.Check(sg); err != nil {
			return nil, "", nil, fmt.Errorf("--set %s: %w", path, err)
		}
		if s.Name == "" {
			s.Name = path
		}
		g = sg
		sets = append(sets, s)
	}
	if *f.opponent == "" && *f.convert > 0 {
		if !solver.Solvable(g) {
			return nil, "", nil, fmt.Errorf("accuracy: --convert on %s needs --opponent (its perfect player needs a table: solver:table=FILE)", g.Name())
		}
		*f.opponent = "solver:time=2"
	}
	return g, g.Describe(), sets, nil
}

// accuracyRun measures players on sets and keeps what the output files
// get: the misses, and the games that did not convert.
type accuracyRun struct {
	f           accuracyFlags
	io          stdio
	g           env.Game
	players     *player.Factory
	specs       []string
	setups      []*player.Setup
	defender    *player.Setup
	misses      strings.Builder
	unconverted []match.Record
	// firstMissed is, per set, the positions the first player missed:
	// each later player's row is followed by the positions only one of
	// the two missed, the paired evidence their intervals understate.
	firstMissed map[string]map[string]bool
}

// readPlayers reads --player's specs and --opponent's.
func (m *accuracyRun) readPlayers() error {
	m.specs = splitSpecs(*m.f.list)
	var err error
	if m.setups, err = readPlayers(m.players, "--player", m.specs, m.g, player.Options{}); err != nil {
		return err
	}
	if *m.f.convert > 0 {
		if m.defender, err = m.players.Read(*m.f.opponent, m.g, player.Options{}); err != nil {
			return fmt.Errorf("--opponent %s: %w", *m.f.opponent, err)
		}
	}
	return nil
}

// header prints the table's title and columns.
func (m *accuracyRun) header(title string) {
	if *m.f.asJSON {
		return
	}
	fmt.Fprintf(m.io.out, "%s\n\n%-36s %-11s %-27s %-27s %-27s %-27s", title, "player", "set", "all", "won", "drawn", "single move")
	if *m.f.convert > 0 {
		fmt.Fprintf(m.io.out, " converted against %s", *m.f.opponent)
	}
	fmt.Fprintln(m.io.out)
}

// measure measures player k on a set (and its conversion), and prints a
// row.
func (m *accuracyRun) measure(ctx context.Context, k int, set *accuracy.Set) error {
	f, spec, g := m.f, m.specs[k], m.g
	n := len(set.Entries)
	if *f.limit > 0 {
		n = min(n, *f.limit)
	}
	bar := newCountBar(m.io.err, n, "positions")
	newPlayer := func(seed uint64) (player.Player, error) { return m.setups[k].New(g, seed) }
	res, err := accuracy.MeasureSet(ctx, g, set, newPlayer,
		accuracy.Options{Limit: *f.limit, Seed: *f.seed, Parallel: *f.parallel, Progress: func(int, int) { bar.Add(1) }})
	bar.Finish()
	if err != nil {
		return fmt.Errorf("%s: %w", spec, err)
	}
	writeMisses(&m.misses, g, spec, set.Name, res.Misses)
	var conv *accuracy.Tally
	if *f.convert > 0 {
		cbar := newCountBar(m.io.err, *f.convert, "games")
		c, err := accuracy.ConvertSet(ctx, g, set, newPlayer, func(seed uint64) (player.Player, error) {
			return m.defender.New(g, seed)
		}, accuracy.Options{Limit: *f.convert, Seed: *f.seed, Parallel: *f.parallel, Progress: func(int, int) { cbar.Add(1) }})
		cbar.Finish()
		if err != nil {
			return fmt.Errorf("%s: converting: %w", spec, err)
		}
		conv = &c.Tally
		m.unconverted = append(m.unconverted, c.Unconverted...)
	}
	m.row(spec, set.Name, res, conv)
	m.paired(k, set.Name, res.Misses)
	return nil
}

// paired keeps the first player's misses on a set, and after each other
// player's row prints the positions only the first missed and only this
// one did, with the exact sign test's p (as bench --pons does).
func (m *accuracyRun) paired(k int, set string, misses []accuracy.Miss) {
	missed := map[string]bool{}
	for _, x := range misses {
		missed[x.Entry.Position] = true
	}
	if k == 0 {
		if m.firstMissed == nil {
			m.firstMissed = map[string]map[string]bool{}
		}
		m.firstMissed[set] = missed
		return
	}
	if *m.f.asJSON {
		return
	}
	onlyFirst, onlyThis := onlyEach(m.firstMissed[set], missed)
	fmt.Fprintf(m.io.out, "%-36s %-11s paired: positions only %s missed %d, only this player %d (sign test p = %.2g)\n",
		"", set, m.specs[0], onlyFirst, onlyThis, rating.SignTest(onlyFirst, onlyThis))
}

// row prints one player's result on one set.
func (m *accuracyRun) row(spec, set string, res accuracy.SetResult, conv *accuracy.Tally) {
	if *m.f.asJSON {
		line, _ := json.Marshal(struct {
			Player string `json:"player"`
			accuracy.SetResult
			Converted *accuracy.Tally `json:"converted,omitempty"`
		}{spec, res, conv})
		fmt.Fprintln(m.io.out, string(line))
		return
	}
	fmt.Fprintf(m.io.out, "%-36s %-11s %-27s %-27s %-27s %-27s", spec, set, res.All, res.Won, res.Drawn, res.Single)
	if res.Lost.Total > 0 {
		fmt.Fprintf(m.io.out, " lost %s", res.Lost)
	}
	if conv != nil {
		fmt.Fprintf(m.io.out, " %s", conv)
	}
	fmt.Fprintln(m.io.out)
}

// writeFiles writes --unconverted's games and --misses' lines.
func (m *accuracyRun) writeFiles() error {
	if *m.f.unconvertedPath != "" {
		var b bytes.Buffer
		if err := match.WriteRecords(&b, m.unconverted); err != nil {
			return fmt.Errorf("accuracy: %w", err)
		}
		if err := store.WriteAtomic(*m.f.unconvertedPath, b.Bytes()); err != nil {
			return fmt.Errorf("accuracy: %w", err)
		}
	}
	if *m.f.missesPath != "" {
		return store.WriteAtomic(*m.f.missesPath, []byte(m.misses.String()))
	}
	return nil
}

// writeMisses writes a player's misses on a set for --misses, with the
// plies to the end of the position's best line and of the line after the
// move played ("-" for a draw).
func writeMisses(w *strings.Builder, g env.Game, spec, set string, ms []accuracy.Miss) {
	plies := func(st env.State, score int) string {
		if n, ok := solver.PliesToEnd(st, score); ok {
			return fmt.Sprint(n)
		}
		return "-"
	}
	for _, m := range ms {
		st, err := g.ParseState(m.Position)
		if err != nil {
			continue // measured already: cannot happen
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%s\t%d\t%s\n", spec, set, m.Position, m.Score, plies(st, m.Score), m.Played, m.PlayedScore, plies(st, m.PlayedScore))
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// tableSets are the sets of a table that --set names: all, or one.
func tableSets(tab registry.Table, path, setFlag string) ([]*accuracy.Set, error) {
	names := accuracy.SetNames
	if setFlag != "" && setFlag != "all" {
		names = []string{setFlag}
	}
	var sets []*accuracy.Set
	for _, name := range names {
		if _, ok := tab.PositionSets()[name]; !ok {
			return nil, fmt.Errorf("--set %s: %s has no such set (it has %s)", name, path, strings.Join(keys(tab.PositionSets()), ", "))
		}
		s, err := accuracy.TableSet(tab, name)
		if err != nil {
			return nil, err
		}
		sets = append(sets, s)
	}
	return sets, nil
}
