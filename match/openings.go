package match

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/player"
)

// OpeningsOptions say how to draw balanced openings.
type OpeningsOptions struct {
	// Count openings are drawn, each Plies uniformly random moves from
	// the game's start, kept when the judge values it within Balance of
	// even (values run from -1 to 1).
	Count, Plies int
	Balance      float64
	Seed         uint64
	// OnKept hears of each opening kept.
	OnKept func()
}

// BalancedOpenings draws start positions for matches: from the game's
// start, o.Plies random moves, then judge's search values the position for
// its side to move (judge's players must be player.Reporters); positions
// within o.Balance of even are kept, each once, until o.Count of them. It
// returns them in the game's one-line form and how many candidates were
// judged.
func BalancedOpenings(ctx context.Context, g env.Game, judge Entrant, o OpeningsOptions) ([]string, int, error) {
	rng := rand.New(rand.NewPCG(o.Seed, 0x0fe))
	seen := map[string]bool{}
	var kept []string
	for tries := 1; len(kept) < o.Count; tries++ {
		if err := ctx.Err(); err != nil {
			return kept, len(seen), err
		}
		if tries > 200*o.Count {
			return kept, len(seen), fmt.Errorf("only %d balanced positions in %d tries; allow a wider balance or fewer plies", len(kept), tries-1)
		}
		s := g.Start(rng)
		var legal []int
		for k := 0; k < o.Plies && !s.Outcome().Over; k++ {
			legal = s.LegalActions(legal[:0])
			s.Apply(legal[rng.IntN(len(legal))])
		}
		key := s.String()
		if s.Outcome().Over || seen[key] {
			continue
		}
		seen[key] = true
		v, err := judgeValue(ctx, judge, s, rng.Uint64())
		if err != nil {
			return kept, len(seen), err
		}
		if math.Abs(v) <= o.Balance {
			kept = append(kept, key)
			if o.OnKept != nil {
				o.OnKept()
			}
		}
	}
	return kept, len(seen), nil
}

// judgeValue is the judge's value of s for its side to move.
func judgeValue(ctx context.Context, judge Entrant, s env.State, seed uint64) (float64, error) {
	p, err := judge.New(s.Game(), seed)
	if err != nil {
		return 0, err
	}
	defer closePlayers([2]player.Player{p})
	r, ok := p.(player.Reporter)
	if !ok {
		return 0, fmt.Errorf("the judge %s does not report a value", p)
	}
	if _, err := p.Move(ctx, s); err != nil {
		return 0, err
	}
	v, _ := r.LastSearch()
	return float64(v), nil
}
