package fitspec

import (
	"slices"
	"testing"

	"github.com/sliderzero/sliderzero/model"
)

func TestParseNet(t *testing.T) {
	if k, w, d, err := ParseNet("resmlp:128x2"); err != nil || k != model.KindResMLP || w != 128 || d != 2 {
		t.Errorf("resmlp:128x2: %v %v %v %v", k, w, d, err)
	}
	if k, w, d, err := ParseNet("conv:32x4"); err != nil || k != model.KindConv || w != 32 || d != 4 {
		t.Errorf("conv:32x4: %v %v %v %v", k, w, d, err)
	}
	for _, bad := range []string{"mlp", "mlp:128", "cnn:1x2", "mlp:ax3", "mlp:0x3", "mlp:128x-1"} {
		if _, _, _, err := ParseNet(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestParseSims(t *testing.T) {
	if got, err := ParseSims("100, 800,,3200"); err != nil || !slices.Equal(got, []int{100, 800, 3200}) {
		t.Errorf("got %v %v", got, err)
	}
	if got, err := ParseSims(""); err != nil || len(got) != 0 {
		t.Errorf("empty: %v %v", got, err)
	}
	for _, bad := range []string{"0", "-5", "a", "100,x"} {
		if _, err := ParseSims(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
