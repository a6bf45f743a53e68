// Measuring players on a position set: the share of its critical positions
// whose value a player keeps (MeasureSet), and won positions converted
// against a defender (ConvertSet).

package accuracy

import (
	"context"
	"fmt"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/match"
)

// SetResult is a player's accuracy on a set.
type SetResult struct {
	Set string `json:"set"`
	All Tally  `json:"all"`
	// Won, Drawn and Lost split the positions by their class for the
	// side to move (lost positions are critical only on a scale finer
	// than the class, so a set of class-critical positions has none).
	Won   Tally `json:"won"`
	Drawn Tally `json:"drawn"`
	Lost  Tally `json:"lost"`
	// Single are the positions where only one move keeps the class.
	Single Tally `json:"single"`
	// Misses are the positions where the player's move gave the class
	// away, in the set's order.
	Misses []Miss `json:"-"`
}

// Miss is a position where a player's move gave its class away.
type Miss struct {
	Entry
	// Played is the move the player chose, PlayedScore its exact score.
	Played      string
	PlayedScore int
}

// MeasureSet plays the player's move on each position of the set and
// counts those where the move keeps the position's class.
func MeasureSet(ctx context.Context, g env.Game, set *Set, newPlayer Factory, o Options) (SetResult, error) {
	entries := set.Entries
	if o.Limit > 0 && o.Limit < len(entries) {
		entries = entries[:o.Limit]
	}
	played := make([]MoveScore, len(entries))
	err := forEach(ctx, len(entries), o.Parallel, o.Progress, func(i int) error {
		m, err := judgeEntry(ctx, g, entries[i], newPlayer, o.Seed^uint64(i)*0x9e3779b97f4a7c15)
		played[i] = m
		return err
	})
	if err != nil {
		return SetResult{}, err
	}
	r := SetResult{Set: set.Name}
	for i, e := range entries {
		k := 0
		if Class(played[i].Score) == Class(e.Score) {
			k = 1
		} else {
			r.Misses = append(r.Misses, Miss{Entry: e, Played: played[i].Move, PlayedScore: played[i].Score})
		}
		add := func(t *Tally) { t.Kept += k; t.Total++ }
		add(&r.All)
		switch Class(e.Score) {
		case 1:
			add(&r.Won)
		case 0:
			add(&r.Drawn)
		default:
			add(&r.Lost)
		}
		if e.Keeping() == 1 {
			add(&r.Single)
		}
	}
	return r, nil
}

// judgeEntry is the move the player makes in the entry's position, with
// its exact score.
func judgeEntry(ctx context.Context, g env.Game, e Entry, newPlayer Factory, seed uint64) (MoveScore, error) {
	s, err := g.ParseState(e.Position)
	if err != nil {
		return MoveScore{}, fmt.Errorf("position %s: %w", env.Quote(e.Position), err)
	}
	p, err := newPlayer(seed)
	if err != nil {
		return MoveScore{}, err
	}
	a, err := p.Move(ctx, s)
	if err != nil {
		return MoveScore{}, fmt.Errorf("%s on %s: %w", p, e.Position, err)
	}
	if !env.IsLegal(s, a) {
		return MoveScore{}, fmt.Errorf("%s chose action %d, not legal in %s", p, a, e.Position)
	}
	mv := s.ActionString(a)
	for _, m := range e.Moves {
		if m.Move == mv {
			return m, nil
		}
	}
	return MoveScore{}, fmt.Errorf("the set lists no move %s for %s", mv, env.Quote(e.Position))
}

// ConvertSet plays out the set's won positions (at most Limit): the
// player, to move, against the opponent, under the game's rules and ply
// cap. A win converts; a tie or a loss does not.
func ConvertSet(ctx context.Context, g env.Game, set *Set, newPlayer, newOpponent Factory, o Options) (Conversion, error) {
	spec, err := games.SpecFromLine(g.Describe())
	if err != nil {
		return Conversion{}, err
	}
	var won []env.State
	for _, e := range set.Entries {
		if Class(e.Score) <= 0 {
			continue
		}
		s, err := g.ParseState(e.Position)
		if err != nil {
			return Conversion{}, fmt.Errorf("position %s: %w", env.Quote(e.Position), err)
		}
		won = append(won, s)
		if o.Limit > 0 && len(won) == o.Limit {
			break
		}
	}
	recs := make([]match.Record, len(won))
	err = forEach(ctx, len(won), o.Parallel, o.Progress, func(i int) error {
		var err error
		recs[i], err = playOut(ctx, won[i], newPlayer, newOpponent, o.Seed^uint64(i)*0x9e3779b97f4a7c15)
		return err
	})
	if err != nil {
		return Conversion{}, err
	}
	var c Conversion
	for i, r := range recs {
		c.Total++
		if r.Outcome.Winner == won[i].ToMove() {
			c.Kept++
			continue
		}
		r.Spec, r.Number = spec, i+1
		c.Unconverted = append(c.Unconverted, r)
	}
	return c, nil
}
