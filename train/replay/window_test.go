package replay

import (
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env/envtest"
)

// mirrored is a take-away game given a made-up symmetry that swaps its two
// input values and its two actions, to test the augmentation's plumbing.
type mirrored struct{ envtest.TakeAway }

func (mirrored) Symmetries() int { return 2 }
func (mirrored) TransformInput(k int, src, dst []float32) {
	dst[0], dst[1] = src[1], src[0]
}
func (mirrored) TransformAction(k, a int) int { return 1 - a }

func TestReplayWindowAndAugmentation(t *testing.T) {
	r := NewWindow(3)
	for i := 0; i < 5; i++ {
		r.Add([]Sample{{Input: []float32{float32(i), 10}, Actions: []int32{0}, Policy: []float32{1}, Value: float32(i)}})
	}
	if r.Len() != 3 {
		t.Fatalf("window holds %d, want 3", r.Len())
	}
	b := NewBatch(200, 2, 2)
	r.Fill(rand.New(rand.NewPCG(1, 2)), b, 2, 2, nil, 0)
	seen := map[float32]bool{}
	for i := 0; i < b.Size; i++ {
		v := b.Value[i]
		seen[v] = true
		if v < 2 {
			t.Fatalf("sampled position %v, which left the window", v)
		}
		if b.Input[2*i] != v || b.Policy[2*i] != 1 || b.Legal[2*i+1] != 0 {
			t.Fatalf("sample %d assembled wrongly: %v %v %v", i, b.Input[2*i:2*i+2], b.Policy[2*i:2*i+2], b.Legal[2*i:2*i+2])
		}
	}
	if len(seen) != 3 {
		t.Errorf("sampled %d distinct positions, want all 3", len(seen))
	}
	r.Fill(rand.New(rand.NewPCG(1, 2)), b, 2, 2, mirrored{}, 0)
	flipped := 0
	for i := 0; i < b.Size; i++ {
		if b.Input[2*i] == 10 {
			flipped++
			if b.Policy[2*i+1] != 1 || b.Legal[2*i] != 0 || b.Input[2*i+1] != b.Value[i] {
				t.Fatalf("mirrored sample %d: input %v policy %v", i, b.Input[2*i:2*i+2], b.Policy[2*i:2*i+2])
			}
		}
	}
	if flipped < 60 || flipped > 140 {
		t.Errorf("%d of 200 samples mirrored, want about half", flipped)
	}
}

// With surprise weighting a position whose search misjudged its outcome
// most (surprise 2) is drawn three times as often as one it judged right
// (k = 1: weights 3 and 1).
func TestSurpriseWeighting(t *testing.T) {
	r := NewWindow(2)
	r.Add([]Sample{{Input: []float32{0, 0}, Actions: []int32{0}, Policy: []float32{1}, Value: 0, Surprise: 0},
		{Input: []float32{1, 0}, Actions: []int32{0}, Policy: []float32{1}, Value: 1, Surprise: 2}})
	b := NewBatch(4000, 2, 2)
	r.Fill(rand.New(rand.NewPCG(3, 4)), b, 2, 2, nil, 1)
	surprising := 0
	for _, v := range b.Value {
		if v == 1 {
			surprising++
		}
	}
	if share := float64(surprising) / 4000; share < 0.72 || share > 0.78 {
		t.Errorf("the surprising position is %.2f of the draws, want 0.75", share)
	}
}
