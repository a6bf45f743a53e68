package uct

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env/connect4"
)

// Plain UCT with random playouts finds what a few thousand playouts show:
// the winning move, and the block of the opponent's open three (in the
// second position every other move loses at once).
func TestUCTFindsTheTactic(t *testing.T) {
	for _, threads := range []int{1, 4} {
		t.Run(fmt.Sprintf("threads=%d", threads), func(t *testing.T) { findsTheTactic(t, threads) })
	}
}

func findsTheTactic(t *testing.T, threads int) {
	g := connect4.New()
	for _, c := range []struct{ name, position, want string }{
		{"take the win", "......./......./......./......./O....../XXX.OO. X", "d"},
		{"block the open three", "......./......./......./......./....X../OOO.X.X X", "d"},
	} {
		s, err := g.ParseState(c.position)
		if err != nil {
			t.Fatal(err)
		}
		u := New(Config{Sims: 3000, Threads: threads}, rand.New(rand.NewPCG(7, 8)))
		a, err := u.Search(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.ActionString(a); got != c.want {
			t.Errorf("%s: played %s, want %s", c.name, got, c.want)
		}
	}
}
