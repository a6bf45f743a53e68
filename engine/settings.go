// Settings and the clock: set, time_settings, time_left and each move's
// time budget.

package engine

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/player"
)

// timeSettings is GTP's time_settings MAIN BYO STONES: each side has MAIN
// seconds for the game (byo-yomi is read and ignored beyond its first
// period's share of a move); 0 0 0 turns the clock off.
func (e *Engine) timeSettings(args []string) (string, error) {
	if err := wantArgs(args, 3, "time_settings MAIN_SECONDS BYO_SECONDS BYO_STONES"); err != nil {
		return "", err
	}
	main, err := seconds("main time", args[0], MaxGameTime)
	if err != nil {
		return "", err
	}
	byo, err := seconds("byo-yomi", args[1], MaxGameTime)
	if err != nil {
		return "", err
	}
	stones, err := strconv.Atoi(args[2])
	if err != nil || stones < 0 {
		return "", fmt.Errorf("byo-yomi stones %q: want a whole number, 0 or more", args[2])
	}
	e.gameTime = main
	e.left = [2]time.Duration{main, main}
	e.byoyomi = 0
	if byo > 0 && stones > 0 {
		e.byoyomi = byo / time.Duration(stones)
		if e.gameTime == 0 {
			e.gameTime = byo // the clock is on, with byo-yomi only
		}
	}
	return "", nil
}

// timeLeft is GTP's time_left COLOUR SECONDS STONES: the referee's clock
// for a side, which the next move's budget follows.
func (e *Engine) timeLeft(args []string) (string, error) {
	if err := wantArgs(args, 3, "time_left COLOUR SECONDS STONES"); err != nil {
		return "", err
	}
	side, err := e.game.ParseSide(args[0])
	if err != nil {
		return "", err
	}
	left, err := seconds("time left", args[1], MaxGameTime)
	if err != nil {
		return "", err
	}
	if _, err := strconv.Atoi(args[2]); err != nil {
		return "", fmt.Errorf("stones %q: want a whole number", args[2])
	}
	if e.gameTime == 0 {
		e.gameTime = left
	}
	e.left[side] = left
	return "", nil
}

// seconds reads a time in seconds, finite, from 0 to limit.
func seconds(name, v string, limit time.Duration) (time.Duration, error) {
	f, err := strconv.ParseFloat(v, 64)
	switch {
	case err != nil || math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("%s %q: want a number of seconds", name, v)
	case f < 0:
		return 0, fmt.Errorf("%s %q: the time is negative", name, v)
	case f > limit.Seconds():
		return 0, fmt.Errorf("%s %q: at most %.0f seconds", name, v, limit.Seconds())
	}
	return time.Duration(f * float64(time.Second)), nil
}

// set changes one of the engine's settings, or one of the player's: its
// budget (movetime, visits), threads, seed, or a search setting of a
// network player by its name (mcts.Settings). The player is built again
// from its setup, which loads no file again.
func (e *Engine) set(args []string) (string, error) {
	if err := wantArgs(args, 2, "set OPTION VALUE"); err != nil {
		return "", err
	}
	setup, seed := e.setup, e.seed
	switch name, v := args[0], args[1]; name {
	case "movetime", "time":
		d, err := seconds(name, v, MaxMoveTime)
		if err != nil {
			return "", err
		}
		setup = setup.WithBudget(player.Budget{Time: d})
	case "visits", "sims":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxVisits {
			return "", fmt.Errorf("%s %q: want a whole number from 1 to %d", name, v, MaxVisits)
		}
		setup = setup.WithBudget(player.Budget{Sims: n})
	case "seed":
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return "", fmt.Errorf("seed %q: want a non-negative whole number", v)
		}
		seed = n
	case "gametime":
		d, err := seconds(name, v, MaxGameTime)
		if err != nil {
			return "", err
		}
		e.gameTime = d
		e.restart()
		return "", nil
	case "repetition":
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return "", fmt.Errorf("repetition %q: want a whole number, 0 for off", v)
		}
		e.repetition = n
		return "", nil
	case "threads":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > mcts.MaxThreads {
			return "", fmt.Errorf("threads %q: want a whole number from 1 to %d", v, mcts.MaxThreads)
		}
		if setup, err = setup.WithThreads(n); err != nil {
			return "", err
		}
	default:
		var err error
		if setup, err = setup.WithSetting(name, v); errors.Is(err, mcts.ErrUnknownSetting) {
			return "", fmt.Errorf("unknown option %s: want movetime, visits, seed, gametime, repetition, threads, or a search setting (%s)", name, strings.Join(mcts.SettingNames(true), ", "))
		} else if err != nil {
			return "", err
		}
	}
	p, err := setup.New(e.game, seed)
	if err != nil {
		return "", err
	}
	if c, ok := e.player.(interface{ Close() error }); ok {
		c.Close()
	}
	e.setup, e.seed, e.player = setup, seed, p
	return "", nil
}
