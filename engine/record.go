// The engine's game as played so far, and the referee's clock.

package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/sliderzero/sliderzero/env"
)

// record is the game: the position, the positions before each move (for
// undo), and how often each position occurred (for the repetition rule).
type record struct {
	state env.State
	undo  []env.State
	// counted says of each move whether its position was counted for the
	// repetition rule (env.CountsMove).
	counted []bool
	seen    map[uint64]int // how often each position of the game occurred
	repTie  bool           // the game ended by the repetition rule
}

// reset starts the record from a position.
func (r *record) reset(start env.State) {
	r.state = start
	r.undo, r.counted = r.undo[:0], r.counted[:0]
	r.seen = env.NewHistory(start)
	r.repTie = false
}

// checkTurn parses a colour of game g and checks that it is that colour's
// turn.
func (r *record) checkTurn(g env.Game, colour string) (env.Side, error) {
	side, err := g.ParseSide(colour)
	if err != nil {
		return side, err
	}
	if r.over() {
		return side, fmt.Errorf("the game is over")
	}
	if side != r.state.ToMove() {
		return side, fmt.Errorf("it is %s's turn", g.SideName(r.state.ToMove()))
	}
	return side, nil
}

func (r *record) over() bool { return r.repTie || r.state.Outcome().Over }

// apply plays a legal action and keeps the history for undo and for the
// repetition rule, which ties the game when a position occurs more than
// limit times (0: off).
func (r *record) apply(a, limit int) {
	r.undo = append(r.undo, r.state.Clone())
	counts := env.CountsMove(r.state, a)
	r.counted = append(r.counted, counts)
	r.state.Apply(a)
	if !counts {
		return
	}
	h := r.state.Hash()
	r.seen[h]++
	if limit > 0 && !r.state.Outcome().Over && r.seen[h] > limit {
		r.repTie = true
	}
}

// back takes back the last move.
func (r *record) back() error {
	if len(r.undo) == 0 {
		return fmt.Errorf("nothing to undo: no move was played since the game started")
	}
	if r.counted[len(r.counted)-1] {
		r.seen[r.state.Hash()]--
	}
	r.state = r.undo[len(r.undo)-1]
	r.undo, r.counted = r.undo[:len(r.undo)-1], r.counted[:len(r.counted)-1]
	r.repTie = false
	return nil
}

// searchState is the position a player searches: wrapped, when the
// repetition rule is on (limit > 0), so that the search sees repetition
// ties coming.
func (r *record) searchState(limit int) env.State {
	if limit > 0 {
		return env.WithRepetition(r.state.Clone(), r.seen, limit)
	}
	return r.state
}

// gameClock is the referee's clock as the engine keeps it: each side's
// time for the game (0: no clock), what each has left, and byo-yomi's share
// added to every move.
type gameClock struct {
	gameTime time.Duration
	left     [2]time.Duration
	byoyomi  time.Duration
}

// restart gives each side the whole game's time again.
func (c *gameClock) restart() { c.left = [2]time.Duration{c.gameTime, c.gameTime} }

// moveContext bounds a move's search by the clock, when one is set: the
// time left spread over the moves the side may still have to make.
func (c *gameClock) moveContext(ctx context.Context, side env.Side) (context.Context, context.CancelFunc) {
	if c.gameTime <= 0 {
		return context.WithCancel(ctx)
	}
	budget := max(c.left[side]/20+c.byoyomi, 5*time.Millisecond)
	return context.WithTimeout(ctx, budget)
}

// spend takes a move's time off a side's clock.
func (c *gameClock) spend(side env.Side, d time.Duration) {
	if c.gameTime > 0 {
		c.left[side] -= d
	}
}
