// Command perfect5 tallies matches of a player against perfect play on
// Slider 5x5 layouts (issue 33): for each game, the start's exact value
// for the player (from the layout's table), the result, and, where the
// player gave a result away, the first move that did it. A diagnostic that
// judges play; nothing here teaches it.
//
// Usage: experiments/perfect5/perfect5 [-probe "SPEC;SPEC..."] RECORDS.jsonl...
// (built by go build -C experiments/perfect5, run from the repository's root)
//
// -probe asks each player spec for its move at every position where the
// player first gave a result away, and says whether it keeps the value
// there (does more search, or another player, avoid the mistake?).
//
// Tables are read from checkpoints/tables/slider-5x5[-CELLS].table (see
// solve.sh); the player is the side whose spec does not start "solver".
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/slider"
	solver "github.com/sliderzero/sliderzero/env/slider/solve"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
)

func main() {
	probe := flag.String("probe", "", "player specs separated by ';' to ask at each first mistake's position")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, `usage: perfect5 [-probe "SPEC;SPEC"] RECORDS.jsonl...`)
		os.Exit(2)
	}
	var specs []string
	if *probe != "" {
		specs = strings.Split(*probe, ";")
	}
	if err := run(flag.Args(), specs); err != nil {
		fmt.Fprintln(os.Stderr, "perfect5:", err)
		os.Exit(1)
	}
}

// tally counts games by the start's value for the player and the result.
type tally struct {
	games       [3][3]int // [start: won, drawn, lost][result: win, tie, loss]
	unreachable int       // won starts whose shortest win does not fit the plies left
	mistakes    []mistake
}

// mistake is the position where the player first gave a result away.
type mistake struct {
	line     string // what happened, for people
	position string // before the move, in the one-line form
	table    *solver.Table
}

func run(paths []string, probes []string) error {
	tables := map[string]*solver.Table{}
	byLayout := map[string]*tally{}
	var order []string
	total := &tally{}
	for _, path := range paths {
		recs, err := match.ReadRecords(path)
		if err != nil {
			return err
		}
		for _, rec := range recs {
			start, err := startOf(rec)
			if err != nil {
				return fmt.Errorf("%s game %d: %w", path, rec.Number, err)
			}
			layout := layoutOf(start)
			t, ok := tables[layout]
			if !ok {
				if t, err = solver.Read(tableFile(layout)); err != nil {
					return err
				}
				tables[layout] = t
			}
			if byLayout[layout] == nil {
				byLayout[layout] = &tally{}
				order = append(order, layout)
			}
			if err := judge(rec, start, t, byLayout[layout], total); err != nil {
				return fmt.Errorf("%s game %d: %w", path, rec.Number, err)
			}
		}
	}
	sort.Strings(order)
	fmt.Println("layout     starts for the player: won (W-T-L) | drawn (W-T-L) | lost (W-T-L) | won starts out of reach of the cap")
	for _, l := range order {
		printRow(l, byLayout[l])
	}
	printRow("all", total)
	for _, m := range total.mistakes {
		fmt.Println(m.line)
	}
	if len(probes) > 0 && len(total.mistakes) > 0 {
		return probe(total.mistakes, probes)
	}
	return nil
}

// probe asks each spec for its move at each mistake's position.
func probe(ms []mistake, specs []string) error {
	fmt.Println("\nat each first mistake's position: the move each player makes, and whether it keeps the value")
	for _, spec := range specs {
		kept := 0
		var moves []string
		for _, m := range ms {
			if m.table == nil {
				continue
			}
			g, _ := slider.Of(m.table.Game())
			s, err := g.ParsePosition(m.position)
			if err != nil {
				return err
			}
			p, err := player.New(spec, g, player.Options{Seed: 1})
			if err != nil {
				return err
			}
			a, err := p.Move(context.Background(), s)
			if err != nil {
				return err
			}
			before, _ := m.table.Value(s)
			move := s.ActionString(a)
			s.Apply(a)
			after, _ := m.table.Value(s)
			verdict := "lost"
			if !gaveAway(before, after) {
				kept++
				verdict = "kept"
			}
			moves = append(moves, fmt.Sprintf("%s(%s)", move, verdict))
		}
		fmt.Printf("%-55s kept %d of %d: %s\n", spec, kept, len(ms), strings.Join(moves, " "))
	}
	return nil
}

func printRow(name string, t *tally) {
	row := func(i int) string {
		g := t.games[i]
		return fmt.Sprintf("%3d (%d-%d-%d)", g[0]+g[1]+g[2], g[0], g[1], g[2])
	}
	fmt.Printf("%-10s %s | %s | %s | %d\n", name, row(0), row(1), row(2), t.unreachable)
}

// startOf is a record's start (ReadRecords has already replayed the game).
func startOf(rec match.Record) (*slider.State, error) {
	g, err := games.New(rec.Spec)
	if err != nil {
		return nil, err
	}
	sg, ok := g.(*slider.Game)
	if !ok || sg.Size() != 5 {
		return nil, fmt.Errorf("not a Slider 5x5 game: %s", rec.Game)
	}
	return sg.ParsePosition(rec.Start)
}

// gaveAway reports whether a move from a position worth before to one
// worth after (for the side then to move) lost its mover some of the value.
func gaveAway(before, after solver.Value) bool { return -after.Result < before.Result }

// layoutOf names a position's blocked cells as solve.sh names its tables.
func layoutOf(s *slider.State) string {
	cells := s.BlockedCells()
	if len(cells) == 0 {
		return "none"
	}
	names := strings.Split(slider.FormatCells(cells), ",")
	sort.Strings(names) // as layouts.txt lists them
	return strings.Join(names, "-")
}

func tableFile(layout string) string {
	if layout == "none" {
		return "checkpoints/tables/slider-5x5.table"
	}
	return "checkpoints/tables/slider-5x5-" + layout + ".table"
}

// judge adds one game to the layout's tally and the total.
func judge(rec match.Record, start *slider.State, t *solver.Table, per, total *tally) error {
	me := env.Side(0)
	if !strings.HasPrefix(rec.Players[1], "solver") {
		me = 1
	}
	v, err := t.Value(start)
	if err != nil {
		return err
	}
	if start.ToMove() != me {
		v.Result = -v.Result
	}
	row := 1 - int(v.Result) // won 0, drawn 1, lost 2
	col := 1
	switch rec.Outcome.Winner {
	case me:
		col = 0
	case me.Other():
		col = 2
	}
	unreachable := v.Result == solver.Win && start.Ply()+v.Plies > start.Rules().PlyCap()
	for _, x := range []*tally{per, total} {
		x.games[row][col]++
		if unreachable {
			x.unreachable++
		}
	}
	if !(row == 0 && col != 0) && !(row == 1 && col == 2) {
		return nil // the player kept what the start was worth
	}
	// Find the player's first move that gave the value away.
	s := start.Clone().(*slider.State)
	for i, m := range rec.Moves {
		a, err := s.ParseAction(m)
		if err != nil {
			return err
		}
		mover := s.ToMove()
		if mover == me {
			before, _ := t.Value(s)
			text := s.String()
			s.Apply(a)
			after, _ := t.Value(s)
			if gaveAway(before, after) {
				total.mistakes = append(total.mistakes, mistake{line: fmt.Sprintf(
					"game %d (%s, %s to move first, the player %s): ply %d %s turned %s into %s; position before: %s",
					rec.Number, layoutOf(start), start.Game().SideName(start.ToMove()), start.Game().SideName(me),
					i+1, m, before, after.Negate(), text), position: text, table: t})
				return nil
			}
			continue
		}
		s.Apply(a)
	}
	total.mistakes = append(total.mistakes, mistake{line: fmt.Sprintf("game %d (%s): the value was never given away by a move (the ply cap)", rec.Number, layoutOf(start))})
	return nil
}
