package replay

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/envtest"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
)

// Every game's inputs survive packing exactly, whatever their planes hold
// (pieces as bits, RLGame's ply fraction as a constant, anything else as
// floats).
func TestPackRoundTrip(t *testing.T) {
	for _, spec := range []registry.Spec{games.DefaultTraining(), {Name: "rlgame"}, {Name: "catsdogs"}} {
		g, err := games.New(spec)
		if err != nil {
			t.Fatal(err)
		}
		shape := g.InputShape()
		x := make([]float32, shape.Size())
		back := make([]float32, shape.Size())
		for _, s := range envtest.RandomPositions(g, rand.New(rand.NewPCG(1, 2)), 200) {
			s.Encode(x)
			b := packInput(x, shape)
			if err := unpackInput(b, shape, back); err != nil {
				t.Fatal(err)
			}
			for i := range x {
				if x[i] != back[i] {
					t.Fatalf("%s: %s: input %d is %v, read back %v", spec.Name, s, i, x[i], back[i])
				}
			}
		}
	}
	// A plane of arbitrary floats, and damaged packings.
	shape := env.Shape{C: 2, H: 2, W: 2}
	x := []float32{0.5, -1, 3, 0.25, 1, 0, 1, 1}
	b := packInput(x, shape)
	back := make([]float32, 8)
	if err := unpackInput(b, shape, back); err != nil || fmt.Sprint(back) != fmt.Sprint(x) {
		t.Errorf("floats: %v, %v", back, err)
	}
	for _, bad := range [][]byte{b[:len(b)-1], append(append([]byte(nil), b...), 0), {7}} {
		if err := unpackInput(bad, shape, back); err == nil {
			t.Errorf("damaged packing %v accepted", bad)
		}
	}
}
