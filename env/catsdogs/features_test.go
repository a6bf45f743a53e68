package catsdogs

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sliderzero/sliderzero/env/envtest"
	"github.com/sliderzero/sliderzero/env/registry"
)

var featured, _ = NewWith(0, true)

func encodeFeatured(t *testing.T, pos string) []float32 {
	t.Helper()
	s, err := featured.ParseState(pos)
	if err != nil {
		t.Fatalf("%s: %v", pos, err)
	}
	dst := make([]float32, featured.InputShape().Size())
	for i := range dst {
		dst[i] = 9 // Encode must write every value
	}
	s.Encode(dst)
	return dst
}

func at(x, y int) int { return y*Size + x }

func TestFeaturesAtTheStart(t *testing.T) {
	in := encodeFeatured(t, "CDDDDDC/DDDDDDD/DDDDDDD/DDDCDDD/DDDDDDD/DDDDDDD/CDDDDDC C")
	if got := featured.InputShape().C; got != 8 {
		t.Fatalf("%d planes, want the board's 4 and 4 of features", got)
	}
	plain := make([]float32, game.InputShape().Size())
	parse(t, "CDDDDDC/DDDDDDD/DDDDDDD/DDDCDDD/DDDDDDD/DDDDDDD/CDDDDDC C").Encode(plain)
	if !slices.Equal(in[:len(plain)], plain) {
		t.Error("the board planes differ from the plain game's")
	}
	capt := in[PlaneCapturable*cells:]
	// b1 is beside the Cat on a1 only; d3 beside the centre's.
	for _, c := range []struct{ x, y int }{{1, 0}, {0, 1}, {3, 2}, {3, 4}, {2, 3}, {4, 3}, {5, 6}} {
		if capt[at(c.x, c.y)] != 0.25 {
			t.Errorf("capturable at (%d,%d) = %v, want 0.25", c.x, c.y, capt[at(c.x, c.y)])
		}
	}
	if capt[at(2, 2)] != 0 || capt[at(0, 0)] != 0 {
		t.Error("a cell no Cat can take, or a Cat's own, is marked capturable")
	}
	for i, v := range in[PlaneLosing*cells : (PlaneLosing+1)*cells] {
		if v != 0 {
			t.Errorf("no opening capture makes a line, but cell %d is marked", i)
		}
	}
	// Rows 1 and 7 and columns a and g each hold two Cats.
	paired := in[PlanePaired*cells:]
	if paired[at(3, 0)] != float32(2)/3 || paired[at(0, 3)] != float32(2)/3 || paired[at(3, 3)] != 0 || paired[at(2, 2)] != 0 {
		t.Errorf("paired planes wrong: d1 %v, a4 %v, d4 %v, c3 %v", paired[at(3, 0)], paired[at(0, 3)], paired[at(3, 3)], paired[at(2, 2)])
	}
	counts := in[PlaneCounts*cells : (PlaneCounts+1)*cells]
	want := make([]float32, cells)
	want[countCaptures], want[countSafe], want[countPairs] = 12.0/16, 12.0/16, 4.0/10
	if !slices.Equal(counts, want) {
		t.Errorf("counts %v, want 12 captures, all safe, 4 pairs", counts[:3])
	}
}

func TestFeaturesMarkALosingCapture(t *testing.T) {
	// Cats on a1 and b1; the Cat on c2 taking the Dog on c1 makes three
	// in row 1, taking b2 or d2 does not (nor does b1 taking c1).
	in := encodeFeatured(t, "......./......./......./......./......./.DCD.../CCD.... C")
	losing := in[PlaneLosing*cells:]
	if losing[at(2, 0)] != 1 {
		t.Error("c1's capture makes a line of three but is not marked")
	}
	if losing[at(3, 1)] != 0 || losing[at(1, 1)] != 0 {
		t.Error("d2's or b2's capture is marked, yet neither makes a line")
	}
	counts := in[PlaneCounts*cells:]
	// b1 takes b2 or c1; c2 takes b2, d2 or c1: five captures, one losing.
	if counts[countCaptures] != 5.0/16 || counts[countSafe] != 4.0/16 {
		t.Errorf("captures %v, safe %v: want 5 and 4 sixteenths", counts[countCaptures], counts[countSafe])
	}
	capt := in[PlaneCapturable*cells:]
	if capt[at(1, 1)] != 0.5 || capt[at(2, 0)] != 0.5 || capt[at(3, 1)] != 0.25 {
		t.Errorf("capturable b2 %v, c1 %v, d2 %v: want two Cats, two and one", capt[at(1, 1)], capt[at(2, 0)], capt[at(3, 1)])
	}
}

// The features follow the board under every symmetry: transforming a
// position's input is encoding the transformed position.
func TestFeaturesFollowTheSymmetries(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	src := make([]float32, featured.InputShape().Size())
	dst := make([]float32, len(src))
	img := make([]float32, len(src))
	for game := 0; game < 40; game++ {
		s := featured.Start(nil).(*State)
		for !s.Outcome().Over {
			s.Encode(src)
			for k := 0; k < 8; k++ {
				featured.TransformInput(k, src, dst)
				mirror(s, k).Encode(img)
				if !slices.Equal(dst, img) {
					t.Fatalf("symmetry %d of %s: the transformed input is not the transformed position's", k, s)
				}
			}
			moves := s.LegalActions(nil)
			s.Apply(moves[rng.IntN(len(moves))])
		}
	}
}

func TestFeaturesOption(t *testing.T) {
	reg, err := registry.Lookup("catsdogs")
	if err != nil {
		t.Fatal(err)
	}
	g, err := reg.New(registry.Spec{Name: "catsdogs"}.With("features", "1"))
	if err != nil {
		t.Fatal(err)
	}
	if g.InputShape() != featured.InputShape() || g.Describe() != "catsdogs features=1 plycap=200" {
		t.Errorf("features=1 builds %s with %+v", g.Describe(), g.InputShape())
	}
	t.Log(envtest.Conformance(t, featured, envtest.Options{}))
}
