package env

import "testing"

// A position's score lies between its moves' highest lower bound and
// highest upper bound: a settled draw and an unsettled move that may win
// make a position that is at least a draw.
func TestPositionBounds(t *testing.T) {
	moves := []MoveScore{{0, Bounds{-3, -3}}, {1, Bounds{0, 0}}, {2, Bounds{-1, 5}}}
	if got := PositionBounds(moves); got != (Bounds{0, 5}) {
		t.Errorf("PositionBounds = %v, want 0..5", got)
	}
	if got := PositionBounds(moves[:2]); got != (Bounds{0, 0}) {
		t.Errorf("settled: %v", got)
	}
}

// Excerpt never cuts a character in two.
func TestExcerptKeepsCharacters(t *testing.T) {
	if got := Excerpt("ab\u00e9cd", 3); got != "ab..." {
		t.Errorf("Excerpt = %q", got)
	}
	if got := Excerpt("abc", 3); got != "abc" {
		t.Errorf("a short text: %q", got)
	}
}
