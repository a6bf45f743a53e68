// Package match referees games between players and records them.
package match

import (
	"context"
	"fmt"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
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
}

// Record is a finished game.
type Record struct {
	Spec    games.Spec // the game, when known (set by Series)
	Game    string     // the game's configuration, Game.Describe
	Start   string     // the start position, one line
	Players [2]string
	Moves   []string
	Outcome env.Outcome
	// Repetition is set when the game was ended by the repetition limit.
	Repetition bool
}

// Play plays one game from start (which is not modified) between
// players[side] for each side, and returns its record. An error from a
// player, or an illegal move, ends the game with an error naming the player.
func Play(ctx context.Context, start env.State, players [2]player.Player, opt Options) (Record, error) {
	g := start.Game()
	rec := Record{Game: g.Describe(), Start: start.String(), Players: [2]string{players[0].String(), players[1].String()}}
	s := start.Clone()
	var seen map[uint64]int
	if opt.RepetitionLimit > 0 {
		seen = map[uint64]int{s.Hash(): 1}
	}
	for !s.Outcome().Over {
		if err := ctx.Err(); err != nil {
			return rec, err
		}
		side := s.ToMove()
		a, err := players[side].Move(ctx, s)
		if err != nil {
			return rec, fmt.Errorf("%s (%s): %w", g.SideName(side), players[side], err)
		}
		if !env.IsLegal(s, a) {
			return rec, fmt.Errorf("%s (%s) chose action %d, which is not legal in %s", g.SideName(side), players[side], a, s)
		}
		move := s.ActionString(a)
		s.Apply(a)
		rec.Moves = append(rec.Moves, move)
		if opt.OnMove != nil {
			opt.OnMove(s, side, move)
		}
		if seen != nil && !s.Outcome().Over {
			h := s.Hash()
			seen[h]++
			if seen[h] > opt.RepetitionLimit {
				rec.Repetition = true
				rec.Outcome = env.Outcome{Over: true, Winner: env.NoSide}
				return rec, nil
			}
		}
	}
	rec.Outcome = s.Outcome()
	return rec, nil
}
