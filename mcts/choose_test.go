package mcts

import "testing"

// The move a search plays is its most visited child; a tie in visits goes
// to the higher prior, and a tie in both to the first child, so that a
// seeded search plays the same move whatever the order it would scan in.
func TestMostVisitedBreaksTies(t *testing.T) {
	kid := func(visits int32, prior float32) node { return node{visits: visits, prior: prior} }
	cases := []struct {
		name string
		kids []node
		want int
	}{
		{"most visits", []node{kid(3, 0.9), kid(5, 0.1), kid(4, 0)}, 1},
		{"a tie in visits: the higher prior", []node{kid(5, 0.2), kid(5, 0.5), kid(2, 0.9)}, 1},
		{"a tie in both: the first", []node{kid(1, 0.25), kid(4, 0.25), kid(4, 0.25), kid(4, 0.25)}, 1},
		{"unvisited, equal priors: the first", []node{kid(0, 0.5), kid(0, 0.5)}, 0},
	}
	for _, c := range cases {
		if got := mostVisited(c.kids); got != c.want {
			t.Errorf("%s: child %d, want %d", c.name, got, c.want)
		}
	}
}
