package connect4

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sliderzero/sliderzero/env/envtest"
	"github.com/sliderzero/sliderzero/env/registry"
)

// The threats are exactly the empty cells where one more disc makes four,
// found one cell at a time.
func TestThreatsAreTheCellsThatMakeFour(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	g := New()
	for game := 0; game < 300; game++ {
		s := g.Start(nil).(*State)
		for !s.Outcome().Over {
			occupied := s.pieces[X] | s.pieces[O]
			for _, side := range []int{0, 1} {
				var want uint64
				for c := 0; c < Cols; c++ {
					for r := 0; r < Rows; r++ {
						if cell := uint64(1) << square(c, r); occupied&cell == 0 && fourInARow(s.pieces[side]|cell) {
							want |= cell
						}
					}
				}
				if got := threats(s.pieces[side], occupied); got != want {
					t.Fatalf("%s, side %d: threats %x, want %x", s, side, got, want)
				}
			}
			moves := s.LegalActions(nil)
			s.Apply(moves[rng.IntN(len(moves))])
		}
	}
}

func TestThreatPlanes(t *testing.T) {
	g := NewWithFeatures()
	// X, to move, has three across the bottom row and threatens d1; O's
	// three up column e threaten e4.
	s, err := g.ParseState("......./......./......./....O../....O../XXX.O.. X")
	if err != nil {
		t.Fatal(err)
	}
	in := make([]float32, g.InputShape().Size())
	s.Encode(in)
	mine, theirs := in[2*cells:3*cells], in[3*cells:]
	at := func(col, row int) int { return row*Cols + col }
	for i := range mine {
		if want := i == at(3, 0); (mine[i] == 1) != want {
			t.Errorf("the mover's threat plane at %d is %v", i, mine[i])
		}
		if want := i == at(4, 3); (theirs[i] == 1) != want {
			t.Errorf("the opponent's threat plane at %d is %v", i, theirs[i])
		}
	}
	plain := make([]float32, New().InputShape().Size())
	s2, _ := New().ParseState(s.String())
	s2.Encode(plain)
	if !slices.Equal(plain, in[:2*cells]) {
		t.Error("the disc planes differ from the plain game's")
	}
}

// Mirroring the input is encoding the mirrored position.
func TestThreatPlanesMirror(t *testing.T) {
	g := NewWithFeatures()
	rng := rand.New(rand.NewPCG(9, 10))
	src := make([]float32, g.InputShape().Size())
	dst, img := make([]float32, len(src)), make([]float32, len(src))
	for game := 0; game < 100; game++ {
		s, m := g.Start(nil).(*State), g.Start(nil).(*State)
		for !s.Outcome().Over {
			s.Encode(src)
			g.TransformInput(1, src, dst)
			m.Encode(img)
			if !slices.Equal(dst, img) {
				t.Fatalf("%s: the mirrored input is not the mirrored position's", s)
			}
			moves := s.LegalActions(nil)
			a := moves[rng.IntN(len(moves))]
			s.Apply(a)
			m.Apply(g.TransformAction(1, a))
		}
	}
}

func TestFeaturesOption(t *testing.T) {
	reg, err := registry.Lookup("connect4")
	if err != nil {
		t.Fatal(err)
	}
	g, err := reg.New(registry.Spec{Name: "connect4"}.With("features", "1"))
	if err != nil {
		t.Fatal(err)
	}
	if g.InputShape().C != 4 || g.Describe() != "connect4 features=1" {
		t.Errorf("features=1 builds %s with %+v", g.Describe(), g.InputShape())
	}
	t.Log(envtest.Conformance(t, g, envtest.Options{}))
}
