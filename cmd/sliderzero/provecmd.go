package main

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/solver"
	"github.com/sliderzero/sliderzero/solver/pns"
)

const proveAbout = `Proves who wins, from the game's rules alone, by proof-number search
(df-pn with a transposition table): exact, but only where its node budget
reaches. It judges; training never uses it.

With --position (default: the game's start) it asks of that position
whether the side to move wins and, if not, whether the other side does.
With --records it walks back through each recorded game from its end,
proving at every position that the game's winner wins from there, until a
proof runs out of budget: it prints from which ply each result was proven
and any position where the eventual loser held a proven win (a turning
point), then a summary.

Exact for games whose positions never repeat within a game (Cats & Dogs,
Connect Four); where a position repeats on the search's path it says so
and stops. A tie by the ply cap is not a win for anyone.

Examples:
  sliderzero prove --game catsdogs --nodes 100000000
  sliderzero prove --records experiments/catsdogs60/final.jsonl --nodes 2000000`

func runProve(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("prove", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs, false)
	position := fs.String("position", "", "a position in the game's one-line form (default: the start)")
	records := fs.String("records", "", "records file (match or tournament --records): prove each game's result backwards from its end")
	nodes := fs.Int64("nodes", 10_000_000, "positions each proof may expand (0: no limit; at most 10^12)")
	tableBits := rangeVar(fs, "table-bits", 22, 10, 30, "the transposition table holds 2^N positions, 16 bytes each; one table per game proven at once, the tables together within the machine's bound")
	parallel := parallelVar(fs, "parallel", 2, "with --records: games proven at once")
	if err := parseFlags(fs, args, io, proveAbout); err != nil {
		return ignoreHelp(err)
	}
	if *nodes < 0 || *nodes > solver.MaxNodes {
		return usageError{fmt.Errorf("prove: --nodes %d: want 0 (no limit) to %d", *nodes, int64(solver.MaxNodes))}
	}
	tables := 1
	if *records != "" {
		tables = *parallel
	}
	if mb := 16 << *tableBits >> 20; mb*tables > solver.MaxTableMB() {
		return usageError{fmt.Errorf("prove: --table-bits %d makes tables of %d MB, %d at once; at most %d MB in all (%s)", *tableBits, mb, tables, solver.MaxTableMB(), memoryWhy)}
	}
	if *records != "" && *position != "" {
		return fmt.Errorf("prove: give --position or --records, not both")
	}
	if *records != "" {
		if err := gf.checkApplies(); err != nil {
			return err
		}
		recs, err := match.ReadRecords(*records)
		if err != nil {
			return err
		}
		return proveRecords(ctx, io, recs, *nodes, *tableBits, *parallel)
	}
	g, err := gf.build()
	if err != nil {
		return err
	}
	s := g.Start(nil)
	if *position != "" {
		if s, err = g.ParseState(*position); err != nil {
			return fmt.Errorf("--position: %w", err)
		}
	}
	return provePosition(ctx, io, pns.New(*tableBits), s, *nodes)
}

// provePosition proves s for the side to move, then, unless that side was
// proven to win, for the other.
func provePosition(ctx context.Context, io stdio, p *pns.Prover, s env.State, nodes int64) error {
	g := s.Game()
	fmt.Fprintf(io.out, "%s\n", s)
	if s.Outcome().Over {
		fmt.Fprintf(io.out, "the game is over: %s\n", outcomeWords(g, s.Outcome()))
		return nil
	}
	mover := s.ToMove()
	for _, attacker := range []env.Side{mover, mover.Other()} {
		start := time.Now()
		r, st, err := p.Prove(ctx, s, attacker, nodes)
		if err != nil {
			return fmt.Errorf("prove: %w", err)
		}
		how := ""
		if r == pns.Won {
			if a, ok := p.WinningMove(ctx, s, attacker, nodes); ok {
				how = ", by " + s.ActionString(a)
			}
		}
		fmt.Fprintf(io.out, "%s: %s%s (%d nodes, %.1f s)\n", g.SideName(attacker), r, how, st.Nodes, time.Since(start).Seconds())
		if r == pns.Won {
			break
		}
	}
	return nil
}

func outcomeWords(g env.Game, o env.Outcome) string {
	if o.Winner == env.NoSide {
		return "a tie"
	}
	return g.SideName(o.Winner) + " won"
}

// gameProof is what proving one recorded game backwards found.
type gameProof struct {
	number, plies int
	from          int   // the first ply of the proven run up to the end
	turns         []int // plies where the eventual loser was not lost
	words         string
}

// proveGame walks one game back from its end, proving at each position
// that the winner wins, until a proof runs out of budget. It starts from
// an empty table, so that a game's result does not depend on which games
// the same worker proved before.
func proveGame(ctx context.Context, p *pns.Prover, rec match.Record, number int, nodes int64) (gameProof, error) {
	p.Clear()
	line := []env.State{}
	if _, err := rec.Replay(func(s env.State, _ int, _ string) { line = append(line, s.Clone()) }); err != nil {
		return gameProof{}, fmt.Errorf("game %d: %w", number, err)
	}
	g, err := games.New(rec.Spec)
	if err != nil {
		return gameProof{}, err
	}
	start, err := g.ParseState(rec.Start)
	if err != nil {
		return gameProof{}, fmt.Errorf("game %d: %w", number, err)
	}
	line = append([]env.State{start}, line...)
	gp := gameProof{number: number, plies: len(line) - 1, from: len(line) - 1, words: outcomeWords(g, rec.Outcome)}
	for ply := len(line) - 2; ply >= 0; ply-- {
		r, _, err := p.Prove(ctx, line[ply], rec.Outcome.Winner, nodes)
		if err != nil {
			return gp, fmt.Errorf("game %d: %w", number, err)
		}
		if r == pns.Unknown {
			break
		}
		if r == pns.NotWon {
			// In a game without ties the loser held a win here; with
			// ties, at least a tie.
			gp.turns = append(gp.turns, ply)
			continue
		}
		if len(gp.turns) == 0 {
			gp.from = ply
		}
	}
	slices.Reverse(gp.turns)
	return gp, nil
}

// proveRecords proves each game won by the rules, parallel games at once
// (each with its own table of 2^tableBits entries), and prints them in
// order with a summary.
func proveRecords(ctx context.Context, io stdio, recs []match.Record, nodes int64, tableBits, parallel int) error {
	var won []match.Record
	for _, rec := range recs {
		if rec.End == match.EndRules && rec.Outcome.Winner != env.NoSide {
			won = append(won, rec) // forfeits, ties and repetitions prove nothing
		}
	}
	if len(won) == 0 {
		fmt.Fprintln(io.out, "no game in the file was won by the rules")
		return nil
	}
	var settled []float64 // plies before the end at which the result was proven
	decided, turning := 0, 0
	err := proveInOrder(ctx, won, nodes, tableBits, parallel, func(gp gameProof) {
		settled = append(settled, float64(gp.plies-gp.from))
		if gp.from == 0 {
			decided++
		}
		if len(gp.turns) > 0 {
			turning++
		}
		fmt.Fprintf(io.out, "game %d: %s in %d plies; proven from ply %d (%d before the end)", gp.number, gp.words, gp.plies, gp.from, gp.plies-gp.from)
		if len(gp.turns) > 0 {
			fmt.Fprintf(io.out, "; the loser was not lost at plies %v", gp.turns)
		}
		fmt.Fprintln(io.out)
	})
	if err != nil {
		return err
	}
	slices.Sort(settled)
	fmt.Fprintf(io.out, "%d games won by the rules: the result proven a median %.0f plies before the end (range %.0f to %.0f); %d proven from the start; %d where the loser was, at some position, not lost\n",
		len(won), settled[len(settled)/2], settled[0], settled[len(settled)-1], decided, turning)
	return nil
}

// proveInOrder proves the games on parallel workers, each with a table of
// 2^tableBits entries, and hands each proof to each in the games' order.
func proveInOrder(ctx context.Context, won []match.Record, nodes int64, tableBits, parallel int, each func(gameProof)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	proofs := make([]gameProof, len(won))
	done := make([]chan error, len(won))
	for i := range done {
		done[i] = make(chan error, 1)
	}
	jobs := make(chan int)
	for w := 0; w < min(parallel, len(won)); w++ {
		go func() {
			p := pns.New(tableBits)
			for i := range jobs {
				number := won[i].Number
				if number == 0 {
					number = i + 1
				}
				var err error
				proofs[i], err = proveGame(ctx, p, won[i], number, nodes)
				done[i] <- err
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range won {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	for i := range won {
		var err error
		select {
		case err = <-done[i]:
		case <-ctx.Done():
			err = ctx.Err()
		}
		if err != nil {
			return err
		}
		each(proofs[i])
	}
	return nil
}
