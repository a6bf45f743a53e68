package env

import (
	"context"
	"time"
)

// SearchStop is what ends an exact solver's search early: its context, the
// context's deadline (read from the clock only when the solver asks, every
// few thousand nodes, since a clock read costs more than a node) and a
// budget of nodes counted from the search's first. Solvers embed it.
type SearchStop struct {
	ctx          context.Context
	deadline     time.Time
	budget, from uint64
	// Stopped is set once the search must end; the inner loops read it.
	Stopped bool
}

// SetBudget bounds the nodes each later search may visit (0: no bound).
// Unlike a time limit, a budget gives the same answer on any machine.
func (s *SearchStop) SetBudget(nodes uint64) { s.budget = nodes }

// Begin starts a search under ctx, at the solver's node count nodes.
func (s *SearchStop) Begin(ctx context.Context, nodes uint64) {
	s.ctx, s.Stopped, s.from = ctx, false, nodes
	s.deadline = time.Time{}
	if d, ok := ctx.Deadline(); ok {
		s.deadline = d
	}
}

// Expired reports whether the search must end, and remembers it in
// Stopped.
func (s *SearchStop) Expired(nodes uint64) bool {
	if s.ctx.Err() != nil || (!s.deadline.IsZero() && time.Now().After(s.deadline)) || s.overBudget(nodes) {
		s.Stopped = true
	}
	return s.Stopped
}

// Err is why a stopped search ended: the context's error, budgetErr when
// the budget ran out, or else the deadline's.
func (s *SearchStop) Err(nodes uint64, budgetErr error) error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	if s.overBudget(nodes) {
		return budgetErr
	}
	return context.DeadlineExceeded
}

func (s *SearchStop) overBudget(nodes uint64) bool {
	return s.budget > 0 && nodes-s.from >= s.budget
}
