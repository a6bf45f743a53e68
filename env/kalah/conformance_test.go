package kalah

import (
	"testing"

	"github.com/sliderzero/sliderzero/env/envtest"
)

func TestConformance(t *testing.T) {
	for _, c := range [][2]int{{0, 0}, {3, 1}, {6, 6}} {
		g, err := New(c[0], c[1])
		if err != nil {
			t.Fatal(err)
		}
		t.Log(g.Describe(), envtest.Conformance(t, g, envtest.Options{}))
	}
}

func FuzzConformance(f *testing.F) { envtest.FuzzParse(f, Default()) }

func BenchmarkPlayouts(b *testing.B) { envtest.BenchmarkPlayouts(b, Default()) }
