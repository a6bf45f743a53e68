package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/match"
)

const replayAbout = `Replays a game saved by match --records (or tournament --records): the
board after every move. On a terminal it waits for Enter between moves
(q then Enter stops); otherwise it prints the whole game.

Example: sliderzero replay --records games.jsonl --number 3`

func runReplay(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	path := fs.String("records", "", "records file written by match or tournament")
	number := rangeVar(fs, "number", 1, 1, math.MaxInt, "which game of the file, from 1")
	all := fs.Bool("all", false, "print the whole game without waiting")
	if err := parseFlags(fs, args, io, replayAbout); err != nil {
		return ignoreHelp(err)
	}
	if *path == "" {
		return usageError{fmt.Errorf("replay: --records FILE is required")}
	}
	recs, err := match.ReadRecords(*path)
	if err != nil {
		return err
	}
	if *number < 1 || *number > len(recs) {
		return fmt.Errorf("replay: --number %d: %s holds games 1 to %d", *number, *path, len(recs))
	}
	rec := recs[*number-1]
	g, err := games.New(rec.Spec)
	if err != nil {
		return err
	}
	start, err := g.ParseState(rec.Start)
	if err != nil {
		return err
	}
	wait := !*all && isTerminal(io.in)
	in := bufio.NewScanner(io.in)
	fmt.Fprintf(io.out, "game %d of %s: %s\n%s: %s\n%s: %s\n\n%s", *number, *path, g.Describe(),
		g.SideName(0), rec.Players[0], g.SideName(1), rec.Players[1], start.Display())
	stopped := false
	_, err = rec.Replay(func(s env.State, ply int, move string) {
		if stopped {
			return
		}
		if wait {
			fmt.Fprint(io.out, "[Enter: next move, q: quit] ")
			if !in.Scan() || in.Text() == "q" {
				stopped = true
				return
			}
		}
		fmt.Fprintf(io.out, "\nply %s: %s%s\n%s", strconv.Itoa(ply), move, moveNote(rec, ply-1), s.Display())
	})
	if err != nil {
		return err
	}
	if !stopped {
		fmt.Fprintln(io.out, describeResult(g, rec))
	}
	return nil
}

// isTerminal reports whether r is a terminal a person types at (a
// character device such as /dev/null is not).
func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// moveNote is what the record says of a move beyond its notation: the time
// it took, and the player's value and visits where it reported them.
func moveNote(rec match.Record, i int) string {
	var parts []string
	if i < len(rec.Seconds) {
		parts = append(parts, fmt.Sprintf("%.2fs", rec.Seconds[i]))
	}
	if i < len(rec.Values) && rec.Values[i] == rec.Values[i] {
		parts = append(parts, fmt.Sprintf("value %+.2f", rec.Values[i]))
	}
	if i < len(rec.Visits) && rec.Visits[i] > 0 {
		parts = append(parts, fmt.Sprintf("%d visits", rec.Visits[i]))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
