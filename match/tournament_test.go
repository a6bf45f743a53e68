package match

import (
	"context"
	"testing"
)

// Every pair meets for the series' games, seeded by the pair, and the
// table holds each pair's score.
func TestTournamentPlaysEveryPair(t *testing.T) {
	names := []string{"random", "greedy", "alphabeta:depth=2"}
	var es []Entrant
	for _, n := range names {
		es = append(es, entrant(n))
	}
	games := 0
	res, err := Tournament{Names: names, Entrants: es, OnGame: func() { games++ },
		Series: Series{Spec: spec4, Games: 4, Seed: 9, Parallel: 2}}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 12 || games != 12 || res.Interrupted {
		t.Fatalf("%d records, %d games heard, interrupted %v; want 12", len(res.Records), games, res.Interrupted)
	}
	for i := range names {
		for j := range names {
			if _, g := res.Table.Result(i, j); i != j && g != 4 {
				t.Errorf("%s against %s: %v games, want 4", names[i], names[j], g)
			}
		}
	}
	// The same seed gives the same games.
	again, err := Tournament{Names: names, Entrants: es, Series: Series{Spec: spec4, Games: 4, Seed: 9, Parallel: 1}}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for k := range res.Records {
		if a, b := res.Records[k].Moves, again.Records[k].Moves; len(a) != len(b) || a[len(a)-1] != b[len(b)-1] {
			t.Fatalf("game %d differs between runs of one seed", k)
		}
	}
	if _, err := (Tournament{Names: names[:1], Entrants: es[:1]}).Run(context.Background()); err == nil {
		t.Error("a tournament of one player ran")
	}
}
