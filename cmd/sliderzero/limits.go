// The bounds of the counts and sizes a user types (docs/reliability.md,
// "Bounds"). Each is checked where the value enters, as the flag is
// parsed where it can be: a value outside is a usage error (status 2)
// that names the flag and the range it takes.

package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/solver"
)

const (
	// maxParallel bounds --parallel, --workers and serve's --searches:
	// games, positions or searches at once. Past the cores they only
	// wait, and each holds a player (a search tree, a solver's table).
	maxParallel = 256
	// maxGames bounds the games one command plays: match --games, a
	// tournament's games in all, and the games a set's or a table's
	// players play (--games-per-pair times the ordered pairs).
	maxGames = accuracy.MaxGames
	// maxPositions bounds the positions a set or a table's set keeps
	// (sets --count, solve --positions) and the openings made: a set
	// file holds at most 64 MB, 100,000 positions of the largest boards.
	maxPositions = accuracy.MaxPositions
	// maxPlies bounds the random moves an opening is made of
	// (openings --plies, --random-plies).
	maxPlies = 10_000
	// maxSeconds bounds a time given in seconds: a day.
	maxSeconds = 24 * 60 * 60
	// maxMinutes bounds train --minutes: about two years.
	maxMinutes = 1_000_000
)

// parallelVar defines a --parallel flag (or another of its kind, such
// as --workers) from 1 to maxParallel.
func parallelVar(fs *flag.FlagSet, name string, def int, usage string) *int {
	return rangeVar(fs, name, min(def, maxParallel), 1, maxParallel, usage)
}

// tableMBVar defines a flag of megabytes of solver table, from 1 to the
// machine's bound (solver.MaxTableMB, which the perfect player's mb=
// shares).
func tableMBVar(fs *flag.FlagSet, name string, def int, usage string) *int {
	v := min(def, solver.MaxTableMB())
	fs.Var(rangeFlag{&v, 1, solver.MaxTableMB(), memoryWhy}, name, usage)
	return &v
}

// memoryWhy says where the memory bound comes from.
const memoryWhy = "MB: a quarter of this machine's memory"

// tooMany is the usage error of a count that its flags together push past
// a bound: "sets: --games-per-pair 99999 with 6 players: 3599964 games;
// at most 1000000".
func tooMany(cmd, what string, n, bound int, unit string) error {
	return usageError{fmt.Errorf("%s: %s: %d %s; at most %d", cmd, what, n, unit, bound)}
}

// checkSeconds refuses a time flag that is negative or over a day.
func checkSeconds(cmd, name string, d time.Duration) error {
	if d < 0 || d > maxSeconds*time.Second {
		return usageError{fmt.Errorf("%s: %s %s: want 0 to %s", cmd, name, d, maxSeconds*time.Second)}
	}
	return nil
}
