package pons

import (
	"context"
	"fmt"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/rating"
)

// Result is a player's errors on a set, counted as AlphaZero.jl counts
// them: over all the positions measured.
type Result struct {
	Set       string `json:"set"`
	Errors    int    `json:"errors"`
	Positions int    `json:"positions"`
	// Misses are the positions of the errors, in the set's order: the
	// moves, the set's score and the column played (from 1).
	Misses []Miss `json:"-"`
}

// Miss is a position where the player's move was worse than the best.
type Miss struct {
	Entry
	Column int
	Played Class
}

// Rate is the share of positions where the move was an error.
func (r Result) Rate() float64 {
	if r.Positions == 0 {
		return 0
	}
	return float64(r.Errors) / float64(r.Positions)
}

// Interval is the rate's 95% Wilson interval.
func (r Result) Interval() (lo, hi float64) { return rating.Wilson(r.Errors, r.Positions) }

func (r Result) String() string {
	lo, hi := r.Interval()
	return fmt.Sprintf("%d of %d: %.1f%% [%.1f, %.1f]", r.Errors, r.Positions, 100*r.Rate(), 100*lo, 100*hi)
}

// Judge plays the player's move once in each of the set's first o.Limit
// positions (0: all), which l must label, and counts the errors: the
// moves whose class is worse than the best move's. Each position's player
// is built with its own seed (accuracy.MeasureSet), so the result does
// not depend on o.Parallel.
func Judge(ctx context.Context, g env.Game, s *Set, l *Labels, newPlayer accuracy.Factory, o accuracy.Options) (Result, error) {
	if miss := l.Missing(s, o.Limit); len(miss) > 0 {
		return Result{}, fmt.Errorf("%s: %d positions are not labelled yet (the first on line %d)", s.Name, len(miss), s.Entries[miss[0]].Line)
	}
	as, err := AccuracySet(g, s, l, o.Limit)
	if err != nil {
		return Result{}, err
	}
	res, err := accuracy.MeasureSet(ctx, g, as, newPlayer, o)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", s.Name, err)
	}
	r := Result{Set: s.Name, Positions: res.All.Total, Errors: res.All.Total - res.All.Kept}
	// The misses come in the set's order, which may hold a position twice.
	j := 0
	for _, m := range res.Misses {
		for j < len(as.Entries) && as.Entries[j].Position != m.Position {
			j++
		}
		if j == len(as.Entries) {
			return Result{}, fmt.Errorf("%s: a miss in %s out of the set's order", s.Name, m.Position)
		}
		st, err := g.ParseState(m.Position)
		if err != nil {
			return Result{}, err
		}
		a, err := st.ParseAction(m.Played)
		if err != nil {
			return Result{}, err
		}
		r.Misses = append(r.Misses, Miss{Entry: s.Entries[j], Column: a + 1, Played: Class(m.PlayedScore)})
		j++
	}
	return r, nil
}

// AccuracySet is the set's first limit positions (0: all) as a position
// set of package accuracy, each move scored with its class (1, 0, -1):
// a move keeps the position's class there exactly when it is no error
// here.
func AccuracySet(g env.Game, s *Set, l *Labels, limit int) (*accuracy.Set, error) {
	n := len(s.Entries)
	if limit > 0 {
		n = min(n, limit)
	}
	out := &accuracy.Set{Name: s.Name, Game: g.Describe(), Scale: "the class of the move: 1 a win, 0 a draw, -1 a loss", From: "Pascal Pons' test set " + s.Name}
	for i, e := range s.Entries[:n] {
		st, err := e.State()
		if err != nil {
			return nil, err
		}
		r, ok := l.Rows[i]
		if !ok {
			return nil, fmt.Errorf("%s line %d is not labelled", s.Name, e.Line)
		}
		ae := accuracy.Entry{Position: st.String(), Score: int(r.Best())}
		for c, k := range r {
			if k != Full {
				ae.Moves = append(ae.Moves, accuracy.MoveScore{Move: st.ActionString(c), Score: int(k)})
			}
		}
		out.Entries = append(out.Entries, ae)
	}
	return out, nil
}
