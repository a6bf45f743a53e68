package rlgame

import (
	"testing"

	"github.com/sliderzero/sliderzero/env/envtest"
)

// The conformance suite on the default game and a small one.
func TestConformance(t *testing.T) {
	for _, cfg := range []Config{{}, {Size: 5, Base: 1, Pawns: 3}} {
		g, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Log(envtest.Conformance(t, g, envtest.Options{}))
	}
}

func FuzzConformance(f *testing.F) {
	g, err := New(Config{})
	if err != nil {
		f.Fatal(err)
	}
	envtest.FuzzParse(f, g)
}
