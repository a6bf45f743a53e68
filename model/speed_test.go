package model

import (
	"math"
	"testing"
	"time"
)

// The kernel timings cover a convolutional trunk as the pass runs it:
// each distinct layer and the heads at each batch size, with a count of
// multiply-adds that is the convolution's (cells x kernel x channels),
// not a dense layer's of the same sizes.
func TestLayerSpeedsOfAConvolution(t *testing.T) {
	a := Arch{Kind: KindConv, Width: 8, Depth: 1, Input: 75, Shape: []int{3, 5, 5}, Actions: 76}
	speeds, err := LayerSpeeds(a, []int{1, 4}, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range speeds {
		if s.Batch == 1 {
			names = append(names, s.Layer)
		}
		if s.MACs <= 0 || math.IsInf(s.MACs, 0) || math.IsNaN(s.MACs) {
			t.Errorf("%s at batch %d: %v multiply-adds a second", s.Layer, s.Batch, s.MACs)
		}
	}
	// in (3 to 8 channels), b0.1 (8 to 8; b0.2 has the same shape), heads.
	if len(names) != 3 || names[0] != "in" || names[1] != "b0.1" || names[2] != "heads" {
		t.Errorf("layers timed: %v", names)
	}
	trunk, _, _ := a.Layers()
	if got, want := trunk[1].MACs(), 25*9*8*8; got != want {
		t.Errorf("a convolution of 8 to 8 channels on 25 cells counts %d multiply-adds, want %d", got, want)
	}
}
