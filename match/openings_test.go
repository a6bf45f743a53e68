package match

import (
	"context"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env/games"
)

// Openings are distinct positions the given plies in, judged balanced,
// the same for one seed; a judge that reports no value is refused.
func TestBalancedOpenings(t *testing.T) {
	g, err := games.New(spec4)
	if err != nil {
		t.Fatal(err)
	}
	o := OpeningsOptions{Count: 4, Plies: 3, Balance: 1, Seed: 5}
	a, judged, err := BalancedOpenings(context.Background(), g, entrant("mcts:sims=50"), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 4 || judged < 4 {
		t.Fatalf("%d openings of %d judged, want 4", len(a), judged)
	}
	seen := map[string]bool{}
	for _, line := range a {
		s, err := g.ParseState(line)
		if err != nil || s.Outcome().Over || seen[line] {
			t.Errorf("opening %q: %v, over or repeated", line, err)
		}
		seen[line] = true
	}
	b, _, _ := BalancedOpenings(context.Background(), g, entrant("mcts:sims=50"), o)
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Error("one seed gave two sets of openings")
	}
	if _, _, err := BalancedOpenings(context.Background(), g, entrant("random"), o); err == nil || !strings.Contains(err.Error(), "does not report") {
		t.Errorf("a judge without a value: %v", err)
	}
}
