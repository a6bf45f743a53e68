// Package match referees games and series between players and records
// them.
package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/player"
)

// Options change how a game is refereed.
type Options struct {
	// RepetitionLimit, when positive, ends the game as a tie when the same
	// position (board and side to move) occurs more than this many times,
	// as the course's tournament server did with 5.
	RepetitionLimit int
	// OnMove, when set, is called after every move with the new position
	// and the move in notation (as written before it was applied).
	OnMove func(s env.State, side env.Side, move string)
	// OnUndo, when set, is called after a player's undo (player.ErrUndo)
	// took the game back to its previous turn, with the position now on
	// the board and the plies taken back (0: there was nothing to undo).
	OnUndo func(s env.State, plies int)
}

// End says how a game ended.
type End string

const (
	// EndRules: the game's own rules ended it (a win, or a tie such as
	// Slider's two passes).
	EndRules End = "rules"
	// EndPlyCap: the game reached its ply cap, a tie.
	EndPlyCap End = "ply cap"
	// EndRepetition: a position occurred more often than the repetition
	// limit, a tie.
	EndRepetition End = "repetition"
	// EndIllegal, EndTime and EndCrash are forfeits: the player who moved
	// played an illegal move (or answered garbage), ran out of time, or
	// failed (an external program that died, say), and lost.
	EndIllegal End = "illegal move"
	EndTime    End = "time"
	EndCrash   End = "crash"
)

// Forfeit reports whether an end is a player's fault.
func (e End) Forfeit() bool { return e == EndIllegal || e == EndTime || e == EndCrash }

// Record is a finished game.
type Record struct {
	Spec    registry.Spec // the game, when known (set by Series)
	Game    string        // the game's configuration, Game.Describe
	Start   string        // the start position, one line
	Players [2]string     // the players' specs, by side
	Moves   []string
	Outcome env.Outcome
	// End says how the game ended; Detail adds what a forfeit was (the
	// illegal move, the error).
	End    End
	Detail string
	// Seed is the seed of the game's series and Number its place in it
	// (from 1): together they give the game's start and players' seeds.
	// Date is when it started.
	Seed   uint64
	Number int
	Date   time.Time
	// Per move: the seconds it took, and where the player reports them,
	// the search's value for the mover and its visits (NaN and 0 when it
	// does not).
	Seconds []float64
	Values  []float32
	Visits  []int
}

// Repetition reports whether the game was ended by the repetition limit.
func (r Record) Repetition() bool { return r.End == EndRepetition }

// Play plays one game from start (which is not modified) between
// players[side] for each side, and returns its record. A player's failure
// (an error, an illegal move, a time-out) loses it the game, recorded with
// the reason; only ctx ending returns an error.
func Play(ctx context.Context, start env.State, players [2]player.Player, opt Options) (Record, error) {
	g := start.Game()
	rec := Record{Game: g.Describe(), Start: start.String(), Players: [2]string{players[0].String(), players[1].String()}, Date: time.Now().UTC()}
	s := start.Clone()
	var seen map[uint64]int
	if opt.RepetitionLimit > 0 {
		seen = env.NewHistory(s)
	}
	// before[k] is the position before move k, for undo.
	var before []env.State
	forfeit := func(side env.Side, end End, detail string) (Record, error) {
		rec.End, rec.Detail = end, detail
		rec.Outcome = env.Outcome{Over: true, Winner: side.Other()}
		return rec, nil
	}
	for !s.Outcome().Over {
		if err := ctx.Err(); err != nil {
			return rec, err
		}
		side := s.ToMove()
		t0 := time.Now()
		a, err := players[side].Move(ctx, s)
		secs := time.Since(t0).Seconds()
		if err != nil {
			if ctx.Err() != nil {
				return rec, ctx.Err()
			}
			if errors.Is(err, player.ErrQuit) {
				return rec, err // a person left the game: no result
			}
			if errors.Is(err, player.ErrUndo) {
				// Back to this side's previous turn: every move since the
				// last one it made is taken back.
				k := len(before) - 1
				for k >= 0 && before[k].ToMove() != side {
					k--
				}
				if k < 0 {
					if opt.OnUndo != nil {
						opt.OnUndo(s, 0)
					}
					continue
				}
				taken := len(before) - k
				s = before[k]
				before = before[:k]
				rec.Moves, rec.Seconds, rec.Values, rec.Visits = rec.Moves[:k], rec.Seconds[:k], rec.Values[:k], rec.Visits[:k]
				if seen != nil {
					seen = env.NewHistory(start)
					replay := start.Clone()
					for _, m := range rec.Moves {
						a, _ := replay.ParseAction(m)
						counts := env.CountsMove(replay, a)
						replay.Apply(a)
						if counts {
							seen[replay.Hash()]++
						}
					}
				}
				if opt.OnUndo != nil {
					opt.OnUndo(s, taken)
				}
				continue
			}
			end := EndCrash
			switch {
			case errors.Is(err, player.ErrTimeLimit):
				end = EndTime
			case errors.Is(err, player.ErrIllegalMove):
				end = EndIllegal
			}
			return forfeit(side, end, fmt.Sprintf("%s (%s): %v", g.SideName(side), players[side], err))
		}
		if !env.IsLegal(s, a) {
			return forfeit(side, EndIllegal, fmt.Sprintf("%s (%s) chose action %d, not legal in %s", g.SideName(side), players[side], a, s))
		}
		move := s.ActionString(a)
		counts := env.CountsMove(s, a)
		before = append(before, s.Clone())
		s.Apply(a)
		rec.Moves = append(rec.Moves, move)
		rec.Seconds = append(rec.Seconds, secs)
		value, visits := float32(nanValue), 0
		if r, ok := players[side].(player.Reporter); ok {
			value, visits = r.LastSearch()
		}
		rec.Values = append(rec.Values, value)
		rec.Visits = append(rec.Visits, visits)
		if opt.OnMove != nil {
			opt.OnMove(s, side, move)
		}
		if seen != nil && counts && !s.Outcome().Over {
			h := s.Hash()
			seen[h]++
			if seen[h] > opt.RepetitionLimit {
				rec.End = EndRepetition
				rec.Outcome = env.Outcome{Over: true, Winner: env.NoSide}
				return rec, nil
			}
		}
	}
	rec.Outcome = s.Outcome()
	rec.End = EndRules
	if env.EndedByCap(s) {
		rec.End = EndPlyCap
	}
	return rec, nil
}

// nanValue marks a move whose player reported no value.
var nanValue = float32(math.NaN())

// closePlayers releases players that hold resources (an external
// program's process).
func closePlayers(players [2]player.Player) {
	for _, p := range players {
		if c, ok := p.(io.Closer); ok && p != nil {
			c.Close()
		}
	}
}
