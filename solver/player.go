package solver

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/sliderzero/sliderzero/env"
)

// Player plays perfectly from a table: the shortest win, else a draw, else
// the longest loss, with a random choice among equal moves. It implements
// player.Player.
type Player struct {
	table *Table
	spec  string
	rng   *rand.Rand
}

// NewPlayer returns a perfect player; spec is its name in records.
func NewPlayer(t *Table, spec string, rng *rand.Rand) *Player {
	return &Player{table: t, spec: spec, rng: rng}
}

func (p *Player) String() string { return p.spec }

// Move plays a best move. It refuses a position of another board.
func (p *Player) Move(_ context.Context, s env.State) (int, error) {
	if s.Outcome().Over {
		return 0, fmt.Errorf("no legal move: the game is over")
	}
	actions, values, err := p.table.Moves(s)
	if err != nil {
		return 0, err
	}
	best, ties := 0, 0
	for i, v := range values {
		switch {
		case i == 0 || v.Better(values[best]):
			best, ties = i, 1
		case v == values[best]:
			ties++
			if p.rng.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return actions[best], nil
}
